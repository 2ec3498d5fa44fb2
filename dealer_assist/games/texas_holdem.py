"""Texas Hold'em (R60, R61): two hole cards each and a board of five community cards.

It bets exactly as Texas Dozen does (R60: blinds, an optional ante and the betting structures
as in R30 and R5), so it takes its blinds, button and rounds from that game; only the cards
differ: a board of five in a row instead of a grid, and the best five of seven (R61).
"""

from __future__ import annotations

from typing import ClassVar

from dealer_assist.core.actions import Action
from dealer_assist.core.betting import BettingPhase
from dealer_assist.core.deal import Deal
from dealer_assist.core.hands import best_five
from dealer_assist.core.layouts import BOARD, BOARD_CELLS, Layout
from dealer_assist.core.phases import EndPhase, NextPhase, Phase, RevealPhase
from dealer_assist.core.pots import best_among
from dealer_assist.core.result import Result, ShownHand
from dealer_assist.core.showdown import ShowdownPhase
from dealer_assist.core.step import Step, StepKind
from dealer_assist.core.words import hand_phrase
from dealer_assist.games.grid_holdem import TexasDozen


class HoldemShowdown(ShowdownPhase):
    """Every player still in shows two hole cards; the best five of seven wins each pot it
    paid into (R61, R6), ties share it (R7)."""

    cells = BOARD_CELLS
    cells_name = "board card"

    def handle(self, deal: Deal, action: Action) -> None:
        new = self.given_cells(deal, self.board_given(deal, action))
        holes = self.hole_cards(deal, action, 2)
        self.lay_down(deal, new, holes)
        self.settle(deal)
        self.mark_done(deal)

    def settle(self, deal: Deal) -> None:
        board = [deal.grid[c] or "" for c in self.cells]
        best = {p.seat: best_five(p.cards + board) for p in deal.still_in()}
        result = deal.result = deal.game.result_type(hands={
            deal.players[seat].name: ShownHand(list(value.cards), value.name)
            for seat, value in best.items()})
        scores = {seat: value.score for seat, value in best.items()}
        owners = [s.owner for s in deal.stakes]
        left = 0
        for pot in deal.pots():
            takers = best_among(pot, owners, scores)
            left += deal.share_out(pot.amount, takers)
            if takers:
                result.last_pot.hand = best[takers[0]].name  # the pot's sentence
        deal.clear_pots()
        deal.carry = left  # R7 carry: odd chips wait for the next deal
        top = max(scores.values())
        winners = [seat for seat, score in scores.items() if score == top]
        result.winners = [deal.players[s].name for s in winners]
        names = " and ".join(deal.players[s].name for s in winners)
        deal.log.append(f"{names} win{'s' if len(winners) == 1 else ''} with "
                        f"{hand_phrase(best[winners[0]].name)}.")

    def step(self, deal: Deal) -> Step:
        missing = self.missing(deal)
        names = [p.name for p in deal.still_in()]
        board = f" and the board cards not entered yet ({len(missing)})" if missing else ""
        return Step(StepKind.SHOWDOWN, cells=tuple(missing), players=tuple(names), hole_cards=2,
                    instruction=f"Showdown: enter the two cards of {', '.join(names)}{board}.",
                    public="Showdown: " + ", ".join(names) + " show their hole cards.")


class TexasHoldem(TexasDozen):
    variant = "texas_holdem"
    name = "Texas Hold'em"
    summary = "Two hole cards each and five on the board: the best five of the seven wins."
    players = (2, 10)  # R60
    layout: ClassVar[Layout] = BOARD

    def build_phases(self) -> list[Phase]:
        return [
            NextPhase("Deal two hole cards to each player"),
            BettingPhase(0, early=True, preflop=True),
            RevealPhase(BOARD_CELLS[:3], "the flop"),
            BettingPhase(1, early=True),
            RevealPhase(BOARD_CELLS[3:4], "the turn"),
            BettingPhase(2, early=False),
            RevealPhase(BOARD_CELLS[4:], "the river"),
            BettingPhase(3, early=False),
            HoldemShowdown(),
            EndPhase(),
        ]

    @classmethod
    def result_opening(cls, result: Result) -> str:
        """'Ann wins with flush, ace high': there is no line to name, the hand says it all.
        Only a result stored before each pot was (issue 13) is still said this way."""
        winners = result.winners or []
        shown = result.shown(winners[0]) if winners else None
        if result.uncontested or shown is None:
            return super().result_opening(result)
        verb = "wins" if len(winners) == 1 else "win"
        return f"{' and '.join(winners)} {verb} with {hand_phrase(shown.hand)}"


__all__ = ["TexasHoldem"]
