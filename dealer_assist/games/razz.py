"""Razz (R82): Seven-Card Stud for the lowest hand, ace to five (R79): the highest up card
brings in (kings highest, aces lowest), and from fourth street the lowest hand showing acts
first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from dealer_assist.core.lowhands import LowRule
from dealer_assist.core.upcards import HandType, LowHand, UpCardOpening
from dealer_assist.games.seven_card_stud import SevenCardStud


class Razz(SevenCardStud):
    variant = "razz"
    name = "Razz"
    summary = "Seven-card stud for the lowest hand: aces low, straights and flushes ignored."
    rule_help: ClassVar[Mapping[str, str]] = {
        "ante": "from every player dealt in",
        "bring_in": "posted by the highest up card on third street (0 = half the small bet)"}
    forced_bets = UpCardOpening(low_hands=True)
    phh_codes: ClassVar[Mapping[str, str]] = {"fixed_limit": "FR"}
    hand_types: ClassVar[tuple[HandType, ...]] = (LowHand(LowRule.ACE_TO_FIVE),)


__all__ = ["Razz"]
