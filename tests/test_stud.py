"""Seven-Card Stud (R81), Razz (R82) and Stud Hi-Lo (R83, R80), dealt by hand: who brings in
and why, who acts first on each street, the bets' sizes, the showdown of the down cards, exact
chips and the words the dealer sees; through the JSON API too (R88)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import Dealer
from table_helpers import act, refuse

from dealer_assist.core.errors import SetupError
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table
from dealer_assist.web.state import table_state

STUD = "seven_card_stud"


def street(t: Table, cards: dict[str, str]) -> Table:
    return act(t, type="reveal", cards=cards)


def checks(t: Table) -> Table:
    """Everyone to act checks, or calls, until the round is over."""
    while t.step()["kind"] == "bet":
        step = t.step()
        t = act(t, type="check" if "check" in step["options"] else "call", player=step["player"])
    return t


def third_street(variant: str = STUD, names: tuple[str, ...] = ("Ann", "Bob", "Cy"),
                 up: tuple[str, ...] = ("Kd", "2c", "2d"), rules: dict[str, Any] | None = None
                 ) -> Table:
    t = new_table(variant, list(names), rules or {})
    t = act(t, type="start_deal")
    return street(t, dict(zip(names, up, strict=True)))


# ------------------------------------------------------------------- R81: the bring-in
def test_r81_the_lowest_up_card_brings_in_ties_by_suit_and_says_why() -> None:
    t = third_street(up=("Kd", "2d", "2c"))  # two deuces: clubs is lower than diamonds
    step = t.step()
    assert (step["player"], step["options"]) == ("Cy", ["bring_in", "bet"])
    assert step["why"] == "Cy brings in: two of clubs, the lowest up card."
    assert step["instruction"] == "Third street: Cy: bring in 1 or complete to 2."
    assert step["min_raise_to"] == step["max_raise_to"] == 2  # the small bet completes


def test_r81_only_the_bring_in_or_its_completion_and_a_clear_sentence_otherwise() -> None:
    t = third_street()  # Bob has the 2 of clubs
    refuse(t, "Ann cannot bring in. Bob brings in: two of clubs, the lowest up card.",
           type="bring_in", player="Ann")
    refuse(t, "Bob cannot check: Bob brings in 1 or completes to 2 first.",
           type="check", player="Bob")
    refuse(t, "Bob cannot fold: Bob brings in 1 or completes to 2 first.",
           type="fold", player="Bob")
    refuse(t, "in fixed limit this round it is bet to 2", type="bet", player="Bob", amount=3)


def test_r81_the_bring_in_is_half_the_small_bet_by_default_or_the_house_rule() -> None:
    t = third_street(rules={"small_bet": 10, "big_bet": 20, "ante": 2})
    assert [p.stack for p in t.deal.players] == [98, 98, 98]  # type: ignore[union-attr]
    t = act(t, type="bring_in", player="Bob")
    assert t.deal.players[1].stack == 93  # type: ignore[union-attr]
    assert t.step()["to_call"] == 5 and t.step()["min_raise_to"] == 10
    t = third_street(rules={"small_bet": 10, "big_bet": 20, "bring_in": 3})
    t = act(t, type="bring_in", player="Bob")
    assert t.deal.players[1].stack == 96  # type: ignore[union-attr]  # ante 1, bring-in 3
    with pytest.raises(SetupError, match=r"The bring-in \(4\) must be less than the small bet"):
        new_table(STUD, ["Ann", "Bob"], {"small_bet": 4, "bring_in": 4})


def test_r81_a_completion_is_the_bet_then_three_raises_the_bring_in_not_counted() -> None:
    t = third_street(names=("Ann", "Bob", "Cy", "Dee", "Eve"),
                     up=("Kd", "2c", "9h", "Ts", "Jd"))
    t = act(t, type="bring_in", player="Bob")
    step = t.step()
    assert (step["player"], step["options"]) == ("Cy", ["fold", "call", "bet"])
    refuse(t, "Cy cannot raise a bring-in: complete it with a bet to 2.",
           type="raise", player="Cy", amount=2)
    t = act(t, type="bet", player="Cy", amount=2)  # completes: the round's bet
    t = act(t, type="raise", player="Dee", amount=4)
    t = act(t, type="raise", player="Eve", amount=6)
    t = act(t, type="raise", player="Ann", amount=8)  # the third raise
    step = t.step()
    assert (step["player"], step["options"]) == ("Bob", ["fold", "call"])
    refuse(t, "a round allows one bet and three raises", type="raise", player="Bob", amount=10)
    for name in ("Bob", "Cy", "Dee", "Eve"):
        t = act(t, type="call", player=name)
    assert t.step()["kind"] == "reveal"
    assert [p.stack for p in t.deal.players] == [91] * 5  # type: ignore[union-attr]
    assert t.deal.pot_total() == 45  # type: ignore[union-attr]


# ------------------------------------------------------- R81: who acts first, bet sizes
def test_r81_from_fourth_street_the_best_hand_showing_acts_first_ties_from_the_dealers_left(
) -> None:
    t = third_street(names=("Ann", "Bob", "Cy", "Dee"), up=("Kd", "2c", "9h", "9s"))
    t = checks(act(t, type="bring_in", player="Bob"))
    t = street(t, {"Ann": "3d", "Bob": "Ac", "Cy": "9d", "Dee": "9c"})
    step = t.step()
    assert step["player"] == "Cy" and step["round"] == "Fourth street"
    assert step["why"] == "Cy acts first: a pair of nines, the best hand showing."
    # Cy and Dee both show a pair of nines: Ann deals the first deal, and from her left
    # (Bob, Cy, Dee) Cy comes first
    assert step["min_raise_to"] == 2  # small bets on fourth street
    t = checks(t)
    t = street(t, {"Ann": "Kh", "Bob": "4c", "Cy": "5d", "Dee": "6c"})
    step = t.step()
    assert step["why"] == "Ann acts first: a pair of kings, the best hand showing."
    assert step["min_raise_to"] == 4  # big bets from fifth street


def test_r81_equal_hands_showing_go_to_the_first_from_the_dealers_left() -> None:
    t = third_street(names=("Ann", "Bob", "Cy"), up=("Kd", "2c", "Ks"))
    t = checks(act(t, type="bring_in", player="Bob"))
    t = street(t, {"Ann": "7d", "Bob": "3c", "Cy": "7s"})
    # Ann deals the first deal: Bob is left of her, then Cy, then Ann; Cy's K-7 equals Ann's
    assert t.step()["why"] == "Cy acts first: king-seven, the best hand showing."


def test_r81_the_showdown_asks_for_three_down_cards_and_pays_the_best_five_of_seven() -> None:
    t = third_street()
    t = checks(act(t, type="bring_in", player="Bob"))
    for up in ({"Ann": "Kh", "Bob": "3c", "Cy": "9d"}, {"Ann": "5h", "Bob": "4c", "Cy": "Td"},
               {"Ann": "6h", "Bob": "7c", "Cy": "Jd"}):
        t = checks(street(t, up))
    step = t.step()
    assert step["instruction"] == ("Seventh street: deal one card down to each player still "
                                   "in, then tap Next.")
    t = checks(act(t, type="next"))
    step = t.step()
    assert (step["kind"], step["players"], step["hole_cards"]) == (
        "showdown", ["Ann", "Bob", "Cy"], 3)
    assert step["instruction"] == "Showdown: enter the three down cards of Ann, Bob and Cy."
    refuse(t, "Cy has 3 hole cards, not 2.", type="showdown",
           hands={"Ann": ["As", "Ad", "3h"], "Bob": ["5c", "6c", "8c"], "Cy": ["Qs", "Qd"]})
    refuse(t, "K♦ is entered twice: Ann's up cards and Cy's hand.", type="showdown",
           hands={"Ann": ["As", "Ad", "3h"], "Bob": ["5c", "6c", "8c"], "Cy": ["Qs", "Qd", "Kd"]})
    t = act(t, type="showdown", hands={"Ann": ["As", "Ad", "3h"], "Bob": ["5c", "6c", "8c"],
                                       "Cy": ["Qs", "Qd", "Qh"]})
    result = t.deal.result  # type: ignore[union-attr]
    assert result is not None
    assert result.payouts == {"Bob": 6}  # antes 3, bring-in 1 called twice
    assert result.hands["Bob"].hand == "Straight flush, eight high"
    assert result.hands["Ann"].cards == ["As", "Ad", "Kd", "Kh", "6h"]
    assert t.game.result_sentences(result) == ["Pot 6: Bob, an eight-high straight flush."]
    assert [p.stack for p in t.deal.players] == [98, 104, 98]  # type: ignore[union-attr]


def test_r81_up_cards_are_public_down_cards_are_not() -> None:
    t = third_street()
    public = table_state(t)
    assert [p["up"] for p in public["players"]] == [["Kd"], ["2c"], ["2d"]]
    assert all("hand" not in p for p in public["players"])
    assert public["step"]["why"] == "Bob brings in: two of clubs, the lowest up card."
    before = table_state(new_table(STUD, ["Ann", "Bob"]))
    assert [p["up"] for p in before["players"]] == [[], []]


def test_r81_every_new_up_card_is_entered_once_by_player() -> None:
    t = act(new_table(STUD, ["Ann", "Bob", "Cy"]), type="start_deal")
    refuse(t, re.escape("Enter every new up card (third street): Cy's is missing."),
           type="reveal", cards={"Ann": "Kd", "Bob": "2c"})
    refuse(t, "2♣ is entered twice: Ann's up cards and Bob's up cards.",
           type="reveal", cards={"Ann": "2c", "Bob": "2c", "Cy": "3c"})
    refuse(t, "There is no player called Dee at this table.",
           type="reveal", cards={"Ann": "Kd", "Bob": "2c", "Cy": "3c", "Dee": "4c"})
    refuse(t, "Give each player's up card by name", type="reveal", cards=["Kd", "2c", "3c"])
    t = act(t, type="reveal", cards={"ann": "Kd", "BOB": "2c", "Cy": "3c"})
    t = act(act(t, type="bring_in", player="Bob"), type="fold", player="Cy")
    t = act(t, type="call", player="Ann")
    refuse(t, "Cy is not in the hand: no up card for them.",
           type="reveal", cards={"Ann": "Kh", "Bob": "3d", "Cy": "4d"})


def test_r81_eight_players_to_seventh_street_share_one_card_in_the_middle() -> None:
    names = [f"P{i}" for i in range(8)]
    ranks = "23456789"
    t = act(new_table(STUD, names), type="start_deal")
    for suit in "cdhs":
        t = street(t, {n: ranks[i] + suit for i, n in enumerate(names)})
        step = t.step()
        if "bring_in" in step["options"]:
            t = act(t, type="bring_in", player=step["player"])
        t = checks(t)
    step = t.step()
    assert (step["kind"], step["cells"]) == ("reveal", ["c1"])  # 52 - 48 = 4 cards for 8
    assert step["instruction"] == ("Seventh street: too few cards are left for everyone: turn "
                                   "one face up in the middle for all, then enter it.")
    refuse(t, "Seventh street: enter the one card in the middle", type="reveal",
           cards={"c1": "As", "c2": "Ks"})
    later = checks(act(t, type="reveal"))  # the card may wait for the showdown
    assert later.step()["cells"] == ["c1"]
    assert later.step()["instruction"].endswith("and the card in the middle.")
    t = checks(act(t, type="reveal", cards={"c1": "As"}))
    step = t.step()
    assert step["hole_cards"] == 2  # two down cards each, the middle card is everyone's
    refuse(t, "At this showdown only the players' down cards are entered", type="showdown",
           board=["Ks"])
    cards = iter(["Ts", "Th", "Td", "Tc", "Js", "Jh", "Jd", "Jc", "Qs", "Qh", "Qd", "Qc",
                  "Ks", "Kh", "Kd", "Kc"])
    t = act(t, type="showdown", hands={n: [next(cards), next(cards)] for n in names})
    result = t.deal.result  # type: ignore[union-attr]
    assert result is not None
    # P7's four nines beat P6's four eights, with the ace in the middle as the kicker; the
    # pot is the eight antes and the eight bring-ins called
    assert result.payouts == {"P7": 16}
    assert result.hands["P7"].hand == "Four of a kind, nines"
    assert result.hands["P7"].cards == ["9c", "9d", "9h", "9s", "As"]


# ----------------------------------------------------------------- the JSON API
def test_r81_r88_a_stud_deal_through_the_json_api(make_table: Any) -> None:
    dealer: Dealer = make_table(STUD, ["Ann", "Bob", "Cy"], {"ante": 2, "small_bet": 4,
                                                              "big_bet": 8})
    state = dealer.run({"type": "start_deal"})
    assert state["step"]["kind"] == "reveal" and state["step"]["players"] == ["Ann", "Bob", "Cy"]
    state = dealer.run({"type": "reveal", "cards": {"Ann": "Kd", "Bob": "2c", "Cy": "9d"}})
    assert state["step"]["why"] == "Bob brings in: two of clubs, the lowest up card."
    dealer.refuse({"type": "bring_in", "player": "Cy"},
                  "Cy cannot bring in. Bob brings in: two of clubs, the lowest up card.")
    state = dealer.run({"type": "bring_in", "player": "Bob"},
                       {"type": "bet", "player": "Cy", "amount": 4},
                       {"type": "fold", "player": "Ann"}, {"type": "call", "player": "Bob"})
    assert [p["up"] for p in state["players"]] == [["Kd"], ["2c"], ["9d"]]
    state = dealer.run({"type": "reveal", "cards": {"Bob": "2h", "Cy": "Ad"}})
    assert state["step"]["why"] == "Bob acts first: a pair of twos, the best hand showing."
    state = dealer.run({"type": "bet", "player": "Bob", "amount": 4},
                       {"type": "fold", "player": "Cy"})
    assert state["result"]["winners"] == ["Bob"]
    assert dealer.stacks() == {"Ann": 98, "Bob": 108, "Cy": 94}


# ----------------------------------------------------------------------- R82: Razz
def test_r82_razz_the_highest_up_card_brings_in_kings_highest_aces_lowest_spades_on_ties(
) -> None:
    t = third_street("razz", ("Ann", "Bob", "Cy", "Dee"), ("Ks", "Kh", "Ac", "Qd"))
    step = t.step()
    assert step["player"] == "Ann"
    assert step["why"] == "Ann brings in: king of spades, the highest up card."
    t = third_street("razz", ("Ann", "Bob"), ("Ad", "2c"))  # the ace is the lowest card
    assert t.step()["why"] == "Bob brings in: two of clubs, the highest up card."


def test_r82_razz_the_lowest_hand_showing_acts_first_and_the_lowest_hand_wins() -> None:
    t = third_street("razz", ("Ann", "Bob", "Cy"), ("Kd", "2c", "3d"))
    t = checks(act(t, type="bring_in", player="Ann"))
    t = street(t, {"Ann": "Ks", "Bob": "9c", "Cy": "4d"})  # Ann's pair is the worst showing
    step = t.step()
    assert step["why"] == "Cy acts first: four-three, the lowest hand showing."
    t = checks(t)
    for up in ({"Ann": "5h", "Bob": "Ac", "Cy": "6d"}, {"Ann": "6h", "Bob": "7c", "Cy": "Jd"}):
        t = checks(street(t, up))
    t = checks(act(t, type="next"))
    t = act(t, type="showdown", hands={"Ann": ["As", "2d", "3h"], "Bob": ["4c", "8c", "Tc"],
                                       "Cy": ["8s", "Qs", "Qh"]})
    result = t.deal.result  # type: ignore[union-attr]
    assert result is not None
    # Bob's 2 9 A 7 up and 4 8 T down make 8-7-4-2-A; Ann's K K 5 6 up and A 2 3 down make
    # 6-5-3-2-A, the lowest (the pair of kings does not play)
    assert result.hands["Ann"].hand == "6-5-3-2-A low"
    assert result.hands["Bob"].hand == "8-7-4-2-A low"
    assert result.payouts == {"Ann": 6}
    assert t.game.result_sentences(result) == ["Pot 6: Ann, 6-5-3-2-A low."]


# ------------------------------------------------------------- R83, R80: Stud Hi-Lo
HI_LO = "seven_card_stud_hi_lo"


def to_showdown(t: Table, ups: list[dict[str, str]]) -> Table:
    """Checks (and the bring-in's calls) through every street of ``ups`` and seventh."""
    step = t.step()
    t = checks(act(t, type="bring_in", player=step["player"]))
    for up in ups:
        t = checks(street(t, up))
    return checks(act(t, type="next"))


def test_r83_r80_a_pot_split_high_and_low_with_the_odd_chip_to_the_high_half() -> None:
    t = third_street(HI_LO, ("Ann", "Bob", "Cy"), ("Kd", "2c", "9d"))
    t = act(t, type="bring_in", player="Bob")
    t = act(t, type="call", player="Cy")
    t = act(t, type="call", player="Ann")  # the pot: 3 antes and 3 bring-ins, 6
    t = street(t, {"Ann": "Kh", "Bob": "5c", "Cy": "4h"})
    step = t.step()
    assert step["why"] == "Ann acts first: a pair of kings, the best hand showing."
    t = act(t, type="bet", player="Ann", amount=2)
    t = act(t, type="call", player="Bob")
    t = act(t, type="fold", player="Cy")  # the pot: 6, and 2 each on fourth street: 10
    t = checks(street(t, {"Ann": "7s", "Bob": "Jd"}))
    t = checks(street(t, {"Ann": "3d", "Bob": "8h"}))
    t = checks(act(t, type="next"))
    assert t.step()["instruction"] == "Showdown: enter the three down cards of Ann and Bob."
    # Ann's four kings beat Bob's wheel (a straight) high; the wheel is the best low
    t = act(t, type="showdown", hands={"Ann": ["As", "Ks", "Kc"], "Bob": ["Ac", "4d", "3c"]})
    result = t.deal.result  # type: ignore[union-attr]
    assert result is not None
    assert result.payouts == {"Ann": 5, "Bob": 5}
    pot = result.to_json()["pots"][0]
    assert pot["amount"] == 10
    assert pot["high"] == {"winners": ["Ann"], "hand": "Four of a kind, kings", "amount": 5}
    assert pot["low"] == {"winners": ["Bob"], "hand": "5-4-3-2-A low", "amount": 5}
    assert t.game.result_sentences(result) == [
        "Pot 10: Ann takes the high half (5) with four kings, Bob the low half (5) with "
        "5-4-3-2-A low."]
    assert [p.stack for p in t.deal.players] == [101, 101, 98]  # type: ignore[union-attr]


def test_r80_one_hand_may_scoop_both_halves_and_an_odd_pot_gives_the_high_half_the_chip(
) -> None:
    t = third_street(HI_LO, ("Ann", "Bob", "Cy"), ("Ad", "Kc", "Qd"), rules={"ante": 3})
    t = act(t, type="bring_in", player="Cy")  # the queen of diamonds is the lowest here
    t = act(t, type="call", player="Ann")
    t = act(t, type="fold", player="Bob")  # the pot: 9 antes, 2 bring-ins: 11
    t = to_showdown_from_fourth(t, [{"Ann": "2d", "Cy": "Qh"}, {"Ann": "3d", "Cy": "Js"},
                                    {"Ann": "4d", "Cy": "Jh"}])
    t = act(t, type="showdown", hands={"Ann": ["5d", "9c", "9s"], "Cy": ["Qs", "Tc", "8h"]})
    result = t.deal.result  # type: ignore[union-attr]
    assert result is not None
    assert result.payouts == {"Ann": 11}  # a straight flush high, the wheel low
    pot = result.to_json()["pots"][0]
    assert (pot["high"]["amount"], pot["low"]["amount"]) == (6, 5)
    assert t.game.result_sentences(result) == [
        "Pot 11: Ann scoops it: a five-high straight flush for the high half, 5-4-3-2-A low "
        "for the low."]


def to_showdown_from_fourth(t: Table, ups: list[dict[str, str]]) -> Table:
    for up in ups:
        t = checks(street(t, up))
    return checks(act(t, type="next"))


def test_r80_with_no_low_at_the_showdown_the_high_hand_takes_the_whole_pot() -> None:
    t = third_street(HI_LO, ("Ann", "Bob"), ("Kd", "Qc"))
    t = to_showdown(t, [{"Ann": "Kh", "Bob": "Qd"}, {"Ann": "Ts", "Bob": "9s"},
                        {"Ann": "Jd", "Bob": "Jh"}])
    t = act(t, type="showdown", hands={"Ann": ["2c", "7c", "9d"], "Bob": ["3c", "6h", "Ad"]})
    result = t.deal.result  # type: ignore[union-attr]
    assert result is not None
    assert result.payouts == {"Ann": 4}
    pot = result.to_json()["pots"][0]
    assert pot["low"] is None and pot["high"]["winners"] == ["Ann"]
    assert t.game.result_sentences(result) == ["Pot 4: Ann, a pair of kings."]


def test_r80_r83_hi_lo_result_through_the_json_api(make_table: Any) -> None:
    dealer: Dealer = make_table(HI_LO, ["Ann", "Bob"])
    dealer.run({"type": "start_deal"},
               {"type": "reveal", "cards": {"Ann": "Kd", "Bob": "2c"}},
               {"type": "bring_in", "player": "Bob"}, {"type": "call", "player": "Ann"})
    for up in ({"Ann": "Kh", "Bob": "3c"}, {"Ann": "Ks", "Bob": "4c"},
               {"Ann": "9d", "Bob": "6c"}):
        state = dealer.run({"type": "reveal", "cards": up})
        while state["step"]["kind"] == "bet":
            state = dealer.run({"type": "check", "player": state["step"]["player"]})
    state = dealer.run({"type": "next"})
    while state["step"]["kind"] == "bet":
        state = dealer.run({"type": "check", "player": state["step"]["player"]})
    state = dealer.run({"type": "showdown", "hands": {"Ann": ["2d", "5h", "Jc"],
                                                      "Bob": ["8d", "Qs", "Qh"]}})
    assert state["result"]["pots"] == [{
        "kind": "pot", "amount": 4, "winners": ["Ann", "Bob"],
        "shares": {"Ann": 1, "Bob": 1}, "odd": {}, "carried": 0,
        "hand": "Three of a kind, kings",
        "high": {"winners": ["Ann"], "hand": "Three of a kind, kings", "amount": 2},
        "low": {"winners": ["Bob"], "hand": "8-6-4-3-2 low", "amount": 2}}]
    assert dealer.stacks() == {"Ann": 100, "Bob": 100}


# ------------------------------------------------------------------ R88: the menu
STUD_GAMES = ("seven_card_stud", "razz", HI_LO)


def test_r88_the_stud_games_are_on_the_dealers_choice_menu_with_their_player_range() -> None:
    from dealer_assist.services.dealers_choice import next_game_choices

    menu = {e["variant"]: e for e in next_game_choices(new_table("texas_holdem", ["A", "B"]))}
    for variant in STUD_GAMES:
        assert "refusal" not in menu[variant], menu[variant]
        assert menu[variant]["rules_line"] == "Fixed limit · ante 1 · small bet 2 · big bet 4"
    nine = {e["variant"]: e for e in next_game_choices(
        new_table("texas_holdem", [f"P{i}" for i in range(9)]))}
    assert nine["razz"]["refusal"] == "Razz is for 2 to 8 players dealt in, not 9."
    assert nine["seven_card_stud_hi_lo"]["refusal"] == (
        "Seven-Card Stud Hi-Lo is for 2 to 8 players dealt in, not 9.")


def test_r88_a_holdem_table_deals_stud_next_and_the_blinds_options_are_refused() -> None:
    t = new_table("texas_holdem", ["Ann", "Bob", "Cy"])
    refuse(t, re.escape("Razz has no bomb pot (R65)."), type="start_deal", variant="razz",
           bomb_pot=5)
    refuse(t, re.escape("Razz has no straddle (R63)."), type="start_deal", variant="razz",
           straddle=True)
    t = act(t, type="start_deal", variant="seven_card_stud")
    assert t.deal is not None and t.deal.rules.small_bet == 2  # stud's own default (R71)
    assert [p.stack for p in t.deal.players] == [99, 99, 99]  # everyone antes
    with pytest.raises(SetupError, match=re.escape(
            "Seven-Card Stud has no big-blind ante or straddle (R88)")):
        new_table(STUD, ["Ann", "Bob"], {"ante": 0, "big_blind_ante": 2})


def test_r81_a_losing_stud_hand_may_be_mucked_its_down_cards_never_entered() -> None:
    """A stud showdown takes a muck as every game's does (issue 32): the mucked hand loses,
    and the last hand of the pot cannot be mucked."""
    t = third_street()
    t = checks(act(t, type="bring_in", player="Bob"))
    for up in ({"Ann": "Kh", "Bob": "3c", "Cy": "9d"}, {"Ann": "5h", "Bob": "4c", "Cy": "Td"},
               {"Ann": "6h", "Bob": "7c", "Cy": "Jd"}):
        t = checks(street(t, up))
    t = checks(act(t, type="next"))
    assert t.step()["muckable"] == ["Ann", "Bob", "Cy"]
    refuse(t, "Cy's hand is needed", type="showdown", hands={}, muck=["Ann", "Bob", "Cy"])
    t = act(t, type="showdown", hands={"Bob": ["5c", "6c", "8c"]}, muck=["Ann", "Cy"])
    result = t.deal.result  # type: ignore[union-attr]
    assert result is not None
    assert result.payouts == {"Bob": 6}
    assert result.mucked == ["Ann", "Cy"]
    assert [p.stack for p in t.deal.players] == [98, 104, 98]  # type: ignore[union-attr]
