"""Omaha (R62): four hole cards, a hand of exactly two of them with exactly three of the board;
pot limit by default; dealt at its own table or by dealer's choice at any cash table (R71)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_helpers import act, refuse, stacks

from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.errors import SetupError
from dealer_assist.core.hands import best_two_plus_three, rank_five
from dealer_assist.core.table import Table
from dealer_assist.games.registry import game_class, new_table, variants
from dealer_assist.web.state import table_state

OMAHA = "omaha"


def to_showdown(t: Table) -> Table:
    """Deal, then check every round down and turn the board without entering it."""
    t = act(t, type="next")
    while t.step()["kind"] in ("bet", "reveal"):
        step = t.step()
        if step["kind"] == "reveal":
            t = act(t, type="reveal")
        else:
            t = act(t, type="call" if step["to_call"] else "check", player=step["player"])
    return t


def test_r62_two_to_ten_players_pot_limit_by_default() -> None:
    assert game_class(OMAHA).players == (2, 10)
    assert new_table(OMAHA, ["Ann", "Bob"]).setup.rules.betting == "pot_limit"
    for betting in ("no_limit", "fixed_limit"):
        assert new_table(OMAHA, ["Ann", "Bob"], {"betting": betting}).setup.rules.betting \
            == betting
    with pytest.raises(SetupError, match="Omaha is for 2 to 10 players, not 11"):
        new_table(OMAHA, [f"P{i}" for i in range(11)])


def test_r62_one_heart_with_four_on_the_board_is_no_flush() -> None:
    """R62: Ann holds one heart with four hearts on the board: no flush; Bob holds two hearts
    and makes one. Ann's hand is her best two with three of the board: two pair."""
    t = act(new_table(OMAHA, ["Ann", "Bob"]), type="start_deal")
    t = to_showdown(t)
    assert t.step()["hole_cards"] == 4
    assert "enter the four cards of" in t.step()["instruction"]
    t = act(t, type="showdown", board=["Kh", "Qh", "5h", "4h", "9c"],
            hands={"Ann": ["Ah", "Kc", "Qd", "2s"], "Bob": ["7h", "6h", "2c", "3d"]})
    result = t.deal.result  # type: ignore[union-attr]
    assert result is not None and result.hands is not None
    assert result.hands["Ann"].hand == "Two pair, kings and queens"
    assert result.hands["Bob"].hand == "Flush, king high"
    assert result.winners == ["Bob"]
    assert stacks(t) == {"Ann": 98, "Bob": 102}


def test_r62_a_hand_is_never_the_board_alone() -> None:
    """R62: a royal flush on the board plays for nobody: each hand takes two hole cards, and
    Bob's one spade makes no flush."""
    t = to_showdown(act(new_table(OMAHA, ["Ann", "Bob"]), type="start_deal"))
    t = act(t, type="showdown", board=["As", "Ks", "Qs", "Js", "Ts"],
            hands={"Ann": ["2c", "3c", "4d", "5d"], "Bob": ["9s", "2d", "7h", "7c"]})
    result = t.deal.result  # type: ignore[union-attr]
    assert result is not None and result.hands is not None
    assert result.hands["Bob"].hand == "Pair of sevens"
    assert result.hands["Ann"].hand == "High card, ace"
    assert result.winners == ["Bob"]


def test_r9_r62_four_hole_cards_are_asked_for() -> None:
    t = to_showdown(act(new_table(OMAHA, ["Ann", "Bob"]), type="start_deal"))
    assert refuse(t, "Ann has 4 hole cards, not 2.", type="showdown",
                  board=["As", "Ks", "Qs", "Js", "Ts"],
                  hands={"Ann": ["2c", "3c"], "Bob": ["9s", "2d", "7h", "7c"]})


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_r62_the_hand_is_the_best_of_every_two_with_every_three(rng: random.Random) -> None:
    """R62 by brute force: the hand is the best of the 60 ways to take two of the four hole
    cards and three of the five board cards."""
    cards = rng.sample(FULL_DECK, 9)
    hole, board = cards[:4], cards[4:]
    brute = max(rank_five([*two, *three]).score for two in itertools.combinations(hole, 2)
                for three in itertools.combinations(board, 3))
    assert best_two_plus_three(hole, board).score == brute


@pytest.mark.parametrize("variant", [v for v in variants()
                                     if v != OMAHA and not game_class(v).whole_game])
def test_r71_omaha_is_dealt_by_dealers_choice_at_any_cash_table(variant: str) -> None:
    """R71: any cash table may deal Omaha; its deal is played to the end with four hole
    cards, chips conserved, and the next deal goes back to the table's last game unless named."""
    t = new_table(variant, ["Ann", "Bob", "Cy"])
    choices = {c["variant"]: c for c in table_state(t, dealer=True)["next_games"]}
    assert OMAHA in choices and "refusal" not in choices[OMAHA]
    chips = t.chips()
    t = act(t, type="start_deal", variant=OMAHA)
    assert t.game.variant == OMAHA and "four hole cards" in t.step()["instruction"]
    t = to_showdown(t)
    names = t.step()["players"]
    deck = [c for c in FULL_DECK]
    t = act(t, type="showdown", board=deck[:5],
            hands={name: deck[5 + 4 * i:9 + 4 * i] for i, name in enumerate(names)})
    assert t.deal_over and t.chips() == chips
    assert table_state(t)["variant"] == OMAHA
