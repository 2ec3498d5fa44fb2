"""Split pots, high and low (R80).

Every pot is halved when any hand at the showdown has a qualifying low (the odd chip of the
halving to the high half); the high half goes to the best high hands among the pot's players,
the low half to their best lows, or, when none of them has a low, to their best high hands as
well. With no low at the showdown at all, the high hands take every pot whole. Each half is
shared among ties as R7 says (:func:`dealer_assist.core.pots.split`); one player may take both
halves (a scoop).

Scores are higher for the better hand, high (``HandValue.score``) and low (``LowValue.score``,
``None`` for no qualifying low) alike.

>>> pot = Pot(9, (0, 1, 2))
>>> [p.won for p in split_high_low([pot], {0: 50, 1: 70, 2: 60}, {0: 9, 1: None, 2: 8},
...                                 seats=3, first_seat=0)]
[{1: 5, 0: 4}]
>>> [p.won for p in split_high_low([pot], {0: 50, 1: 70, 2: 60}, {0: None, 1: None, 2: None},
...                                 seats=3, first_seat=0)]
[{1: 9}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealer_assist.core.pots import Pot, split
from dealer_assist.core.rules import OddChip

__all__ = ["HighLowPot", "best_of", "split_high_low"]


@dataclass(frozen=True)
class HighLowPot:
    """How one pot is shared (R80).

    ``high_amount`` is the high half (the whole pot when it is not halved), ``low_amount`` the
    low half (0 then). ``high_winners`` take the high half; ``low_winners`` the low half: the
    best lows among the pot's players, or their best high hands when none of them has a low
    (``low_by_high``), and none when the pot is not halved. ``won`` is each seat's chips from
    both halves, ``left_over`` the odd chips kept for the next deal under ``carry`` (R7).
    """

    amount: int
    high_amount: int
    low_amount: int
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    low_by_high: bool
    won: dict[int, int]
    left_over: int

    @property
    def scoop(self) -> int | None:
        """The one seat taking the whole pot, high and low, if one does."""
        seats = set(self.won)
        return next(iter(seats)) if len(seats) == 1 and self.won else None


def best_of(eligible: Sequence[int], scores: Mapping[int, int | None]) -> tuple[int, ...]:
    """The seats of ``eligible`` with the best score (ties all of them); none when no seat of
    them has a score.

    >>> best_of((0, 1, 2), {0: 5, 1: 7, 2: 7})
    (1, 2)
    >>> best_of((0, 2), {0: None, 1: 7, 2: None})
    ()
    """
    held = [(seat, score) for seat in eligible
            if (score := scores.get(seat)) is not None]
    top = max((score for _, score in held), default=None)
    return tuple(seat for seat, score in held if score == top)


def split_high_low(
    pots: Sequence[Pot], high: Mapping[int, int], low: Mapping[int, int | None], *,
    seats: int, first_seat: int, odd_chip: OddChip = OddChip.LEFT_OF_DEALER,
) -> list[HighLowPot]:
    """Share every pot of ``pots`` (main pot first, as :func:`layer_pots` gives them) between
    the best high hands and the best lows (R80).

    ``high`` is the high score of every seat at the showdown, ``low`` its low score, or
    ``None`` for a seat with no qualifying low (a seat missing from ``low`` has none). A pot's
    players are its eligible seats at the showdown. Odd chips within a half go as R7 says
    (``split``: ``seats`` seats, from ``first_seat`` round, or carried).
    """
    halved = any(score is not None for score in low.values())
    out: list[HighLowPot] = []
    for pot in pots:
        players = [seat for seat in pot.eligible if seat in high]
        high_winners = best_of(players, high)
        low_winners = best_of(players, low) if halved else ()
        low_by_high = halved and not low_winners
        if low_by_high:
            low_winners = high_winners
        low_amount = pot.amount // 2 if halved else 0
        high_amount = pot.amount - low_amount
        won: dict[int, int] = {}
        left_over = 0
        for amount, winners in ((high_amount, high_winners), (low_amount, low_winners)):
            if not amount:
                continue
            shares, left = split(amount, winners, seats=seats, first_seat=first_seat,
                                 odd_chip=odd_chip)
            for seat, chips in shares.items():
                won[seat] = won.get(seat, 0) + chips
            left_over += left
        out.append(HighLowPot(pot.amount, high_amount, low_amount, high_winners,
                              low_winners, low_by_high, won, left_over))
    return out
