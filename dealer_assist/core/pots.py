"""Pots by contribution layers (R6) and equal splits with odd chips (R7).

A *stake* is a betting seat: a live card where cards are bought (R24), a player in the other
games.

>>> [(p.amount, p.eligible) for p in layer_pots([10, 4, 10], [True, True, True])]
[(12, (0, 1, 2)), (12, (0, 2))]
>>> split(7, [2, 0], seats=3, first_seat=1)  # the odd chip goes to seat 2, first from seat 1
({2: 4, 0: 3}, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.core.rules import OddChip


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]  # stake indices that can win it


def layer_pots(
    contributions: Sequence[int], live: Sequence[bool], dead: int = 0,
    all_in: Sequence[bool] | None = None,
) -> list[Pot]:
    """Main pot first, then side pots (R6).

    Each layer holds what every stake put in between two all-in levels and goes to the live
    stakes that reached its top. Chips of folded stakes stay in the layers they reached;
    ``dead`` chips (carried from an earlier deal) sit in the main pot. With ``all_in`` given,
    only an all-in stake caps a layer and a stake that can still bet is eligible for every
    layer, so a bet nobody has called yet is not shown as a side pot.
    """
    capped = list(all_in) if all_in is not None else [True] * len(contributions)
    alive = list(zip(contributions, live, capped, strict=True))
    levels = {c for c, is_live, cap in alive if is_live and cap and c}
    top = max((c for c, is_live, _ in alive if is_live), default=0)
    if top:
        levels.add(top)
    pots: list[Pot] = []
    previous = 0
    for level in sorted(levels):
        amount = sum(min(c, level) - min(c, previous) for c in contributions)
        eligible = tuple(
            i for i, (c, is_live, cap) in enumerate(alive)
            if is_live and (c >= level or not cap)
        )
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    beyond = sum(c - previous for c in contributions if c > previous)
    everyone_live = tuple(i for i, is_live in enumerate(live) if is_live)
    if beyond:  # folded chips above every live stake's level
        if pots:
            pots[-1] = Pot(pots[-1].amount + beyond, pots[-1].eligible)
        else:
            pots.append(Pot(beyond, everyone_live))
    if dead:
        if pots:
            pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
        else:
            pots.append(Pot(dead, everyone_live))
    return pots


def split(
    amount: int, winners: Sequence[int], *, seats: int, first_seat: int,
    odd_chip: OddChip = OddChip.LEFT_OF_DEALER,
) -> tuple[dict[int, int], int]:
    """Share ``amount`` equally among ``winners`` (one entry per share; a seat may appear
    twice, as a player with two winning cards bought does, R26).

    Odd chips go one at a time to the shares in seat order starting at ``first_seat`` (the
    dealer's left), or with ``odd_chip="carry"`` are returned as the second value, left over.
    Returns ``({seat: chips}, left_over)``.
    """
    if not winners:
        return {}, amount
    share, odd = divmod(amount, len(winners))
    order = sorted(range(len(winners)), key=lambda i: ((winners[i] - first_seat) % seats, i))
    won: dict[int, int] = {}
    for position, i in enumerate(order):
        extra = 1 if odd_chip == OddChip.LEFT_OF_DEALER and position < odd else 0
        won[winners[i]] = won.get(winners[i], 0) + share + extra
    return won, (odd if odd_chip == OddChip.CARRY else 0)
