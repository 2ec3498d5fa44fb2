"""Short-deck Hold'em (R87): Texas Hold'em with the 36 cards of six to ace and the short deck's
hand values (R79: a flush beats a full house, A-6-7-8-9 is the lowest straight); no limit. A
table may play antes and one blind posted by the dealer, as PokerKit's short-deck game does."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.core.blinds import ButtonBlind
from dealer_assist.core.cards import SHORT_DECK
from dealer_assist.core.equity import HandRule as EquityRule
from dealer_assist.core.errors import SetupError
from dealer_assist.core.game import BETTING_RULES
from dealer_assist.core.phases import Phase
from dealer_assist.core.rules import Betting, HouseRules
from dealer_assist.core.showdown import ShortDeckBestFive
from dealer_assist.games.texas_holdem import TexasHoldem, board_phases


class ShortDeckHoldem(TexasHoldem):
    variant = "short_deck_holdem"
    name = "Short-deck Hold'em"
    summary = ("Texas Hold'em with 36 cards, six to ace: a flush beats a full house, and "
               "A-6-7-8-9 is a straight.")
    players = (2, 9)  # R87
    betting_structures = (Betting.NO_LIMIT,)
    rule_defaults: ClassVar[Mapping[str, Any]] = {"ante": 0, "betting": Betting.NO_LIMIT}
    house_rules = ("small_blind", "big_blind", *BETTING_RULES)
    rule_help: ClassVar[Mapping[str, str]] = {
        "ante": "from every player (0 = none)",
        "small_blind": "0 = antes only: the dealer posts the big blind (the button blind)"}
    deck = SHORT_DECK
    forced_bets = ButtonBlind()
    deal_options = ()  # R88: no straddle, no bomb pot
    board_equity = EquityRule.SHORT_DECK  # R88: run twice, and tabled hands' chances
    phh_codes: ClassVar[Mapping[str, str]] = {"no_limit": "NS"}

    def build_phases(self) -> list[Phase]:
        return board_phases(2, ShortDeckBestFive())

    @classmethod
    def check_rules(cls, rules: HouseRules) -> None:
        if rules.big_blind_ante or rules.straddle:  # R88: only R63-R64's games have them
            raise SetupError(f"{cls.name} has no big-blind ante or straddle (R88): an "
                             "antes-only table sets the small blind to 0 and the dealer "
                             "posts the big blind.")


__all__ = ["ShortDeckHoldem"]
