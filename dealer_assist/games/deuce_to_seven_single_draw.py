"""2-7 Single Draw (R86): as 2-7 Triple Draw, but no limit, with two betting rounds and one
draw between them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.core.betting import BettingPhase
from dealer_assist.core.phases import Phase
from dealer_assist.core.rules import Betting
from dealer_assist.games.deuce_to_seven_triple_draw import DeuceToSevenTripleDraw


class DeuceToSevenSingleDraw(DeuceToSevenTripleDraw):
    variant = "deuce_to_seven_single_draw"
    name = "2-7 Single Draw"
    summary = "Five cards, one draw, no limit: the lowest hand wins, aces high."
    betting_structures = (Betting.NO_LIMIT,)
    rule_defaults: ClassVar[Mapping[str, Any]] = {"ante": 0, "betting": Betting.NO_LIMIT}
    round_names = ("Before the draw", "After the draw")
    phh_codes: ClassVar[Mapping[str, str]] = {"no_limit": "N2L1D"}

    def betting_rounds(self) -> list[Phase]:
        return [BettingPhase(0, early=True, preflop=True), BettingPhase(1, early=False)]


__all__ = ["DeuceToSevenSingleDraw"]
