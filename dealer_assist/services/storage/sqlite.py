"""The SQLite engine: a file, in WAL mode, every commit synced (or its sync owed)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from dealer_assist.services.storage.connection import (
    Connection,
    Cursor,
    DuplicateRow,
    Engine,
    StorageError,
    StorageFull,
    StorageUnavailable,
)


def sqlite_error(err: sqlite3.Error) -> StorageError:
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
            raise sqlite_error(err) from err

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self.conn.executemany(sql, rows)
        except (sqlite3.OperationalError, sqlite3.IntegrityError) as err:
            raise sqlite_error(err) from err

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
