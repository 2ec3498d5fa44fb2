"""Action records: small, immutable, JSON-shaped. A deal is what replaying them gives.

>>> a = Action.from_json({"type": "call", "player": "Bob"})
>>> a
Action(type='call', player='Bob')
>>> Action.from_json(a.to_json()) == a
True
>>> Action.from_json({"type": "bet", "player": "Bob", "amount": "lots"})
Traceback (most recent call last):
...
dealer_assist.core.errors.InvalidActionError: amount must be a whole number of chips, not 'lots'.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from dealer_assist.core.errors import InvalidActionError
from dealer_assist.core.rules import MAX_CHIPS


class ActionType(StrEnum):
    """The types of record (API.md "Actions"): strings, so the JSON and the stored records
    stay as they were, and ``action.type == "undo"`` still holds."""

    START_DEAL = "start_deal"
    BUY = "buy"
    DEAL_CARDS = "deal_cards"
    NEXT = "next"
    REVEAL = "reveal"
    CHECK = "check"
    CALL = "call"
    FOLD = "fold"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"
    BRING_IN = "bring_in"
    PAY = "pay"
    SHOWDOWN = "showdown"
    DRAW = "draw"
    DISCARD = "discard"  # R85: how many cards a player draws (count; 0 stands pat)
    RUN_TWICE = "run_twice"
    SHOW = "show"
    UNDO = "undo"
    REBUY = "rebuy"
    ADJUST = "adjust"
    SEAT = "seat"
    LEAVE = "leave"
    SIT_OUT = "sit_out"
    SIT_IN = "sit_in"


ACTION_TYPES: tuple[ActionType, ...] = tuple(ActionType)
# the records that come between deals (R70, R74): they change the company, not a deal
BETWEEN_DEAL_TYPES: tuple[ActionType, ...] = (
    ActionType.REBUY, ActionType.ADJUST, ActionType.SEAT, ActionType.LEAVE,
    ActionType.SIT_OUT, ActionType.SIT_IN,
)

MAX_TEXT = 64  # a card or a player's name never needs more

# The fields each type of record may carry (API.md "Actions"), besides ``type``: a field the
# type does not use is refused, not stored, so no record carries what it should not (a
# ``check`` with the player's cards would be published as it is). ``cards`` of a reveal is
# read into ``cells`` when it names cells. Types not listed here (none yet) are not checked.
FIELDS_OF: dict[ActionType, frozenset[str]] = {
    ActionType(kind): frozenset(fields) for kind, fields in {
        "start_deal": ("variant", "straddle", "bomb_pot", "blinds"),
        "buy": ("player", "count"),
        "deal_cards": ("player", "cards"),
        "next": (),
        "reveal": ("cards", "cells"),
        "check": ("player",),
        "call": ("player",),
        "fold": ("player", "card"),
        "bet": ("player", "amount"),
        "raise": ("player", "amount"),
        "all_in": ("player",),
        "bring_in": ("player",),
        "pay": ("player",),
        # and the game's places (``place_fields``)
        "showdown": ("cells", "hands", "board", "muck"),
        "draw": ("player", "card"),
        "discard": ("player", "count"),
        "run_twice": (),
        # the hands tabled, and the board cards turned whose faces were not entered yet
        "show": ("hands", "cells"),
        "undo": (),
        "rebuy": ("player", "amount"),
        "adjust": ("player", "to", "amount", "note"),
        "seat": ("player", "stack", "after", "back"),
        "leave": ("player",),
        "sit_out": ("player",),
        "sit_in": ("player",),
    }.items()
}


@dataclass(frozen=True)
class Action:
    """One thing that happened at the table. Field meanings follow API.md "Actions".

    Cards are kept as the dealer typed them until the game reads them; a stored record is
    always the canonical one that :meth:`dealer_assist.core.table.Table.prepare` returns.
    """

    type: ActionType
    player: str | None = None
    count: int | None = None
    amount: int | None = None
    card: str | None = None
    cards: tuple[str, ...] | None = None
    cells: tuple[tuple[str, str], ...] | None = None  # (cell, card) pairs, by cell
    # a showdown's cards for the game's own places (``Game.places``): (field, cards) pairs,
    # by field; in the JSON each is a field of its own, as the game names it
    places: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    hands: tuple[tuple[str, tuple[str, ...]], ...] | None = None
    board: tuple[str, ...] | None = None
    muck: tuple[str, ...] | None = None  # showdown: the players whose hands are mucked
    to: str | None = None  # adjust: who receives the chips
    note: str | None = None  # adjust: why, in the host's words
    variant: str | None = None  # start_deal: the game of this deal (dealer's choice, R71)
    straddle: bool | None = None  # start_deal: this deal straddled, or not, whatever the rule
    bomb_pot: int | None = None  # start_deal: a bomb pot, everyone dealt in antes this (R65)
    stack: int | None = None  # seat: the new player's chips
    # start_deal at a tournament's table: the level's blinds and antes (R90), laid over the
    # house rules for this deal; set by the server from the clock, never by a dealer
    blinds: tuple[tuple[str, int], ...] | None = None
    # seat: a player who left this table comes back to it (a tournament's move, R92); set
    # by the server, never by a dealer
    back: bool | None = None
    after: str | None = None  # seat: the player the new one sits after, clockwise (R70)

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{k}={(v.value if isinstance(v, Enum) else v)!r}"
            for k, v in self.__dict__.items() if v is not None
        )
        return f"Action({shown})"

    def place_cards(self, field: str) -> tuple[str, ...] | None:
        """The cards given for the game's place ``field`` (a showdown's), if any."""
        return next((cards for key, cards in self.places or () if key == field), None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": str(self.type)}
        for key in ("player", "count", "amount", "card", "to", "note", "variant", "straddle",
                    "bomb_pot", "stack", "after", "back"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        for key in ("cards", "board", "muck"):
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value)
        for key, cards in self.places or ():
            out[key] = list(cards)
        if self.cells is not None:
            # API.md: a reveal carries its cards by cell as "cards", a showdown (and a show) as
            # "cells"
            out["cards" if self.type == "reveal" else "cells"] = dict(self.cells)
        if self.hands is not None:
            out["hands"] = {name: list(cards) for name, cards in self.hands}
        if self.blinds is not None:
            out["blinds"] = dict(self.blinds)
        return out

    @classmethod
    def from_json(cls, body: Any, place_fields: Collection[str] = ()) -> Action:
        """Read a request body; the shape is checked here, the rules by the game.
        ``place_fields``: the fields a showdown may also carry, one for each card place the
        games add (``Catalogue.place_fields``)."""
        if not isinstance(body, dict):
            raise InvalidActionError('An action is an object such as {"type": "check"}.')
        kind = body.get("type")
        if kind not in ACTION_TYPES:
            raise InvalidActionError(
                f"Unknown action type {_short(kind)}: use one of {', '.join(ACTION_TYPES)}."
            )
        known = _FIELDS | set(place_fields)
        unknown = sorted(set(body) - known - {"type", "expect_seq"})
        if unknown:
            raise InvalidActionError(f"An action has no field {_short(unknown[0])}.")
        allowed = FIELDS_OF.get(kind)
        if allowed is not None and kind == ActionType.SHOWDOWN:
            allowed = allowed | set(place_fields)
        unused = sorted(k for k, v in body.items() if k in known and v is not None
                        and allowed is not None and k not in allowed)
        if unused and allowed is not None:
            takes = f"only {', '.join(sorted(allowed))}" if allowed else "no other field"
            raise InvalidActionError(
                f"A {kind} record has no field {_short(unused[0])}: it takes {takes}.")
        cards_field = body.get("cards")
        if isinstance(cards_field, dict):  # a reveal names the cards it turns, by cell
            if body.get("cells") is not None:
                raise InvalidActionError("Give the cells once, as cards or as cells.")
            body = {**body, "cells": cards_field, "cards": None}
        return cls(
            type=ActionType(kind),
            player=_text(body, "player"),
            count=_chips(body, "count"),
            amount=_chips(body, "amount"),
            card=_text(body, "card"),
            cards=_card_list(body, "cards"),
            cells=_cell_map(body.get("cells"), by_player=kind == ActionType.REVEAL),
            places=_places(body, place_fields),
            hands=_hands(body.get("hands")),
            board=_card_list(body, "board"),
            muck=_names(body.get("muck")),
            to=_text(body, "to"),
            note=_note(body.get("note")),
            variant=_text(body, "variant"),
            straddle=_flag(body, "straddle"),
            bomb_pot=_chips(body, "bomb_pot"),
            stack=_chips(body, "stack"),
            after=_text(body, "after"),
            blinds=_blinds(body.get("blinds")),
            back=_flag(body, "back"),
        )


_FIELDS = {"player", "count", "amount", "card", "cards", "cells", "hands", "board", "muck",
           "to", "note", "variant", "straddle", "bomb_pot", "stack", "after", "blinds", "back"}
BLIND_FIELDS = ("small_blind", "big_blind", "ante", "big_blind_ante")
MAX_NOTE = 200


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _text(body: dict[str, Any], key: str) -> str | None:
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise InvalidActionError(f"{key} must be a short piece of text, not {_short(value)}.")
    return value.strip()


def _blinds(value: Any) -> tuple[tuple[str, int], ...] | None:
    if value is None:
        return None
    if (not isinstance(value, dict) or not set(value) <= set(BLIND_FIELDS)
            or any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_CHIPS
                   for v in value.values())):
        raise InvalidActionError(f"blinds must be whole numbers of chips by name "
                                 f"({', '.join(BLIND_FIELDS)}).")
    return tuple((key, value[key]) for key in BLIND_FIELDS if key in value)


def _flag(body: dict[str, Any], key: str) -> bool | None:
    value = body.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise InvalidActionError(f"{key} must be true or false, not {_short(value)}.")


def _chips(body: dict[str, Any], key: str) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidActionError(f"{key} must be a whole number of chips, not {_short(value)}.")
    if value < 0 or value > MAX_CHIPS:
        raise InvalidActionError(f"{key} must be from 0 to {MAX_CHIPS:,}, not {_short(value)}.")
    return value


def _note(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_NOTE:
        raise InvalidActionError(f"note must be text of at most {MAX_NOTE} characters.")
    return " ".join(value.split()) or None


def _card_text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT:
        raise InvalidActionError(f"{where} must be a card such as \"Th\", not {_short(value)}.")
    return value.strip()


def _card_list(body: dict[str, Any], key: str) -> tuple[str, ...] | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list) or len(value) > 60:
        raise InvalidActionError(f"{key} must be a list of cards such as [\"As\", \"Kd\"].")
    return tuple(_card_text(v, key) for v in value)


def _places(body: dict[str, Any], fields: Collection[str],
            ) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    given = [(key, cards) for key in sorted(fields)
             if (cards := _card_list(body, key)) is not None]
    return tuple(given) or None


_CELL = re.compile(r"[a-z]{1,2}\d{1,2}(\.2)?", re.IGNORECASE)


def _cell_map(value: Any, *, by_player: bool = False) -> tuple[tuple[str, str], ...] | None:
    """Cards by cell; a reveal's may also be by player, each player's new up card (R81):
    a player's name keeps its case, a cell's is lowered."""
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) > 25:
        raise InvalidActionError('cells must map cells to cards, such as {"r1c1": "Kh"}.')
    pairs = []
    longest = MAX_TEXT if by_player else 8
    for cell, card in value.items():
        if not isinstance(cell, str) or not cell.strip() or len(cell) > longest:
            raise InvalidActionError(f"{_short(cell)} is not a cell: cells are r1c1 to r5c5.")
        key = cell.strip()
        if not by_player or _CELL.fullmatch(key):
            key = key.lower()
        pairs.append((key, _card_text(card, cell)))
    return tuple(sorted(pairs))


def _names(value: Any) -> tuple[str, ...] | None:
    """A list of players' names (a showdown's ``muck``), each once, in the order given."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > 30:
        raise InvalidActionError('muck must be a list of players, such as ["Cat"].')
    names = []
    for name in value:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_TEXT:
            raise InvalidActionError(f"{_short(name)} is not a player's name.")
        names.append(name.strip())
    return tuple(dict.fromkeys(names))


def _hands(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) > 30:
        raise InvalidActionError('hands must map players to cards, such as {"Ann": ["As", "Ad"]}.')
    out = []
    for name, cards in value.items():
        if not isinstance(name, str) or len(name) > MAX_TEXT:
            raise InvalidActionError(f"{_short(name)} is not a player's name.")
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        if not isinstance(cards, list) or len(cards) > 10:
            raise InvalidActionError(f"{name}'s hand must be a list of cards.")
        out.append((name, tuple(_card_text(c, f"{name}'s card") for c in cards)))
    return tuple(out)
