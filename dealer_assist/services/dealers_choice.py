"""The dealer's-choice menu (R71): every game the next deal at a table may be, with the house
rules it reads and, where it cannot be dealt now, the sentence why. The between-deals screen
lists it; the rule itself (which game may follow which) is the table's
(``Table.next_game``)."""

from __future__ import annotations

import weakref
from typing import Any

from dealer_assist.core.deal import Totals
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game
from dealer_assist.core.rules import Betting, rules_line
from dealer_assist.core.table import Table, dealt_in


def deal_options(game: Game, totals: Totals) -> dict[str, Any]:
    """What the next deal of ``game`` may ask for on its own (``start_deal``'s fields), with
    what the between-deals screen offers: ``straddle`` (R63), the table's rule, where a
    straddle can be posted (never in fixed limit); ``bomb_pot`` (R65), the ante to offer:
    the last bomb pot's at this table, else the house rule's, else twice the big blind."""
    out: dict[str, Any] = {}
    rules = game.rules
    if "straddle" in game.deal_options and rules.betting is not Betting.FIXED_LIMIT:
        out["straddle"] = rules.straddle
    if "bomb_pot" in game.deal_options:
        out["bomb_pot"] = totals.bomb_pot or rules.bomb_pot_ante or 2 * max(rules.big_blind, 1)
    return out


# a table never changes: its menu, worked out for the dealer's state, serves the public one
_MENUS: weakref.WeakKeyDictionary[Table, list[dict[str, Any]]] = weakref.WeakKeyDictionary()


def next_game_choices(table: Table) -> list[dict[str, Any]]:
    """``{"variant", "name", "current", "rules", "rules_line", "deal_options", "refusal"}`` for
    each game of the table's catalogue that may ever follow (a whole game is offered nowhere
    but its own table, R71). Each call gets lists and dicts of its own."""
    menu = _MENUS.get(table)
    if menu is None:
        menu = _MENUS[table] = _work_out_menu(table)
    return [{key: dict(value) if isinstance(value, dict) else value
             for key, value in entry.items()} for entry in menu]


def _work_out_menu(table: Table) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    totals = table.totals
    for kind in table.setup.catalogue.all():
        entry: dict[str, Any] = {"variant": kind.variant, "name": kind.name,
                                 "current": kind.variant == table.game.variant}
        try:
            game = table.next_game(kind.variant)
        except IllegalActionError as err:
            if table.game.whole_game or kind.whole_game:
                continue  # never a choice here: not offered at all
            entry["refusal"] = str(err)
            out.append(entry)
            continue
        rules = game.rules.to_json()
        entry["rules"] = {k: rules[k] for k in game.house_rules if k != "buy_in"}
        entry["rules_line"] = rules_line(entry["rules"])
        entry["deal_options"] = deal_options(game, totals)
        low, high = game.players
        count = len(dealt_in(game, totals))
        if not low <= count <= high:
            entry["refusal"] = (f"{game.name} is for {low} to {high} players dealt in, "
                                f"not {count}.")
        out.append(entry)
    return out
