"""The schema, built by the migrations in :data:`MIGRATIONS` and run by :func:`migrate` on
start (a later issue adds a step by appending a function to that list), and the checks that
a database can be served from."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from dealer_assist.services.storage.connection import (
    BUSY_TIMEOUT_SECONDS,
    Connection,
    StorageError,
    is_url,
    local_day,
    now,
    shown_target,
    write_transaction,
)
from dealer_assist.services.storage.pool import connect
from dealer_assist.services.storage.rows import refresh_season


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


def _schema_4(db: Connection) -> None:
    """The host's books (R76-R78). Each deal's row keeps what a season reads without
    replaying a record: ``day``, the calendar day it started on in the server's time zone;
    once it is over, ``after_json``, the totals after it and the between-deal records that
    followed it, and ``people_json``, every player dealt in with their payout (``{"Ann": 14,
    "Bob": 0}``). ``season_people`` adds those up per table, day and person (deals dealt in,
    largest payout) and ``season_days`` keeps each table's day's first and last finished
    deal, both brought up to date whenever a deal's ``people_json`` changes, so that a season
    of 30,000 deals reads a few thousand rows and never scans the deals. ``people`` keeps a
    person's payment handle, ``aliases`` the names the host said are one person (R77); both
    keyed by the name as names are compared (``name_key``). Rows stored before this step are
    filled in (:func:`fill_books`)."""
    for column in ("after_json", "people_json", "day"):
        db.execute(f"ALTER TABLE deals ADD COLUMN {column} TEXT")
    db.execute("CREATE INDEX deals_finished ON deals (table_id, day, number)"
               " WHERE people_json IS NOT NULL AND taken_back IS NULL")
    db.execute(db.ddl("""
        CREATE TABLE season_people (
            table_id TEXT NOT NULL REFERENCES tables(id),
            day TEXT NOT NULL,
            name TEXT NOT NULL,
            deals INTEGER NOT NULL,
            biggest INTEGER NOT NULL,
            PRIMARY KEY (table_id, day, name)
        )"""))
    db.execute(db.ddl("""
        CREATE TABLE season_days (
            table_id TEXT NOT NULL REFERENCES tables(id),
            day TEXT NOT NULL,
            first INTEGER NOT NULL,
            last INTEGER NOT NULL,
            PRIMARY KEY (table_id, day)
        )"""))
    db.execute(db.ddl("""
        CREATE TABLE people (
            name_key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            pay_to TEXT,
            updated TEXT NOT NULL
        )"""))
    db.execute(db.ddl("""
        CREATE TABLE aliases (
            name_key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            is_key TEXT NOT NULL,
            is_name TEXT NOT NULL,
            created TEXT NOT NULL
        )"""))
    fill_books(db)


def fill_books(db: Connection) -> None:
    """Step 4's columns for the deals stored before it: ``day`` from ``started``,
    ``after_json`` from the next deal's base (a table's last deal keeps NULL: a season
    replays that one deal), ``people_json`` from the deal's base and result (who sat and did
    not sit out, and their payouts); then ``season_people`` from them."""
    db.executemany("UPDATE deals SET day = ? WHERE table_id = ? AND number = ?",
                   [[local_day(started), table_id, number] for table_id, number, started
                    in db.execute("SELECT table_id, number, started FROM deals").fetchall()])
    db.execute("UPDATE deals SET after_json = (SELECT n.base_json FROM deals n WHERE"
               " n.table_id = deals.table_id AND n.number = deals.number + 1 AND"
               " n.taken_back IS NULL) WHERE finished IS NOT NULL AND taken_back IS NULL"
               " AND after_json IS NULL")
    players = {table_id: [p["name"] for p in json.loads(setup)["players"]]
               for table_id, setup in db.execute("SELECT id, setup_json FROM tables")}
    filled = []
    for table_id, number, base_json, result_json in db.execute(
            "SELECT table_id, number, base_json, result_json FROM deals WHERE finished IS NOT"
            " NULL AND result_json IS NOT NULL AND taken_back IS NULL").fetchall():
        base, result = json.loads(base_json), json.loads(result_json)
        out = set(base.get("sitting_out") or ())
        payouts = result.get("payouts") or {}
        people = {name: payouts.get(name, 0) for name in base.get("names") or players[table_id]
                  if name not in out}
        filled.append([json.dumps(people), table_id, number])
    db.executemany("UPDATE deals SET people_json = ? WHERE table_id = ? AND number = ?",
                   filled)
    for (table_id,) in db.execute("SELECT id FROM tables").fetchall():
        refresh_season(db, table_id)


def _schema_5(db: Connection) -> None:
    """A deal's row keeps every pot its game keeps between deals, by the key the game names it
    (``carried_after``: JSON such as ``{"<key>": 20}``; ``{}`` for a game that keeps none), so
    that no column is one game's. The per-pot column of step 1 (``<key>_after``) is folded
    into it; it stays in the table, empty from now on (dropping a column needs SQLite 3.35,
    which not every Python on Linux has). A database made since has no such column: step 1
    made one until the deals' pots became data, and is the same but for it."""
    db.execute("ALTER TABLE deals ADD COLUMN carried_after TEXT")
    for column in db.columns("deals"):
        if not column.endswith("_after") or column == "carried_after":
            continue
        key = column.removesuffix("_after")
        db.executemany(
            "UPDATE deals SET carried_after = ? WHERE table_id = ? AND number = ?",
            [[json.dumps({key: amount}), table_id, number] for table_id, number, amount
             in db.execute(f"SELECT table_id, number, {column} FROM deals"
                           f" WHERE {column} IS NOT NULL").fetchall()])


def _schema_6(db: Connection) -> None:
    """Tournaments (R89-R94): the setup (``setup_json``, the first seats drawn included),
    the tables it plays at by number (each a table of its own rows), its records in order
    (clock, entries, rebuys, moves, busts, chops: its state is what replaying them gives),
    and ``alive_at``, the last moment the server was known up, so that the clock takes the
    time it was down as paused (R90)."""
    db.execute(db.ddl("""
        CREATE TABLE tournaments (
            {rowid}
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            setup_json TEXT NOT NULL,
            created TEXT NOT NULL,
            alive_at REAL NOT NULL
        )"""))
    db.execute(db.ddl("""
        CREATE TABLE tournament_tables (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            number INTEGER NOT NULL,
            table_id TEXT NOT NULL UNIQUE,
            PRIMARY KEY (tournament_id, number)
        )"""))
    db.execute(db.ddl("""
        CREATE TABLE tournament_records (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            seq INTEGER NOT NULL,
            record_json TEXT NOT NULL,
            created TEXT NOT NULL,
            UNIQUE (tournament_id, seq)
        )"""))


MIGRATIONS: list[tuple[str, Callable[[Connection], None]]] = [
    ("tables, actions and deals", _schema_1),
    ("dealer devices: tokens and pairing codes", _schema_2),
    ("each deal's game", _schema_3),
    ("the host's books: deals' people and totals after, people, aliases", _schema_4),
    ("each pot a deal kept, by key", _schema_5),
    ("tournaments: setups, tables and records", _schema_6),
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
