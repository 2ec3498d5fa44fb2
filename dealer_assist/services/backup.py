"""A consistent copy of the database while the server runs (``dealer-assist backup FILE``).

SQLite's online backup API copies the pages of a live database: with every page in one step
(``pages=-1``) it holds one read transaction, so the copy is the database as one moment left
it, every committed action up to that moment and none half-written, while the server goes on
writing (WAL readers never block the writer). The copy is written beside the target and
renamed over it only once it is complete and checked, so a backup that fails half-way never
leaves a half-written file under the target's name.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from dealer_assist.services.storage import BUSY_TIMEOUT_SECONDS


class BackupRefused(ValueError):
    """The backup cannot be made: the sentence says why."""


@dataclass(frozen=True)
class BackupSummary:
    path: Path
    tables: int
    actions: int


def same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and os.path.samefile(a, b))
    except OSError:
        return False


def backup(db_path: Path, target: Path) -> BackupSummary:
    """Copy the database at ``db_path`` to ``target`` (replacing it), as one consistent
    snapshot, in a single file (rollback journal, no ``-wal`` beside it)."""
    if not db_path.is_file():
        raise BackupRefused(f"There is no database at {db_path}: name it with --db.")
    for own in (db_path, Path(f"{db_path}-wal"), Path(f"{db_path}-shm")):
        if same_file(own, target):
            raise BackupRefused(f"{target} is the database itself: name another file "
                                "for the copy.")
    if target.is_dir():
        raise BackupRefused(f"{target} is a folder: name a file for the copy, such as "
                            f"{target / 'dealer-assist-backup.db'}.")
    if not target.parent.is_dir():
        raise BackupRefused(f"The folder {target.parent} does not exist.")
    partial = target.with_name(f".{target.name}.part")
    partial.unlink(missing_ok=True)
    source = sqlite3.connect(str(db_path), timeout=BUSY_TIMEOUT_SECONDS)
    try:
        copy = sqlite3.connect(str(partial))
        try:
            source.backup(copy)  # pages=-1: every page in one step, one snapshot
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            problem = copy.execute("PRAGMA integrity_check").fetchone()[0]
            if problem != "ok":
                raise BackupRefused(f"The copy did not check out ({problem}); the database "
                                    "was not changed. Try again.")
            tables, actions = counts(copy)
        finally:
            copy.close()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        source.close()
    # on disk before it takes the target's name ("r+b": Windows syncs only a writable handle)
    with partial.open("r+b") as written:
        os.fsync(written.fileno())
    os.replace(partial, target)
    return BackupSummary(target, tables, actions)


def counts(db: sqlite3.Connection) -> tuple[int, int]:
    """How many tables and action records a database holds (0, 0 before any table)."""
    names = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not {"tables", "actions"} <= names:
        return 0, 0
    tables = db.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
    actions = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    return int(tables), int(actions)
