"""Texas Hold'em (RULES.md section 7, R60-R61) and its cases of the common rules R3-R9.

Every expected chip count and winner below is worked out by hand from RULES.md, not read back
from the app. The betting itself is also checked deal for deal against PokerKit
(tests/test_pokerkit.py).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_helpers import act, check_round, refuse, stacks, to_showdown

from dealer_assist.core.autoplay import play_deal
from dealer_assist.core.errors import SetupError
from dealer_assist.core.hands import rank_five
from dealer_assist.core.table import Table
from dealer_assist.games.registry import game_class, new_table
from dealer_assist.web.state import table_state

NO_HELP = "2c 7d 9s Jc 3h"  # a board that pairs nobody's hole cards and makes nothing


def make(players: list[Any], **rules: Any) -> Table:
    return new_table("texas_holdem", players, rules)


def start(t: Table) -> Table:
    """Start a deal and deal the hole cards: pre-flop betting is next."""
    t = act(t, type="start_deal")
    assert t.step()["instruction"] == "Deal two hole cards to each player, then tap Next."
    return act(t, type="next")


def showdown(t: Table, board: str, hands: dict[str, str]) -> Table:
    return act(t, type="showdown", board=board.split(),
               hands={name: text.split() for name, text in hands.items()})


# ----------------------------------------------------------------------------- R60


@pytest.mark.parametrize("count", [2, 10])
def test_r60_two_to_ten_players(count: int) -> None:
    t = make([f"P{i}" for i in range(count)])
    assert len(table_state(t)["players"]) == count
    assert game_class("texas_holdem").players == (2, 10)


@pytest.mark.parametrize("count", [1, 11])
def test_r60_fewer_than_two_or_more_than_ten_refused(count: int) -> None:
    with pytest.raises(SetupError, match=f"Texas Hold'em is for 2 to 10 players, not {count}."):
        make([f"P{i}" for i in range(count)])


def test_r60_blinds_left_of_the_dealer_and_preflop_betting_left_of_the_big_blind() -> None:
    t = start(make(["Ann", "Bob", "Cy", "Di"]))
    assert table_state(t)["log"][:2] == ["Bob posts the small blind of 1.",
                                         "Cy posts the big blind of 2."]
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 98, "Di": 100}
    step = t.step()
    assert (step["round"], step["player"], step["to_call"]) == ("Pre-flop", "Di", 2)
    order = []
    while t.step()["kind"] == "bet":
        order.append(t.step()["player"])
        t = act(t, type="call" if t.step()["to_call"] else "check", player=order[-1])
    assert order == ["Di", "Ann", "Bob", "Cy"]  # the big blind may still raise: it checks
    t = act(t, type="reveal")
    assert (t.step()["round"], t.step()["player"]) == ("Flop", "Bob")  # left of the dealer


def test_r60_heads_up_the_dealer_posts_the_small_blind_and_acts_first_preflop_only() -> None:
    t = start(make(["Ann", "Bob"]))
    assert stacks(t) == {"Ann": 99, "Bob": 98}
    assert (t.step()["player"], t.step()["to_call"]) == ("Ann", 1)
    t = act(t, type="call", player="Ann")
    t = act(t, type="check", player="Bob")
    t = act(t, type="reveal")
    assert t.step()["player"] == "Bob"


def test_r60_the_ante_is_optional_and_from_every_player() -> None:
    assert table_state(make(["Ann", "Bob", "Cy"]))["rules"]["ante"] == 0
    t = start(make(["Ann", "Bob", "Cy"], ante=1))
    assert stacks(t) == {"Ann": 99, "Bob": 98, "Cy": 97}
    assert table_state(t)["pot_total"] == 6


def test_r60_the_button_moves_one_seat_every_deal() -> None:
    t = make(["Ann", "Bob", "Cy"])
    dealers = []
    for _ in range(4):
        t = start(t)
        dealers.append(table_state(t)["dealer"])
        while not t.deal_over:  # everyone folds to the big blind
            t = act(t, type="fold", player=t.step()["player"])
    assert dealers == ["Ann", "Bob", "Cy", "Ann"]


def test_r60_no_limit_is_the_default_and_pot_limit_and_fixed_limit_are_offered() -> None:
    assert table_state(make(["Ann", "Bob"]))["rules"]["betting"] == "no_limit"
    assert game_class("texas_holdem").betting_structures == (
        "no_limit", "fixed_limit", "pot_limit")
    with pytest.raises(SetupError, match="not spread_limit"):
        make(["Ann", "Bob"], betting="spread_limit")


def test_r60_no_limit_raises_up_to_the_whole_stack() -> None:
    t = start(make(["Ann", "Bob", {"name": "Cy", "stack": 40}]))
    step = t.step()
    assert (step["min_raise_to"], step["max_raise_to"]) == (4, 100)
    t = act(t, type="raise", player="Ann", amount=100)
    assert stacks(t)["Ann"] == 0


def test_r60_pot_limit_raises_to_at_most_the_pot_after_the_call() -> None:
    t = start(make(["Ann", "Bob", "Cy"], betting="pot_limit"))
    # 3 in the pot, 2 to call: the largest raise is to 2 + 3 + 2 = 7
    assert (t.step()["min_raise_to"], t.step()["max_raise_to"]) == (4, 7)
    refuse(t, "pot limit allows at most 7", type="raise", player="Ann", amount=8)
    t = act(t, type="raise", player="Ann", amount=7)
    # Bob: 10 in the pot, 6 to call: to 7 + 10 + 6 = 23
    assert t.step()["max_raise_to"] == 23


def test_r60_fixed_limit_small_bets_then_big_bets_and_four_bets_a_round() -> None:
    t = start(make(["Ann", "Bob", "Cy"], betting="fixed_limit", small_bet=2))
    step = t.step()
    assert step["min_raise_to"] == step["max_raise_to"] == 4
    refuse(t, "in fixed limit this round it is raise to 4", type="raise", player="Ann", amount=5)
    t = act(t, type="raise", player="Ann", amount=4)
    t = act(t, type="raise", player="Bob", amount=6)
    t = act(t, type="raise", player="Cy", amount=8)  # the blind, then three raises: capped
    step = t.step()
    assert (step["player"], step["options"]) == ("Ann", ["fold", "call"])
    refuse(t, "one bet and three raises", type="raise", player="Ann", amount=10)
    t = check_round(t)
    sizes = {}
    for street in ("Flop", "Turn", "River"):
        t = act(t, type="reveal")
        sizes[street] = t.step()["max_raise_to"]
        t = check_round(t)
    assert sizes == {"Flop": 2, "Turn": 4, "River": 4}
    assert stacks(t) == {"Ann": 92, "Bob": 92, "Cy": 92}


# ----------------------------------------------------------------------------- R61


def test_r61_the_flop_turn_and_river_are_turned_before_their_rounds() -> None:
    t = check_round(start(make(["Ann", "Bob", "Cy"])))
    turned = []
    for street in ("Flop", "Turn", "River"):
        step = t.step()
        assert step["kind"] == "reveal"
        turned.append(step["cells"])
        t = act(t, type="reveal")
        assert t.step()["round"] == street
        t = check_round(t)
    assert turned == [["b1", "b2", "b3"], ["b4"], ["b5"]]
    assert t.step()["kind"] == "showdown"


def test_r61_the_board_is_entered_as_it_turns_and_drawn_in_the_state() -> None:
    t = check_round(start(make(["Ann", "Bob"])))
    t = act(t, type="reveal", cards=["Ah", "Kd", "7c"])
    grid = table_state(t)["grid"]
    assert grid["board"] == ["Ah", "Kd", "7c", None, None]
    t = to_showdown(t)
    assert t.step()["cells"] == ["b4", "b5"]
    refuse(t, "A♥ is entered twice: b1 and b4", type="showdown", board=["Ah", "2c"],
           hands={"Ann": ["3c", "4c"], "Bob": ["5c", "6c"]})
    t = showdown(t, "2c 3d", {"Ann": "As Ad", "Bob": "Ks Qs"})
    assert table_state(t)["grid"]["board"] == ["Ah", "Kd", "7c", "2c", "3d"]
    assert table_state(t)["result"]["winners"] == ["Ann"]  # three aces


def test_r61_the_best_five_of_seven_wins_the_pot() -> None:
    t = to_showdown(check_round(start(make(["Ann", "Bob", "Cy"]))))
    t = showdown(t, NO_HELP, {"Ann": "Kh Kd", "Bob": "Ah Ad", "Cy": "Qh Qd"})
    assert stacks(t) == {"Ann": 98, "Bob": 104, "Cy": 98}
    result = table_state(t)["result"]
    assert result["hands"]["Bob"] == {"cards": ["Ah", "Ad", "Jc", "9s", "7d"],
                                      "hand": "Pair of aces"}
    assert table_state(t)["result_words"] == "Pot 6: Bob, a pair of aces."


def test_r61_a_kicker_from_the_hole_breaks_a_tie_on_the_board() -> None:
    t = to_showdown(check_round(start(make(["Ann", "Bob"]))))
    t = showdown(t, "As Ad Ks Kd 2c", {"Ann": "Qh 3c", "Bob": "Jh 4c"})
    assert stacks(t) == {"Ann": 102, "Bob": 98}


def test_r61_the_board_plays_and_the_odd_chip_goes_left_of_the_dealer() -> None:
    """Ann deals; Bob folds his small blind; Ann and Cy share 5: the odd chip goes to Cy, the
    first of them from the dealer's left (R7)."""
    t = start(make(["Ann", "Bob", "Cy"]))
    t = act(t, type="call", player="Ann")
    t = act(t, type="fold", player="Bob")
    t = act(t, type="check", player="Cy")
    t = showdown(to_showdown(t), "As Ks Qs Js Ts", {"Ann": "2h 3h", "Cy": "4h 5h"})
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 101}
    assert table_state(t)["result"]["winners"] == ["Ann", "Cy"]


def test_r61_with_odd_chip_carry_the_odd_chip_waits_for_the_next_deal() -> None:
    t = start(make(["Ann", "Bob", "Cy"], odd_chip="carry"))
    t = act(t, type="call", player="Ann")
    t = act(t, type="fold", player="Bob")
    t = act(t, type="check", player="Cy")
    t = showdown(to_showdown(t), "As Ks Qs Js Ts", {"Ann": "2h 3h", "Cy": "4h 5h"})
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 100}
    assert table_state(t)["carried"] == 1
    t = start(t)
    assert table_state(t)["pot_total"] == 4  # the blinds and the chip carried


def test_r61_side_pots_each_go_to_the_best_hand_that_paid_into_them() -> None:
    t = start(make(["Ann", {"name": "Bob", "stack": 10}, "Cy"]))
    t = act(t, type="raise", player="Ann", amount=10)
    t = act(t, type="all_in", player="Bob")  # 10: a call
    t = act(t, type="call", player="Cy")
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Cy", amount=20)
    t = act(t, type="call", player="Ann")
    assert table_state(t)["pots"] == [{"amount": 30, "eligible": ["Ann", "Bob", "Cy"]},
                                      {"amount": 40, "eligible": ["Ann", "Cy"]}]
    t = showdown(to_showdown(t), NO_HELP, {"Ann": "Kh Kd", "Bob": "Ah Ad", "Cy": "Qh Qd"})
    assert stacks(t) == {"Ann": 110, "Bob": 30, "Cy": 70}
    assert table_state(t)["result"]["payouts"] == {"Bob": 30, "Ann": 40}


def test_r61_everyone_else_folds_and_the_last_player_takes_the_pot_unseen() -> None:
    t = start(make(["Ann", "Bob", "Cy"]))
    t = act(t, type="raise", player="Ann", amount=6)
    t = act(t, type="fold", player="Bob")
    t = act(t, type="fold", player="Cy")
    assert t.deal_over
    assert stacks(t) == {"Ann": 103, "Bob": 99, "Cy": 98}
    assert table_state(t)["result_words"] == "Everyone else folded: Ann takes the pot of 5."


@given(seed=st.integers(0, 10**6),
       stacks_=st.lists(st.sampled_from([1, 2, 3, 5, 8, 20, 100]), min_size=2, max_size=10),
       betting=st.sampled_from(["no_limit", "fixed_limit", "pot_limit"]),
       ante=st.sampled_from([0, 1]), odd_chip=st.sampled_from(["left_of_dealer", "carry"]))
@settings(max_examples=40, deadline=None)
def test_r61_random_deals_conserve_chips(seed: int, stacks_: list[int], betting: str, ante: int,
                                         odd_chip: str) -> None:
    """R3 with R5-R7: random legal play, undo included, never makes or loses a chip."""
    rng = random.Random(seed)
    t = make([{"name": f"P{i}", "stack": s} for i, s in enumerate(stacks_)], betting=betting,
             ante=ante, odd_chip=odd_chip)
    total = t.chips()
    for _ in range(3):
        if sum(1 for p in table_state(t)["players"] if p["stack"]) < 2:
            break
        t = play_deal(t, rng, undo_rate=0.05)
        assert t.chips() == total


@given(st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None)
def test_r61_the_declared_hand_is_the_best_five_of_seven(rnd: random.Random) -> None:
    """R61, R2: each hand declared is the best of the 21 fives of its seven cards, ranked by
    rank_five alone, and the pot goes to the best of them."""
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    rnd.shuffle(deck)
    holes = {"Ann": deck[:2], "Bob": deck[2:4], "Cy": deck[4:6]}
    board = deck[6:11]
    t = showdown(to_showdown(check_round(start(make(["Ann", "Bob", "Cy"])))), " ".join(board),
                 {name: " ".join(cards) for name, cards in holes.items()})
    result = table_state(t)["result"]
    best = {name: max(rank_five(list(five)).score for five in combinations(cards + board, 5))
            for name, cards in holes.items()}
    for name in holes:
        assert rank_five(result["hands"][name]["cards"]).score == best[name]
    top = max(best.values())
    assert result["winners"] == [n for n in holes if best[n] == top]
