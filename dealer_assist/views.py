"""The state of API.md "State", for the dealer and for everyone else.

The public state never holds a card that is still face down at the table: King's Pot players'
cards and hole cards appear only once the showdown has shown them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dealer_assist.cards import JOKERS
from dealer_assist.layouts import (
    CELLS_4,
    CELLS_5,
    GRID4_DOWN,
    GRID5_SETS,
    LINE_OF_RANK,
    LINES_4,
    LINES_5,
)
from dealer_assist.rules import KINGS_POT_VARIANTS, VARIANT_NAMES

if TYPE_CHECKING:
    from dealer_assist.deal import Deal, Totals
    from dealer_assist.table import Table

LOG_LENGTH = 12


def table_state(table: Table, *, dealer: bool) -> dict[str, Any]:
    setup = table.setup
    deal = table.deal
    kings = setup.variant in KINGS_POT_VARIANTS
    totals = table.totals
    step = step_state(table)
    state: dict[str, Any] = {
        "name": setup.name,
        "variant": setup.variant,
        "variant_name": VARIANT_NAMES[setup.variant],
        "seq": table.seq,
        "deal_number": deal.totals.deal_number if deal else totals.deal_number,
        "dealer": deal.players[deal.dealer].name if deal else None,
        "rules": setup.rules.to_json(),
        "players": players_state(table, totals, dealer=dealer),
        "step": step,
        "pots": [],
        "pot_total": 0,
        "result": None,
        "grid": grid_state(table, step),
        "log": deal.log[-LOG_LENGTH:] if deal else [],
        "undone": table.undone,
        "can_undo": deal is not None and len(table.actions) > 1,
        "adjustments": list(deal.scratch.get("adjustments", [])) if deal else [],
        "chips": table.chips(),
    }
    if deal is not None:
        names = [p.name for p in deal.players]
        if deal.result is None:
            state["pots"] = [
                {"amount": pot.amount,
                 "eligible": sorted({names[deal.stakes[i].owner] for i in pot.eligible},
                                    key=names.index)}
                for pot in deal.pots() if pot.amount
            ]
        state["pot_total"] = deal.pot_total()
        state["result"] = deal.result
        if kings:
            state["kings_hand"] = list(deal.kings_hand) if deal.result else []
    if kings:
        state["kings_pot"] = deal.kings_pot if deal else totals.kings_pot
    if setup.variant == "twenty_one_hand_holdem":
        state["bank"] = deal.bank if deal else totals.bank
        state["hand_number"] = state["deal_number"]
        state["hands_left"] = 21 - state["deal_number"]
        blind = deal.scratch.get("blind") if deal else None
        state["blind"] = deal.players[blind].name if deal and blind is not None else None
        state["carried"] = deal.carry if deal else totals.carry
    else:
        state["carried"] = deal.carry if deal else totals.carry
    return state


def players_state(table: Table, totals: Totals, *, dealer: bool) -> list[dict[str, Any]]:
    deal = table.deal
    kings = table.kings_pot_game
    out: list[dict[str, Any]] = []
    if deal is None:
        for name, stack in zip(table.setup.players, totals.stacks, strict=True):
            out.append({"name": name, "stack": stack, "status": "out", "bet": 0,
                        "in_pot": 0, "buy_in": stack} | ({"cards": 0} if kings else {}))
        return out
    shown = showdown_seen(deal)
    buy_ins = totals.buy_ins
    for p in deal.players:
        live = deal.live_stakes(p)
        entry: dict[str, Any] = {
            "name": p.name, "stack": p.stack, "status": p.status,
            "bet": p.round_bet if deal.round else 0,
            "in_pot": sum(deal.stakes[i].contributed for i in p.stakes),
            "dealer": p.seat == deal.dealer,
            "buy_in": buy_ins[p.seat],
        }
        if kings:
            entry["cards"] = len(live)
            entry["bought"] = p.bought or 0
            if dealer:
                entry["hand"] = [s.card for s in (deal.stakes[i] for i in p.stakes) if s.card]
            if dealer or (shown and p.live):  # folded cards are never shown (R26)
                entry["live_cards"] = [s.card for s in live if s.card]
                entry["lines"] = [LINE_OF_RANK[c[0]] for c in entry["live_cards"]]
        elif (dealer or shown) and p.cards and p.live:
            entry["hand"] = list(p.cards)
        out.append(entry)
    return out


def step_state(table: Table) -> dict[str, Any]:
    deal = table.deal
    if deal is None:
        return {"kind": "start_deal", "player": None,
                "instruction": "Tap Start deal to deal the first hand."}
    step = deal.step()
    step.setdefault("player", None)
    return step


def grid_state(table: Table, step: dict[str, Any]) -> dict[str, Any] | None:
    """The layout as drawn on the pages: every cell's card where entered, ``"up"`` where it is
    turned but not entered, ``None`` where it is still face down."""
    variant = table.setup.variant
    deal = table.deal
    if variant == "twenty_one_hand_holdem":
        board = ("b1", "b2", "b3", "b4", "b5")
        return {"size": 0, "board": [cell_value(deal, c) for c in board],
                "cells": {c: cell_value(deal, c) for c in board},
                "highlight": step_cells(step)}
    cells: tuple[str, ...]
    if variant == "off_road_stud":
        cells, lines = CELLS_4, LINES_4
        marks = {c: ("D" if c in GRID4_DOWN else "E") for c in cells}
        size = 4
    else:
        cells, lines = CELLS_5, LINES_5
        marks = {f"r{r + 1}c{c + 1}": str(GRID5_SETS[r][c]) for r in range(5) for c in range(5)}
        size = 5
    return {
        "size": size,
        "cells": {c: cell_value(deal, c) for c in cells},
        "marks": marks,
        "lines": {name: list(line) for name, line in lines.items()},
        "highlight": step_cells(step),
    }


def cell_value(deal: Deal | None, cell: str) -> str | None:
    if deal is None or cell not in deal.revealed:
        return None
    card = deal.grid.get(cell)
    return card if card else "up"


def step_cells(step: dict[str, Any]) -> list[str]:
    """The cells to turn now, highlighted on the grid."""
    return list(step.get("cells", [])) if step["kind"] == "reveal" else []


def showdown_seen(deal: Deal) -> bool:
    """Whether the players still in have shown their cards: a showdown, not a deal won
    because everyone else folded."""
    return deal.result is not None and not deal.result.get("uncontested")


def hidden_cards(table: Table) -> set[str]:
    """Every full card the dealer knows that is still face down at the table (for the no-leak
    tests): players' cards before the showdown, folded cards, an uncontested winner's."""
    deal = table.deal
    if deal is None:
        return set()
    hidden: set[str] = set()
    for p in deal.players:
        shown: set[str | None] = set()
        if showdown_seen(deal) and p.live:
            shown = {s.card for s in deal.live_stakes(p)} if deal.kings_pot_game else set(p.cards)
        hidden.update(c for c in p.cards if len(c) == 2 and c not in JOKERS and c not in shown)
    return hidden
