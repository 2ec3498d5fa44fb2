"""A table: its players and house rules, the totals it carries, and the deal in play.

The table is immutable: :meth:`Table.apply` returns a new table, so a refused action leaves
the old one exactly as it was (R9). Undo (R8) replays the current deal's records but the last.

>>> from dealer_assist.games.registry import variants
>>> t = Table.create(variants()[2], ["Ann", "Bob", "Cy"])  # the 5x5 grid with two hole cards
>>> t = t.apply(t.prepare({"type": "start_deal"}))
>>> t.step()["instruction"]
'Deal two hole cards to each player, then tap Next.'
>>> t.can(t.prepare({"type": "check", "player": "Ann"}))
False
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from dealer_assist.core.actions import Action
from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.deal import Deal, Totals
from dealer_assist.core.errors import IllegalActionError, SetupError
from dealer_assist.core.rules import MAX_CHIPS, HouseRules
from dealer_assist.games import Game
from dealer_assist.games.registry import game_class, game_for

MAX_NAME = 40
# format (Cf: zero-width, bidi controls), control, surrogate and private-use characters: a
# name holding one looks like another, or reads backwards
INVISIBLE_CATEGORIES = ("Cf", "Cc", "Cs", "Co")


def clean_name(text: str, stored: bool = False, what: str = "A player's name") -> str:
    """A name as it is kept: NFKC-normalised (a fullwidth "Ａnn" is "Ann"), with runs of
    spaces made one; a name with invisible or direction characters is refused."""
    if stored:
        return " ".join(text.split())
    bad = next((ch for ch in text if unicodedata.category(ch) in INVISIBLE_CATEGORIES), None)
    if bad is not None:
        raise SetupError(f"{what} holds an invisible or direction character (U+{ord(bad):04X}): "
                         "type it again with letters, digits and spaces only.")
    return " ".join(unicodedata.normalize("NFKC", text).split())


def same_name_key(name: str) -> str:
    """What two names are compared by: "Ann", "ANN" and "Ａｎｎ" are one player."""
    return unicodedata.normalize("NFKC", name).casefold()


@dataclass(frozen=True)
class TableSetup:
    """Who sits where and the house rules: fixed when the table is made."""

    variant: str
    players: tuple[str, ...]
    stacks: tuple[int, ...]
    rules: HouseRules
    name: str = ""

    @classmethod
    def create(
        cls, variant: Any, players: Any, rules: Any = None, name: Any = "",
        *, stored: bool = False,
    ) -> TableSetup:
        """A new table's setup, or a SetupError with a sentence. ``stored``: a setup this
        server wrote, read back; its names are taken as they were kept (a name an older
        version let through still loads)."""
        game = game_class(variant)
        house = HouseRules.for_game(game, rules)
        if not isinstance(name, str) or len(name) > 80:
            raise SetupError("The table's name must be text of at most 80 characters.")
        if name.strip() and not stored:
            name = clean_name(name, stored, "The table's name")
        if not isinstance(players, list):
            raise SetupError("players must be a list of names in seat order.")
        low, high = game.players
        if not low <= len(players) <= high:
            raise SetupError(
                f"{game.name} is for {low} to {high} players, not {len(players)}."
            )
        names: list[str] = []
        stacks: list[int] = []
        for entry in players:
            stack = house.buy_in
            if isinstance(entry, dict):
                extra = set(entry) - {"name", "stack"}
                if extra:
                    raise SetupError(f"A player has a name and a stack, not {sorted(extra)[0]}.")
                stack = entry.get("stack", stack)
                entry = entry.get("name")
            if not isinstance(entry, str) or not entry.strip():
                raise SetupError("Every player needs a name.")
            entry = clean_name(entry, stored)
            if len(entry) > MAX_NAME:
                raise SetupError(f"A player's name has at most {MAX_NAME} characters.")
            if same_name_key(entry) in (same_name_key(n) for n in names):
                raise SetupError(f"Two players are called {entry}: give each a different name.")
            if isinstance(stack, bool) or not isinstance(stack, int) or not 0 <= stack <= MAX_CHIPS:
                raise SetupError(f"{entry}'s stack must be a whole number of chips.")
            names.append(entry)
            stacks.append(stack)
        return cls(variant, tuple(names), tuple(stacks), house, name.strip())

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "name": self.name,
            "players": [{"name": n, "stack": s} for n, s in zip(self.players, self.stacks,
                                                               strict=True)],
            "rules": self.rules.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any], *, stored: bool = False) -> TableSetup:
        return cls.create(data["variant"], data["players"], data["rules"], data.get("name", ""),
                          stored=stored)


class Table:
    """One table's state, as replaying its records gives it."""

    def __init__(
        self, setup: TableSetup, base: Totals, deal: Deal | None = None,
        actions: tuple[Action, ...] = (), seq: int = 0, undone: str | None = None,
        game: Game | None = None,
    ) -> None:
        self.setup = setup
        self.game = game or game_for(setup.variant, setup.rules)
        self.base = base  # the totals before the current deal
        self.deal = deal
        self.actions = actions  # the current deal's records, undos already taken out
        self.seq = seq  # every record ever taken at this table, undos included
        self.undone = undone

    # ------------------------------------------------------------------ making
    @classmethod
    def create(
        cls, variant: Any, players: Any, rules: Any = None, name: Any = ""
    ) -> Table:
        setup = TableSetup.create(variant, players, rules, name)
        return cls.from_setup(setup)

    @classmethod
    def from_setup(cls, setup: TableSetup) -> Table:
        game = game_for(setup.variant, setup.rules)
        return cls(setup, game.initial_totals(setup), game=game)

    @classmethod
    def replay(
        cls, setup: TableSetup, base: Totals, records: Iterable[Action], seq: int = 0
    ) -> Table:
        """The table after ``records`` (undo records included), from ``base`` totals."""
        table = cls(setup, base, seq=seq)
        for action in records:
            table = table.apply(action)
        return table

    # ------------------------------------------------------------------ reading
    @property
    def totals(self) -> Totals:
        """What the table holds now, as the next deal would start from it."""
        if self.deal is None:
            return self.base
        return self.deal.final_totals()

    def chips(self) -> int:
        """Every chip at the table: the same before and after every action (R3)."""
        return self.base.chips() if self.deal is None else self.deal.chips()

    @property
    def deal_over(self) -> bool:
        return self.deal is None or (
            self.deal.result is not None and not self.deal.current_phase.runs_after_result
        )

    @property
    def can_undo(self) -> bool:
        """Whether the deal in play has a record after its ``start_deal`` to take back."""
        return self.deal is not None and len(self.actions) > 1

    def step(self) -> dict[str, Any]:
        """What happens next (API.md "State", ``step``)."""
        if self.deal is None:
            return {"kind": "start_deal", "player": None,
                    "instruction": "Tap Start deal to deal the first hand."}
        step = self.deal.step()
        step.setdefault("player", None)
        return step

    # ------------------------------------------------------------------ acting
    def prepare(self, body: dict[str, Any] | Action) -> Action:
        """The record to store for ``body``: the shape checked, and a card drawn where the
        dealer lets the app draw (R51, R56), so replaying it gives the same table."""
        action = body if isinstance(body, Action) else Action.from_json(body)
        if action.type == "draw" and action.card is None and self.deal is not None:
            taken = set(self.game.drawn_cards(self.deal))
            choices = [c for c in FULL_DECK if c not in taken]
            action = Action(type="draw", player=action.player,
                            card=choices[secrets.randbelow(len(choices))])
        return action

    def apply(self, action: Action) -> Table:
        """The table after ``action``; raises :class:`IllegalActionError` and changes nothing
        if the rules do not allow it now."""
        if action.type == "undo":
            return self.undo()
        if action.type == "start_deal":
            if not self.deal_over:
                raise IllegalActionError("A deal is in play: finish it, or undo, first.")
            deal = self.game.start(self.setup, self.totals)
            return Table(self.setup, self.totals, deal, (action,), self.seq + 1, game=self.game)
        if action.type in ("rebuy", "adjust"):
            return self.between_deals(action)
        if self.deal is None:
            raise IllegalActionError("No deal is in play: start a deal first.")
        deal = self.deal.clone()
        deal.apply(action)
        return Table(self.setup, self.base, deal, (*self.actions, action), self.seq + 1,
                     game=self.game)

    def between_deals(self, action: Action) -> Table:
        """A rebuy, or a correction to a finished deal as a visible adjustment (R8): chips
        change hands between deals, never by rewriting a deal."""
        if self.deal is None or not self.deal_over:
            raise IllegalActionError(
                f"A {action.type} comes between deals: "
                + ("finish this deal first." if self.deal else "set starting stacks when the "
                   "table is made, and rebuy after a deal.")
            )
        if action.type not in self.game.between_deal_actions:
            raise IllegalActionError(self.game.between_deal_refusals.get(
                action.type, f"{self.game.name} has no {action.type} between deals."))
        deal = self.deal.clone()
        p = deal.player(action.player)
        amount = action.amount
        if not amount:
            raise IllegalActionError(f"Say how many chips (amount) for the {action.type}.")
        if action.type == "rebuy":
            if p.stack + amount > MAX_CHIPS:
                raise IllegalActionError(f"{p.name}'s stack cannot go over {MAX_CHIPS:,}.")
            p.stack += amount
            rebuys = deal.scratch.setdefault("rebuys", {})
            rebuys[p.seat] = rebuys.get(p.seat, 0) + amount
            deal.log.append(f"{p.name} buys in for {amount} more.")
        else:
            to = deal.player(action.to)
            if to is p:
                raise IllegalActionError("An adjustment moves chips between two players.")
            if amount > p.stack:
                raise IllegalActionError(
                    f"{p.name} has only {p.stack} chips, not {amount}, to give back."
                )
            p.stack -= amount
            to.stack += amount
            note = f" ({action.note})" if action.note else ""
            deal.log.append(f"Adjustment: {p.name} gives {amount} to {to.name}{note}.")
        deal.scratch.setdefault("adjustments", []).append(action.to_json())
        return Table(self.setup, self.base, deal, (*self.actions, action), self.seq + 1,
                     game=self.game)

    def can(self, action: Action) -> bool:
        """Whether ``action`` is allowed now (pokerkit's ``can_x``)."""
        try:
            self.apply(action)
        except IllegalActionError:
            return False
        return True

    def undo(self) -> Table:
        """R8: take back the last action of the current deal, a showdown included."""
        if self.deal is None or len(self.actions) <= 1:
            raise IllegalActionError(
                "Nothing to undo: the deal has just started."
                if self.deal is not None else "Nothing to undo: no deal has started."
            )
        last = self.actions[-1]
        table = Table(self.setup, self.base, seq=self.seq + 1, game=self.game)
        for action in self.actions[:-1]:
            table = table.apply(action)
        table.seq = self.seq + 1
        table.undone = describe(last)
        return table

    @property
    def stakes_per_card(self) -> bool:
        return self.game.stakes_per_card


def describe(action: Action) -> str:
    """A few words for an action, to show what undo took back."""
    words = action.type.replace("_", " ")
    if action.player:
        words = f"{action.player}: {words}"
    if action.amount is not None:
        words += f" {action.amount}"
    if action.count is not None:
        words += f" {action.count}"
    if action.card and action.type == "draw":  # a folded card stays face down (R23)
        words += f" {action.card}"
    elif action.card:
        words += " one card"
    return words


__all__ = ["IllegalActionError", "SetupError", "Table", "TableSetup"]
