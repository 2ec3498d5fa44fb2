"""Omaha Hi-Lo (R84): Omaha with every pot split between the best high hand and the best
eight-or-better low (R80), each made of exactly two hole cards with exactly three of the
board; fixed limit unless the table chooses pot limit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.core.equity import HandRule as EquityRule
from dealer_assist.core.equity import HandTypes
from dealer_assist.core.errors import SetupError
from dealer_assist.core.game import BETTING_RULES
from dealer_assist.core.lowhands import LowRule
from dealer_assist.core.phases import Phase
from dealer_assist.core.result import PotShare, Result
from dealer_assist.core.rules import Betting, HouseRules
from dealer_assist.core.showdown import LowTwoPlusThree, TwoFromHoleThreeFromBoard
from dealer_assist.games.omaha import Omaha
from dealer_assist.games.seven_card_stud_hi_lo import split_pot_words
from dealer_assist.games.texas_holdem import board_phases

LOW = LowRule.EIGHT_OR_BETTER


class OmahaHiLo(Omaha):
    variant = "omaha_hi_lo"
    name = "Omaha Hi-Lo"
    summary = ("Omaha with every pot split: half to the best hand, half to the best low of "
               "eight or better, each of two hole cards and three of the board.")
    players = (2, 10)  # R84, as R62
    betting_structures = (Betting.FIXED_LIMIT, Betting.POT_LIMIT)
    rule_defaults: ClassVar[Mapping[str, Any]] = {
        "ante": 0, "betting": Betting.FIXED_LIMIT, "small_bet": 2, "big_bet": 4}
    house_rules = ("small_blind", "big_blind", *BETTING_RULES)
    deal_options = ()  # R88: no straddle, no bomb pot
    # R88: run twice and tabled hands; equity is each player's expected share of the pot
    board_equity = HandTypes(EquityRule.TWO_PLUS_THREE, LOW)
    # PHH names only fixed-limit Omaha eight or better: pot limit keeps the app's own code
    phh_codes: ClassVar[Mapping[str, str]] = {"fixed_limit": "FO/8"}

    def build_phases(self) -> list[Phase]:
        return board_phases(4, TwoFromHoleThreeFromBoard(), LowTwoPlusThree(LOW))

    @classmethod
    def check_rules(cls, rules: HouseRules) -> None:
        if rules.big_blind_ante or rules.straddle:  # R88: only R63-R64's games have them
            raise SetupError(f"{cls.name} has no big-blind ante or straddle (R88): the "
                             "blinds and the table's ante are posted as in Omaha.")

    @classmethod
    def pot_words(cls, pot: PotShare, result: Result) -> str:
        return split_pot_words(pot) or super().pot_words(pot, result)


__all__ = ["OmahaHiLo"]
