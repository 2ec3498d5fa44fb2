"""The PostgreSQL engine (psycopg 3, imported only when a URL is given): writers of one
table serialized by an advisory lock on its id."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from dealer_assist.services.storage.connection import (
    BUSY_TIMEOUT_SECONDS,
    Connection,
    Cursor,
    DuplicateRow,
    Engine,
    StorageError,
    StorageFull,
    StorageUnavailable,
)

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
