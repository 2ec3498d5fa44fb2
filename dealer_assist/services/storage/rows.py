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
    local_day,
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
    carried_after: str  # JSON: each pot the deal's game keeps, by key ({"<key>": 20})
    after_json: str | None = None  # once over: the totals after it and the records after it
    people_json: str | None = None  # once over: {name: payout} of everyone dealt in


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
                "INSERT INTO deals (table_id, number, start_seq, base_json, started, variant,"
                " day) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, number) DO UPDATE"
                " SET start_seq = excluded.start_seq, base_json = excluded.base_json,"
                " started = excluded.started, variant = excluded.variant, dealer = NULL,"
                " finished = NULL, result_json = NULL, carried_after = NULL, after_json = NULL,"
                " people_json = NULL, day = excluded.day, taken_back = NULL"
                " WHERE deals.taken_back = 1",
                [table_id, number, record.seq, record.start.base_json, stamp,
                 record.start.variant, local_day(stamp)],
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
    was = db.execute("SELECT people_json, day FROM deals WHERE table_id = ? AND number = ?",
                     [table_id, number]).fetchone()
    db.execute(
        "UPDATE deals SET dealer = ?, result_json = ?,"
        " finished = CASE WHEN ? THEN COALESCE(finished, ?) ELSE NULL END,"
        " carried_after = ?, after_json = ?, people_json = ? WHERE table_id = ? AND number = ?",
        [deal.dealer, deal.result_json, deal.over, stamp, deal.carried_after,
         deal.after_json, deal.people_json, table_id, number],
    )
    if was is not None and was[0] != deal.people_json:  # over, or its result undone
        refresh_season(db, table_id, was[1])


# --------------------------------------------------------------------------- history
def _deal_out(row: dict[str, Any]) -> dict[str, Any]:
    """A deal row as the API gives it: each pot its game keeps as ``<key>_after``."""
    kept = json.loads(row["carried_after"]) if row["carried_after"] else {}
    return {
        "number": row["number"], "dealer": row["dealer"], "started": row["started"],
        "finished": row["finished"], "start_seq": row["start_seq"],
        "result": json.loads(row["result_json"]) if row["result_json"] else None,
        **{f"{key}_after": amount for key, amount in kept.items()},
        "variant": row.get("variant"),
        **({"taken_back": True} if row.get("taken_back") else {}),
    }


DEAL_COLUMNS = ("number, dealer, started, finished, start_seq, result_json, carried_after,"
                " variant, taken_back")


def list_deals(db: Connection, table_id: str, *, taken_back: bool = True
               ) -> list[dict[str, Any]]:
    """The table's deals in order: number, dealer, started, finished, start_seq, result,
    each pot the deal's game keeps after it (``<key>_after``) and variant; a deal whose start
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


# --------------------------------------------------------------------------- the season
# what a season (services.league) reads: finished deals only, never a record, and their
# players added up per table, day and person as the deals end (season_people), so that a
# season of 30,000 deals reads a few thousand rows
def refresh_season(db: Connection, table_id: str, day: str | None = None) -> None:
    """Bring ``season_people`` up to date for one day of a table (every day: None) from its
    finished deals' ``people_json``. Call inside :func:`write_transaction`."""
    one_day = "" if day is None else " AND day = ?"
    params = [table_id] if day is None else [table_id, day]
    finished = f"table_id = ?{one_day} AND people_json IS NOT NULL AND taken_back IS NULL"
    for summary in ("season_people", "season_days"):
        db.execute(f"DELETE FROM {summary} WHERE table_id = ?{one_day}", params)
    db.execute(
        "INSERT INTO season_people (table_id, day, name, deals, biggest)"
        " SELECT d.table_id, d.day, j.key, COUNT(*), MAX(CAST(j.value AS BIGINT))"
        f" FROM (SELECT table_id, day, people_json FROM deals WHERE {finished}) d,"
        f" {db.json_pairs('d.people_json')} j GROUP BY d.table_id, d.day, j.key", params)
    db.execute("INSERT INTO season_days (table_id, day, first, last) SELECT table_id, day,"
               f" MIN(number), MAX(number) FROM deals WHERE {finished} GROUP BY table_id, day",
               params)


def season_people(db: Connection) -> list[tuple[str, str, str, int, int]]:
    """Per table, day and person dealt in: the deals and the largest payout."""
    return [(str(t), str(d), str(n), int(c), int(m)) for t, d, n, c, m in db.execute(
        "SELECT table_id, day, name, deals, biggest FROM season_people")]


def season_days(db: Connection) -> list[dict[str, Any]]:
    """Per table and day, in order: its first and last finished deal, the totals the first
    started from and those the last left (``after_json``: NULL on a table's last deal
    stored before schema step 4: :func:`base_json_of` the next deal, if any)."""
    return db.query(
        "SELECT s.table_id, s.day, s.first, s.last, f.base_json, l.after_json"
        " FROM season_days s"
        " JOIN deals f ON f.table_id = s.table_id AND f.number = s.first"
        " JOIN deals l ON l.table_id = s.table_id AND l.number = s.last"
        " ORDER BY s.table_id, s.first")


def base_json_of(db: Connection, table_id: str, number: int) -> str | None:
    """The totals deal ``number`` started from, if that deal counts."""
    row = db.execute("SELECT base_json FROM deals WHERE table_id = ? AND number = ?"
                     " AND taken_back IS NULL", [table_id, number]).fetchone()
    return str(row[0]) if row else None


def table_setups(db: Connection) -> dict[str, str]:
    """Every table's id and its setup's JSON."""
    return {str(table_id): str(setup) for table_id, setup in db.execute(
        "SELECT id, setup_json FROM tables")}


# --------------------------------------------------------------------------- read back raw
# For services/integrity.py: what a damaged file still holds, unparsed, row by row.
def deal_starts(db: Connection, table_id: str) -> list[tuple[int, int, str]]:
    """Every deal that counts, in order: its number, start seq and base totals' JSON."""
    return [(int(number), int(seq), str(base)) for number, seq, base in db.execute(
        "SELECT number, start_seq, base_json FROM deals WHERE table_id = ?"
        " AND taken_back IS NULL ORDER BY number", [table_id])]


def record_rows(db: Connection, table_id: str) -> list[tuple[int, int, str, str]]:
    """Every record of the table, in order: its seq, deal number, time and JSON."""
    return [(int(seq), int(deal), str(created), str(text))
            for seq, deal, created, text in db.execute(
                "SELECT seq, deal_number, created, record_json FROM actions WHERE table_id = ?"
                " ORDER BY seq", [table_id])]
