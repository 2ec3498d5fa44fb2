"""The table's books: buy-ins, stacks, nets, what the table holds and who holds it, and the
settle-up (R76).

Each player's buy-ins are the stack they sat down with plus every ``rebuy``;
``net = stack + cashed out - bought in``. Chips that belong to no player (a pot the table
carries, a game's bank (R50), chips carried to the next deal's pot, odd chips taken off) are
held in cash by the **banker**: the host, unless the table names a seated player
(``rules.banker``). The banker is one more party in the settle-up, with the balance of what the
table holds now minus what it held at the start (a bank's 21 chips, R50; nothing in the other
games): the balances then sum to zero (R3) and every transfer is between people. The banker
is told what they hold and why, in the words of the game that keeps the pot ("Ann holds 6"
and the pot's ``held_for``); in transfers the host is ``null``.

The same settle-up squares one night (``nights.night_summary``): each person's net over the
night, and the banker's balance of what the table holds at its end minus at its start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.core.deal import Totals
from dealer_assist.core.table import Table
from dealer_assist.games.registry import game_for
from dealer_assist.services import carried
from dealer_assist.services.history.stored import (
    Stored,
    between_deal_entries,
    current_table,
    everyone,
    first_made,
    with_cash_outs,
)
from dealer_assist.services.ledger import settle
from dealer_assist.services.people import People, pay_link

HOST = "the host"


@dataclass(frozen=True)
class Position:
    """Where one person stands at a table at one moment: the chips in front of them, and
    every chip they ever bought in and cashed out there. Their net is ``stack + cashed_out -
    bought_in``; only a deal's result and a correction (R8) move it."""

    stack: int = 0
    bought_in: int = 0
    cashed_out: int = 0

    @property
    def net(self) -> int:
        return self.stack + self.cashed_out - self.bought_in


def positions(totals: Totals) -> dict[str, Position]:
    """Everyone who sat at the table up to ``totals``, seated or gone (R70): a player who
    left and sat down again adds both."""
    out: dict[str, Position] = {}
    for gone in totals.departed:
        was = out.get(gone.name, Position())
        out[gone.name] = Position(0, was.bought_in + gone.bought_in,
                                  was.cashed_out + gone.cashed_out)
    for name, stack, bought in zip(totals.names, totals.stacks, totals.buy_ins, strict=True):
        was = out.get(name, Position())
        out[name] = Position(stack, was.bought_in + bought, was.cashed_out)
    return out


def held(totals: Totals) -> dict[str, int]:
    """What the table holds outside the stacks, by pot (R76), zeros left out."""
    return {key: amount for key, amount in carried.amounts(totals).items() if amount}


def party(name: str | None) -> str:
    return HOST if name is None else name


def and_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def banker_words(banker: str | None, now: Mapping[str, int], start: int, *,
                 start_words: str = "held {start} at the start") -> str | None:
    """What the banker holds and why, as a sentence ("Ann holds 2 carried to the next deal's
    pot."), or
    None when the table holds nothing and held nothing. ``start``: what the banker held (or
    stood for) when the span began; ``start_words`` says it."""
    who = party(banker)
    total = sum(now.values())
    reasons = [f"{amount} {carried.pot(key).held_for}" for key, amount in now.items()]
    what = (f"{total} {carried.pot(next(iter(now))).held_for}" if len(now) == 1
            else f"{total}: {and_list(reasons)}" if now else "nothing")
    change = total - start
    if not start:
        sentence = f"{who} holds {what}." if total else None
    elif not change:
        sentence = f"{who} still holds {what}."
    else:
        holds = f" and holds {total} now ({and_list(reasons)})" if total else \
            " and holds nothing now"
        then = f"pays out {-change}" if change < 0 else f"takes in {change}"
        sentence = f"{who} {start_words.format(start=start)}{holds}: {party(banker)} {then}."
    return sentence[0].upper() + sentence[1:] if sentence else None


def settle_up(nets: Mapping[str, int], banker: str | None, now: Mapping[str, int],
              start: int, people: People, *, title: str,
              start_words: str = "held {start} at the start") -> dict[str, Any]:
    """The fewest transfers between people that square ``nets`` and the banker's balance
    (what the table holds ``now`` minus ``start``), with the banker's sentence, each payee's
    handle, and the whole as text to paste into a group chat."""
    balances: dict[str | None, int] = {name: net for name, net in nets.items()}
    table_net = sum(now.values()) - start
    balances[banker] = balances.get(banker, 0) + table_net
    settlement = settle(balances)
    transfers = []
    for t in settlement.transfers:
        words = f"{party(t.payer)} pays {party(t.payee)} {t.amount:,}"
        out: dict[str, Any] = {"from": t.payer, "to": t.payee, "amount": t.amount,
                               "words": words[0].upper() + words[1:]}
        handle = people.pay_to(t.payee) if t.payee is not None else None
        if handle:
            out |= {"pay_to": handle, "pay_link": pay_link(handle)}
        transfers.append(out)
    holding = [{"key": key, "title": carried.pot(key).title, "amount": amount,
                "held_for": carried.pot(key).held_for} for key, amount in now.items()]
    sentence = banker_words(banker, now, start, start_words=start_words)
    lines = [title]
    lines += [t["words"] + (f" ({party(t['to'])}: {t['pay_to']})" if t.get("pay_to") else "")
              for t in transfers]
    if not transfers:
        lines.append("Everyone is square: nobody owes anything.")
    if sentence:
        lines.append(sentence)
    return {
        "transfers": transfers, "fewest": settlement.optimal,
        "banker": {"name": banker, "host": banker is None, "holds": sum(now.values()),
                   "held": holding, "start": start, "net": table_net, "words": sentence},
        "text": "\n".join(lines),
    }


def banker_of(stored: Stored) -> str | None:
    """The table's banker (R76): the player ``rules.banker`` names, else the host (None)."""
    return stored.setup.rules.banker


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
    position = positions(settled)
    players: list[dict[str, Any]] = []
    for name in everyone(stored, now):
        if name not in position:
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
        at = position[name]  # a player who left is settled by their net at leaving (R70)
        left = name not in settled.names
        players.append({
            "name": name, "buy_ins": listed, "bought_in": at.bought_in, "stack": at.stack,
            "net": at.net, "adjustments": adjustments, "cash_outs": cash_outs, "left": left,
            "cashed_out": at.cashed_out,
        })
    now_held = held(settled)
    amounts = carried.amounts(settled)
    on_table: dict[str, int] = {key: amounts.get(key, 0) for key in carried.game_pot_keys()}
    on_table["carried"] = amounts[carried.CARRY.key]
    started_with = sum(carried.amounts(
        game_for(setup.variant, setup.rules).initial_totals(setup.stacks)).values())
    on_table |= {"total": sum(now_held.values()), "started_with": started_with,
                 "net": sum(now_held.values()) - started_with}
    books = settle_up({p["name"]: p["net"] for p in players}, banker_of(stored), now_held,
                      started_with, stored.people,
                      title=f"{setup.name or 'The table'}: settle-up after deal "
                            f"{settled.deal_number}",
                      start_words="stands for the {start} chips the table started with")
    return {
        "as_of_deal": settled.deal_number, "deal_in_play": in_play,
        "players": players, "on_table": on_table, **books,
        "rebuys": [e for e in entries if e["type"] == "rebuy"],
        "adjustments": [e for e in entries if e["type"] == "adjust"],
        "late_buy_ins": [e for e in entries if e["type"] == "seat"],
        "cash_outs": [e for e in entries if e["type"] == "leave"],
    }
