"""What a table holds outside the players' stacks, by pot, as the host's books name it (R76).

ADAPTER, until the core carries every game's pot itself (issue 21, ``Totals.carried`` and each
game's ``CarriedPot``): until then the amounts are read from the totals' own fields and each
pot's words are kept here, in one place. Everything above (the ledger, the season, the
charts, the CSV) reads pots only through :func:`amounts`, :func:`pot` and
:func:`pots_of_game`, so that change touches this module only.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.core.deal import Totals
from dealer_assist.games.registry import all_games, game_class


@dataclass(frozen=True)
class CarriedPot:
    """A pot a table keeps from deal to deal: its key (the state's and the API's name of it),
    its title ("Bank"), and what the banker holds its chips for ("for the bank")."""

    key: str
    title: str
    held_for: str


# R7's odd chips carried to the next deal's pot: a core rule, every game's
CARRY = CarriedPot("carry", "Chips carried to the next deal", "carried to the next deal's pot")

_GAME_POTS: dict[str, CarriedPot] = {  # ADAPTER: the games' own words once they declare them
    "kings_pot": CarriedPot("kings_pot", "King's pot", "for the king's pot"),
    "bank": CarriedPot("bank", "Bank", "for the bank"),
    "off_table": CarriedPot("off_table", "Odd chips taken off", "as odd chips taken off the "
                                                               "table"),
}


def amounts(totals: Totals) -> dict[str, int]:
    """Every amount ``totals`` holds outside the stacks, by pot key (zeros included)."""
    return {"kings_pot": totals.kings_pot, "bank": totals.bank, "off_table": totals.off_table,
            CARRY.key: totals.carry}


def pot(key: str) -> CarriedPot:
    return CARRY if key == CARRY.key else _GAME_POTS[key]


def game_pot_keys() -> tuple[str, ...]:
    """Every game's pot keys, in the catalogue's order (R7's carry not among them)."""
    keys: list[str] = []
    for game in all_games():
        keys += [k for k in pots_of_game(game.variant) if k not in keys]
    return tuple(keys)


def pots_of_game(variant: str) -> tuple[str, ...]:
    """The keys of the pots ``variant`` plays for and carries (not those only waiting
    through its deals, R72)."""
    game = game_class(variant)
    if game.keeps_kings_pot:
        return ("kings_pot",)
    if "bank" in game.state_fields:
        return ("bank", "off_table")
    return ()
