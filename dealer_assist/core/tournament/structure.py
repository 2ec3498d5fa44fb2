"""A tournament's structure (R89): its levels and breaks, counted by their position from 0
(breaks included), read from the host's JSON with a sentence for anything wrong.

>>> s = Structure.from_json([{"minutes": 20, "small_blind": 25, "big_blind": 50},
...                          {"break": 10, "color_up": 25},
...                          {"minutes": 20, "small_blind": 50, "big_blind": 100}])
>>> s.stages[1], s.first_break, s.seconds(2), s.number(2)
(Break(minutes=10, color_up=25), 1, 1200, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.core.errors import SetupError
from dealer_assist.core.rules import MAX_CHIPS

MAX_STAGES = 200  # a night of 10-minute levels is about 60
MAX_MINUTES = 24 * 60


@dataclass(frozen=True)
class Level:
    """A level of play: its minutes and what is posted (an ante from each, or a big-blind
    ante from the big blind)."""

    minutes: int
    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0

    def blinds(self) -> dict[str, int]:
        """The house rules this level sets for a deal (its blinds and antes)."""
        return {"small_blind": self.small_blind, "big_blind": self.big_blind,
                "ante": self.ante, "big_blind_ante": self.big_blind_ante}

    def to_json(self) -> dict[str, Any]:
        return {"minutes": self.minutes, **self.blinds()}


@dataclass(frozen=True)
class Break:
    """A pause in play while the clock runs; ``color_up``: the chip value taken off."""

    minutes: int
    color_up: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"break": self.minutes, "color_up": self.color_up}


Stage = Level | Break


def whole(data: dict[str, Any], key: str, where: str, *, low: int = 0,
          high: int = MAX_CHIPS, default: int | None = None) -> int:
    """``data[key]`` as a whole number from ``low`` to ``high``, or a SetupError."""
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SetupError(f"{where}: {key} must be a whole number from {low} to {high:,}.")
    return value


def read_stage(data: Any, index: int) -> Stage:
    where = f"Level {index}"
    if not isinstance(data, dict):
        raise SetupError(f"{where} must be an object such as "
                         '{"minutes": 20, "small_blind": 25, "big_blind": 50}.')
    if "break" in data:
        extra = sorted(set(data) - {"break", "color_up"})
        if extra:
            raise SetupError(f"{where} is a break: it has no {extra[0][:40]}.")
        color_up = data.get("color_up")
        return Break(whole(data, "break", where, low=1, high=MAX_MINUTES),
                     None if color_up is None else whole(data, "color_up", where, low=1))
    extra = sorted(set(data) - {"minutes", "small_blind", "big_blind", "ante",
                                "big_blind_ante"})
    if extra:
        raise SetupError(f"{where} has no field {extra[0][:40]}.")
    level = Level(whole(data, "minutes", where, low=1, high=MAX_MINUTES),
                  whole(data, "small_blind", where), whole(data, "big_blind", where, low=1),
                  whole(data, "ante", where, default=0),
                  whole(data, "big_blind_ante", where, default=0))
    if level.small_blind > level.big_blind:
        raise SetupError(f"{where}: the small blind is more than the big blind.")
    if level.ante and level.big_blind_ante:
        raise SetupError(f"{where}: an ante from each or a big-blind ante, not both.")
    return level


@dataclass(frozen=True)
class Structure:
    """The levels and breaks in order; a position in ``stages`` is the level's index."""

    stages: tuple[Stage, ...]

    @classmethod
    def from_json(cls, data: Any) -> Structure:
        if not isinstance(data, list) or not data:
            raise SetupError("levels must be a list of levels and breaks, the first a level.")
        if len(data) > MAX_STAGES:
            raise SetupError(f"A structure has at most {MAX_STAGES} levels and breaks.")
        stages = tuple(read_stage(d, i) for i, d in enumerate(data))
        if not isinstance(stages[0], Level):
            raise SetupError("The first level must be a level of play, not a break.")
        for i in range(1, len(stages)):
            if isinstance(stages[i], Break) and isinstance(stages[i - 1], Break):
                raise SetupError(f"Levels {i - 1} and {i} are two breaks in a row.")
        return cls(stages)

    def to_json(self) -> list[dict[str, Any]]:
        return [stage.to_json() for stage in self.stages]

    def seconds(self, index: int) -> int:
        return self.stages[index].minutes * 60

    @property
    def last(self) -> int:
        return len(self.stages) - 1

    @property
    def first_break(self) -> int | None:
        return next((i for i, s in enumerate(self.stages) if isinstance(s, Break)), None)

    def level_in_play(self, index: int) -> Level:
        """The level whose blinds apply at ``index``: itself, or before a break the level
        before it (a break has no blinds; no deal starts in one)."""
        for stage in reversed(self.stages[: index + 1]):
            if isinstance(stage, Level):
                return stage
        raise AssertionError("the first stage is a level")

    def number(self, index: int) -> int | None:
        """The level's number as players count them: levels of play from 1, breaks not
        counted (None for a break)."""
        if isinstance(self.stages[index], Break):
            return None
        return sum(isinstance(stage, Level) for stage in self.stages[: index + 1])

    def next_level(self, index: int) -> int | None:
        return next((i for i in range(index + 1, len(self.stages))
                     if isinstance(self.stages[i], Level)), None)

    def next_break(self, index: int) -> int | None:
        return next((i for i in range(index + 1, len(self.stages))
                     if isinstance(self.stages[i], Break)), None)

    def check_index(self, index: int, what: str) -> int:
        if not 0 <= index <= self.last:
            raise SetupError(f"{what} must be a level from 0 to {self.last}.")
        return index
