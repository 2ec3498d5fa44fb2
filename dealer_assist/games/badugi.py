"""Badugi (R86): as 2-7 Triple Draw with four cards and badugi values (R79): four cards of
different suits and ranks, aces low."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from dealer_assist.core.lowhands import LowRule
from dealer_assist.core.upcards import HandType, LowHand
from dealer_assist.games.deuce_to_seven_triple_draw import DeuceToSevenTripleDraw


class Badugi(DeuceToSevenTripleDraw):
    variant = "badugi"
    name = "Badugi"
    summary = "Four cards, three draws: the lowest hand of four suits wins, aces low."
    hand_size: ClassVar[int] = 4
    hand_types: ClassVar[tuple[HandType, ...]] = (LowHand(LowRule.FOUR_SUITS),)
    phh_codes: ClassVar[Mapping[str, str]] = {"fixed_limit": "FB"}


__all__ = ["Badugi"]
