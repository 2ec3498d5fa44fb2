"""The tournament clock (R90): the server's records of pause, resume, level changes and
restarts, each with its moment; the level and the time left at any moment are worked out from
them, so every screen that asks the server agrees, and a restart loses no time.

A new clock stands at level 0 until the first resume. It runs through breaks; the last level
runs on at 0 seconds left until someone moves it.

>>> from dealer_assist.core.tournament.structure import Structure
>>> s = Structure.from_json([{"minutes": 1, "small_blind": 1, "big_blind": 2},
...                          {"minutes": 1, "small_blind": 2, "big_blind": 4}])
>>> c = ClockState().resumed(s, 100.0)
>>> c.at(s, 190.0).level, c.at(s, 190.0).seconds_left(s)
(1, 30.0)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.tournament.structure import Structure


@dataclass(frozen=True)
class ClockState:
    """The clock as it stood at ``moment`` (seconds since the epoch): the level index, the
    seconds of it already run, and whether it runs."""

    level: int = 0
    elapsed: float = 0.0
    running: bool = False
    moment: float | None = None  # None: never started or stopped yet

    def seconds_left(self, structure: Structure) -> float:
        return max(0.0, structure.seconds(self.level) - self.elapsed)

    def at(self, structure: Structure, now: float) -> ClockState:
        """The clock at ``now`` (never earlier than ``moment``): run on through the levels
        if it runs."""
        if self.moment is None or now <= self.moment:
            return self
        if not self.running:
            return replace(self, moment=now)
        level, elapsed, left = self.level, self.elapsed, now - self.moment
        while True:
            room = structure.seconds(level) - elapsed
            if left < room or level == structure.last:
                elapsed = min(elapsed + left, float(structure.seconds(level)))
                break
            left -= room
            level, elapsed = level + 1, 0.0
        return ClockState(level, elapsed, True, now)

    def paused(self, structure: Structure, now: float) -> ClockState:
        if not self.running:
            raise IllegalActionError("The clock is already paused.")
        return replace(self.at(structure, now), running=False)

    def resumed(self, structure: Structure, now: float) -> ClockState:
        if self.running:
            raise IllegalActionError("The clock is already running.")
        return replace(self.at(structure, now), running=True, moment=now)

    def moved(self, structure: Structure, now: float, to: int) -> ClockState:
        """Level ``to``, from its start; the clock runs or stands as it did."""
        if not 0 <= to <= structure.last:
            raise IllegalActionError(f"There is no level {to}: the levels go from 0 to "
                                     f"{structure.last}.")
        return replace(self.at(structure, now), level=to, elapsed=0.0)

    def restarted(self, structure: Structure, down_since: float, now: float) -> ClockState:
        """After the server was down from ``down_since`` to ``now``: where it was at
        ``down_since``, as if paused for the time it was down."""
        held = self.at(structure, down_since)
        return replace(held, moment=max(now, down_since))
