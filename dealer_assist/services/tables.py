"""Acting on a table: a table as its stored records leave it, and a new action taken by the
rules and stored in one write transaction.

:mod:`dealer_assist.services.storage` keeps the rows; the rules (``Table.prepare`` and
``Table.apply``) are the core's. This module is what joins them: it replays the records
into a :class:`~dealer_assist.core.table.Table` (:func:`replay_latest`, also what
``services.history`` uses), and :meth:`TableStore.act` asks the table to take an action and
hands storage the rows it makes (:func:`record_row`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from dealer_assist.core.actions import Action
from dealer_assist.core.deal import PlayerStatus, Totals
from dealer_assist.core.errors import StaleTableError
from dealer_assist.core.table import Table, TableSetup, describe
from dealer_assist.games.registry import setup_from_json
from dealer_assist.services import storage
from dealer_assist.services.locks import native_lock
from dealer_assist.services.storage import Connection


def insert_table(db: Connection, table_id: str, setup: TableSetup, token_hash: str) -> None:
    """A new table with its first dealer token (its hash), in one transaction."""
    with storage.write_transaction(db):
        storage.insert_table_row(db, {
            "id": table_id, "name": setup.name, "variant": setup.variant,
            "setup_json": json.dumps(setup.to_json()), "token_hash": token_hash,
            "created": storage.now(),
        })


def setup_of(row: dict[str, Any]) -> TableSetup:
    return setup_from_json(json.loads(row["setup_json"]), stored=True)


def replay_latest(
    setup: TableSetup, rows: list[tuple[int, Totals]],
    records_since: Callable[[int], list[Action]],
) -> Table:
    """The table now, from the last deal's row (``rows``: the last two deals' start seqs and
    base totals, newest first): its base totals, then its records replayed (undo records
    included).

    Undo may reach back past a deal's start (R74). Where the table so replayed only stands
    for the table it should be (``Table.stale``: it does not know the deal before, or its
    between-deal records), it is replayed again with the records that still count (an undo
    takes back the last record that counts, at any depth: the stack of ``Table.undo``), from
    the same row and then from the one before, until it is whole (``Table.trimmed``)."""
    def row(i: int) -> tuple[int, Totals | None]:
        return rows[i] if i < len(rows) else (1, None)

    start_seq, base = row(0)
    table = Table.replay(setup, base, records_since(start_seq), seq=start_seq - 1)
    for i in range(len(rows) + 1):
        if not table.stale:
            break
        start_seq, base = row(i)
        records = records_since(start_seq)
        kept: list[Action] = []
        undone: Action | None = None
        for action in records:
            if action.type == "undo":
                undone = kept.pop()
            else:
                kept.append(action)
                undone = None
        table = Table.replay(setup, base, kept, seq=start_seq - 1)
        table.seq = start_seq - 1 + len(records)
        table.undone = describe(undone) if undone is not None else None
    return table


def load_table(db: Connection, setup: TableSetup, table_id: str) -> Table:
    """The table as its records leave it (:func:`replay_latest`). Call inside a
    transaction."""
    rows = [(seq, Totals.from_json(json.loads(base)))
            for seq, base in storage.latest_deal_starts(db, table_id)]

    def records_since(seq: int) -> list[Action]:
        return [Action.from_json(json.loads(text), setup.catalogue.place_fields)
                for text in storage.records_since(db, table_id, seq)]

    return replay_latest(setup, rows, records_since)


def record_deal_number(before: Table, after: Table, action: Action) -> int:
    """The deal a record is stored under: the deal in play, or the one whose end it follows
    (0 before the first); an undo of a lone ``start_deal`` goes with that start (R74)."""
    if action.type == "undo" and before.lone_start:
        assert before.deal is not None
        return before.deal.totals.deal_number
    return after.deal.totals.deal_number if after.deal is not None else 0


def record_row(table_id: str, before: Table, after: Table, action: Action) -> storage.RecordRow:
    """The rows storage keeps for ``action``, which took ``before`` to ``after``."""
    assert after.seq == before.seq + 1
    number = record_deal_number(before, after, action)
    start = (storage.DealStart(json.dumps(before.totals.to_json()), after.game.variant)
             if action.type == "start_deal" else None)
    taken_back = action.type == "undo" and before.lone_start
    now = None if taken_back else deal_now(after)
    return storage.RecordRow(table_id, after.seq, number, json.dumps(action.to_json()),
                             start=start, taken_back=taken_back, deal=now)


def deal_now(after: Table) -> storage.DealNow | None:
    """What the row of ``after``'s deal says (None before the first deal): once the deal is
    over, the totals after it and everyone dealt in with their payout, for the season."""
    deal = after.deal
    if deal is None:
        return None
    over = after.deal_over
    payouts = deal.result.payouts if deal.result is not None else {}
    return storage.DealNow(
        dealer=deal.players[deal.dealer].name,  # a draw for the blind (R51) may move it
        result_json=json.dumps(deal.result.to_json()) if deal.result is not None else None,
        over=over,
        carried_after=json.dumps({pot.key: after.totals.carried.get(pot.key, 0)
                                  for pot in after.game.carried_pots}),
        after_json=json.dumps(after.totals.to_json()) if over else None,
        people_json=json.dumps({p.name: payouts.get(p.name, 0) for p in deal.players
                                if p.status is not PlayerStatus.OUT}) if over else None)


def append_action(db: Connection, table_id: str, before: Table, after: Table,
                  action: Action) -> None:
    """Store ``action`` (:func:`record_row`); call inside ``storage.write_transaction``."""
    storage.append_record(db, record_row(table_id, before, after, action))


T = TypeVar("T")


class BlockingRunner(Protocol):
    """How the store runs its blocking work (a write transaction and its COMMIT, a replay):
    directly, or (the server under gevent: web/off_loop.py) in a native thread."""

    def __call__(self, fn: Callable[..., T], /, *args: Any) -> T: ...


def call_directly(fn: Callable[..., T], /, *args: Any) -> T:
    return fn(*args)


@dataclass(frozen=True)
class Accepted:
    """An action the table took: the record as stored and the table after it."""

    action: Action
    table: Table
    sync_owed: bool = False  # act(defer_sync=True): the caller owes storage.sync_log


class TableStore:
    """Tables as their records leave them, with a per-process cache.

    The cache is only a shortcut: every use checks the cached seq against the database's
    (inside the write transaction when acting), so a process never acts on a state that
    another process has moved on.
    """

    def __init__(self, run_blocking: BlockingRunner = call_directly) -> None:
        self.run_blocking = run_blocking
        self._lock = native_lock()  # loop and native threads alike (services/locks.py)
        self._cache: dict[str, Table] = {}
        self._setups: dict[str, TableSetup] = {}
        self._rows: dict[str, dict[str, Any]] = {}

    def row(self, db: Connection, table_id: str) -> dict[str, Any] | None:
        """The table's row (``storage.table_row``), or None. A row never changes once
        written (nothing updates a table), so it is read once per process: every dealer
        tap checks the token against it. Only the host's delete removes one (:meth:`forget`)."""
        with self._lock:
            cached = self._rows.get(table_id)
        if cached is None:
            cached = storage.table_row(db, table_id)
            if cached is None:
                return None  # unknown ids are not kept: guessing cannot grow the cache
            with self._lock:
                self._rows[table_id] = cached
        return dict(cached)

    def forget(self, table_id: str) -> None:
        """Drop what this process keeps of a deleted table (the host's ``DELETE``)."""
        with self._lock:
            self._rows.pop(table_id, None)
            self._setups.pop(table_id, None)
            self._cache.pop(table_id, None)

    def setup(self, db: Connection, table_id: str) -> TableSetup | None:
        with self._lock:
            cached = self._setups.get(table_id)
        if cached is not None:
            return cached
        row = self.row(db, table_id)
        if row is None:
            return None
        setup = setup_of(row)
        with self._lock:
            self._setups[table_id] = setup
        return setup

    def _current(self, db: Connection, table_id: str, setup: TableSetup) -> Table:
        """The table at the database's last seq; call inside a transaction."""
        seq = storage.last_seq(db, table_id)
        with self._lock:
            cached = self._cache.get(table_id)
        if cached is not None and cached.seq == seq:
            return cached
        table = self.run_blocking(load_table, db, setup, table_id)
        if table.seq != seq:
            raise RuntimeError(f"Table {table_id}: replay reached seq {table.seq}, not {seq}.")
        self._remember(table_id, table)
        return table

    def _remember(self, table_id: str, table: Table) -> None:
        with self._lock:
            cached = self._cache.get(table_id)
            if cached is None or cached.seq <= table.seq:
                self._cache[table_id] = table.trimmed()  # a night is not all kept in memory

    def load(self, db: Connection, table_id: str) -> Table | None:
        """The table now, or None if there is no such table."""
        setup = self.setup(db, table_id)
        if setup is None:
            return None
        with storage.read_transaction(db):
            return self._current(db, table_id, setup)

    def act(
        self, db: Connection, table_id: str, body: dict[str, Any],
        expect_seq: int | None = None, *, defer_sync: bool = False,
    ) -> Accepted:
        """Apply ``body`` to the table and store it before returning.

        Raises :class:`dealer_assist.core.errors.DealerAssistError` for a refusal (nothing stored),
        :class:`StaleTableError` when ``expect_seq`` is not the table's seq, and ``KeyError``
        for an unknown table.

        ``defer_sync=True``: on SQLite, commit without the fsync that ``synchronous=FULL``
        does inside ``COMMIT``; the caller owes ``storage.sync_log`` before it answers (the
        server runs it after the broadcast, so phones do not wait on the disk, and before
        the dealer's answer, so an acknowledged action is on disk as with FULL;
        ``sync_owed`` says whether it is owed). PostgreSQL's commit is durable as it returns.
        """
        setup = self.setup(db, table_id)
        if setup is None:
            raise KeyError(table_id)
        return self.run_blocking(self._act_deferred, db, table_id, setup, body, expect_seq,
                                 defer_sync)

    def _act_deferred(self, db: Connection, table_id: str, setup: TableSetup,
                      body: dict[str, Any], expect_seq: int | None,
                      defer_sync: bool) -> Accepted:
        with db.deferred_sync(defer_sync) as owed:
            accepted = self._act(db, table_id, setup, body, expect_seq)
        return Accepted(accepted.action, accepted.table, sync_owed=owed)

    def _act(self, db: Connection, table_id: str, setup: TableSetup, body: dict[str, Any],
             expect_seq: int | None) -> Accepted:
        for attempt in (1, 2):
            try:
                with storage.write_transaction(db, key=table_id):
                    before = self._current(db, table_id, setup)
                    if expect_seq is not None and before.seq != expect_seq:
                        raise StaleTableError(
                            f"The table has moved on: it is at seq {before.seq}, not "
                            f"{expect_seq}. Look at the table again and retry."
                        )
                    action = before.prepare(body)
                    after = before.apply(action)
                    append_action(db, table_id, before, after, action)
                    if after.stale:
                        after = load_table(db, setup, table_id)  # see replay_latest
            except StaleTableError:
                if expect_seq is not None or attempt == 2:
                    raise
                continue  # another writer took the seq: read again and retry once
            self._remember(table_id, after)
            return Accepted(action, after)
        raise AssertionError("unreachable")
