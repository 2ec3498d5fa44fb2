"""What a tournament is made with (R89): the money, the chips, the structure, the rebuy,
add-on and late-registration periods, the payouts, the games and the tables, read from the
host's JSON with a sentence for anything wrong. The first seats are drawn by the caller's
random source and kept here, so that the draw is recorded."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from dealer_assist.core.errors import SetupError
from dealer_assist.core.game import Catalogue
from dealer_assist.core.names import MAX_NAME, clean_name, same_name_key
from dealer_assist.core.tournament.money import PayoutTable
from dealer_assist.core.tournament.seating import draw_tables
from dealer_assist.core.tournament.structure import Level, Structure, whole

MAX_PLAYERS = 1000
MAX_TABLES = 100
FIELDS = frozenset({"name", "buy_in", "chips", "levels", "rebuy_until_level", "add_on",
                    "late_until_level", "fee", "payouts", "unit", "games", "players",
                    "tables", "seats"})


@dataclass(frozen=True)
class AddOn:
    chips: int
    cost: int


@dataclass(frozen=True)
class TournamentSetup:
    name: str
    buy_in: int  # money, a whole number of the host's units
    chips: int  # the starting stack
    structure: Structure
    rebuy_until: int | None  # rebuys until the end of this level (None: no rebuys)
    add_on: AddOn | None
    late_until: int | None  # late registration until the end of this level
    fee: int  # the house's, out of each entry's buy-in
    payouts: PayoutTable
    unit: int  # payouts are rounded down to it
    games: tuple[str, ...]  # the rotation, one game a level
    seats: int  # the most players at a table
    tables: tuple[tuple[str, ...], ...]  # the first draw: each table's players in seat order

    @classmethod
    def create(cls, catalogue: Catalogue, data: Any, default_games: tuple[str, ...],
               rng: random.Random | None = None, *, stored: bool = False) -> TournamentSetup:
        """A new tournament's setup with its seats drawn by ``rng``, or (``stored``) one
        read back with the seats it was drawn with (``tables`` a list of lists)."""
        if not isinstance(data, dict):
            raise SetupError("A tournament is an object: see the API's Tournaments.")
        extra = sorted(set(data) - FIELDS)
        if extra:
            raise SetupError(f"A tournament has no field {extra[0][:40]}.")
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > 80:
            raise SetupError("The tournament's name must be text of at most 80 characters.")
        where = "The tournament"
        buy_in = whole(data, "buy_in", where)
        chips = whole(data, "chips", where, low=1)
        structure = Structure.from_json(data.get("levels"))
        rebuy_until = _level(data, "rebuy_until_level", structure)
        late_until = _level(data, "late_until_level", structure)
        fee = whole(data, "fee", where, default=0)
        if fee > buy_in:
            raise SetupError("The fee comes out of each buy-in: it cannot be more than it.")
        unit = whole(data, "unit", where, low=1, default=1)
        add_on = _add_on(data.get("add_on"), structure)
        payouts = PayoutTable.from_json(data.get("payouts"))
        games = _games(catalogue, data.get("games"), default_games)
        most = min(catalogue.game_class(g).players[1] for g in games)
        fewest = max(catalogue.game_class(g).players[0] for g in games)
        seats = whole(data, "seats", where, low=fewest, high=most, default=most)
        if stored:
            tables = tuple(tuple(t) for t in data["tables"])
        else:
            players = _players(data.get("players"))
            count = whole(data, "tables", where, low=1, high=MAX_TABLES, default=1)
            if len(players) > count * seats:
                raise SetupError(f"{len(players)} players do not fit {count} tables of "
                                 f"{seats} seats.")
            if len(players) < count * fewest:
                raise SetupError(f"{count} tables need at least {count * fewest} players.")
            tables = draw_tables(players, count, rng or random.Random())
        return cls(name.strip(), buy_in, chips, structure, rebuy_until, add_on, late_until, fee,
                   payouts, unit, games, seats, tables)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "buy_in": self.buy_in, "chips": self.chips,
            "levels": self.structure.to_json(), "rebuy_until_level": self.rebuy_until,
            "add_on": None if self.add_on is None else {"chips": self.add_on.chips,
                                                        "cost": self.add_on.cost},
            "late_until_level": self.late_until, "fee": self.fee,
            "payouts": self.payouts.to_json(), "unit": self.unit, "games": list(self.games),
            "seats": self.seats, "tables": [list(t) for t in self.tables],
        }

    @classmethod
    def from_json(cls, catalogue: Catalogue, data: dict[str, Any]) -> TournamentSetup:
        return cls.create(catalogue, data, (), stored=True)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(name for table in self.tables for name in table)

    def game(self, index: int) -> str:
        """The game of level ``index`` (a break: the level before's): the rotation by the
        levels of play."""
        plays = sum(1 for s in self.structure.stages[: index + 1] if isinstance(s, Level))
        return self.games[(max(plays, 1) - 1) % len(self.games)]


def _level(data: dict[str, Any], key: str, structure: Structure) -> int | None:
    if data.get(key) is None:
        return None
    return structure.check_index(whole(data, key, "The tournament", high=structure.last), key)


def _add_on(data: Any, structure: Structure) -> AddOn | None:
    if data is None:
        return None
    if not isinstance(data, dict) or set(data) != {"chips", "cost"}:
        raise SetupError('add_on is {"chips": N, "cost": N} or null.')
    if structure.first_break is None:
        raise SetupError("An add-on is taken at the first break: the levels have no break.")
    return AddOn(whole(data, "chips", "The add-on", low=1), whole(data, "cost", "The add-on"))


def _games(catalogue: Catalogue, data: Any, default: tuple[str, ...]) -> tuple[str, ...]:
    games = default if data is None else data
    if not isinstance(games, list | tuple) or not games or len(games) > 50:
        raise SetupError("games is a list of the games to deal, one a level in turn.")
    for variant in games:
        game = catalogue.game_class(variant)
        if game.whole_game or "big_blind" not in game.house_rules:
            raise SetupError(f"{game.name} is not dealt in a tournament: its blinds do not "
                             "come from a clock.")
    return tuple(games)


def _players(data: Any) -> tuple[str, ...]:
    if not isinstance(data, list) or not data or len(data) > MAX_PLAYERS:
        raise SetupError("players must be a list of names.")
    names: list[str] = []
    for entry in data:
        if not isinstance(entry, str) or not entry.strip():
            raise SetupError("Every player needs a name.")
        name = clean_name(entry)
        if len(name) > MAX_NAME:
            raise SetupError(f"A player's name has at most {MAX_NAME} characters.")
        if same_name_key(name) in (same_name_key(n) for n in names):
            raise SetupError(f"Two players are called {name}: give each a different name.")
        names.append(name)
    return tuple(names)

