"""Texas Dozen (R30-R32) and Off-Road Stud (R40-R42): hole cards played with one line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.core.actions import Action
from dealer_assist.core.betting import BettingPhase
from dealer_assist.core.deal import Deal, Player, PlayerStatus, Stake, Totals
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game
from dealer_assist.core.hands import HandValue, best_five
from dealer_assist.core.layouts import (
    CELLS_4,
    CELLS_5,
    GRID4,
    GRID4_DOWN,
    GRID4_UP,
    GRID5,
    LINES_4,
    LINES_5,
    REVEAL_SETS_5,
    Layout,
)
from dealer_assist.core.phases import EndPhase, NextPhase, Phase, RevealPhase
from dealer_assist.core.result import ShownHand
from dealer_assist.core.showdown import ShowdownPhase
from dealer_assist.core.step import Step, StepKind
from dealer_assist.core.words import hand_phrase


class GridShowdown(ShowdownPhase):
    """Every player still in shows their hole cards; each plays their best line (R32, R42)."""

    def __init__(self, cells: tuple[str, ...], lines: dict[str, tuple[str, ...]],
                 hole: int) -> None:
        self.cells = cells
        self.lines = lines
        self.hole = hole

    def handle(self, deal: Deal, action: Action) -> None:
        new = self.given_cells(deal, {cell: deal.parse(t) for cell, t in action.cells or ()})
        holes = self.hole_cards(deal, action, self.hole)
        self.lay_down(deal, new, holes)
        self.settle(deal)
        self.mark_done(deal)

    def best_lines(self, deal: Deal, p: Player) -> tuple[HandValue, list[str]]:
        values = {
            line: best_five(p.cards + [deal.grid[c] or "" for c in cells])
            for line, cells in self.lines.items()
        }
        best = max(values.values())
        return best, [line for line, v in values.items() if v.score == best.score]

    def settle(self, deal: Deal) -> None:
        best = {p.seat: self.best_lines(deal, p) for p in deal.still_in()}
        result = deal.result = deal.game.result_type(hands={
            deal.players[seat].name: ShownHand(list(value.cards), value.name, lines)
            for seat, (value, lines) in best.items()})
        carry_out = 0
        for pot in deal.pots():
            seats = sorted({deal.stakes[i].owner for i in pot.eligible})
            if not seats:
                continue
            top = max(best[s][0].score for s in seats)
            winners = [s for s in seats if best[s][0].score == top]
            carry_out += deal.share_out(pot.amount, winners)
            result.last_pot.hand = best[winners[0]][0].name
        deal.clear_pots()
        deal.carry = carry_out  # R7 carry: odd chips wait for next deal
        top = max(v.score for v, _ in best.values())
        win_seats = [s for s, (v, _) in best.items() if v.score == top]
        result.winners = [deal.players[s].name for s in win_seats]
        result.winning_lines = sorted({ln for s in win_seats for ln in best[s][1]})
        for s in win_seats:
            value, lines = best[s]
            deal.log.append(
                f"{deal.players[s].name} wins with {hand_phrase(value.name)} "
                f"({', '.join(deal.game.layout.line_label(ln) for ln in lines)})."
            )

    def step(self, deal: Deal) -> Step:
        missing = self.missing(deal)
        names = [p.name for p in deal.still_in()]
        return Step(
            StepKind.SHOWDOWN, cells=tuple(missing), players=tuple(names), hole_cards=self.hole,
            instruction="Showdown: enter the hole cards of " + ", ".join(names)
                        + (f" and the grid cards not entered yet ({len(missing)})"
                           if missing else "") + ".",
            public="Showdown: " + ", ".join(names) + " show their hole cards.",
        )


class GridHoldem(Game):
    """Shared by Texas Dozen and Off-Road Stud: antes, the button skipping empty seats."""

    def next_dealer(self, totals: Totals) -> int:
        n = len(totals.stacks)
        for step in range(1, n + 1):
            seat = (totals.button + step) % n
            if totals.stacks[seat] > 0:
                return seat
        return (totals.button + 1) % n

    def set_up(self, deal: Deal) -> None:
        playing = [p for p in deal.players if p.stack > 0]
        if len(playing) < 2:
            raise IllegalActionError(
                "Cannot start a deal: fewer than two players have chips."
            )
        for p in deal.players:
            if p.stack == 0:
                p.status = PlayerStatus.OUT
                continue
            p.stakes.append(len(deal.stakes))
            deal.stakes.append(Stake(owner=p.seat))
        ante = deal.rules.ante
        if ante:
            for p in deal.seats_from(deal.left_of_dealer):
                if p.status == PlayerStatus.OUT:
                    continue
                paid = min(ante, p.stack)
                p.stack -= paid
                deal.stakes[p.stakes[0]].contributed += paid
                if p.stack == 0:
                    p.status = PlayerStatus.ALL_IN
            deal.log.append(f"Everyone antes {ante}.")
        deal.dealt = True

    def award_uncontested(self, deal: Deal, winner: Player | None) -> None:
        super().award_uncontested(deal, winner)
        if deal.result is not None and deal.result.winning_lines is None:
            deal.result.winning_lines = []


class TexasDozen(GridHoldem):
    variant = "texas_dozen"
    name = "Texas Dozen"
    summary = ("Hold'em with two hole cards and a 5x5 grid: play your best row, column or "
               "diagonal.")
    players = (2, 13)  # R30
    betting_structures = ("no_limit", "fixed_limit", "pot_limit")
    rule_defaults: ClassVar[Mapping[str, Any]] = {"ante": 0}  # R30: the ante is optional
    house_rules = ("small_blind", "big_blind", *GridHoldem.house_rules)
    rule_help: ClassVar[Mapping[str, str]] = {"ante": "from every player (0 = none)"}
    layout: ClassVar[Layout] = GRID5
    round_names = ("Pre-flop", "Flop", "Turn", "River")

    def build_phases(self) -> list[Phase]:
        flop = REVEAL_SETS_5[1] + REVEAL_SETS_5[2] + REVEAL_SETS_5[3]
        return [
            NextPhase("Deal two hole cards to each player"),
            BettingPhase(0, early=True, preflop=True),
            RevealPhase(flop, "the flop (marked 1, 2 and 3)"),
            BettingPhase(1, early=True),
            RevealPhase(REVEAL_SETS_5[4], "the turn card of every line (marked 4)"),
            BettingPhase(2, early=False),
            RevealPhase(REVEAL_SETS_5[5], "the river card of every line (marked 5)"),
            BettingPhase(3, early=False),
            GridShowdown(CELLS_5, LINES_5, 2),
            EndPhase(),
        ]

    def blind_seats(self, deal: Deal) -> tuple[int, int]:
        playing = [p.seat for p in deal.seats_from(deal.dealer) if p.status != PlayerStatus.OUT]
        if len(playing) == 2:  # R30: heads up, the dealer posts the small blind
            return playing[0], playing[1]
        return playing[1], playing[2]

    def set_up(self, deal: Deal) -> None:
        super().set_up(deal)
        small, big = self.blind_seats(deal)
        for seat, amount, name in ((small, deal.rules.small_blind, "small"),
                                   (big, deal.rules.big_blind, "big")):
            p = deal.players[seat]
            if p.status != PlayerStatus.IN or not amount:
                continue
            paid = min(amount, p.stack)
            deal.put(p, paid)
            if p.stack == 0:
                p.status = PlayerStatus.ALL_IN
            deal.log.append(f"{p.name} posts the {name} blind of {paid}.")
        deal.blinds = (small, big)

    def opener(self, deal: Deal, phase: BettingPhase) -> int:
        if phase.preflop:  # R30: pre-flop betting starts left of the big blind
            return (deal.blinds[-1] + 1) % len(deal.players)
        return deal.left_of_dealer


class OffRoadStud(GridHoldem):
    variant = "off_road_stud"
    name = "Off-Road Stud"
    summary = "Three hole cards and a 4x4 grid, twelve cards up and four down; best line wins."
    players = (2, 12)  # R40
    betting_structures = ("no_limit", "fixed_limit", "pot_limit")
    rule_help: ClassVar[Mapping[str, str]] = {"ante": "from every player"}
    layout: ClassVar[Layout] = GRID4

    def build_phases(self) -> list[Phase]:
        return [
            RevealPhase(GRID4_UP, "the twelve face-up cards (E)"),
            NextPhase("Deal two hole cards to each player"),
            BettingPhase(0, early=True),
            NextPhase("Deal a third hole card to each player"),
            BettingPhase(1, early=False),
            RevealPhase(GRID4_DOWN, "the four face-down cards (D)"),
            BettingPhase(2, early=False),
            GridShowdown(CELLS_4, LINES_4, 3),
            EndPhase(),
        ]


__all__ = ["OffRoadStud", "TexasDozen"]
