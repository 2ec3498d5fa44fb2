"""21 Hand Hold'em (R50-R56): 21 hands, a bank of 21 chips, pay or fold."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dealer_assist.core.actions import Action
from dealer_assist.core.cards import RANK_NAMES, rank_value
from dealer_assist.core.deal import (
    CarriedPot,
    Deal,
    PhaseState,
    Player,
    PlayerStatus,
    Stake,
    Totals,
)
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game
from dealer_assist.core.layouts import BOARD as BOARD_LAYOUT
from dealer_assist.core.layouts import BOARD_CELLS, Layout
from dealer_assist.core.phases import EndPhase, NextPhase, Phase, RevealPhase
from dealer_assist.core.result import Result, ShownHand
from dealer_assist.core.rules import OddChip
from dealer_assist.core.showdown import ShowdownPhase, TwoFromHoleThreeFromBoard, muckable
from dealer_assist.core.step import Step, StepKind
from dealer_assist.core.words import hand_phrase


@dataclass
class Standing:
    """A player's chips when the game ended (R56), in the order of the standings."""

    name: str
    chips: int


@dataclass
class TwentyOneResult(Result):
    """A hand's result, with the bank's chip in its pot (R55) and, after the last hand, the
    game's winner, the standings and the high-card draws that broke a tie (R56)."""

    bank_chip: int | None = None
    game_winner: str | None = None
    standings: list[Standing] | None = None
    tiebreak_draws: list[dict[str, str]] | None = None  # a draw a round: name -> card

    @classmethod
    def fields_from_json(cls, data: dict[str, Any]) -> dict[str, Any]:
        standings = data.get("standings")
        return {
            **super().fields_from_json(data),
            "bank_chip": data.get("bank_chip"),
            "game_winner": data.get("game_winner"),
            "standings": ([Standing(s["name"], s["chips"]) for s in standings]
                          if standings is not None else None),
            "tiebreak_draws": data.get("tiebreak_draws"),
        }

BOARD = BOARD_CELLS
HANDS_PER_GAME = 21  # R50
# R50: the bank pays a chip to each hand's winner; R55: odd chips left after the last hand
# are taken off the table (counted, so that every chip stays accounted for, R3)
BANK = CarriedPot("bank", "Bank", "for the bank: a chip to each hand's winner")
TAKEN_OFF = CarriedPot("off_table", "Odd chips taken off", "odd chips taken off after the last "
                       "hand", shown=False)


def blind_seat(deal: Deal) -> int | None:
    return deal.blinds[0] if deal.blinds else None


@dataclass
class DrawState(PhaseState):
    """A draw in play (R51, R56): who draws this round, what each drew, the rounds before."""

    round: list[int] = field(default_factory=list)
    draws: dict[int, str] = field(default_factory=dict)
    history: list[dict[str, str]] = field(default_factory=list)


@dataclass
class PayState(PhaseState):
    """R52: the seats asked to pay 1 before the river."""

    asked: list[int] = field(default_factory=list)


@dataclass
class RaiseState(PhaseState):
    """R52 ``river_raise``: who raised, and who has still to match or fold."""

    raiser: int | None = None
    pending: list[int] = field(default_factory=list)


def last_hand(deal: Deal) -> bool:
    return deal.totals.deal_number >= HANDS_PER_GAME


def pay_one(deal: Deal, p: Player) -> str:
    """R53: a player with no chips plays on for free."""
    if p.stack == 0:
        return f"{p.name} plays on for free."
    p.stack -= 1
    deal.stakes[p.stakes[0]].contributed += 1
    return f"{p.name} pays 1."


class DrawPhase(Phase):
    """R51 and R56: each player draws one card; ties draw again."""


    def __init__(self, purpose: str) -> None:
        self.purpose = purpose  # "blind" (lowest card) or "tiebreak" (highest card)
        self.runs_after_result = purpose == "tiebreak"

    def candidates(self, deal: Deal) -> list[int]:
        if self.purpose == "blind":
            return [p.seat for p in deal.players]
        most = max(p.stack for p in deal.players)
        return [p.seat for p in deal.players if p.stack == most]

    def enter(self, game: Game, deal: Deal) -> None:
        if self.purpose == "blind":
            if not (deal.rules.draw_for_blind and deal.totals.deal_number == 1):
                self.mark_done(deal)
                return
        elif not last_hand(deal):
            self.mark_done(deal)
            return
        seats = self.candidates(deal)
        deal.phase_state = DrawState(round=seats)
        if len(seats) == 1:
            self.finish(deal, seats[0])
        else:
            deal.turn = seats[0]

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("draw",)

    def drawn(self, deal: Deal) -> list[str]:
        return draw_candidates_taken(deal)

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        state = deal.phase_state
        assert isinstance(state, DrawState)
        p = deal.player(action.player)
        if p.seat not in state.round:
            raise IllegalActionError(f"{p.name} does not draw now.")
        if p.seat in state.draws:
            raise IllegalActionError(f"{p.name} has drawn already ({state.draws[p.seat]}).")
        if action.card is None:
            raise IllegalActionError(f"Enter the card {p.name} drew.")
        card = deal.parse(action.card)
        if len(card) != 2 or card[0] == "X":
            raise IllegalActionError(f"{action.card} cannot be drawn: draw from the 52 cards.")
        if card in state.draws.values():
            raise IllegalActionError(f"{card} is drawn already this round.")
        state.draws[p.seat] = card
        deal.log.append(f"{p.name} draws {card}.")
        waiting = [s for s in state.round if s not in state.draws]
        if waiting:
            deal.turn = waiting[0]
            return
        values = {s: rank_value(c) for s, c in state.draws.items()}
        pick = min if self.purpose == "blind" else max
        target = pick(values.values())
        tied = [s for s in state.round if values[s] == target]
        state.history.append({deal.players[s].name: c for s, c in state.draws.items()})
        if len(tied) == 1:
            self.finish(deal, tied[0])
        else:
            state.round = tied
            state.draws = {}
            deal.turn = tied[0]
            rank = RANK_NAMES[state.history[-1][deal.players[tied[0]].name][0]]
            names = ", ".join(deal.players[s].name for s in tied)
            deal.log.append(f"Tied on a {rank}: {names} draw again.")

    def finish(self, deal: Deal, seat: int) -> None:
        state = deal.phase_state
        assert isinstance(state, DrawState)
        deal.turn = None
        winner = deal.players[seat]
        if self.purpose == "blind":
            deal.blinds = (seat,)
            deal.button = seat
            deal.dealer = (seat - 1) % len(deal.players)
            deal.log.append(f"{winner.name} drew lowest and takes the first blind.")
        else:
            deal.game_over = True
            standings = sorted(deal.players, key=lambda q: (-q.stack, q.seat))
            result = deal.settled()
            assert isinstance(result, TwentyOneResult)
            result.game_winner = winner.name
            result.standings = [Standing(q.name, q.stack) for q in standings]
            result.tiebreak_draws = list(state.history)
            words = f"{winner.name} wins the game with {winner.stack} chips"
            if state.history:
                words += " after the high-card draw"
            deal.game_over_words = words + "."
            deal.log.append(words + ".")
        self.mark_done(deal)

    def step(self, game: Game, deal: Deal) -> Step:
        if deal.turn is None:
            return Step(StepKind.DRAW, "The draw is over.")
        name = deal.players[deal.turn].name
        why = ("the lowest card takes the first blind" if self.purpose == "blind"
               else "a tie for most chips: the highest card wins")
        return Step(StepKind.DRAW, player=name, purpose=self.purpose,
                    instruction=f"{name}: draw a card ({why}), or let the app draw.",
                    public=f"{name} draws a card: {why}.")


class BlindPayPhase(Phase):
    """The blind holder pays 1 to go on, or folds (R52); never asked with no chips (R53)."""


    def __init__(self, purpose: str, *, first: bool = False) -> None:
        self.purpose = purpose
        self.first = first

    def enter(self, game: Game, deal: Deal) -> None:
        seat = blind_seat(deal)
        p = deal.players[seat] if seat is not None else None
        if p is None or p.status != PlayerStatus.IN:
            self.mark_done(deal)
        elif p.stack == 0:
            deal.log.append(f"{p.name} has no chips and plays on for free.")
            self.mark_done(deal)
        else:
            deal.turn = seat

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("pay", "fold")

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        p = deal.player(action.player)
        if p.seat != deal.turn:
            raise IllegalActionError(
                f"It is not {p.name}'s turn: {deal.players[deal.turn or 0].name} holds the blind."
            )
        if action.type == "pay":
            deal.log.append(pay_one(deal, p))
        else:
            p.status = PlayerStatus.FOLDED
            deal.stakes[p.stakes[0]].live = False
            deal.log.append(f"{p.name} {'sits this hand out' if self.first else 'folds'}.")
        deal.turn = None
        self.mark_done(deal)

    def step(self, game: Game, deal: Deal) -> Step:
        name = deal.players[deal.turn].name if deal.turn is not None else None
        other = "sit it out" if self.first else "fold"
        return pay_step(name, f"{name} (blind): pay 1 {self.purpose}, or {other}.",
                        fold_label="Sit out" if self.first else "Fold")


class OthersPayPhase(Phase):
    """R52: before the river, the others, from the blind holder's left, pay 1 or fold."""


    def waiting(self, deal: Deal) -> list[Player]:
        """Who has still to pay or fold, in turn (a query: it changes nothing)."""
        state = deal.phase_state
        asked = state.asked if isinstance(state, PayState) else []
        blind = blind_seat(deal)
        start = (blind if blind is not None else deal.dealer) + 1
        return [p for p in deal.seats_from(start)
                if p.seat != blind and p.status == PlayerStatus.IN and p.stack > 0
                and p.seat not in asked]

    def enter(self, game: Game, deal: Deal) -> None:
        deal.phase_state = PayState()
        for p in deal.players:
            if p.status == PlayerStatus.IN and p.stack == 0 and p.seat != blind_seat(deal):
                deal.log.append(f"{p.name} has no chips and plays on for free.")
        waiting = self.waiting(deal)
        deal.turn = waiting[0].seat if waiting else None

    def done(self, game: Game, deal: Deal) -> bool:
        return not self.waiting(deal)

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("pay", "fold")

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        p = deal.player(action.player)
        waiting = self.waiting(deal)
        if not waiting or p.seat != waiting[0].seat:
            whose = waiting[0].name if waiting else "nobody"
            raise IllegalActionError(
                f"It is not {p.name}'s turn to {action.type}: it is {whose}'s."
            )
        state = deal.phase_state
        assert isinstance(state, PayState)
        state.asked.append(p.seat)
        if action.type == "pay":
            deal.log.append(pay_one(deal, p))
        else:
            p.status = PlayerStatus.FOLDED
            deal.stakes[p.stakes[0]].live = False
            deal.log.append(f"{p.name} folds.")
        waiting = self.waiting(deal)
        deal.turn = waiting[0].seat if waiting else None

    def step(self, game: Game, deal: Deal) -> Step:
        waiting = self.waiting(deal)
        name = waiting[0].name if waiting else None
        return pay_step(name, f"{name}: pay 1 to see the river, or fold.")


class RiverRaisePhase(Phase):
    """R52 ``river_raise``: once a hand, anyone still in may raise by 1; others match or fold."""


    def enter(self, game: Game, deal: Deal) -> None:
        if not deal.rules.river_raise:
            self.mark_done(deal)
            return
        deal.phase_state = RaiseState()

    @staticmethod
    def state(deal: Deal) -> RaiseState:
        state = deal.phase_state
        assert isinstance(state, RaiseState)
        return state

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("next", "raise") if self.state(deal).raiser is None else ("pay", "fold")

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        state = self.state(deal)
        if action.type == "next":
            deal.log.append("Nobody raises.")
            self.mark_done(deal)
            return
        p = deal.player(action.player)
        if action.type == "raise":
            if p.status != PlayerStatus.IN:
                raise IllegalActionError(f"{p.name} is not in this hand and cannot raise.")
            if p.stack == 0:
                raise IllegalActionError(f"{p.name} has no chips to raise with.")
            deal.log.append(f"{p.name} raises by 1.")
            pay_one(deal, p)
            state.raiser = p.seat
            state.pending = [q.seat for q in deal.seats_from(p.seat + 1)
                                if q.seat != p.seat and q.status == PlayerStatus.IN and q.stack > 0]
        else:
            if not state.pending or state.pending[0] != p.seat:
                whose = deal.players[state.pending[0]].name if state.pending else "nobody"
                raise IllegalActionError(
                    f"It is not {p.name}'s turn to {action.type}: it is {whose}'s."
                )
            state.pending.pop(0)
            if action.type == "pay":
                deal.log.append(pay_one(deal, p) + " (matching the raise)")
            else:
                p.status = PlayerStatus.FOLDED
                deal.stakes[p.stakes[0]].live = False
                deal.log.append(f"{p.name} folds to the raise.")
        deal.turn = state.pending[0] if state.pending else None
        if not state.pending:
            self.mark_done(deal)

    def step(self, game: Game, deal: Deal) -> Step:
        state = self.state(deal)
        if state.raiser is None:
            return Step(StepKind.NEXT, options=("raise", "next"),
                        instruction="Anyone still in may raise by 1 (river raise); "
                                    "or tap Next for the river.",
                        public="Anyone still in may raise by 1 before the river.")
        name = deal.players[state.pending[0]].name
        return pay_step(name, f"{name}: pay 1 to match the raise, or fold.")


class TwentyOneShowdown(ShowdownPhase):
    """R54, R55: both hole cards and exactly three of the five; the winner takes the pot and
    a chip from the bank."""

    cells = BOARD
    cells_name = "board card"

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        new = self.given_cells(deal, self.board_given(deal, action))
        mucked = self.muck_hands(deal, action)
        holes = self.hole_cards(deal, action, 2)
        self.lay_down(deal, new, holes)
        board = [deal.grid[c] or "" for c in BOARD]
        rule = TwoFromHoleThreeFromBoard(deal.rules.wilds)
        values = {seat: rule.best(cards, board) for seat, cards in holes.items()}
        top = max(v.score for v in values.values())
        winners = [s for s, v in values.items() if v.score == top]
        deal.result = TwentyOneResult(hands={
            deal.players[s].name: ShownHand(list(v.cards), v.name) for s, v in values.items()})
        self.pay_winners(deal, winners)
        deal.result.last_pot.hand = values[winners[0]].name
        names = " and ".join(deal.players[s].name for s in winners)
        deal.log.append(f"{names} win{'s' if len(winners) == 1 else ''} with "
                        f"{hand_phrase(values[winners[0]].name)}.")
        self.note_mucked(deal, mucked)
        self.mark_done(deal)

    @staticmethod
    def pay_winners(deal: Deal, winners: list[int]) -> None:
        amount = deal.pot_total()
        deal.clear_pots()
        bank_chip = 1 if deal.carried.get(BANK.key, 0) > 0 else 0
        deal.add_carried(BANK.key, -bank_chip)
        left = deal.share_out(amount + bank_chip, winners, odd_chip=OddChip.CARRY)
        result = deal.settled()
        assert isinstance(result, TwentyOneResult)
        result.bank_chip = bank_chip
        result.winners = [deal.players[s].name for s in winners]
        deal.carry = left  # R55: odd chips stay in the pot for the next hand
        close_hand(deal)

    def step(self, game: Game, deal: Deal) -> Step:
        names = [p.name for p in deal.still_in()]
        return Step(StepKind.SHOWDOWN, cells=tuple(self.missing(deal)),
                    players=tuple(names), hole_cards=2, muckable=muckable(deal, deal.still_in()),
                    instruction="Showdown: enter the two cards of " + ", ".join(names)
                                + " and the board.",
                    public="Showdown: " + ", ".join(names) + " show their two cards.")


def close_hand(deal: Deal) -> None:
    """After hand 21 the odd chips left in the pot are taken off the table (R55)."""
    if last_hand(deal) and deal.carry:
        deal.add_carried(TAKEN_OFF.key, deal.carry)
        deal.log.append(f"{deal.carry} odd chips are taken off the table.")
        deal.carry = 0


class TwentyOneHandHoldem(Game):
    variant = "twenty_one_hand_holdem"
    result_type = TwentyOneResult
    name = "21 Hand Hold'em"
    summary = "Exactly 21 hands, 4 chips each, a bank of 21: pay 1 or fold at every step."
    players = (2, 8)  # R50
    betting_structures = ()  # pay 1 or fold: no betting structure
    rule_defaults: ClassVar[Mapping[str, Any]] = {"buy_in": 4}  # R50
    house_rules = ("buy_in", "river_raise", "wilds", "draw_for_blind")
    wild_cards = True
    one_pot = True
    layout: ClassVar[Layout] = BOARD_LAYOUT
    between_deal_actions = ("adjust",)
    between_deal_refusals: ClassVar[Mapping[str, str]] = {
        "rebuy": "21 Hand Hold'em has no buying in (R50).",
        **{kind: "21 Hand Hold'em is one game of 21 hands for the players it started with: "
                 "nobody joins, leaves or sits out until it is over (R50, R71)."
           for kind in ("seat", "leave", "sit_out", "sit_in")}}
    whole_game = True
    deal_word = "Hand"
    deals_per_game = HANDS_PER_GAME
    state_fields = ("bank", "hand_number", "hands_left", "blind")
    carried_pots = (BANK, TAKEN_OFF)
    stacks_chart_title = "Chips after each hand"
    stacks_from_zero = True

    carry_place = "in the pot for the next hand"
    odd_chip_rule = "R55"

    @classmethod
    def result_extra_sentences(cls, result: Result) -> list[str]:
        """R55: the bank's chip, counted in the pot it paid."""
        if isinstance(result, TwentyOneResult) and result.bank_chip:
            return [f"The pot includes {result.bank_chip} chip from the bank."]
        return []

    def carried_amounts(self, deal: Deal | None, totals: Totals) -> dict[str, int]:
        return {BANK.key: (deal.carried if deal else totals.carried).get(BANK.key, 0)}

    def add_state(self, state: dict[str, Any], deal: Deal | None, totals: Totals) -> None:
        state[BANK.key] = (deal.carried if deal else totals.carried).get(BANK.key, 0)
        state["hand_number"] = state["deal_number"]
        state["hands_left"] = HANDS_PER_GAME - state["deal_number"]
        blind = blind_seat(deal) if deal else None
        state["blind"] = deal.players[blind].name if deal and blind is not None else None

    def drawn_cards(self, deal: Deal) -> list[str]:
        return draw_candidates_taken(deal)

    def build_phases(self) -> list[Phase]:
        phases: list[Phase] = [
            DrawPhase("blind"),
            BlindPayPhase("to take a hand", first=True),
            NextPhase("Deal five cards to each player"),
            NextPhase("Everyone discards one card"),
            BlindPayPhase("to see the flop"),
            RevealPhase(BOARD[:3], "the flop"),
            NextPhase("Everyone discards one card"),
            BlindPayPhase("to see the turn"),
            RevealPhase(BOARD[3:4], "the turn card"),
            NextPhase("Everyone discards one card, keeping two"),
            OthersPayPhase(),
            BlindPayPhase("to see the river"),
            RiverRaisePhase(),
            RevealPhase(BOARD[4:], "the river card"),
            TwentyOneShowdown(),
            DrawPhase("tiebreak"),
            EndPhase(),
        ]
        return phases

    def initial_totals(self, stacks: tuple[int, ...]) -> Totals:
        return Totals(stacks=stacks, carried={BANK.key: HANDS_PER_GAME}, buy_ins=stacks)

    def next_dealer(self, totals: Totals) -> int:
        # R51: the dealer sits to the right of the blind holder, who moves one seat a hand
        return totals.button % len(totals.stacks)

    def set_up(self, deal: Deal) -> None:
        n = len(deal.players)
        if deal.totals.deal_number > HANDS_PER_GAME:
            raise IllegalActionError("All 21 hands are played: the game is over.")
        blind = (deal.dealer + 1) % n
        if not (deal.rules.draw_for_blind and deal.totals.deal_number == 1):
            deal.blinds = (blind,)
            deal.button = blind
        for p in deal.players:
            p.stakes.append(len(deal.stakes))
            deal.stakes.append(Stake(owner=p.seat))
        deal.dealt = True

    def award_uncontested(self, deal: Deal, winner: Player | None) -> None:
        deal.round = None
        deal.result = TwentyOneResult(uncontested=True)
        if winner is None:  # R55: a hand everyone left carries its pot, no bank chip
            amount = deal.pot_total()
            deal.clear_pots()
            deal.carry = amount
            deal.result.winners = []
            close_hand(deal)
            return
        TwentyOneShowdown.pay_winners(deal, [winner.seat])
        deal.log.append(f"{winner.name} is the last player left and wins the hand.")

    def result_phase(self) -> int:
        return len(self.phases) - 2  # the tie-break draw, after the last hand


def draw_candidates_taken(deal: Deal) -> list[str]:
    """Cards already drawn in the current draw round (the app draws from the rest)."""
    state = deal.phase_state
    return list(state.draws.values()) if isinstance(state, DrawState) else []


def pay_step(name: str | None, instruction: str, fold_label: str = "Fold") -> Step:
    """A turn to pay 1 (a blind, to see the river, to match a river raise) or fold (or, for
    the blind's first payment, sit the hand out)."""
    return Step(StepKind.PAY, instruction, player=name, to_call=1, options=("pay", "fold"),
                fold_label=fold_label, pay_label=f"{name} pays 1")
