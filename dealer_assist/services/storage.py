"""Where every table, deal and action record is kept: rows and transactions, on SQLite (a
file, the default) or on PostgreSQL (a ``postgresql://`` URL). Nothing here knows a rule of
the game: acting on a table is :mod:`dealer_assist.services.tables`.

Nothing is ever rewritten: an accepted action is a new row in ``actions``; a table's state is
what replaying its records gives. Each deal has a row in ``deals`` holding the totals the deal
started from (``base_json``) and the seq of its ``start_deal`` record (``start_seq``), so that
bringing a table back costs one deal's replay, however old the table is.

Writes run in :func:`write_transaction`, which serializes the writers of one table, in one
process or in several: on SQLite ``BEGIN IMMEDIATE`` (the file's one write lock), on
PostgreSQL a transaction that first takes an advisory lock on the table's id. The second
writer waits, then reads the first's record. ``UNIQUE(table_id, seq)`` stands behind that.

Both engines speak through one :class:`Connection`: ``?`` placeholders, rows as tuples from
:meth:`Connection.execute` and as dicts from :meth:`Connection.query`, and this module's
errors (:class:`StorageFull`, :class:`StorageUnavailable`, :class:`DuplicateRow`) for theirs,
so that nothing above imports ``sqlite3`` or ``psycopg``.

The schema is built by the migrations in :data:`MIGRATIONS`, run by :func:`migrate` on start;
a later issue adds a step by appending a function to that list.
"""

from __future__ import annotations

import abc
import contextlib
import enum
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from dealer_assist.core.errors import StaleTableError

MAX_TABLE_ID = 64  # ids are 8 characters; anything much longer is no table
BUSY_TIMEOUT_SECONDS = 15.0  # how long a writer waits for another writer's lock
URL_SCHEMES = ("postgresql://", "postgres://")


def now() -> str:
    """The time as stored: ISO 8601, UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


# --------------------------------------------------------------------------- errors
class StorageError(Exception):
    """The database failed a statement; the sentence says what it was told."""


class StorageFull(StorageError):
    """The database may not grow (the disk full, or the SQLite file at its size cap)."""


class StorageUnavailable(StorageError):
    """The database cannot be reached or used now (the server gone, a lock held too long,
    a damaged or read-only file)."""


class DuplicateRow(StorageError):
    """A row broke a UNIQUE or PRIMARY KEY constraint (e.g. a second record at one seq)."""


class DatabaseUnusable(Exception):
    """The database cannot be served from: its sentence says why and what to do."""


# --------------------------------------------------------------------------- engines
class Engine(enum.Enum):
    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


def engine_of(target: str | Path) -> Engine:
    """PostgreSQL for a ``postgresql://`` (or ``postgres://``) URL; anything else is a file."""
    return Engine.POSTGRESQL if is_url(target) else Engine.SQLITE


def is_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.lower().startswith(URL_SCHEMES)


def shown_target(target: str | Path) -> str:
    """``target`` as a banner may print it: a URL without its password."""
    if not is_url(target):
        return str(target)
    parts = urlsplit(str(target))
    if parts.password is not None:
        user = parts.username or ""
        host = parts.netloc.rsplit("@", 1)[1]
        parts = parts._replace(netloc=f"{user}:***@{host}")
    return urlunsplit(parts)


class Cursor(Protocol):
    """What :meth:`Connection.execute` gives: rows as tuples."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(abc.ABC):
    """One connection of either engine. SQL is written once with ``?`` placeholders; each
    engine's own types are only in the schema's DDL (:meth:`ddl`)."""

    engine: Engine

    @abc.abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...

    @abc.abstractmethod
    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abc.abstractmethod
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]: ...

    @abc.abstractmethod
    def table_names(self) -> list[str]: ...

    @abc.abstractmethod
    def columns(self, table: str) -> list[str]:
        """The column names of ``table``, in order."""

    @abc.abstractmethod
    def begin_write(self, key: str | None) -> None: ...

    @abc.abstractmethod
    def begin_read(self) -> None: ...

    @abc.abstractmethod
    def commit(self) -> None: ...

    @abc.abstractmethod
    def rollback(self) -> None: ...

    @property
    @abc.abstractmethod
    def in_transaction(self) -> bool: ...

    @property
    def usable(self) -> bool:
        """Whether a pool may lend it again (a PostgreSQL connection may have broken)."""
        return True

    @abc.abstractmethod
    def close(self) -> None: ...

    @abc.abstractmethod
    def size_bytes(self) -> int:
        """The database's size on disk, as the engine counts it."""

    def ddl(self, sql: str) -> str:
        """``sql`` (DDL written for SQLite) in this engine's types."""
        return sql.replace("{rowid}", "")

    def prepare(self) -> None:  # noqa: B027 (most engines set nothing)
        """What the engine sets once on a new database (SQLite: WAL)."""

    @contextlib.contextmanager
    def deferred_sync(self, defer: bool) -> Iterator[bool]:
        """Commits inside skip their fsync if ``defer`` and the engine can: yields whether
        the caller then owes :func:`sync_log` (SQLite with ``synchronous=FULL``)."""
        yield False

    @contextlib.contextmanager
    def migration_lock(self) -> Iterator[None]:
        """Held while :func:`migrate` runs, so that two processes starting at once do not
        both build the schema."""
        yield


def insert(db: Connection, table: str, row: dict[str, Any]) -> None:
    """One row, its keys the columns."""
    insert_all(db, table, [row])


def insert_all(db: Connection, table: str, rows: list[dict[str, Any]]) -> None:
    """Rows that all have the same keys (the first row's)."""
    if not rows:
        return
    names = list(rows[0])
    db.executemany(
        f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
        [[row[name] for name in names] for row in rows])


# --------------------------------------------------------------------------- SQLite
def _sqlite_error(err: sqlite3.Error) -> StorageError:
    text = str(err)
    if isinstance(err, sqlite3.IntegrityError):
        return DuplicateRow(text)
    if isinstance(err, sqlite3.OperationalError) and "full" in text.lower():
        return StorageFull(text)
    return StorageUnavailable(text)


class SQLiteConnection(Connection):
    """A connection to a SQLite file, in autocommit mode: transactions are explicit."""

    engine = Engine.SQLITE

    def __init__(self, conn: sqlite3.Connection, path: str | Path) -> None:
        conn.isolation_level = None
        self.conn = conn
        self.path = path

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        try:
            return self.conn.execute(sql, params)
        except sqlite3.DatabaseError as err:
            if isinstance(err, sqlite3.ProgrammingError):
                raise
            raise _sqlite_error(err) from err

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self.conn.executemany(sql, rows)
        except (sqlite3.OperationalError, sqlite3.IntegrityError) as err:
            raise _sqlite_error(err) from err

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.execute(sql, params)
        names = [d[0] for d in cursor.description]  # type: ignore[attr-defined]
        return [dict(zip(names, row, strict=True)) for row in cursor]

    def table_names(self) -> list[str]:
        return [name for (name,) in self.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]

    def columns(self, table: str) -> list[str]:
        return [row[1] for row in self.execute(f'PRAGMA table_info("{table}")')]

    def begin_write(self, key: str | None) -> None:
        self.execute("BEGIN IMMEDIATE")  # the file's one write lock, whatever the table

    def begin_read(self) -> None:
        self.execute("BEGIN")

    def commit(self) -> None:
        self.execute("COMMIT")

    def rollback(self) -> None:
        self.conn.rollback()

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    def close(self) -> None:
        self.conn.close()

    def size_bytes(self) -> int:
        pages = int(self.execute("PRAGMA page_count").fetchone()[0])
        return pages * int(self.execute("PRAGMA page_size").fetchone()[0])

    def prepare(self) -> None:
        """WAL mode is stored in the file: set once, when the database is made or opened."""
        self.execute("PRAGMA journal_mode = wal")

    @contextlib.contextmanager
    def deferred_sync(self, defer: bool) -> Iterator[bool]:
        level = int(self.execute("PRAGMA synchronous").fetchone()[0]) if defer else 0
        if level >= 2:  # FULL or EXTRA: the commit's fsync moves to sync_log
            self.execute("PRAGMA synchronous = NORMAL")
        try:
            yield level >= 2
        finally:
            if level >= 2:
                self.execute(f"PRAGMA synchronous = {level}")


def connect_with(conn: sqlite3.Connection, path: str | Path = "") -> SQLiteConnection:
    """``conn`` with the pragmas every connection of the app runs with."""
    db = SQLiteConnection(conn, path)
    db.execute("PRAGMA foreign_keys = ON")
    # WAL lets the phones' reads run beside the dealer's writes. synchronous=FULL: WAL with
    # NORMAL never loses a commit when the process dies (kill -9), but can lose the last few
    # on a power cut or an OS crash, which a laptop on battery at a card table may well meet.
    # FULL syncs the log on every commit: one fsync per dealer tap, a cost nobody notices,
    # and an acknowledged action is then on disk whatever stops the machine.
    db.execute("PRAGMA synchronous = FULL")
    return db


def sync_log(path: str | Path) -> None:
    """fsync the WAL file of the database at ``path``: the sync that ``synchronous=FULL``
    runs inside every ``COMMIT``, run later (``TableStore.act`` with ``defer_sync``).
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


# --------------------------------------------------------------------------- PostgreSQL
WRITERS_KEY = "dealer-assist: writers of no one table"  # new tables, imports, small DDL
MIGRATION_KEY = "dealer-assist: migrations"


def advisory_key(key: str) -> int:
    """A stable signed 64-bit number for ``key`` (the same in every process)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big",
                          signed=True)


def _postgres_error(err: Exception) -> StorageError:
    import psycopg

    text = str(err).strip()
    if isinstance(err, psycopg.errors.IntegrityError):
        return DuplicateRow(text)
    if isinstance(err, psycopg.errors.DiskFull | psycopg.errors.InsufficientResources):
        return StorageFull(text)
    return StorageUnavailable(text)


def _placeholders(sql: str, cache: dict[str, str] = {}) -> str:  # noqa: B006 (a cache)
    """``?`` (both engines' SQL here) as psycopg's ``%s``; a literal ``%`` doubled."""
    found = cache.get(sql)
    if found is None:
        found = cache[sql] = sql.replace("%", "%%").replace("?", "%s")
    return found


class PostgresConnection(Connection):
    """A psycopg 3 connection in autocommit mode: transactions are explicit, writers of one
    table serialized by an advisory lock on its id (``pg_advisory_xact_lock``)."""

    engine = Engine.POSTGRESQL

    def __init__(self, url: str) -> None:
        import psycopg

        self._psycopg = psycopg
        self._errors = (psycopg.errors.IntegrityError, psycopg.OperationalError,
                        psycopg.errors.DiskFull, psycopg.errors.InsufficientResources,
                        psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled)
        try:
            self.conn = psycopg.connect(url, autocommit=True, connect_timeout=10)
        except psycopg.Error as err:
            raise _postgres_error(err) from err
        # as SQLite's busy timeout: a writer waits this long for another's lock
        self.execute(f"SET lock_timeout = '{int(BUSY_TIMEOUT_SECONDS * 1000)}ms'")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        try:
            if params:
                return self.conn.execute(_placeholders(sql), list(params))
            return self.conn.execute(sql)
        except self._errors as err:
            raise _postgres_error(err) from err

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            with self.conn.cursor() as cursor:
                cursor.executemany(_placeholders(sql), [list(r) for r in rows])
        except self._errors as err:
            raise _postgres_error(err) from err

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        from psycopg.rows import dict_row

        try:
            with self.conn.cursor(row_factory=dict_row) as cursor:
                cursor.execute(_placeholders(sql) if params else sql,
                               list(params) if params else None)
                return cursor.fetchall()
        except self._errors as err:
            raise _postgres_error(err) from err

    def table_names(self) -> list[str]:
        return [name for (name,) in self.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")]

    def columns(self, table: str) -> list[str]:
        return [name for (name,) in self.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema ="
            " current_schema() AND table_name = ? ORDER BY ordinal_position", [table])]

    def begin_write(self, key: str | None) -> None:
        self.execute("BEGIN")
        # READ COMMITTED: every statement after the lock sees what the last holder committed
        self.execute("SELECT pg_advisory_xact_lock(?)", [advisory_key(key or WRITERS_KEY)])

    def begin_read(self) -> None:
        self.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def commit(self) -> None:
        self.execute("COMMIT")

    def rollback(self) -> None:
        if self.in_transaction and not self.conn.closed:
            try:
                self.conn.rollback()
            except self._psycopg.Error:
                self.conn.close()  # broken: the pool drops it

    @property
    def in_transaction(self) -> bool:
        status = self.conn.info.transaction_status
        return bool(status != self._psycopg.pq.TransactionStatus.IDLE)

    @property
    def usable(self) -> bool:
        return not (self.conn.closed or self.conn.broken)

    def close(self) -> None:
        self.conn.close()

    def size_bytes(self) -> int:
        return int(self.execute("SELECT pg_database_size(current_database())").fetchone()[0])

    def ddl(self, sql: str) -> str:
        # REAL is 4 bytes in PostgreSQL (a time in seconds would lose its minutes); rowid is
        # SQLite's own ordering column, given here as a serial one under the same name
        return (sql.replace(" REAL", " DOUBLE PRECISION").replace(" INTEGER", " BIGINT")
                .replace("{rowid}", "rowid BIGSERIAL NOT NULL,"))

    @contextlib.contextmanager
    def migration_lock(self) -> Iterator[None]:
        self.execute("SELECT pg_advisory_lock(?)", [advisory_key(MIGRATION_KEY)])
        try:
            yield
        finally:
            self.execute("SELECT pg_advisory_unlock(?)", [advisory_key(MIGRATION_KEY)])


# --------------------------------------------------------------------------- connecting
def connect(target: str | Path) -> Connection:
    """A connection to the database at ``target``, a file or a ``postgresql://`` URL
    (:func:`init_db` makes it first)."""
    if is_url(target):
        return PostgresConnection(str(target))
    try:
        conn = sqlite3.connect(str(target), timeout=BUSY_TIMEOUT_SECONDS,
                               check_same_thread=False)
    except sqlite3.Error as err:
        raise _sqlite_error(err) from err
    return connect_with(conn, target)


class ConnectionPool:
    """Open connections to one database, lent to one request (or Socket.IO event) at a time.

    Closing the last open connection to a WAL database checkpoints the log into the file and
    deletes it (more fsyncs), and opening one costs a file open and two pragmas (a
    PostgreSQL one, a login): a server that opened and closed a connection per request paid
    both on nearly every dealer tap (docs/benchmarks.md, "Action commit"). A connection is
    only ever used by the thread that borrowed it, until it is given back outside any
    transaction."""

    def __init__(self, target: str | Path, keep: int = 16, max_bytes: int | None = None) -> None:
        self.path = target
        self.keep = keep
        self.max_bytes = max_bytes  # SQLite itself refuses to grow the file past it
        self._idle: list[Connection] = []
        self._lock = threading.Lock()

    def get(self) -> Connection:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        db = connect(self.path)
        if self.max_bytes and db.engine is Engine.SQLITE:
            page = int(db.execute("PRAGMA page_size").fetchone()[0])
            db.execute(f"PRAGMA max_page_count = {max(1, self.max_bytes // page)}")
        return db

    def put(self, db: Connection) -> None:
        if db.in_transaction:
            db.rollback()
        if db.usable:
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


def size_bytes(db: Connection) -> int:
    return db.size_bytes()


@contextlib.contextmanager
def write_transaction(db: Connection, key: str | None = None) -> Iterator[Connection]:
    """One write transaction: what is read inside is what the write goes onto; rolls back on
    any error. ``key`` (a table's id) is what it writes: writers of one key wait for each
    other (on SQLite every writer waits for every other)."""
    db.begin_write(key)
    try:
        yield db
        db.commit()
    except BaseException:
        db.rollback()
        raise


@contextlib.contextmanager
def read_transaction(db: Connection) -> Iterator[Connection]:
    """A consistent snapshot for several reads (readers never block the writer)."""
    db.begin_read()
    try:
        yield db
    finally:
        db.rollback()


# --------------------------------------------------------------------------- schema
def _schema_1(db: Connection) -> None:
    db.execute(db.ddl("""
        CREATE TABLE tables (
            {rowid}
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            variant TEXT NOT NULL,
            setup_json TEXT NOT NULL,
            token_hash TEXT NOT NULL,
            created TEXT NOT NULL
        )"""))
    db.execute(db.ddl("""
        CREATE TABLE actions (
            table_id TEXT NOT NULL REFERENCES tables(id),
            seq INTEGER NOT NULL,
            deal_number INTEGER NOT NULL,
            record_json TEXT NOT NULL,
            created TEXT NOT NULL,
            UNIQUE (table_id, seq)
        )"""))
    db.execute(db.ddl("""
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
        )"""))


def _schema_2(db: Connection) -> None:
    """More than one dealer device (R75): a table's dealer tokens, each one valid until it is
    signed out, and the one pairing code a table may have open. The first token of each table
    made before this step comes over from ``tables.token_hash``. ``failures`` counts the wrong
    tries at the open code (``auth.CODE_TRIES`` end it). ``ON DELETE CASCADE``: a
    table that is deleted takes its tokens and code with it. A token's id is its ``rowid``
    (PostgreSQL: a serial column of that name)."""
    db.execute(db.ddl("""
        CREATE TABLE dealer_tokens (
            {rowid}
            table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            token_hash TEXT NOT NULL,
            created TEXT NOT NULL,
            signed_out TEXT,
            UNIQUE (table_id, token_hash)
        )"""))
    db.execute("INSERT INTO dealer_tokens (table_id, token_hash, created)"
               " SELECT id, token_hash, created FROM tables")
    db.execute(db.ddl("""
        CREATE TABLE pairing_codes (
            table_id TEXT PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
            code_hash TEXT NOT NULL,
            expires REAL NOT NULL,
            failures INTEGER NOT NULL DEFAULT 0
        )"""))


def _schema_3(db: Connection) -> None:
    """Dealer's choice (R71): each deal keeps its own game; older deals are the table's.
    R74: a deal whose lone start_deal was undone keeps its row, marked ``taken_back``, until
    the next start_deal takes the number again."""
    db.execute("ALTER TABLE deals ADD COLUMN variant TEXT")
    db.execute("UPDATE deals SET variant = (SELECT variant FROM tables WHERE id = table_id)")
    db.execute(db.ddl("ALTER TABLE deals ADD COLUMN taken_back INTEGER"))


MIGRATIONS: list[tuple[str, Callable[[Connection], None]]] = [
    ("tables, actions and deals", _schema_1),
    ("dealer devices: tokens and pairing codes", _schema_2),
    ("each deal's game", _schema_3),
]


def schema_version(db: Connection) -> int:
    if "schema_version" not in db.table_names():
        return 0
    row = db.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return int(row[0] or 0)


def migrate(db: Connection) -> int:
    """Bring the schema up to date, one transaction a step; returns the version. Safe when
    two processes start on one database at once: each step re-reads the version under the
    write lock (PostgreSQL: under an advisory lock held for the whole migration too)."""
    db.prepare()
    with db.migration_lock():
        for version, (name, step) in enumerate(MIGRATIONS, start=1):
            with write_transaction(db):
                if "schema_version" not in db.table_names():
                    db.execute(db.ddl(
                        "CREATE TABLE schema_version (version INTEGER PRIMARY KEY,"
                        " name TEXT NOT NULL, applied TEXT NOT NULL)"))
                if schema_version(db) >= version:
                    continue
                step(db)
                db.execute("INSERT INTO schema_version (version, name, applied) VALUES (?, ?, ?)",
                           [version, name, now()])
        return schema_version(db)


def database_problem(target: str | Path) -> str | None:
    """Why the server cannot keep its tables in ``target`` (a sentence), or None: checked at
    start, so that an unreadable, read-only or damaged file, or a PostgreSQL server that does
    not answer or refuses the login, is said at once instead of every request answering 500.
    ``PRAGMA quick_check`` reads the whole file once."""
    if is_url(target):
        return _server_problem(str(target))
    p = Path(target)
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


def _server_problem(url: str) -> str | None:
    shown = shown_target(url)
    try:
        import psycopg  # noqa: F401 (only a URL needs it)
    except ImportError:
        return (f"--db {shown} needs PostgreSQL's driver: "
                "pip install \"dealer-assist[postgres]\".")
    try:
        db = connect(url)
    except StorageError as err:
        reason = " ".join(str(err).split())[:300]
        return (f"The PostgreSQL database {shown} cannot be used ({reason}). Check that the "
                "server runs, the database exists and the user may log in, or give another "
                "--db.")
    db.close()
    return None


def init_db(target: str | Path) -> None:
    """Make or update the database at ``target`` (a file and its folder, or a PostgreSQL
    database's tables)."""
    if not is_url(target):
        Path(target).parent.mkdir(parents=True, exist_ok=True)
    db = connect(target)
    try:
        migrate(db)
        ensure_imports(db)
    finally:
        db.close()


def ensure_imports(db: Connection) -> None:
    """The tables that came from a file (issue 14): when they were imported, and the
    ``created`` the file claimed, kept beside the row whose ``created`` is the import's time.
    Its own table, made if missing, so that no schema step is needed for it."""
    if "imports" in db.table_names():  # read first: a start costs no write (and no fsync)
        return
    with write_transaction(db):
        db.execute("CREATE TABLE IF NOT EXISTS imports (table_id TEXT PRIMARY KEY "
                   "REFERENCES tables(id), imported TEXT NOT NULL, original_created TEXT)")


# --------------------------------------------------------------------------- tables
def insert_table_row(db: Connection, row: dict[str, Any]) -> None:
    """A new table's row and its first dealer token; call inside :func:`write_transaction`."""
    insert(db, "tables", row)
    insert_dealer_token(db, row["id"], row["token_hash"])


def insert_dealer_token(db: Connection, table_id: str, token_hash: str) -> int:
    """A dealer token of the table (its hash), valid until signed out (``services.auth``);
    its id."""
    row = db.execute("INSERT INTO dealer_tokens (table_id, token_hash, created) VALUES (?, ?, ?)"
                     " RETURNING rowid", [table_id, token_hash, now()]).fetchone()
    return int(row[0])


def table_row(db: Connection, table_id: str) -> dict[str, Any] | None:
    """The table's row (``token_hash`` included: never send it), or None."""
    if len(table_id) > MAX_TABLE_ID:
        return None
    rows = db.query(
        "SELECT t.id, t.name, t.variant, t.setup_json, t.token_hash, t.created,"
        " i.imported AS imported_at, i.original_created FROM tables t "
        "LEFT JOIN imports i ON i.table_id = t.id WHERE t.id = ?", [table_id])
    return rows[0] if rows else None


def list_tables(db: Connection) -> list[dict[str, Any]]:
    """Every table, newest first: id, name, variant, created, the number of deals, and
    whether it was imported (``original_created``: the time the file claimed)."""
    return [{**row, "imported": row["imported"] is not None} for row in db.query("""
        SELECT t.id, t.name, t.variant, t.created, COUNT(d.number) AS deals,
               i.imported AS imported, i.original_created
        FROM tables t LEFT JOIN deals d ON d.table_id = t.id AND d.taken_back IS NULL
        LEFT JOIN imports i ON i.table_id = t.id
        GROUP BY t.id, i.imported, i.original_created
        ORDER BY t.created DESC, t.rowid DESC""")]


def last_seq(db: Connection, table_id: str) -> int:
    row = db.execute("SELECT MAX(seq) FROM actions WHERE table_id = ?", [table_id]).fetchone()
    return int(row[0] or 0)


def latest_deal_starts(db: Connection, table_id: str) -> list[tuple[int, str]]:
    """The last two deals that count, newest first: each start seq and base totals' JSON."""
    return [(int(seq), str(base)) for seq, base in db.execute(
        "SELECT start_seq, base_json FROM deals WHERE table_id = ?"
        " AND taken_back IS NULL ORDER BY number DESC LIMIT 2", [table_id])]


def records_since(db: Connection, table_id: str, seq: int) -> list[str]:
    """The JSON of the table's records from ``seq`` on, in order."""
    return [str(text) for (text,) in db.execute(
        "SELECT record_json FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
        [table_id, seq])]


@dataclass(frozen=True)
class DealStart:
    """A ``start_deal`` record's deal row: the totals it starts from and its game."""

    base_json: str
    variant: str


@dataclass(frozen=True)
class DealNow:
    """What a deal's row says after a record."""

    dealer: str
    result_json: str | None
    over: bool
    kings_pot_after: int | None


@dataclass(frozen=True)
class RecordRow:
    """One record to append, and what it does to its deal's row: starts it (``start``),
    takes it back (``taken_back``, R74), or brings it up to date (``deal``)."""

    table_id: str
    seq: int
    deal_number: int
    record_json: str
    start: DealStart | None = None
    taken_back: bool = False
    deal: DealNow | None = None


def append_record(db: Connection, record: RecordRow) -> None:
    """Store ``record`` and bring its deal's row up to date. Call inside
    :func:`write_transaction`; raises :class:`StaleTableError` if the seq is taken."""
    stamp = now()
    table_id, number = record.table_id, record.deal_number
    try:
        db.execute(
            "INSERT INTO actions (table_id, seq, deal_number, record_json, created)"
            " VALUES (?, ?, ?, ?, ?)",
            [table_id, record.seq, number, record.record_json, stamp],
        )
        if record.start is not None:
            db.execute(  # a number taken back (R74) is taken again by the next start
                "INSERT INTO deals (table_id, number, start_seq, base_json, started, variant)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, number) DO UPDATE SET"
                " start_seq = excluded.start_seq, base_json = excluded.base_json,"
                " started = excluded.started, variant = excluded.variant, dealer = NULL,"
                " finished = NULL, result_json = NULL, kings_pot_after = NULL,"
                " taken_back = NULL WHERE deals.taken_back = 1",
                [table_id, number, record.seq, record.start.base_json, stamp,
                 record.start.variant],
            )
    except DuplicateRow as err:
        raise StaleTableError(str(err)) from None
    if record.taken_back:
        # the deal never was (R74): its row is marked, its two records stay in the actions
        db.execute("UPDATE deals SET taken_back = 1 WHERE table_id = ? AND number = ?",
                   [table_id, number])
        return
    deal = record.deal
    if deal is None:
        return  # between deals before the first: no deal row to bring up to date
    db.execute(
        "UPDATE deals SET dealer = ?, result_json = ?,"
        " finished = CASE WHEN ? THEN COALESCE(finished, ?) ELSE NULL END,"
        " kings_pot_after = ? WHERE table_id = ? AND number = ?",
        [deal.dealer, deal.result_json, deal.over, stamp, deal.kings_pot_after, table_id,
         number],
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


DEAL_COLUMNS = ("number, dealer, started, finished, start_seq, result_json, kings_pot_after,"
                " variant, taken_back")


def list_deals(db: Connection, table_id: str, *, taken_back: bool = True
               ) -> list[dict[str, Any]]:
    """The table's deals in order: number, dealer, started, finished, start_seq, result,
    kings_pot_after (None where the game has no king's pot) and variant; a deal whose start
    was undone (R74) is marked ``taken_back`` (left out when ``taken_back`` is False)."""
    where = "" if taken_back else " AND taken_back IS NULL"
    return [_deal_out(row) for row in db.query(
        f"SELECT {DEAL_COLUMNS} FROM deals WHERE table_id = ?{where} ORDER BY number",
        [table_id])]


def deal_base_json(db: Connection, table_id: str, number: int) -> str | None:
    """The JSON of the totals deal ``number`` started from."""
    row = db.execute("SELECT base_json FROM deals WHERE table_id = ? AND number = ?",
                     [table_id, number]).fetchone()
    return str(row[0]) if row else None


def get_deal(db: Connection, table_id: str, number: int) -> dict[str, Any] | None:
    """One deal as :func:`list_deals` gives it, with its records in order under ``actions``
    (each ``{"seq", "time", "action"}``, undo records included)."""
    rows = db.query(f"SELECT {DEAL_COLUMNS} FROM deals WHERE table_id = ? AND number = ?",
                    [table_id, number])
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


# --------------------------------------------------------------------------- read back raw
# For services/integrity.py: what a damaged file still holds, unparsed, row by row.
def deal_starts(db: Connection, table_id: str) -> list[tuple[int, int, str]]:
    """Every deal that counts, in order: its number, start seq and base totals' JSON."""
    return [(int(number), int(seq), str(base)) for number, seq, base in db.execute(
        "SELECT number, start_seq, base_json FROM deals WHERE table_id = ?"
        " AND taken_back IS NULL ORDER BY number", [table_id])]


def record_rows(db: Connection, table_id: str) -> list[tuple[int, int, str, str]]:
    """Every record of the table, in order: its seq, deal number, time and JSON."""
    return [(int(seq), int(deal), str(created), str(text))
            for seq, deal, created, text in db.execute(
                "SELECT seq, deal_number, created, record_json FROM actions WHERE table_id = ?"
                " ORDER BY seq", [table_id])]
