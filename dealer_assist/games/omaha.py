"""Omaha (R62): Texas Hold'em with four hole cards, of which a hand plays exactly two with
exactly three of the board; pot limit unless the table says otherwise."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.core.blinds import Blinds
from dealer_assist.core.equity import HandRule as EquityRule
from dealer_assist.core.equity import HandTypes
from dealer_assist.core.game import BLIND_RULES, Game
from dealer_assist.core.layouts import BOARD, Layout
from dealer_assist.core.phases import Phase
from dealer_assist.core.rules import Betting
from dealer_assist.core.showdown import TwoFromHoleThreeFromBoard
from dealer_assist.games.texas_holdem import board_phases


class Omaha(Game):
    variant = "omaha"
    name = "Omaha"
    summary = "Four hole cards each and five on the board: play exactly two with three."
    players = (2, 10)  # R62
    betting_structures: ClassVar[tuple[Betting, ...]] = (
        Betting.POT_LIMIT, Betting.NO_LIMIT, Betting.FIXED_LIMIT)
    rule_defaults: ClassVar[Mapping[str, Any]] = {"ante": 0, "betting": Betting.POT_LIMIT}
    house_rules = BLIND_RULES
    rule_help: ClassVar[Mapping[str, str]] = {"ante": "from every player (0 = none)"}
    layout: ClassVar[Layout] = BOARD
    forced_bets = Blinds()
    deal_options: ClassVar[tuple[str, ...]] = ("straddle", "bomb_pot")  # R63, R65
    # R66, R67: run twice, and tabled hands' chances
    board_equity: ClassVar[EquityRule | HandTypes | None] = EquityRule.TWO_PLUS_THREE
    uncontested_lines = True
    round_names = ("Pre-flop", "Flop", "Turn", "River")
    phh_codes: ClassVar[Mapping[str, str]] = {"pot_limit": "PO"}  # PHH's one Omaha

    def build_phases(self) -> list[Phase]:
        return board_phases(4, TwoFromHoleThreeFromBoard())


__all__ = ["Omaha"]
