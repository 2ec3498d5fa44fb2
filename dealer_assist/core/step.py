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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
    # the buttons of a pay step in the dealer's words ("Sit out", "Bob pays 1"): the pages
    # never read them out of the instruction
    fold_label: str | None = None
    pay_label: str | None = None
    public: str | None = None  # the step in the players' words, where it differs
    # who acts first this round and why, where the up cards decide it (R81, R82): "Bob brings
    # in: 2 of clubs, the lowest up card"
    why: str | None = None
    bring_in: int | None = None  # R81: the bring-in the player to act posts, where one is due

    def to_json(self) -> dict[str, Any]:
        # written out key by key: the state is built on every action, twice (dealer, public)
        out: dict[str, Any] = {"kind": self.kind.value, "player": self.player}
        if self.cells is not None:
            out["cells"] = list(self.cells)
        if self.players is not None:
            out["players"] = list(self.players)
        if self.hole_cards is not None:
            out["hole_cards"] = self.hole_cards
        if self.to_call is not None:
            out["to_call"] = self.to_call
        b = self.bet
        if b is not None:
            out["to_call_total"] = b.to_call_total
            out["per_card"] = b.per_card
            out["cards"] = b.cards
            out["round"] = b.round
            out["current_bet"] = b.current_bet
            out["min_raise_to"] = b.min_raise_to
            out["max_raise_to"] = b.max_raise_to
        if self.most_cards is not None:
            out["max"] = self.most_cards
        if self.ante is not None:
            out["ante"] = self.ante
        if self.count is not None:
            out["count"] = self.count
        if self.waiting is not None:
            out["waiting"] = list(self.waiting)
        if self.purpose is not None:
            out["purpose"] = self.purpose
        if self.options is not None:
            out["options"] = list(self.options)
        if self.fold_label is not None:
            out["fold_label"] = self.fold_label
        if self.pay_label is not None:
            out["pay_label"] = self.pay_label
        out["instruction"] = self.instruction
        if self.public is not None:
            out["public"] = self.public
        if self.why is not None:
            out["why"] = self.why
        if self.bring_in is not None:
            out["bring_in"] = self.bring_in
        return out
