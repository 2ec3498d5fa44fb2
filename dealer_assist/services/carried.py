"""What a table holds outside the players' stacks, by pot, as the host's books name it (R76).

Each game declares the pots it keeps (``Game.carried_pots``: key, title, what the banker holds
it for); R7's odd chips carried to the next deal are the core's. ADAPTER, until the core
carries every game's pot itself (issue 21, ``Totals.carried``): the amounts are read from the
totals' own fields here. Everything above (the ledger, the season, the charts, the CSV) reads
pots only through :func:`amounts`, :func:`pot` and :func:`pots_of_game`, so that change
touches this module only.
"""

from __future__ import annotations

from dealer_assist.core.deal import CarriedPot, Totals
from dealer_assist.games.registry import all_games, game_class

# R7's odd chips carried to the next deal's pot: a core rule, every game's
CARRY = CarriedPot("carry", "Chips carried to the next deal", "carried to the next deal's pot")
# odd chips a whole game takes off the table at its end (R56), until its game declares them
OFF_TABLE = CarriedPot("off_table", "Odd chips taken off", "as odd chips taken off the table")


def amounts(totals: Totals) -> dict[str, int]:
    """Every amount ``totals`` holds outside the stacks, by pot key (zeros included)."""
    return {"kings_pot": totals.kings_pot, "bank": totals.bank,  # ADAPTER: Totals.carried
            OFF_TABLE.key: totals.off_table, CARRY.key: totals.carry}


def pot(key: str) -> CarriedPot:
    found = {p.key: p for game in all_games() for p in game.carried_pots}
    return found.get(key) or {CARRY.key: CARRY, OFF_TABLE.key: OFF_TABLE}[key]


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
    keys = tuple(p.key for p in game.carried_pots)
    return (*keys, OFF_TABLE.key) if game.deals_per_game else keys
