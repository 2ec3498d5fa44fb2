"""Omaha Hi-Lo (R84): Omaha's hands (R62) with every pot split between the best high hand and
the best eight-or-better low (R80), fixed limit by default; run twice and hands tabled with
each player's expected share (R88); on the dealer's-choice menu (R88). Exact chips, who took
which half, and the words the dealer reads."""

from __future__ import annotations

import re

import pytest
from table_helpers import act, check_round, refuse, stacks, to_showdown
from test_equity import brute_force

from dealer_assist.core.equity import HandRule
from dealer_assist.core.errors import SetupError
from dealer_assist.core.table import Table
from dealer_assist.games.registry import game_class, new_table
from dealer_assist.services.dealers_choice import next_game_choices
from dealer_assist.web.state import table_state

HI_LO = "omaha_hi_lo"


def checked_down(players: list[str] | list[dict[str, object]],
                 rules: dict[str, object] | None = None) -> Table:
    """A deal with every round checked (the blinds called) down to the showdown."""
    t = act(act(new_table(HI_LO, players, rules), type="start_deal"), type="next")
    return to_showdown(t)


def sentences(t: Table) -> list[str]:
    assert t.deal is not None and t.deal.result is not None
    return t.game.result_sentences(t.deal.result)


def test_r84_fixed_limit_by_default_pot_limit_may_be_chosen_and_2_to_10_players() -> None:
    assert game_class(HI_LO).players == (2, 10)
    rules = new_table(HI_LO, ["Ann", "Bob"]).setup.rules
    assert (rules.betting, rules.small_bet, rules.big_bet) == ("fixed_limit", 2, 4)
    assert new_table(HI_LO, ["Ann", "Bob"], {"betting": "pot_limit"}).setup.rules.betting \
        == "pot_limit"
    with pytest.raises(SetupError, match="no_limit"):
        new_table(HI_LO, ["Ann", "Bob"], {"betting": "no_limit"})
    with pytest.raises(SetupError, match="Omaha Hi-Lo is for 2 to 10 players, not 11"):
        new_table(HI_LO, [f"P{i}" for i in range(11)])


def test_r84_r80_the_pot_is_halved_and_a_tied_low_shares_its_half_odd_chip_from_the_left(
) -> None:
    """Pot 6 (the blinds called): Bob's three nines take the high half (3); Ann and Cy tie
    for the low with 8-4-3-2-A (each plays the ace and deuce in their hand) and share the
    other 3, the odd chip to Cy, the first of them from the dealer's (Ann's) left (R7)."""
    t = checked_down(["Ann", "Bob", "Cy"])
    assert t.step()["hole_cards"] == 4
    t = act(t, type="showdown", board=["3h", "4d", "9c", "8s", "Kc"],
            hands={"Ann": ["As", "2s", "Kd", "Qc"], "Bob": ["9h", "9d", "Tc", "Jc"],
                   "Cy": ["Ah", "2h", "7c", "7d"]})
    assert stacks(t) == {"Ann": 99, "Bob": 101, "Cy": 100}
    pot = table_state(t)["result"]["pots"][0]
    assert pot["high"] == {"winners": ["Bob"], "hand": "Three of a kind, nines", "amount": 3}
    assert pot["low"] == {"winners": ["Ann", "Cy"], "hand": "8-4-3-2-A low", "amount": 3}
    assert table_state(t)["result"]["hands"]["Ann"]["low"]["cards"] == [
        "8s", "4d", "3h", "2s", "As"]
    assert "low" not in table_state(t)["result"]["hands"]["Bob"]  # nines: no low
    assert sentences(t) == [
        "Pot 6: Bob takes the high half (3) with three nines, Ann and Cy the low half (3) "
        "with 8-4-3-2-A low.",
        "Cy gets the odd chip: the first of its winners from the dealer's left (R7)."]


def test_r84_r80_one_player_scoops_with_different_five_cards_for_each_half() -> None:
    """Ann's kings (Kd Ks with Kc and two more of the board) win the high; her ace and deuce
    with 3-4-8 of the board the low: she scoops the pot of 4."""
    t = checked_down(["Ann", "Bob"])
    t = act(t, type="showdown", board=["3h", "4d", "8c", "Kc", "Qh"],
            hands={"Ann": ["As", "2s", "Kd", "Ks"], "Bob": ["9h", "9d", "Tc", "Jc"]})
    assert stacks(t) == {"Ann": 102, "Bob": 98}
    result = table_state(t)["result"]
    hand = result["hands"]["Ann"]
    assert sorted(hand["cards"]) != sorted(hand["low"]["cards"])
    assert result["pots"][0]["high"]["winners"] == result["pots"][0]["low"]["winners"] == ["Ann"]
    assert sentences(t) == [
        "Pot 4: Ann scoops it: three kings for the high half, 8-4-3-2-A low for the low."]


def test_r84_r80_with_no_low_on_the_board_the_high_hand_takes_the_whole_pot() -> None:
    """Only one card of eight or less on the board: no hand can make a low, the pot is not
    halved, and its ``low`` is null (API.md)."""
    t = checked_down(["Ann", "Bob", "Cy"])
    t = act(t, type="showdown", board=["Kc", "Qh", "9c", "Td", "2h"],
            hands={"Ann": ["As", "3s", "4d", "5c"], "Bob": ["Jh", "8d", "7c", "6c"],
                   "Cy": ["Ah", "Ac", "2c", "2d"]})
    assert stacks(t) == {"Ann": 98, "Bob": 104, "Cy": 98}  # Bob's straight, K-Q-J-T-9
    pot = table_state(t)["result"]["pots"][0]
    assert pot["high"]["amount"] == 6 and pot["low"] is None


def test_r84_r80_a_side_pot_none_of_whose_players_has_a_low_goes_to_its_best_high_hand(
) -> None:
    """Ann (3 chips) is all in pre-flop; Bob and Cy bet on. The main pot (9) is halved: Bob's
    four kings the high (5, the odd chip high), Ann's 7-5-4-3-A the low (4). The side pot (4)
    is halved too, a low being at the showdown, but neither of its players has one: both
    halves go to Bob's high hand (R80)."""
    t = new_table(HI_LO, [{"name": "Ann", "stack": 3}, {"name": "Bob", "stack": 50},
                          {"name": "Cy", "stack": 50}])
    t = act(act(t, type="start_deal"), type="next")  # Bob 1, Cy 2
    t = act(t, type="all_in", player="Ann")  # 3
    t = act(act(t, type="call", player="Bob"), type="call", player="Cy")
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=2)
    t = act(t, type="call", player="Cy")
    t = to_showdown(t)
    t = act(t, type="showdown", board=["3h", "4d", "5s", "Kc", "Kh"],
            hands={"Ann": ["As", "7s", "Qs", "Jd"], "Bob": ["Kd", "Ks", "9h", "9d"],
                   "Cy": ["Qh", "Qd", "Th", "Td"]})
    assert stacks(t) == {"Ann": 4, "Bob": 54, "Cy": 45}  # Bob: 50 - 5 + 5 + 4
    main, side = table_state(t)["result"]["pots"]
    assert (main["high"]["amount"], main["low"]["amount"]) == (5, 4)
    assert main["low"]["winners"] == ["Ann"] and main["low"]["hand"] == "7-5-4-3-A low"
    assert side["low"] == {"winners": ["Bob"], "hand": "Four of a kind, kings", "amount": 2,
                           "no_low": True}
    assert sentences(t)[1] == ("Side pot 4: Bob takes it, high with four kings; none of its "
                               "players has a low.")


def test_r88_r66_run_twice_each_runs_half_is_split_high_and_low_on_its_own_board() -> None:
    """Pot limit, all in pre-flop, run twice: the pot layer of 12 (Cy's blind of 2 folded in)
    is halved. First run: Bob's three nines the high (3), Ann's 8-4-3-2-A the low (3). Second
    run: one low card only, no low: Bob's jacks full take the whole half (6). Bob's sixth chip,
    unmatched, comes back to him."""
    t = new_table(HI_LO, [{"name": "Ann", "stack": 5}, {"name": "Bob", "stack": 6},
                          {"name": "Cy", "stack": 30}], {"betting": "pot_limit"})
    t = act(act(t, type="start_deal"), type="next")
    t = act(t, type="all_in", player="Ann")
    t = act(t, type="all_in", player="Bob")
    t = act(t, type="fold", player="Cy")
    assert t.step()["options"] == ["run_twice", "show"]
    t = act(t, type="run_twice")
    while t.step()["kind"] == "reveal":
        t = act(t, type="reveal")
    t = act(t, type="showdown", board=["3h", "4d", "9c", "8s", "Kc", "5c", "Qd", "Jd", "Th",
                                       "Jh"],
            hands={"Ann": ["As", "2s", "Kd", "Qc"], "Bob": ["9h", "9d", "Tc", "Jc"]})
    assert stacks(t) == {"Ann": 3, "Bob": 10, "Cy": 28}
    first, second = table_state(t)["result"]["pots"]
    assert (first["run"], first["high"]["amount"], first["low"]["winners"]) == (1, 3, ["Ann"])
    assert (second["run"], second["high"]["amount"], second["low"]) == (2, 6, None)
    assert sentences(t) == [
        "Pot 12, first run's half 6: Bob takes the high half (3) with three nines, Ann the "
        "low half (3) with 8-4-3-2-A low.",
        "Pot 12, second run's half 6: Bob, a full house, jacks full of tens."]


def test_r88_r67_a_tabled_hands_equity_is_its_expected_share_of_the_pot() -> None:
    """Hands tabled on the flop: each player's equity is their expected share of the pot
    (half for the high, half for the low where one comes), over every turn and river, as
    PokerKit's Omaha high and eight-or-better hands count it."""
    t = new_table(HI_LO, [{"name": "Ann", "stack": 5}, {"name": "Bob", "stack": 5}],
                  {"betting": "pot_limit"})
    t = act(act(t, type="start_deal"), type="next")
    t = check_round(t)
    t = act(t, type="reveal", cards=["3h", "4d", "9c"])
    t = act(t, type="all_in", player="Bob")
    t = act(t, type="all_in", player="Ann")
    hands = {"Ann": ["As", "2s", "Kd", "Qc"], "Bob": ["9h", "9d", "Tc", "Jc"]}
    t = act(t, type="show", hands=hands)
    expected = brute_force(hands, ["3h", "4d", "9c"], HandRule.TWO_PLUS_THREE, split=True)
    state = table_state(t)
    assert state["equity"] == {name: round(float(share), 4) for name, share in expected.items()}
    assert state["equity_exact"] is True
    # the nut low draw against a set: worth about two fifths of the pot (163 of 410)
    assert state["equity"]["Ann"] == round(163 / 410, 4)


def test_r88_no_straddle_bomb_pot_or_big_blind_ante_in_omaha_hi_lo() -> None:
    t = new_table("texas_holdem", ["Ann", "Bob", "Cy"])
    refuse(t, re.escape("Omaha Hi-Lo has no straddle (R63)."), type="start_deal",
           variant=HI_LO, straddle=True)
    refuse(t, re.escape("Omaha Hi-Lo has no bomb pot (R65)."), type="start_deal",
           variant=HI_LO, bomb_pot=4)
    with pytest.raises(SetupError, match=re.escape(
            "Omaha Hi-Lo has no big-blind ante or straddle (R88)")):
        new_table(HI_LO, ["Ann", "Bob"], {"big_blind_ante": 2})
    assert "straddle" not in game_class(HI_LO).metadata()["rules"]["offered"]


def test_r88_omaha_hi_lo_is_on_the_dealers_choice_menu_for_2_to_10_players() -> None:
    menu = {e["variant"]: e for e in next_game_choices(new_table("texas_holdem", ["A", "B"]))}
    assert "refusal" not in menu[HI_LO]
    assert menu[HI_LO]["rules_line"].startswith("Fixed limit")
    eleven = {e["variant"]: e for e in next_game_choices(
        new_table("kings_pot", [f"P{i}" for i in range(11)]))}
    assert eleven[HI_LO]["refusal"] == "Omaha Hi-Lo is for 2 to 10 players dealt in, not 11."
    t = act(new_table("texas_holdem", ["Ann", "Bob", "Cy"]), type="start_deal", variant=HI_LO)
    assert t.deal is not None and t.deal.rules.betting == "fixed_limit"  # its own default
    assert "four hole cards" in t.step()["instruction"]
