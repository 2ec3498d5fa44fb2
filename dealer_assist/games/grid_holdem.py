"""Texas Dozen (R30-R32) and Off-Road Stud (R40-R42): hole cards played with one line of a
grid. Each is made of the core's parts: its forced bets (blinds, or antes), its phases, and a
showdown of its hole cards with each line of its grid."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.core.betting import BettingPhase
from dealer_assist.core.blinds import Antes, Blinds
from dealer_assist.core.game import BLIND_RULES, Game
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
from dealer_assist.core.rules import Betting
from dealer_assist.core.showdown import BestFive, CardsShowdown


def line_showdown(cells: tuple[str, ...], lines: Mapping[str, tuple[str, ...]],
                  hole: int) -> CardsShowdown:
    """R32, R42: each player plays their hole cards with their best line."""
    return CardsShowdown(cells, hole, BestFive(), lines=lines, cells_name="grid card",
                         shows="the hole cards of")


class TexasDozen(Game):
    variant = "texas_dozen"
    name = "Texas Dozen"
    summary = ("Hold'em with two hole cards and a 5x5 grid: play your best row, column or "
               "diagonal.")
    players = (2, 13)  # R30
    betting_structures = (Betting.NO_LIMIT, Betting.FIXED_LIMIT, Betting.POT_LIMIT)
    rule_defaults: ClassVar[Mapping[str, Any]] = {"ante": 0}  # R30: the ante is optional
    house_rules = BLIND_RULES
    rule_help: ClassVar[Mapping[str, str]] = {"ante": "from every player (0 = none)"}
    layout: ClassVar[Layout] = GRID5
    forced_bets = Blinds()
    deal_options = ("straddle", "bomb_pot")  # R63, R65
    uncontested_lines = True
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
            line_showdown(CELLS_5, LINES_5, 2),
            EndPhase(),
        ]


class OffRoadStud(Game):
    variant = "off_road_stud"
    name = "Off-Road Stud"
    summary = "Three hole cards and a 4x4 grid, twelve cards up and four down; best line wins."
    players = (2, 12)  # R40
    betting_structures = (Betting.NO_LIMIT, Betting.FIXED_LIMIT, Betting.POT_LIMIT)
    rule_help: ClassVar[Mapping[str, str]] = {"ante": "from every player"}
    layout: ClassVar[Layout] = GRID4
    forced_bets = Antes()
    uncontested_lines = True

    def build_phases(self) -> list[Phase]:
        return [
            RevealPhase(GRID4_UP, "the twelve face-up cards (E)"),
            NextPhase("Deal two hole cards to each player"),
            BettingPhase(0, early=True),
            NextPhase("Deal a third hole card to each player"),
            BettingPhase(1, early=False),
            RevealPhase(GRID4_DOWN, "the four face-down cards (D)"),
            BettingPhase(2, early=False),
            line_showdown(CELLS_4, LINES_4, 3),
            EndPhase(),
        ]


__all__ = ["OffRoadStud", "TexasDozen"]
