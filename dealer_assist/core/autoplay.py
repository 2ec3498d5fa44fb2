"""Random legal play: a partner for the property tests, the benchmarks and demos.

:func:`legal_actions` lists actions the current step allows (a sample where amounts and cards
are free); :func:`play_deal` plays one deal to its end.

>>> import random
>>> from dealer_assist.core.table import Table
>>> from dealer_assist.games.registry import variants
>>> t = play_deal(Table.create(variants()[3], ["Ann", "Bob", "Cy"]), random.Random(1))
>>> t.deal_over and t.chips() == 300
True
"""

from __future__ import annotations

import random
from typing import Any

from dealer_assist.core.cards import FULL_DECK, JOKERS
from dealer_assist.core.layouts import LayoutKind
from dealer_assist.core.table import Table


def unused_cards(table: Table) -> list[str]:
    deal = table.deal
    known = set(deal.known_cards()) if deal is not None else set()
    cards = [c for c in FULL_DECK if c not in known]
    if deal is not None:  # a card recorded by rank alone still took one card of that rank
        for rank in (c for p in deal.players for c in p.cards if len(c) == 1):
            cards.remove(next(c for c in cards if c[0] == rank))
    if table.setup.rules.wilds == "jokers":
        cards += [j for j in JOKERS if j not in known]
    return cards


def legal_actions(table: Table, rng: random.Random) -> list[dict[str, Any]]:
    """Some actions the rules allow now (every kind the step offers, amounts sampled)."""
    step = table.step()
    kind = step["kind"]
    who = step.get("player")
    if kind in ("start_deal",):
        return [{"type": "start_deal"}]
    if kind == "game_over":
        return []
    if kind == "buy":
        return [{"type": "buy", "player": who, "count": n} for n in range(step["max"] + 1)]
    if kind == "deal_cards":
        deck = unused_cards(table)
        rng.shuffle(deck)
        cards = [c if rng.random() < 0.7 else c[0] for c in deck[: step["count"]]]
        return [{"type": "deal_cards", "player": who, "cards": cards}]
    if kind == "reveal":
        deck = unused_cards(table)
        rng.shuffle(deck)
        entered = {cell: deck[i] for i, cell in enumerate(step["cells"]) if rng.random() < 0.6}
        return [{"type": "reveal"}, {"type": "reveal", "cards": entered}]
    if kind == "next":
        actions: list[dict[str, Any]] = [{"type": "next"}]
        if "raise" in step.get("options", []):
            deal = table.deal
            assert deal is not None
            actions += [{"type": "raise", "player": p.name} for p in deal.players
                        if p.status == "in" and p.stack > 0]
        return actions
    if kind == "pay":
        return [{"type": "pay", "player": who}, {"type": "fold", "player": who}]
    if kind == "draw":
        return [{"type": "draw", "player": who}]
    if kind == "bet":
        return bet_actions(table, step, rng)
    if kind == "showdown":
        return [showdown_action(table, step, rng)]
    raise AssertionError(f"unknown step {kind}")


def bet_actions(table: Table, step: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    who = step["player"]
    actions: list[dict[str, Any]] = []
    for option in step["options"]:
        if option in ("bet", "raise"):
            low, high = step["min_raise_to"], step["max_raise_to"]
            for amount in {low, high, rng.randint(low, high)}:
                actions.append({"type": option, "player": who, "amount": amount})
        else:
            actions.append({"type": option, "player": who})
    deal = table.deal
    if deal is not None and deal.stakes_per_card:
        p = deal.player(who)
        live = deal.live_stakes(p)
        if len(live) > 1:
            actions.append({"type": "fold", "player": who, "card": rng.choice(live).card})
    return actions


def showdown_action(table: Table, step: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    deck = unused_cards(table)
    rng.shuffle(deck)
    action: dict[str, Any] = {"type": "showdown"}
    if table.game.layout.kind is LayoutKind.BOARD:
        action["board"] = [deck.pop() for _ in step["cells"]]
    else:
        action["cells"] = {cell: deck.pop() for cell in step["cells"]}
    if table.stakes_per_card:
        action["kings_hand"] = [deck.pop() for _ in range(5)]
    else:
        action["hands"] = {
            name: [deck.pop() for _ in range(step["hole_cards"])] for name in step["players"]
        }
    return action


def play_deal(
    table: Table, rng: random.Random, *, undo_rate: float = 0.0, max_actions: int = 2000
) -> Table:
    """Play from here to the end of a deal (starting one if none is in play)."""
    if table.deal_over:
        table = table.apply(table.prepare({"type": "start_deal"}))
    for _ in range(max_actions):
        if table.deal_over:
            return table
        if undo_rate and len(table.actions) > 1 and rng.random() < undo_rate:  # this deal's
            table = table.apply(table.prepare({"type": "undo"}))
            continue
        options = legal_actions(table, rng)
        body = rng.choice(options)
        table = table.apply(table.prepare(body))
    raise AssertionError("a deal did not end")
