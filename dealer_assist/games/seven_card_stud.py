"""Seven-Card Stud (R81): two cards down and one up, three more up and the last down, a
bring-in by the lowest up card, then the best hand showing acts first; fixed limit; the best
five of seven wins. Razz and Stud Hi-Lo are this game with other hand types."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.core.betting import BettingPhase
from dealer_assist.core.deal import Deal, Player
from dealer_assist.core.errors import SetupError
from dealer_assist.core.game import Game
from dealer_assist.core.layouts import UP_CARDS, Layout
from dealer_assist.core.phases import EndPhase, Phase
from dealer_assist.core.rules import Betting, HouseRules
from dealer_assist.core.upcards import (
    COMMUNITY,
    HandType,
    HighHand,
    LastCard,
    UpCardOpening,
    UpCardShowdown,
    UpCardStreet,
)

STREETS = ("Third street", "Fourth street", "Fifth street", "Sixth street", "Seventh street")


def up_card_phases(hand_types: tuple[HandType, ...]) -> list[Phase]:
    """Third street (two down, one up), fourth to sixth (one up each), seventh (one down),
    each followed by its betting round: small bets on the first two, big bets after (R81);
    then the showdown of the down cards by ``hand_types``."""
    phases: list[Phase] = [UpCardStreet(STREETS[0], down=2), BettingPhase(0, early=True)]
    for index, street in enumerate(STREETS[1:4], start=1):
        phases += [UpCardStreet(street), BettingPhase(index, early=index < 2)]
    return [*phases, LastCard(STREETS[4], down=2), BettingPhase(4, early=False),
            UpCardShowdown(3, hand_types), EndPhase()]


class SevenCardStud(Game):
    variant = "seven_card_stud"
    name = "Seven-Card Stud"
    summary = "Seven cards each, four of them face up: the best five wins."
    players = (2, 8)  # R81
    betting_structures = (Betting.FIXED_LIMIT,)
    rule_defaults: ClassVar[Mapping[str, Any]] = {
        "ante": 1, "betting": Betting.FIXED_LIMIT, "small_bet": 2, "big_bet": 4}
    house_rules = ("ante", "bring_in", "betting", "small_bet", "big_bet", "odd_chip", "buy_in")
    rule_help: ClassVar[Mapping[str, str]] = {
        "ante": "from every player dealt in",
        "bring_in": "posted by the lowest up card on third street (0 = half the small bet)"}
    layout: ClassVar[Layout] = UP_CARDS
    forced_bets = UpCardOpening()
    round_names = STREETS
    phh_codes: ClassVar[Mapping[str, str]] = {"fixed_limit": "F7S"}
    hand_types: ClassVar[tuple[HandType, ...]] = (HighHand(),)

    def build_phases(self) -> list[Phase]:
        return up_card_phases(self.hand_types)

    @classmethod
    def check_rules(cls, rules: HouseRules) -> None:
        if rules.big_blind_ante or rules.straddle:  # R88: the blinds' options are not stud's
            raise SetupError(f"{cls.name} has no big-blind ante or straddle (R88): everyone "
                             "dealt in antes, and the up cards open (R81).")
        if rules.bring_in_chips >= rules.small_bet:
            raise SetupError(f"The bring-in ({rules.bring_in_chips}) must be less than the "
                             f"small bet ({rules.small_bet}), which completes it.")

    def player_fields(self, deal: Deal, p: Player, *, dealer: bool, shown: bool
                      ) -> dict[str, Any]:
        """Every player's up cards and how many down cards they hold, public (R81); the down
        cards themselves once shown (to the dealer once entered)."""
        return {"up": list(p.up), "down": self.down_count(deal, p),
                **super().player_fields(deal, p, dealer=dealer, shown=shown)}

    def down_count(self, deal: Deal, p: Player) -> int:
        """Two from third street (dealt with the first up card), three once seventh street
        is dealt down."""
        last = next(i for i, phase in enumerate(self.phases) if isinstance(phase, LastCard))
        return 3 if p.live and deal.phase > last and COMMUNITY not in deal.grid else 2

    def idle_player_fields(self) -> dict[str, Any]:
        return {"up": [], "down": 0}


__all__ = ["SevenCardStud", "up_card_phases"]
