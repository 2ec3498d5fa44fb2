"""The records that come between deals (R70, R74): rebuys, corrections, seating a newcomer,
cash-outs, sitting out and back in. Each changes the totals the next deal starts from; the deal
before is never rewritten (R8).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from dealer_assist.core.actions import Action, ActionType
from dealer_assist.core.deal import Departure, Totals
from dealer_assist.core.errors import IllegalActionError, SetupError
from dealer_assist.core.game import Game
from dealer_assist.core.names import MAX_NAME, clean_name, same_name_key
from dealer_assist.core.rules import MAX_CHIPS
from dealer_assist.core.setup import TableSetup


def seat_index(totals: Totals, name: str | None, field: str = "player") -> int:
    """The seat of ``name``, or a sentence saying why there is none (R9)."""
    if name is None:
        raise IllegalActionError(f"Say which player ({field}).")
    for i, seated in enumerate(totals.names):
        if seated.casefold() == name.casefold():
            return i
    if any(d.name.casefold() == name.casefold() for d in totals.departed):
        raise IllegalActionError(f"{name} has left the table.")
    raise IllegalActionError(f"There is no player called {name} at this table.")


def between_deal(setup: TableSetup, game: Game, totals: Totals, action: Action,
                 log: list[str]) -> Totals:
    """The totals after one between-deal record (R70, R8), with a line for the log; or a
    sentence saying why not."""
    if action.type not in game.between_deal_actions:
        raise IllegalActionError(game.between_deal_refusals.get(
            action.type, f"{game.name} has no {action.type} between deals."))
    if action.type == ActionType.SEAT:
        return seat_player(setup, totals, action, log)
    seat = seat_index(totals, action.player)
    return _RECORDS[ActionType(action.type)](totals, seat, action, log)


def _amount(action: Action) -> int:
    if not action.amount:
        raise IllegalActionError(f"Say how many chips (amount) for the {action.type}.")
    return action.amount


def rebuy(totals: Totals, seat: int, action: Action, log: list[str]) -> Totals:
    """R70: more chips for a seated player, added to what they bought in."""
    name, amount = totals.names[seat], _amount(action)
    if totals.stacks[seat] + amount > MAX_CHIPS:
        raise IllegalActionError(f"{name}'s stack cannot go over {MAX_CHIPS:,}.")
    log.append(f"{name} buys in for {amount} more.")
    return replace(totals, stacks=_plus(totals.stacks, seat, amount),
                   buy_ins=_plus(totals.buy_ins, seat, amount))


def adjust(totals: Totals, seat: int, action: Action, log: list[str]) -> Totals:
    """R8: a visible correction, chips from one player to another."""
    name, amount = totals.names[seat], _amount(action)
    to = seat_index(totals, action.to, "to")
    if to == seat:
        raise IllegalActionError("An adjustment moves chips between two players.")
    if amount > totals.stacks[seat]:
        raise IllegalActionError(
            f"{name} has only {totals.stacks[seat]} chips, not {amount}, to give back.")
    if totals.stacks[to] + amount > MAX_CHIPS:
        raise IllegalActionError(f"{totals.names[to]}'s stack cannot go over {MAX_CHIPS:,}.")
    note = f" ({action.note})" if action.note else ""
    log.append(f"Adjustment: {name} gives {amount} to {totals.names[to]}{note}.")
    return replace(totals, stacks=_plus(_plus(totals.stacks, seat, -amount), to, amount))


def sit_out(totals: Totals, seat: int, action: Action, log: list[str]) -> Totals:
    """R70: dealt out of every deal, seat and stack kept, until ``sit_in``."""
    name = totals.names[seat]
    if name in totals.sitting_out:
        raise IllegalActionError(f"{name} is already sitting out.")
    log.append(f"{name} sits out.")
    return replace(totals, sitting_out=(*totals.sitting_out, name))


def sit_in(totals: Totals, seat: int, action: Action, log: list[str]) -> Totals:
    name = totals.names[seat]
    if name not in totals.sitting_out:
        raise IllegalActionError(f"{name} is not sitting out.")
    log.append(f"{name} is back in.")
    return replace(totals, sitting_out=tuple(n for n in totals.sitting_out if n != name))


def leave(totals: Totals, seat: int, action: Action, log: list[str]) -> Totals:
    """R70: the whole stack is cashed out and the seat goes; the button stays with its
    player."""
    name, stack = totals.names[seat], totals.stacks[seat]
    gone = Departure(name, totals.buy_ins[seat], stack, totals.deal_number)
    log.append(f"{name} cashes out {stack} and leaves the table.")
    button = totals.button - 1 if seat <= totals.button else totals.button
    return replace(
        totals, stacks=_without(totals.stacks, seat), buy_ins=_without(totals.buy_ins, seat),
        names=_without(totals.names, seat), button=button,
        sitting_out=tuple(n for n in totals.sitting_out if n != name),
        departed=(*totals.departed, gone),
    )


_Record = Callable[[Totals, int, Action, list[str]], Totals]
# every between-deal record but ``seat`` (which names a newcomer, not a seat), by type
_RECORDS: dict[ActionType, _Record] = {
    ActionType.REBUY: rebuy, ActionType.ADJUST: adjust, ActionType.SIT_OUT: sit_out,
    ActionType.SIT_IN: sit_in, ActionType.LEAVE: leave,
}


def seat_player(setup: TableSetup, totals: Totals, action: Action, log: list[str]) -> Totals:
    """R70: a new player sits after ``after`` (clockwise), with ``stack`` chips (the buy-in
    when not given); a name nobody at this table has ever had."""
    try:  # the same normalisation as the names a table is made with
        name = clean_name(action.player or "")
    except SetupError as err:
        raise IllegalActionError(str(err)) from None
    if not name:
        raise IllegalActionError("Say the new player's name (player).")
    if len(name) > MAX_NAME:
        raise IllegalActionError(f"A player's name has at most {MAX_NAME} characters.")
    ever = [*totals.names, *(d.name for d in totals.departed)]
    if action.back:  # a tournament's player moved back to a table they left (R92)
        ever = list(totals.names)
        if same_name_key(name) not in (same_name_key(d.name) for d in totals.departed):
            raise IllegalActionError(f"{name} has not left this table: not coming back.")
    if same_name_key(name) in (same_name_key(n) for n in ever):
        raise IllegalActionError(
            f"Someone called {name} has already sat at this table: give the new player a "
            f"different name, such as {name} 2.")
    stack = setup.rules.buy_in if action.stack is None else action.stack
    if stack <= 0:
        raise IllegalActionError(f"{name} needs a stack of at least 1 chip to sit down.")
    if action.after is None:
        seat = len(totals.names)
    else:
        seat = seat_index(totals, action.after, "after") + 1
    button = totals.button + 1 if seat <= totals.button else totals.button
    where = f" after {totals.names[seat - 1]}" if totals.names and seat else ""
    log.append(f"{name} sits down{where} with {stack}.")
    return replace(
        totals, stacks=_with(totals.stacks, seat, stack),
        buy_ins=_with(totals.buy_ins, seat, stack), names=_with(totals.names, seat, name),
        button=button,
    )


def _plus(values: tuple[int, ...], i: int, amount: int) -> tuple[int, ...]:
    return (*values[:i], values[i] + amount, *values[i + 1:])


def _without(values: tuple[Any, ...], i: int) -> tuple[Any, ...]:
    return values[:i] + values[i + 1:]


def _with(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*values[:i], value, *values[i:])
