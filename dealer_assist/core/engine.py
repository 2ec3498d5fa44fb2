"""Playing a deal: the engine that walks a deal through its game's phases as actions arrive.

The deal (``core/deal.py``) is data and knows neither its game nor the phases; the game
(``core/game.py``) is a definition that never plays. The functions here take both, and hand
the game to every phase they call. Each action is applied to a copy of the deal (the table's
``Deal.clone``), so a handler that refuses half-way changes nothing (R9).

>>> from dealer_assist.games.registry import CATALOGUE, new_table
>>> t = new_table(CATALOGUE.all()[0].variant, ["Ann", "Bob", "Cy"])
>>> t = t.apply(t.prepare({"type": "start_deal"}))
>>> deal = t.deal.clone()
>>> apply_action(t.game, deal, t.prepare({"type": "start_deal"}))
Traceback (most recent call last):
...
dealer_assist.core.errors.IllegalActionError: A deal is already in play: finish it first.
>>> deal == t.deal and next_step(t.game, deal) == t.next_step()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from dealer_assist.core.actions import Action
from dealer_assist.core.deal import Deal, PhaseState, Player, Totals
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game, GamePhase
from dealer_assist.core.step import Step


def start_deal(game: Game, names: tuple[str, ...], totals: Totals,
               overrides: Mapping[str, Any] | None = None, *, bomb_pot: int = 0) -> Deal:
    """A new deal of ``game``; ``names``: the players in seat order, where the totals name
    nobody (a table stored before R70); ``overrides``: house rules laid over the table's for
    this deal alone (``start_deal``'s ``straddle``, R63); ``bomb_pot``: everyone's ante of a
    bomb pot (R65), or 0."""
    if totals.game_over:
        raise IllegalActionError("The game is over: no more deals at this table.")
    dealer = game.next_dealer(totals)
    players = [
        Player(name=name, seat=i, stack=stack)
        for i, (name, stack) in enumerate(zip(totals.names or names, totals.stacks,
                                              strict=True))
    ]
    deal = Deal(
        facts=game.facts, rules=replace(game.rules, **overrides) if overrides else game.rules,
        players=players, dealer=dealer,
        totals=replace(totals, deal_number=totals.deal_number + 1),
        carried=dict(totals.carried), carry=totals.carry, bomb_pot=bomb_pot,
    )
    game.set_up(deal)
    game.phases[0].enter(game, deal)
    advance(game, deal)
    return deal


def current_phase(game: Game, deal: Deal) -> GamePhase:
    """The phase of ``game`` the deal is in."""
    return game.phases[deal.phase]


def next_step(game: Game, deal: Deal) -> Step:
    """What happens next in the deal: who acts, what the dealer does."""
    return current_phase(game, deal).step(game, deal)


def apply_action(game: Game, deal: Deal, action: Action) -> None:
    """``action`` played on ``deal`` (a copy the table made), or an IllegalActionError with a
    sentence for the dealer."""
    if action.type == "start_deal":
        raise IllegalActionError("A deal is already in play: finish it first.")
    phase = current_phase(game, deal)
    if deal.result is not None and not phase.runs_after_result:
        raise IllegalActionError(
            "This deal is over: start the next deal, or undo to correct it."
        )
    if action.type not in phase.accepts(game, deal):
        raise IllegalActionError(phase.refusal(game, deal, action))
    phase.handle(game, deal, action)
    end_if_one_left(game, deal)
    advance(game, deal)


def advance(game: Game, deal: Deal) -> None:
    """Move past every finished phase, entering the next ones; once the deal is settled,
    note what each player won or lost in it (``Result.net``)."""
    while (current_phase(game, deal).done(game, deal)
           and deal.phase < len(game.phases) - 1):
        enter_phase(game, deal, deal.phase + 1)
    if deal.result is not None and deal.result.net is None:
        deal.result.net = {p.name: p.stack - before for p, before
                           in zip(deal.players, deal.totals.stacks, strict=True)}


def end_if_one_left(game: Game, deal: Deal) -> None:
    """R29: once the cards are out, a deal with one player left (or none) is won without a
    showdown, and goes to the game's result phase."""
    if deal.result is None and game.ends_when_one_left and deal.dealt:
        alive = deal.still_in()
        if len(alive) <= 1:
            game.award_uncontested(deal, alive[0] if alive else None)
            enter_phase(game, deal, game.result_phase())


def enter_phase(game: Game, deal: Deal, index: int) -> None:
    """The deal moved to the phase ``index``, with no turn and a fresh phase state."""
    deal.phase = index
    deal.turn = None
    deal.phase_state = PhaseState()
    current_phase(game, deal).enter(game, deal)
