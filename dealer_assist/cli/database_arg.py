"""``--db``: where every command finds the tables: a SQLite file (by default in the user's
data folder) or a ``postgresql://`` URL."""

from __future__ import annotations

from pathlib import Path

from platformdirs import user_data_dir

from dealer_assist.services import storage

DB_NAME = "dealer-assist.db"


def default_db() -> Path:
    return Path(user_data_dir("dealer-assist", appauthor=False)) / DB_NAME


def database_arg(text: str) -> Path | str:
    """``--db``: a ``postgresql://`` (or ``postgres://``) URL as given, anything else a file."""
    return text if storage.is_url(text) else Path(text)


def database_target(db: Path | str | None) -> Path | str:
    """Where the tables are: the URL, or the file (the default one if none is given)."""
    if isinstance(db, str):
        return db
    return (db or default_db()).expanduser().resolve()
