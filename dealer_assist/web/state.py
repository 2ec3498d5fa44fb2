"""The state of API.md "State", for the dealer and for everyone else.

The public state never holds a card that is still face down at the table: bought cards and hole
cards appear only once the showdown has shown them. What a game adds is the game's to say
(``Game.add_state``, ``Game.player_fields``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from dealer_assist.core.deal import PlayerStatus
from dealer_assist.core.equity import Equity
from dealer_assist.core.game import Game
from dealer_assist.core.layouts import LayoutKind
from dealer_assist.core.runout import EquityQuestion, equity_question
from dealer_assist.core.showdown import second_cell
from dealer_assist.games.registry import all_games
from dealer_assist.services.dealers_choice import next_game_choices

if TYPE_CHECKING:
    from dealer_assist.core.deal import Deal, Totals
    from dealer_assist.core.table import Table

LOG_LENGTH = 12
PENDING_NOTE = "The chances are being worked out: they appear in a moment."
EquityLookup = Callable[[EquityQuestion], Equity | None]


@cache
def games_that_wait() -> tuple[type[Game], ...]:
    """The games that add to the state while another is dealt (R72): every state asks them,
    so the others are left out once (benchmarks.md, "A game is one module")."""
    return tuple(g for g in all_games()
                 if g.waiting_state.__func__ is not Game.waiting_state.__func__)  # type: ignore[attr-defined]


@cache
def games_that_keep() -> tuple[type[Game], ...]:
    """The games that keep a pot the pages show between deals (R28, R50)."""
    return tuple(g for g in all_games() if any(pot.shown for pot in g.carried_pots))


def table_state(table: Table, *, dealer: bool = False,
                equity_of: EquityLookup | None = None) -> dict[str, Any]:
    """The state of API.md; ``dealer`` adds what only the dealer may see. ``equity_of``
    gives R67's chances, or None while they are being worked out (web/equity_later.py);
    without it they are worked out here."""
    setup = table.setup
    deal = table.deal
    game = table.game
    totals = table.totals
    step = table.step()
    state: dict[str, Any] = {
        "name": setup.name,
        "variant": game.variant,  # the game of the deal in play, or of the last (R71)
        "variant_name": game.name,
        "seq": table.seq,
        "deal_number": deal.totals.deal_number if deal else totals.deal_number,
        "dealer": deal.players[deal.dealer].name if deal else None,
        "rules": setup.rules.to_json(),
        "players": players_state(table, totals, dealer=dealer),
        "step": step,
        "public_instruction": public_instruction(step, deal),
        "pots": [],
        "pot_total": 0,
        "result": None,
        "grid": grid_state(table, step),
        "log": [*(deal.log if deal else ()), *table.between_log][-LOG_LENGTH:],
        "undone": table.undone,
        "can_undo": table.can_undo,
        "adjustments": [a.to_json() for a in table.between if a.type == "adjust"],
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
        state["result"] = deal.result.to_json() if deal.result is not None else None
        if deal.result is not None:
            state["result_words"] = game.result_words(deal.result)
            state["result_sentences"] = game.result_sentences(deal.result)
            state["winning_words"] = game.winning_title(deal.result)
        if not table.deal_over:
            state["posted"] = [{"player": names[seat], "kind": kind, "amount": amount}
                               for seat, kind, amount in deal.posted]
        if deal.bomb_pot:
            state["bomb_pot"] = deal.bomb_pot
        if deal.second_run:
            state["run_twice"] = True
        state |= equity_state(game, deal, equity_of)
    game.add_state(state, deal, totals)
    for other in games_that_wait():
        other.waiting_state(state, totals, game)
    state["carried_pots"] = carried_pots_state(game, deal, totals)
    state["carried"] = deal.carry if deal else totals.carry
    state["sitting_out"] = list(totals.sitting_out)
    state["departed"] = [d.to_json() for d in totals.departed]
    if table.deal_over:  # what the next deal may be, for the between-deal screen (R71)
        state["next_games"] = next_game_choices(table)
        state["between_actions"] = list(game.between_deal_actions)
    return state


def equity_state(game: Game, deal: Deal, equity_of: EquityLookup | None = None
                 ) -> dict[str, Any]:
    """R67: once hands are tabled at an all-in, each player still in's chance to win the main
    pot (``equity``, 0 to 1), whether it was counted exactly (``equity_exact``) or sampled, and
    then the 95% margin of its error (``equity_margin``, in the same units) and the boards
    drawn (``equity_samples``); with two runs, each run's own (``equity_runs``). Where a card
    turned has no face entered, ``equity_note`` says so instead; while the chances are being
    worked out (``equity_of`` gave None), ``equity_pending`` and its note."""
    question = equity_question(game, deal)
    if question is None:
        return {}
    if isinstance(question, str):
        return {"equity": None, "equity_note": question}
    found = question.answer() if equity_of is None else equity_of(question)
    if found is None:
        return {"equity": None, "equity_pending": True, "equity_note": PENDING_NOTE}
    out: dict[str, Any] = {
        "equity": {name: round(share, 4) for name, share in found.shares.items()},
        "equity_exact": found.exact, "equity_margin": found.margin,
        "equity_samples": found.samples,
    }
    if len(found.runs) > 1:
        out["equity_runs"] = [{name: round(share, 4) for name, share in run.items()}
                              for run in found.runs]
    return out


def carried_pots_state(game: Game, deal: Deal | None, totals: Totals) -> list[dict[str, Any]]:
    """The pots the table keeps between deals that the pages show now: the dealt game's own
    (R28, R50), then another game's waiting through this deal (R72)."""
    amounts = game.carried_amounts(deal, totals)
    out = [{"key": pot.key, "title": pot.title, "amount": amounts.get(pot.key, 0),
            "waiting": False, "words": f"{pot.title}: {amounts.get(pot.key, 0)}"}
           for pot in game.carried_pots if pot.shown]
    shown = {pot.key for pot in game.carried_pots}
    for other in games_that_keep():
        waiting = other.waiting_amounts(totals)
        for pot in other.carried_pots:
            amount = waiting.get(pot.key, 0)
            if pot.key not in shown and pot.shown and amount:
                shown.add(pot.key)
                out.append({"key": pot.key, "title": pot.title, "amount": amount,
                            "waiting": True, "words": f"{pot.title} waiting: {amount}"})
    return out


def public_instruction(step: dict[str, Any], deal: Deal | None) -> str:
    """The step in the players' words, for the phones: what the dealer is doing, not what to
    tap ("The dealer is dealing Bob 2 cards"). A phase says it as ``step["public"]`` where its
    instruction is the dealer's alone."""
    if step.get("public"):
        return str(step["public"])
    if step["kind"] == "start_deal":
        if deal is None:
            return "Waiting for the dealer to start the first deal."
        return "The deal is over. The next one starts soon."
    return str(step["instruction"])


def players_state(table: Table, totals: Totals, *, dealer: bool) -> list[dict[str, Any]]:
    """Everyone seated, in seat order: a player out of the deal (sitting out, no chips,
    seated since) is ``out`` (R70); between deals the stacks are the table's, rebuys and
    corrections included."""
    deal = table.deal
    game = table.game
    in_deal = {p.name: p for p in deal.players} if deal is not None else {}
    shown = showdown_seen(deal) if deal is not None else False
    over = table.deal_over
    away = set(totals.sitting_out)
    out: list[dict[str, Any]] = []
    for seat, name in enumerate(totals.names):
        stack, buy_in = totals.stacks[seat], totals.buy_ins[seat]
        p = in_deal.get(name)
        if deal is None or p is None:
            entry: dict[str, Any] = {"name": name, "stack": stack,
                                     "status": PlayerStatus.OUT.value, "bet": 0,
                                     "in_pot": 0, "buy_in": buy_in}
            entry |= game.idle_player_fields()
        else:
            entry = {
                "name": p.name, "stack": stack if over else p.stack, "status": p.status.value,
                "bet": p.round_bet if deal.round else 0,
                "in_pot": sum(deal.stakes[i].contributed for i in p.stakes),
                "dealer": p.seat == deal.dealer,
                "buy_in": buy_in,
            }
            # a hand tabled at an all-in is public from then on (R67)
            entry.update(game.player_fields(deal, p, dealer=dealer,
                                            shown=shown or p.seat in deal.tabled))
            if p.seat in deal.tabled:
                entry["tabled"] = True
            if p.seat in deal.blinds and not over:
                entry["blind"] = blind_word(deal.blinds.index(p.seat), len(deal.blinds))
        if name in away:
            entry["sitting_out"] = True
        out.append(entry)
    return out


def blind_word(index: int, count: int) -> str:
    """Which blind the ``index``-th of a deal's ``count`` blinds is, for the player rows'
    markers: the only one, or small, big and then straddles in the order they were posted."""
    if count == 1:
        return "blind"
    return ("small", "big")[index] if index < 2 else "straddle"


def grid_state(table: Table, step: dict[str, Any]) -> dict[str, Any] | None:
    """The layout as drawn on the pages: every cell's card where entered, ``"up"`` where it is
    turned but not entered, ``None`` where it is still face down."""
    layout = table.game.layout
    deal = table.deal
    cells = {c: cell_value(deal, c) for c in layout.cells}
    if layout.kind is LayoutKind.BOARD:
        board: dict[str, Any] = {"size": 0, "board": list(cells.values()), "cells": cells,
                                 "highlight": step_cells(step)}
        if deal is not None and deal.second_run:
            # R66: the second run's board, a cell a place: the cells turned before the runs
            # parted are the first run's own, the others their ".2" twins
            run = [second_cell(c) if c in deal.second_run else c for c in layout.cells]
            cells.update({c: cell_value(deal, c) for c in run if c not in cells})
            board["second_run"] = run
        return board
    return {
        "size": layout.size,
        "cells": cells,
        "marks": dict(layout.marks),
        "lines": {name: list(line) for name, line in layout.lines.items()},
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
    return deal.result is not None and not deal.result.uncontested


def hidden_cards(table: Table) -> set[str]:
    """Every full card the dealer knows that is still face down at the table (for the no-leak
    tests): players' cards before the showdown, folded cards, an uncontested winner's."""
    deal = table.deal
    if deal is None:
        return set()
    return table.game.hidden_cards(deal, showdown_seen(deal))
