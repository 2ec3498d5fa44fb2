"""Ready-made tournament structures the home page offers (R89): a host picks one and edits
it. Each is the money, chips, levels and periods of a ``POST /api/tournaments`` body, checked
by :class:`~dealer_assist.core.tournament.setup.TournamentSetup` like any other; the players,
tables and name stay the host's.

>>> [p.key for p in PRESETS]
['home', 'turbo']
>>> sum(s.minutes for s in HOME.structure.stages[:7])
130
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dealer_assist.core.errors import SetupError
from dealer_assist.core.tournament.money import (
    DEFAULT_PAYOUTS,
    PayoutTable,
    paid_shares,
    payouts,
    percent_json,
)
from dealer_assist.core.tournament.setup import AddOn
from dealer_assist.core.tournament.structure import Break, Level, Structure


@dataclass(frozen=True)
class Preset:
    """A structure with its money: what the editor fills in when the host picks it."""

    key: str
    name: str
    summary: str
    buy_in: int
    chips: int
    fee: int
    seats: int
    structure: Structure
    rebuy_until: int | None
    add_on: AddOn | None
    late_until: int | None

    def to_json(self) -> dict[str, Any]:
        """The preset as the editor reads it: its words and the fields of a new
        tournament's body (API.md "Tournaments")."""
        return {
            "key": self.key, "name": self.name, "summary": self.summary,
            "fields": {
                "buy_in": self.buy_in, "chips": self.chips, "fee": self.fee,
                "seats": self.seats, "levels": self.structure.to_json(),
                "rebuy_until_level": self.rebuy_until,
                "add_on": None if self.add_on is None else {"chips": self.add_on.chips,
                                                            "cost": self.add_on.cost},
                "late_until_level": self.late_until,
            },
        }


def _levels(minutes: int, blinds: list[tuple[int, int, int]]) -> list[Level]:
    return [Level(minutes, small, big, ante) for small, big, ante in blinds]


# six 20-minute levels and a break after the third: about two hours to a winner with a
# table or two of players starting 100 big blinds deep; rebuys and late entries until the
# break, the add-on during it
HOME = Preset(
    "home", "Two-hour home game",
    "20-minute levels, a 10-minute break with the add-on, rebuys and late entry until "
    "the break.",
    buy_in=20, chips=5000, fee=0, seats=8,
    structure=Structure((*_levels(20, [(25, 50, 0), (50, 100, 0), (75, 150, 0)]),
                         Break(10, color_up=25),
                         *_levels(20, [(100, 200, 25), (150, 300, 50), (200, 400, 50),
                                       (300, 600, 75), (400, 800, 100),
                                       (600, 1200, 200)]))),
    rebuy_until=2, add_on=AddOn(5000, 20), late_until=2)

# ten-minute levels rising fast, no rebuys nor add-on: over in about an hour
TURBO = Preset(
    "turbo", "Turbo",
    "10-minute levels from 30 big blinds, no rebuys nor add-on, late entry for the first "
    "two levels.",
    buy_in=10, chips=3000, fee=0, seats=9,
    structure=Structure((*_levels(10, [(50, 100, 0), (100, 200, 0), (150, 300, 25),
                                       (200, 400, 50), (300, 600, 75), (500, 1000, 100),
                                       (700, 1400, 200), (1000, 2000, 300)]),)),
    rebuy_until=None, add_on=None, late_until=1)

PRESETS = (HOME, TURBO)


@dataclass(frozen=True)
class PayoutPreview:
    """What a tournament about to be made would pay with ``entries`` players: the pool of
    their buy-ins less the fees, each place's payout (R93) and its share of the pool, and the
    fewest tables of ``seats`` that seat them."""

    entries: int
    pool: int
    payouts: tuple[int, ...]
    tables: int
    shares: tuple[Fraction, ...] = ()

    @classmethod
    def of(cls, entries: int, pool: int, table: PayoutTable, unit: int,
           tables: int) -> PayoutPreview:
        """What ``table`` pays ``entries`` players from ``pool`` in whole ``unit``s (nothing
        when no one has entered)."""
        if not entries:
            return cls(entries, pool, (), tables)
        return cls(entries, pool, payouts(pool, entries, table, unit), tables,
                   paid_shares(entries, table))

    def to_json(self) -> dict[str, Any]:
        return {"entries": self.entries, "pool": self.pool, "payouts": list(self.payouts),
                "percents": [percent_json(s) for s in self.shares], "tables": self.tables}


MAX_PREVIEW_ENTRIES = 1000


def preview(entries: int, buy_in: int, fee: int, seats: int, unit: int = 1,
            table: PayoutTable = DEFAULT_PAYOUTS) -> PayoutPreview:
    """The payouts R93 gives ``entries`` players at the start (no rebuy nor add-on yet),
    or a SetupError with a sentence."""
    if not 0 <= entries <= MAX_PREVIEW_ENTRIES:
        raise SetupError(f"entries must be a whole number from 0 to {MAX_PREVIEW_ENTRIES}.")
    if not 0 <= fee <= buy_in:
        raise SetupError("The fee comes out of each buy-in: it cannot be more than it.")
    if seats < 2 or unit < 1:
        raise SetupError("A table seats at least 2 players, and prizes are rounded to a unit "
                         "of at least 1.")
    return PayoutPreview.of(entries, entries * (buy_in - fee), table, unit,
                            math.ceil(entries / seats))
