"""Texas Hold'em (R60, R61): two hole cards each and a board of five community cards.

Made of the core's parts: blinds and an optional ante (R60, as R30), the betting structures of
R5, the flop, turn and river of a five-card board, and a showdown of the best five of seven
(R61).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.core.betting import BettingPhase
from dealer_assist.core.blinds import Blinds
from dealer_assist.core.equity import HandRule as EquityRule
from dealer_assist.core.equity import HandTypes
from dealer_assist.core.game import BLIND_RULES, Game
from dealer_assist.core.layouts import BOARD, BOARD_CELLS, Layout
from dealer_assist.core.phases import EndPhase, NextPhase, Phase
from dealer_assist.core.result import Result
from dealer_assist.core.rules import Betting
from dealer_assist.core.runout import BoardReveal, SecondRun
from dealer_assist.core.showdown import BestFive, BoardLow, CardsShowdown, HandRule
from dealer_assist.core.words import hand_phrase, number_word


def board_phases(hole: int, rule: HandRule, low: BoardLow | None = None) -> list[Phase]:
    """A deal of ``hole`` hole cards each and a five-card board: pre-flop, the flop, the turn
    and the river, each followed by a betting round, then the showdown (R61), each pot split
    with the best ``low`` where there is one (R80). At an all-in the board may be run twice
    (R66), its second run turned after the first, and the hands tabled (R67)."""
    reveals = [BoardReveal(BOARD_CELLS[:3], "the flop"), BoardReveal(BOARD_CELLS[3:4], "the turn"),
               BoardReveal(BOARD_CELLS[4:], "the river")]
    return [
        NextPhase(f"Deal {number_word(hole)} hole cards to each player"),
        BettingPhase(0, early=True, preflop=True),
        reveals[0],
        BettingPhase(1, early=True),
        reveals[1],
        BettingPhase(2, early=False),
        reveals[2],
        BettingPhase(3, early=False),
        SecondRun(reveals),
        CardsShowdown(BOARD_CELLS, hole, rule, low=low),
        EndPhase(),
    ]


class TexasHoldem(Game):
    variant = "texas_holdem"
    name = "Texas Hold'em"
    summary = "Two hole cards each and five on the board: the best five of the seven wins."
    players = (2, 10)  # R60
    betting_structures: ClassVar[tuple[Betting, ...]] = (
        Betting.NO_LIMIT, Betting.FIXED_LIMIT, Betting.POT_LIMIT)
    rule_defaults: ClassVar[Mapping[str, Any]] = {"ante": 0}  # R60: the ante is optional
    house_rules = BLIND_RULES
    rule_help: ClassVar[Mapping[str, str]] = {"ante": "from every player (0 = none)"}
    layout: ClassVar[Layout] = BOARD
    forced_bets = Blinds()
    deal_options: ClassVar[tuple[str, ...]] = ("straddle", "bomb_pot")  # R63, R65
    # R66, R67: run twice, and tabled hands' chances
    board_equity: ClassVar[EquityRule | HandTypes | None] = EquityRule.BEST_FIVE
    uncontested_lines = True
    round_names = ("Pre-flop", "Flop", "Turn", "River")
    phh_codes: ClassVar[Mapping[str, str]] = {"no_limit": "NT", "fixed_limit": "FT"}

    def build_phases(self) -> list[Phase]:
        return board_phases(2, BestFive())

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


__all__ = ["TexasHoldem", "board_phases"]
