"""Running a tournament (R89-R93) over its tables: made with its tables, its records stored
and replayed, the host's and dealers' actions carried out at the tournament and at the
tables they touch, and each table's deals linked to the clock: a deal starts with the level's
blinds (never in a break), and a deal that leaves players at 0 is a bust.

The tournament's rules are the core's (``core/tournament``); the tables are tables of R70-R75
acted on through :class:`~dealer_assist.services.tables.TableStore`. A tournament record and
the table records it makes are stored one after the other: the table first (it refuses what
its rules refuse), checked in memory before either is written.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.core.errors import IllegalActionError, InvalidActionError, SetupError
from dealer_assist.core.names import MAX_NAME, clean_name, same_name_key
from dealer_assist.core.table import Table
from dealer_assist.core.tournament.money import ChopMethod, PayoutTable, chop
from dealer_assist.core.tournament.records import (
    ACTIONS,
    HOST_ONLY,
    TournamentActionType,
    TournamentRecord,
)
from dealer_assist.core.tournament.seating import Move, TableView, draw_break, late_seat
from dealer_assist.core.tournament.setup import TournamentSetup
from dealer_assist.core.tournament.state import Tournament
from dealer_assist.games.registry import CATALOGUE, TOURNAMENT_GAMES, new_setup
from dealer_assist.services import storage
from dealer_assist.services.auth import hash_token, new_table_id, new_token
from dealer_assist.services.host import delete_table_rows
from dealer_assist.services.ledger import settle
from dealer_assist.services.locks import native_lock
from dealer_assist.services.storage import Connection
from dealer_assist.services.tables import TableStore

T = TournamentActionType
# what a dealer may not do at a tournament's table: the tournament does it (R89, R92)
TOURNAMENT_ONLY = {"rebuy": "a rebuy", "seat": "a new player", "leave": "a player leaving"}
ACTION_FIELDS: dict[TournamentActionType, frozenset[str]] = {
    T.PAUSE: frozenset(), T.RESUME: frozenset(), T.UNDO: frozenset(),
    T.LEVEL: frozenset({"to"}), T.ENTER: frozenset({"player"}),
    T.REBUY: frozenset({"player"}), T.ADD_ON: frozenset({"player"}),
    T.DECLINE: frozenset({"player"}), T.MOVE: frozenset({"player", "to_table"}),
    T.CHOP: frozenset({"method", "agree"}), T.PAYOUTS: frozenset({"payouts"}),
}


@dataclass(frozen=True)
class NewTable:
    id: str
    token: str


@dataclass(frozen=True)
class Created:
    id: str
    tables: tuple[NewTable, ...]
    tournament: Tournament


@dataclass(frozen=True)
class Deleted:
    """What the host's delete removed: the tournament's name (for the screens' sentence)
    and its tables' ids."""

    name: str
    tables: tuple[str, ...]


@dataclass(frozen=True)
class Outcome:
    """What a tournament action did: the tournament after it, the tables whose state
    changed (to broadcast), and a chop's figures when asked without agreeing."""

    tournament: Tournament
    tables: tuple[str, ...] = ()
    chop: dict[str, Any] | None = None


class TournamentStore:
    """Tournaments as their records leave them. ``now`` and ``rng`` are the server's
    clock and random source (a test may give its own)."""

    def __init__(self, tables: TableStore, now: Callable[[], float] = time.time,
                 rng: random.Random | None = None) -> None:
        self.tables = tables
        self.now = now
        self.rng = rng or secrets.SystemRandom()
        self._lock = native_lock()  # loop and native threads alike (services/locks.py)
        # a table's tournament never changes (linked in the transaction that made the
        # table): kept once the table is known to exist, so guessed ids do not grow it
        self._links: dict[str, tuple[str, int] | None] = {}
        self._cache: dict[str, tuple[int, Tournament]] = {}  # by id: (seq, replayed)

    # ------------------------------------------------------------------ making
    def create(self, db: Connection, body: Any) -> Created:
        """A new tournament and its tables, the seats drawn; or a SetupError."""
        setup = TournamentSetup.create(CATALOGUE, body, TOURNAMENT_GAMES, self.rng)
        first = setup.structure.level_in_play(0)
        made: list[tuple[NewTable, Any]] = []
        for number, names in enumerate(setup.tables):
            table_setup = new_setup(
                setup.games[0], [{"name": n, "stack": setup.chips} for n in names],
                {"small_blind": first.small_blind, "big_blind": first.big_blind},
                f"{setup.name or 'Tournament'} · table {number + 1}"[:80])
            made.append((NewTable(new_table_id(), new_token()), table_setup))
        tournament_id = new_table_id()
        with storage.write_transaction(db):
            for new, table_setup in made:
                storage.insert_table_row(db, {
                    "id": new.id, "name": table_setup.name, "variant": table_setup.variant,
                    "setup_json": json.dumps(table_setup.to_json()),
                    "token_hash": hash_token(new.token), "created": storage.now()})
            storage.tournaments.insert_tournament(
                db, tournament_id, setup.name, json.dumps(setup.to_json()),
                [new.id for new, _ in made], self.now())
        return Created(tournament_id, tuple(new for new, _ in made), Tournament(setup))

    # ------------------------------------------------------------------ reading
    def load(self, db: Connection, tournament_id: str) -> Tournament | None:
        """The tournament as its records leave it: replayed, or this process's copy when
        no record was added since."""
        seq = storage.tournaments.tournament_seq(db, tournament_id)
        with self._lock:
            cached = self._cache.get(tournament_id)
        if cached is not None and cached[0] == seq:
            return cached[1]
        tournament = replay(db, tournament_id)
        if tournament is not None:
            with self._lock:
                self._cache[tournament_id] = (seq, tournament)
        return tournament

    def table_ids(self, db: Connection, tournament_id: str) -> list[str]:
        return storage.tournaments.tournament_tables(db, tournament_id)

    def views(self, db: Connection, tournament: Tournament,
              table_ids: list[str]) -> list[TableView]:
        """What seating reads of each table in play."""
        waiting = frozenset(tournament.public(self.now())["waiting_on_rebuy"])
        views = []
        for number in tournament.tables_in_play():
            table = self._table(db, table_ids[number])
            totals = table.totals
            views.append(TableView(number, totals.names, totals.stacks, totals.button,
                                   waiting))
        return views

    def _table(self, db: Connection, table_id: str) -> Table:
        table = self.tables.load(db, table_id)
        if table is None:
            raise IllegalActionError(f"The tournament's table {table_id} is gone.")
        return table

    def public(self, db: Connection, tournament_id: str,
               tournament: Tournament | None = None) -> dict[str, Any] | None:
        """The public state (API.md "Tournaments") with each table's players and stacks
        and the moves named (R92)."""
        tournament = tournament or self.load(db, tournament_id)
        if tournament is None:
            return None
        table_ids = self.table_ids(db, tournament_id)
        left = set(tournament.players_left())
        in_play = tournament.tables_in_play()
        tables = []
        for number, table_id in enumerate(table_ids):
            totals = self._table(db, table_id).totals
            tables.append({
                "number": number, "id": table_id, "in_play": number in in_play,
                "players": [{"name": n, "stack": s} for n, s in zip(
                    totals.names, totals.stacks, strict=True) if n in left]})
        moves = [m.to_json() for m in tournament.named_moves(self.views(db, tournament,
                                                                         table_ids))]
        money = books(tournament)
        # the clock read last, after the tables: its figures are as of the moment the state
        # leaves, which screens count down from (R90)
        return {"id": tournament_id, **tournament.public(self.now()), "tables": tables,
                "moves": moves, "books": money}

    # ------------------------------------------------------------------ the tables' side
    def tournament_of(self, db: Connection, table_id: str) -> tuple[str, int] | None:
        """The tournament a table plays for and its number there, or None."""
        with self._lock:
            if table_id in self._links:
                return self._links[table_id]
        link = storage.tournaments.tournament_of_table(db, table_id)
        if link is not None or self.tables.row(db, table_id) is not None:
            with self._lock:
                self._links[table_id] = link
        return link

    def table_body(self, db: Connection, table_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """A dealer's table action as the table takes it: at a tournament's table a deal
        starts with the level's blinds and game (R90), never in a break nor before the
        moves named (R92); rebuys, newcomers and leaving go through the tournament."""
        if not isinstance(body, dict):
            return body
        if body.get("blinds") is not None:
            raise InvalidActionError("A deal's blinds come from the house rules, or from "
                                     "a tournament's clock: a start_deal has no blinds.")
        if body.get("back") is not None:
            raise InvalidActionError("A player comes back to a table they left only when a "
                                     "tournament moves them: a seat has no back.")
        link = self.tournament_of(db, table_id)
        if link is None:
            return body
        kind = body.get("type")
        if kind in TOURNAMENT_ONLY:
            raise IllegalActionError(f"At a tournament's table {TOURNAMENT_ONLY[kind]} goes "
                                     "through the tournament.")
        if kind != "start_deal":
            return body
        tournament_id, number = link
        tournament = self.load(db, tournament_id)
        assert tournament is not None
        now = self.now()
        level = tournament.level_for_deal(now)
        tournament = self.draw_if_breaking(db, tournament_id, tournament)
        views = self.views(db, tournament, self.table_ids(db, tournament_id))
        for move in tournament.named_moves(views):
            if number in (move.from_table, move.to_table):
                raise IllegalActionError(
                    f"First move {move.player} to table {move.to_table + 1} (R92).")
        index = tournament.clock_at(tournament.standing, now).level
        game = tournament.setup.game(index)
        if body.get("variant") not in (None, game):
            raise IllegalActionError("At a tournament's table the game comes with the level.")
        return {**body, "blinds": level.blinds(), "variant": game}

    def after_table_action(self, db: Connection, table_id: str, table: Table,
                           action_type: str) -> None:
        """After a table's record: a deal that ended with players at 0 is a bust (R91),
        and a deal's end undone takes its bust back; a table that must break has its
        players' seats drawn (R92)."""
        link = self.tournament_of(db, table_id)
        if link is None or table.deal is None:
            return
        tournament_id, number = link
        deal = table.deal.totals.deal_number
        if action_type == "undo" and not table.deal_over:
            self._append_if(db, tournament_id, TournamentRecord(
                T.REOPEN, self.now(), table=number, deal=deal))
            return
        if not table.deal_over or table.between or action_type == "undo":
            return
        out = tuple((name, start) for name, start, end in zip(
            table.base.names, table.base.stacks, table.totals.stacks, strict=True)
            if start > 0 and end == 0)
        if not out:
            return
        tournament = self._append_if(db, tournament_id, TournamentRecord(
            T.BUST, self.now(), table=number, deal=deal, out=out))
        if tournament is not None:
            self.draw_if_breaking(db, tournament_id, tournament)

    def draw_if_breaking(self, db: Connection, tournament_id: str,
                         tournament: Tournament) -> Tournament:
        views = self.views(db, tournament, self.table_ids(db, tournament_id))
        breaking = tournament.must_draw(views)
        if breaking is None:
            return tournament
        moves = draw_break(views, breaking, self.rng)
        return self._append(db, tournament_id, TournamentRecord(T.DRAW, self.now(),
                                                                 moves=moves))

    def _append_if(self, db: Connection, tournament_id: str,
                   record: TournamentRecord) -> Tournament | None:
        """Append a record the server saw, if the tournament takes it (a bust after the
        end, or a reopen with nothing to take back, is left out)."""
        try:
            return self._append(db, tournament_id, record)
        except IllegalActionError:
            return None

    def _append(self, db: Connection, tournament_id: str,
                record: TournamentRecord) -> Tournament:
        with storage.write_transaction(db, key=f"tournament {tournament_id}"):
            tournament = self.load(db, tournament_id)
            assert tournament is not None
            after = tournament.apply(record)
            seq = storage.tournaments.tournament_seq(db, tournament_id) + 1
            storage.tournaments.append_tournament_record(db, tournament_id, seq,
                                                         json.dumps(record.to_json()))
        return after

    # ------------------------------------------------------------------ the host's actions
    def host_only(self, db: Connection, tournament_id: str,
                  body: Any) -> TournamentActionType | None:
        """The host's own kind of record (the money, R93) that this action makes or, an
        undo, takes back; None when a table's dealer may ask for it."""
        kind = body.get("type") if isinstance(body, dict) else None
        tournament = self.load(db, tournament_id)
        if kind == T.UNDO and tournament is not None:
            try:
                kind = tournament.records[tournament.last_undoable()].type
            except IllegalActionError:
                return None
        return T(kind) if kind in HOST_ONLY else None

    def act(self, db: Connection, tournament_id: str, body: Any) -> Outcome:
        """A host's or dealer's action (API.md "Tournaments"), carried out at the
        tournament and the tables it touches; a DealerAssistError with a sentence if it is
        refused, nothing changed."""
        tournament = self.load(db, tournament_id)
        if tournament is None:
            raise KeyError(tournament_id)
        kind = read_type(body)
        now = self.now()
        table_ids = self.table_ids(db, tournament_id)
        if kind in (T.PAUSE, T.RESUME):
            return Outcome(self._append(db, tournament_id, TournamentRecord(kind, now)))
        if kind is T.LEVEL:
            to = body.get("to")
            if isinstance(to, bool) or not isinstance(to, int):
                raise InvalidActionError("Say which level (to), a number from 0.")
            return Outcome(self._append(db, tournament_id, TournamentRecord(kind, now, to=to)))
        if kind is T.UNDO:
            return self._undo(db, tournament_id, tournament, table_ids)
        if kind is T.PAYOUTS:
            if "payouts" not in body:
                raise InvalidActionError('Say the new payouts (payouts): "default", or each '
                                         "place's percentage such as [65, 35].")
            paid = PayoutTable.from_json(body["payouts"])  # creation's check and sentences
            return Outcome(self._append(db, tournament_id,
                                        TournamentRecord(kind, now, payouts=paid)))
        if kind is T.CHOP:
            return self._chop(db, tournament_id, tournament, table_ids, body, now)
        player = read_player(body)
        if kind is T.ENTER:
            return self._enter(db, tournament_id, tournament, table_ids, player, now)
        name = tournament_name(tournament, player)
        if kind is T.DECLINE:
            return Outcome(self._append(db, tournament_id,
                                        TournamentRecord(kind, now, player=name)))
        number = tournament.standing.table_of[name]
        table_id = table_ids[number]
        if kind is T.MOVE:
            return self._move(db, tournament_id, tournament, table_ids, name, body, now)
        table = self._table(db, table_id)
        stack = table.totals.stacks[table.totals.names.index(name)]
        record = TournamentRecord(kind, now, player=name, stack=stack)
        tournament.apply(record)  # the tournament's refusal first
        setup = tournament.setup
        chips = setup.chips if kind is T.REBUY else (setup.add_on.chips if setup.add_on else 0)
        self._table_records(db, [(table_id, {"type": "rebuy", "player": name,
                                             "amount": chips})])
        return Outcome(self._append(db, tournament_id, record), (table_id,))

    def _table_records(self, db: Connection, steps: list[tuple[str, dict[str, Any]]]) -> None:
        """Table records the tournament makes: each table checked in memory first, so that a
        refusal (a deal in play) stores none of them."""
        for table_id, body in steps:
            table = self._table(db, table_id)
            if not table.deal_over:
                raise IllegalActionError(
                    f"A deal is in play at {table.setup.name}: this waits for its end.")
            table.apply(table.prepare(body))
        for table_id, body in steps:
            self.tables.act(db, table_id, body)

    def _enter(self, db: Connection, tournament_id: str, tournament: Tournament,
               table_ids: list[str], player: str, now: float) -> Outcome:
        try:
            name = clean_name(player)
        except SetupError as err:
            raise IllegalActionError(str(err)) from None
        if not name or len(name) > MAX_NAME:
            raise IllegalActionError(f"A player's name has 1 to {MAX_NAME} characters.")
        views = self.views(db, tournament, table_ids)
        seat = late_seat(views, name, tournament.setup.seats, self.rng)
        if seat is None:
            raise IllegalActionError("Every table is full.")
        record = TournamentRecord(T.ENTER, now, player=name, table=seat.to_table,
                                  after=seat.after)
        tournament.apply(record)
        table_id = table_ids[seat.to_table]
        self._table_records(db, [(table_id, {"type": "seat", "player": name,
                                             "stack": tournament.setup.chips,
                                             "after": seat.after})])
        return Outcome(self._append(db, tournament_id, record), (table_id,))

    def _move(self, db: Connection, tournament_id: str, tournament: Tournament,
              table_ids: list[str], name: str, body: Mapping[str, Any],
              now: float) -> Outcome:
        to = body.get("to_table")
        if isinstance(to, bool) or not isinstance(to, int):
            raise InvalidActionError("Say the table to move to (to_table), a number from 0.")
        tournament = self.draw_if_breaking(db, tournament_id, tournament)
        named = tournament.named_moves(self.views(db, tournament, table_ids))
        move: Move | None = next((m for m in named if m.player == name), None)
        if move is None:
            says = "; ".join(f"{m.player} to table {m.to_table + 1}" for m in named)
            raise IllegalActionError(f"{name} is not the player to move: "
                                     + (f"the move named is {says} (R92)." if says
                                        else "the tables are balanced (R92)."))
        if move.to_table != to:
            raise IllegalActionError(f"{name} moves to table {move.to_table + 1} (R92).")
        record = TournamentRecord(T.MOVE, now, player=name, table=move.from_table,
                                  to_table=move.to_table, after=move.after)
        tournament.apply(record)
        source, target = table_ids[move.from_table], table_ids[move.to_table]
        totals = self._table(db, source).totals
        stack = totals.stacks[totals.names.index(name)]
        self._table_records(db, [
            (source, {"type": "leave", "player": name}),
            (target, {"type": "seat", "player": name, "stack": stack, "after": move.after,
                      **({"back": True} if self._has_left(db, target, name) else {})})])
        return Outcome(self._append(db, tournament_id, record), (source, target))

    def _has_left(self, db: Connection, table_id: str, name: str) -> bool:
        key = same_name_key(name)
        return any(same_name_key(d.name) == key for d in self._table(db, table_id)
                   .totals.departed)

    def _chop(self, db: Connection, tournament_id: str, tournament: Tournament,
              table_ids: list[str], body: Mapping[str, Any], now: float) -> Outcome:
        try:
            method = ChopMethod(str(body.get("method")))
        except ValueError:
            raise InvalidActionError("A chop's method is chips or icm.") from None
        left = set(tournament.players_left())
        stacks: dict[str, int] = {}
        for number in tournament.tables_in_play():
            table = self._table(db, table_ids[number])
            if not table.deal_over:
                raise IllegalActionError("A chop is agreed between deals: finish the deal.")
            stacks.update((n, s) for n, s in zip(table.totals.names, table.totals.stacks,
                                                 strict=True) if n in left)
        prizes = tournament.prizes()
        figures = {m.value: chop(m, stacks, prizes, tournament.setup.unit) for m in ChopMethod}
        shown = {"method": method.value, "stacks": stacks, **figures}
        if body.get("agree") is not True:
            return Outcome(tournament, chop=shown)
        record = TournamentRecord(T.CHOP, now, method=method, stacks=tuple(stacks.items()),
                                  amounts=tuple(figures[method.value].items()))
        return Outcome(self._append(db, tournament_id, record), chop=shown)

    def _undo(self, db: Connection, tournament_id: str, tournament: Tournament,
              table_ids: list[str]) -> Outcome:
        """The last host's or dealer's record taken back, with the table records it made
        (each still its table's last: else undo there first)."""
        gone = tournament.records[tournament.last_undoable()]
        touched: list[str] = []
        if gone.type in (T.REBUY, T.ADD_ON, T.ENTER):
            number = gone.table if gone.type is T.ENTER else tournament.standing.table_of[
                gone.player or ""]
            touched = [table_ids[number or 0]]
        elif gone.type is T.MOVE:
            touched = [table_ids[gone.to_table or 0], table_ids[gone.table or 0]]
        for table_id in touched:
            table = self._table(db, table_id)
            last = table.between[-1] if table.between else None
            if last is None or (last.player or "") != gone.player:
                raise IllegalActionError(f"{gone.player}'s record is no longer the last at "
                                         f"{table.setup.name}: undo there first.")
        for table_id in touched:
            self.tables.act(db, table_id, {"type": "undo"})
        return Outcome(self._append(db, tournament_id, TournamentRecord(T.UNDO, self.now())),
                       tuple(touched))

    # ------------------------------------------------------------------ deleting
    def delete(self, db: Connection, tournament_id: str) -> Deleted | None:
        """The host's delete: the tournament, its records and its tables with all their
        rows, in one transaction (its money leaves the books and the season with them).
        Its name and the ids of the tables gone, or None if there is no such tournament."""
        with storage.write_transaction(db, key=f"tournament {tournament_id}"):
            row = storage.tournaments.tournament_row(db, tournament_id)
            if row is None:
                return None
            table_ids = tuple(storage.tournaments.tournament_tables(db, tournament_id))
            storage.tournaments.delete_tournament(db, tournament_id)
            for table_id in table_ids:
                delete_table_rows(db, table_id)
        with self._lock:
            self._cache.pop(tournament_id, None)
            for table_id in table_ids:
                self._links.pop(table_id, None)
        for table_id in table_ids:
            self.tables.forget(table_id)
        return Deleted(str(row.get("name") or ""), table_ids)

    # ------------------------------------------------------------------ the server
    def recover(self, db: Connection) -> list[str]:
        """At the server's start: every running clock takes the time the server was down
        as paused (R90). Returns the tournaments whose clock it held."""
        now, held = self.now(), list[str]()
        ids = storage.tournaments.tournament_ids(db)
        if not ids:
            return held  # nothing to write: a server with no tournament starts as before
        for tournament_id in ids:
            row = storage.tournaments.tournament_row(db, tournament_id)
            tournament = self.load(db, tournament_id)
            if row is None or tournament is None or not tournament.standing.clock.running:
                continue
            if tournament.finished():
                continue
            since = max(float(row["alive_at"]), tournament.standing.last_at)
            self._append(db, tournament_id, TournamentRecord(T.RESTART, now, since=since))
            held.append(tournament_id)
        self.mark_alive(db)
        return held

    def mark_alive(self, db: Connection) -> None:
        with storage.write_transaction(db):
            storage.tournaments.mark_alive(db, self.now())


def replay(db: Connection, tournament_id: str) -> Tournament | None:
    """The tournament its stored records replay to, or None."""
    row = storage.tournaments.tournament_row(db, tournament_id)
    if row is None:
        return None
    tournament = Tournament(TournamentSetup.from_json(CATALOGUE, json.loads(row["setup_json"])))
    for text in storage.tournaments.tournament_records(db, tournament_id):
        tournament = tournament.apply(TournamentRecord.from_json(json.loads(text)))
    return tournament


HOUSE = "The house"  # the fees' party in a tournament's settle-up


def books(tournament: Tournament) -> dict[str, Any]:
    """R94: the tournament's money per person (paid in: the buy-in, rebuys and add-on; won:
    the prize), the house's fees, and the fewest payments that square them (the host holds
    the money paid in; settle-up never counts a chip)."""
    money = tournament.money()
    fees = tournament.setup.fee * len(tournament.standing.entries)
    balances: dict[str, int] = {name: won - paid for name, (paid, won) in money.items()}
    balances[HOUSE] = fees + tournament.pool - sum(won for _, won in money.values())
    settled = settle({k: v for k, v in balances.items() if v})
    return {
        "people": [{"name": name, "paid_in": paid, "won": won, "net": won - paid}
                   for name, (paid, won) in money.items()],
        "house": fees, "held": balances[HOUSE] - fees,
        "settle_up": [{"from": t.payer, "to": t.payee, "amount": t.amount}
                      for t in settled.transfers]}


def read_type(body: Any) -> TournamentActionType:
    if not isinstance(body, dict):
        raise InvalidActionError('A tournament action is an object such as {"type": "pause"}.')
    kind = body.get("type")
    if kind not in ACTIONS:
        raise InvalidActionError(f"Unknown tournament action {str(kind)[:40]!r}: use one of "
                                 f"{', '.join(ACTIONS)}.")
    kind = TournamentActionType(kind)
    extra = sorted(set(body) - ACTION_FIELDS[kind] - {"type"})
    if extra:
        raise InvalidActionError(f"A {kind} has no field {extra[0][:40]!r}.")
    return kind


def read_player(body: Mapping[str, Any]) -> str:
    player = body.get("player")
    if not isinstance(player, str) or not player.strip() or len(player) > 64:
        raise InvalidActionError("Say which player (player), by name.")
    return player.strip()


def tournament_name(tournament: Tournament, player: str) -> str:
    key = same_name_key(player)
    name = next((n for n in tournament.standing.entries if same_name_key(n) == key), None)
    if name is None:
        raise IllegalActionError(f"There is no player called {player} in the tournament.")
    return name
