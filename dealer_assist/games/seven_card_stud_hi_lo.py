"""Seven-Card Stud Hi-Lo (R83): Seven-Card Stud with every pot split between the best high
hand and the best eight-or-better low (R80), as PokerKit's eight-or-better stud splits it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from dealer_assist.core.lowhands import LowRule
from dealer_assist.core.result import PotShare, Result
from dealer_assist.core.upcards import HandType, HighHand, LowHand
from dealer_assist.core.words import and_words, hand_words
from dealer_assist.games.seven_card_stud import SevenCardStud


class SevenCardStudHiLo(SevenCardStud):
    variant = "seven_card_stud_hi_lo"
    name = "Seven-Card Stud Hi-Lo"
    summary = ("Seven-card stud with every pot split: half to the best hand, half to the best "
               "low of eight or better.")
    phh_codes: ClassVar[Mapping[str, str]] = {"fixed_limit": "F7S/8"}
    hand_types: ClassVar[tuple[HandType, ...]] = (HighHand(), LowHand(LowRule.EIGHT_OR_BETTER))

    @classmethod
    def pot_words(cls, pot: PotShare, result: Result) -> str:
        return split_pot_words(pot) or super().pot_words(pot, result)


def split_pot_words(pot: PotShare) -> str | None:
    """Who took which half of a pot split high and low (R80): "Ann takes the high half (8)
    with a flush, Bob the low half (7) with 8-6-4-2-A low"; "Ann scoops it: ..."; None for a
    pot with no low at the showdown, said as any pot."""
    high, low = pot.high, pot.low
    if high is None or low is None or high.hand is None:
        return None
    verb = "takes" if len(high.winners) == 1 else "share"
    if low.no_low:
        return (f"{and_words(high.winners)} {verb} it, high with {hand_words(high.hand)}; "
                "none of its players has a low")
    if high.winners == low.winners and len(high.winners) == 1:
        return (f"{high.winners[0]} scoops it: {hand_words(high.hand)} for the high half, "
                f"{low.hand} for the low")
    return (f"{and_words(high.winners)} {verb} the high half ({high.amount}) with "
            f"{hand_words(high.hand)}, {and_words(low.winners)} the low half ({low.amount}) "
            f"with {low.hand}")


__all__ = ["SevenCardStudHiLo", "split_pot_words"]
