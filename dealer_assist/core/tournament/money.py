"""A tournament's money (R93): the payout table, the amounts rounded down to the unit with
what the rounding leaves to first place, places shared by equal stacks (R91, shared as R7),
and the chops: chip-chop and ICM (Malmuth-Harville), worked out exactly in fractions.

>>> payouts(1000, 16, DEFAULT_PAYOUTS, unit=5)
(500, 300, 200)
>>> chip_chop(1000, {"Ann": 3000, "Bob": 1000, "Cy": 2000}, unit=1)
{'Ann': 501, 'Bob': 166, 'Cy': 333}
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from dealer_assist.core.errors import IllegalActionError, SetupError

MAX_ICM_PLAYERS = 12  # 2**12 orders of the places: exact in well under a second
MAX_PLACES = 1000


@dataclass(frozen=True)
class PayoutRow:
    """The shares of the places paid (fractions of the pool, summing to 1) for up to
    ``up_to`` entries (None: any number)."""

    up_to: int | None
    shares: tuple[Fraction, ...]


@dataclass(frozen=True)
class PayoutTable:
    """Rows by entries, the first whose ``up_to`` covers the entries applying; past the
    last, the harmonic rule of R93 (10% of the entries paid, each place's share in proportion
    to 1/place) when ``harmonic``."""

    rows: tuple[PayoutRow, ...]
    harmonic: bool = False

    def shares(self, entries: int) -> tuple[Fraction, ...]:
        for row in self.rows:
            if row.up_to is None or entries <= row.up_to:
                return row.shares
        if self.harmonic:
            return harmonic_shares(max(1, entries // 10))
        return self.rows[-1].shares

    def to_json(self) -> list[dict[str, Any]] | str:
        if self == DEFAULT_PAYOUTS:
            return "default"
        return [{"up_to": row.up_to, "percents": [percent_json(s) for s in row.shares]}
                for row in self.rows]

    def describe(self) -> dict[str, Any]:
        """The table as the editor shows it: each row's entries and percentages, and what
        applies past the last row."""
        last = self.rows[-1].up_to
        beyond = None
        if self.harmonic and last is not None:
            beyond = (f"{last + 1} or more players: one place paid for every 10 players, "
                      "each place's share in proportion to 1/place.")
        return {"rows": [{"up_to": row.up_to, "percents": [percent_json(s) for s in row.shares]}
                         for row in self.rows], "beyond": beyond}

    @classmethod
    def from_json(cls, data: Any) -> PayoutTable:
        """``None`` or ``"default"``: R93's table; a list of percentages (one row for any
        number of entries); or rows ``{"up_to": entries, "percents": [...]}``, the last
        without ``up_to``."""
        if data is None or data == "default":
            return DEFAULT_PAYOUTS
        if isinstance(data, list) and data and all(isinstance(d, dict) for d in data):
            rows: list[PayoutRow] = []
            for i, row in enumerate(data):
                last = i == len(data) - 1
                if set(row) - {"up_to", "percents"}:
                    raise SetupError("A payout row has up_to (entries) and percents only.")
                up_to = row.get("up_to")
                if up_to is None and not last:
                    raise SetupError("Only the last payout row may leave out up_to.")
                if up_to is not None and (isinstance(up_to, bool) or not isinstance(up_to, int)
                                          or up_to < 1 or (rows and rows[-1].up_to is not None
                                                           and up_to <= rows[-1].up_to)):
                    raise SetupError("Each payout row's up_to is a number of entries, "
                                     "larger than the row before's.")
                rows.append(PayoutRow(up_to, read_percents(row.get("percents"))))
            return cls(tuple(rows))
        return cls((PayoutRow(None, read_percents(data)),))


def percent_json(share: Fraction) -> int | float:
    percent = share * 100
    return int(percent) if percent.denominator == 1 else float(percent)


def read_percents(data: Any) -> tuple[Fraction, ...]:
    if (not isinstance(data, list) or not data or len(data) > MAX_PLACES
            or any(isinstance(p, bool) or not isinstance(p, int | float) or not p > 0
                   or not math.isfinite(p) for p in data)):
        raise SetupError("payouts: each place's percentage, a number above 0, first place "
                         "first, such as [65, 35].")
    shares = tuple(Fraction(str(p)) / 100 for p in data)
    if sum(shares) != 1:
        raise SetupError(f"payouts: the percentages add up to {float(sum(shares) * 100):g}, "
                         "not 100.")
    if list(shares) != sorted(shares, reverse=True):
        raise SetupError("payouts: no place is paid more than the place above it.")
    return shares


def harmonic_shares(places: int) -> tuple[Fraction, ...]:
    weights = [Fraction(1, k) for k in range(1, places + 1)]
    total = sum(weights)
    return tuple(w / total for w in weights)


def _percents(*values: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(v, 100) for v in values)


DEFAULT_PAYOUTS = PayoutTable((
    PayoutRow(7, _percents(100)), PayoutRow(15, _percents(65, 35)),
    PayoutRow(25, _percents(50, 30, 20)), PayoutRow(40, _percents(40, 30, 20, 10)),
), harmonic=True)


def round_to_unit(pool: int, exact: Sequence[Fraction], unit: int,
                  first: int = 0) -> tuple[int, ...]:
    """Each exact amount rounded down to ``unit``; what that leaves goes to ``first``."""
    amounts = [int(a // unit) * unit for a in exact]
    amounts[first] += pool - sum(amounts)
    return tuple(amounts)


def payouts(pool: int, entries: int, table: PayoutTable, unit: int) -> tuple[int, ...]:
    """Each place's payout, first place first. A place past the entries is not paid: its
    share goes to first place (a table of 3 places with 2 entries pays 2)."""
    return round_to_unit(pool, [pool * s for s in paid_shares(entries, table)], unit)


def paid_shares(entries: int, table: PayoutTable) -> tuple[Fraction, ...]:
    """The shares of the places paid with ``entries``: those past the entries go to first
    place."""
    shares = list(table.shares(entries))[: max(1, entries)]
    shares[0] += 1 - sum(shares)
    return tuple(shares)


def shared_places(amounts: Sequence[int], unit: int) -> tuple[int, ...]:
    """R91, R7: players sharing places (equal stacks out in one deal) add those places'
    payouts and divide them in equal whole units, the odd units one each from the first
    listed."""
    total, count = sum(amounts), len(amounts)
    units, odd = divmod(total // unit, count)
    shares = [units * unit + (unit if i < odd else 0) for i in range(count)]
    shares[0] += total - sum(shares)  # a total not a multiple of the unit
    return tuple(shares)


class ChopMethod(StrEnum):
    CHIPS = "chips"
    ICM = "icm"


def _check_stacks(stacks: Mapping[str, int]) -> None:
    if len(stacks) < 2:
        raise IllegalActionError("A chop is a deal among two or more players left.")
    if any(s <= 0 for s in stacks.values()):
        raise IllegalActionError("Every player in a chop has chips.")


def _leader(stacks: Mapping[str, int]) -> int:
    values = list(stacks.values())
    return values.index(max(values))


def chip_chop_exact(pool: int, stacks: Mapping[str, int]) -> dict[str, Fraction]:
    _check_stacks(stacks)
    chips = sum(stacks.values())
    return {name: Fraction(pool * stack, chips) for name, stack in stacks.items()}


def chip_chop(pool: int, stacks: Mapping[str, int], unit: int) -> dict[str, int]:
    """The pool left shared in proportion to chips; rounded down to the unit, what that
    leaves to the chip leader (the first place of R93's rounding)."""
    exact = chip_chop_exact(pool, stacks)
    return dict(zip(stacks, round_to_unit(pool, list(exact.values()), unit, _leader(stacks)),
                    strict=True))


def icm_exact(stacks: Mapping[str, int], prizes: Sequence[int]) -> dict[str, Fraction]:
    """Malmuth-Harville: the chance of finishing first is the share of the chips; of each
    place after, the same among those not yet placed. Each player's equity is the sum over
    places of that chance times the place's prize, exact. Worked over the sets of players
    already placed (2**n of them), not over the n! orders."""
    _check_stacks(stacks)
    names = list(stacks)
    if len(names) > MAX_ICM_PLAYERS:
        raise IllegalActionError(f"ICM is worked out for at most {MAX_ICM_PLAYERS} players.")
    paid = list(prizes)[: len(names)] + [0] * max(0, len(names) - len(prizes))
    equity = dict.fromkeys(names, Fraction(0))
    total = sum(stacks.values())
    # the chance that exactly the players of a set hold the top len(set) places
    reach: dict[frozenset[str], Fraction] = {frozenset(): Fraction(1)}
    for place in range(len(names)):
        following: dict[frozenset[str], Fraction] = {}
        for placed, chance in reach.items():
            left = total - sum(stacks[n] for n in placed)
            for name in names:
                if name in placed:
                    continue
                p = chance * Fraction(stacks[name], left)
                equity[name] += p * paid[place]
                key = placed | {name}
                following[key] = following.get(key, Fraction(0)) + p
        reach = following
    return equity


def icm_chop(stacks: Mapping[str, int], prizes: Sequence[int], unit: int) -> dict[str, int]:
    """ICM's equities rounded down to the unit, what that leaves to the chip leader."""
    exact = icm_exact(stacks, prizes)
    pool = sum(list(prizes)[: len(stacks)])
    return dict(zip(stacks, round_to_unit(pool, list(exact.values()), unit, _leader(stacks)),
                    strict=True))


def chop(method: ChopMethod, stacks: Mapping[str, int], prizes: Sequence[int],
         unit: int) -> dict[str, int]:
    """The amounts of a chop among ``stacks`` of the ``prizes`` still to pay (first place
    first; the places past the players left are not paid)."""
    left = list(prizes)[: len(stacks)]
    if method is ChopMethod.CHIPS:
        return chip_chop(sum(left), stacks, unit)
    return icm_chop(stacks, left, unit)

