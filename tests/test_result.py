"""A deal's result as a typed value (issue 11): the same JSON the pages and the stored rows have
always had, read back into the same value, and told in the same words from either."""

from __future__ import annotations

import random

import pytest

from dealer_assist.core.autoplay import play_deal
from dealer_assist.core.result import BET_POT, PotShare, Result, ShownHand
from dealer_assist.games.registry import game_class, new_table, variants
from dealer_assist.web.state import table_state


@pytest.mark.parametrize("variant", variants())
def test_r6_every_result_reads_back_from_its_json_and_is_told_the_same(variant: str) -> None:
    """Random deals of every game: the state's ``result`` is the value's JSON, the value read
    back from that JSON (as the history reads a stored row) is equal to it, and its words, its
    sentences and its winning title (R6, R7) are the ones the live state shows."""
    game = game_class(variant)
    low, high = game.players
    for seed in range(16):
        rng = random.Random(seed)
        t = new_table(variant, [f"P{i}" for i in range(rng.randint(low, min(high, 6)))])
        t = play_deal(t, rng)
        assert t.deal is not None and t.deal.result is not None
        result = t.deal.result
        assert type(result) is game.result_type
        state = table_state(t)
        assert state["result"] == result.to_json()
        assert None not in result.to_json().values()  # a key a result does not fill is left out
        again = game.result_type.from_json(state["result"])
        assert again == result
        assert game.result_words(again) == state["result_words"]
        assert game.result_sentences(again) == state["result_sentences"]
        assert game.winning_title(again) == state["winning_words"]


def test_r7_pot_shares_keep_their_odd_chips_and_kind_through_json() -> None:
    """R7: a pot split with an odd chip keeps who got it; a king's pot (R28) keeps its kind."""
    result = Result(payouts={"Ann": 3, "Bob": 2}, winners=["Ann", "Bob"],
                    hands={"Ann": ShownHand(["Ah", "Kh", "Qh", "Jh", "9h"], "Flush, ace high")})
    result.add_pot(PotShare(BET_POT, 5, ["Ann", "Bob"], {"Ann": 1, "Bob": 1}, {"Ann": 1}))
    result.add_pot(PotShare("kings_pot", 0, carried=1))  # a carried pot, by its key
    data = result.to_json()
    assert data == {
        "payouts": {"Ann": 3, "Bob": 2},
        "pots": [{"kind": "pot", "amount": 5, "winners": ["Ann", "Bob"],
                  "shares": {"Ann": 1, "Bob": 1}, "odd": {"Ann": 1}, "carried": 0},
                 {"kind": "kings_pot", "amount": 0, "winners": [], "shares": {}, "odd": {},
                  "carried": 1}],
        "hands": {"Ann": {"cards": ["Ah", "Kh", "Qh", "Jh", "9h"], "hand": "Flush, ace high"}},
        "winners": ["Ann", "Bob"],
    }
    again = Result.from_json(data)
    assert again == result and again.pots is not None
    assert again.pots[1].kind == "kings_pot" and again.bet_pots() == [again.pots[0]]


def test_a_result_stored_before_its_pots_is_told_in_one_sentence() -> None:
    """A result kept before each pot was recorded (issue 13) has no ``pots``: it reads back
    with none, and is told the old way, one sentence with the payouts."""
    stored = {"payouts": {"Ann": 6, "Bob": 0}, "winners": ["Ann"],
              "hands": {"Ann": {"cards": ["As", "Ad", "Ac", "Kd", "Qs"], "hand": "Three aces"}}}
    game = game_class("texas_holdem")
    result = game.result_type.from_json(stored)
    assert result.pots is None
    assert result.to_json() == stored
    assert game.result_sentences(result) == ["Ann wins with three aces; Ann takes 6."]


def test_r9_a_results_copy_shares_nothing_mutable() -> None:
    """R9: an action is applied to a copy of the deal, the result's copy included; a change to
    the copy (21 Hand Hold'em writes the game's winner into the last hand's result) leaves the
    table before it as it was."""
    t = play_deal(new_table("kings_pot", [f"P{i}" for i in range(5)]), random.Random(3))
    assert t.deal is not None and t.deal.result is not None
    result = t.deal.result
    twin = result.copy()
    assert twin == result and twin is not result
    assert twin.pots is not None and result.pots is not None
    twin.pots[0].winners.append("Zed")
    twin.payouts["Zed"] = 1
    assert "Zed" not in result.pots[0].winners and "Zed" not in result.payouts
