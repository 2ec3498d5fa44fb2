"""The tournament rows (R89-R94): a tournament's setup, its tables (each a table of its own
rows), its records appended in order, and the last moment the server was known up (the clock
takes the time it was down as paused, R90). Rows only: the rules are the core's."""

from __future__ import annotations

from typing import Any

from dealer_assist.core.errors import StaleTableError
from dealer_assist.services.storage.connection import (
    MAX_TABLE_ID,
    Connection,
    DuplicateRow,
    insert,
    insert_all,
    now,
)


def insert_tournament(db: Connection, tournament_id: str, name: str, setup_json: str,
                      table_ids: list[str], alive_at: float) -> None:
    """A new tournament and its tables' links; call inside ``write_transaction``, with the
    tables' own rows."""
    insert(db, "tournaments", {"id": tournament_id, "name": name, "setup_json": setup_json,
                               "created": now(), "alive_at": alive_at})
    insert_all(db, "tournament_tables", [
        {"tournament_id": tournament_id, "number": number, "table_id": table_id}
        for number, table_id in enumerate(table_ids)])


def possible(tournament_id: str) -> bool:
    """Whether a tournament could have this id: a guessed or hostile one is looked up in no
    table (PostgreSQL refuses a NUL in any text with an error)."""
    return len(tournament_id) <= MAX_TABLE_ID and "\x00" not in tournament_id


def tournament_row(db: Connection, tournament_id: str) -> dict[str, Any] | None:
    if not possible(tournament_id):
        return None
    rows = db.query("SELECT id, name, setup_json, created, alive_at FROM tournaments"
                    " WHERE id = ?", [tournament_id])
    return rows[0] if rows else None


def tournament_ids(db: Connection) -> list[str]:
    return [str(i) for (i,) in db.execute("SELECT id FROM tournaments ORDER BY created")]


def tournament_tables(db: Connection, tournament_id: str) -> list[str]:
    """The tournament's table ids, by number (0 first)."""
    if not possible(tournament_id):
        return []
    return [str(t) for (t,) in db.execute(
        "SELECT table_id FROM tournament_tables WHERE tournament_id = ? ORDER BY number",
        [tournament_id])]


def tournament_of_table(db: Connection, table_id: str) -> tuple[str, int] | None:
    """The tournament a table belongs to and its number there, or None."""
    row = db.execute("SELECT tournament_id, number FROM tournament_tables WHERE table_id = ?",
                     [table_id]).fetchone()
    return (str(row[0]), int(row[1])) if row else None


def tournament_records(db: Connection, tournament_id: str) -> list[str]:
    """The JSON of every record, in order (undo records included)."""
    return [str(text) for (text,) in db.execute(
        "SELECT record_json FROM tournament_records WHERE tournament_id = ? ORDER BY seq",
        [tournament_id])]


def tournament_seq(db: Connection, tournament_id: str) -> int:
    if not possible(tournament_id):
        return 0
    row = db.execute("SELECT MAX(seq) FROM tournament_records WHERE tournament_id = ?",
                     [tournament_id]).fetchone()
    return int(row[0] or 0)


def append_tournament_record(db: Connection, tournament_id: str, seq: int,
                             record_json: str) -> None:
    """Store a record as ``seq``; call inside ``write_transaction``. Raises
    :class:`StaleTableError` if another writer took the seq."""
    try:
        db.execute("INSERT INTO tournament_records (tournament_id, seq, record_json, created)"
                   " VALUES (?, ?, ?, ?)", [tournament_id, seq, record_json, now()])
    except DuplicateRow as err:
        raise StaleTableError(str(err)) from None


def delete_tournament(db: Connection, tournament_id: str) -> None:
    """Its records, its tables' links and its row; call inside ``write_transaction``, with
    its tables' own rows."""
    db.execute("DELETE FROM tournament_records WHERE tournament_id = ?", [tournament_id])
    db.execute("DELETE FROM tournament_tables WHERE tournament_id = ?", [tournament_id])
    db.execute("DELETE FROM tournaments WHERE id = ?", [tournament_id])


def mark_alive(db: Connection, moment: float) -> None:
    """The server is up at ``moment``: every tournament's ``alive_at``."""
    db.execute("UPDATE tournaments SET alive_at = ? WHERE alive_at < ?", [moment, moment])


def tournament_days(db: Connection) -> list[tuple[str, str]]:
    """Every tournament's id and the time it was made (a stored time), oldest first."""
    return [(str(i), str(c)) for i, c in db.execute(
        "SELECT id, created FROM tournaments ORDER BY created, rowid")]


def all_tournament_tables(db: Connection) -> set[str]:
    """Every table that plays for a tournament."""
    return {str(t) for (t,) in db.execute("SELECT table_id FROM tournament_tables")}
