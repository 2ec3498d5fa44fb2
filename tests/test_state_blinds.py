"""Issue 22: each player's row says which blind they posted (``players[].blind`` in the state:
"small", "big", or "blind" where a game has one), so the pages mark SB and BB rather than show
"bet 1", "bet 2"; nobody has one before a deal or once it is over."""

from __future__ import annotations

from typing import Any


def blinds(state: dict[str, Any]) -> dict[str, str]:
    return {p["name"]: p["blind"] for p in state["players"] if "blind" in p}


def test_the_blinds_are_named_in_a_deal_and_gone_after_it(make_table: Any) -> None:
    table = make_table("texas_holdem", ["Ann", "Bob", "Cy"])
    assert blinds(table.state()) == {}
    state = table.run({"type": "start_deal"})
    assert blinds(state) == {"Bob": "small", "Cy": "big"}  # left of the dealer, Ann (R60)
    assert blinds(table.state()) == blinds(table.state(dealer=True))
    state = table.run({"type": "next"}, {"type": "fold", "player": "Ann"},
                      {"type": "fold", "player": "Bob"})
    assert state["result"] is not None
    assert blinds(state) == {}


def test_heads_up_the_dealer_posts_the_small_blind(make_table: Any) -> None:
    table = make_table("texas_dozen", ["Ann", "Bob"])
    state = table.run({"type": "start_deal"})
    assert blinds(state) == {"Ann": "small", "Bob": "big"}  # R30


def test_a_game_of_one_blind_names_it(make_table: Any) -> None:
    table = make_table("twenty_one_hand_holdem", ["Ann", "Bob", "Cy"])
    state = table.run({"type": "start_deal"})
    assert blinds(state) == {"Ann": "blind"}


def test_a_game_without_blinds_names_none(make_table: Any) -> None:
    table = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    assert blinds(table.run({"type": "start_deal"})) == {}
