"""The SQLite file that keeps every table, deal and action record: a thin layer on sqlite-utils.

Nothing is ever rewritten: an accepted action is a new row in ``actions``; a table's state is
what replaying its records gives. Each deal has a row in ``deals`` holding the totals the deal
started from (``base_json``) and the seq of its ``start_deal`` record (``start_seq``), so that
bringing a table back costs one deal's replay, however old the table is.

Writes run in explicit ``BEGIN IMMEDIATE`` transactions (:func:`write_transaction`), so two
writers, in one process or in two, never both append at the same seq: the second waits for the
first's lock, then sees the first's record. ``UNIQUE(table_id, seq)`` stands behind that.

The schema is built by the migrations in :data:`MIGRATIONS`, run by :func:`migrate` on start;
a later issue adds a step by appending a function to that list.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from dealer_assist.core.actions import Action
from dealer_assist.core.deal import Totals
from dealer_assist.core.errors import StaleTableError as StaleTableError  # its old home
from dealer_assist.core.table import Table, TableSetup, describe

MAX_TABLE_ID = 64  # ids are 8 characters; anything much longer is no table
BUSY_TIMEOUT_SECONDS = 15.0  # how long a writer waits for another writer's lock


def now() -> str:
    """The time as stored: ISO 8601, UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


# --------------------------------------------------------------------------- connecting
def connect(path: str | Path) -> Database:
    """A connection to the database file at ``path`` (:func:`init_db` makes it first)."""
    return connect_with(sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS))


def connect_with(conn: sqlite3.Connection) -> Database:
    """``conn`` with the pragmas every connection of the app runs with."""
    db = Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    # WAL lets the phones' reads run beside the dealer's writes. synchronous=FULL: WAL with
    # NORMAL never loses a commit when the process dies (kill -9), but can lose the last few
    # on a power cut or an OS crash, which a laptop on battery at a card table may well meet.
    # FULL syncs the log on every commit: one fsync per dealer tap, a cost nobody notices,
    # and an acknowledged action is then on disk whatever stops the machine.
    db.execute("PRAGMA synchronous = FULL")
    return db


def is_full(err: BaseException) -> bool:
    """Whether a write failed because the file may not grow (disk full, or the database at
    its size cap): SQLITE_FULL."""
    return isinstance(err, sqlite3.OperationalError) and "full" in str(err).lower()


def size_bytes(db: Database) -> int:
    """The database file's size as SQLite counts it (pages in use, the free list included)."""
    pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    return pages * int(db.execute("PRAGMA page_size").fetchone()[0])


def sync_log(path: str | Path) -> None:
    """fsync the WAL file of the database at ``path``: the sync that ``synchronous=FULL``
    runs inside every ``COMMIT``, run later (:meth:`TableStore.act` with ``defer_sync``).
    No WAL file: the last connection closed, checkpointed it into the database and synced
    that."""
    try:
        fd = os.open(f"{path}-wal", os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class ConnectionPool:
    """Open connections to one file, lent to one request (or Socket.IO event) at a time.

    Closing the last open connection to a WAL database checkpoints the log into the file and
    deletes it (more fsyncs), and opening one costs a file open and two pragmas: a server
    that opened and closed a connection per request paid both on nearly every dealer tap
    (docs/benchmarks.md, "Action commit"). A connection is only ever used by the thread that
    borrowed it, until it is given back outside any transaction."""

    def __init__(self, path: str | Path, keep: int = 16, max_bytes: int | None = None) -> None:
        self.path = path
        self.keep = keep
        self.max_bytes = max_bytes  # SQLite itself refuses to grow the file past it
        self._idle: list[Database] = []
        self._lock = threading.Lock()

    def get(self) -> Database:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_SECONDS,
                               check_same_thread=False)
        db = connect_with(conn)
        if self.max_bytes:
            page = int(db.execute("PRAGMA page_size").fetchone()[0])
            db.execute(f"PRAGMA max_page_count = {max(1, self.max_bytes // page)}")
        return db

    def put(self, db: Database) -> None:
        if db.conn.in_transaction:
            db.conn.rollback()
        with self._lock:
            if len(self._idle) < self.keep:
                self._idle.append(db)
                return
        db.close()

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for db in idle:
            db.close()


def enable_wal(db: Database) -> None:
    """WAL mode is stored in the file: set once, when the database is made or opened first."""
    db.enable_wal()


@contextlib.contextmanager
def write_transaction(db: Database) -> Iterator[Database]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``: takes the write lock at once, so what is read
    inside is what the write goes onto; rolls back on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        db.rollback()
        raise


@contextlib.contextmanager
def read_transaction(db: Database) -> Iterator[Database]:
    """A consistent snapshot for several reads (WAL readers never block the writer)."""
    db.execute("BEGIN")
    try:
        yield db
    finally:
        db.rollback()


# --------------------------------------------------------------------------- schema
def _schema_1(db: Database) -> None:
    db.table("tables").create(
        {"id": str, "name": str, "variant": str, "setup_json": str, "token_hash": str,
         "created": str},
        pk="id", not_null={"name", "variant", "setup_json", "token_hash", "created"},
    )
    db.execute("""
        CREATE TABLE actions (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            deal_number INTEGER NOT NULL,
            record_json TEXT NOT NULL,
            created TEXT NOT NULL,
            UNIQUE (table_id, seq)
        )""")
    db.execute("""
        CREATE TABLE deals (
            table_id TEXT NOT NULL REFERENCES tables(id),
            number INTEGER NOT NULL,
            start_seq INTEGER NOT NULL,
            base_json TEXT NOT NULL,
            dealer TEXT,
            started TEXT NOT NULL,
            finished TEXT,
            result_json TEXT,
            kings_pot_after INTEGER,
            UNIQUE (table_id, number)
        )""")


def _schema_2(db: Database) -> None:
    """More than one dealer device (R75): a table's dealer tokens, each one valid until it is
    signed out, and the one pairing code a table may have open. The first token of each table
    made before this step comes over from ``tables.token_hash``. ``failures`` counts the wrong
    tries at the open code (``auth.CODE_TRIES`` end it). ``ON DELETE CASCADE``: a
    table that is deleted takes its tokens and code with it."""
    db.execute("""
        CREATE TABLE dealer_tokens (
            table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            token_hash TEXT NOT NULL,
            created TEXT NOT NULL,
            signed_out TEXT,
            UNIQUE (table_id, token_hash)
        )""")
    db.execute("INSERT INTO dealer_tokens (table_id, token_hash, created)"
               " SELECT id, token_hash, created FROM tables")
    db.execute("""
        CREATE TABLE pairing_codes (
            table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
            code_hash TEXT NOT NULL,
            expires REAL NOT NULL,
            failures INTEGER NOT NULL DEFAULT 0
        )""")


def _schema_3(db: Database) -> None:
    """Dealer's choice (R71): each deal keeps its own game; older deals are the table's.
    R74: a deal whose lone start_deal was undone keeps its row, marked ``taken_back``, until
    the next start_deal takes the number again."""
    db.execute("ALTER TABLE deals ADD COLUMN variant TEXT")
    db.execute("UPDATE deals SET variant = (SELECT variant FROM tables WHERE id = table_id)")
    db.execute("ALTER TABLE deals ADD COLUMN taken_back INTEGER")


MIGRATIONS: list[tuple[str, Callable[[Database], None]]] = [
    ("tables, actions and deals", _schema_1),
    ("dealer devices: tokens and pairing codes", _schema_2),
    ("each deal's game", _schema_3),
]


def schema_version(db: Database) -> int:
    if "schema_version" not in db.table_names():
        return 0
    row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(db: Database) -> int:
    """Bring the schema up to date, one transaction a step; returns the version. Safe when
    two processes start on one file at once: each step re-reads the version under the lock."""
    enable_wal(db)
    for version, (name, step) in enumerate(MIGRATIONS, start=1):
        with write_transaction(db):
            if "schema_version" not in db.table_names():
                db.execute(
                    "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                    " applied TEXT NOT NULL)"
                )
            if schema_version(db) >= version:
                continue
            step(db)
            db.execute("INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)",
                       [version, name, now()])
    return schema_version(db)


class DatabaseUnusable(Exception):
    """The database file cannot be served from: its sentence says why and what to do."""


def database_problem(path: str | Path) -> str | None:
    """Why the server cannot keep its tables in ``path`` (a sentence), or None: checked at
    start, so that an unreadable, read-only or damaged file is said at once instead of every
    request answering 500. ``PRAGMA quick_check`` reads the whole file once."""
    p = Path(path)
    if p.is_dir():
        return f"{p} is a folder, not a database file: give --db a file name."
    if not p.exists():
        folder = p.parent if p.parent.exists() else next(
            (a for a in p.parents if a.exists()), p.parent)
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"The database {p} cannot be made: the folder {folder} is read-only."
        return None
    if not os.access(p, os.R_OK):
        return f"The database {p} cannot be read: this user has no permission to read it."
    if not os.access(p, os.W_OK) or not os.access(p.parent, os.W_OK | os.X_OK):
        return (f"The database {p} is read-only (the file or its folder): the server must "
                "write every action to it. Give it write permission, or another --db.")
    try:
        conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True,
                               timeout=BUSY_TIMEOUT_SECONDS)
        try:
            checked = [row[0] for row in conn.execute("PRAGMA quick_check")]
        finally:
            conn.close()
    except sqlite3.DatabaseError as err:
        return (f"The database {p} is damaged or is not a database ({err}). Keep a copy, then "
                "start with another --db.")
    if checked != ["ok"]:
        return (f"The database {p} is damaged ({'; '.join(checked)[:200]}). Keep a copy, then "
                "start with another --db.")
    return None


def init_db(path: str | Path) -> None:
    """Make or update the database file at ``path``, and its folder."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = connect(path)
    try:
        migrate(db)
        ensure_imports(db)
    finally:
        db.close()


def ensure_imports(db: Database) -> None:
    """The tables that came from a file (issue 14): when they were imported, and the
    ``created`` the file claimed, kept beside the row whose ``created`` is the import's time.
    Its own table, made if missing, so that no schema step is needed for it."""
    if "imports" in db.table_names():  # read first: a start costs no write (and no fsync)
        return
    with write_transaction(db):
        db.execute("CREATE TABLE IF NOT EXISTS imports (table_id TEXT PRIMARY KEY "
                   "REFERENCES tables(id), imported TEXT NOT NULL, original_created TEXT)")


# --------------------------------------------------------------------------- tables
def insert_table(db: Database, table_id: str, setup: TableSetup, token_hash: str) -> None:
    with write_transaction(db):
        db.table("tables").insert({
            "id": table_id, "name": setup.name, "variant": setup.variant,
            "setup_json": json.dumps(setup.to_json()), "token_hash": token_hash,
            "created": now(),
        })
        insert_dealer_token(db, table_id, token_hash)


def insert_dealer_token(db: Database, table_id: str, token_hash: str) -> None:
    """A dealer token of the table (its hash), valid until signed out (``services.auth``)."""
    db.execute("INSERT INTO dealer_tokens (table_id, token_hash, created) VALUES (?, ?, ?)",
               [table_id, token_hash, now()])


def table_row(db: Database, table_id: str) -> dict[str, Any] | None:
    """The table's row (``token_hash`` included: never send it), or None."""
    if len(table_id) > MAX_TABLE_ID:
        return None
    rows = list(db.query(
        "SELECT t.*, i.imported AS imported_at, i.original_created FROM tables t "
        "LEFT JOIN imports i ON i.table_id = t.id WHERE t.id = ?", [table_id]))
    return rows[0] if rows else None


def list_tables(db: Database) -> list[dict[str, Any]]:
    """Every table, newest first: id, name, variant, created, the number of deals, and
    whether it was imported (``original_created``: the time the file claimed)."""
    return [{**row, "imported": row["imported"] is not None} for row in db.query("""
        SELECT t.id, t.name, t.variant, t.created, COUNT(d.number) AS deals,
               i.imported AS imported, i.original_created
        FROM tables t LEFT JOIN deals d ON d.table_id = t.id AND d.taken_back IS NULL
        LEFT JOIN imports i ON i.table_id = t.id
        GROUP BY t.id ORDER BY t.created DESC, t.rowid DESC""")]


def last_seq(db: Database, table_id: str) -> int:
    row = db.execute("SELECT MAX(seq) FROM actions WHERE table_id = ?", [table_id]).fetchone()
    return int(row[0] or 0)


def setup_of(row: dict[str, Any]) -> TableSetup:
    return TableSetup.from_json(json.loads(row["setup_json"]), stored=True)


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


def load_table(db: Database, setup: TableSetup, table_id: str) -> Table:
    """The table as its records leave it (:func:`replay_latest`). Call inside a
    transaction."""
    rows = [(start_seq, Totals.from_json(json.loads(base_json)))
            for start_seq, base_json in db.execute(
                "SELECT start_seq, base_json FROM deals WHERE table_id = ?"
                " AND taken_back IS NULL ORDER BY number DESC LIMIT 2", [table_id])]

    def records_since(seq: int) -> list[Action]:
        return [Action.from_json(json.loads(text)) for (text,) in db.execute(
            "SELECT record_json FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
            [table_id, seq])]

    return replay_latest(setup, rows, records_since)


def record_deal_number(before: Table, after: Table, action: Action) -> int:
    """The deal a record is stored under: the deal in play, or the one whose end it follows
    (0 before the first); an undo of a lone ``start_deal`` goes with that start (R74)."""
    if action.type == "undo" and before.lone_start:
        assert before.deal is not None
        return before.deal.totals.deal_number
    return after.deal.totals.deal_number if after.deal is not None else 0


def append_action(
    db: Database, table_id: str, before: Table, after: Table, action: Action
) -> None:
    """Store ``action``, which took ``before`` to ``after``, and bring the deal's row up to
    date. Call inside :func:`write_transaction`; raises :class:`StaleTableError` if the seq
    is taken."""
    assert after.seq == before.seq + 1
    stamp = now()
    number = record_deal_number(before, after, action)
    try:
        db.execute(
            "INSERT INTO actions (table_id, seq, deal_number, record_json, created)"
            " VALUES (?, ?, ?, ?, ?)",
            [table_id, after.seq, number, json.dumps(action.to_json()), stamp],
        )
        if action.type == "start_deal":
            db.execute(  # a number taken back (R74) is taken again by the next start
                "INSERT INTO deals (table_id, number, start_seq, base_json, started, variant)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, number) DO UPDATE SET"
                " start_seq = excluded.start_seq, base_json = excluded.base_json,"
                " started = excluded.started, variant = excluded.variant, dealer = NULL,"
                " finished = NULL, result_json = NULL, kings_pot_after = NULL,"
                " taken_back = NULL WHERE deals.taken_back = 1",
                [table_id, number, after.seq, json.dumps(before.totals.to_json()), stamp,
                 after.game.variant],
            )
    except sqlite3.IntegrityError as err:
        raise StaleTableError(str(err)) from None
    if action.type == "undo" and before.lone_start:
        # the deal never was (R74): its row is marked, its two records stay in the actions
        db.execute("UPDATE deals SET taken_back = 1 WHERE table_id = ? AND number = ?",
                   [table_id, number])
        return
    deal = after.deal
    if deal is None:
        return  # between deals before the first: no deal row to bring up to date
    kings = after.game.keeps_kings_pot
    db.execute(
        "UPDATE deals SET dealer = ?, result_json = ?,"
        " finished = CASE WHEN ? THEN COALESCE(finished, ?) ELSE NULL END,"
        " kings_pot_after = ? WHERE table_id = ? AND number = ?",
        [deal.players[deal.dealer].name,  # a draw for the blind (R51) may move it
         json.dumps(deal.result.to_json()) if deal.result is not None else None,
         after.deal_over, stamp, after.totals.kings_pot if kings else None, table_id, number],
    )


# --------------------------------------------------------------------------- history
def _deal_out(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "number": row["number"], "dealer": row["dealer"], "started": row["started"],
        "finished": row["finished"], "start_seq": row["start_seq"],
        "result": json.loads(row["result_json"]) if row["result_json"] else None,
        "kings_pot_after": row["kings_pot_after"], "variant": row.get("variant"),
        **({"taken_back": True} if row.get("taken_back") else {}),
    }


def list_deals(db: Database, table_id: str, *, taken_back: bool = True
               ) -> list[dict[str, Any]]:
    """The table's deals in order: number, dealer, started, finished, start_seq, result,
    kings_pot_after (None where the game has no king's pot) and variant; a deal whose start
    was undone (R74) is marked ``taken_back`` (left out when ``taken_back`` is False)."""
    where = "" if taken_back else " AND taken_back IS NULL"
    return [_deal_out(row) for row in db.query(
        f"SELECT * FROM deals WHERE table_id = ?{where} ORDER BY number", [table_id])]


def deal_base(db: Database, table_id: str, number: int) -> Totals | None:
    """The totals deal ``number`` started from (the ledger's starting point)."""
    row = db.execute("SELECT base_json FROM deals WHERE table_id = ? AND number = ?",
                     [table_id, number]).fetchone()
    return Totals.from_json(json.loads(row[0])) if row else None


def get_deal(db: Database, table_id: str, number: int) -> dict[str, Any] | None:
    """One deal as :func:`list_deals` gives it, with its records in order under ``actions``
    (each ``{"seq", "time", "action"}``, undo records included)."""
    rows = list(db.query("SELECT * FROM deals WHERE table_id = ? AND number = ?",
                         [table_id, number]))
    if not rows:
        return None
    out = _deal_out(rows[0])
    out["actions"] = [
        {"seq": r["seq"], "time": r["created"], "action": json.loads(r["record_json"])}
        for r in db.query(
            "SELECT seq, created, record_json FROM actions WHERE table_id = ? AND deal_number = ?"
            " ORDER BY seq", [table_id, number])
    ]
    return out


# --------------------------------------------------------------------------- the store
@dataclass(frozen=True)
class Accepted:
    """An action the table took: the record as stored and the table after it."""

    action: Action
    table: Table
    sync_owed: bool = False  # act(defer_sync=True): the caller owes sync_log


class TableStore:
    """Tables as their records leave them, with a per-process cache.

    The cache is only a shortcut: every use checks the cached seq against the database's
    (inside the write transaction when acting), so a process never acts on a state that
    another process has moved on.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: dict[str, Table] = {}
        self._setups: dict[str, TableSetup] = {}
        self._rows: dict[str, dict[str, Any]] = {}

    def row(self, db: Database, table_id: str) -> dict[str, Any] | None:
        """The table's row (:func:`table_row`), or None. A row never changes once written
        (nothing updates a table), so it is read once per process: every dealer
        tap checks the token against it. Only the host's delete removes one (:meth:`forget`)."""
        with self._lock:
            cached = self._rows.get(table_id)
        if cached is None:
            cached = table_row(db, table_id)
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

    def setup(self, db: Database, table_id: str) -> TableSetup | None:
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

    def _current(self, db: Database, table_id: str, setup: TableSetup) -> Table:
        """The table at the database's last seq; call inside a transaction."""
        seq = last_seq(db, table_id)
        with self._lock:
            cached = self._cache.get(table_id)
        if cached is not None and cached.seq == seq:
            return cached
        table = load_table(db, setup, table_id)
        if table.seq != seq:
            raise RuntimeError(f"Table {table_id}: replay reached seq {table.seq}, not {seq}.")
        self._remember(table_id, table)
        return table

    def _remember(self, table_id: str, table: Table) -> None:
        with self._lock:
            cached = self._cache.get(table_id)
            if cached is None or cached.seq <= table.seq:
                self._cache[table_id] = table.trimmed()  # a night is not all kept in memory

    def load(self, db: Database, table_id: str) -> Table | None:
        """The table now, or None if there is no such table."""
        setup = self.setup(db, table_id)
        if setup is None:
            return None
        with read_transaction(db):
            return self._current(db, table_id, setup)

    def act(
        self, db: Database, table_id: str, body: dict[str, Any],
        expect_seq: int | None = None, *, defer_sync: bool = False,
    ) -> Accepted:
        """Apply ``body`` to the table and store it before returning.

        Raises :class:`dealer_assist.core.errors.DealerAssistError` for a refusal (nothing stored),
        :class:`StaleTableError` when ``expect_seq`` is not the table's seq, and ``KeyError``
        for an unknown table.

        ``defer_sync=True``: commit without the fsync that ``synchronous=FULL`` does inside
        ``COMMIT``; the caller owes :func:`sync_log` before it answers (the server runs it
        after the broadcast, so phones do not wait on the disk, and before the dealer's
        answer, so an acknowledged action is on disk as with FULL; ``sync_owed`` says
        whether it is owed).
        """
        setup = self.setup(db, table_id)
        if setup is None:
            raise KeyError(table_id)
        level = db.execute("PRAGMA synchronous").fetchone()[0] if defer_sync else 0
        if level >= 2:  # FULL or EXTRA: the commit's fsync moves to sync_log
            db.execute("PRAGMA synchronous = NORMAL")
        try:
            accepted = self._act(db, table_id, setup, body, expect_seq)
        finally:
            if level >= 2:
                db.execute(f"PRAGMA synchronous = {level}")
        return Accepted(accepted.action, accepted.table, sync_owed=level >= 2)

    def _act(self, db: Database, table_id: str, setup: TableSetup, body: dict[str, Any],
             expect_seq: int | None) -> Accepted:
        for attempt in (1, 2):
            try:
                with write_transaction(db):
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
