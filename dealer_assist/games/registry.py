"""Every game, by its id: the one module that imports each game's module.

>>> [g.variant for g in all_games()][:2]
['kings_pot', 'kings_pot_optional']
>>> game_class("kings_pot").players
(3, 22)
"""

from __future__ import annotations

from typing import Any

from dealer_assist.core.errors import SetupError
from dealer_assist.core.rules import HouseRules
from dealer_assist.games import Game
from dealer_assist.games.grid_holdem import OffRoadStud, TexasDozen
from dealer_assist.games.kings_pot import KingsPot, KingsPotOptional
from dealer_assist.games.texas_holdem import TexasHoldem
from dealer_assist.games.twenty_one import TwentyOneHandHoldem

GAMES: dict[str, type[Game]] = {
    game.variant: game
    for game in (KingsPot, KingsPotOptional, TexasDozen, OffRoadStud, TwentyOneHandHoldem,
                 TexasHoldem)
}


def all_games() -> tuple[type[Game], ...]:
    """Every game, in the order the home page lists them."""
    return tuple(GAMES.values())


def variants() -> tuple[str, ...]:
    return tuple(GAMES)


def game_class(variant: Any) -> type[Game]:
    """The game called ``variant``; a :class:`SetupError` naming the games otherwise."""
    game = GAMES.get(variant) if isinstance(variant, str) else None
    if game is None:
        raise SetupError(
            f"Unknown game {str(variant)[:40]!r}: choose one of {', '.join(GAMES)}.")
    return game


def game_for(variant: str, rules: HouseRules) -> Game:
    return game_class(variant)(rules)


def games_json() -> list[dict[str, Any]]:
    """Every game's metadata, as the pages embed it."""
    return list(_GAMES_JSON)


_GAMES_JSON = tuple(game.metadata() for game in GAMES.values())  # it never changes
