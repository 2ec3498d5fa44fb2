"""One night of a table, to share after it: each person's net for the night, the biggest
pots, and the night's own settle-up with what the banker holds (R76).

A night's figures run from the totals its first deal started from to those the next night's
first deal started from (or the table's now, the deal in play left out, as the ledger does):
the rebuys and cash-outs between two nights count for the first. A person's net for the night
is their net at its end minus their net at its start; the banker's balance is what the table
holds at its end minus what it held at its start (the first night: what the table started
with). The nights' settle-ups, added up, are the whole table's.
"""

from __future__ import annotations

from typing import Any

from dealer_assist.core.deal import Totals
from dealer_assist.games.registry import game_class, game_for
from dealer_assist.services.history.books import (
    Position,
    banker_of,
    held,
    positions,
    settle_up,
)
from dealer_assist.services.history.stored import (
    Stored,
    as_seated,
    current_table,
    deal_variant,
)
from dealer_assist.services.history.view import NIGHT_GAP, group_nights

BIGGEST_POTS = 3  # the pots a night's summary lists


def night_bounds(stored: Stored, number: int) -> tuple[dict[str, Any], Totals, Totals] | None:
    """Night ``number`` (1 = the first), the totals it started from and those it ended at."""
    nights = group_nights(stored.deals)
    if not 1 <= number <= len(nights):
        return None
    night = nights[number - 1]
    start = stored.bases[night["deals"][0]]
    if number == 1:  # from the table as it was made: a correction before the first deal counts
        setup = stored.setup
        start = as_seated(game_for(setup.variant, setup.rules).initial_totals(setup.stacks), setup)
    if number < len(nights):
        end = stored.bases[nights[number]["deals"][0]]
    else:
        now = current_table(stored)
        end = now.totals if now.deal_over else now.base
    return night, start, end


def biggest_pots(stored: Stored, numbers: list[int]) -> list[dict[str, Any]]:
    """The night's largest pots: every chip paid out in a deal, with who took it."""
    pots = []
    for deal in stored.deals:
        result = deal["result"]
        if deal["number"] not in numbers or result is None or deal["finished"] is None:
            continue
        payouts = {name: amount for name, amount in result.get("payouts", {}).items()
                   if amount}
        if payouts:
            pots.append({"number": deal["number"], "pot": sum(payouts.values()),
                         "payouts": payouts,
                         "variant_name": game_class(deal_variant(stored, deal)).name})
    pots.sort(key=lambda p: (-p["pot"], p["number"]))
    return pots[:BIGGEST_POTS]


def night_summary(stored: Stored, number: int) -> dict[str, Any] | None:
    """The JSON of night ``number``'s summary page, or None if there is no such night."""
    bounds = night_bounds(stored, number)
    if bounds is None:
        return None
    night, start, end = bounds
    before, after = positions(start), positions(end)
    dealt = {name for number in night["deals"] for name in stored.bases[number].names
             if name not in stored.bases[number].sitting_out}
    people: list[dict[str, Any]] = []
    for name in after:
        was, now = before.get(name, Position()), after[name]
        if name not in dealt and now.net == was.net and now.cashed_out == was.cashed_out:
            continue  # not dealt in, nothing won, lost or cashed: seated for the next night
        people.append({
            "name": name, "net": now.net - was.net,
            "bought_in": now.bought_in - was.bought_in + was.stack,  # chips brought, or bought
            "cashed_out": now.cashed_out - was.cashed_out, "stack": now.stack,
            "left": name not in end.names,
        })
    people.sort(key=lambda p: (-p["net"], p["name"]))
    setup = stored.setup
    first = number == 1
    held_then = sum(held(start).values())  # the first night: a bank's own chips (R50)
    date = night["started"][:10]
    books = settle_up({p["name"]: p["net"] for p in people}, banker_of(stored), held(end),
                      held_then, stored.people,
                      title=f"{setup.name or 'The table'}, night {number} ({date}): settle-up",
                      start_words=("stands for the {start} chips the table started with"
                                   if first else "held {start} when the night began"))
    finished = [n for n in night["deals"]
                if next(d for d in stored.deals if d["number"] == n)["finished"] is not None]
    return {
        "id": stored.table_id, "name": setup.name, "number": number,
        "nights": len(group_nights(stored.deals)), "started": night["started"],
        "last_started": night["last_started"], "deals": finished,
        "night_gap_hours": NIGHT_GAP.total_seconds() / 3600,
        "people": people, "biggest_pots": biggest_pots(stored, finished),
        "games": sorted({game_class(deal_variant(stored, d)).name for d in stored.deals
                         if d["number"] in finished}),
        **books,
    }
