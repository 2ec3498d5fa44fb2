"""What happens next in a deal, typed: a :class:`Step`, and its JSON (API.md "State", ``step``).

A phase returns a ``Step``; :meth:`Step.to_json` writes the keys the loose dicts had, in the
same order, and leaves out the ones a kind of step does not carry.

>>> Step(StepKind.NEXT, "Deal two cards, then tap Next.").to_json()
{'kind': 'next', 'player': None, 'instruction': 'Deal two cards, then tap Next.'}
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class StepKind(StrEnum):
    """Which tap or entry the deal waits for; the pages show one panel per kind."""

    START_DEAL = "start_deal"
    GAME_OVER = "game_over"
    NEXT = "next"
    REVEAL = "reveal"
    BET = "bet"
    SHOWDOWN = "showdown"
    BUY = "buy"
    DEAL_CARDS = "deal_cards"
    DRAW = "draw"
    PAY = "pay"


@dataclass(frozen=True)
class BetOffer:
    """What a betting turn allows beyond ``to_call`` (R3-R6, R24): every key is always sent,
    ``None`` where the player cannot raise."""

    to_call_total: int
    per_card: bool
    cards: int | None  # the stakes a per-card call multiplies by, else None
    round: str
    current_bet: int
    min_raise_to: int | None
    max_raise_to: int | None


@dataclass(frozen=True)
class Step:
    """One step. ``None`` (and an absent ``bet``) means the key is not sent, except ``player``,
    which is always sent (``null`` when the dealer acts)."""

    kind: StepKind
    instruction: str
    player: str | None = None
    cells: tuple[str, ...] | None = None  # the cells to turn or still to enter
    players: tuple[str, ...] | None = None  # who shows at a showdown
    hole_cards: int | None = None
    to_call: int | None = None
    bet: BetOffer | None = None
    most_cards: int | None = None  # a buy's upper bound: JSON "max"
    ante: int | None = None
    count: int | None = None
    waiting: tuple[str, ...] | None = None
    purpose: str | None = None
    options: tuple[str, ...] | None = None
    public: str | None = None  # the step in the players' words, where it differs

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "player": self.player}
        _put(out, "cells", _listed(self.cells))
        _put(out, "players", _listed(self.players))
        _put(out, "hole_cards", self.hole_cards)
        _put(out, "to_call", self.to_call)
        if self.bet is not None:
            b = self.bet
            out.update(to_call_total=b.to_call_total, per_card=b.per_card, cards=b.cards,
                       round=b.round, current_bet=b.current_bet,
                       min_raise_to=b.min_raise_to, max_raise_to=b.max_raise_to)
        _put(out, "max", self.most_cards)
        _put(out, "ante", self.ante)
        _put(out, "count", self.count)
        _put(out, "waiting", _listed(self.waiting))
        _put(out, "purpose", self.purpose)
        _put(out, "options", _listed(self.options))
        out["instruction"] = self.instruction
        _put(out, "public", self.public)
        return out


def _listed(items: tuple[str, ...] | None) -> list[str] | None:
    return None if items is None else list(items)


def _put(out: dict[str, Any], key: str, value: object) -> None:
    if value is not None:
        out[key] = value
