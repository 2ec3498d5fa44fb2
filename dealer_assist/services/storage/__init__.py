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
:meth:`Connection.execute` and as dicts from :meth:`Connection.query`, and this package's
errors (:class:`StorageFull`, :class:`StorageUnavailable`, :class:`DuplicateRow`) for theirs,
so that nothing above imports ``sqlite3`` or ``psycopg``.

One job a module:

- :mod:`.connection`: the interface, the errors, the transactions;
- :mod:`.sqlite` and :mod:`.postgres`: the two engines; :mod:`.pool`: connecting, and the
  pool a server lends connections from;
- :mod:`.schema`: the migrations (:data:`MIGRATIONS`, run by :func:`migrate` on start) and
  the checks that a database can be served from;
- :mod:`.rows`: the tables, records and deal rows, and what a season reads of them;
- :mod:`.people`: payment handles and aliases (R77);
- :mod:`.tournaments`: tournaments, their tables and records (R89-R94).

Callers import the package (``from dealer_assist.services import storage``) and use the
names below.
"""

from __future__ import annotations

from dealer_assist.core.errors import StaleTableError
from dealer_assist.services.storage import people, schema, tournaments
from dealer_assist.services.storage.connection import (
    BUSY_TIMEOUT_SECONDS,
    MAX_TABLE_ID,
    URL_SCHEMES,
    Connection,
    Cursor,
    DatabaseUnusable,
    DuplicateRow,
    Engine,
    StorageError,
    StorageFull,
    StorageUnavailable,
    insert,
    insert_all,
    is_url,
    local_day,
    now,
    read_transaction,
    shown_target,
    size_bytes,
    write_transaction,
)
from dealer_assist.services.storage.pool import ConnectionPool, connect
from dealer_assist.services.storage.postgres import PostgresConnection, advisory_key
from dealer_assist.services.storage.rows import (
    DealNow,
    DealStart,
    RecordRow,
    append_record,
    base_json_of,
    deal_starts,
    get_deal,
    insert_dealer_token,
    insert_table_row,
    last_seq,
    latest_deal_starts,
    list_deals,
    list_tables,
    record_rows,
    records_since,
    refresh_season,
    season_days,
    season_people,
    table_row,
    table_setups,
)
from dealer_assist.services.storage.schema import (
    MIGRATIONS,
    database_problem,
    ensure_imports,
    init_db,
    migrate,
    schema_version,
)
from dealer_assist.services.storage.sqlite import SQLiteConnection, connect_with, sync_log

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "MAX_TABLE_ID",
    "MIGRATIONS",
    "URL_SCHEMES",
    "Connection",
    "ConnectionPool",
    "Cursor",
    "DatabaseUnusable",
    "DealNow",
    "DealStart",
    "DuplicateRow",
    "Engine",
    "PostgresConnection",
    "RecordRow",
    "SQLiteConnection",
    "StaleTableError",
    "StorageError",
    "StorageFull",
    "StorageUnavailable",
    "advisory_key",
    "append_record",
    "base_json_of",
    "connect",
    "connect_with",
    "database_problem",
    "deal_starts",
    "ensure_imports",
    "get_deal",
    "init_db",
    "insert",
    "insert_all",
    "insert_dealer_token",
    "insert_table_row",
    "is_url",
    "last_seq",
    "latest_deal_starts",
    "list_deals",
    "list_tables",
    "local_day",
    "migrate",
    "now",
    "people",
    "read_transaction",
    "record_rows",
    "records_since",
    "refresh_season",
    "schema",
    "schema_version",
    "season_days",
    "season_people",
    "shown_target",
    "size_bytes",
    "sync_log",
    "table_row",
    "table_setups",
    "tournaments",
    "write_transaction",
]
