"""Connecting to a database, a file or a ``postgresql://`` URL, and the pool of open
connections a server lends to its requests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import dealer_assist.services.storage.sqlite as sqlite
from dealer_assist.services.locks import native_lock
from dealer_assist.services.storage.connection import (
    BUSY_TIMEOUT_SECONDS,
    Connection,
    Engine,
    is_url,
)
from dealer_assist.services.storage.postgres import PostgresConnection


def connect(target: str | Path) -> Connection:
    """A connection to the database at ``target``, a file or a ``postgresql://`` URL
    (:func:`init_db` makes it first)."""
    if is_url(target):
        return PostgresConnection(str(target))
    try:
        conn = sqlite3.connect(str(target), timeout=BUSY_TIMEOUT_SECONDS,
                               check_same_thread=False)
    except sqlite3.Error as err:
        raise sqlite.sqlite_error(err) from err
    return sqlite.connect_with(conn, target)  # through the module: a benchmark may wrap it


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
        self._lock = native_lock()  # loop and native threads alike (services/locks.py)

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
