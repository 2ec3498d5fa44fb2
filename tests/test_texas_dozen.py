"""Texas Dozen (RULES.md section 4, R30-R32) and its cases of the common rules R3-R9.

Every expected chip count, winner, line and cell below is worked out by hand from RULES.md
(and the seed's example, 004), not read back from the app.

Two fixed grids are used. ``JUNK`` holds ranks 2, 3, 4, 6, 8, 9 and T only, at most two
cards of a suit in any line: a pocket pair of J, Q, K or A makes no straight or flush with any
line, and its best line is row 1 alone (the pair, T T and an 8), so AA > KK > QQ > JJ exactly
in that order and two pairs of jacks tie. ``SEED`` holds the
seed's row 1 and column 2.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from settlement_oracle import check_random_showdown
from table_helpers import (
    act,
    brute_force_lines,
    check_round,
    refuse,
    showdown,
    stacks,
    to_showdown,
)

from dealer_assist.core.autoplay import legal_actions, play_deal
from dealer_assist.core.errors import SetupError
from dealer_assist.core.layouts import CELLS_5, LINES_5
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table
from dealer_assist.web.state import table_state

FLOP = ["r1c1", "r2c4", "r3c2", "r4c5", "r5c3", "r1c3", "r2c1", "r3c4", "r4c2", "r5c5",
        "r1c5", "r2c3", "r3c1", "r4c4", "r5c2"]
TURN = ["r1c2", "r2c5", "r3c3", "r4c1", "r5c4"]
RIVER = ["r1c4", "r2c2", "r3c5", "r4c3", "r5c1"]


def grid(rows: str) -> dict[str, str]:
    """Five rows of five cards -> {cell: card}."""
    lines = [row.split() for row in rows.strip().splitlines()]
    return {f"r{r + 1}c{c + 1}": card for r, row in enumerate(lines) for c, card in enumerate(row)}


JUNK = grid("""
Th 4s Tc 3d 8d
3c 9c 2h Ts 8h
Td 3s 3h 8s 9h
6c 4d 4c 2d 9s
4h 8c 9d 2c 2s
""")

# The seed's example (004): row 1 = 9h Th Jh 2c 3d, column 2 = Th Ac 4s 4d Kc; the other
# cells are chosen so that no other line gives As Ad a full house of aces or better.
SEED = grid("""
9h Th Jh 2c 3d
Js Ac 6s 8c 9d
7s 4s 6c 8s 7c
9c 4d 7d 8d Qc
Qd Kc 6d Qs Jc
""")


# ----------------------------------------------------------------------------- helpers


def make(players: list[Any], **rules: Any) -> Table:
    return new_table("texas_dozen", players, rules)


def start(t: Table) -> Table:
    """Start a deal and deal the hole cards: pre-flop betting is next."""
    t = act(t, type="start_deal")
    assert t.step()["kind"] == "next"
    return act(t, type="next")


# ----------------------------------------------------------------------------- R30


@pytest.mark.parametrize("count", [2, 13])
def test_r30_two_to_thirteen_players(count: int) -> None:
    t = make([f"P{i}" for i in range(count)])
    assert len(table_state(t)["players"]) == count


@pytest.mark.parametrize("count", [1, 14])
def test_r30_fewer_than_two_or_more_than_thirteen_players_refused(count: int) -> None:
    with pytest.raises(SetupError, match="Texas Dozen is for 2 to 13 players"):
        make([f"P{i}" for i in range(count)])


def test_r30_blinds_left_of_dealer_and_preflop_starts_left_of_big_blind() -> None:
    t = start(make(["Ann", "Bob", "Cy", "Di"]))
    s = table_state(t)
    assert s["dealer"] == "Ann"
    # default blinds 1 and 2, no ante: Bob (small) and Cy (big) are the two seats left of Ann
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 98, "Di": 100}
    assert s["pot_total"] == 3
    step = t.step()
    assert (step["kind"], step["player"], step["to_call"]) == ("bet", "Di", 2)
    assert step["instruction"] == "Pre-flop: Di: 2 to call."


def test_r30_house_blinds_are_posted() -> None:
    t = start(make(["Ann", "Bob", "Cy"], small_blind=5, big_blind=10))
    assert stacks(t) == {"Ann": 100, "Bob": 95, "Cy": 90}
    step = t.step()
    assert (step["player"], step["to_call"], step["min_raise_to"]) == ("Ann", 10, 20)


def test_r30_big_blind_has_the_option_when_everyone_calls() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    t = act(t, type="call", player="Ann")
    t = act(t, type="call", player="Bob")
    step = t.step()
    assert (step["player"], step["to_call"]) == ("Cy", 0)
    assert "raise" in step["options"] and "check" in step["options"]
    t = act(t, type="check", player="Cy")
    assert t.step()["kind"] == "reveal"


def test_r30_heads_up_dealer_posts_small_blind_and_acts_first_preflop() -> None:
    t = start(make(["Ann", "Bob"]))
    assert table_state(t)["dealer"] == "Ann"
    assert stacks(t) == {"Ann": 99, "Bob": 98}
    step = t.step()
    assert (step["player"], step["to_call"]) == ("Ann", 1)
    t = act(t, type="call", player="Ann")
    assert t.step()["player"] == "Bob"  # the big blind's option
    t = act(t, type="check", player="Bob")
    t = act(t, type="reveal")
    # later rounds start left of the dealer: the big blind, Bob
    assert t.step()["player"] == "Bob"
    t = act(t, type="check", player="Bob")
    t = act(t, type="check", player="Ann")
    t = act(t, type="reveal")
    assert t.step()["player"] == "Bob"


def test_r30_heads_up_second_deal_swaps_the_blinds() -> None:
    t = start(make(["Ann", "Bob"]))
    t = act(t, type="fold", player="Ann")  # Bob takes the blinds
    assert stacks(t) == {"Ann": 99, "Bob": 101}
    t = start(t)
    assert table_state(t)["dealer"] == "Bob"
    assert stacks(t) == {"Ann": 97, "Bob": 100}
    assert t.step()["player"] == "Bob"


def test_r30_later_rounds_start_left_of_dealer() -> None:
    t = start(make(["Ann", "Bob", "Cy", "Di"]))
    t = check_round(t)  # Di, Ann, Bob call; Cy checks
    t = act(t, type="reveal")
    assert t.step()["player"] == "Bob"
    t = act(t, type="check", player="Bob")
    assert t.step()["player"] == "Cy"


def test_r30_later_rounds_skip_a_folded_seat_left_of_dealer() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    t = act(t, type="call", player="Ann")
    t = act(t, type="fold", player="Bob")
    t = act(t, type="check", player="Cy")
    t = act(t, type="reveal")
    assert t.step()["player"] == "Cy"


def test_r30_ante_is_optional_and_off_by_default() -> None:
    assert table_state(start(make(["Ann", "Bob", "Cy"])))["pot_total"] == 3
    t = start(make(["Ann", "Bob", "Cy"], ante=1))
    assert stacks(t) == {"Ann": 99, "Bob": 98, "Cy": 97}
    assert table_state(t)["pot_total"] == 6
    # the ante is not part of the pre-flop bet: Ann still has 2 to call
    assert t.step()["to_call"] == 2


def test_r30_two_hole_cards_each() -> None:
    t = to_showdown(start(make(["Ann", "Bob"])))
    assert t.step()["hole_cards"] == 2
    refuse(t, "Ann has 2 hole cards, not 3", type="showdown", cells=JUNK,
           hands={"Ann": ["As", "Ad", "Ah"], "Bob": ["Ks", "Kd"]})


# ----------------------------------------------------------------------------- R31


def test_r31_preflop_betting_with_the_grid_down() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    s = table_state(t)
    assert s["step"]["kind"] == "bet" and s["step"]["round"] == "Pre-flop"
    assert set(s["grid"]["cells"].values()) == {None}


def test_r31_flop_turns_fifteen_cells() -> None:
    t = check_round(start(make(["Ann", "Bob", "Cy"])))
    step = t.step()
    assert step["kind"] == "reveal"
    assert step["cells"] == FLOP
    # the flop is exactly the cells marked 1, 2 and 3, three in every line
    marks = table_state(t)["grid"]["marks"]
    assert sorted(FLOP) == sorted(c for c, m in marks.items() if m in "123")
    for line in LINES_5.values():
        assert len(set(line) & set(FLOP)) == 3
    t = act(t, type="reveal")
    cells = table_state(t)["grid"]["cells"]
    assert sorted(c for c, v in cells.items() if v == "up") == sorted(FLOP)
    assert (t.step()["kind"], t.step()["round"]) == ("bet", "Flop")


def test_r31_turn_turns_the_cards_marked_4_then_river_the_cards_marked_5() -> None:
    t = check_round(start(make(["Ann", "Bob", "Cy"])))
    t = check_round(act(t, type="reveal"))
    step = t.step()
    assert (step["kind"], step["cells"]) == ("reveal", TURN)
    assert step["instruction"] == "Turn the turn card of every line (marked 4): 5 cards, framed."
    t = act(t, type="reveal")
    assert t.step()["round"] == "Turn"
    t = check_round(t)
    step = t.step()
    assert (step["kind"], step["cells"]) == ("reveal", RIVER)
    t = act(t, type="reveal")
    assert t.step()["round"] == "River"
    t = check_round(t)
    assert t.step()["kind"] == "showdown"
    for line in LINES_5.values():
        assert len(set(line) & set(TURN)) == 1 and len(set(line) & set(RIVER)) == 1


def test_r31_flop_cards_entered_by_list_land_in_flop_order() -> None:
    t = check_round(start(make(["Ann", "Bob", "Cy"])))
    cards = [JUNK[c] for c in FLOP]
    t = act(t, type="reveal", cards=cards)
    shown = table_state(t)["grid"]["cells"]
    assert all(shown[c] == JUNK[c] for c in FLOP)
    assert all(shown[c] is None for c in TURN + RIVER)


def test_r31_a_turn_cell_cannot_be_turned_on_the_flop() -> None:
    t = check_round(start(make(["Ann", "Bob", "Cy"])))
    refuse(t, "r1c2 is not turned now", type="reveal", cards={"r1c2": "Kh"})


# ----------------------------------------------------------------------------- R32


def test_r32_seed_example_straight_flush_on_row1_beats_aces_full_on_column2() -> None:
    t = to_showdown(start(make(["A", "B"])))
    t = showdown(t, SEED, {"A": "As Ad", "B": "7h 8h"})
    result = table_state(t)["result"]
    assert result["hands"]["A"]["hand"] == "Full house, aces full of fours"
    assert result["hands"]["A"]["lines"] == ["col2"]
    assert sorted(result["hands"]["A"]["cards"]) == sorted(["As", "Ad", "Ac", "4s", "4d"])
    assert result["hands"]["B"]["hand"] == "Straight flush, jack high"
    assert result["hands"]["B"]["lines"] == ["row1"]
    assert result["winners"] == ["B"]
    assert result["winning_lines"] == ["row1"]
    assert result["payouts"] == {"B": 4}
    assert stacks(t) == {"A": 98, "B": 102}
    assert "B wins with straight flush, jack high (row 1)." in table_state(t)["log"]


def test_r32_names_every_line_that_gives_the_same_best_hand() -> None:
    # SEED with row 4 = Ah 4d 4c 8d Qc: for As Ad it is aces full of fours too, like column 2
    cells = grid("""
9h Th Jh 2c 3d
Js Ac 6s 8c 9d
7s 4s 6c 8s 7c
Ah 4d 4c 8d Qc
Qd Kc 6d Qs Jc
""")
    t = to_showdown(start(make(["A", "B"])))
    t = showdown(t, cells, {"A": "As Ad", "B": "Kh Kd"})
    hand = table_state(t)["result"]["hands"]["A"]
    assert hand["hand"] == "Full house, aces full of fours"
    assert sorted(hand["lines"]) == ["col2", "row4"]
    assert table_state(t)["result"]["winning_lines"] == ["col2", "row4"]
    assert "A wins with full house, aces full of fours (row 4, column 2)." in table_state(t)["log"]


def test_r32_cards_of_two_lines_never_combine() -> None:
    # row 2 holds 2h 8h and row 3 holds 3h 9h: with Ah Kh that is a flush across two lines,
    # but no single line holds more than two hearts, so there is no flush.
    t = to_showdown(start(make(["Ann", "Bob"])))
    t = showdown(t, JUNK, {"Ann": "Ah Kh", "Bob": "Qs Qd"})
    result = table_state(t)["result"]
    assert result["hands"]["Ann"]["hand"] == "Two pair, nines and eights"
    assert result["hands"]["Ann"]["lines"] == ["col5"]
    assert result["hands"]["Bob"]["hand"] == "Two pair, queens and tens"
    assert result["winners"] == ["Bob"]


def test_r32_identical_hands_split_the_pot() -> None:
    t = to_showdown(start(make(["Ann", "Bob"])))
    t = showdown(t, JUNK, {"Ann": "Jh Js", "Bob": "Jc Jd"})
    result = table_state(t)["result"]
    assert result["winners"] == ["Ann", "Bob"]
    assert result["payouts"] == {"Ann": 2, "Bob": 2}
    assert stacks(t) == {"Ann": 100, "Bob": 100}


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_r32_declared_lines_match_brute_force(rnd: random.Random) -> None:
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rnd.shuffle(deck)
    cells = dict(zip(CELLS_5, deck[:25], strict=True))
    holes = {"Ann": deck[25:27], "Bob": deck[27:29]}
    t = to_showdown(start(make(["Ann", "Bob"])))
    t = showdown(t, cells, {n: " ".join(h) for n, h in holes.items()})
    result = table_state(t)["result"]
    scores = {}
    for name, hole in holes.items():
        scores[name], lines = brute_force_lines(hole, cells, LINES_5)
        assert set(result["hands"][name]["lines"]) == lines
    top = max(scores.values())
    assert result["winners"] == [n for n in holes if scores[n] == top]


# ----------------------------------------------------------------------------- R4


def test_r4_button_moves_one_seat_clockwise_every_deal() -> None:
    t = make(["Ann", "Bob", "Cy"])
    seen = []
    for _ in range(4):
        t = start(t)
        seen.append(table_state(t)["dealer"])
        t = act(t, type="fold", player=t.step()["player"])
        t = act(t, type="fold", player=t.step()["player"])
        assert t.deal_over
    assert seen == ["Ann", "Bob", "Cy", "Ann"]


def test_r4_blinds_follow_the_button() -> None:
    t = start(make(["Ann", "Bob", "Cy", "Di"]))
    t = act(t, type="fold", player="Di")
    t = act(t, type="fold", player="Ann")
    t = act(t, type="fold", player="Bob")  # Cy takes 3
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 101, "Di": 100}
    t = start(t)
    assert table_state(t)["dealer"] == "Bob"
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 100, "Di": 98}
    assert t.step()["player"] == "Ann"


# ----------------------------------------------------------------------------- R5


def test_r5_no_limit_minimum_raise_is_the_last_bet_or_raise() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    assert t.step()["min_raise_to"] == 4  # the big blind, 2, is the last bet
    refuse(t, "the smallest raise is to 4", type="raise", player="Ann", amount=3)
    t = check_round(t)
    t = act(t, type="reveal")
    refuse(t, "cannot bet to 0", type="bet", player="Bob", amount=0)
    t = act(t, type="bet", player="Bob", amount=5)
    refuse(t, "the smallest raise is to 10", type="raise", player="Cy", amount=9)
    t = act(t, type="raise", player="Cy", amount=12)  # a raise of 7
    assert t.step()["min_raise_to"] == 19
    refuse(t, "the smallest raise is to 19", type="raise", player="Ann", amount=18)
    t = act(t, type="raise", player="Ann", amount=19)
    assert t.step()["min_raise_to"] == 26


def test_r5_no_limit_bet_is_at_most_the_stack() -> None:
    t = start(make(["Ann", {"name": "Bob", "stack": 30}, "Cy"]))
    t = check_round(t)
    t = act(t, type="reveal")
    assert t.step()["max_raise_to"] == 28
    refuse(t, "Bob cannot bet to 29: that needs 29 and Bob has 28", type="bet", player="Bob",
           amount=29)


def test_r5_fixed_limit_small_bet_preflop_and_flop_big_bet_turn_and_river() -> None:
    t = start(make(["Ann", "Bob", "Cy"], betting="fixed_limit", small_bet=2, big_bet=4))
    step = t.step()
    assert (step["min_raise_to"], step["max_raise_to"]) == (4, 4)
    refuse(t, "in fixed limit this round it is raise to 4", type="raise", player="Ann",
           amount=6)
    t = check_round(act(t, type="raise", player="Ann", amount=4))
    t = act(t, type="reveal")
    refuse(t, "in fixed limit this round it is bet to 2", type="bet", player="Bob", amount=4)
    t = act(t, type="bet", player="Bob", amount=2)
    t = check_round(t)
    t = act(t, type="reveal")
    refuse(t, "in fixed limit this round it is bet to 4", type="bet", player="Bob", amount=2)
    t = act(t, type="bet", player="Bob", amount=4)
    assert t.step()["min_raise_to"] == 8
    t = check_round(t)
    t = act(t, type="reveal")
    step = t.step()
    assert (step["round"], step["min_raise_to"], step["max_raise_to"]) == ("River", 4, 4)
    # everyone put in 4 + 2 + 4 = 10
    assert stacks(t) == {"Ann": 90, "Bob": 90, "Cy": 90}


def test_r5_fixed_limit_one_bet_and_three_raises() -> None:
    t = start(make(["Ann", "Bob", "Cy"], betting="fixed_limit", small_bet=2, big_bet=4))
    # pre-flop the big blind is the bet: three raises follow
    t = act(t, type="raise", player="Ann", amount=4)
    t = act(t, type="raise", player="Bob", amount=6)
    t = act(t, type="raise", player="Cy", amount=8)
    assert t.step()["options"] == ["fold", "call"]
    refuse(t, "a round allows one bet and three raises", type="raise", player="Ann", amount=10)
    t = check_round(t)
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=2)
    t = act(t, type="raise", player="Cy", amount=4)
    t = act(t, type="raise", player="Ann", amount=6)
    t = act(t, type="raise", player="Bob", amount=8)
    refuse(t, "a round allows one bet and three raises", type="raise", player="Cy", amount=10)
    t = check_round(t)
    assert stacks(t) == {"Ann": 84, "Bob": 84, "Cy": 84}


def test_r5_pot_limit_maximum_is_the_pot_after_the_call() -> None:
    t = start(make(["Ann", "Bob", "Cy"], betting="pot_limit"))
    # pot 3, Ann calls 2 -> 5, raises 5: to 7
    assert t.step()["max_raise_to"] == 7
    refuse(t, "pot limit allows at most 7", type="raise", player="Ann", amount=8)
    t = act(t, type="raise", player="Ann", amount=7)
    # pot 10, Bob calls 6 -> 16, raises 16: to 23
    assert t.step()["max_raise_to"] == 23
    refuse(t, "pot limit allows at most 23", type="raise", player="Bob", amount=24)
    t = act(t, type="call", player="Bob")
    t = act(t, type="call", player="Cy")
    assert table_state(t)["pot_total"] == 21
    t = act(t, type="reveal")
    assert t.step()["max_raise_to"] == 21  # the opening bet is at most the pot
    refuse(t, "pot limit allows at most 21", type="bet", player="Bob", amount=22)
    t = act(t, type="bet", player="Bob", amount=21)
    assert stacks(t) == {"Ann": 93, "Bob": 72, "Cy": 93}


def test_r5_short_all_in_does_not_reopen_the_betting_for_players_who_acted() -> None:
    t = start(make(["Ann", {"name": "Bob", "stack": 30}, "Cy", "Di"]))
    t = check_round(t)  # everyone in for 2
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=10)  # Bob's last 28 stays behind: 18 left
    t = act(t, type="raise", player="Cy", amount=20)  # a full raise of 10
    t = act(t, type="call", player="Di")
    t = act(t, type="call", player="Ann")
    t = act(t, type="all_in", player="Bob")  # to 28: 8 more, less than a full raise of 10
    assert stacks(t)["Bob"] == 0
    for name in ("Cy", "Di", "Ann"):
        step = t.step()
        assert step["player"] == name
        assert step["options"] == ["fold", "call"]
        refuse(t, "did not reopen the betting", type="raise", player=name, amount=40)
        t = act(t, type="call", player=name)
    assert t.step()["kind"] == "reveal"
    assert stacks(t) == {"Ann": 70, "Bob": 0, "Cy": 70, "Di": 70}


def test_r5_short_all_in_leaves_raising_open_to_players_yet_to_act() -> None:
    t = start(make(["Ann", "Bob", {"name": "Cy", "stack": 14}, "Di"]))
    t = check_round(t)
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=10)
    t = act(t, type="all_in", player="Cy")  # to 12: short
    step = t.step()
    assert step["player"] == "Di" and "raise" in step["options"]
    assert step["min_raise_to"] == 22  # 12 + the last full raise, 10
    t = act(t, type="raise", player="Di", amount=22)
    t = act(t, type="call", player="Ann")
    step = t.step()  # Di's full raise reopens the betting for Bob
    assert step["player"] == "Bob" and "raise" in step["options"]


def test_r5_when_one_player_can_still_bet_the_rest_is_turned_without_betting() -> None:
    t = start(make(["Ann", {"name": "Bob", "stack": 20}, "Cy"]))
    t = act(t, type="raise", player="Ann", amount=20)
    t = act(t, type="all_in", player="Bob")
    t = act(t, type="fold", player="Cy")
    kinds = []
    while t.step()["kind"] != "showdown":
        kinds.append(t.step()["kind"])
        t = act(t, type="reveal")
    assert kinds == ["reveal", "reveal", "reveal"]
    t = showdown(t, JUNK, {"Ann": "Ks Kd", "Bob": "As Ad"})
    assert stacks(t) == {"Ann": 80, "Bob": 42, "Cy": 98}


def test_r5_uncalled_part_of_a_bet_goes_back() -> None:
    t = start(make(["Ann", {"name": "Bob", "stack": 10}, "Cy"]))
    t = check_round(t)
    t = act(t, type="reveal")
    t = act(t, type="all_in", player="Bob")  # 8
    t = act(t, type="raise", player="Cy", amount=50)
    t = act(t, type="fold", player="Ann")
    # Cy's 42 that nobody could call goes back
    assert stacks(t) == {"Ann": 98, "Bob": 0, "Cy": 90}
    assert table_state(t)["pots"] == [{"amount": 22, "eligible": ["Bob", "Cy"]}]
    assert "Cy takes back 42 uncalled." in table_state(t)["log"]


def test_r5_uncalled_bet_back_when_everyone_folds() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    t = act(t, type="raise", player="Ann", amount=60)
    t = act(t, type="fold", player="Bob")
    t = act(t, type="fold", player="Cy")
    assert t.deal_over
    assert stacks(t) == {"Ann": 103, "Bob": 99, "Cy": 98}
    assert table_state(t)["result"]["winners"] == ["Ann"]


# ----------------------------------------------------------------------------- R6


def side_pot_deal() -> Table:
    """Ann 100 deals; Bob 10 (small blind), Cy 20 (big blind), Di 30 all in pre-flop."""
    t = start(make([{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 10},
                    {"name": "Cy", "stack": 20}, {"name": "Di", "stack": 30}]))
    t = act(t, type="all_in", player="Di")
    t = act(t, type="call", player="Ann")
    t = act(t, type="all_in", player="Bob")
    t = act(t, type="all_in", player="Cy")
    return t


def test_r6_three_all_ins_make_a_main_pot_and_two_side_pots() -> None:
    t = side_pot_deal()
    assert table_state(t)["pots"] == [
        {"amount": 40, "eligible": ["Ann", "Bob", "Cy", "Di"]},
        {"amount": 30, "eligible": ["Ann", "Cy", "Di"]},
        {"amount": 20, "eligible": ["Ann", "Di"]},
    ]
    assert [p["status"] for p in table_state(t)["players"]] == ["in", "all_in", "all_in", "all_in"]


def test_r6_each_layer_goes_to_the_best_hand_among_its_players() -> None:
    t = to_showdown(side_pot_deal())
    t = showdown(t, JUNK, {"Ann": "Js Jd", "Bob": "As Ad", "Cy": "Ks Kd", "Di": "Qs Qd"})
    result = table_state(t)["result"]
    assert result["payouts"] == {"Bob": 40, "Cy": 30, "Di": 20}
    assert stacks(t) == {"Ann": 70, "Bob": 40, "Cy": 30, "Di": 20}
    assert table_state(t)["result_sentences"] == [
        "Main pot 40: Bob, two pair, aces and tens on row 1.",
        "First side pot 30: Cy, two pair, kings and tens on row 1.",
        "Second side pot 20: Di, two pair, queens and tens on row 1."]


def test_r6_the_biggest_stack_with_the_best_hand_takes_every_layer() -> None:
    t = to_showdown(side_pot_deal())
    t = showdown(t, JUNK, {"Ann": "As Ad", "Bob": "Ks Kd", "Cy": "Qs Qd", "Di": "Js Jd"})
    assert stacks(t) == {"Ann": 160, "Bob": 0, "Cy": 0, "Di": 0}


def test_r6_no_side_pot_while_nobody_is_all_in() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    assert table_state(t)["pots"] == [{"amount": 3, "eligible": ["Ann", "Bob", "Cy"]}]
    t = act(t, type="raise", player="Ann", amount=10)
    assert table_state(t)["pots"] == [{"amount": 13, "eligible": ["Ann", "Bob", "Cy"]}]


def test_r6_folded_chips_stay_in_the_layers_they_reached() -> None:
    t = start(make([{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 10}, "Cy"]))
    t = act(t, type="raise", player="Ann", amount=30)
    t = act(t, type="all_in", player="Bob")
    t = act(t, type="fold", player="Cy")  # Cy's big blind, 2, stays in the main pot
    assert table_state(t)["pots"] == [{"amount": 22, "eligible": ["Ann", "Bob"]}]
    assert stacks(t)["Ann"] == 90  # 20 of Ann's 30 were not called
    t = to_showdown(t)
    t = showdown(t, JUNK, {"Ann": "Ks Kd", "Bob": "As Ad"})
    assert stacks(t) == {"Ann": 90, "Bob": 22, "Cy": 98}


# ----------------------------------------------------------------------------- R7


def split_deal(**rules: Any) -> Table:
    """Dealer Ann calls, Bob folds his small blind, Cy checks: a pot of 5; Ann and Cy tie."""
    t = start(make(["Ann", "Bob", "Cy"], **rules))
    t = act(t, type="call", player="Ann")
    t = act(t, type="fold", player="Bob")
    t = act(t, type="check", player="Cy")
    t = to_showdown(t)
    return showdown(t, JUNK, {"Ann": "Jh Js", "Cy": "Jc Jd"})


def test_r7_odd_chip_to_the_first_sharing_seat_left_of_dealer() -> None:
    t = split_deal()
    assert table_state(t)["result"]["payouts"] == {"Ann": 2, "Cy": 3}
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 101}
    assert table_state(t)["result_sentences"] == [
        "Pot 5: Cy and Ann split it, two pair, jacks and tens on row 1.",
        "Cy gets the odd chip: the first of its winners from the dealer's left (R7)."]


def test_r7_odd_chip_order_starts_from_the_dealer_left_not_seat_one() -> None:
    t = make(["Ann", "Bob", "Cy"])
    t = start(t)
    t = act(t, type="fold", player="Ann")
    t = act(t, type="fold", player="Bob")  # Cy takes 3
    t = start(t)  # Bob deals, Cy small blind, Ann big blind
    t = act(t, type="call", player="Bob")
    t = act(t, type="fold", player="Cy")
    t = act(t, type="check", player="Ann")
    t = to_showdown(t)
    t = showdown(t, JUNK, {"Ann": "Jh Js", "Bob": "Jc Jd"})
    # seats from Bob's left: Cy (folded), Ann, Bob: Ann takes the odd chip
    assert table_state(t)["result"]["payouts"] == {"Ann": 3, "Bob": 2}
    assert stacks(t) == {"Ann": 101, "Bob": 99, "Cy": 100}


def test_r7_carry_keeps_the_odd_chip_for_the_next_deal() -> None:
    t = split_deal(odd_chip="carry")
    assert table_state(t)["result"]["payouts"] == {"Ann": 2, "Cy": 2}
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 100}
    assert table_state(t)["result_sentences"] == [
        "Pot 5: Cy and Ann split it, two pair, jacks and tens on row 1.",
        "The odd chip stays in the pot for the next deal (R7)."]
    assert t.totals.carry == 1 and t.chips() == 300
    t = start(t)  # Bob deals, Cy and Ann post the blinds; the odd chip is in the pot
    s = table_state(t)
    assert s["carried"] == 1
    assert s["pot_total"] == 4
    assert sum(pot["amount"] for pot in s["pots"]) == 4
    t = act(t, type="fold", player="Bob")
    t = act(t, type="fold", player="Cy")
    assert stacks(t) == {"Ann": 102, "Bob": 99, "Cy": 99}
    assert t.totals.carry == 0 and t.chips() == 300


# ----------------------------------------------------------------------------- R8


def test_r8_undo_a_bet() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    before = table_state(t, dealer=True)
    t2 = act(t, type="raise", player="Ann", amount=10)
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "Ann: raise 10"
    s = table_state(t3, dealer=True)
    for key in ("players", "step", "pots", "pot_total", "grid", "result"):
        assert s[key] == before[key]
    assert t3.seq == t2.seq + 1


def test_r8_undo_a_reveal() -> None:
    t = check_round(start(make(["Ann", "Bob", "Cy"])))
    t2 = act(t, type="reveal", cards=[JUNK[c] for c in FLOP])
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "reveal"
    assert t3.step() == t.step()
    assert set(table_state(t3)["grid"]["cells"].values()) == {None}


def test_r8_undo_the_showdown() -> None:
    t = to_showdown(start(make(["Ann", "Bob"])))
    t2 = showdown(t, JUNK, {"Ann": "As Ad", "Bob": "Ks Kd"})
    assert stacks(t2) == {"Ann": 102, "Bob": 98}
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "showdown"
    assert table_state(t3)["result"] is None
    assert t3.step()["kind"] == "showdown"
    assert stacks(t3) == stacks(t)
    t4 = showdown(t3, JUNK, {"Ann": "Qs Qd", "Bob": "Ks Kd"})
    assert stacks(t4) == {"Ann": 98, "Bob": 102}


def test_r8_undo_refused_at_deal_start_and_earlier_deals_stand() -> None:
    t = act(make(["Ann", "Bob"]), type="start_deal")
    refuse(make(["Ann", "Bob"]), "Nothing to undo: no deal has started", type="undo")
    t = act(t, type="next")
    t = act(t, type="fold", player="Ann")
    t = act(t, type="start_deal")
    assert stacks(t) == {"Ann": 97, "Bob": 100}  # deal 1's result stands; deal 2's blinds
    t = act(t, type="undo")  # R74: only the lone start_deal goes back
    assert stacks(t) == {"Ann": 99, "Bob": 101}
    assert table_state(t)["result"] is not None


def test_r8_repeated_undo_back_to_the_start_conserves_chips() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    t = act(t, type="raise", player="Ann", amount=10)
    t = act(t, type="call", player="Bob")
    t = act(t, type="fold", player="Cy")
    t = act(t, type="reveal")
    while table_state(t)["can_undo"]:  # R74: the start_deal goes back too
        t = act(t, type="undo")
    assert t.step()["kind"] == "start_deal"
    assert stacks(t) == {"Ann": 100, "Bob": 100, "Cy": 100}


# ----------------------------------------------------------------------------- R9


def test_r9_out_of_turn_is_refused() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    refuse(t, "It is not Bob's turn to call: it is Ann's.", type="call", player="Bob")
    refuse(t, "It is not Cy's turn to check", type="check", player="Cy")


def test_r9_too_small_a_raise_is_refused() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    refuse(t, "Ann cannot raise to 3: the smallest raise is to 4.", type="raise", player="Ann",
           amount=3)
    refuse(t, "Ann cannot raise to 2: it must be more than 2.", type="raise", player="Ann",
           amount=2)


def test_r9_a_card_both_a_new_grid_cell_and_a_hole_card_names_both_places() -> None:
    t = to_showdown(start(make(["Ann", "Bob", "Cy"])))
    refuse(t, "^9♥ is entered twice: r3c5 and Bob's hand.$", type="showdown", cells=JUNK,
           hands={"Ann": ["As", "Ad"], "Bob": ["Ks", "9h"], "Cy": ["Qs", "Qd"]})
    refuse(t, "^Q♠ is entered twice in Cy's hand.$", type="showdown", cells=JUNK,
           hands={"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"], "Cy": ["Qs", "Qs"]})


def test_r9_a_card_already_on_the_table_is_refused() -> None:
    t = check_round(start(make(["Ann", "Bob", "Cy"])))
    refuse(t, "^K♥ is entered twice: r1c1 and r2c4.$", type="reveal",
           cards={"r1c1": "Kh", "r2c4": "Kh"})
    t = act(t, type="reveal", cards={"r1c1": "Kh"})
    t = check_round(t)
    refuse(t, "^K♥ is entered twice: r1c1 and r1c2.$", type="reveal", cards={"r1c2": "Kh"})
    t = to_showdown(t)
    cells = dict(JUNK, r1c1="Kh")
    refuse(t, "^K♥ is entered twice: r1c1 and Ann's hand.$", type="showdown", cells=cells,
           hands={"Ann": ["Kh", "Ad"], "Bob": ["Ks", "Kd"], "Cy": ["Qs", "Qd"]})
    refuse(t, "r1c1 is already entered as Kh", type="showdown", cells=JUNK,
           hands={"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"], "Cy": ["Qs", "Qd"]})


def test_r9_more_cards_than_allowed_are_refused() -> None:
    t = check_round(start(make(["Ann", "Bob", "Cy"])))
    cards = [JUNK[c] for c in FLOP] + ["As"]
    refuse(t, "Only 15 cards are turned now", type="reveal", cards=cards)
    t = act(t, type="reveal")
    t = check_round(t)
    refuse(t, "Only 5 cards are turned now", type="reveal",
           cards=["As", "Ks", "Qs", "Js", "7s", "5s"])


def test_r9_a_player_who_does_not_exist_is_refused() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    refuse(t, "There is no player called Zed at this table.", type="call", player="Zed")
    t = to_showdown(t)
    refuse(t, "There is no player called Zed", type="showdown", cells=JUNK,
           hands={"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"], "Cy": ["Qs", "Qd"],
                  "Zed": ["Js", "Jd"]})


def test_r9_wrong_action_for_the_step_is_refused() -> None:
    t = act(make(["Ann", "Bob"]), type="start_deal")
    refuse(t, "Cannot check now: Deal two hole cards", type="check", player="Ann")
    refuse(t, "A deal is in play", type="start_deal")
    t = act(t, type="next")
    refuse(t, "Cannot reveal now", type="reveal")
    refuse(t, "Ann cannot check: 1 to call.", type="check", player="Ann")


# ----------------------------------------------------------------------------- R3 and R9 at random

ILLEGAL_BY_STEP: dict[str, list[dict[str, Any]]] = {
    "bet": [{"type": "next"}, {"type": "reveal"}, {"type": "pay", "player": "P0"},
            {"type": "check", "player": "Nobody"}],
    "reveal": [{"type": "next"}, {"type": "check", "player": "P0"},
               {"type": "raise", "player": "P1", "amount": 5}, {"type": "draw", "player": "P0"}],
    "next": [{"type": "reveal"}, {"type": "call", "player": "P0"}, {"type": "start_deal"}],
    "showdown": [{"type": "showdown"}, {"type": "check", "player": "P0"}, {"type": "next"}],
    "start_deal": [{"type": "check", "player": "P0"}, {"type": "reveal"},
                   {"type": "showdown"}],
}


def illegal_actions(t: Table) -> list[dict[str, Any]]:
    step = t.step()
    bodies = list(ILLEGAL_BY_STEP[step["kind"]])
    if step["kind"] == "bet":
        others = [p["name"] for p in table_state(t)["players"] if p["name"] != step["player"]]
        bodies.append({"type": "fold", "player": others[0]})
        if step["min_raise_to"] and step["min_raise_to"] > step["current_bet"] + 1:
            verb = "raise" if step["current_bet"] else "bet"
            bodies.append({"type": verb, "player": step["player"],
                           "amount": step["min_raise_to"] - 1})
    if step["kind"] == "reveal" and t.deal is not None:
        known = sorted(t.deal.known_cards())
        if known:
            bodies.append({"type": "reveal", "cards": {step["cells"][0]: known[0]}})
    return bodies


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    stacks_=st.lists(st.sampled_from([1, 2, 3, 5, 8, 20, 100]), min_size=2, max_size=6),
    betting=st.sampled_from(["no_limit", "fixed_limit", "pot_limit"]),
    ante=st.sampled_from([0, 1]),
    odd_chip=st.sampled_from(["left_of_dealer", "carry"]),
)
def test_r3_random_legal_play_conserves_chips_and_refuses_illegal_actions(
    seed: int, stacks_: list[int], betting: str, ante: int, odd_chip: str
) -> None:
    rng = random.Random(seed)
    players = [{"name": f"P{i}", "stack": s} for i, s in enumerate(stacks_)]
    t = new_table("texas_dozen", players,
                     {"betting": betting, "ante": ante, "odd_chip": odd_chip})
    total = sum(stacks_)
    for _ in range(3):
        if sum(1 for s in t.totals.stacks if s > 0) < 2:
            break
        t = act(t, type="start_deal")
        while not t.deal_over:
            assert t.chips() == total
            step = t.step()
            assert step["kind"] in ("next", "reveal", "bet", "showdown")
            assert (step["player"] is not None) == (step["kind"] == "bet")
            if rng.random() < 0.3:
                body = rng.choice(illegal_actions(t))
                before = table_state(t, dealer=True)
                assert not t.can(t.prepare(body)), body
                assert table_state(t, dealer=True) == before
            if table_state(t)["can_undo"] and rng.random() < 0.1:
                t = act(t, type="undo")
                continue
            options = legal_actions(t, rng)
            assert options
            t = act(t, **rng.choice(options))
        assert t.chips() == total
        assert sum(t.totals.stacks) + t.totals.carry == total


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), count=st.integers(2, 8))
def test_r3_play_deal_many_deals_conserve_chips(seed: int, count: int) -> None:
    rng = random.Random(seed)
    t = new_table("texas_dozen", [f"P{i}" for i in range(count)])
    for _ in range(3):
        if sum(1 for s in t.totals.stacks if s > 0) < 2:
            break  # heads up, one player has every chip
        t = play_deal(t, rng, undo_rate=0.05)
        assert t.chips() == 100 * count
        assert table_state(t)["result"] is not None


# ----------------------------------------------------------------------------- R6 and R7 at random


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    stacks_=st.lists(st.sampled_from([3, 5, 8, 13, 40]), min_size=2, max_size=6),
    betting=st.sampled_from(["no_limit", "fixed_limit", "pot_limit"]),
    odd_chip=st.sampled_from(["left_of_dealer", "carry"]),
)
def test_r6_r7_random_showdowns_pay_each_layer_to_its_best_hand(
    seed: int, stacks_: list[int], betting: str, odd_chip: str
) -> None:
    check_random_showdown(
        "texas_dozen", seed, stacks_, betting, odd_chip,
        score=lambda cards, cells: brute_force_lines(cards, cells, LINES_5)[0],
    )


def test_r30_a_short_big_blind_still_makes_the_others_call_the_full_blind() -> None:
    t = new_table("texas_dozen", ["Ann", {"name": "Bob", "stack": 10},
                                     {"name": "Cy", "stack": 1}])
    t = t.apply(t.prepare({"type": "start_deal"}))
    t = t.apply(t.prepare({"type": "next"}))
    step = t.step()
    assert (step["player"], step["to_call"]) == ("Ann", 2)
    t = t.apply(t.prepare({"type": "call", "player": "Ann"}))
    assert t.step()["to_call"] == 1  # Bob posted the small blind of 1
    t = t.apply(t.prepare({"type": "call", "player": "Bob"}))
    pots = table_state(t)["pots"]
    assert pots == [{"amount": 3, "eligible": ["Ann", "Bob", "Cy"]},
                    {"amount": 2, "eligible": ["Ann", "Bob"]}]
