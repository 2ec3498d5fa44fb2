"""Which games the poker hand history standard (PHH) knows, and by which codes.

PHH names a game and its betting with one code (``NT``: no-limit Texas hold 'em, ``FT``:
fixed-limit). A game PHH knows is written with PHH's own code and fields, so that PokerKit's
``HandHistory`` reads it; every other game, and a known game with a betting structure PHH has
no code for (pot-limit Texas Hold'em), is written in PHH's shape under a code of its own
(``services/phh.py``, docs/hand-histories.md).

The codes are the games' own knowledge: they move into each game's class once the Game
interface of issue 21 is in place.

>>> phh_code(TexasHoldem.variant, "no_limit"), phh_code(TexasHoldem.variant, "pot_limit")
('NT', None)
>>> plays_as_phh(TexasHoldem.variant), hole_cards(TexasHoldem.variant)
(True, 2)
"""

from __future__ import annotations

from collections.abc import Mapping

from dealer_assist.games.texas_holdem import TexasHoldem

__all__ = ["hole_cards", "phh_code", "plays_as_phh"]

#: Per game PHH plays: its code under each betting structure PHH has one for.
PHH_CODES: Mapping[str, Mapping[str, str]] = {
    TexasHoldem.variant: {"no_limit": "NT", "fixed_limit": "FT"},
}
#: The hole cards each player of such a game is dealt (PHH deals them one line a player).
HOLE_CARDS: Mapping[str, int] = {TexasHoldem.variant: 2}


def plays_as_phh(variant: str) -> bool:
    """Whether the game deals, bets and shows down as PHH's hold'em family: every deal is
    written with PHH's actions (hole cards dealt, board dealt, the showdown where PHH has
    it), whatever its code."""
    return variant in PHH_CODES


def hole_cards(variant: str) -> int:
    """How many hole cards each player is dealt in a game PHH plays."""
    return HOLE_CARDS[variant]


def phh_code(variant: str, betting: str) -> str | None:
    """PHH's code for the game under ``betting``, or None where PHH has none."""
    return PHH_CODES.get(variant, {}).get(betting)
