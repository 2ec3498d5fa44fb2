"""The history page's JSON: every deal with its result and what the table carried after
it, grouped by night, and the ledger.

**Nights.** Deals are grouped by night: a deal starts a new night when it starts
:data:`NIGHT_GAP` (6 hours) or more after the previous deal started. A table continues across
nights, and so do the pots it carries (R28)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from dealer_assist.games.registry import all_games, game_class
from dealer_assist.services.history.books import table_ledger
from dealer_assist.services.history.stored import (
    Stored,
    between_deal_entries,
    current_table,
    deal_variant,
    everyone,
    parse_time,
    seated_stacks,
    totals_after,
    with_cash_outs,
)

NIGHT_GAP = timedelta(hours=6)


def group_nights(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nights: a deal that starts NIGHT_GAP or more after the previous deal started opens a
    new night. Each night: number, first and last start, and its deal numbers."""
    nights: list[dict[str, Any]] = []
    previous: datetime | None = None
    for deal in deals:
        started = parse_time(deal["started"])
        if previous is None or started - previous >= NIGHT_GAP:
            nights.append({"number": len(nights) + 1, "started": deal["started"],
                           "last_started": deal["started"], "deals": []})
        nights[-1]["deals"].append(deal["number"])
        nights[-1]["last_started"] = deal["started"]
        previous = started
    return nights


def result_words(deal: dict[str, Any], variant: str) -> str:
    """One sentence for a deal's result, as the history lists it (``variant``: the deal's)."""
    result = deal["result"]
    if result is None:
        return "In play." if deal["finished"] is None else "No result."
    game = game_class(variant)
    return game.result_words(game.result_type.from_json(result))


def table_history(stored: Stored) -> dict[str, Any]:
    """The JSON of the history page: every deal with its result and the king's pot after it,
    the nights, the stacks after each deal, and the ledger."""
    now = current_table(stored)
    after = totals_after(stored, now)
    entries = between_deal_entries(stored)
    with_cash_outs(entries, stored, now)
    setup = stored.setup
    game = game_class(setup.variant)
    names = everyone(stored, now)
    deals = []
    for deal in stored.deals:
        number = deal["number"]
        base = stored.bases[number]
        totals = after.get(number)
        variant = deal_variant(stored, deal)
        out = {
            **deal,
            "variant": variant, "variant_name": game_class(variant).name,
            "in_play": totals is None,
            "words": result_words(deal, variant),
            "stacks_before": seated_stacks(base, names),
            "stacks_after": seated_stacks(totals, names) if totals is not None else None,
            "entries": entries[number],
        }
        if "bank" in game.state_fields:
            out["bank_after"] = totals.carried.get("bank", 0) if totals is not None else None
        deals.append(out)
    history: dict[str, Any] = {
        "id": stored.table_id, "name": setup.name, "variant": setup.variant,
        "variant_name": game.name, "created": stored.row["created"],
        "players": names,  # everyone who ever sat (R70)
        "starting_stacks": {name: dict(zip(setup.players, setup.stacks, strict=True)).get(
            name, 0) for name in names},
        "games": sorted({d["variant"] for d in deals}, key=[g.variant for g in all_games()]
                        .index),
        "night_gap_hours": NIGHT_GAP.total_seconds() / 3600,
        "nights": group_nights(stored.deals),
        "deals": deals,
        "ledger": table_ledger(stored, now),
    }
    if any(p.key == "kings_pot" for v in {setup.variant, *history["games"]}
           for p in game_class(v).carried_pots):
        history["kings_pot"] = (now.totals if now.deal_over else now.base).carried.get(
            "kings_pot", 0)
    if game.deals_per_game is not None:
        last = stored.deals[-1]["result"] if stored.deals else None
        history["game"] = {key: last[key] for key in ("game_winner", "standings",
                                                      "tiebreak_draws")
                           if last and key in last} or None
    return history
