"""The exports: the deals as CSV, and the whole table as JSON (what an import reads back)."""

from __future__ import annotations

import csv
import io
from typing import Any

from dealer_assist.games.registry import game_class
from dealer_assist.services import storage
from dealer_assist.services.history.stored import (
    Stored,
    between_deal_entries,
    current_table,
    deal_variant,
    entry_words,
    everyone,
    first_made,
    with_cash_outs,
)

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
    player's payout, the king's pot after it (empty where the game has none), and the rebuys and
    adjustments that followed it."""
    now = current_table(stored)
    players = everyone(stored, now)
    entries = between_deal_entries(stored)
    with_cash_outs(entries, stored, now)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([csv_cell(c) for c in (
        ["number", "started", "finished", "dealer", "winners", "winning_lines"]
        + [f"payout {name}" for name in players] + ["kings_pot_after", "between_deals",
                                                      "game"])])
    for deal in stored.deals:
        result = deal["result"] or {}
        payouts = result.get("payouts", {})
        notes = "; ".join(entry_words(e) for e in entries[deal["number"]])
        row = [deal["number"], deal["started"], deal["finished"] or "", deal["dealer"] or "",
               " ".join(result.get("winners") or []), " ".join(result.get("winning_lines") or []),
               *[payouts.get(name, 0) for name in players],
               "" if deal["kings_pot_after"] is None else deal["kings_pot_after"], notes,
               game_class(deal_variant(stored, deal)).name]
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
