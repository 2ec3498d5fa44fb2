"""2-7 Triple Draw (R86): five cards down each, blinds as Texas Hold'em, four betting rounds
with three draws between them (R85), fixed limit (small bets in the first two rounds, big
bets in the last two); the lowest deuce-to-seven hand wins. 2-7 Single Draw and Badugi are
this game with other rounds, betting or hand types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.core.betting import BettingPhase
from dealer_assist.core.blinds import Blinds
from dealer_assist.core.deal import Deal, Player
from dealer_assist.core.draws import WholeHandShowdown, draw_phases
from dealer_assist.core.errors import SetupError
from dealer_assist.core.game import Game
from dealer_assist.core.layouts import HANDS, Layout
from dealer_assist.core.lowhands import LowRule
from dealer_assist.core.phases import EndPhase, NextPhase, Phase
from dealer_assist.core.rules import Betting, HouseRules
from dealer_assist.core.upcards import HandType, LowHand
from dealer_assist.core.words import number_word

DRAWS = ("First draw", "Second draw", "Third draw")
# the blinds and the betting every draw game offers; no straddle, big-blind ante or bomb
# pot (R88: those are the community-card games')
DRAW_RULES: tuple[str, ...] = ("small_blind", "big_blind", "ante", "betting", "min_bet",
                               "small_bet", "big_bet", "odd_chip", "buy_in")


class DeuceToSevenTripleDraw(Game):
    variant = "deuce_to_seven_triple_draw"
    name = "2-7 Triple Draw"
    summary = "Five cards, three draws: the lowest hand wins, aces high, straights count."
    players = (2, 6)  # R86
    betting_structures = (Betting.FIXED_LIMIT,)
    rule_defaults: ClassVar[Mapping[str, Any]] = {
        "ante": 0, "betting": Betting.FIXED_LIMIT, "small_bet": 2, "big_bet": 4}
    house_rules = DRAW_RULES
    rule_help: ClassVar[Mapping[str, str]] = {"ante": "from every player (0 = none)"}
    layout: ClassVar[Layout] = HANDS
    forced_bets = Blinds()
    hand_size: ClassVar[int] = 5
    round_names: tuple[str, ...] = ("Before the first draw", "After the first draw",
                                    "After the second draw", "After the third draw")
    hand_types: ClassVar[tuple[HandType, ...]] = (LowHand(LowRule.DEUCE_TO_SEVEN),)
    phh_codes: ClassVar[Mapping[str, str]] = {"fixed_limit": "F2L3D"}

    def betting_rounds(self) -> list[Phase]:
        """Four rounds: small bets in the first two, big bets in the last two (R86)."""
        return [BettingPhase(0, early=True, preflop=True), BettingPhase(1, early=True),
                BettingPhase(2, early=False), BettingPhase(3, early=False)]

    def build_phases(self) -> list[Phase]:
        rounds = self.betting_rounds()
        return [NextPhase(f"Deal {number_word(self.hand_size)} cards down to each player"),
                *draw_phases(rounds, self.hand_size, DRAWS[:len(rounds) - 1]),
                WholeHandShowdown(self.hand_size, self.hand_types), EndPhase()]

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        """The game's metadata and the cards of a hand, which the felt draws face down in
        each player's place until the showdown (R85)."""
        return {**super().metadata(), "hand_size": cls.hand_size}

    @classmethod
    def check_rules(cls, rules: HouseRules) -> None:
        if rules.big_blind_ante or rules.straddle:  # R88
            raise SetupError(f"{cls.name} has no big-blind ante or straddle (R88): only the "
                             "two blinds and an ante.")

    def player_fields(self, deal: Deal, p: Player, *, dealer: bool, shown: bool
                      ) -> dict[str, Any]:
        """How many cards each player drew at each draw, public (R85); the hand once
        shown."""
        return {"draws": list(p.draws), **super().player_fields(deal, p, dealer=dealer,
                                                                shown=shown)}

    def idle_player_fields(self) -> dict[str, Any]:
        return {"draws": []}


__all__ = ["DRAW_RULES", "DeuceToSevenTripleDraw"]
