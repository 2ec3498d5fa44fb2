"""The commands that work on the database, with or without a server running on it:
``dealer-assist tables`` lists the tables, ``pair TABLE`` prints a pairing code that lets a
device in as TABLE's dealer (R75), ``backup FILE`` writes a consistent copy of a SQLite
file, ``check`` reads every table back and says which are damaged (services/integrity.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, TextIO

from dealer_assist.cli.database_arg import database_target
from dealer_assist.services import integrity, storage

PG_BACKUP_SENTENCE = ("backup copies a SQLite file; a PostgreSQL database is backed up with "
                      "its own tool, pg_dump (docs/deployment.md, PostgreSQL).")


class CommandRefused(Exception):
    """A sentence for the person at the terminal; the command exits with 2."""


def existing_db(db_path: Path | str | None) -> Path | str:
    """The database that serve uses (or ``--db``), which must exist: tables, pair and backup
    never make a new, empty one by mistake (a PostgreSQL one must answer)."""
    path = database_target(db_path)
    if isinstance(path, str):
        problem = storage.database_problem(path)
        if problem:
            raise CommandRefused(problem)
        return path
    if not path.is_file():
        raise CommandRefused(f"There is no database at {path}: start dealer-assist once, or "
                             "name the file serve uses with --db.")
    problem = integrity.refusal(path)  # never made into one of ours by init_db
    if problem:
        raise CommandRefused(problem)
    return path


def open_db(db_path: Path | str | None) -> storage.Connection:
    path = existing_db(db_path)
    storage.init_db(path)  # a database of an older release gains its pairing tables
    return storage.connect(path)


def game_name(variant: str) -> str:
    from dealer_assist.games.registry import game_class

    try:
        return game_class(variant).name
    except (KeyError, ValueError):
        return variant


def print_tables(db_path: Path | str | None, out: TextIO) -> None:
    db = open_db(db_path)
    try:
        rows = storage.list_tables(db)
    finally:
        db.close()
    if not rows:
        out.write("No tables yet: make one on the home page.\n")
        return
    out.write(f"{'TABLE':<10} {'NAME':<20} {'GAME':<22} {'MADE (UTC)':<17} DEALS\n")
    for row in rows:
        made = str(row["created"])[:16].replace("T", " ")
        out.write(f"{row['id']:<10} {(row['name'] or '-')[:20]:<20} "
                  f"{game_name(row['variant'])[:22]:<22} {made:<17} {row['deals']}\n")


def find_table(rows: list[dict[str, Any]], wanted: str) -> dict[str, Any]:
    """The table whose id is ``wanted``, else the newest whose name is (any case)."""
    for row in rows:
        if row["id"] == wanted:
            return row
    named = [row for row in rows if (row["name"] or "").casefold() == wanted.casefold()]
    if named:
        return named[0]  # list_tables is newest first: last Friday's table, not a year's
    raise CommandRefused(f"There is no table {wanted[:40]!r} in this database: "
                         "'dealer-assist tables' lists them.")


def print_pairing_code(db_path: Path | str | None, wanted: str, out: TextIO) -> None:
    from dealer_assist.services import auth

    db = open_db(db_path)
    try:
        row = find_table(storage.list_tables(db), wanted)
        code = auth.new_pairing_code(db, row["id"])
    finally:
        db.close()
    name = f"{row['name']} ({row['id']})" if row["name"] else row["id"]
    out.write(f"Pairing code for table {name}: {code.code}\n")
    out.write("On the device, open the table's page and tap \"I'm dealing: enter code\". "
              f"The code works once, for {code.expires_in // 60} minutes.\n")


def write_backup(db_path: Path | str | None, target: Path, out: TextIO) -> None:
    from dealer_assist.services.backup import BackupRefused, backup

    source = database_target(db_path)
    if isinstance(source, str):
        raise CommandRefused(PG_BACKUP_SENTENCE)
    try:
        done = backup(Path(existing_db(source)), target.expanduser())
    except BackupRefused as err:
        raise CommandRefused(str(err)) from None
    out.write(f"Backed up {done.tables} tables ({done.actions} actions) to {done.path}.\n")
    out.write("To restore: stop dealer-assist, then start it with --db on this file "
              "(README: Backups).\n")


def check(db_path: Path | str | None, out: TextIO = sys.stdout) -> int:
    """``dealer-assist check``: the report serve prints at start; exit 0 when every table
    reads back whole, 1 when some are damaged, 2 when there is no database, 3 when it
    cannot be used."""
    target = database_target(db_path)
    if isinstance(target, Path) and not target.is_file():
        print(f"dealer-assist: There is no database at {target}: start dealer-assist once, "
              "or name the file serve uses with --db.", file=sys.stderr)
        return 2
    try:
        report = integrity.check_database(target)
    except (OSError, storage.StorageError) as err:
        print(f"dealer-assist: {err}", file=sys.stderr)
        return 3
    out.write(f"Database: {report.target}\n")
    for line in report.lines():
        out.write(line + "\n")
    out.flush()
    if report.problem:
        return 3
    return 1 if report.damaged else 0


def run_beside(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """tables, pair and backup: they work on the database file, with or without a server
    running on it."""
    try:
        if args.command == "tables":
            print_tables(args.db, out)
        elif args.command == "pair":
            print_pairing_code(args.db, args.table, out)
        else:
            write_backup(args.db, args.file, out)
    except CommandRefused as err:
        print(f"dealer-assist: {err}", file=sys.stderr)
        return 2
    except (OSError, storage.StorageError) as err:  # a locked, unreadable or damaged file
        print(f"dealer-assist: {err}", file=sys.stderr)
        return 1
    return 0
