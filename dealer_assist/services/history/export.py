"""The exports: the deals as CSV, and the whole table as JSON (what an import reads back)."""

from __future__ import annotations

import csv
import io
from typing import Any

from dealer_assist.services import storage
from dealer_assist.services.history.stored import (
    Stored,
    first_made,
)
from dealer_assist.services.history.view import table_history

EXPORT_FORMAT = "dealer-assist table"
EXPORT_VERSION = 1
CSV_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet will not run: text that starts like a formula gets a quote mark."""
    if isinstance(value, str) and value.startswith(CSV_FORMULA_START):
        return "'" + value
    return value


def deals_csv(stored: Stored) -> str:
    """One row per deal: number, started, finished, dealer, winners, winning lines, each
    player's payout, each pot the table kept after it (``<key>_after``: every deal once a deal
    played for it, R72), what waited through the deal, and the rebuys and adjustments that
    followed it."""
    history = table_history(stored)
    players, pots = history["players"], [p["key"] for p in history["carried"]]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([csv_cell(c) for c in (
        ["number", "started", "finished", "dealer", "winners", "winning_lines"]
        + [f"payout {name}" for name in players] + [f"{key}_after" for key in pots]
        + ["waiting", "between_deals", "game"])])
    for deal in history["deals"]:
        result = deal["result"] or {}
        payouts = result.get("payouts", {})
        shown = {p["key"]: p for p in deal["carried_after"]}
        row = [deal["number"], deal["started"], deal["finished"] or "", deal["dealer"] or "",
               " ".join(result.get("winners") or []), " ".join(result.get("winning_lines") or []),
               *[payouts.get(name, 0) for name in players],
               *[shown[key]["amount"] if key in shown else "" for key in pots],
               "; ".join(f"{p['title']} waiting: {p['amount']}" for p in shown.values()
                         if p["waiting"]),
               "; ".join(e["words"] for e in deal["entries"]), deal["variant_name"]]
        writer.writerow([csv_cell(c) for c in row])
    return out.getvalue()


def export_table(stored: Stored) -> dict[str, Any]:
    """The whole table: its setup, every record with its seq and time, and its deals."""
    return {
        "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exported": storage.now(),
        "table": {"id": stored.table_id, "name": stored.setup.name,
                  "variant": stored.setup.variant, "created": first_made(stored.row)},
        "setup": stored.setup.to_json(),
        "actions": stored.records,
        "deals": stored.deals,
    }
