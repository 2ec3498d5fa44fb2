"""The host key: who may make, import and delete tables on this server (API.md "Tables").

One random key per database, made the first time the server starts on it and kept in the
database (whoever holds the file holds every table anyway), so the key a host's tablet keeps
stays good across restarts. ``dealer-assist`` prints it at start; the server's own machine
needs no key (:func:`dealer_assist.web.host.implied_host`).
"""

from __future__ import annotations

import hmac
import secrets

from dealer_assist.services import storage
from dealer_assist.services.storage import Connection as Database

HOST_KEY_BYTES = 24  # 192 bits, as a dealer token


def host_key(db: Database) -> str:
    """This database's host key, made (once, race-free across processes) if it has none."""
    # its own small table, made here rather than by a schema migration: a key is one row
    # beside the tables, and a database of an older version gains it without a step. Read
    # first: a start on a database that has its key writes nothing (no fsync).
    if "host_key" in db.table_names():
        row = db.execute("SELECT key FROM host_key WHERE id = 1").fetchone()
        if row is not None:
            return str(row[0])
    with storage.write_transaction(db):
        db.execute(db.ddl("CREATE TABLE IF NOT EXISTS host_key (id INTEGER PRIMARY KEY"
                          " CHECK (id = 1), key TEXT NOT NULL)"))
        db.execute("INSERT INTO host_key (id, key) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                   [secrets.token_urlsafe(HOST_KEY_BYTES)])
        row = db.execute("SELECT key FROM host_key WHERE id = 1").fetchone()
    return str(row[0])


def key_matches(given: str | None, key: str) -> bool:
    if not given or not isinstance(given, str) or len(given) > 200:
        return False
    return hmac.compare_digest(given.encode("utf-8"), key.encode("utf-8"))


def delete_table(db: Database, table_id: str) -> bool:
    """Remove the table and every row that names it, in one transaction; whether there was
    such a table."""
    with storage.write_transaction(db, key=table_id):
        return delete_table_rows(db, table_id)


def delete_table_rows(db: Database, table_id: str) -> bool:
    """Remove the table and every row that names it (its actions, deals, and whatever else
    keeps a ``table_id``); call inside ``write_transaction``. Whether there was such a
    table."""
    if db.execute("SELECT 1 FROM tables WHERE id = ?", [table_id]).fetchone() is None:
        return False
    for name in db.table_names():
        if name != "tables" and "table_id" in db.columns(name):
            db.execute(f'DELETE FROM "{name}" WHERE table_id = ?', [table_id])
    db.execute("DELETE FROM tables WHERE id = ?", [table_id])
    return True


def table_sizes(db: Database) -> dict[str, dict[str, int]]:
    """Per table: its records and the bytes they take, what the host weighs before deleting."""
    return {row["table_id"]: {"records": int(row["records"]), "bytes": int(row["bytes"])}
            for row in db.query("SELECT table_id, COUNT(*) AS records, "
                                "SUM(LENGTH(record_json)) AS bytes FROM actions "
                                "GROUP BY table_id")}
