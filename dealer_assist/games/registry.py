"""Every game, by its id: the one module that imports each game's module, and the catalogue
the services give every table (``CATALOGUE``).

>>> [g.variant for g in all_games()][:2]
['kings_pot', 'kings_pot_optional']
>>> game_class("kings_pot").players
(3, 22)
"""

from __future__ import annotations

from typing import Any

from dealer_assist.core.deal import CarriedPot
from dealer_assist.core.game import Catalogue, Game
from dealer_assist.core.rules import HouseRules
from dealer_assist.core.setup import TableSetup
from dealer_assist.core.table import Table
from dealer_assist.games.badugi import Badugi
from dealer_assist.games.deuce_to_seven_single_draw import DeuceToSevenSingleDraw
from dealer_assist.games.deuce_to_seven_triple_draw import DeuceToSevenTripleDraw
from dealer_assist.games.grid_holdem import OffRoadStud, TexasDozen
from dealer_assist.games.kings_pot import KingsPot, KingsPotOptional
from dealer_assist.games.omaha import Omaha
from dealer_assist.games.omaha_hi_lo import OmahaHiLo
from dealer_assist.games.razz import Razz
from dealer_assist.games.seven_card_stud import SevenCardStud
from dealer_assist.games.seven_card_stud_hi_lo import SevenCardStudHiLo
from dealer_assist.games.short_deck_holdem import ShortDeckHoldem
from dealer_assist.games.texas_holdem import TexasHoldem
from dealer_assist.games.twenty_one import TwentyOneHandHoldem

CATALOGUE = Catalogue((KingsPot, KingsPotOptional, TexasDozen, OffRoadStud,
                       TwentyOneHandHoldem, TexasHoldem, Omaha, SevenCardStud,
                       Razz, SevenCardStudHiLo, DeuceToSevenTripleDraw,
                       DeuceToSevenSingleDraw, Badugi, OmahaHiLo, ShortDeckHoldem))


# the rotation of a tournament that names none (R89)
TOURNAMENT_GAMES: tuple[str, ...] = (TexasHoldem.variant,)


def all_games() -> tuple[type[Game], ...]:
    """Every game, in the order the home page lists them."""
    return CATALOGUE.all()


def variants() -> tuple[str, ...]:
    return tuple(CATALOGUE.games)


def game_class(variant: Any) -> type[Game]:
    """The game called ``variant``; a :class:`SetupError` naming the games otherwise."""
    return CATALOGUE.game_class(variant)


def game_for(variant: str, rules: HouseRules) -> Game:
    return game_class(variant)(rules)


def carried_pot(key: str) -> CarriedPot | None:
    """The pot kept between deals called ``key`` (R28's, R50's), whichever game keeps it."""
    return CATALOGUE.carried_pot(key)


def new_setup(variant: Any, players: Any, rules: Any = None, name: Any = "", *,
              stored: bool = False) -> TableSetup:
    """A table's setup with the app's games (``TableSetup.create`` with ``CATALOGUE``)."""
    return TableSetup.create(CATALOGUE, variant, players, rules, name, stored=stored)


def new_table(variant: Any, players: Any, rules: Any = None, name: Any = "") -> Table:
    """A new table with the app's games (``Table.create`` with ``CATALOGUE``)."""
    return Table.create(CATALOGUE, variant, players, rules, name)


def setup_from_json(data: dict[str, Any], *, stored: bool = False) -> TableSetup:
    """A setup as ``TableSetup.to_json`` wrote it, with the app's games."""
    return TableSetup.from_json(CATALOGUE, data, stored=stored)


def games_json() -> list[dict[str, Any]]:
    """Every game's metadata, as the pages embed it."""
    return list(_GAMES_JSON)


_GAMES_JSON = tuple(game.metadata() for game in CATALOGUE.all())  # it never changes
