"""The betting engine's cases of R5 and R6 that RULES.md settles and the common games share
(played at Texas Dozen and Texas Hold'em, which bet alike: blinds, four rounds).

Every chip count below is worked out by hand from RULES.md.
"""

from __future__ import annotations

from typing import Any

import pytest
from table_helpers import act, check_round, refuse, stacks

from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table
from dealer_assist.web.state import table_state

GAMES = ["texas_dozen", "texas_holdem"]


def start(variant: str, players: list[Any], **rules: Any) -> Table:
    """A deal started and its hole cards dealt: pre-flop betting is next."""
    t = act(new_table(variant, players, rules), type="start_deal")
    return act(t, type="next")


def flop(t: Table) -> Table:
    """Pre-flop called round, the flop turned: the flop's betting is next."""
    return act(check_round(t), type="reveal")


# ----------------------------------------------------------------------------- R6


@pytest.mark.parametrize("variant", GAMES)
def test_r6_a_big_blind_all_in_for_less_than_the_small_blind_takes_only_what_it_matched(
        variant: str) -> None:
    """The fault a random check found: heads up, blinds 2/4, the big blind holds 1 chip; the
    small blind folds. The big blind matched 1 of the small blind's 2: it wins 1, ends with 2
    (not 3), and the small blind's unmatched chip goes back to it."""
    t = start(variant, [{"name": "Ann", "stack": 50}, {"name": "Bob", "stack": 1}],
              small_blind=2, big_blind=4)
    assert stacks(t) == {"Ann": 48, "Bob": 0}
    t = act(t, type="fold", player="Ann")
    assert t.deal_over
    assert stacks(t) == {"Ann": 49, "Bob": 2}
    assert table_state(t)["result"]["payouts"] == {"Bob": 2}
    assert "Ann takes back 1 uncalled." in table_state(t)["log"]


@pytest.mark.parametrize("variant", GAMES)
def test_r6_a_layer_only_one_folded_seat_paid_into_goes_back_to_it(variant: str) -> None:
    """Three players, blinds 2/4, the big blind (Cy) all in for 1: the dealer and the small
    blind fold; the small blind's second chip reached a layer nobody else paid into."""
    t = start(variant, [{"name": "Ann", "stack": 50}, {"name": "Bob", "stack": 50},
                        {"name": "Cy", "stack": 1}], small_blind=2, big_blind=4)
    assert t.step()["to_call"] == 4  # R5: a short big blind still makes the others call 4
    t = act(t, type="fold", player="Ann")
    t = act(t, type="fold", player="Bob")
    assert stacks(t) == {"Ann": 50, "Bob": 49, "Cy": 2}


@pytest.mark.parametrize("variant", GAMES)
def test_r6_a_call_of_the_full_blind_gets_back_what_the_short_blind_never_matched(
        variant: str) -> None:
    """The dealer calls the full 4 and the small blind folds: of the dealer's 4, 2 match the
    small blind's folded 2 (which the dealer can win) and 2 more nobody matched come back."""
    t = start(variant, [{"name": "Ann", "stack": 50}, {"name": "Bob", "stack": 50},
                        {"name": "Cy", "stack": 1}], small_blind=2, big_blind=4)
    t = act(t, type="call", player="Ann")
    t = act(t, type="fold", player="Bob")
    assert stacks(t)["Ann"] == 48
    assert table_state(t)["pots"] == [{"amount": 3, "eligible": ["Ann", "Cy"]},
                                      {"amount": 2, "eligible": ["Ann"]}]


# ----------------------------------------------------------------------------- R5


def five_at_the_flop(variant: str, **short: int) -> Table:
    """Ann deals; Bob, Cy, Di, Ev and Ann each put 2 in pre-flop; the flop is turned."""
    names = ["Ann", "Bob", "Cy", "Di", "Ev"]
    players = [{"name": n, "stack": short.get(n, 100)} for n in names]
    return flop(start(variant, players))


@pytest.mark.parametrize("variant", GAMES)
def test_r5_short_all_ins_that_together_make_a_full_raise_reopen_the_betting(
        variant: str) -> None:
    """Bob bets 10, Cy calls; Di all in to 16 (6 more, short of 10); Ev calls 16; Ann all in
    to 22 (6 more). Bob and Cy last faced 10 and now face 22: 12 more, a full raise, so they
    may raise again. Ev last faced 16: 6 more is short, so Ev may only call or fold."""
    t = five_at_the_flop(variant, Di=18, Ann=24)
    t = act(t, type="bet", player="Bob", amount=10)
    t = act(t, type="call", player="Cy")
    t = act(t, type="all_in", player="Di")
    t = act(t, type="call", player="Ev")
    t = act(t, type="all_in", player="Ann")
    step = t.step()
    assert (step["player"], step["to_call"]) == ("Bob", 12)
    assert step["options"] == ["fold", "call", "raise", "all_in"]
    assert step["min_raise_to"] == 32  # 22 + the full raise of 10
    t = act(t, type="call", player="Bob")
    assert "raise" in t.step()["options"]
    t = act(t, type="call", player="Cy")
    step = t.step()
    assert (step["player"], step["to_call"], step["options"]) == ("Ev", 6, ["fold", "call"])
    refuse(t, "did not reopen the betting", type="raise", player="Ev", amount=40)
    t = act(t, type="call", player="Ev")
    assert t.step()["kind"] == "reveal"
    assert stacks(t) == {"Ann": 0, "Bob": 76, "Cy": 76, "Di": 0, "Ev": 76}


@pytest.mark.parametrize("variant", GAMES)
def test_r5_two_short_all_ins_short_of_a_full_raise_together_do_not_reopen(
        variant: str) -> None:
    t = five_at_the_flop(variant, Di=16, Ann=20)
    t = act(t, type="bet", player="Bob", amount=10)
    t = act(t, type="call", player="Cy")
    t = act(t, type="all_in", player="Di")  # 14: 4 more
    t = act(t, type="call", player="Ev")
    t = act(t, type="all_in", player="Ann")  # 18: 4 more; 8 over Bob's 10 is short
    step = t.step()
    assert (step["player"], step["to_call"], step["options"]) == ("Bob", 8, ["fold", "call"])


@pytest.mark.parametrize("variant", GAMES)
def test_r5_an_opening_all_in_below_the_minimum_bet_is_a_bet(variant: str) -> None:
    """min_bet 10; Bob checks, Cy opens all in for 3: a bet of 3, which the seats after it and
    Bob, who checked, may raise; the smallest raise is still 10 more, to 13."""
    t = flop(start(variant, ["Ann", "Bob", {"name": "Cy", "stack": 5}, "Di"], min_bet=10))
    t = act(t, type="check", player="Bob")
    t = act(t, type="all_in", player="Cy")
    step = t.step()
    assert (step["player"], step["to_call"], step["min_raise_to"]) == ("Di", 3, 13)
    assert step["options"] == ["fold", "call", "raise", "all_in"]
    refuse(t, "the smallest raise is to 13", type="raise", player="Di", amount=12)
    t = act(t, type="call", player="Di")
    t = act(t, type="call", player="Ann")
    step = t.step()
    assert (step["player"], step["min_raise_to"]) == ("Bob", 13)
    assert "raise" in step["options"]
    t = act(t, type="raise", player="Bob", amount=13)
    assert stacks(t) == {"Ann": 95, "Bob": 85, "Cy": 0, "Di": 95}


@pytest.mark.parametrize("variant", GAMES)
@pytest.mark.parametrize(("min_bet", "big_blind", "smallest"), [(5, 2, 7), (1, 4, 8), (3, 3, 6)])
def test_r5_preflop_the_smallest_raise_is_the_larger_of_the_big_blind_and_min_bet(
        variant: str, min_bet: int, big_blind: int, smallest: int) -> None:
    t = start(variant, ["Ann", "Bob", "Cy"], min_bet=min_bet, big_blind=big_blind)
    step = t.step()
    assert (step["player"], step["current_bet"], step["min_raise_to"]) == (
        "Ann", big_blind, smallest)
    refuse(t, f"the smallest raise is to {smallest}", type="raise", player="Ann",
           amount=smallest - 1)
    t = act(t, type="raise", player="Ann", amount=smallest)
    # the next full raise is at least as large again
    assert t.step()["min_raise_to"] == smallest + (smallest - big_blind)


@pytest.mark.parametrize("variant", GAMES)
def test_r5_no_raise_that_nobody_else_could_call(variant: str) -> None:
    """Heads up: Ann (dealer, small blind) calls, Bob goes all in to 10. Nobody else could
    put in more, so Ann may call or fold, not raise."""
    t = start(variant, ["Ann", {"name": "Bob", "stack": 10}])
    t = act(t, type="call", player="Ann")
    t = act(t, type="all_in", player="Bob")
    step = t.step()
    assert (step["player"], step["options"], step["min_raise_to"]) == (
        "Ann", ["fold", "call"], None)
    message = refuse(t, "nobody else still in can put in more", type="raise", player="Ann",
                     amount=30)
    assert message == "Ann cannot raise: nobody else still in can put in more; call or fold."
    refuse(t, "nobody else", type="all_in", player="Ann")
    t = act(t, type="call", player="Ann")
    assert stacks(t) == {"Ann": 90, "Bob": 0}


@pytest.mark.parametrize("variant", GAMES)
def test_r5_in_fixed_limit_an_opening_all_in_below_the_bet_is_the_bet(variant: str) -> None:
    """Fixed limit, small bets of 2: Bob checks the flop, Cy opens all in for 1. It is the
    round's bet, so Bob, who checked, may raise, to 1 + 2 = 3 (the limit, below his all-in)."""
    t = flop(start(variant, ["Ann", "Bob", {"name": "Cy", "stack": 3}, "Di"],
                   betting="fixed_limit", small_bet=2))
    t = act(t, type="check", player="Bob")
    t = act(t, type="all_in", player="Cy")
    step = t.step()
    assert (step["player"], step["to_call"], step["min_raise_to"], step["max_raise_to"]) == (
        "Di", 1, 3, 3)
    t = act(t, type="call", player="Di")
    t = act(t, type="call", player="Ann")
    step = t.step()
    assert (step["player"], step["options"]) == ("Bob", ["fold", "call", "raise"])
    t = act(t, type="raise", player="Bob", amount=3)
    assert stacks(t) == {"Ann": 97, "Bob": 95, "Cy": 0, "Di": 97}


@pytest.mark.parametrize("variant", GAMES)
def test_r6_a_call_the_stack_cannot_cover_is_offered_as_all_in_only(variant: str) -> None:
    """Bob bets 91 on the flop; Cy has 90 behind: his options are fold and all in (90), never
    a call of 91; the call he may still send is the same all-in. Ann, with 100, may call."""
    t = five_at_the_flop(variant, Cy=92)
    t = act(t, type="bet", player="Bob", amount=91)
    step = t.step()
    assert (step["player"], step["to_call"], step["options"]) == ("Cy", 91, ["fold", "all_in"])
    assert table_state(t, dealer=True)["step"]["options"] == ["fold", "all_in"]
    called = act(t, type="call", player="Cy")
    all_in = act(t, type="all_in", player="Cy")
    assert stacks(called) == stacks(all_in)
    assert stacks(all_in)["Cy"] == 0
    assert table_state(all_in)["log"][-1] == "Cy calls 90 and is all in."
    step = act(all_in, type="fold", player="Di").step()
    assert (step["player"], step["options"]) == ("Ev", ["fold", "call", "raise", "all_in"])


def test_r24_a_per_card_call_the_stack_cannot_cover_is_all_in_only() -> None:
    """King's Pot (R24): a call of 10 per card on two cards costs 20; with 15 behind, the
    offer is all in (7 per card, 14), and the odd chip stays in the stack."""
    t = new_table("kings_pot", [{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 100},
                                {"name": "Cy", "stack": 17}], {"ante": 1})
    t = act(t, type="start_deal")
    for name, count in (("Bob", 1), ("Cy", 2), ("Ann", 1)):
        t = act(t, type="buy", player=name, count=count)
    for name, cards in (("Bob", ["A"]), ("Cy", ["2", "3"]), ("Ann", ["4"])):
        t = act(t, type="deal_cards", player=name, cards=cards)
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=10)
    step = t.step()
    assert (step["player"], step["to_call_total"], step["options"]) == (
        "Cy", 20, ["fold", "all_in"])
    t = act(t, type="all_in", player="Cy")
    assert stacks(t)["Cy"] == 1
