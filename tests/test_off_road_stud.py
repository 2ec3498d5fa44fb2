"""Off-Road Stud (RULES.md section 5, R40-R42) and its cases of the common rules R3-R9.

Every expected chip count, winner, line and cell below is worked out by hand from RULES.md.

``SQUARE`` is a Graeco-Latin square: every one of the ten lines holds exactly the ranks 2, 3,
8 and 9, one card of each suit. So no line can make a flush (at most 1 + 3 cards of a suit),
a hand with hole cards A/K/Q/J and a low card other than 5, 6 or 7 cannot make a straight, and
every line gives such a hand the same value: all ten lines tie, and pocket pairs rank
AA > KK > QQ > JJ.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from settlement_oracle import check_random_showdown
from table_helpers import act, brute_force_lines, check_round, refuse, showdown, stacks

from dealer_assist.core.autoplay import legal_actions, play_deal
from dealer_assist.core.errors import IllegalActionError, SetupError
from dealer_assist.core.layouts import CELLS_4, LINES_4
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table
from dealer_assist.web.state import table_state

E_CELLS = ["r1c2", "r1c3", "r1c4", "r2c1", "r2c2", "r2c4", "r3c1", "r3c2", "r3c3", "r4c1",
           "r4c3", "r4c4"]
D_CELLS = ["r1c1", "r2c3", "r3c4", "r4c2"]
ALL_LINES = list(LINES_4)


def grid(rows: str) -> dict[str, str]:
    lines = [row.split() for row in rows.strip().splitlines()]
    return {f"r{r + 1}c{c + 1}": card for r, row in enumerate(lines) for c, card in enumerate(row)}


SQUARE = grid("""
9s 8h 3d 2c
3c 2d 9h 8s
2h 3s 8c 9d
8d 9c 2s 3h
""")


# ----------------------------------------------------------------------------- helpers


def make(players: list[Any], **rules: Any) -> Table:
    return new_table("off_road_stud", players, rules)


def start(t: Table, cells: dict[str, str] | None = None) -> Table:
    """Start a deal, turn the E cards (entering them from ``cells`` if given), deal two hole
    cards: round 1 is next."""
    t = act(t, type="start_deal")
    if cells is None:
        t = act(t, type="reveal")
    else:
        t = act(t, type="reveal", cards={c: cells[c] for c in E_CELLS})
    return act(t, type="next")


def to_showdown(t: Table) -> Table:
    while t.step()["kind"] != "showdown":
        kind = t.step()["kind"]
        t = check_round(t) if kind == "bet" else act(t, type=kind)
    return t


# ----------------------------------------------------------------------------- R40


@pytest.mark.parametrize("count", [2, 12])
def test_r40_two_to_twelve_players(count: int) -> None:
    assert len(table_state(make([f"P{i}" for i in range(count)]))["players"]) == count


@pytest.mark.parametrize("count", [1, 13])
def test_r40_fewer_than_two_or_more_than_twelve_players_refused(count: int) -> None:
    with pytest.raises(SetupError, match="Off-Road Stud is for 2 to 12 players"):
        make([f"P{i}" for i in range(count)])


def test_r40_everyone_antes_one_by_default() -> None:
    t = act(make(["Ann", "Bob", "Cy", "Di"]), type="start_deal")
    assert stacks(t) == {"Ann": 99, "Bob": 99, "Cy": 99, "Di": 99}
    assert table_state(t)["pot_total"] == 4
    assert table_state(t)["pots"] == [{"amount": 4, "eligible": ["Ann", "Bob", "Cy", "Di"]}]


def test_r40_house_ante() -> None:
    t = act(make(["Ann", "Bob", "Cy"], ante=5), type="start_deal")
    assert stacks(t) == {"Ann": 95, "Bob": 95, "Cy": 95}
    assert table_state(t)["pot_total"] == 15


def test_r40_a_short_stack_antes_what_it_has_and_is_all_in() -> None:
    t = act(make(["Ann", {"name": "Bob", "stack": 2}, "Cy"], ante=5), type="start_deal")
    assert stacks(t) == {"Ann": 95, "Bob": 0, "Cy": 95}
    assert [p["status"] for p in table_state(t)["players"]] == ["in", "all_in", "in"]


def test_r40_a_player_with_no_chips_sits_the_deal_out() -> None:
    t = act(make(["Ann", {"name": "Bob", "stack": 0}, "Cy"]), type="start_deal")
    assert [p["status"] for p in table_state(t)["players"]] == ["in", "out", "in"]
    assert table_state(t)["pot_total"] == 2


# ----------------------------------------------------------------------------- R41


def test_r41_the_twelve_e_cards_first_then_two_hole_cards_then_round_1() -> None:
    t = act(make(["Ann", "Bob", "Cy"]), type="start_deal")
    step = t.step()
    assert (step["kind"], step["cells"]) == ("reveal", E_CELLS)
    assert sorted(E_CELLS + D_CELLS) == sorted(CELLS_4)
    t = act(t, type="reveal", cards={c: SQUARE[c] for c in E_CELLS})
    cells = table_state(t)["grid"]["cells"]
    assert all(cells[c] == SQUARE[c] for c in E_CELLS)
    assert all(cells[c] is None for c in D_CELLS)  # the D cards stay down
    assert table_state(t)["grid"]["marks"] == {c: "D" if c in D_CELLS else "E" for c in CELLS_4}
    step = t.step()
    assert step == {"kind": "next", "player": None,
                    "instruction": "Deal two hole cards to each player, then tap Next.",
                    "public": "The dealer is dealing two hole cards to each player."}
    t = act(t, type="next")
    step = t.step()
    assert (step["kind"], step["round"], step["player"]) == ("bet", "Round 1", "Bob")


def test_r41_third_hole_card_round_2_then_d_cards_round_3_then_showdown() -> None:
    t = check_round(start(make(["Ann", "Bob", "Cy"])))
    step = t.step()
    assert step["kind"] == "next"
    assert step["instruction"] == "Deal a third hole card to each player, then tap Next."
    t = act(t, type="next")
    assert (t.step()["round"], t.step()["player"]) == ("Round 2", "Bob")
    t = check_round(t)
    step = t.step()
    assert (step["kind"], step["cells"]) == ("reveal", D_CELLS)
    t = act(t, type="reveal")
    assert all(v == "up" for c, v in table_state(t)["grid"]["cells"].items() if c in D_CELLS)
    assert (t.step()["round"], t.step()["player"]) == ("Round 3", "Bob")
    t = check_round(t)
    step = t.step()
    assert step["kind"] == "showdown" and step["hole_cards"] == 3
    assert step["cells"] == sorted(CELLS_4)  # nothing entered yet


def test_r41_betting_starts_left_of_dealer_every_round() -> None:
    t = start(make(["Ann", "Bob", "Cy", "Di"]))
    assert t.step()["player"] == "Bob"
    t = act(t, type="fold", player="Bob")
    t = check_round(t)
    t = act(t, type="next")
    assert t.step()["player"] == "Cy"  # Bob, left of the dealer, has folded


def test_r41_second_deal_starts_left_of_the_new_dealer() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    t = act(t, type="fold", player="Bob")
    t = act(t, type="fold", player="Cy")
    assert stacks(t) == {"Ann": 102, "Bob": 99, "Cy": 99}
    t = start(t)
    assert table_state(t)["dealer"] == "Bob"
    assert t.step()["player"] == "Cy"


# ----------------------------------------------------------------------------- R42


def test_r42_every_line_that_gives_the_best_hand_is_named() -> None:
    t = to_showdown(start(make(["Ann", "Bob"])))
    t = showdown(t, SQUARE, {"Ann": "As Ad 4c", "Bob": "Ks Kd 4h"})
    result = table_state(t)["result"]
    assert result["hands"]["Ann"]["hand"] == "Pair of aces"
    assert result["hands"]["Ann"]["lines"] == ALL_LINES
    assert result["hands"]["Bob"]["hand"] == "Pair of kings"
    assert result["winners"] == ["Ann"] and result["winning_lines"] == sorted(ALL_LINES)
    assert stacks(t) == {"Ann": 101, "Bob": 99}
    assert table_state(t)["log"][-1] == (
        "Ann wins with pair of aces (row 1, row 2, row 3, row 4, column 1, column 2, "
        "column 3, column 4, the diagonal, the anti-diagonal).")


def test_r42_three_hole_cards_and_four_cards_of_one_line() -> None:
    # row 2 = 3c 2d Ac Ah (Ac is its D card): with As Ad that is four aces, in row 2 only;
    # column 3, column 4 and the anti-diagonal hold one ace each.
    cells = dict(SQUARE, r2c3="Ac", r2c4="Ah")
    t = to_showdown(start(make(["Ann", "Bob"]), cells))
    t = showdown(t, {c: cells[c] for c in D_CELLS}, {"Ann": "As Ad 4c", "Bob": "Ks Kd Qh"})
    result = table_state(t)["result"]
    assert result["hands"]["Ann"]["hand"] == "Four of a kind, aces"
    assert result["hands"]["Ann"]["lines"] == ["row2"]
    assert sorted(result["hands"]["Ann"]["cards"]) == sorted(["As", "Ad", "Ac", "Ah", "4c"])
    # Bob: K K with row 2's two aces is two pair, aces and kings, queen kicker
    assert result["hands"]["Bob"]["hand"] == "Two pair, aces and kings"
    assert result["hands"]["Bob"]["lines"] == ["row2"]
    assert result["winners"] == ["Ann"] and result["winning_lines"] == ["row2"]


def test_r42_cards_of_two_lines_never_combine() -> None:
    # every line holds one heart: with Ah Kh Qh a player holds four hearts in any line, and
    # the hearts of two lines together would make a flush, but no line does.
    t = to_showdown(start(make(["Ann", "Bob"])))
    t = showdown(t, SQUARE, {"Ann": "Ah Kh Qh", "Bob": "Js Jd 4c"})
    result = table_state(t)["result"]
    assert result["hands"]["Ann"]["hand"] == "High card, ace"
    assert result["winners"] == ["Bob"]


def test_r42_identical_hands_split() -> None:
    t = to_showdown(start(make(["Ann", "Bob", "Cy", "Di"])))
    t = showdown(t, SQUARE, {"Ann": "Js Jd 4c", "Bob": "Jh Jc 4d", "Cy": "Ts Td 4h",
                             "Di": "Th Tc 4s"})
    assert table_state(t)["result"]["winners"] == ["Ann", "Bob"]
    assert stacks(t) == {"Ann": 101, "Bob": 101, "Cy": 99, "Di": 99}


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_r42_declared_lines_match_brute_force(rnd: random.Random) -> None:
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rnd.shuffle(deck)
    cells = dict(zip(CELLS_4, deck[:16], strict=True))
    holes = {"Ann": deck[16:19], "Bob": deck[19:22], "Cy": deck[22:25]}
    t = to_showdown(start(make(["Ann", "Bob", "Cy"])))
    t = showdown(t, cells, {n: " ".join(h) for n, h in holes.items()})
    result = table_state(t)["result"]
    scores = {}
    for name, hole in holes.items():
        scores[name], lines = brute_force_lines(hole, cells, LINES_4)
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
    assert seen == ["Ann", "Bob", "Cy", "Ann"]


def test_r4_button_skips_a_player_with_no_chips() -> None:
    t = make(["Ann", "Bob", {"name": "Cy", "stack": 0}])
    dealers = []
    for _ in range(3):
        t = start(t)
        dealers.append(table_state(t)["dealer"])
        t = act(t, type="fold", player=t.step()["player"])
    assert dealers == ["Ann", "Bob", "Ann"]


# ----------------------------------------------------------------------------- R5


def test_r5_fixed_limit_small_bet_in_round_1_big_bet_after() -> None:
    t = start(make(["Ann", "Bob", "Cy"], betting="fixed_limit", small_bet=3))  # big_bet 6
    step = t.step()
    assert (step["min_raise_to"], step["max_raise_to"]) == (3, 3)
    refuse(t, "in fixed limit this round it is bet to 3", type="bet", player="Bob", amount=6)
    t = act(t, type="bet", player="Bob", amount=3)
    t = act(t, type="raise", player="Cy", amount=6)
    t = act(t, type="raise", player="Ann", amount=9)
    t = act(t, type="raise", player="Bob", amount=12)
    refuse(t, "a round allows one bet and three raises", type="raise", player="Cy", amount=15)
    t = check_round(t)
    t = act(t, type="next")
    refuse(t, "in fixed limit this round it is bet to 6", type="bet", player="Bob", amount=3)
    t = act(t, type="bet", player="Bob", amount=6)
    assert t.step()["min_raise_to"] == 12
    t = check_round(t)
    t = act(t, type="reveal")
    assert (t.step()["round"], t.step()["min_raise_to"]) == ("Round 3", 6)
    assert stacks(t) == {"Ann": 81, "Bob": 81, "Cy": 81}


def test_r5_pot_limit_maximum() -> None:
    t = start(make(["Ann", "Bob", "Cy"], betting="pot_limit"))  # pot 3 from the antes
    assert t.step()["max_raise_to"] == 3
    refuse(t, "pot limit allows at most 3", type="bet", player="Bob", amount=4)
    t = act(t, type="bet", player="Bob", amount=3)
    # pot 6, Cy calls 3 -> 9, raises 9: to 12
    assert t.step()["max_raise_to"] == 12
    refuse(t, "pot limit allows at most 12", type="raise", player="Cy", amount=13)
    t = act(t, type="raise", player="Cy", amount=12)
    # pot 18, Ann calls 12 -> 30, raises 30: to 42
    assert t.step()["max_raise_to"] == 42
    t = act(t, type="raise", player="Ann", amount=42)
    assert stacks(t) == {"Ann": 57, "Bob": 96, "Cy": 87}


def test_r5_pot_limit_minimum_bet_is_allowed_into_an_empty_pot() -> None:
    t = start(make(["Ann", "Bob", "Cy"], betting="pot_limit", ante=0))
    step = t.step()
    assert step["min_raise_to"] <= step["max_raise_to"]
    t = act(t, type="bet", player="Bob", amount=1)
    assert stacks(t)["Bob"] == 99


def test_r5_no_limit_minimum_raise() -> None:
    t = start(make(["Ann", "Bob", "Cy"], min_bet=2))
    refuse(t, "the smallest bet is to 2", type="bet", player="Bob", amount=1)
    t = act(t, type="bet", player="Bob", amount=4)
    refuse(t, "the smallest raise is to 8", type="raise", player="Cy", amount=7)
    t = act(t, type="raise", player="Cy", amount=8)
    assert t.step()["min_raise_to"] == 12


def test_r5_short_all_in_does_not_reopen_the_betting() -> None:
    t = start(make(["Ann", "Bob", {"name": "Cy", "stack": 13}]))
    t = act(t, type="bet", player="Bob", amount=10)
    t = act(t, type="all_in", player="Cy")  # to 12: a raise of 2, short of 10
    step = t.step()
    assert step["player"] == "Ann" and "raise" in step["options"]  # Ann had not acted
    assert step["min_raise_to"] == 22
    t = act(t, type="call", player="Ann")
    step = t.step()
    assert (step["player"], step["options"]) == ("Bob", ["fold", "call"])
    refuse(t, "did not reopen the betting", type="raise", player="Bob", amount=30)
    t = act(t, type="call", player="Bob")
    assert t.step()["kind"] == "next"
    assert table_state(t)["pots"] == [{"amount": 39, "eligible": ["Ann", "Bob", "Cy"]}]


def test_r5_all_in_and_called_turns_the_rest_without_betting() -> None:
    t = start(make(["Ann", {"name": "Bob", "stack": 21}]))
    t = act(t, type="all_in", player="Bob")
    t = act(t, type="call", player="Ann")
    kinds = []
    while t.step()["kind"] != "showdown":
        kinds.append(t.step()["kind"])
        t = act(t, type=t.step()["kind"])
    assert kinds == ["next", "reveal"]  # the third hole card, the D cards: no betting
    t = showdown(t, SQUARE, {"Ann": "Ks Kd 4h", "Bob": "As Ad 4c"})
    assert stacks(t) == {"Ann": 79, "Bob": 42}


def test_r5_uncalled_bet_goes_back() -> None:
    t = start(make(["Ann", {"name": "Bob", "stack": 11}, "Cy"]))
    t = act(t, type="all_in", player="Bob")  # 10
    t = act(t, type="raise", player="Cy", amount=40)
    t = act(t, type="fold", player="Ann")
    assert stacks(t) == {"Ann": 99, "Bob": 0, "Cy": 89}
    assert table_state(t)["pot_total"] == 23


# ----------------------------------------------------------------------------- R6


def side_pot_deal() -> Table:
    """Ann 100 deals; Bob 11, Cy 21 and Di 31 ante 1 and go all in in round 1; Ann calls."""
    t = start(make([{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 11},
                    {"name": "Cy", "stack": 21}, {"name": "Di", "stack": 31}]))
    t = act(t, type="all_in", player="Bob")
    t = act(t, type="all_in", player="Cy")
    t = act(t, type="all_in", player="Di")
    return act(t, type="call", player="Ann")


def test_r6_three_all_ins_make_a_main_pot_and_two_side_pots() -> None:
    t = side_pot_deal()
    assert table_state(t)["pots"] == [
        {"amount": 44, "eligible": ["Ann", "Bob", "Cy", "Di"]},
        {"amount": 30, "eligible": ["Ann", "Cy", "Di"]},
        {"amount": 20, "eligible": ["Ann", "Di"]},
    ]
    assert stacks(t) == {"Ann": 69, "Bob": 0, "Cy": 0, "Di": 0}


def test_r6_each_layer_goes_to_the_best_hand_among_its_players() -> None:
    t = to_showdown(side_pot_deal())
    t = showdown(t, SQUARE, {"Ann": "Js Jd 4c", "Bob": "As Ad 4h", "Cy": "Ks Kd 4d",
                             "Di": "Qs Qd 4s"})
    assert table_state(t)["result"]["payouts"] == {"Bob": 44, "Cy": 30, "Di": 20}
    assert stacks(t) == {"Ann": 69, "Bob": 44, "Cy": 30, "Di": 20}


def test_r6_a_side_pot_split_between_two_of_its_players() -> None:
    t = to_showdown(side_pot_deal())
    # Ann and Di tie with jacks; Bob and Cy hold less
    t = showdown(t, SQUARE, {"Ann": "Js Jd 4c", "Bob": "Ts Td 4h", "Cy": "Qs 7d 4d",
                             "Di": "Jh Jc 4s"})
    # main 44 and side 30 split 22/15 each; side 20 split 10/10
    assert table_state(t)["result"]["payouts"] == {"Ann": 47, "Di": 47}
    assert table_state(t)["result_sentences"] == [
        "Main pot 44: Di and Ann split it, a pair of jacks on 10 lines.",
        "First side pot 30: Di and Ann split it, a pair of jacks on 10 lines.",
        "Second side pot 20: Di and Ann split it, a pair of jacks on 10 lines."]
    assert stacks(t) == {"Ann": 116, "Bob": 0, "Cy": 0, "Di": 47}


# ----------------------------------------------------------------------------- R7


def test_r7_odd_chip_to_the_first_sharing_seat_left_of_dealer() -> None:
    t = to_showdown(start(make(["Ann", "Bob", "Cy"])))
    t = showdown(t, SQUARE, {"Ann": "Js Jd 4c", "Bob": "Ts Td 4h", "Cy": "Jh Jc 4d"})
    # pot 3, Ann and Cy share: seats from Ann's left are Bob, Cy, Ann: Cy takes the odd chip
    assert table_state(t)["result"]["payouts"] == {"Ann": 1, "Cy": 2}
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 101}


def test_r7_carry_keeps_the_odd_chip_for_the_next_deal() -> None:
    t = to_showdown(start(make(["Ann", "Bob", "Cy"], odd_chip="carry")))
    t = showdown(t, SQUARE, {"Ann": "Js Jd 4c", "Bob": "Ts Td 4h", "Cy": "Jh Jc 4d"})
    assert table_state(t)["result"]["payouts"] == {"Ann": 1, "Cy": 1}
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 100}
    assert t.totals.carry == 1 and t.chips() == 300
    t = start(t)
    assert table_state(t)["pot_total"] == 4 and table_state(t)["carried"] == 1
    t = act(t, type="bet", player="Cy", amount=10)
    t = act(t, type="fold", player="Ann")
    t = act(t, type="fold", player="Bob")
    assert stacks(t) == {"Ann": 99, "Bob": 98, "Cy": 103}
    assert t.totals.carry == 0


# ----------------------------------------------------------------------------- R8


def test_r8_undo_a_bet() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    t2 = act(t, type="bet", player="Bob", amount=7)
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "Bob: bet 7"
    assert table_state(t3)["players"] == table_state(t)["players"] and t3.step() == t.step()


def test_r8_undo_the_e_cards_and_the_d_cards() -> None:
    t = act(make(["Ann", "Bob"]), type="start_deal")
    t2 = act(t, type="reveal", cards={"r1c2": "Kh"})
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "reveal"
    assert table_state(t3)["grid"] == table_state(t)["grid"]
    t = check_round(act(check_round(act(t2, type="next")), type="next"))
    t2 = act(t, type="reveal", cards={"r1c1": "Kd"})
    t3 = act(t2, type="undo")
    assert t3.step() == t.step()
    assert table_state(t3)["grid"]["cells"]["r1c1"] is None


def test_r8_undo_the_showdown() -> None:
    t = to_showdown(start(make(["Ann", "Bob"])))
    t2 = showdown(t, SQUARE, {"Ann": "Js Jd 4c", "Bob": "As Ad 4h"})
    assert stacks(t2) == {"Ann": 99, "Bob": 101}
    t3 = act(t2, type="undo")
    assert table_state(t3)["undone"] == "showdown" and table_state(t3)["result"] is None
    assert stacks(t3) == {"Ann": 99, "Bob": 99}
    t4 = showdown(t3, SQUARE, {"Ann": "Js Jd 4c", "Bob": "Ts Td 4h"})
    assert stacks(t4) == {"Ann": 101, "Bob": 99}


def test_r8_undo_refused_at_deal_start() -> None:
    refuse(make(["Ann", "Bob"]), "Nothing to undo: no deal has started.", type="undo")
    t = act(make(["Ann", "Bob"]), type="start_deal")
    assert act(t, type="undo").deal is None  # R74: a lone start_deal is taken back


# ----------------------------------------------------------------------------- R9


def test_r9_out_of_turn() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    refuse(t, "It is not Ann's turn to check: it is Bob's.", type="check", player="Ann")


def test_r9_too_small_a_raise() -> None:
    t = act(start(make(["Ann", "Bob", "Cy"])), type="bet", player="Bob", amount=5)
    refuse(t, "Cy cannot raise to 9: the smallest raise is to 10.", type="raise", player="Cy",
           amount=9)


def test_r9_a_card_already_on_the_table() -> None:
    t = to_showdown(start(make(["Ann", "Bob"]), SQUARE))
    d_cards = {c: SQUARE[c] for c in D_CELLS}
    refuse(t, "^8♥ is entered twice: r1c2 and Ann's hand.$", type="showdown", cells=d_cards,
           hands={"Ann": ["8h", "Ad", "4c"], "Bob": ["Ks", "Kd", "4h"]})
    refuse(t, "^K♠ is entered twice: Ann's hand and Bob's hand.$", type="showdown", cells=d_cards,
           hands={"Ann": ["As", "Ad", "Ks"], "Bob": ["Ks", "Kd", "4h"]})
    refuse(t, "^9♠ is entered twice: r1c1 and r2c3.$", type="showdown",
           cells=dict(d_cards, r2c3="9s"), hands={"Ann": ["As", "Ad", "4c"],
                                                  "Bob": ["Ks", "Kd", "4h"]})


def test_r9_more_cards_than_allowed() -> None:
    t = act(make(["Ann", "Bob"]), type="start_deal")
    cards = [SQUARE[c] for c in E_CELLS] + ["As"]
    refuse(t, "Only 12 cards are turned now", type="reveal", cards=cards)
    refuse(t, "r1c1 is not turned now", type="reveal", cards={"r1c1": "As"})  # a D card


def test_r9_a_player_who_does_not_exist() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    refuse(t, "There is no player called Zed at this table.", type="bet", player="Zed",
           amount=5)


def test_r9_three_hole_cards_not_two() -> None:
    t = to_showdown(start(make(["Ann", "Bob"])))
    refuse(t, "Ann has 3 hole cards, not 2.", type="showdown", cells=SQUARE,
           hands={"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd", "4h"]})
    refuse(t, "Enter Bob's 3 hole cards.", type="showdown", cells=SQUARE,
           hands={"Ann": ["As", "Ad", "4c"]})


# ----------------------------------------------------------------------------- R3 and R9 at random


def illegal_actions(t: Table) -> list[dict[str, Any]]:
    step = t.step()
    kind = step["kind"]
    bodies: list[dict[str, Any]] = [{"type": "check", "player": "Nobody"},
                                    {"type": "pay", "player": "P0"}]
    if kind != "next":
        bodies.append({"type": "next"})
    if kind != "reveal":
        bodies.append({"type": "reveal"})
    if kind == "bet":
        others = [p["name"] for p in table_state(t)["players"] if p["name"] != step["player"]]
        bodies.append({"type": "fold", "player": others[0]})
        if step["min_raise_to"] and step["min_raise_to"] > step["current_bet"] + 1:
            verb = "raise" if step["current_bet"] else "bet"
            bodies.append({"type": verb, "player": step["player"],
                           "amount": step["min_raise_to"] - 1})
    if kind == "reveal" and t.deal is not None and t.deal.known_cards():
        bodies.append({"type": "reveal", "cards": {step["cells"][0]:
                                                   sorted(t.deal.known_cards())[0]}})
    return bodies


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    stacks_=st.lists(st.sampled_from([0, 1, 2, 4, 9, 30, 100]), min_size=2, max_size=6),
    betting=st.sampled_from(["no_limit", "fixed_limit", "pot_limit"]),
    ante=st.sampled_from([1, 2]),
    odd_chip=st.sampled_from(["left_of_dealer", "carry"]),
)
def test_r3_random_legal_play_conserves_chips_and_refuses_illegal_actions(
    seed: int, stacks_: list[int], betting: str, ante: int, odd_chip: str
) -> None:
    rng = random.Random(seed)
    players = [{"name": f"P{i}", "stack": s} for i, s in enumerate(stacks_)]
    t = new_table("off_road_stud", players,
                     {"betting": betting, "ante": ante, "odd_chip": odd_chip})
    total = sum(stacks_)
    for _ in range(3):
        if sum(1 for s in t.totals.stacks if s > 0) < 2:
            with pytest.raises(IllegalActionError, match="players dealt in"):
                t.apply(t.prepare({"type": "start_deal"}))
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
        assert sum(t.totals.stacks) + t.totals.carry == total


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), count=st.integers(2, 8))
def test_r3_play_deal_many_deals_conserve_chips(seed: int, count: int) -> None:
    rng = random.Random(seed)
    t = make([f"P{i}" for i in range(count)])
    for _ in range(3):
        if sum(1 for s in t.totals.stacks if s > 0) < 2:
            break
        t = play_deal(t, rng, undo_rate=0.05)
        assert t.chips() == 100 * count


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
        "off_road_stud", seed, stacks_, betting, odd_chip,
        score=lambda cards, cells: brute_force_lines(cards, cells, LINES_4)[0],
    )
