"""The rows: tables, their dealer tokens, the records appended to them and the deal rows
that keep each deal's base and result."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from dealer_assist.core.errors import StaleTableError
from dealer_assist.services.storage.connection import (
    MAX_TABLE_ID,
    Connection,
    DuplicateRow,
    insert,
    now,
)


def insert_table_row(db: Connection, row: dict[str, Any]) -> None:
    """A new table's row and its first dealer token; call inside :func:`write_transaction`."""
    insert(db, "tables", row)
    insert_dealer_token(db, row["id"], row["token_hash"])


def insert_dealer_token(db: Connection, table_id: str, token_hash: str) -> int:
    """A dealer token of the table (its hash), valid until signed out (``services.auth``);
    its id."""
    row = db.execute("INSERT INTO dealer_tokens (table_id, token_hash, created) VALUES (?, ?, ?)"
                     " RETURNING rowid", [table_id, token_hash, now()]).fetchone()
    return int(row[0])


def table_row(db: Connection, table_id: str) -> dict[str, Any] | None:
    """The table's row (``token_hash`` included: never send it), or None."""
    if len(table_id) > MAX_TABLE_ID:
        return None
    rows = db.query(
        "SELECT t.id, t.name, t.variant, t.setup_json, t.token_hash, t.created,"
        " i.imported AS imported_at, i.original_created FROM tables t "
        "LEFT JOIN imports i ON i.table_id = t.id WHERE t.id = ?", [table_id])
    return rows[0] if rows else None


def list_tables(db: Connection) -> list[dict[str, Any]]:
    """Every table, newest first: id, name, variant, created, the number of deals, and
    whether it was imported (``original_created``: the time the file claimed)."""
    return [{**row, "imported": row["imported"] is not None} for row in db.query("""
        SELECT t.id, t.name, t.variant, t.created, COUNT(d.number) AS deals,
               i.imported AS imported, i.original_created
        FROM tables t LEFT JOIN deals d ON d.table_id = t.id AND d.taken_back IS NULL
        LEFT JOIN imports i ON i.table_id = t.id
        GROUP BY t.id, i.imported, i.original_created
        ORDER BY t.created DESC, t.rowid DESC""")]


def last_seq(db: Connection, table_id: str) -> int:
    row = db.execute("SELECT MAX(seq) FROM actions WHERE table_id = ?", [table_id]).fetchone()
    return int(row[0] or 0)


def latest_deal_starts(db: Connection, table_id: str) -> list[tuple[int, str]]:
    """The last two deals that count, newest first: each start seq and base totals' JSON."""
    return [(int(seq), str(base)) for seq, base in db.execute(
        "SELECT start_seq, base_json FROM deals WHERE table_id = ?"
        " AND taken_back IS NULL ORDER BY number DESC LIMIT 2", [table_id])]


def records_since(db: Connection, table_id: str, seq: int) -> list[str]:
    """The JSON of the table's records from ``seq`` on, in order."""
    return [str(text) for (text,) in db.execute(
        "SELECT record_json FROM actions WHERE table_id = ? AND seq >= ? ORDER BY seq",
        [table_id, seq])]


@dataclass(frozen=True)
class DealStart:
    """A ``start_deal`` record's deal row: the totals it starts from and its game."""

    base_json: str
    variant: str


@dataclass(frozen=True)
class DealNow:
    """What a deal's row says after a record."""

    dealer: str
    result_json: str | None
    over: bool
    kings_pot_after: int | None


@dataclass(frozen=True)
class RecordRow:
    """One record to append, and what it does to its deal's row: starts it (``start``),
    takes it back (``taken_back``, R74), or brings it up to date (``deal``)."""

    table_id: str
    seq: int
    deal_number: int
    record_json: str
    start: DealStart | None = None
    taken_back: bool = False
    deal: DealNow | None = None


def append_record(db: Connection, record: RecordRow) -> None:
    """Store ``record`` and bring its deal's row up to date. Call inside
    :func:`write_transaction`; raises :class:`StaleTableError` if the seq is taken."""
    stamp = now()
    table_id, number = record.table_id, record.deal_number
    try:
        db.execute(
            "INSERT INTO actions (table_id, seq, deal_number, record_json, created)"
            " VALUES (?, ?, ?, ?, ?)",
            [table_id, record.seq, number, record.record_json, stamp],
        )
        if record.start is not None:
            db.execute(  # a number taken back (R74) is taken again by the next start
                "INSERT INTO deals (table_id, number, start_seq, base_json, started, variant)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, number) DO UPDATE SET"
                " start_seq = excluded.start_seq, base_json = excluded.base_json,"
                " started = excluded.started, variant = excluded.variant, dealer = NULL,"
                " finished = NULL, result_json = NULL, kings_pot_after = NULL,"
                " taken_back = NULL WHERE deals.taken_back = 1",
                [table_id, number, record.seq, record.start.base_json, stamp,
                 record.start.variant],
            )
    except DuplicateRow as err:
        raise StaleTableError(str(err)) from None
    if record.taken_back:
        # the deal never was (R74): its row is marked, its two records stay in the actions
        db.execute("UPDATE deals SET taken_back = 1 WHERE table_id = ? AND number = ?",
                   [table_id, number])
        return
    deal = record.deal
    if deal is None:
        return  # between deals before the first: no deal row to bring up to date
    db.execute(
        "UPDATE deals SET dealer = ?, result_json = ?,"
        " finished = CASE WHEN ? THEN COALESCE(finished, ?) ELSE NULL END,"
        " kings_pot_after = ? WHERE table_id = ? AND number = ?",
        [deal.dealer, deal.result_json, deal.over, stamp, deal.kings_pot_after, table_id,
         number],
    )


# --------------------------------------------------------------------------- history
def _deal_out(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "number": row["number"], "dealer": row["dealer"], "started": row["started"],
        "finished": row["finished"], "start_seq": row["start_seq"],
        "result": json.loads(row["result_json"]) if row["result_json"] else None,
        "kings_pot_after": row["kings_pot_after"], "variant": row.get("variant"),
        **({"taken_back": True} if row.get("taken_back") else {}),
    }


DEAL_COLUMNS = ("number, dealer, started, finished, start_seq, result_json, kings_pot_after,"
                " variant, taken_back")


def list_deals(db: Connection, table_id: str, *, taken_back: bool = True
               ) -> list[dict[str, Any]]:
    """The table's deals in order: number, dealer, started, finished, start_seq, result,
    kings_pot_after (None where the game has no king's pot) and variant; a deal whose start
    was undone (R74) is marked ``taken_back`` (left out when ``taken_back`` is False)."""
    where = "" if taken_back else " AND taken_back IS NULL"
    return [_deal_out(row) for row in db.query(
        f"SELECT {DEAL_COLUMNS} FROM deals WHERE table_id = ?{where} ORDER BY number",
        [table_id])]


def get_deal(db: Connection, table_id: str, number: int) -> dict[str, Any] | None:
    """One deal as :func:`list_deals` gives it, with its records in order under ``actions``
    (each ``{"seq", "time", "action"}``, undo records included)."""
    rows = db.query(f"SELECT {DEAL_COLUMNS} FROM deals WHERE table_id = ? AND number = ?",
                    [table_id, number])
    if not rows:
        return None
    out = _deal_out(rows[0])
    out["actions"] = [
        {"seq": r["seq"], "time": r["created"], "action": json.loads(r["record_json"])}
        for r in db.query(
            "SELECT seq, created, record_json FROM actions WHERE table_id = ? AND deal_number = ?"
            " ORDER BY seq", [table_id, number])
    ]
    return out
