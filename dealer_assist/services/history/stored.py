"""One table as stored, read in one snapshot, and what every view of it needs: the table now,
everyone who sat, the totals after each deal, the entries between deals and their words."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from dealer_assist.core.actions import BETWEEN_DEAL_TYPES, Action
from dealer_assist.core.deal import Totals
from dealer_assist.core.table import Table, TableSetup
from dealer_assist.services import storage
from dealer_assist.services.storage import Connection as Database
from dealer_assist.services.tables import replay_latest, setup_of

BETWEEN_DEALS = BETWEEN_DEAL_TYPES


@dataclass(frozen=True)
class Stored:
    """One table as stored: its setup and every record, deal row and base."""

    table_id: str
    row: dict[str, Any]
    setup: TableSetup
    deals: list[dict[str, Any]]  # storage.list_deals
    records: list[dict[str, Any]]  # {"seq", "deal", "time", "action"} in seq order
    bases: dict[int, Totals]  # deal number -> the totals it started from


def first_made(row: dict[str, Any]) -> str:
    """When the table was first made: an import's file says so (``original_created``), its
    row's ``created`` is the time of the import."""
    return str(row.get("original_created") or row["created"])


def read_table(db: Database, table_id: str) -> Stored | None:
    """Everything stored for one table, read in one snapshot; None if there is no table."""
    with storage.read_transaction(db):
        row = storage.table_row(db, table_id)
        if row is None:
            return None
        deals = storage.list_deals(db, table_id, taken_back=False)
        records = [
            {"seq": r["seq"], "deal": r["deal_number"], "time": r["created"],
             "action": json.loads(r["record_json"])}
            for r in db.query(
                "SELECT seq, deal_number, created, record_json FROM actions WHERE table_id = ?"
                " ORDER BY seq", [table_id])
        ]
        bases = {
            number: Totals.from_json(json.loads(text)) for number, text in db.execute(
                "SELECT number, base_json FROM deals WHERE table_id = ?"
                " AND taken_back IS NULL", [table_id])
        }
    return Stored(table_id, row, setup_of(row), deals, records, bases)


def effective(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records of one deal that still count: an ``undo`` takes back the last record that
    still counted (Table.undo), so they are a stack."""
    kept: list[dict[str, Any]] = []
    for record in records:
        if record["action"].get("type") == "undo":
            kept.pop()
        else:
            kept.append(record)
    return kept


def current_table(stored: Stored) -> Table:
    """The table now, replayed as services.tables.load_table replays it."""
    rows = [(d["start_seq"], stored.bases[d["number"]]) for d in reversed(stored.deals[-2:])]

    def records_since(seq: int) -> list[Action]:
        fields = stored.setup.catalogue.place_fields
        return [Action.from_json(r["action"], fields) for r in stored.records
                if r["seq"] >= seq]

    return replay_latest(stored.setup, rows, records_since)


def everyone(stored: Stored, now: Table) -> list[str]:
    """Everyone who ever sat at the table, in the order they first sat (R70)."""
    names = list(stored.setup.players)
    for base in [*(stored.bases[d["number"]] for d in stored.deals), now.totals]:
        for name in (*base.names, *(d.name for d in base.departed)):
            if name not in names:
                names.append(name)
    return names


def seated_stacks(totals: Totals, names: list[str]) -> dict[str, int]:
    """Everyone's chips at the table: 0 for who is not seated (not yet, or gone)."""
    stacks = dict(zip(totals.names, totals.stacks, strict=True))
    return {name: stacks.get(name, 0) for name in names}


def deal_variant(stored: Stored, deal: dict[str, Any]) -> str:
    """The game a deal was (R71); deals stored before dealer's choice are the table's."""
    return deal.get("variant") or stored.setup.variant


def totals_after(stored: Stored, now: Table) -> dict[int, Totals]:
    """Deal number -> the totals after the deal and the rebuys and adjustments that followed
    it (the next deal's base), for every deal that is over."""
    out: dict[int, Totals] = {}
    for deal in stored.deals:
        following = stored.bases.get(deal["number"] + 1)
        if following is not None:
            out[deal["number"]] = following
        elif now.deal_over:
            out[deal["number"]] = now.totals
    return out


def entry_out(record: dict[str, Any]) -> dict[str, Any]:
    """A rebuy or an adjustment as the history and the ledger list it."""
    action = record["action"]
    out: dict[str, Any] = {"seq": record["seq"], "time": record["time"], "deal": record["deal"],
                           "type": action["type"], "player": action.get("player"),
                           "amount": action.get("amount")}
    if action["type"] == "adjust":
        out["to"] = action.get("to")
        out["note"] = action.get("note")
    if action["type"] == "seat":
        out["amount"] = action.get("stack")
        out["after"] = action.get("after")
    return out


def with_cash_outs(entries: dict[int, list[dict[str, Any]]], stored: Stored, now: Table
                   ) -> None:
    """A leave's entry gets the chips cashed out, as the totals after it recorded them."""
    cashed: dict[str, int] = {}
    for base in [*stored.bases.values(), now.totals]:
        for gone in base.departed:
            cashed[gone.name] = gone.cashed_out
    for deal_entries in entries.values():
        for e in deal_entries:
            if e["type"] == "leave":
                e["amount"] = cashed.get(e["player"] or "", 0)
            e["words"] = entry_words(e)


def between_deal_entries(stored: Stored) -> dict[int, list[dict[str, Any]]]:
    """Deal number -> the rebuys and adjustments made after it that still count."""
    records: dict[int, list[dict[str, Any]]] = {deal["number"]: [] for deal in stored.deals}
    for record in stored.records:  # one pass: a long table has many deals
        records.setdefault(record["deal"], []).append(record)
    return {number: [entry_out(r) for r in effective(deal_records)
                     if r["action"].get("type") in BETWEEN_DEALS]
            for number, deal_records in records.items()}


def parse_time(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def entry_words(entry: dict[str, Any]) -> str:
    if entry["type"] == "rebuy":
        return f"{entry['player']} buys in for {entry['amount']} more"
    if entry["type"] == "seat":
        where = f" after {entry['after']}" if entry.get("after") else ""
        return f"{entry['player']} sits down{where} with {entry['amount']}"
    if entry["type"] == "leave":
        return f"{entry['player']} cashes out {entry['amount']} and leaves"
    if entry["type"] in ("sit_out", "sit_in"):
        return f"{entry['player']} " + ("sits out" if entry["type"] == "sit_out" else "is back in")
    note = f" ({entry['note']})" if entry.get("note") else ""
    return f"Adjustment: {entry['player']} gives {entry['amount']} to {entry['to']}{note}"
