"""Settle-up: the fewest payments that square everyone.

Each party has a balance in chips: positive when it is owed chips, negative when it owes them;
the balances sum to zero. A set of payments squares everyone when each party's payments in
minus payments out equal its balance.

**The fewest payments.** Look at any set of payments as a graph (parties are nodes, payments
are edges). Every connected part of that graph squares on its own, so its balances sum to
zero, and a connected part of ``s`` parties has at least ``s - 1`` edges. Hence, with ``n``
parties whose balance is not zero, every settle-up needs at least ``n - g`` payments, where
``g`` is the largest number of groups that the ``n`` parties can be split into with every
group summing to zero. And ``n - g`` payments are enough: :func:`settle_group` squares a
zero-sum group of ``s`` parties with at most ``s - 1`` payments (each payment zeroes at least
one party, and the last one zeroes two). So the minimum is exactly ``n - g``; finding ``g`` is
the hard part (the problem is NP-hard in general: it contains subset-sum).

**Finding g.** :func:`most_zero_sum_groups` uses a dynamic programme over the subsets of the
parties. For an ordering of the parties, count the prefixes whose sum is zero: the cuts after
those prefixes split the parties into that many zero-sum groups, and any split into ``g``
zero-sum groups, its groups laid end to end, is an ordering with ``g`` such prefixes. So ``g``
is the most zero-sum prefixes over all orderings, and ``best[S] = max over i in S of
best[S - {i}] + (1 if sum(S) == 0 else 0)`` computes it for every subset ``S``: ``2^n * n``
steps.

Two shortcuts come first, neither of which can lose the optimum: parties with a zero balance
take no part; and two parties with opposite balances (``+x`` and ``-x``) are paired off as a
group of their own (if an optimal split put them in different groups G1 and G2, the groups
``{i, j}`` and ``G1 + G2 - {i, j}`` sum to zero too and are as many; if it put them in one
bigger group, cutting ``{i, j}`` out of it makes one more group).

The dynamic programme runs when at most :data:`EXACT_LIMIT` balances are left (2^16 subsets:
a fraction of a second in Python). Beyond that, which a home game reaches only when more than
16 players end the night with different results, the rest are squared greedily (the largest
debtor pays the largest creditor, again and again): never more than ``n - 1`` payments, but
not always the fewest. :func:`settle` says which way it went (``optimal``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

EXACT_LIMIT = 16  # balances left after the shortcuts that the exact search still takes on

Party = TypeVar("Party", bound=Hashable)


@dataclass(frozen=True)
class Transfer(Generic[Party]):
    """``payer`` gives ``payee`` ``amount`` chips."""

    payer: Party
    payee: Party
    amount: int


@dataclass(frozen=True)
class Settlement(Generic[Party]):
    transfers: tuple[Transfer[Party], ...]
    optimal: bool  # whether the number of transfers is proven to be the fewest


def settle(balances: Mapping[Party, int]) -> Settlement[Party]:
    """The fewest transfers that square ``balances`` (party -> chips owed to it; negative:
    chips it owes). The order of ``balances`` breaks ties, so the answer is always the same.

    >>> s = settle({"Ann": -20, "Bob": 14, "Cy": 6})
    >>> [(t.payer, t.payee, t.amount) for t in s.transfers], s.optimal
    ([('Ann', 'Bob', 14), ('Ann', 'Cy', 6)], True)
    >>> len(settle({"A": 5, "B": -5, "C": 3, "D": -3}).transfers)
    2
    """
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"The balances must sum to zero to settle, not to {total}.")
    parties = [p for p, v in balances.items() if v != 0]
    groups: list[list[Party]] = []
    # opposite balances pair off (see the module's proof); in the given order, first come first
    waiting: dict[int, list[Party]] = {}
    rest: list[Party] = []
    for party in parties:
        partners = waiting.get(-balances[party])
        if partners:
            groups.append([partners.pop(0), party])
        else:
            waiting.setdefault(balances[party], []).append(party)
    rest = [p for p in parties if not any(p in g for g in groups)]
    optimal = len(rest) <= EXACT_LIMIT
    if optimal:
        values = [balances[p] for p in rest]
        groups += [[rest[i] for i in group] for group in most_zero_sum_groups(values)]
    elif rest:
        groups.append(rest)
    transfers: list[Transfer[Party]] = []
    for group in groups:
        transfers += settle_group({p: balances[p] for p in group}, order=parties)
    return Settlement(tuple(transfers), optimal)


def most_zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """Split the indexes of ``values`` (which sum to zero, none zero) into as many groups as
    possible, each summing to zero. ``2^n * n`` steps: keep ``n`` small (see EXACT_LIMIT).

    >>> most_zero_sum_groups([3, -1, -2, 4, -4])
    [[0, 1, 2], [3, 4]]
    """
    n = len(values)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        top = 0
        rest = mask
        while rest:
            low = rest & -rest
            candidate = best[mask ^ low]
            if candidate > top:
                top = candidate
            rest ^= low
        best[mask] = top + (sums[mask] == 0)
    # walk back: at each subset, drop an element whose removal keeps the count; the dropped
    # elements, read backwards, are an ordering whose zero-sum prefixes give the groups
    order: list[int] = []
    mask = full
    while mask:
        wanted = best[mask] - (sums[mask] == 0)
        rest = mask
        while rest:
            low = rest & -rest
            if best[mask ^ low] == wanted:
                break
            rest ^= low
        order.append(low.bit_length() - 1)
        mask ^= low
    order.reverse()
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for index in order:
        current.append(index)
        running += values[index]
        if running == 0:
            groups.append(sorted(current))
            current = []
    assert not current and len(groups) == best[full]
    return sorted(groups)


def settle_group(balances: Mapping[Party, int], order: Sequence[Party]) -> list[Transfer[Party]]:
    """Square a group whose balances sum to zero with at most (its size - 1) transfers: the
    largest debtor pays the largest creditor as much as squares one of them, until all are
    square. Ties go to the party earlier in ``order``."""
    rank = {p: i for i, p in enumerate(order)}
    left = {p: v for p, v in balances.items() if v}
    transfers: list[Transfer[Party]] = []
    while left:
        creditor = max((p for p in left if left[p] > 0), key=lambda p: (left[p], -rank[p]))
        debtor = min((p for p in left if left[p] < 0), key=lambda p: (left[p], rank[p]))
        amount = min(left[creditor], -left[debtor])
        transfers.append(Transfer(debtor, creditor, amount))
        for party, change in ((creditor, -amount), (debtor, amount)):
            left[party] += change
            if not left[party]:
                del left[party]
    return transfers
