"""Settle-up (dealer_assist.services.ledger): the fewest transfers that square everyone, held
against two
brute forces on small cases and by property (hypothesis) on all sizes up to 22 players and the
table."""

from __future__ import annotations

import doctest
import importlib
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.services.ledger import (
    EXACT_LIMIT,
    Settlement,
    most_zero_sum_groups,
    settle,
    settle_group,
)


def squares(balances: dict[str, int], settlement: Settlement[str]) -> bool:
    """Every party ends at zero: what it receives minus what it pays is its balance."""
    left = dict(balances)
    for t in settlement.transfers:
        assert t.amount > 0 and t.payer != t.payee
        left[t.payer] += t.amount
        left[t.payee] -= t.amount
    return all(v == 0 for v in left.values())


def brute_force_by_search(values: Sequence[int]) -> int:
    """The fewest transfers by exhaustive search: the first party still owed or owing squares
    up in full with one of the others of the opposite sign, every choice tried (a settle-up
    with k transfers can always be reordered into such steps, each zeroing one party)."""

    @cache
    def best(state: tuple[int, ...]) -> int:
        state = tuple(sorted(v for v in state if v))
        if not state:
            return 0
        first, rest = state[0], list(state[1:])
        answers = []
        for i, v in enumerate(rest):
            if v * first < 0:
                after = [*rest[:i], v + first, *rest[i + 1:]]
                answers.append(1 + best(tuple(after)))
        return min(answers)

    return best(tuple(values))


def brute_force_by_partitions(values: Sequence[int]) -> int:
    """The fewest transfers as (parties - most zero-sum groups), the groups found by trying
    every way of splitting the parties."""
    parties = [v for v in values if v]

    def partitions(items: list[int]) -> list[list[list[int]]]:
        if not items:
            return [[]]
        first, rest = items[0], items[1:]
        out: list[list[list[int]]] = []
        for part in partitions(rest):
            out.append([[first], *part])
            for i in range(len(part)):
                out.append([*part[:i], [first, *part[i]], *part[i + 1:]])
        return out

    most = max(len(p) for p in partitions(parties) if all(sum(g) == 0 for g in p))
    return len(parties) - most


def balances_of(values: Sequence[int]) -> dict[str, int]:
    return {f"P{i}": v for i, v in enumerate(values)}


def zero_sum(values: list[int]) -> list[int]:
    return [*values, -sum(values)]


small = st.lists(st.integers(-12, 12), min_size=0, max_size=6).map(zero_sum)


# --------------------------------------------------------------------------- exact cases
@pytest.mark.parametrize(("values", "fewest"), [
    ([], 0),
    ([0, 0, 0], 0),
    ([5, -5], 1),
    ([-20, 14, 6], 2),
    ([5, -5, 3, -3], 2),  # two pairs, not a chain of three
    ([4, 6, -3, -7], 3),  # no part sums to zero: one group of four
    ([10, -3, -7, 2, -2], 3),  # {10, -3, -7} and {2, -2}
    ([1, 1, 1, 1, -2, -2], 4),  # {1, 1, -2} twice
])
def test_fewest_transfers_on_worked_cases(values: list[int], fewest: int) -> None:
    assert brute_force_by_search(values) == fewest
    s = settle(balances_of(values))
    assert squares(balances_of(values), s)
    assert len(s.transfers) == fewest and s.optimal


def test_the_greedy_chain_is_beaten_when_groups_exist() -> None:
    """Largest debtor to largest creditor over all six needs 5 transfers here; the groups
    {-2, -5, 7} and {3, -9, 6} need 2 each."""
    values = [-2, -5, 7, 3, -9, 6]
    assert len(settle_group(balances_of(values), order=list(balances_of(values)))) == 5
    s = settle(balances_of(values))
    assert [(t.payer, t.payee, t.amount) for t in s.transfers] == [
        ("P1", "P2", 5), ("P0", "P2", 2), ("P4", "P5", 6), ("P4", "P3", 3)]
    assert brute_force_by_search(values) == 4 == brute_force_by_partitions(values)


def test_transfers_come_in_the_order_of_the_parties_and_never_change() -> None:
    balances = {"Ann": -3, "Bob": -12, "Cy": 10, "table": 5}
    first = settle(balances)
    assert [(t.payer, t.payee, t.amount) for t in first.transfers] == [
        ("Bob", "Cy", 10), ("Ann", "table", 3), ("Bob", "table", 2)]
    assert settle(balances) == first


def test_balances_that_do_not_sum_to_zero_are_refused() -> None:
    with pytest.raises(ValueError, match="must sum to zero to settle, not to 1"):
        settle({"Ann": 1})


def test_most_zero_sum_groups_splits_into_as_many_as_possible() -> None:
    assert most_zero_sum_groups([3, -1, -2, 4, -4]) == [[0, 1, 2], [3, 4]]
    assert most_zero_sum_groups([]) == []


# --------------------------------------------------------------------------- properties
@settings(max_examples=300, deadline=None)
@given(small)
def test_never_more_than_the_brute_force_minimum(values: list[int]) -> None:
    s = settle(balances_of(values))
    assert squares(balances_of(values), s)
    fewest = brute_force_by_search(values)
    assert len(s.transfers) == fewest  # never more, and never fewer than possible
    assert fewest == brute_force_by_partitions(values)
    assert s.optimal


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-500, 500), min_size=0, max_size=22).map(zero_sum))
def test_everyone_squares_with_at_most_players_minus_one(values: list[int]) -> None:
    """Up to 22 players and the table (23 parties), any balances."""
    balances = balances_of(values)
    s = settle(balances)
    assert squares(balances, s)
    nonzero = sum(1 for v in values if v)
    assert len(s.transfers) <= max(0, nonzero - 1)
    assert len({(t.payer, t.payee) for t in s.transfers}) == len(s.transfers)
    if nonzero <= EXACT_LIMIT:
        assert s.optimal


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-40, 40).filter(bool), min_size=EXACT_LIMIT - 1,
                max_size=EXACT_LIMIT - 1).map(zero_sum))
def test_the_exact_search_takes_sixteen_balances(values: list[int]) -> None:
    """The largest exact case (16 balances, no pairs to shortcut at best) stays exact; how long
    it takes is measured in bench/bench_settle.py."""
    s = settle(balances_of(values))
    assert squares(balances_of(values), s)
    groups = most_zero_sum_groups([v for v in values if v]) if all(values) else None
    if groups is not None:
        assert all(sum(values[i] for i in g) == 0 for g in groups)


@pytest.mark.parametrize("name", ["services.ledger", "web.charts"])
def test_module_examples(name: str) -> None:
    module = importlib.import_module(f"dealer_assist.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
