"""One deal step by step, replayed from the totals it started from."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer_assist.core.actions import Action
from dealer_assist.core.table import Table, describe
from dealer_assist.services.history.stored import (
    BETWEEN_DEALS,
    Stored,
)


def replay_deal(stored: Stored, number: int, *, dealer: bool,
                view: Callable[[Table], dict[str, Any]],
                mask: Any = None) -> dict[str, Any] | None:
    """Deal ``number`` step by step: ``view`` of the table after each of its records (undo
    records included), replayed from the totals it started from. ``mask`` hides a record's
    face-down cards for a public reader (``api.hide_cards``)."""
    deal = next((d for d in stored.deals if d["number"] == number), None)
    if deal is None:
        return None
    table = Table.replay(stored.setup, stored.bases[number], (), seq=deal["start_seq"] - 1)
    steps = []
    # from its start: a start_deal that was undone before it (R74) is not this deal's
    for record in (r for r in stored.records
                   if r["deal"] == number and r["seq"] >= deal["start_seq"]):
        action = Action.from_json(record["action"], stored.setup.catalogue.place_fields)
        logged = len(table.deal.log) if table.deal and action.type != "start_deal" else 0
        table = table.apply(action)
        assert table.deal is not None
        if action.type == "undo":
            label = f"Undo: {table.undone}."
        else:
            new_lines = table.deal.log[logged:] + list(table.between_log[-1:]
                                                       if action.type in BETWEEN_DEALS else [])
            # the log is in the public state already; describe() never names a hidden card
            label = " ".join(new_lines) if new_lines else describe(action).capitalize() + "."
        shown = mask(record) if mask and not dealer else record
        steps.append({"seq": record["seq"], "time": record["time"], "action": shown["action"],
                      "label": label,
                      "state": {"id": stored.table_id, **view(table)}})
    return {"number": number, "dealer": deal["dealer"], "started": deal["started"],
            "finished": deal["finished"], "steps": steps}
