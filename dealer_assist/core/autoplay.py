"""Random legal play: a partner for the property tests, the benchmarks and demos.

:func:`legal_actions` lists actions the current step allows (a sample where amounts and cards
are free); :func:`play_deal` plays one deal to its end.

>>> import random
>>> from dealer_assist.core.table import Table
>>> from dealer_assist.games.registry import new_table, variants
>>> t = play_deal(new_table(variants()[3], ["Ann", "Bob", "Cy"]), random.Random(1))
>>> t.deal_over and t.chips() == 300
True
"""

from __future__ import annotations

import random
from typing import Any

from dealer_assist.core.cards import JOKERS, Wilds
from dealer_assist.core.deal import PlayerStatus
from dealer_assist.core.layouts import LayoutKind
from dealer_assist.core.step import Step, StepKind
from dealer_assist.core.table import Table


def unused_cards(table: Table) -> list[str]:
    deal = table.deal
    known = set(deal.known_cards()) if deal is not None else set()
    cards = [c for c in table.game.deck if c not in known]
    if deal is not None:  # a card recorded by rank alone still took one card of that rank
        for rank in (c for p in deal.players for c in p.cards if len(c) == 1):
            cards.remove(next(c for c in cards if c[0] == rank))
    if table.setup.rules.wilds is Wilds.JOKERS:
        cards += [j for j in JOKERS if j not in known]
    return cards


def legal_actions(table: Table, rng: random.Random) -> list[dict[str, Any]]:
    """Some actions the rules allow now (every kind the step offers, amounts sampled)."""
    step = table.next_step()
    kind = step.kind
    who = step.player
    if kind is StepKind.START_DEAL:
        starts: list[dict[str, Any]] = [{"type": "start_deal"}]
        if "bomb_pot" in table.game.deal_options:  # R65
            starts.append({"type": "start_deal", "bomb_pot": rng.choice((1, 2, 5))})
        return starts
    if kind is StepKind.GAME_OVER:
        return []
    if kind is StepKind.BUY:
        assert step.most_cards is not None
        return [{"type": "buy", "player": who, "count": n} for n in range(step.most_cards + 1)]
    if kind is StepKind.DEAL_CARDS:
        deck = unused_cards(table)
        rng.shuffle(deck)
        cards = [c if rng.random() < 0.7 else c[0] for c in deck[: step.count]]
        return [{"type": "deal_cards", "player": who, "cards": cards}]
    if kind is StepKind.REVEAL:
        deck = unused_cards(table)
        rng.shuffle(deck)
        if not step.cells and step.players:  # each player's new up card (R81)
            return [{"type": "reveal", "cards": {name: deck[i] for i, name
                                                 in enumerate(step.players)}}]
        entered = {cell: deck[i] for i, cell in enumerate(step.cells or ())
                   if rng.random() < 0.6}
        reveals: list[dict[str, Any]] = [{"type": "reveal"}, {"type": "reveal", "cards": entered}]
        options = step.options or ()
        if "run_twice" in options:  # R66
            reveals.append({"type": "run_twice"})
        if "show" in options:  # R67: some of the hands still to table
            names = list(step.players or ())
            shown = rng.sample(names, rng.randint(1, len(names)))
            deck = deck[len(step.cells or ()):]
            reveals.append({"type": "show", "hands": {
                name: [deck.pop() for _ in range(step.hole_cards or 0)] for name in shown}})
        return reveals
    if kind is StepKind.NEXT:
        actions: list[dict[str, Any]] = [{"type": "next"}]
        if "raise" in (step.options or ()):
            deal = table.deal
            assert deal is not None
            actions += [{"type": "raise", "player": p.name} for p in deal.players
                        if p.status == PlayerStatus.IN and p.stack > 0]
        return actions
    if kind is StepKind.PAY:
        return [{"type": "pay", "player": who}, {"type": "fold", "player": who}]
    if kind is StepKind.DRAW:
        return [{"type": "draw", "player": who}]
    if kind is StepKind.DISCARD:  # R85: 0 (standing pat) up to the hand's size
        assert step.most_cards is not None
        return [{"type": "discard", "player": who, "count": n}
                for n in range(step.most_cards + 1)]
    if kind is StepKind.BET:
        return bet_actions(table, step, rng)
    if kind is StepKind.SHOWDOWN:
        return [showdown_action(table, step, rng)]
    raise AssertionError(f"unknown step {kind}")


def bet_actions(table: Table, step: Step, rng: random.Random) -> list[dict[str, Any]]:
    who = step.player
    actions: list[dict[str, Any]] = []
    options = step.options or ()
    for option in options:
        if option == "all_in" and step.to_call and "call" not in options:
            # a call the stack cannot cover is offered as all in only, and still accepted
            actions.append({"type": "call", "player": who})
        if option in ("bet", "raise"):
            assert step.bet is not None
            low, high = step.bet.min_raise_to, step.bet.max_raise_to
            assert low is not None and high is not None
            for amount in {low, high, rng.randint(low, high)}:
                actions.append({"type": option, "player": who, "amount": amount})
        else:
            actions.append({"type": option, "player": who})
    deal = table.deal
    if deal is not None and deal.stakes_per_card and who is not None:
        p = deal.player(who)
        live = deal.live_stakes(p)
        if len(live) > 1:
            actions.append({"type": "fold", "player": who, "card": rng.choice(live).card})
    return actions


def showdown_action(table: Table, step: Step, rng: random.Random) -> dict[str, Any]:
    deck = unused_cards(table)
    rng.shuffle(deck)
    action: dict[str, Any] = {"type": "showdown"}
    if table.game.layout.kind is LayoutKind.BOARD:
        action["board"] = [deck.pop() for _ in step.cells or ()]
    else:
        action["cells"] = {cell: deck.pop() for cell in step.cells or ()}
    for place in table.game.places:  # a hand of the game's own, dealt face down
        action[place.field] = [deck.pop() for _ in range(place.cards)]
    if not table.stakes_per_card:  # a player's cards bought are already entered (R23)
        action["hands"] = {
            name: [deck.pop() for _ in range(step.hole_cards or 0)] for name in step.players or ()
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
