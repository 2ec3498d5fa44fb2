"""The table's ledger: buy-ins, stacks, nets, what the table holds, and the settle-up.

Each player's buy-ins are the stack they sat down with plus every ``rebuy``;
``net = stack - bought in``. Chips that belong to no player (a carried pot, a game's bank
(R50), chips carried in a pot, odd chips taken off the table) are listed as "on the table". The
table is one more party in the settle-up: its balance is the chips on it now minus the chips it
started with (a bank's 21 chips, R50; nothing in the other games). With it, the balances
sum to zero (R3), and a payment to the table means "put this in the kitty that stands for the
carried pot"; a payment from it, the bank's chips the game paid out. In transfers
the table is ``null``."""

from __future__ import annotations

from typing import Any

from dealer_assist.core.table import Table
from dealer_assist.games.registry import game_for
from dealer_assist.services.history.stored import (
    Stored,
    between_deal_entries,
    current_table,
    everyone,
    first_made,
    with_cash_outs,
)
from dealer_assist.services.ledger import settle


def table_ledger(stored: Stored, now: Table | None = None) -> dict[str, Any]:
    """Buy-ins, stacks, nets, chips on the table and the fewest transfers that settle up.

    While a deal is in play, the figures are those before it (the chips in its pot belong to
    nobody yet)."""
    now = now or current_table(stored)
    settled = now.totals if now.deal_over else now.base
    in_play = None if now.deal_over else now.deal.totals.deal_number if now.deal else None
    setup = stored.setup
    by_deal = between_deal_entries(stored)
    with_cash_outs(by_deal, stored, now)
    entries = [e for deal_entries in by_deal.values()
               for e in deal_entries if in_play is None or e["deal"] < in_play]
    gone = {d.name: d for d in settled.departed}
    players: list[dict[str, Any]] = []
    for name in everyone(stored, now):
        if name not in gone and name not in settled.names:
            continue  # seated during the deal in play: the ledger is as before it
        listed = [{"type": "start", "amount": stack, "deal": None, "seq": None,
                   "time": first_made(stored.row)}
                  for n, stack in zip(setup.players, setup.stacks, strict=True) if n == name]
        listed += [{"type": "late" if e["type"] == "seat" else "rebuy", "amount": e["amount"],
                    "deal": e["deal"], "seq": e["seq"], "time": e["time"]} for e in entries
                   if e["type"] in ("rebuy", "seat") and e["player"] == name]
        adjustments = []
        for e in entries:
            if e["type"] != "adjust" or name not in (e["player"], e["to"]):
                continue
            gives = e["player"] == name
            adjustments.append({"deal": e["deal"], "seq": e["seq"], "time": e["time"],
                                "amount": -e["amount"] if gives else e["amount"],
                                "with": e["to"] if gives else e["player"], "note": e["note"]})
        cash_outs = [{"amount": e["amount"], "deal": e["deal"], "seq": e["seq"],
                      "time": e["time"]} for e in entries
                     if e["type"] == "leave" and e["player"] == name]
        if name in gone:  # settled by their net at leaving (R70)
            left = gone[name]
            bought, stack, net = left.bought_in, 0, left.cashed_out - left.bought_in
        else:
            seat = settled.names.index(name)
            bought, stack = settled.buy_ins[seat], settled.stacks[seat]
            net = stack - bought
        players.append({
            "name": name, "buy_ins": listed, "bought_in": bought, "stack": stack, "net": net,
            "adjustments": adjustments, "cash_outs": cash_outs, "left": name in gone,
            "cashed_out": gone[name].cashed_out if name in gone else 0,
        })
    started_with = game_for(setup.variant, setup.rules).initial_totals(setup)
    on_table = {
        "kings_pot": settled.carried.get("kings_pot", 0),
        "bank": settled.carried.get("bank", 0), "carried": settled.carry,
        "off_table": settled.carried.get("off_table", 0),
    }
    held = sum(on_table.values())
    on_table |= {"total": held, "started_with": started_with.chips() - sum(setup.stacks),
                 "net": held - (started_with.chips() - sum(setup.stacks))}
    balances: dict[str | None, int] = {p["name"]: p["net"] for p in players}
    balances[None] = on_table["net"]  # the table: see the module's docstring
    settlement = settle(balances)
    return {
        "as_of_deal": settled.deal_number, "deal_in_play": in_play,
        "players": players, "on_table": on_table,
        "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount}
                      for t in settlement.transfers],
        "fewest": settlement.optimal,
        "rebuys": [e for e in entries if e["type"] == "rebuy"],
        "adjustments": [e for e in entries if e["type"] == "adjust"],
        "late_buy_ins": [e for e in entries if e["type"] == "seat"],
        "cash_outs": [e for e in entries if e["type"] == "leave"],
    }
