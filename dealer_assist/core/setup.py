"""A table's setup: who sits where, the house rules, and the games it may deal (R4, R71).

>>> from dealer_assist.games.registry import CATALOGUE
>>> setup = TableSetup.create(CATALOGUE, CATALOGUE.all()[2].variant, ["Ann", "Bob"])
>>> setup.players, setup.stacks
(('Ann', 'Bob'), (100, 100))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.core.errors import SetupError
from dealer_assist.core.game import Catalogue, Game
from dealer_assist.core.names import MAX_NAME, clean_name, same_name_key
from dealer_assist.core.rules import MAX_CHIPS, HouseRules


@dataclass(frozen=True)
class TableSetup:
    """Who sits where and the house rules: fixed when the table is made."""

    # the games this table may deal (R71): given by the services, never imported by the core
    catalogue: Catalogue = field(compare=False, repr=False)
    variant: str
    players: tuple[str, ...]
    stacks: tuple[int, ...]
    rules: HouseRules
    name: str = ""

    @classmethod
    def create(
        cls, catalogue: Catalogue, variant: Any, players: Any, rules: Any = None,
        name: Any = "", *, stored: bool = False,
    ) -> TableSetup:
        """A new table's setup, or a SetupError with a sentence. ``stored``: a setup this
        server wrote, read back; its names are taken as they were kept (a name an older
        version let through still loads)."""
        game = catalogue.game_class(variant)
        house = HouseRules.for_game(game, rules)
        if not isinstance(name, str) or len(name) > 80:
            raise SetupError("The table's name must be text of at most 80 characters.")
        if name.strip() and not stored:
            name = clean_name(name, stored, "The table's name")
        if not isinstance(players, list):
            raise SetupError("players must be a list of names in seat order.")
        low, high = game.players
        if not low <= len(players) <= high:
            raise SetupError(
                f"{game.name} is for {low} to {high} players, not {len(players)}."
            )
        names: list[str] = []
        stacks: list[int] = []
        for entry in players:
            stack = house.buy_in
            if isinstance(entry, dict):
                extra = set(entry) - {"name", "stack"}
                if extra:
                    raise SetupError(f"A player has a name and a stack, not {sorted(extra)[0]}.")
                stack = entry.get("stack", stack)
                entry = entry.get("name")
            if not isinstance(entry, str) or not entry.strip():
                raise SetupError("Every player needs a name.")
            entry = clean_name(entry, stored)
            if len(entry) > MAX_NAME:
                raise SetupError(f"A player's name has at most {MAX_NAME} characters.")
            if same_name_key(entry) in (same_name_key(n) for n in names):
                raise SetupError(f"Two players are called {entry}: give each a different name.")
            if isinstance(stack, bool) or not isinstance(stack, int) or not 0 <= stack <= MAX_CHIPS:
                raise SetupError(f"{entry}'s stack must be a whole number of chips.")
            names.append(entry)
            stacks.append(stack)
        return cls(catalogue, variant, tuple(names), tuple(stacks), house, name.strip())

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant, "name": self.name,
            "players": [{"name": n, "stack": s} for n, s in zip(self.players, self.stacks,
                                                               strict=True)],
            "rules": self.rules.to_json(),
        }

    @classmethod
    def from_json(cls, catalogue: Catalogue, data: dict[str, Any], *,
                  stored: bool = False) -> TableSetup:
        return cls.create(catalogue, data["variant"], data["players"], data["rules"],
                          data.get("name", ""), stored=stored)

    def game(self, variant: str | None = None) -> Game:
        """``variant`` (the table's first game by default) played with the table's house
        rules (R71): each game reads the rules it uses; a rule the table left at its first
        game's default takes this game's default."""
        return table_game(self, variant or self.variant)


@functools.lru_cache(maxsize=256)
def table_game(setup: TableSetup, variant: str) -> Game:
    catalogue = setup.catalogue
    if variant == setup.variant:
        return catalogue.game_class(variant)(setup.rules)
    first = HouseRules.for_game(catalogue.game_class(setup.variant), {}).to_json()
    given = {k: v for k, v in setup.rules.to_json().items() if first.get(k) != v}
    game = catalogue.game_class(variant)
    return game(HouseRules.for_game(game, given))
