"""21 Hand Hold'em (RULES.md section 6, R50-R56) and its cases of R3, R4, R8 and R9.

Every expected chip count and winner below is worked out by hand from RULES.md (and the
seed, 003), not read back from the app. A table part-way through a game is made with
``Table(setup, Totals(...))``, the totals a table carries from one hand to the next.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_helpers import act, refuse, stacks

from dealer_assist.core.autoplay import legal_actions, showdown_action
from dealer_assist.core.deal import Totals
from dealer_assist.core.errors import SetupError
from dealer_assist.core.hands import rank_five
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_setup, new_table
from dealer_assist.web.state import table_state

VARIANT = "twenty_one_hand_holdem"
BOARD = ["Kc", "Qd", "7h", "4s", "2c"]  # no pair, no three of a suit, no straight draw
BLIND_WINS = "As Ad"  # a pair of aces beats the junk hands below on BOARD
JUNK = ["3h 5d", "6c 8d", "9s Jc", "3d 5h", "6d 8c", "9c Js", "3s 5c"]  # high card on BOARD


# ----------------------------------------------------------------------------- helpers


def make(players: list[Any], **rules: Any) -> Table:
    return new_table(VARIANT, players, rules)


def mid_game(stacks_: tuple[int, ...], *, hands_played: int, last_blind: int, bank: int,
             carry: int = 0, names: tuple[str, ...] = ("Ann", "Bob", "Cy"),
             **rules: Any) -> Table:
    """A table after ``hands_played`` hands, seat ``last_blind`` having held the last blind."""
    setup = new_setup(VARIANT, list(names), rules)
    totals = Totals(stacks=stacks_, deal_number=hands_played, button=last_blind,
                    carried={"bank": bank} if bank else {}, carry=carry)
    return Table(setup, totals)


def status(t: Table) -> dict[str, str]:
    return {p["name"]: p["status"] for p in table_state(t)["players"]}


def pay_all(step: dict[str, Any]) -> str:
    return "pay"


def drive(t: Table, decide: Callable[[dict[str, Any]], str] = pay_all,
          stop: tuple[str, ...] = ("showdown", "draw", "game_over", "start_deal"),
          *, stop_at_raise: bool = False) -> Table:
    """Play the steps of a hand: ``decide`` answers each payment ("pay" or "fold"); dealing,
    discards and reveals are done; a river-raise offer is passed with Next unless
    ``stop_at_raise``."""
    while t.step()["kind"] not in stop:
        step = t.step()
        if stop_at_raise and "raise" in step.get("options", []):
            break
        if step["kind"] == "pay":
            t = act(t, type=decide(step), player=step["player"])
        elif step["kind"] in ("next", "reveal"):
            t = act(t, type=step["kind"])
        else:
            raise AssertionError(step)
    return t


def show(t: Table, hands: dict[str, str], board: list[str] | None = None) -> Table:
    return act(t, type="showdown", board=board or BOARD,
               hands={name: cards.split() for name, cards in hands.items()})


def blind_wins(t: Table) -> Table:
    """Showdown in which the blind holder (if still in) holds aces and everyone else junk."""
    step = t.step()
    blind = table_state(t)["blind"]
    others = iter(JUNK)
    hands = {n: BLIND_WINS if n == blind else next(others) for n in step["players"]}
    return show(t, hands)


def kinds_and_players(t: Table, decide: Callable[[dict[str, Any]], str] = pay_all
                      ) -> list[tuple[str, str | None]]:
    seen = []
    while t.step()["kind"] != "showdown":
        step = t.step()
        seen.append((step["kind"], step["player"]))
        if step["kind"] == "pay":
            t = act(t, type=decide(step), player=step["player"])
        else:
            t = act(t, type=step["kind"])
    return seen


# ----------------------------------------------------------------------------- R50


@pytest.mark.parametrize("count", [2, 8])
def test_r50_two_to_eight_players(count: int) -> None:
    assert len(table_state(make([f"P{i}" for i in range(count)]))["players"]) == count


@pytest.mark.parametrize("count", [1, 9])
def test_r50_fewer_than_two_or_more_than_eight_refused(count: int) -> None:
    with pytest.raises(SetupError, match="21 Hand Hold'em is for 2 to 8 players"):
        make([f"P{i}" for i in range(count)])


def test_r50_four_chips_each_and_a_bank_of_21() -> None:
    t = make(["Ann", "Bob", "Cy"])
    s = table_state(t)
    assert stacks(t) == {"Ann": 4, "Bob": 4, "Cy": 4}
    assert (s["bank"], s["hand_number"], s["hands_left"]) == (21, 0, 21)
    assert t.chips() == 33
    t = act(t, type="start_deal")
    assert (table_state(t)["hand_number"], table_state(t)["hands_left"]) == (1, 20)


def model_hand(stk: list[int], blind: int, bank: int, carry: int) -> tuple[int, int]:
    """The policy of the full-game test, by hand: the blind holder is asked four times and
    every other player once, each paying while they have chips (R53); the blind holder wins
    the pot and a chip from the bank while it has one (R55). Returns (bank, carry)."""
    pot = carry
    for seat in range(len(stk)):
        asks = 4 if seat == blind else 1
        paid = min(asks, stk[seat])
        stk[seat] -= paid
        pot += paid
    chip = 1 if bank else 0
    stk[blind] += pot + chip
    return bank - chip, 0


def test_r50_a_full_game_is_21_hands_and_ends_with_the_tie_break_draw() -> None:
    t = make(["Ann", "Bob", "Cy"])
    expected = [4, 4, 4]
    bank, carry = 21, 0
    for hand in range(1, 22):
        t = act(t, type="start_deal")
        s = table_state(t)
        blind = (hand - 1) % 3
        assert s["hand_number"] == hand
        assert s["blind"] == ["Ann", "Bob", "Cy"][blind]
        assert s["dealer"] == ["Cy", "Ann", "Bob"][blind]  # to the blind holder's right
        t = blind_wins(drive(t))
        bank, carry = model_hand(expected, blind, bank, carry)
        assert list(stacks(t).values()) == expected, hand
        assert table_state(t)["bank"] == bank
        assert t.chips() == 33
    # after every third hand everyone is level again: 4 + 7 = 11 each, the bank is empty
    assert expected == [11, 11, 11] and bank == 0
    step = t.step()
    assert (step["kind"], step["player"], step["purpose"]) == ("draw", "Ann", "tiebreak")
    t = act(t, type="draw", player="Ann", card="Qh")
    t = act(t, type="draw", player="Bob", card="Qs")
    t = act(t, type="draw", player="Cy", card="9d")
    assert t.step()["player"] == "Ann"  # Ann and Bob drew the highest, a queen each
    refuse(t, "Cy does not draw now.", type="draw", player="Cy", card="Kd")
    t = act(t, type="draw", player="Ann", card="3c")
    t = act(t, type="draw", player="Bob", card="5c")
    s = table_state(t)
    assert s["step"]["kind"] == "game_over"
    assert s["step"]["instruction"] == "Bob wins the game with 11 chips after the high-card draw."
    assert s["result"]["game_winner"] == "Bob"
    assert s["result"]["tiebreak_draws"] == [{"Ann": "Qh", "Bob": "Qs", "Cy": "9d"},
                                             {"Ann": "3c", "Bob": "5c"}]
    assert t.totals.game_over
    refuse(t, "The game is over", type="start_deal")


def test_r50_a_full_heads_up_game_where_the_blind_always_sits_out() -> None:
    t = make(["Ann", "Bob"])
    for hand in range(1, 22):
        t = act(t, type="start_deal")
        blind = table_state(t)["blind"]
        assert blind == ("Ann" if hand % 2 else "Bob")
        t = act(t, type="fold", player=blind)  # sits out: the other is the last player left
        assert table_state(t)["result"]["uncontested"] is True
    # Ann held the blind in the 11 odd hands, so Bob took 11 bank chips and Ann 10
    assert stacks(t) == {"Ann": 14, "Bob": 15}
    s = table_state(t)
    assert s["bank"] == 0 and s["hands_left"] == 0
    assert s["step"] == {"kind": "game_over", "player": None,
                         "instruction": "Bob wins the game with 15 chips."}
    assert s["result"]["standings"] == [{"name": "Bob", "chips": 15}, {"name": "Ann", "chips": 14}]
    refuse(t, "The game is over", type="start_deal")


# ----------------------------------------------------------------------------- R51


def test_r51_without_the_draw_the_first_listed_holds_the_first_blind() -> None:
    t = act(make(["Ann", "Bob", "Cy", "Di"]), type="start_deal")
    s = table_state(t)
    assert (s["blind"], s["dealer"]) == ("Ann", "Di")
    assert s["step"]["instruction"] == "Ann (blind): pay 1 to take a hand, or sit it out."


def test_r51_blind_passes_one_seat_clockwise_dealer_to_its_right() -> None:
    t = make(["Ann", "Bob", "Cy", "Di"])
    seen = []
    for _ in range(5):
        t = act(t, type="start_deal")
        seen.append((table_state(t)["blind"], table_state(t)["dealer"]))
        t = act(t, type="fold", player=table_state(t)["blind"])
        t = drive(t, lambda step: "fold")
    assert seen == [("Ann", "Di"), ("Bob", "Ann"), ("Cy", "Bob"), ("Di", "Cy"), ("Ann", "Di")]


def test_r51_low_card_draw_for_the_first_blind_ties_draw_again() -> None:
    t = act(make(["Ann", "Bob", "Cy", "Di"], draw_for_blind=True), type="start_deal")
    step = t.step()
    assert (step["kind"], step["player"], step["purpose"]) == ("draw", "Ann", "blind")
    refuse(t, "Cannot pay now", type="pay", player="Ann")
    t = act(t, type="draw", player="Ann", card="5h")
    t = act(t, type="draw", player="Bob", card="3c")
    t = act(t, type="draw", player="Cy", card="3d")
    t = act(t, type="draw", player="Di", card="Kd")
    assert "Tied on a three: Bob, Cy draw again." in table_state(t)["log"]
    assert t.step()["player"] == "Bob"
    refuse(t, "Ann does not draw now.", type="draw", player="Ann", card="2s")
    t = act(t, type="draw", player="Bob", card="9c")
    t = act(t, type="draw", player="Cy", card="4d")
    s = table_state(t)
    assert (s["blind"], s["dealer"]) == ("Cy", "Bob")
    assert s["step"]["kind"] == "pay" and s["step"]["player"] == "Cy"
    t = act(t, type="fold", player="Cy")
    t = drive(t, lambda step: "fold")  # Di folds before the river; Ann or Bob wins
    t = act(t, type="start_deal")
    s = table_state(t)
    assert (s["blind"], s["dealer"]) == ("Di", "Cy")  # the blind passes on from Cy
    assert s["step"]["kind"] == "pay"  # no draw in hand 2


def test_r51_the_app_draws_when_no_card_is_entered() -> None:
    t = act(make(["Ann", "Bob"], draw_for_blind=True), type="start_deal")
    for _ in range(20):
        if t.step()["kind"] != "draw":
            break
        t = act(t, type="draw", player=t.step()["player"])
    s = table_state(t)
    assert s["step"]["kind"] == "pay" and s["blind"] in ("Ann", "Bob")
    # the last round of draws: one card drawn by the app for each player still drawing
    draws = [a for a in t.actions if a.type == "draw"]
    last = {a.player: a.card for a in draws[-2:]}
    assert len(last) == 2 and all(card and len(card) == 2 for card in last.values())
    low = min(last, key=lambda name: "23456789TJQKA".index((last[name] or "?")[0]))
    assert s["blind"] == low


def test_r51_a_card_drawn_twice_in_one_round_is_refused() -> None:
    t = act(make(["Ann", "Bob"], draw_for_blind=True), type="start_deal")
    t = act(t, type="draw", player="Ann", card="7c")
    refuse(t, "7c is drawn already this round.", type="draw", player="Bob", card="7c")
    refuse(t, r"Ann has drawn already \(7c\).", type="draw", player="Ann", card="8c")


def test_r51_aces_are_high_in_the_low_card_draw() -> None:
    # R51 does not say how an ace counts in the draw; R2 and R56 make aces high, and a home
    # dealer drawing for the blind reads an ace as the highest card: a deuce beats it.
    t = act(make(["Ann", "Bob"], draw_for_blind=True), type="start_deal")
    t = act(t, type="draw", player="Ann", card="Ac")
    t = act(t, type="draw", player="Bob", card="2d")
    assert table_state(t)["blind"] == "Bob"


def test_r51_jokers_are_not_drawn() -> None:
    t = act(make(["Ann", "Bob"], draw_for_blind=True, wilds="jokers"), type="start_deal")
    refuse(t, "X1 cannot be drawn: draw from the 52 cards.", type="draw", player="Ann",
           card="X1")


# ----------------------------------------------------------------------------- R52


def test_r52_the_steps_of_a_hand_in_order() -> None:
    t = act(make(["Ann", "Bob", "Cy"]), type="start_deal")
    assert kinds_and_players(t) == [
        ("pay", "Ann"),  # to take a hand
        ("next", None),  # five cards each
        ("next", None),  # everyone discards one
        ("pay", "Ann"),  # to see the flop
        ("reveal", None),
        ("next", None),  # discard
        ("pay", "Ann"),  # to see the turn
        ("reveal", None),
        ("next", None),  # discard, keeping two
        ("pay", "Bob"), ("pay", "Cy"),  # the others, from the blind holder's left
        ("pay", "Ann"),  # then the blind holder
        ("reveal", None),  # the river
    ]


def test_r52_reveals_turn_three_then_one_then_one_board_cards() -> None:
    t = act(make(["Ann", "Bob"]), type="start_deal")
    cells = []
    board = iter(BOARD)
    while True:
        t = drive(t, stop=("showdown", "reveal"))
        if t.step()["kind"] == "showdown":
            break
        cells.append(t.step()["cells"])
        t = act(t, type="reveal", cards=[next(board) for _ in cells[-1]])
    assert cells == [["b1", "b2", "b3"], ["b4"], ["b5"]]
    assert table_state(t)["grid"]["board"] == BOARD
    t = show(t, {"Ann": BLIND_WINS, "Bob": JUNK[0]})
    assert stacks(t) == {"Ann": 6, "Bob": 3}  # Ann paid 4, Bob 1, the bank 1


def test_r52_blind_holder_pays_four_others_one_winner_takes_all() -> None:
    t = drive(act(make(["Ann", "Bob", "Cy"]), type="start_deal"))
    assert stacks(t) == {"Ann": 0, "Bob": 3, "Cy": 3}
    assert table_state(t)["pot_total"] == 6
    t = show(t, {"Ann": "3h 5d", "Bob": "Ks 9h", "Cy": "6c 8d"})  # Bob: a pair of kings
    result = table_state(t)["result"]
    assert result["winners"] == ["Bob"]
    assert result["payouts"] == {"Bob": 7} and result["bank_chip"] == 1
    assert stacks(t) == {"Ann": 0, "Bob": 10, "Cy": 3}
    assert table_state(t)["bank"] == 20


def test_r52_blind_holder_sits_out_and_the_others_play_on() -> None:
    t = act(make(["Ann", "Bob", "Cy"]), type="start_deal")
    t = act(t, type="fold", player="Ann")
    assert status(t)["Ann"] == "folded"
    assert "Ann sits this hand out." in table_state(t)["log"]
    assert kinds_and_players(t) == [
        ("next", None), ("next", None), ("reveal", None), ("next", None), ("reveal", None),
        ("next", None), ("pay", "Bob"), ("pay", "Cy"), ("reveal", None),
    ]
    t = drive(t)
    assert t.step()["players"] == ["Bob", "Cy"]
    t = show(t, {"Bob": "3h 5d", "Cy": BLIND_WINS})
    assert stacks(t) == {"Ann": 4, "Bob": 3, "Cy": 6}


def test_r52_blind_holder_who_folds_later_leaves_what_it_paid() -> None:
    t = act(make(["Ann", "Bob", "Cy"]), type="start_deal")
    answers = iter(["pay", "pay", "fold", "pay", "pay"])  # Ann folds instead of the turn
    t = drive(t, lambda step: next(answers))
    assert status(t) == {"Ann": "folded", "Bob": "in", "Cy": "in"}
    t = show(t, {"Bob": "3h 5d", "Cy": BLIND_WINS})
    assert table_state(t)["result"]["payouts"] == {"Cy": 5}  # Ann's 2 + 1 + 1 + the bank's 1
    assert stacks(t) == {"Ann": 2, "Bob": 3, "Cy": 8}


def test_r52_last_player_left_wins_without_a_showdown() -> None:
    t = act(make(["Ann", "Bob", "Cy"]), type="start_deal")
    t = drive(t, lambda step: "pay" if step["player"] == "Ann" else "fold")
    assert t.deal_over and table_state(t)["step"]["kind"] == "start_deal"
    result = table_state(t)["result"]
    assert result["uncontested"] is True and result["winners"] == ["Ann"]
    assert stacks(t) == {"Ann": 5, "Bob": 4, "Cy": 4}  # paid 3, took 3 and the bank's 1
    assert table_state(t)["bank"] == 20
    assert "Ann is the last player left and wins the hand." in table_state(t)["log"]


def test_r52_river_raise_once_the_others_match_or_fold() -> None:
    t = act(make(["Ann", "Bob", "Cy", "Di"], river_raise=True), type="start_deal")
    t = drive(t, stop_at_raise=True)
    step = t.step()
    assert (step["kind"], step["options"]) == ("next", ["raise", "next"])
    assert stacks(t) == {"Ann": 0, "Bob": 3, "Cy": 3, "Di": 3}
    t = act(t, type="raise", player="Cy")
    step = t.step()
    assert (step["kind"], step["player"]) == ("pay", "Di")  # from the raiser's left
    t = act(t, type="pay", player="Di")
    # Ann, next round the table, has no chips and is not asked (R53): Bob is
    refuse(t, "It is not Ann's turn to pay: it is Bob's.", type="pay", player="Ann")
    t = act(t, type="fold", player="Bob")
    assert t.step()["kind"] == "reveal"
    refuse(t, "Cannot raise now", type="raise", player="Di")  # once a hand
    t = act(t, type="reveal")
    assert t.step()["players"] == ["Ann", "Cy", "Di"]
    t = show(t, {"Ann": "3h 5d", "Cy": "6c 8d", "Di": BLIND_WINS})
    # Ann 4, Bob 1, Cy 1 + 1, Di 1 + 1 = 9, and the bank's 1
    assert stacks(t) == {"Ann": 0, "Bob": 3, "Cy": 2, "Di": 12}


def test_r52_river_raise_can_be_passed_and_is_off_by_default() -> None:
    t = drive(act(make(["Ann", "Bob"], river_raise=True), type="start_deal"),
              stop_at_raise=True)
    assert t.step()["options"] == ["raise", "next"]
    t = act(t, type="next")
    assert t.step()["kind"] == "reveal" and "Nobody raises." in table_state(t)["log"]
    t = drive(act(make(["Ann", "Bob"]), type="start_deal"), stop=("showdown", "reveal"))
    t = drive(act(t, type="reveal"), stop=("showdown", "reveal"))
    t = drive(act(t, type="reveal"), stop=("showdown", "reveal"))
    assert t.step()["cells"] == ["b5"]  # straight from the payments to the river
    refuse(t, "Cannot raise now", type="raise", player="Bob")


def test_r52_river_raise_refusals() -> None:
    t = act(make(["Ann", "Bob", "Cy"], river_raise=True), type="start_deal")
    answers = iter(["pay", "pay", "pay", "fold", "pay", "pay"])  # Bob folds before the river
    t = drive(t, lambda step: next(answers), stop_at_raise=True)
    assert stacks(t) == {"Ann": 0, "Bob": 4, "Cy": 3}
    refuse(t, "Bob is not in this hand and cannot raise.", type="raise", player="Bob")
    refuse(t, "Ann has no chips to raise with.", type="raise", player="Ann")
    refuse(t, "There is no player called Zed", type="raise", player="Zed")


# ----------------------------------------------------------------------------- R53


def test_r53_a_blind_holder_with_no_chips_plays_for_free() -> None:
    t = mid_game((0, 6, 6), hands_played=3, last_blind=2, bank=18)
    t = act(t, type="start_deal")
    assert table_state(t)["blind"] == "Ann"
    assert "Ann has no chips and plays on for free." in table_state(t)["log"]
    assert kinds_and_players(t) == [
        ("next", None), ("next", None), ("reveal", None), ("next", None), ("reveal", None),
        ("next", None), ("pay", "Bob"), ("pay", "Cy"), ("reveal", None),
    ]
    t = show(drive(t), {"Ann": BLIND_WINS, "Bob": "3h 5d", "Cy": "6c 8d"})
    assert stacks(t) == {"Ann": 3, "Bob": 5, "Cy": 5}


def test_r53_running_out_mid_hand_plays_on_for_free() -> None:
    t = mid_game((2, 5, 5), hands_played=3, last_blind=2, bank=18)
    t = act(t, type="start_deal")
    asked = [p for kind, p in kinds_and_players(t) if kind == "pay"]
    assert asked == ["Ann", "Ann", "Bob", "Cy"]  # Ann pays 2, then has none
    t = show(drive(t), {"Ann": BLIND_WINS, "Bob": "3h 5d", "Cy": "6c 8d"})
    assert stacks(t) == {"Ann": 5, "Bob": 4, "Cy": 4}


def test_r53_no_chips_is_never_asked_and_cannot_be_raised_out() -> None:
    t = mid_game((4, 0, 4), hands_played=3, last_blind=2, bank=18, river_raise=True)
    t = drive(act(t, type="start_deal"), stop_at_raise=True)
    assert stacks(t) == {"Ann": 0, "Bob": 0, "Cy": 3}
    t = act(t, type="raise", player="Cy")
    assert t.step()["kind"] == "reveal"  # Ann and Bob have no chips: nobody is asked
    assert status(t) == {"Ann": "in", "Bob": "in", "Cy": "in"}
    t = act(t, type="reveal")
    t = show(t, {"Ann": "3h 5d", "Bob": BLIND_WINS, "Cy": "6c 8d"})
    assert stacks(t) == {"Ann": 0, "Bob": 7, "Cy": 2}


# ----------------------------------------------------------------------------- R54


def showdown_two(board: str, ann: str, bob: str, **rules: Any) -> dict[str, Any]:
    t = drive(act(make(["Ann", "Bob"], **rules), type="start_deal"))
    t = show(t, {"Ann": ann, "Bob": bob}, board.split())
    return table_state(t)["result"]


def test_r54_four_hearts_on_the_board_and_one_in_hand_is_no_flush() -> None:
    result = showdown_two("Ah Kh 7h 4h 9c", "2h 2c", "Qs Qd")
    assert result["hands"]["Ann"]["hand"] == "Pair of twos"
    assert result["hands"]["Bob"]["hand"] == "Pair of queens"
    assert result["winners"] == ["Bob"]


def test_r54_both_hole_cards_must_play() -> None:
    result = showdown_two("9s 9h 9d 9c 2h", "Ah Kd", "3c 3d")
    assert result["hands"]["Ann"]["hand"] == "Three of a kind, nines"
    assert result["hands"]["Bob"]["hand"] == "Full house, nines full of threes"
    assert result["winners"] == ["Bob"]


def test_r54_a_straight_needs_both_hole_cards() -> None:
    result = showdown_two("5c 6d 7h 8s Kc", "9h 2d", "Ts Td")
    # Ann cannot play 5-6-7-8-9 with one hole card: her hand is 9 2 with three board cards
    assert result["hands"]["Ann"]["hand"] == "High card, king"
    assert result["hands"]["Bob"]["hand"] == "Pair of tens"
    assert result["winners"] == ["Bob"]


@pytest.mark.parametrize(("wilds", "wild_pair"), [("deuces", "2c 2d"), ("jokers", "X1 X2")])
def test_r54_wild_five_of_a_kind_beats_a_straight_flush(wilds: str, wild_pair: str) -> None:
    result = showdown_two("9h Th Jh 9c 9d", wild_pair, "Qh Kh", wilds=wilds)
    assert result["hands"]["Ann"]["hand"] == "Five of a kind, nines"
    assert result["hands"]["Bob"]["hand"] == "Straight flush, king high"
    assert result["winners"] == ["Ann"]


def test_r54_a_wild_card_stands_for_any_card() -> None:
    result = showdown_two("Ah Kh 7h 4c 9c", "2h 3s", "Qs Qd", wilds="deuces")
    # both hole cards play, so 3s spoils any flush; one wild card and no pair on the board
    # make at best a pair: the deuce stands for an ace (A A K 9 3)
    assert result["hands"]["Ann"]["hand"] == "Pair of aces"
    assert result["winners"] == ["Ann"]


def test_r54_jokers_only_where_wild_jokers_are_on() -> None:
    t = drive(act(make(["Ann", "Bob"]), type="start_deal"))
    refuse(t, "is a joker, and this table plays without jokers", type="showdown",
           board=BOARD, hands={"Ann": ["X1", "As"], "Bob": ["Ks", "Kd"]})


# ----------------------------------------------------------------------------- R55


def test_r55_tie_leaves_odd_chip_for_next_hand() -> None:
    t = drive(act(make(["Ann", "Bob", "Cy"]), type="start_deal"))
    t = show(t, {"Ann": "3h 5d", "Bob": "As Kd", "Cy": "Ac Ks"})  # Bob and Cy: A-K-Q
    result = table_state(t)["result"]
    # 4 + 1 + 1 bet and the bank's 1: 7 = 3 + 3, and 1 stays in the pot
    assert result["winners"] == ["Bob", "Cy"]
    assert result["payouts"] == {"Bob": 3, "Cy": 3}
    assert stacks(t) == {"Ann": 0, "Bob": 6, "Cy": 6}
    assert table_state(t)["carried"] == 1 and t.totals.carry == 1
    assert table_state(t)["result_sentences"] == [
        "Pot 7: Bob and Cy split it, a pair of kings.",
        "The odd chip stays in the pot for the next hand (R55).",
        "The pot includes 1 chip from the bank."]
    t = act(t, type="start_deal")
    assert table_state(t)["pot_total"] == 1
    t = drive(t)
    t = show(t, {"Ann": "3h 5d", "Bob": BLIND_WINS, "Cy": "6c 8d"})
    # Bob's 4, Ann's 0 (no chips), Cy's 1, the carried 1 and the bank's 1
    assert stacks(t) == {"Ann": 0, "Bob": 9, "Cy": 5}
    assert table_state(t)["bank"] == 19 and t.totals.carry == 0


def test_r55_three_way_tie_with_two_odd_chips() -> None:
    t = drive(act(make(["Ann", "Bob", "Cy", "Di"]), type="start_deal"))
    t = show(t, {"Ann": "3h 5d", "Bob": "As Kd", "Cy": "Ac Ks", "Di": "Ah Kh"})
    # 4 + 1 + 1 + 1 + the bank's 1 = 8 = 3 x 2, and 2 stay
    assert table_state(t)["result"]["payouts"] == {"Bob": 2, "Cy": 2, "Di": 2}
    assert t.totals.carry == 2


def test_r55_no_bank_chip_once_the_bank_is_empty() -> None:
    t = mid_game((10, 10, 13), hands_played=5, last_blind=1, bank=0)
    assert t.chips() == 33
    t = drive(act(t, type="start_deal"))
    t = blind_wins(t)
    assert table_state(t)["result"]["bank_chip"] == 0
    assert stacks(t) == {"Ann": 9, "Bob": 9, "Cy": 15}


def test_r55_after_hand_21_odd_chips_are_taken_off_the_table() -> None:
    t = mid_game((4, 4, 4), hands_played=20, last_blind=1, bank=1)
    t = act(t, type="start_deal")
    assert table_state(t)["hand_number"] == 21 and table_state(t)["blind"] == "Cy"
    t = drive(t)
    t = show(t, {"Ann": "As Kd", "Bob": "Ac Ks", "Cy": "3h 5d"})
    # 1 + 1 + 4 and the bank's last chip: 7 = 3 + 3, 1 off the table
    assert stacks(t) == {"Ann": 6, "Bob": 6, "Cy": 0}
    assert table_state(t)["bank"] == 0 and table_state(t)["carried"] == 0
    assert t.totals.carried.get("off_table") == 1 and t.totals.carry == 0
    assert t.chips() == 13  # R3: the chip off the table still counts
    assert "1 odd chips are taken off the table." in table_state(t)["log"]
    # Ann and Bob tie for most chips: the high-card draw
    assert (t.step()["kind"], t.step()["player"]) == ("draw", "Ann")


def test_r55_a_hand_that_everyone_left_carries_its_pot_without_a_bank_chip() -> None:
    # With the last player left winning at once, no sequence of actions leaves nobody in;
    # the game's hook for it is checked directly.
    t = drive(act(make(["Ann", "Bob", "Cy"]), type="start_deal"), stop=("reveal",))
    deal = t.deal
    assert deal is not None
    pot = deal.pot_total()
    assert pot == 2
    for p in deal.players:
        p.status = "folded"
    t.game.award_uncontested(deal, None)
    assert deal.result is not None and deal.result.winners == []
    assert deal.carry == 2 and deal.carried["bank"] == 21 and deal.pot_total() == 2
    assert deal.chips() == 33


# ----------------------------------------------------------------------------- R56


def test_r56_most_chips_wins_after_hand_21() -> None:
    t = mid_game((5, 3, 4), hands_played=20, last_blind=1, bank=1)
    t = drive(act(t, type="start_deal"))
    t = blind_wins(t)  # Cy pays 4, Ann and Bob 1: Cy takes 6 + 1
    assert stacks(t) == {"Ann": 4, "Bob": 2, "Cy": 7}
    s = table_state(t)
    assert s["step"] == {"kind": "game_over", "player": None,
                         "instruction": "Cy wins the game with 7 chips."}
    assert s["result"]["standings"] == [{"name": "Cy", "chips": 7}, {"name": "Ann", "chips": 4},
                                        {"name": "Bob", "chips": 2}]
    assert s["result"]["tiebreak_draws"] == []


def test_r56_tie_broken_by_high_card_draw_aces_high_tied_draw_again() -> None:
    t = mid_game((4, 4, 4), hands_played=20, last_blind=1, bank=1)
    t = drive(act(t, type="start_deal"))
    t = show(t, {"Ann": "As Kd", "Bob": "Ac Ks", "Cy": "3h 5d"})
    refuse(t, "Cy does not draw now.", type="draw", player="Cy", card="Kc")
    refuse(t, "Cannot start deal now|The game is over|finish it", type="start_deal")
    t = act(t, type="draw", player="Ann", card="7h")
    t = act(t, type="draw", player="Bob", card="7d")
    assert "Tied on a seven: Ann, Bob draw again." in table_state(t)["log"]
    t = act(t, type="draw", player="Ann", card="Kc")
    t = act(t, type="draw", player="Bob", card="Ah")
    s = table_state(t)
    assert s["result"]["game_winner"] == "Bob"
    assert s["step"]["instruction"] == "Bob wins the game with 6 chips after the high-card draw."
    assert t.totals.game_over


def test_r56_the_app_draws_for_the_tie_break() -> None:
    t = mid_game((4, 4, 4), hands_played=20, last_blind=1, bank=1)
    t = drive(act(t, type="start_deal"))
    t = show(t, {"Ann": "As Kd", "Bob": "Ac Ks", "Cy": "3h 5d"})
    for _ in range(40):
        if t.step()["kind"] != "draw":
            break
        t = act(t, type="draw", player=t.step()["player"])
    assert t.step()["kind"] == "game_over"
    last = table_state(t)["result"]["tiebreak_draws"][-1]
    high = max(last, key=lambda name: "23456789TJQKA".index(last[name][0]))
    assert table_state(t)["result"]["game_winner"] == high
    assert len({card[0] for card in last.values()}) == len(last)


# ----------------------------------------------------------------------------- R4, R8, R9


def test_r4_the_blind_and_dealer_move_one_seat_clockwise_every_hand() -> None:
    t = make(["Ann", "Bob", "Cy"])
    blinds = []
    for _ in range(4):
        t = act(t, type="start_deal")
        blinds.append(table_state(t)["blind"])
        t = act(t, type="fold", player=blinds[-1])
        t = drive(t, lambda step: "fold")
    assert blinds == ["Ann", "Bob", "Cy", "Ann"]


def test_r8_undo_a_payment_a_reveal_and_the_showdown() -> None:
    t = act(make(["Ann", "Bob", "Cy"]), type="start_deal")
    t2 = act(t, type="pay", player="Ann")
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "Ann: pay"
    assert stacks(t3) == {"Ann": 4, "Bob": 4, "Cy": 4} and t3.step() == t.step()
    t = drive(t2, stop=("reveal",))
    t2 = act(t, type="reveal", cards=BOARD[:3])
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "reveal"
    assert table_state(t3)["grid"]["board"] == [None] * 5
    t = drive(t2)
    t2 = show(t, {"Ann": "3h 5d", "Bob": "As Kd", "Cy": "Ac Ks"})
    assert t2.totals.carry == 1 and table_state(t2)["bank"] == 20
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "showdown" and table_state(t3)["result"] is None
    assert table_state(t3)["bank"] == 21 and table_state(t3)["carried"] == 0
    assert stacks(t3) == stacks(t)


def test_r8_undo_a_draw_and_refused_at_the_start_of_a_hand() -> None:
    t = act(make(["Ann", "Bob"], draw_for_blind=True), type="start_deal")
    back = act(t, type="undo")  # R74: a lone start_deal is taken back
    assert back.deal is None and back.step()["kind"] == "start_deal"
    t2 = act(t, type="draw", player="Ann", card="9c")
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "Ann: draw 9c"
    assert t3.step() == t.step()


def test_r9_out_of_turn_and_unknown_players() -> None:
    t = act(make(["Ann", "Bob", "Cy"]), type="start_deal")
    refuse(t, "It is not Bob's turn: Ann holds the blind.", type="pay", player="Bob")
    refuse(t, "There is no player called Zed at this table.", type="pay", player="Zed")
    t = drive(t, stop=("pay",), decide=pay_all)
    t = drive(act(t, type="pay", player="Ann"), stop=("pay",))
    t = drive(act(t, type="pay", player="Ann"), stop=("pay",))
    t = drive(act(t, type="pay", player="Ann"), stop=("pay",))
    assert t.step()["player"] == "Bob"
    refuse(t, "It is not Cy's turn to pay: it is Bob's.", type="pay", player="Cy")
    refuse(t, "Cannot check now", type="check", player="Bob")


def test_r9_a_card_already_on_the_table_and_two_cards_kept() -> None:
    t = drive(act(make(["Ann", "Bob"]), type="start_deal"), stop=("reveal",))
    t = act(t, type="reveal", cards=["Kc", "Qd", "7h"])
    t = drive(t, stop=("reveal",))
    refuse(t, "^K♣ is entered twice: b1 and b4.$", type="reveal", cards=["Kc"])
    t = drive(act(t, type="reveal", cards=["4s"]))
    refuse(t, "^Q♦ is entered twice: b2 and Ann's hand.$", type="showdown", board=["2c"],
           hands={"Ann": ["Qd", "As"], "Bob": ["Ks", "Kd"]})
    refuse(t, "^2♣ is entered twice: b5 and Bob's hand.$", type="showdown", board=["2c"],
           hands={"Ann": ["Ah", "As"], "Bob": ["2c", "Kd"]})
    refuse(t, "Ann has 2 hole cards, not 3.", type="showdown", board=["2c"],
           hands={"Ann": ["Ah", "As", "Ad"], "Bob": ["Ks", "Kd"]})
    refuse(t, "b1 is already entered as Kc", type="showdown", board=["Ac", "Qd", "7h", "4s", "2c"],
           hands={"Ann": ["Ah", "As"], "Bob": ["Ks", "Kd"]})
    t = show(t, {"Ann": BLIND_WINS, "Bob": JUNK[0]}, ["2c"])
    assert table_state(t)["grid"]["board"] == BOARD


def test_r55_one_pot_for_every_player_still_in() -> None:
    t = act(make(["Ann", "Bob", "Cy"]), type="start_deal")
    t = act(t, type="pay", player="Ann")
    assert table_state(t)["pots"] == [{"amount": 1, "eligible": ["Ann", "Bob", "Cy"]}]


# ----------------------------------------------------------------------------- R3 and R9 at random


def illegal_actions(t: Table) -> list[dict[str, Any]]:
    step = t.step()
    names = [p["name"] for p in table_state(t)["players"]]
    bodies: list[dict[str, Any]] = [{"type": "pay", "player": "Nobody"},
                                    {"type": "check", "player": names[0]},
                                    {"type": "bet", "player": names[0], "amount": 1}]
    if step["kind"] not in ("next",):
        bodies.append({"type": "next"})
    if step["kind"] != "reveal":
        bodies.append({"type": "reveal"})
    if step["kind"] in ("pay", "draw") and step["player"]:
        other = next(n for n in names if n != step["player"])
        if step["kind"] == "pay":
            bodies.append({"type": "pay", "player": other})
    if step["kind"] == "game_over":
        bodies.append({"type": "start_deal"})
    return bodies


def checked_showdown(t: Table, rng: random.Random) -> Table:
    """R54 and R55 by hand at a random showdown (no wild cards): both hole cards and three
    of the board, ranked by rank_five; the pot and the bank's chip split in whole shares, the
    odd chips carried (or, after hand 21, taken off the table)."""
    before = table_state(t)
    after = act(t, **showdown_action(t, t.next_step(), rng))
    deal = after.deal
    assert deal is not None
    board = [deal.grid[c] or "" for c in ("b1", "b2", "b3", "b4", "b5")]
    scores = {p.name: max(rank_five([*p.cards, *three]).score
                          for three in combinations(board, 3)) for p in deal.still_in()}
    top = max(scores.values())
    winners = [n for n in scores if scores[n] == top]
    bank_chip = 1 if before["bank"] else 0
    share, odd = divmod(before["pot_total"] + bank_chip, len(winners))
    result = table_state(after)["result"]
    assert result["winners"] == winners and result["bank_chip"] == bank_chip
    assert {n: c for n, c in result["payouts"].items() if c} == (
        {n: share for n in winners} if share else {})
    if before["hand_number"] == 21:
        assert (after.totals.carry, after.totals.carried.get("off_table", 0)) == (
            0, t.totals.carried.get("off_table", 0) + odd)
    else:
        assert after.totals.carry == odd
    return after


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    count=st.integers(2, 8),
    river_raise=st.booleans(),
    wilds=st.sampled_from(["none", "jokers", "deuces"]),
    draw_for_blind=st.booleans(),
)
def test_r3_random_full_games_conserve_chips_and_refuse_illegal_actions(
    seed: int, count: int, river_raise: bool, wilds: str, draw_for_blind: bool
) -> None:
    rng = random.Random(seed)
    t = make([f"P{i}" for i in range(count)], river_raise=river_raise, wilds=wilds,
             draw_for_blind=draw_for_blind)
    total = 4 * count + 21
    hands = 0
    for _ in range(2000):
        assert t.chips() == total
        step = t.step()
        assert step["kind"] in ("start_deal", "pay", "next", "reveal", "showdown", "draw",
                                "game_over")
        if step["kind"] in ("pay", "draw"):
            assert step["player"] in [p["name"] for p in table_state(t)["players"]]
        if rng.random() < 0.2:
            body = rng.choice(illegal_actions(t))
            before = table_state(t, dealer=True)
            assert not t.can(t.prepare(body)), body
            assert table_state(t, dealer=True) == before
        if step["kind"] == "game_over":
            break
        if table_state(t)["can_undo"] and rng.random() < 0.05:
            t = act(t, type="undo")
            continue
        if step["kind"] == "showdown" and wilds == "none":
            t = checked_showdown(t, rng)
            continue
        options = legal_actions(t, rng)
        assert options
        body = rng.choice(options)
        if body["type"] == "start_deal":
            hands += 1
        t = act(t, **body)
    assert t.step()["kind"] == "game_over" and hands >= 21  # R74: a start may be undone
    totals = t.totals
    assert totals.game_over and totals.deal_number == 21
    assert sum(totals.stacks) + sum(totals.carried.values()) + totals.carry == total
    assert totals.carry == 0
    winner = table_state(t)["result"]["game_winner"]
    assert dict(zip(t.setup.players, totals.stacks, strict=True))[winner] == max(totals.stacks)
