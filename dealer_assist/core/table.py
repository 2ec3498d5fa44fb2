"""A table: its players and house rules, the totals it carries, and the deal in play.

The table is immutable: :meth:`Table.apply` returns a new table, so a refused action leaves
the old one exactly as it was (R9). Undo (R8) replays the current deal's records but the last,
from the last checkpoint a few records back (:attr:`Table.checkpoint`). The games it may deal
come with its setup (:class:`~dealer_assist.core.setup.TableSetup`), from the services.

>>> from dealer_assist.games.registry import CATALOGUE
>>> t = Table.create(CATALOGUE, CATALOGUE.all()[2].variant, ["Ann", "Bob", "Cy"])
>>> t = t.apply(t.prepare({"type": "start_deal"}))
>>> t.step()["instruction"]
'Deal two hole cards to each player, then tap Next.'
>>> t.can(t.prepare({"type": "check", "player": "Ann"}))
False
"""

from __future__ import annotations

import copy
import secrets
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from dealer_assist.core.actions import BETWEEN_DEAL_TYPES, Action, ActionType
from dealer_assist.core.between import between_deal
from dealer_assist.core.chain import Chain
from dealer_assist.core.deal import Deal, Totals
from dealer_assist.core.engine import apply_action, current_phase, next_step, start_deal
from dealer_assist.core.errors import IllegalActionError, SetupError
from dealer_assist.core.game import Catalogue, Game, GamePhase
from dealer_assist.core.setup import TableSetup
from dealer_assist.core.step import Step, StepKind

# every 8th table of a deal is kept (Table.checkpoint), so an undo replays at most 8 records
CHECKPOINT_EVERY = 8


class Table:
    """One table's state, as replaying its records gives it.

    Between deals (before the first, or once a deal is over) the records of R70 change the
    company: they are kept in ``between`` and laid over the totals the deal left, so that
    undo takes them back last first (R74) and the finished deal is never rewritten (R8).
    """

    def __init__(
        self, setup: TableSetup, base: Totals, deal: Deal | None = None,
        actions: Iterable[Action] = (), seq: int = 0, undone: str | None = None,
        game: Game | None = None, *, seats: tuple[int, ...] = (),
        between: tuple[Action, ...] = (), before_start: Table | None = None,
        exact: bool = True, checkpoint: Table | None = None, before: Deal | None = None,
    ) -> None:
        self.setup = setup
        if not base.names or not base.buy_ins:  # totals stored before R70: the setup's
            base = replace(base, names=base.names or setup.players,
                           buy_ins=base.buy_ins or base.stacks,
                           variant=base.variant or setup.variant)
        self.base = base  # the totals before the current deal
        self.game = game or setup.game(base.variant or setup.variant)
        self.deal = deal
        # the current deal's records, undos already taken out; a Chain, so that the next
        # table shares them instead of copying (replaying n records costs n, not n²)
        self.actions: Chain[Action] = actions if isinstance(actions, Chain) else Chain(actions)
        self.seq = seq  # every record ever taken at this table, undos included
        self.undone = undone
        self.seats = seats  # the deal's seat i is the table's seat seats[i]
        self.between = between  # the between-deal records since the deal ended (R74)
        self.before_start = before_start  # the table as it was before this deal's start
        # False for a table a replay starts from: it stands for the table at that point, but
        # does not know what came before (the last deal, its between-deal records)
        self.exact = exact
        # the latest earlier table of this deal with 1 + k * CHECKPOINT_EVERY records: where
        # an undo replays from, instead of from the deal's start
        self.checkpoint = checkpoint
        # the deal one record back, where this table came from an action: an undo right
        # after it costs nothing (a deal, not the table: no chain of tables is kept)
        self.before = before
        self._totals: Totals | None = None
        self._between_log: tuple[str, ...] = ()
        self._step: Step | None = None  # a table never changes: its step is read once

    # ------------------------------------------------------------------ making
    @classmethod
    def create(
        cls, catalogue: Catalogue, variant: Any, players: Any, rules: Any = None,
        name: Any = "",
    ) -> Table:
        """A new table of ``variant`` (one of ``catalogue``'s games), or a SetupError."""
        return cls.from_setup(TableSetup.create(catalogue, variant, players, rules, name))

    @classmethod
    def from_setup(cls, setup: TableSetup) -> Table:
        game = setup.game()
        base = replace(game.initial_totals(setup.stacks), names=setup.players,
                       variant=setup.variant)
        return cls(setup, base, game=game)

    @classmethod
    def replay(
        cls, setup: TableSetup, base: Totals | None, records: Iterable[Action], seq: int = 0
    ) -> Table:
        """The table after ``records`` (undo records included), from ``base`` totals (None:
        from the table as it was made)."""
        table = (cls.from_setup(setup) if base is None
                 else cls(setup, base, seq=seq, exact=False))
        table.seq = seq
        for action in records:
            table = table.apply(action)
        return table

    # ------------------------------------------------------------------ reading
    @property
    def totals(self) -> Totals:
        """What the table holds now, as the next deal would start from it."""
        if self._totals is None:
            totals = self.base if self.deal is None else self._after_deal()
            log: list[str] = []
            for action in self.between:
                totals = between_deal(self.setup, self.game, totals, action, log)
            self._totals = totals
            self._between_log = tuple(log)
        return self._totals

    @property
    def between_log(self) -> tuple[str, ...]:
        """A line for each between-deal record in play, for the state's log."""
        _ = self.totals
        return self._between_log

    def _after_deal(self) -> Totals:
        assert self.deal is not None
        after = self.deal.final_totals()
        stacks = list(self.base.stacks)
        for i, seat in enumerate(self.seats):
            stacks[seat] = after.stacks[i]
        return replace(
            self.base, stacks=tuple(stacks), deal_number=after.deal_number,
            button=self.seats[after.button], carry=after.carry, carried=after.carried,
            game_over=after.game_over,
            variant=self.game.variant, bomb_pot=self.deal.bomb_pot or self.base.bomb_pot,
        )

    def chips(self) -> int:
        """Every chip at the table: the same before and after every action (R3)."""
        return self.totals.chips()

    @property
    def current_phase(self) -> GamePhase | None:
        """The phase the deal in play is in; None before the first deal."""
        return None if self.deal is None else current_phase(self.game, self.deal)

    @property
    def deal_over(self) -> bool:
        return self.deal is None or (
            self.deal.result is not None
            and not current_phase(self.game, self.deal).runs_after_result
        )

    @property
    def lone_start(self) -> bool:
        """Whether the deal in play has no record but its ``start_deal`` (R74)."""
        return self.deal is not None and len(self.actions) == 1 and not self.between

    @property
    def stale(self) -> bool:
        """Whether this table only stands for the one its records make (``exact``), or is a
        lone start that undo would take back to such a table: the store replays it whole
        (services.tables.replay_latest)."""
        return not self.exact or (self.lone_start and self.before_start is not None
                                  and not self.before_start.exact)

    @property
    def can_undo(self) -> bool:
        """Whether there is a record to take back: one of this deal's, a between-deal
        record, or a ``start_deal`` that is still its deal's only record (R74)."""
        return bool(self.between) or (self.deal is not None and (
            len(self.actions) > 1 or self.before_start is not None))

    def dealt_out(self) -> list[str]:
        """The seated players who are out of the deal in play (R70)."""
        if self.deal is None:
            return []
        dealt = {self.base.names[s] for s in self.seats}
        return [n for n in self.base.names if n not in dealt]

    def step(self) -> dict[str, Any]:
        """What happens next, as JSON (API.md "State", ``step``)."""
        return self.next_step().to_json()

    def next_step(self) -> Step:
        """What happens next."""
        if self._step is None:
            self._step = (Step(StepKind.START_DEAL, "Tap Start deal to deal the first hand.")
                          if self.deal is None else next_step(self.game, self.deal))
        return self._step

    # ------------------------------------------------------------------ acting
    def prepare(self, body: dict[str, Any] | Action) -> Action:
        """The record to store for ``body``: the shape checked, and a card drawn where the
        dealer lets the app draw (R51, R56), so replaying it gives the same table."""
        action = body if isinstance(body, Action) else Action.from_json(
            body, self.setup.catalogue.place_fields)
        if action.type == ActionType.DRAW and action.card is None and self.deal is not None:
            taken = set(self.game.drawn_cards(self.deal))
            choices = [c for c in self.game.deck if c not in taken]
            action = Action(type=ActionType.DRAW, player=action.player,
                            card=choices[secrets.randbelow(len(choices))])
        return action

    def _next(self, between: tuple[Action, ...]) -> Table:
        """The table one between-deal record on: the same deal, another company."""
        return Table(self.setup, self.base, self.deal, self.actions, self.seq + 1,
                     game=self.game, seats=self.seats, between=between,
                     before_start=self.before_start, exact=self.exact,
                     checkpoint=self.checkpoint, before=self.before)

    def followed_by(self, deal: Deal, action: Action) -> Table:
        """The table after ``action``, which made ``deal`` from this table's deal."""
        kept = self if len(self.actions) % CHECKPOINT_EVERY == 1 else self.checkpoint
        return Table(self.setup, self.base, deal, self.actions.plus(action), self.seq + 1,
                     game=self.game, seats=self.seats, between=self.between,
                     before_start=self.before_start, exact=self.exact, checkpoint=kept,
                     before=self.deal)

    def apply(self, action: Action) -> Table:
        """The table after ``action``; raises :class:`IllegalActionError` and changes nothing
        if the rules do not allow it now."""
        if action.type == "undo":
            return self.undo()
        if action.type == "start_deal":
            return self.start_deal(action)
        if action.type in BETWEEN_DEAL_TYPES:
            if not self.deal_over:
                raise IllegalActionError(
                    f"A {action.type.replace('_', ' ')} comes between deals: finish this "
                    "deal first.")
            between_deal(self.setup, self.game, self.totals, action, [])  # refuses or passes
            return self._next(between=(*self.between, action))
        if self.deal is None:
            raise IllegalActionError("No deal is in play: start a deal first.")
        if action.player and action.player.casefold() in (n.casefold()
                                                          for n in self.dealt_out()):
            raise IllegalActionError(f"{action.player} is not in this deal: they are sitting "
                                     "out or have no chips.")
        deal = self.deal.clone()
        apply_action(self.game, deal, action)
        return self.followed_by(deal, action)

    def start_deal(self, action: Action) -> Table:
        """R71: the named game, or the last deal's; R70/R73: the players dealt in, and the
        button on the next of them clockwise."""
        if not self.deal_over:
            raise IllegalActionError("A deal is in play: finish it, or undo, first.")
        totals = self.totals
        game = self.next_game(action.variant)
        if totals.game_over:
            raise IllegalActionError("The game is over: no more deals at this table.")
        seats = dealt_in(game, totals)
        low, high = game.players
        if not low <= len(seats) <= high:
            out = len(totals.names) - len(seats)
            why = (f" ({out} of the {len(totals.names)} seated sit out or have no chips)"
                   if out else "")
            raise IllegalActionError(
                f"{game.name} is for {low} to {high} players dealt in, not {len(seats)}{why}.")
        if action.straddle and "straddle" not in game.deal_options:
            raise IllegalActionError(f"{game.name} has no straddle (R63).")
        bomb_pot = action.bomb_pot or 0
        if bomb_pot and "bomb_pot" not in game.deal_options:
            raise IllegalActionError(f"{game.name} has no bomb pot (R65).")
        if bomb_pot and action.straddle:
            raise IllegalActionError("A bomb pot has no straddle: no blind is posted (R65).")
        overrides: dict[str, Any] = dict(action.blinds or ())  # a tournament's level (R90)
        if action.straddle is not None:
            overrides["straddle"] = action.straddle
        deal = start_deal(game, self.setup.players, deal_totals(game, totals, seats),
                          overrides or None, bomb_pot=bomb_pot)
        return Table(self.setup, totals, deal, Chain((action,)), self.seq + 1, game=game,
                     seats=seats, before_start=self)

    def trimmed(self) -> Table:
        """This table holding at most one deal before its own (``before_start``): the same
        state, but the store's cache does not keep every deal of the night in memory. Undo
        that reaches further back gets a table that only stands for the one before
        (``exact`` False): ``stale`` says so, and the store replays it whole."""
        prior = self.before_start
        if prior is None or prior.before_start is None or prior.before_start.deal is None:
            return self
        anchor = copy.copy(prior)
        deeper = prior.before_start
        anchor.before_start = Table(self.setup, deeper.totals, seq=deeper.seq, exact=False)
        anchor.checkpoint = None  # its checkpoints reach back through every deal before
        twin = copy.copy(self)
        twin.before_start = anchor
        if twin.checkpoint is not None and twin.checkpoint.before_start is not anchor:
            twin.checkpoint = None  # an undo replays from the anchor instead
        return twin

    def next_game(self, variant: str | None) -> Game:
        """The game of the next deal: the one named, else the last deal's (R71)."""
        if variant is None or variant == self.game.variant:
            return self.game
        try:
            game = self.setup.game(variant)
        except SetupError as err:
            raise IllegalActionError(str(err)) from None
        if self.game.whole_game:
            raise IllegalActionError(
                f"This table plays {self.game.name}, a whole game of its own: it stays with "
                "it (R71).")
        if game.whole_game:
            raise IllegalActionError(
                f"{game.name} is a whole game with its own chips: make a new table for it "
                "(R71).")
        return game

    def can(self, action: Action) -> bool:
        """Whether ``action`` is allowed now (pokerkit's ``can_x``)."""
        try:
            self.apply(action)
        except IllegalActionError:
            return False
        return True

    def undo(self) -> Table:
        """R8: take back the last action of the current deal, a showdown included; R74: or
        the last between-deal record, or a ``start_deal`` that is its deal's only record."""
        if self.between:
            table = self._next(between=self.between[:-1])
            table.undone = describe(self.between[-1])
            return table
        if self.deal is None:
            raise IllegalActionError("Nothing to undo: no deal has started.")
        last = self.actions[-1]
        if len(self.actions) == 1:
            if self.before_start is None:
                raise IllegalActionError("Nothing to undo: the deal has just started.")
            table = copy.copy(self.before_start)
        elif self.before is not None:  # the deal before the last record is at hand
            kept = self.checkpoint
            if kept is not None and len(kept.actions) == len(self.actions) - 1:
                kept = kept.checkpoint  # the table before was itself the checkpoint
            table = Table(self.setup, self.base, self.before, self.actions.without_last(),
                          game=self.game, seats=self.seats, before_start=self.before_start,
                          exact=self.exact, checkpoint=kept)
        else:
            # replay from the checkpoint (at most CHECKPOINT_EVERY records back), else from
            # the table before the deal's start
            start = self.checkpoint if self.checkpoint is not None else self.before_start
            assert start is not None
            table = start
            done = len(table.actions) if self.checkpoint is not None else 0
            for action in self.actions.last(len(self.actions) - done)[:-1]:
                table = table.apply(action)
            table = copy.copy(table)  # the checkpoint itself is shared: never changed
        table.seq = self.seq + 1
        table.undone = describe(last)
        return table

    @property
    def stakes_per_card(self) -> bool:
        return self.game.stakes_per_card


def dealt_in(game: Game, totals: Totals) -> tuple[int, ...]:
    """The seats dealt into the next deal (R70): everyone in a whole game (R53: no chips
    plays on for free), else every seated player with chips who is not sitting out."""
    if game.whole_game:
        return tuple(range(len(totals.names)))
    away = set(totals.sitting_out)
    return tuple(i for i, (name, stack) in enumerate(zip(totals.names, totals.stacks,
                                                         strict=True))
                 if stack > 0 and name not in away)


def deal_totals(game: Game, totals: Totals, seats: tuple[int, ...]) -> Totals:
    """The totals as the deal sees them: its players only, the button placed so that the
    game's next dealer is the next player dealt in, clockwise (R73)."""
    if len(seats) == len(totals.names):
        return totals
    n = len(totals.names)
    nxt = next(s for step in range(1, n + 1)
               if (s := (totals.button + step) % n) in seats)
    return replace(
        totals, stacks=tuple(totals.stacks[s] for s in seats),
        buy_ins=tuple(totals.buy_ins[s] for s in seats),
        names=tuple(totals.names[s] for s in seats),
        button=(seats.index(nxt) - 1) % len(seats),
    )


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
