"""What both engines are behind: :class:`Connection` (``?`` placeholders, rows as tuples
or dicts), this package's errors for theirs, and the write and read transactions."""

from __future__ import annotations

import abc
import contextlib
import enum
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

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
