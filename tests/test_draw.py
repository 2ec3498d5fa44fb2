"""The draw games (R85, R86), dealt by hand: whose draw it is, the draws counted and shown to
everyone, the refusals' sentences, undo, the deck running out, the blinds and the bets'
sizes, the showdown of whole hands with exact chips; through the JSON API too (R88)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import Dealer
from table_helpers import act, refuse, stacks

from dealer_assist.core.errors import SetupError
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table
from dealer_assist.web.state import table_state

TRIPLE = "deuce_to_seven_triple_draw"
SINGLE = "deuce_to_seven_single_draw"
BADUGI = "badugi"
NAMES = ("Ann", "Bob", "Cy")


def dealt(variant: str = TRIPLE, names: tuple[str, ...] = NAMES,
          rules: dict[str, Any] | None = None) -> Table:
    """A deal started and its hands dealt: the blinds are in, the first round's turn."""
    t = new_table(variant, list(names), rules or {})
    return act(act(t, type="start_deal"), type="next")


def checks(t: Table) -> Table:
    """Everyone to act checks, or calls, until the round is over."""
    while t.step()["kind"] == "bet":
        step = t.step()
        t = act(t, type="check" if "check" in step["options"] else "call", player=step["player"])
    return t


def draws(t: Table, counts: dict[str, int]) -> Table:
    """One draw: each player as the step names them draws their count."""
    while t.step()["kind"] == "discard":
        who = t.step()["player"]
        t = act(t, type="discard", player=who, count=counts[who])
    return t


# ------------------------------------------------------------------- R85: the draw
def test_r85_every_player_still_in_draws_from_the_dealers_left_one_at_a_time() -> None:
    t = checks(dealt())  # Ann deals; Bob and Cy post the blinds; everyone calls 2
    step = t.step()
    assert (step["kind"], step["player"], step["max"]) == ("discard", "Bob", 5)
    assert step["instruction"] == "First draw: how many does Bob draw? 0 stands pat, up to 5."
    assert step["public"] == "First draw: Bob is drawing."
    t = act(t, type="discard", player="Bob", count=2)
    assert t.step()["player"] == "Cy"
    t = act(t, type="discard", player="Cy", count=0)
    assert t.step()["player"] == "Ann"
    t = act(t, type="discard", player="Ann", count=5)
    assert t.step()["kind"] == "bet" and t.step()["player"] == "Bob"
    assert [p["draws"] for p in table_state(t)["players"]] == [[5], [2], [0]]
    assert t.deal is not None and t.deal.log[-3:] == [
        "First draw: Bob draws 2.", "First draw: Cy stands pat.", "First draw: Ann draws 5."]


def test_r85_a_player_who_folded_does_not_draw_and_an_all_in_player_does() -> None:
    t = new_table(TRIPLE, [{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 100},
                           {"name": "Cy", "stack": 3}], {})
    t = act(act(t, type="start_deal"), type="next")
    t = act(t, type="fold", player="Ann")
    t = act(t, type="raise", player="Bob", amount=4)
    t = act(t, type="all_in", player="Cy")  # 3: Cy calls short, all in
    assert t.step()["kind"] == "discard" and t.step()["player"] == "Bob"
    t = act(t, type="discard", player="Bob", count=1)
    assert t.step()["player"] == "Cy"
    refuse(t, "Ann is not in the hand: only the players still in draw.", type="discard",
           player="Ann", count=1)


def test_r85_refusals_say_why_in_a_sentence_and_change_nothing() -> None:
    t = checks(dealt())
    refuse(t, re.escape("Bob cannot draw 6: a hand has 5 cards."),
           type="discard", player="Bob", count=6)
    refuse(t, re.escape("It is not Ann's turn to discard: it is Bob's."),
           type="discard", player="Ann", count=1)
    refuse(t, re.escape("Say how many cards Bob draws (count): 0 stands pat, up to 5."),
           type="discard", player="Bob")
    refuse(t, "count must be from 0", type="discard", player="Bob", count=-1)
    refuse(t, "A discard record has no field 'cards'", type="discard", player="Bob",
           cards=["2c"])
    refuse(t, re.escape("Cannot check now: First draw: how many does Bob draw?"),
           type="check", player="Bob")
    before = dealt()
    refuse(before, re.escape("Cannot discard now: Before the first draw: Ann: 2 to call."),
           type="discard", player="Ann", count=1)
    b = checks(dealt(BADUGI))
    refuse(b, re.escape("Bob cannot draw 5: a hand has 4 cards."),
           type="discard", player="Bob", count=5)


def test_r85_undo_takes_back_one_draw() -> None:
    t = checks(dealt())
    t = act(t, type="discard", player="Bob", count=3)
    t = act(t, type="undo")
    assert t.step()["player"] == "Bob"
    assert [p["draws"] for p in table_state(t)["players"]] == [[], [], []]
    t = act(t, type="discard", player="Bob", count=1)
    assert [p["draws"] for p in table_state(t)["players"]] == [[], [1], []]


def test_r85_when_the_deck_runs_out_the_discards_are_shuffled_and_only_counted() -> None:
    names = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")  # 30 dealt, 22 left
    t = checks(dealt(names=names))
    t = act(t, type="discard", player="Bob", count=5)  # 17 left
    t = act(t, type="discard", player="Cy", count=5)  # 12
    t = act(t, type="discard", player="Dee", count=5)  # 7
    t = act(t, type="discard", player="Eve", count=4)  # 3: under a hand's size, the step says
    assert t.step()["instruction"] == (
        "First draw: how many does Fay draw? 0 stands pat, up to 5. Three left in the deck: "
        "past them, shuffle the discards (not this player's) into a new deck.")
    t = act(t, type="discard", player="Fay", count=5)
    assert t.deal is not None and t.deal.log[-1] == (
        "First draw: Fay draws 5 (2 from the discards, shuffled into a new deck).")


# ------------------------------------------------------------------- R86: the games
def test_r86_triple_draw_blinds_then_small_bets_twice_and_big_bets_twice_exact_chips() -> None:
    t = dealt()
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 98}  # blinds 1 and 2 (R60)
    step = t.step()
    assert (step["player"], step["to_call"], step["min_raise_to"]) == ("Ann", 2, 4)
    t = checks(t)
    t = draws(t, {"Ann": 1, "Bob": 2, "Cy": 3})
    t = act(t, type="bet", player="Bob", amount=2)  # the small bet after the first draw
    refuse(t, "in fixed limit this round it is raise to 4", type="raise", player="Cy",
           amount=6)
    t = checks(t)
    t = draws(t, {"Ann": 0, "Bob": 1, "Cy": 1})
    step = t.step()
    assert (step["player"], step["min_raise_to"], step["max_raise_to"]) == ("Bob", 4, 4)
    t = act(t, type="bet", player="Bob", amount=4)  # a big bet after the second draw
    t = act(t, type="fold", player="Cy")
    t = act(t, type="call", player="Ann")
    t = draws(t, {"Ann": 0, "Bob": 1})
    t = act(t, type="bet", player="Bob", amount=4)
    t = act(t, type="call", player="Ann")
    step = t.step()
    assert (step["kind"], step["players"], step["hole_cards"]) == ("showdown", ["Ann", "Bob"], 5)
    assert step["instruction"] == "Showdown: enter the five cards of Ann and Bob."
    refuse(t, "Bob has 5 hole cards, not 4", type="showdown",
           hands={"Ann": ["7h", "5d", "4c", "3s", "2h"], "Bob": ["8h", "6d", "4d", "3c"]})
    t = act(t, type="showdown", hands={"Ann": ["8h", "6d", "4d", "3c", "2c"],
                                       "Bob": ["7h", "5d", "4c", "3s", "2h"]})
    # the pot: 2 each before the first draw and after it (12), then 4 from Bob and Ann after
    # the second and the third (28): Ann put in 12, Cy 4; Bob wins with 7-5-4-3-2
    assert stacks(t) == {"Ann": 88, "Bob": 116, "Cy": 96}
    assert t.deal is not None and t.deal.log[-1] == "Bob wins with 7-5-4-3-2 low."
    shown = table_state(t)["players"][1]
    assert shown["hand"] == ["7h", "5d", "4c", "3s", "2h"] and shown["draws"] == [2, 1, 1]


def test_r86_deuce_to_seven_aces_are_high_and_a_straight_counts_against() -> None:
    t = dealt(SINGLE, ("Ann", "Bob"))  # heads up: Ann deals and posts the small blind
    assert stacks(t) == {"Ann": 99, "Bob": 98}
    t = checks(t)
    t = draws(t, {"Ann": 0, "Bob": 0})
    t = checks(t)
    t = act(t, type="showdown", hands={"Ann": ["6h", "5d", "4c", "3s", "2h"],  # a straight
                                       "Bob": ["Ah", "Kd", "Qc", "Js", "9h"]})
    assert stacks(t) == {"Ann": 98, "Bob": 102}
    assert t.deal is not None and t.deal.log[-1] == "Bob wins with A-K-Q-J-9 low."


def test_r86_single_draw_is_no_limit_with_one_draw_between_two_rounds() -> None:
    t = dealt(SINGLE)
    step = t.step()
    assert (step["min_raise_to"], step["max_raise_to"]) == (4, 100)  # no limit
    t = act(t, type="raise", player="Ann", amount=30)
    t = act(t, type="fold", player="Bob")
    t = act(t, type="call", player="Cy")
    t = draws(t, {"Ann": 1, "Cy": 2})
    assert t.step()["kind"] == "bet" and t.step()["round"] == "After the draw"
    t = act(t, type="all_in", player="Cy")  # Cy 70
    t = act(t, type="call", player="Ann")
    assert t.step()["kind"] == "showdown"
    t = act(t, type="showdown", hands={"Ann": ["7h", "5d", "4c", "3s", "2h"],
                                       "Cy": ["7c", "6d", "4h", "3d", "2s"]})
    assert stacks(t) == {"Ann": 201, "Bob": 99, "Cy": 0}


def test_r86_badugi_four_cards_of_four_suits_win_and_a_pair_plays_short() -> None:
    t = checks(dealt(BADUGI))
    assert t.step()["max"] == 4
    for _ in range(3):
        t = checks(draws(t, {"Ann": 1, "Bob": 0, "Cy": 2}))
    t = act(t, type="showdown", hands={"Ann": ["Kc", "8d", "4h", "As"],  # a badugi
                                       "Bob": ["4c", "3d", "2h", "2s"],  # three cards
                                       "Cy": ["Ac", "2c", "3c", "5c"]})  # one card
    assert stacks(t) == {"Ann": 104, "Bob": 98, "Cy": 98}
    assert t.deal is not None and t.deal.log[-1] == "Ann wins with four cards, K-8-4-A."
    assert [p["draws"] for p in table_state(t)["players"]] == [[1, 1, 1], [0, 0, 0],
                                                               [2, 2, 2]]


def test_r86_player_ranges_and_no_straddle_or_big_blind_ante() -> None:
    with pytest.raises(SetupError, match="2 to 6 players"):
        new_table(TRIPLE, [f"P{i}" for i in range(7)])
    with pytest.raises(SetupError, match=re.escape("has no big-blind ante or straddle (R88)")):
        new_table(BADUGI, ["Ann", "Bob"], {"big_blind_ante": 2})


def test_r85_the_pages_read_the_hand_size_the_draw_buttons_go_up_to() -> None:
    """The felt draws each hand face down from the metadata's ``hand_size``; the step's
    ``max`` (the tablet's last draw button) is the same count: 5, or 4 in Badugi."""
    from dealer_assist.games.registry import game_class

    for variant, size in ((TRIPLE, 5), (SINGLE, 5), (BADUGI, 4)):
        assert game_class(variant).metadata()["hand_size"] == size
        t = checks(dealt(variant))
        assert t.step()["kind"] == "discard" and t.step()["max"] == size
    assert "hand_size" not in game_class("texas_holdem").metadata()


# ------------------------------------------------------------------ R88 and the API
def test_r88_the_draw_games_are_on_the_dealers_choice_menu_with_their_player_range() -> None:
    from dealer_assist.services.dealers_choice import next_game_choices

    menu = {e["variant"]: e for e in next_game_choices(new_table("texas_holdem", ["A", "B"]))}
    assert menu[TRIPLE]["rules_line"] == menu[BADUGI]["rules_line"]
    for variant in (TRIPLE, SINGLE, BADUGI):
        assert "refusal" not in menu[variant], menu[variant]
    seven = {e["variant"]: e for e in next_game_choices(
        new_table("texas_holdem", [f"P{i}" for i in range(7)]))}
    assert seven[BADUGI]["refusal"] == "Badugi is for 2 to 6 players dealt in, not 7."
    t = act(new_table("texas_holdem", ["Ann", "Bob", "Cy"]), type="start_deal",
            variant=BADUGI)
    refuse(t, "Deal four cards down to each player", type="check", player="Ann")


def test_r85_r86_a_triple_draw_deal_through_the_json_api(make_table: Any) -> None:
    dealer: Dealer = make_table(TRIPLE, ["Ann", "Bob", "Cy"])
    state = dealer.run({"type": "start_deal"}, {"type": "next"})
    while state["step"]["kind"] != "showdown":
        step = state["step"]
        if step["kind"] == "discard":
            state = dealer.run({"type": "discard", "player": step["player"],
                                "count": {"Ann": 0, "Bob": 1, "Cy": 3}[step["player"]]})
        else:
            state = dealer.run({"type": "check" if "check" in step["options"] else "call",
                                "player": step["player"]})
    dealer.refuse({"type": "discard", "player": "Ann", "count": 2},
                  "Cannot discard now: Showdown")
    public = dealer.state()
    assert [p["draws"] for p in public["players"]] == [[0, 0, 0], [1, 1, 1], [3, 3, 3]]
    assert all("hand" not in p for p in public["players"])
    state = dealer.run({"type": "showdown", "hands": {
        "Ann": ["Kh", "Kd", "Qc", "Js", "9h"], "Bob": ["8h", "6d", "4d", "3c", "2c"],
        "Cy": ["9c", "8d", "7s", "5h", "3h"]}})
    assert state["result"]["winners"] == ["Bob"]
    assert dealer.stacks() == {"Ann": 98, "Bob": 104, "Cy": 98}
    assert dealer.player("Bob")["hand"] == ["8h", "6d", "4d", "3c", "2c"]


def test_r85_a_losing_draw_hand_may_be_mucked_but_not_the_pots_last() -> None:
    """The draw games' showdown takes a muck as every game's does (issue 32)."""
    t = dealt(SINGLE)
    t = act(t, type="raise", player="Ann", amount=30)
    t = act(t, type="fold", player="Bob")
    t = act(t, type="call", player="Cy")
    t = draws(t, {"Ann": 1, "Cy": 2})
    t = act(t, type="all_in", player="Cy")
    t = act(t, type="call", player="Ann")
    assert t.step()["muckable"] == ["Ann", "Cy"]
    refuse(t, "hand is needed", type="showdown", hands={}, muck=["Ann", "Cy"])
    t = act(t, type="showdown", hands={"Ann": ["7h", "5d", "4c", "3s", "2h"]}, muck=["Cy"])
    assert stacks(t) == {"Ann": 201, "Bob": 99, "Cy": 0}
    assert t.deal.result is not None and t.deal.result.mucked == ["Cy"]  # type: ignore[union-attr]
