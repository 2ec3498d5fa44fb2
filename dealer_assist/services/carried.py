"""What a table holds outside the players' stacks, by pot, as the host's books name it (R76).

Each game declares the pots it keeps between deals (``Game.carried_pots``: key, title, what
the banker holds it for), and the totals carry them by key (``Totals.carried``); R7's odd
chips carried to the next deal's pot are the core's own (``Totals.carry``). The ledger, the
season, the charts and the CSV read pots only through this module, by key: none of them
knows which game keeps which pot.
"""

from __future__ import annotations

from typing import Any

from dealer_assist.core.deal import CarriedPot, Totals
from dealer_assist.games.registry import all_games, carried_pot, game_class

# R7's odd chips carried to the next deal's pot: a core rule, every game's
CARRY = CarriedPot("carry", "Chips carried to the next deal", "carried to the next deal's pot")


def amounts(totals: Totals) -> dict[str, int]:
    """Every amount ``totals`` holds outside the stacks, by pot key (R7's carry included)."""
    return {**totals.carried, CARRY.key: totals.carry}


def pot(key: str) -> CarriedPot:
    """The pot called ``key``; one no game declares (a row written by an older release) is
    shown by its key."""
    if key == CARRY.key:
        return CARRY
    found = carried_pot(key)
    return found if found is not None else CarriedPot(key, key.replace("_", " ").capitalize(),
                                                      f"for {key.replace('_', ' ')}")


def game_pot_keys() -> tuple[str, ...]:
    """Every game's pot keys, in the catalogue's order (R7's carry not among them)."""
    keys: list[str] = []
    for game in all_games():
        keys += [p.key for p in game.carried_pots if p.key not in keys]
    return tuple(keys)


def with_pot_fields(deal: dict[str, Any]) -> dict[str, Any]:
    """A deal row (``storage.list_deals``) as the API lists it: after its result, a
    ``<key>_after`` for every game's pot, None where the deal's game keeps none of it."""
    out: dict[str, Any] = {}
    for name, value in deal.items():
        out[name] = value
        if name == "result":
            out |= {f"{key}_after": deal.get(f"{key}_after") for key in game_pot_keys()}
    return out


def pots_of_game(variant: str) -> tuple[str, ...]:
    """The keys of the pots ``variant`` plays for and carries (not those only waiting
    through its deals, R72)."""
    return tuple(p.key for p in game_class(variant).carried_pots)
