"""One deal as a state machine: players, stakes, betting rounds, phases and the result.

A game (``dealer_assist.games``) is a list of phases; the deal walks through them as actions
arrive. Every handler may raise :class:`IllegalActionError` half-way: the table applies each
action to a copy, so a refusal changes nothing (R9).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from dealer_assist.actions import Action
from dealer_assist.cards import parse_card
from dealer_assist.errors import BadCardError, IllegalActionError
from dealer_assist.pots import Pot, layer_pots, split
from dealer_assist.rules import KINGS_POT_VARIANTS, HouseRules

if TYPE_CHECKING:
    from dealer_assist.games import Game


_T = TypeVar("_T")


@dataclass(frozen=True)
class Totals:
    """What a table carries from one deal to the next (R28, R55)."""

    stacks: tuple[int, ...]
    deal_number: int = 0  # deals started so far
    button: int = -1  # the seat of the last deal's dealer (21 Hand Hold'em: its blind holder)
    kings_pot: int = 0
    bank: int = 0
    carry: int = 0  # chips left in the pot for the next deal (R7 carry, R55)
    off_table: int = 0  # odd chips taken off the table after 21 Hand Hold'em's last hand
    game_over: bool = False
    buy_ins: tuple[int, ...] = ()  # every chip each player has bought in, rebuys included

    def chips(self) -> int:
        """Every chip the table holds: conserved by every deal (R3)."""
        return sum(self.stacks) + self.kings_pot + self.bank + self.carry + self.off_table

    def to_json(self) -> dict[str, Any]:
        return {
            "stacks": list(self.stacks), "deal_number": self.deal_number,
            "button": self.button, "kings_pot": self.kings_pot, "bank": self.bank,
            "carry": self.carry, "off_table": self.off_table, "game_over": self.game_over,
            "buy_ins": list(self.buy_ins),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Totals:
        return cls(**{**data, "stacks": tuple(data["stacks"]),
                      "buy_ins": tuple(data.get("buy_ins", ()))})


@dataclass
class Stake:
    """A betting seat (R24): one per card bought in King's Pot, one per player elsewhere."""

    owner: int
    card: str | None = None
    contributed: int = 0
    live: bool = True


@dataclass
class Player:
    name: str
    seat: int
    stack: int
    status: str = "in"  # in, folded, all_in, out
    round_bet: int = 0  # per live stake, this betting round
    acted: bool = False
    raise_closed: bool = False  # a short all-in did not reopen the betting for this player
    stakes: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)  # as recorded by the dealer
    bought: int | None = None  # King's Pot: cards asked for; None until asked

    @property
    def live(self) -> bool:
        return self.status in ("in", "all_in")


@dataclass
class Round:
    """The betting round in progress."""

    index: int
    bet_size: int  # fixed limit: the size of a bet or raise this round
    opener: int  # the seat betting starts from
    current: int = 0  # the highest per-stake bet this round
    last_raise: int = 0  # the smallest raise increment that reopens the betting
    raises: int = 0  # bets and raises so far (fixed limit allows four)


@dataclass
class Deal:
    game: Game
    rules: HouseRules
    players: list[Player]
    dealer: int
    totals: Totals  # the table before this deal
    stakes: list[Stake] = field(default_factory=list)
    phase: int = 0
    turn: int | None = None  # the seat whose turn it is, where a phase has turns
    round: Round | None = None
    grid: dict[str, str | None] = field(default_factory=dict)  # cell -> card; None if turned
    revealed: list[str] = field(default_factory=list)
    kings_hand: list[str] = field(default_factory=list)
    kings_pot: int = 0
    bank: int = 0
    carry: int = 0  # dead chips in this deal's main pot
    off_table: int = 0
    result: dict[str, Any] | None = None
    log: list[str] = field(default_factory=list)
    scratch: dict[str, Any] = field(default_factory=dict)  # per-phase bookkeeping
    game_over: bool = False

    # ----------------------------------------------------------------- names and seats
    def player(self, name: str | None) -> Player:
        if name is None:
            raise IllegalActionError("Say which player acts.")
        for p in self.players:
            if p.name.casefold() == name.casefold():
                return p
        raise IllegalActionError(f"There is no player called {name} at this table.")

    def seats_from(self, first: int) -> list[Player]:
        """Every player in seat order, clockwise, starting at seat ``first`` (R4)."""
        n = len(self.players)
        return [self.players[(first + i) % n] for i in range(n)]

    @property
    def left_of_dealer(self) -> int:
        return (self.dealer + 1) % len(self.players)

    @property
    def kings_pot_game(self) -> bool:
        return self.game.variant in KINGS_POT_VARIANTS

    def live_stakes(self, p: Player) -> list[Stake]:
        return [self.stakes[i] for i in p.stakes if self.stakes[i].live]

    def still_in(self) -> list[Player]:
        return [p for p in self.players if p.live]

    def chips(self) -> int:
        """Every chip on the table right now (R3)."""
        return (
            sum(p.stack for p in self.players) + sum(s.contributed for s in self.stakes)
            + self.carry + self.kings_pot + self.bank + self.off_table
        )

    # ----------------------------------------------------------------------- chips
    def put(self, p: Player, per_stake: int) -> int:
        """``p`` stakes ``per_stake`` more on each live stake; returns the chips it costs."""
        live = self.live_stakes(p)
        cost = per_stake * len(live)
        if cost > p.stack:
            raise IllegalActionError(f"{p.name} has only {p.stack} chips.")
        p.stack -= cost
        for s in live:
            s.contributed += per_stake
        p.round_bet += per_stake
        return cost

    def pots(self) -> list[Pot]:
        return layer_pots(
            [s.contributed for s in self.stakes],
            [s.live and self.players[s.owner].live for s in self.stakes],
            self.carry,
            [self.players[s.owner].status == "all_in" for s in self.stakes],
        )

    def pot_total(self) -> int:
        return sum(s.contributed for s in self.stakes) + self.carry

    def return_uncalled(self) -> None:
        """The part of a bet nobody matched goes back to its owner (R5)."""
        by_owner: dict[int, int] = {}
        for s in self.stakes:
            by_owner[s.owner] = max(by_owner.get(s.owner, 0), s.contributed)
        for p in self.players:
            live = self.live_stakes(p)
            if not live:
                continue
            top = live[0].contributed
            others = max((c for o, c in by_owner.items() if o != p.seat), default=0)
            if top > others:
                back = top - others
                for s in live:
                    s.contributed -= back
                p.stack += back * len(live)
                p.round_bet = max(0, p.round_bet - back)
                if p.status == "all_in" and p.stack >= len(live):
                    p.status = "in"
                self.log.append(f"{p.name} takes back {back * len(live)} uncalled.")
                return

    def share_out(
        self, amount: int, winners: Sequence[int], *, odd_chip: str | None = None
    ) -> int:
        """Pay ``amount`` to ``winners`` (seats, one entry a share); returns the odd chips
        left over under ``carry`` (R7)."""
        won, left = split(
            amount, winners, seats=len(self.players), first_seat=self.left_of_dealer,
            odd_chip=odd_chip or self.rules.odd_chip,
        )
        payouts = self.result_payouts()
        for seat, chips in won.items():
            self.players[seat].stack += chips
            name = self.players[seat].name
            payouts[name] = payouts.get(name, 0) + chips
        return left

    def result_payouts(self) -> dict[str, int]:
        if self.result is None:
            self.result = {"payouts": {}}
        return self.result["payouts"]

    def clear_pots(self) -> None:
        for s in self.stakes:
            s.contributed = 0
        self.carry = 0

    # ------------------------------------------------------------------ cards
    def known_cards(self) -> dict[str, str]:
        """Every full card entered this deal, with where it is, to catch duplicates."""
        seen: dict[str, str] = {}
        for cell_name, card in self.grid.items():
            if card:
                seen[card] = cell_name
        for card in self.kings_hand:
            seen[card] = "the king's hand"
        for p in self.players:
            for card in p.cards:
                if len(card) == 2:
                    seen[card] = f"{p.name}'s hand"
        for card in self.scratch.get("board_cards", {}).values():
            seen[card] = "the board"
        return seen

    def parse(self, text: str, *, rank_only: bool = False) -> str:
        try:
            return parse_card(text, jokers=self.rules.wilds == "jokers", rank_only=rank_only)
        except BadCardError as err:
            raise IllegalActionError(str(err)) from None

    def check_new_cards(self, cards: Sequence[str], seen: dict[str, str] | None = None) -> None:
        """Refuse a card entered twice, naming it (R9)."""
        seen = dict(self.known_cards() if seen is None else seen)
        for card in cards:
            if len(card) != 2:
                continue
            if card in seen:
                raise IllegalActionError(f"{card} is already on the table ({seen[card]}).")
            seen[card] = "this entry"

    # ------------------------------------------------------------------ flow
    @property
    def current_phase(self) -> Phase:
        return self.game.phases[self.phase]

    def advance(self) -> None:
        """Move past every finished phase, entering the next ones."""
        while self.current_phase.done(self) and self.phase < len(self.game.phases) - 1:
            self.phase += 1
            self.turn = None
            self.scratch.pop("phase", None)
            self.current_phase.enter(self)

    def apply(self, action: Action) -> None:
        if action.type == "start_deal":
            raise IllegalActionError("A deal is already in play: finish it first.")
        phase = self.current_phase
        if self.result is not None and not phase.runs_after_result:
            raise IllegalActionError(
                "This deal is over: start the next deal, or undo to correct it."
            )
        if action.type not in phase.accepts(self):
            raise IllegalActionError(phase.refusal(self, action))
        phase.handle(self, action)
        self.end_if_one_left()
        self.advance()

    def end_if_one_left(self) -> None:
        if self.result is None and self.game.ends_when_one_left and self.scratch.get("dealt"):
            alive = self.still_in()
            if len(alive) <= 1:
                self.game.award_uncontested(self, alive[0] if alive else None)
                self.phase = self.game.result_phase()
                self.turn = None
                self.scratch.pop("phase", None)
                self.current_phase.enter(self)

    def clone(self) -> Deal:
        """A copy that shares nothing mutable with this deal (R9: an action is applied to the
        copy). Field by field rather than ``copy.deepcopy``, which cost most of an action's
        time; the game, the rules and the base totals are immutable and shared."""
        twin = _shallow(self)
        twin.players = [_copy_player(p) for p in self.players]
        twin.stakes = [_shallow(s) for s in self.stakes]
        twin.round = None if self.round is None else _shallow(self.round)
        twin.grid = dict(self.grid)
        twin.revealed = list(self.revealed)
        twin.kings_hand = list(self.kings_hand)
        twin.result = copy.deepcopy(self.result)
        twin.log = list(self.log)
        twin.scratch = copy.deepcopy(self.scratch)
        return twin

    def step(self) -> dict[str, Any]:
        return self.current_phase.step(self)

    def final_totals(self) -> Totals:
        return Totals(
            stacks=tuple(p.stack for p in self.players),
            deal_number=self.totals.deal_number,
            button=self.dealer_button(),
            kings_pot=self.kings_pot,
            bank=self.bank,
            carry=self.carry + sum(s.contributed for s in self.stakes),
            off_table=self.off_table,
            game_over=self.game_over,
            buy_ins=tuple(
                b + self.scratch.get("rebuys", {}).get(i, 0)
                for i, b in enumerate(self.totals.buy_ins or self.totals.stacks)
            ),
        )

    def dealer_button(self) -> int:
        return self.scratch.get("button", self.dealer)


def chips(n: int) -> str:
    """``"1 chip"``, ``"3 chips"``."""
    return f"{n} chip" if n == 1 else f"{n} chips"


def _shallow(obj: _T) -> _T:
    """``copy.copy`` for our plain dataclasses, without its ``__reduce_ex__`` round trip
    (about 4 µs an object, and a deal of 22 players has some 45 of them to copy)."""
    twin: _T = object.__new__(type(obj))
    twin.__dict__.update(obj.__dict__)
    return twin


def _copy_player(p: Player) -> Player:
    twin = _shallow(p)
    twin.stakes = list(p.stakes)
    twin.cards = list(p.cards)
    return twin


class Phase:
    """One part of a deal. Subclasses say which actions they take and what comes next."""

    kind = "next"
    runs_after_result = False

    def enter(self, deal: Deal) -> None:
        """Called when the deal reaches this phase."""

    def done(self, deal: Deal) -> bool:
        return bool(deal.scratch.get("phase", {}).get("done"))

    def accepts(self, deal: Deal) -> tuple[str, ...]:
        return ()

    def refusal(self, deal: Deal, action: Action) -> str:
        step = self.step(deal)
        return f"Cannot {action.type.replace('_', ' ')} now: {step['instruction']}"

    def handle(self, deal: Deal, action: Action) -> None:
        raise NotImplementedError

    def step(self, deal: Deal) -> dict[str, Any]:
        raise NotImplementedError

    @staticmethod
    def mark_done(deal: Deal) -> None:
        deal.scratch.setdefault("phase", {})["done"] = True


def check_turn(deal: Deal, action: Action) -> Player:
    """The acting player, who must be the one whose turn it is."""
    p = deal.player(action.player)
    if deal.turn is None or p.seat != deal.turn:
        whose = deal.players[deal.turn].name if deal.turn is not None else "nobody"
        raise IllegalActionError(
            f"It is not {p.name}'s turn to {action.type.replace('_', ' ')}: it is {whose}'s."
        )
    return p


class NextPhase(Phase):
    """A physical step the dealer does, then taps Next (dealing hole cards, discards)."""

    kind = "next"

    def __init__(self, instruction: str, *, marks_dealt: bool = False) -> None:
        self.instruction = instruction
        self.marks_dealt = marks_dealt

    def accepts(self, deal: Deal) -> tuple[str, ...]:
        return ("next",)

    def handle(self, deal: Deal, action: Action) -> None:
        if self.marks_dealt:
            deal.scratch["dealt"] = True
        deal.log.append(f"Done: {self.instruction}")
        self.mark_done(deal)

    def step(self, deal: Deal) -> dict[str, Any]:
        return {"kind": "next", "player": None,
                "instruction": f"{self.instruction}, then tap Next."}


class RevealPhase(Phase):
    """Turn named cells (R10, R11); the dealer may enter the cards as they turn."""

    kind = "reveal"

    def __init__(self, cells: Sequence[str], label: str) -> None:
        self.cells = tuple(cells)
        self.label = label

    def accepts(self, deal: Deal) -> tuple[str, ...]:
        return ("reveal",)

    def handle(self, deal: Deal, action: Action) -> None:
        entered = self.cards_of(deal, action)
        deal.check_new_cards(list(entered.values()))
        for cell_name in self.cells:
            deal.grid[cell_name] = entered.get(cell_name)
            deal.revealed.append(cell_name)
        shown = " ".join(entered.get(c, "?") for c in self.cells) if entered else ""
        deal.log.append(f"Turned {self.label}" + (f": {shown}" if shown else "") + ".")
        self.mark_done(deal)

    def cards_of(self, deal: Deal, action: Action) -> dict[str, str]:
        if action.cards is not None:  # a list, in the order of the cells to turn
            if len(action.cards) > len(self.cells):
                raise IllegalActionError(
                    f"Only {len(self.cells)} cards are turned now ({self.label}), "
                    f"not {len(action.cards)}."
                )
            return {c: deal.parse(t) for c, t in zip(self.cells, action.cards, strict=False)}
        entered: dict[str, str] = {}
        for cell_name, text in action.cells or ():
            if cell_name not in self.cells:
                raise IllegalActionError(
                    f"{cell_name} is not turned now: the cards to turn are "
                    f"{' '.join(self.cells)} ({self.label})."
                )
            entered[cell_name] = deal.parse(text)
        return entered

    def step(self, deal: Deal) -> dict[str, Any]:
        return {
            "kind": "reveal", "player": None, "cells": list(self.cells),
            # the grid frames the cells: the words say what and how many, not where
            "instruction": f"Turn {self.label}: {len(self.cells)} "
                           f"card{'s' if len(self.cells) > 1 else ''}, framed.",
        }


class BettingPhase(Phase):
    """A betting round (R5, R6, R24): check, call, bet, raise, all in, fold."""

    kind = "bet"

    def __init__(self, index: int, *, early: bool, preflop: bool = False) -> None:
        self.index = index
        self.early = early
        self.preflop = preflop

    # ------------------------------------------------------------------ set-up
    def enter(self, deal: Deal) -> None:
        rules = deal.rules
        bet_size = rules.small_bet if self.early else rules.big_bet
        opener = deal.game.opener(deal, self)
        rnd = Round(index=self.index, bet_size=bet_size, opener=opener)
        rnd.last_raise = bet_size if rules.betting == "fixed_limit" else rules.min_bet
        for p in deal.players:
            p.acted = False
            p.raise_closed = False
            if not self.preflop:
                p.round_bet = 0
        if self.preflop:
            # a big blind all in for less still makes the others call the full blind, as in
            # card rooms; the short blind can win only what it matched (R6)
            rnd.current = max(max(p.round_bet for p in deal.players), deal.rules.big_blind)
            rnd.last_raise = max(rnd.last_raise, deal.rules.big_blind)
            rnd.raises = 1 if rnd.current else 0
        deal.round = rnd
        deal.turn = self.next_to_act(deal, opener, include_start=True)
        if deal.turn is None:
            self.close(deal)

    def in_players(self, deal: Deal) -> list[Player]:
        return [p for p in deal.players if p.status == "in"]

    def needs_to_act(self, deal: Deal, p: Player) -> bool:
        if p.status != "in" or deal.round is None:
            return False
        if p.round_bet < deal.round.current:
            return True
        # R5: when at most one seat can still bet, there is no betting
        return not p.acted and len(self.in_players(deal)) > 1

    def next_to_act(self, deal: Deal, start: int, *, include_start: bool) -> int | None:
        order = deal.seats_from(start if include_start else start + 1)
        return next((p.seat for p in order if self.needs_to_act(deal, p)), None)

    def close(self, deal: Deal) -> None:
        deal.return_uncalled()
        for p in deal.players:
            p.round_bet = 0
        deal.round = None
        deal.turn = None
        self.mark_done(deal)

    # ------------------------------------------------------------------ actions
    def accepts(self, deal: Deal) -> tuple[str, ...]:
        return ("check", "call", "bet", "raise", "all_in", "fold")

    def handle(self, deal: Deal, action: Action) -> None:
        p = check_turn(deal, action)
        rnd = deal.round
        assert rnd is not None
        k = len(deal.live_stakes(p))
        to_call = rnd.current - p.round_bet
        if action.type == "fold":
            if self.fold(deal, p, action):
                return  # one card folded: the same player goes on acting (R24)
        elif action.type == "check":
            if to_call:
                raise IllegalActionError(
                    f"{p.name} cannot check: {self.cost_words(deal, p, to_call)} to call."
                )
            deal.log.append(f"{p.name} checks.")
        elif action.type == "call":
            self.call(deal, p, to_call, k)
        elif action.type == "all_in":
            self.all_in(deal, p, k)
        else:
            self.bet_or_raise(deal, p, action, k)
        p.acted = True
        if deal.result is None and len(deal.still_in()) > 1:
            deal.turn = self.next_to_act(deal, p.seat, include_start=False)
            if deal.turn is None:
                self.close(deal)

    def fold(self, deal: Deal, p: Player, action: Action) -> bool:
        """Fold the player, or in King's Pot one card; True if the player goes on acting."""
        live = deal.live_stakes(p)
        if action.card is not None:
            if not deal.kings_pot_game:
                raise IllegalActionError("Only King's Pot folds a single card.")
            stake = self.stake_for_card(deal, p, action.card)
            stake.live = False
            if len(live) > 1:
                # the folded card goes face down: the shared log must not name it
                deal.log.append(f"{p.name} folds one card.")
                return True
        for s in live:
            s.live = False
        p.status = "folded"
        deal.log.append(f"{p.name} folds.")
        return False

    def stake_for_card(self, deal: Deal, p: Player, text: str) -> Stake:
        card = deal.parse(text, rank_only=True)
        live = deal.live_stakes(p)
        for s in live:
            if s.card == card:
                return s
        for s in live:
            if s.card and s.card[0] == card[0]:
                return s
        held = " ".join(s.card or "?" for s in live)
        raise IllegalActionError(f"{p.name} holds no live {card}: their live cards are {held}.")

    def call(self, deal: Deal, p: Player, to_call: int, k: int) -> None:
        if not to_call:
            raise IllegalActionError(f"{p.name} cannot call: there is no bet to call; check.")
        if to_call * k <= p.stack:
            cost = deal.put(p, to_call)
            if p.stack == 0:
                p.status = "all_in"
            deal.log.append(f"{p.name} calls {cost}.")
            return
        per = p.stack // k
        if per == 0:
            raise IllegalActionError(
                f"{p.name} cannot call: {chips(p.stack)} cannot stake 1 per card on {k} cards; "
                "fold cards first."
            )
        cost = deal.put(p, per)
        p.status = "all_in"  # R24: what does not divide stays in the stack
        deal.log.append(f"{p.name} calls {cost} and is all in.")

    def all_in(self, deal: Deal, p: Player, k: int) -> None:
        rnd = deal.round
        assert rnd is not None
        per = p.stack // k
        if per == 0:
            raise IllegalActionError(
                f"{p.name} cannot go all in: {chips(p.stack)} cannot stake 1 per card on {k} cards."
            )
        total = p.round_bet + per
        if total <= rnd.current:
            deal.put(p, per)
            p.status = "all_in"
            deal.log.append(f"{p.name} calls {per * k} and is all in.")
            return
        self.raise_to(deal, p, total, k, "raise" if rnd.current else "bet", all_in=True)

    def bet_or_raise(self, deal: Deal, p: Player, action: Action, k: int) -> None:
        rnd = deal.round
        assert rnd is not None
        verb = action.type
        if action.amount is None:
            raise IllegalActionError(f"Say how much {p.name} {verb}s to (amount).")
        if verb == "bet" and rnd.current:
            raise IllegalActionError(
                f"{p.name} cannot bet: there is a bet of {rnd.current} already; raise instead."
            )
        if verb == "raise" and not rnd.current:
            raise IllegalActionError(f"{p.name} cannot raise: nobody has bet; bet instead.")
        total = action.amount
        need = (total - p.round_bet) * k
        if total <= rnd.current:
            raise IllegalActionError(
                f"{p.name} cannot {verb} to {total}: it must be more than {rnd.current}."
            )
        if need > p.stack:
            most = p.round_bet + p.stack // k
            per = " per card" if deal.kings_pot_game else ""
            all_in = f" (all in is {most}{per})" if most > p.round_bet else ""
            raise IllegalActionError(
                f"{p.name} cannot {verb} to {total}{per}: that needs {need} and {p.name} has "
                f"{p.stack}{all_in}."
            )
        self.raise_to(deal, p, total, k, verb, all_in=need == p.stack or p.stack - need < k)

    def raise_to(self, deal: Deal, p: Player, total: int, k: int, verb: str, *,
                 all_in: bool) -> None:
        rnd = deal.round
        assert rnd is not None
        rules = deal.rules
        per = " per card" if deal.kings_pot_game else ""
        if p.raise_closed:
            raise IllegalActionError(
                f"{p.name} cannot raise: the all-in for less than a full raise did not reopen "
                "the betting; call or fold."
            )
        increment = total - rnd.current
        if rules.betting == "fixed_limit":
            if rnd.raises >= 4:
                raise IllegalActionError(
                    f"{p.name} cannot raise: a round allows one bet and three raises."
                )
            target = rnd.current + rnd.bet_size
            if total > target or (total < target and not all_in):
                raise IllegalActionError(
                    f"{p.name} cannot {verb} to {total}: in fixed limit this round it is "
                    f"{verb} to {target}{per}."
                )
            full = total == target
        else:
            smallest = rnd.current + max(rnd.last_raise, 1) if rnd.current else rules.min_bet
            if total < smallest and not all_in:
                raise IllegalActionError(
                    f"{p.name} cannot {verb} to {total}{per}: the smallest {verb} is to "
                    f"{smallest}{per}."
                )
            if rules.betting == "pot_limit":
                to_call = rnd.current - p.round_bet
                # the smallest bet is always allowed, even into an empty pot
                largest = max(rnd.current + deal.pot_total() + to_call, smallest)
                if total > largest:
                    raise IllegalActionError(
                        f"{p.name} cannot {verb} to {total}: pot limit allows at most {largest}."
                    )
            full = increment >= rnd.last_raise or not rnd.current
        cost = deal.put(p, total - p.round_bet)
        if p.stack < k:
            p.status = "all_in"
        for other in deal.players:
            if other.seat == p.seat or other.status != "in":
                continue
            if full:
                other.acted = False
                other.raise_closed = False
            elif other.acted:
                other.raise_closed = True  # R5: a short all-in does not reopen the betting
        if full:
            rnd.raises += 1
            if rules.betting != "fixed_limit":
                rnd.last_raise = max(increment, rnd.last_raise if rnd.current else 0, 1)
        rnd.current = total
        tail = " and is all in" if p.status == "all_in" else ""
        deal.log.append(f"{p.name} {verb}s to {total}{per} ({cost} in){tail}.")

    # ------------------------------------------------------------------ the step
    def cost_words(self, deal: Deal, p: Player, per_stake: int) -> str:
        k = len(deal.live_stakes(p))
        if deal.kings_pot_game:
            return f"{per_stake} per card, {k} card{'s' if k != 1 else ''} = {per_stake * k}"
        return str(per_stake)

    def step(self, deal: Deal) -> dict[str, Any]:
        rnd = deal.round
        if rnd is None or deal.turn is None:
            return {"kind": "bet", "player": None, "to_call": 0, "instruction": "Betting is over."}
        p = deal.players[deal.turn]
        k = len(deal.live_stakes(p))
        to_call = rnd.current - p.round_bet
        round_name = deal.game.round_name(self)
        if to_call:
            what = f"{self.cost_words(deal, p, to_call)} to call"
        else:
            what = "check or bet" if not rnd.current else "check or raise"
        options = ["fold"] + (["call"] if to_call else ["check"])
        rules = deal.rules
        smallest = rnd.current + max(rnd.last_raise, 1) if rnd.current else rules.min_bet
        most = p.round_bet + p.stack // max(k, 1)
        if rules.betting == "fixed_limit":
            smallest = most_allowed = rnd.current + rnd.bet_size
            can_raise = rnd.raises < 4
        elif rules.betting == "pot_limit":
            most_allowed = max(rnd.current + deal.pot_total() + to_call, smallest)
            can_raise = True
        else:
            most_allowed = most
            can_raise = True
        can_raise = can_raise and not p.raise_closed and most > rnd.current
        if can_raise:
            options.append("raise" if rnd.current else "bet")
        within_limit = most <= rnd.current or (can_raise and most <= most_allowed)
        if most > p.round_bet and within_limit:
            options.append("all_in")  # in a limit game, only where the limit allows it
        if to_call and most == p.round_bet:  # cannot stake 1 per card: fold cards (R24)
            options = ["fold"]
            what += f"; {chips(p.stack)} cannot stake 1 per card: fold cards"
        return {
            "kind": "bet",
            "player": p.name,
            "to_call": to_call,
            "to_call_total": to_call * k,
            "per_card": deal.kings_pot_game,
            "cards": k if deal.kings_pot_game else None,
            "round": round_name,
            "current_bet": rnd.current,
            "min_raise_to": min(smallest, most) if can_raise else None,
            "max_raise_to": min(most_allowed, most) if can_raise else None,
            "options": options,
            "instruction": f"{round_name}: {p.name}: {what}.",
        }


class ShowdownPhase(Phase):
    """What every showdown shares: the cards still to enter, checked and then laid down."""

    kind = "showdown"
    cells: tuple[str, ...] = ()
    cells_name = "grid card"

    def missing(self, deal: Deal) -> list[str]:
        return [c for c in self.cells if not deal.grid.get(c)]

    def accepts(self, deal: Deal) -> tuple[str, ...]:
        return ("showdown",)

    def given_cells(self, deal: Deal, given: dict[str, str]) -> dict[str, str]:
        """The cards given for cells not entered yet; every cell must then have its card."""
        for cell_name, card in given.items():
            if cell_name not in self.cells:
                raise IllegalActionError(
                    f"{cell_name} is not a cell here: they are {self.cells[0]} to {self.cells[-1]}."
                )
            if deal.grid.get(cell_name) and deal.grid[cell_name] != card:
                raise IllegalActionError(
                    f"{cell_name} is already entered as {deal.grid[cell_name]}; undo to change it."
                )
        missing = [c for c in self.missing(deal) if c not in given]
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            raise IllegalActionError(
                f"Enter every {self.cells_name}: {' '.join(missing)} {verb} missing."
            )
        return {c: card for c, card in given.items() if not deal.grid.get(c)}

    def hole_cards(self, deal: Deal, action: Action, count: int) -> dict[int, list[str]]:
        """Every player still in shows ``count`` cards."""
        hands = {deal.player(name).seat: cards for name, cards in action.hands or ()}
        holes: dict[int, list[str]] = {}
        for p in deal.still_in():
            if p.seat not in hands:
                raise IllegalActionError(f"Enter {p.name}'s {count} hole cards.")
            cards = [deal.parse(t) for t in hands[p.seat]]
            if len(cards) != count:
                raise IllegalActionError(
                    f"{p.name} has {count} hole cards, not {len(cards)}."
                )
            holes[p.seat] = cards
        return holes

    @staticmethod
    def lay_down(deal: Deal, cells: dict[str, str], holes: dict[int, list[str]]) -> None:
        """Check that no card is entered twice (R9), then put the cards on the table."""
        deal.check_new_cards([*cells.values(), *(c for cards in holes.values() for c in cards)])
        for cell_name, card in cells.items():
            deal.grid[cell_name] = card
            if cell_name not in deal.revealed:
                deal.revealed.append(cell_name)
        for seat, cards in holes.items():
            deal.players[seat].cards = cards


class EndPhase(Phase):
    """The deal is over; the next one can start (or the game is over)."""

    kind = "start_deal"
    runs_after_result = False

    def done(self, deal: Deal) -> bool:
        return False

    def step(self, deal: Deal) -> dict[str, Any]:
        if deal.game_over:
            return {"kind": "game_over", "player": None,
                    "instruction": deal.scratch.get("game_over_words", "The game is over.")}
        return {"kind": "start_deal", "player": None,
                "instruction": "The deal is over: tap Start deal for the next one."}
