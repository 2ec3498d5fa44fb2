"""A tournament's state: what replaying its records gives (R89-R93). Nothing here reads a
table: what the tables said (a bust, a player's stack) is in the records, and what seating
needs of them comes in as :class:`~dealer_assist.core.tournament.seating.TableView`.

Places (R91): a player at 0 after a deal is out, in the order they went out; while rebuys are
open they stay in (counted, dealt out) until the period ends or they decline, then are placed.
Two out in one deal are placed by their stacks at its start, the larger higher; equal stacks
share their places and those places' payouts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.names import same_name_key
from dealer_assist.core.tournament.clock import ClockState
from dealer_assist.core.tournament.money import (
    PayoutTable,
    chop,
    paid_shares,
    payouts,
    percent_json,
    shared_places,
)
from dealer_assist.core.tournament.presets import PayoutPreview
from dealer_assist.core.tournament.records import (
    Pairs,
    TournamentActionType,
    TournamentRecord,
)
from dealer_assist.core.tournament.seating import (
    Move,
    TableView,
    balancing_move,
    table_to_break,
)
from dealer_assist.core.tournament.setup import TournamentSetup
from dealer_assist.core.tournament.structure import Break, Level

T = TournamentActionType


@dataclass(frozen=True)
class Bust:
    """Players out in one deal with their stacks at its start, waiting on the rebuy
    period's end or their own decline."""

    at: float
    out: Pairs


@dataclass(frozen=True)
class Place:
    """Players placed together: their places (``first`` the best) and what each takes."""

    first: int
    names: tuple[str, ...]
    payouts: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"place": self.first, "last_place": self.first + len(self.names) - 1,
                "players": [{"name": n, "payout": p}
                            for n, p in zip(self.names, self.payouts, strict=True)]}


@dataclass(frozen=True)
class Standing:
    """The state a tournament's records leave."""

    clock: ClockState = field(default_factory=ClockState)
    entries: tuple[str, ...] = ()
    table_of: Mapping[str, int] = field(default_factory=dict)
    rebuys: Mapping[str, int] = field(default_factory=dict)
    add_ons: frozenset[str] = frozenset()
    pending: tuple[Bust, ...] = ()
    outs: tuple[tuple[str, ...], ...] = ()  # groups sharing places, the first out first
    draw: tuple[Move, ...] = ()  # a breaking table's seats still to take
    chopped: Pairs = ()
    payouts: PayoutTable | None = None  # the host's table since the start (None: the setup's)
    last_at: float = 0.0


class Tournament:
    """A tournament's setup and records, and the standing they replay to. Immutable:
    :meth:`apply` returns a new one or raises IllegalActionError and changes nothing."""

    def __init__(self, setup: TournamentSetup, records: Sequence[TournamentRecord] = (),
                 standing: Standing | None = None) -> None:
        self.setup = setup
        self.records = tuple(records)
        if standing is None:
            standing = Standing(entries=setup.players, table_of={
                name: t for t, names in enumerate(setup.tables) for name in names})
            for record in counted(self.records):
                standing = self._step(standing, record)
        self.standing = standing

    # ------------------------------------------------------------------ acting
    def apply(self, record: TournamentRecord) -> Tournament:
        if record.type is T.UNDO:
            return self.undo()
        if record.type is T.REOPEN:
            if not any(r.type is T.BUST and (r.table, r.deal) == (record.table, record.deal)
                       for r in counted(self.records)):
                raise IllegalActionError("No bust of that deal to take back.")
            return Tournament(self.setup, (*self.records, record))
        return Tournament(self.setup, (*self.records, record),
                          self._step(self.standing, record))

    def undo(self) -> Tournament:
        """Drop the last record the host or a dealer made (:meth:`last_undoable`). A payout
        table stays once a place it or the table before pays has been decided since."""
        i = self.last_undoable()
        after = Tournament(self.setup, self.records[:i] + self.records[i + 1:])
        if self.records[i].type is T.PAYOUTS:
            self._check_payouts_may_change(self.standing, after.payout_table())
        return after

    def last_undoable(self) -> int:
        """The index of the record undo drops: the last the host or a dealer made (the
        server's bust, reopen and restart records are the tables' and the server's facts;
        they stay, and a table's drawn seats are not undone)."""
        for i in range(len(self.records) - 1, -1, -1):
            kind = self.records[i].type
            if kind in (T.BUST, T.RESTART, T.REOPEN):
                continue
            if kind is T.DRAW:
                break
            return i
        raise IllegalActionError("Nothing to undo in the tournament.")

    def _step(self, s: Standing, r: TournamentRecord) -> Standing:
        structure = self.setup.structure
        at = max(r.at, s.last_at)
        s = self._settle(s, at)
        s = replace(s, last_at=at)
        if r.type is T.PAYOUTS:
            return self._payouts(s, r)
        if s.chopped or (self.finished(s) and r.type not in (T.RESTART, T.PAUSE)):
            raise IllegalActionError("The tournament is over.")
        if r.type is T.PAUSE:
            return replace(s, clock=s.clock.paused(structure, at))
        if r.type is T.RESUME:
            return replace(s, clock=s.clock.resumed(structure, at))
        if r.type is T.LEVEL:
            if r.to is None:
                raise IllegalActionError("Say which level (to).")
            return self._settle(replace(s, clock=s.clock.moved(structure, at, r.to)), at)
        if r.type is T.RESTART:
            return replace(s, clock=s.clock.restarted(structure, r.since or at, at))
        if r.type is T.ENTER:
            return self._enter(s, r, at)
        if r.type is T.REBUY:
            return self._rebuy(s, r, at)
        if r.type is T.ADD_ON:
            return self._add_on(s, r, at)
        if r.type is T.DECLINE:
            return self._decline(s, r)
        if r.type is T.BUST:
            return self._bust(s, r, at)
        if r.type is T.DRAW:
            return self._draw(s, r)
        if r.type is T.MOVE:
            return self._move(s, r)
        if r.type is T.CHOP:
            return self._chop(s, r)
        raise IllegalActionError(f"A tournament has no {r.type} record.")

    # ------------------------------------------------------------------ the records
    def _known(self, s: Standing, player: str | None) -> str:
        if not player:
            raise IllegalActionError("Say which player (player).")
        key = same_name_key(player)
        name = next((n for n in s.entries if same_name_key(n) == key), None)
        if name is None:
            raise IllegalActionError(f"There is no player called {player} in the tournament.")
        if any(name in group for group in s.outs):
            raise IllegalActionError(f"{name} is out of the tournament.")
        return name

    def _enter(self, s: Standing, r: TournamentRecord, at: float) -> Standing:
        if not r.player:
            raise IllegalActionError("Say the new player's name (player).")
        if any(same_name_key(n) == same_name_key(r.player) for n in s.entries):
            raise IllegalActionError(f"{r.player} has already entered: a player enters once "
                                     "(a rebuy is not an entry).")
        late = self.setup.late_until
        level = self.clock_at(s, at).level
        if s.clock.moment is not None and (late is None or level > late):
            raise IllegalActionError("Late registration is closed." if late is not None
                                     else "This tournament has no late registration.")
        table = self._open_table(s, r.table)
        return replace(s, entries=(*s.entries, r.player),
                       table_of={**s.table_of, r.player: table})

    def _open_table(self, s: Standing, table: int | None) -> int:
        if table is None or not 0 <= table < len(self.setup.tables):
            raise IllegalActionError(f"There is no table {table} in this tournament.")
        if table not in self.tables_in_play(s):
            raise IllegalActionError(f"Table {table + 1} has broken.")
        if self.seated(s, table) >= self.setup.seats:
            raise IllegalActionError(f"Table {table + 1} is full ({self.setup.seats} seats).")
        return table

    def _rebuy(self, s: Standing, r: TournamentRecord, at: float) -> Standing:
        name = self._known(s, r.player)
        until = self.setup.rebuy_until
        if until is None:
            raise IllegalActionError("This tournament has no rebuys.")
        if self.clock_at(s, at).level > until:
            raise IllegalActionError(f"Rebuys ended with level {until}.")
        stack = r.stack or 0
        if stack > self.setup.chips:
            raise IllegalActionError(f"{name} has {stack} chips, more than the starting "
                                     f"{self.setup.chips}: no rebuy yet.")
        pending = tuple(b for b in (replace(b, out=tuple(p for p in b.out if p[0] != name))
                                    for b in s.pending) if b.out)
        return replace(s, rebuys={**s.rebuys, name: s.rebuys.get(name, 0) + 1},
                       pending=pending)

    def _add_on(self, s: Standing, r: TournamentRecord, at: float) -> Standing:
        name = self._known(s, r.player)
        if self.setup.add_on is None:
            raise IllegalActionError("This tournament has no add-on.")
        if self.clock_at(s, at).level != self.setup.structure.first_break:
            raise IllegalActionError("The add-on is taken during the first break.")
        if name in s.add_ons:
            raise IllegalActionError(f"{name} has taken the add-on: one each.")
        if self._pending_names(s) & {name}:
            raise IllegalActionError(f"{name} has no chips: a rebuy first, then the add-on.")
        return replace(s, add_ons=s.add_ons | {name})

    def _decline(self, s: Standing, r: TournamentRecord) -> Standing:
        name = self._known(s, r.player)
        if name not in self._pending_names(s):
            raise IllegalActionError(f"{name} is not waiting on a rebuy.")
        kept = tuple(b for b in (replace(b, out=tuple(p for p in b.out if p[0] != name))
                                 for b in s.pending) if b.out)
        return replace(s, pending=kept, outs=(*s.outs, (name,)))

    def _bust(self, s: Standing, r: TournamentRecord, at: float) -> Standing:
        out = r.out or ()
        if not out:
            raise IllegalActionError("A bust names who went out.")
        for name, _ in out:
            self._known(s, name)
        bust = Bust(at, out)
        until = self.setup.rebuy_until
        if until is not None and self.clock_at(s, at).level <= until:
            return replace(s, pending=(*s.pending, bust))
        return replace(s, outs=(*s.outs, *groups(out)))

    def _draw(self, s: Standing, r: TournamentRecord) -> Standing:
        if s.draw:
            raise IllegalActionError("A table's seats are drawn already: move its players.")
        moves = r.moves or ()
        tables = {m.from_table for m in moves}
        if len(tables) != 1 or {m.player for m in moves} != set(
                self.players_at(s, next(iter(tables)))):
            raise IllegalActionError("A draw seats every player of one breaking table.")
        return replace(s, draw=moves)

    def _move(self, s: Standing, r: TournamentRecord) -> Standing:
        name = self._known(s, r.player)
        if r.to_table is None:
            raise IllegalActionError("Say the table to move to (to_table).")
        if s.table_of.get(name) == r.to_table:
            raise IllegalActionError(f"{name} is at table {r.to_table + 1} already.")
        if s.draw:
            drawn = next((m for m in s.draw if m.player == name), None)
            if drawn is None:
                raise IllegalActionError(f"A table is breaking: move its players first, not "
                                         f"{name}.")
            if drawn.to_table != r.to_table:
                raise IllegalActionError(f"{name}'s seat was drawn at table "
                                         f"{drawn.to_table + 1}.")
        to = self._open_table(s, r.to_table)
        return replace(s, table_of={**s.table_of, name: to},
                       draw=tuple(m for m in s.draw if m.player != name))

    def _chop(self, s: Standing, r: TournamentRecord) -> Standing:
        if self._pending_names(s):
            raise IllegalActionError("A player is waiting on a rebuy: they rebuy or decline "
                                     "before a chop.")
        left = self.players_left(s)
        stacks = dict(r.stacks or ())
        if set(stacks) != set(left) or r.method is None:
            raise IllegalActionError("A chop is among every player left, with their stacks.")
        agreed = chop(r.method, stacks, self.prizes(s), self.setup.unit)
        if dict(r.amounts or ()) != agreed:
            raise IllegalActionError("The amounts are not the chop's.")
        return replace(s, chopped=tuple(agreed.items()))

    def _payouts(self, s: Standing, r: TournamentRecord) -> Standing:
        if r.payouts is None:
            raise IllegalActionError("Say the new payouts (payouts).")
        if r.payouts == self.payout_table(s):
            raise IllegalActionError("Those are the payouts already.")
        self._check_payouts_may_change(s, r.payouts)
        return replace(s, payouts=r.payouts)

    def _check_payouts_may_change(self, s: Standing, table: PayoutTable) -> None:
        refusal = self.payouts_refusal(s, table)
        if refusal is not None:
            raise IllegalActionError(refusal)

    def payouts_refusal(self, s: Standing, table: PayoutTable) -> str | None:
        """R93: the host may give another table until the money is decided: a chop, or a
        place taken that the table now or the one asked for pays. The sentence why not, or
        None."""
        if s.chopped:
            return "The payouts stay as they are: a chop has been agreed."
        entries = len(s.entries)
        paid = max(len(payouts(self.pool_of(s), entries, t, self.setup.unit))
                   for t in (self.payout_table(s), table))
        taken = sum(len(group) for group in s.outs)
        if not self.finished(s) and entries - taken + 1 > paid:
            return None
        group = s.outs[-1] if s.outs and not self.finished(s) else self.players_left(s)
        return (f"The payouts stay as they are: {' and '.join(group)} "
                f"{'has' if len(group) == 1 else 'have'} finished in a paid place "
                f"({'1st' if self.finished(s) else ordinal(entries - taken + 1)}).")

    def payout_preview(self, table: PayoutTable) -> PayoutPreview:
        """What ``table`` would pay now, with the entries and the pool so far."""
        s = self.standing
        return PayoutPreview.of(len(s.entries), self.pool_of(s), table, self.setup.unit,
                                len(self.tables_in_play(s)))

    # ------------------------------------------------------------------ reading
    def _settle(self, s: Standing, at: float) -> Standing:
        """The busts waiting on rebuys placed once the rebuy period has ended at ``at``."""
        until = self.setup.rebuy_until
        if not s.pending or until is None or self.clock_at(s, at).level <= until:
            return s
        placed = tuple(g for bust in s.pending for g in groups(bust.out))
        return replace(s, pending=(), outs=(*s.outs, *placed))

    def clock_at(self, s: Standing, at: float) -> ClockState:
        return s.clock.at(self.setup.structure, at)

    def _pending_names(self, s: Standing) -> set[str]:
        return {name for bust in s.pending for name, _ in bust.out}

    def players_left(self, s: Standing | None = None) -> tuple[str, ...]:
        """Everyone still in (a busted player waiting on a rebuy counts), in entry order."""
        s = s or self.standing
        out = {n for g in s.outs for n in g}
        return tuple(n for n in s.entries if n not in out)

    def players_at(self, s: Standing, table: int) -> tuple[str, ...]:
        return tuple(n for n in self.players_left(s) if s.table_of.get(n) == table)

    def seated(self, s: Standing, table: int) -> int:
        return len(self.players_at(s, table))

    def tables_in_play(self, s: Standing | None = None) -> tuple[int, ...]:
        """The tables with players (a table whose players all moved has broken)."""
        s = s or self.standing
        return tuple(sorted({s.table_of[n] for n in self.players_left(s)}))

    def finished(self, s: Standing | None = None) -> bool:
        s = s or self.standing
        return bool(s.chopped) or (len(self.players_left(s)) == 1 and not s.pending)

    @property
    def pool(self) -> int:
        return self.pool_of(self.standing)

    def pool_of(self, s: Standing) -> int:
        """R93: every buy-in less the fee, every rebuy and add-on (money)."""
        setup = self.setup
        add_on = setup.add_on.cost if setup.add_on else 0
        return (len(s.entries) * (setup.buy_in - setup.fee)
                + sum(s.rebuys.values()) * setup.buy_in + len(s.add_ons) * add_on)

    @property
    def chips_in_play(self) -> int:
        s, setup = self.standing, self.setup
        add_on = setup.add_on.chips if setup.add_on else 0
        return (len(s.entries) + sum(s.rebuys.values())) * setup.chips + len(s.add_ons) * add_on

    def payout_table(self, s: Standing | None = None) -> PayoutTable:
        """The table paid: the host's last (``payouts`` records), else the setup's."""
        return (s or self.standing).payouts or self.setup.payouts

    def payouts(self, s: Standing | None = None) -> tuple[int, ...]:
        s = s or self.standing
        return payouts(self.pool_of(s), len(s.entries), self.payout_table(s), self.setup.unit)

    def prizes(self, s: Standing | None = None) -> tuple[int, ...]:
        """The payouts of the places still to take, first place first."""
        s = s or self.standing
        return self.payouts(s)[:len(self.players_left(s))]

    def places(self, now: float | None = None) -> tuple[Place, ...]:
        """Every place taken so far, first place first (R91); a chop's players share the
        top places with the amounts agreed."""
        s = self.standing if now is None else self._settle(self.standing, now)
        paid = self.payouts()
        entries = len(s.entries)
        found: list[Place] = []
        taken = 0
        for group in s.outs:
            first = entries - taken - len(group) + 1
            amounts = [paid[p - 1] if p <= len(paid) else 0
                       for p in range(first, first + len(group))]
            found.append(Place(first, group, shared_places(amounts, self.setup.unit)))
            taken += len(group)
        if s.chopped:
            names = tuple(n for n, _ in s.chopped)
            found.append(Place(1, names, tuple(a for _, a in s.chopped)))
        elif self.finished(s):
            winner = self.players_left(s)[0]
            found.append(Place(1, (winner,), (paid[0],)))
        return tuple(reversed(found))

    def money(self) -> dict[str, tuple[int, int]]:
        """R94: per person, money in (buy-in, rebuys, add-on) and out (payouts)."""
        s, setup = self.standing, self.setup
        add_on = setup.add_on.cost if setup.add_on else 0
        won = {n: p for place in self.places() for n, p in zip(place.names, place.payouts,
                                                              strict=True)}
        return {n: (setup.buy_in + s.rebuys.get(n, 0) * setup.buy_in
                    + (add_on if n in s.add_ons else 0), won.get(n, 0)) for n in s.entries}

    def named_moves(self, views: Iterable[TableView]) -> tuple[Move, ...]:
        """R92: what must happen before the next deals: a breaking table's drawn seats, else
        the balancing move (a table to break is drawn by the server first: ``must_draw``)."""
        s = self.standing
        if s.draw:
            return s.draw
        move = balancing_move(list(views), self.setup.seats)
        return (move,) if move is not None else ()

    def must_draw(self, views: Sequence[TableView]) -> TableView | None:
        """The table that breaks now (its seats not yet drawn), or None."""
        if self.standing.draw:
            return None
        return table_to_break(views, self.setup.seats)

    def level_for_deal(self, now: float) -> Level:
        """The level whose blinds the next deal posts (R90), or a sentence during a break."""
        clock = self.clock_at(self.standing, now)
        stage = self.setup.structure.stages[clock.level]
        if isinstance(stage, Break):
            left = int(clock.seconds_left(self.setup.structure) + 0.999)
            raise IllegalActionError(f"No deal starts during a break: play resumes in "
                                     f"{left // 60}:{left % 60:02d}.")
        if self.finished():
            raise IllegalActionError("The tournament is over.")
        return stage

    def public(self, now: float) -> dict[str, Any]:
        """The public state (API.md "Tournaments"), but the tables, which the services add."""
        s = self.standing if self.finished() else self._settle(self.standing, now)
        structure = self.setup.structure
        clock = self.clock_at(s, now)
        next_level = structure.next_level(clock.level)
        next_break = structure.next_break(clock.level)
        until_break = None
        if next_break is not None:
            until_break = clock.seconds_left(structure) + sum(
                structure.seconds(i) for i in range(clock.level + 1, next_break))
        left = self.players_left(s)
        return {
            "name": self.setup.name,
            "clock": {
                "level": clock.level, "number": structure.number(clock.level),
                "stage": structure.stages[clock.level].to_json(),
                "seconds_left": round(clock.seconds_left(structure), 3),
                "at": round(now, 3),  # the moment the figures are of: screens count from it
                "running": clock.running, "started": clock.moment is not None,
                "game": self.setup.game(clock.level),
                "next_level": None if next_level is None else {
                    "index": next_level, "number": structure.number(next_level),
                    **structure.stages[next_level].to_json()},
                "next_break": None if next_break is None else {
                    "index": next_break, **structure.stages[next_break].to_json(),
                    "in_seconds": round(until_break or 0.0, 3)},
            },
            "entries": len(s.entries), "players_left": len(left),
            "rebuys": sum(s.rebuys.values()), "add_ons": len(s.add_ons),
            "waiting_on_rebuy": sorted(self._pending_names(s)),
            "rebuys_open": (self.setup.rebuy_until is not None
                            and clock.level <= self.setup.rebuy_until),
            "late_registration_open": (self.setup.late_until is not None
                                       and clock.level <= self.setup.late_until),
            "add_on_open": (self.setup.add_on is not None
                            and clock.level == structure.first_break),
            "prize_pool": self.pool, "payouts": list(self.payouts()),
            "payout_percents": [percent_json(p) for p in paid_shares(
                len(s.entries), self.payout_table(s))],
            "payouts_open": self.payouts_refusal(s, self.payout_table(s)) is None,
            "average_stack": self.chips_in_play // max(1, len(left)),
            "places": [p.to_json() for p in self.places(now)],
            "finished": self.finished(s),
            "chop": [{"name": n, "amount": a} for n, a in s.chopped] or None,
        }


def counted(records: Sequence[TournamentRecord]) -> list[TournamentRecord]:
    """The records that count: a bust whose deal was reopened at its table (a ``reopen``
    after it) never was, and the reopen itself changes nothing else."""
    reopened: set[tuple[int | None, int | None]] = set()
    kept: list[TournamentRecord] = []
    for record in reversed(records):
        key = (record.table, record.deal)
        if record.type is T.REOPEN:
            reopened.add(key)
        elif record.type is T.BUST and key in reopened:
            reopened.discard(key)
        else:
            kept.append(record)
    return kept[::-1]


def groups(out: Pairs) -> tuple[tuple[str, ...], ...]:
    """Players out in one deal, as placed: the smallest stack at its start first out; equal
    stacks one group, sharing their places."""
    by_stack: dict[int, list[str]] = {}
    for name, stack in out:
        by_stack.setdefault(stack, []).append(name)
    return tuple(tuple(by_stack[stack]) for stack in sorted(by_stack))


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    suffix = "th" if 11 <= place % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"
