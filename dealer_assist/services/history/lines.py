"""What the charts draw, as it happened: each player's line starts where they sat down and
ends where they left; a deal moves it, and a rebuy, a correction (R8), a seat and a cash-out
(R70) are points of their own, marked, at the deal they followed, so that buying chips never
looks like winning them and leaving never looks like going bust.

A point is a player's stack and net at one moment. After deal ``k`` there is one point for
the deal's result, then one per entry that followed it, in order; ``x`` is ``k`` for all of
them (0: before the first deal). The stacks after the result are the totals after the
deal's entries with those entries taken back, last first.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from dealer_assist.core.deal import Totals
from dealer_assist.games.registry import game_for
from dealer_assist.services.history.books import Position, positions


class Mark(enum.StrEnum):
    """What a point is, where it is not a deal's result."""

    START = "start"
    SEAT = "seat"
    REBUY = "rebuy"
    ADJUST = "adjust"
    CASH_OUT = "cash_out"


@dataclass(frozen=True)
class Point:
    x: int  # the deal it follows (0: before the first deal)
    stack: int
    net: int
    mark: Mark | None = None
    words: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"x": self.x, "stack": self.stack, "net": self.net,
                "mark": self.mark.value if self.mark else None, "words": self.words}


def result_stacks(after: Totals, entries: list[dict[str, Any]]) -> dict[str, int]:
    """The stacks right after a deal's result: ``after`` (its entries laid over) with its
    ``entries`` taken back, last first."""
    stacks = dict(zip(after.names, after.stacks, strict=True))
    for e in reversed(entries):
        kind, who, amount = e["type"], e["player"], e["amount"] or 0
        if kind == "rebuy":
            stacks[who] -= amount
        elif kind == "adjust":
            stacks[who] += amount
            stacks[e["to"]] -= amount
        elif kind == "seat":
            stacks.pop(who, None)
        elif kind == "leave":
            stacks[who] = amount
    return stacks


class Lines:
    """Every player's points, built deal by deal."""

    def __init__(self) -> None:
        self.points: dict[str, list[Point]] = {}
        self.at: dict[str, Position] = {}  # where each seated player stands now

    def add(self, name: str, x: int, mark: Mark | None, words: str = "") -> None:
        p = self.at[name]
        self.points.setdefault(name, []).append(Point(x, p.stack, p.net, mark, words))

    def sit(self, name: str, x: int, stack: int, mark: Mark, words: str) -> None:
        last = self.points.get(name)
        net = last[-1].net if last else 0  # back at the table: the net carries on
        self.at[name] = Position(stack, stack - net, 0)
        self.add(name, x, mark, words)

    def follow(self, x: int, entries: list[dict[str, Any]]) -> None:
        """The points of the entries after deal ``x`` (or before the first deal)."""
        for e in entries:
            kind, who, amount = e["type"], e["player"], e["amount"] or 0
            if kind == "seat":
                self.sit(who, x, amount, Mark.SEAT, e["words"])
            elif kind == "rebuy" and who in self.at:
                p = self.at[who]
                self.at[who] = Position(p.stack + amount, p.bought_in + amount, p.cashed_out)
                self.add(who, x, Mark.REBUY, e["words"])
            elif kind == "adjust" and who in self.at and e["to"] in self.at:
                for name, change in ((who, -amount), (e["to"], amount)):
                    p = self.at[name]
                    self.at[name] = Position(p.stack + change, p.bought_in, p.cashed_out)
                    self.add(name, x, Mark.ADJUST, e["words"])
            elif kind == "leave" and who in self.at:
                self.add(who, x, Mark.CASH_OUT, e["words"])
                del self.at[who]

    def deal(self, x: int, base: Totals, stacks: dict[str, int]) -> None:
        """Deal ``x``'s result: everyone seated at it moves to their stack after it."""
        before = positions(base)
        for name in base.names:
            if name not in self.at:  # seated by a record this history does not list
                self.at[name] = before[name]
            p = self.at[name]
            self.at[name] = Position(stacks.get(name, p.stack), p.bought_in, p.cashed_out)
            self.add(name, x, None)


def player_lines(stored: Any, after: dict[int, Totals],
                 entries: dict[int, list[dict[str, Any]]]) -> dict[str, list[Point]]:
    """Each player's points over the deals that are over (``after``: deal number -> the
    totals after it; ``entries``: deal number -> its entries, 0 before the first deal)."""
    setup = stored.setup
    lines = Lines()
    start = game_for(setup.variant, setup.rules).initial_totals(setup.stacks)
    for name, stack in zip(setup.players, start.stacks, strict=True):
        lines.sit(name, 0, stack, Mark.START, f"{name} sits down with {stack}")
    lines.follow(0, entries.get(0, []))
    for deal in stored.deals:
        number = deal["number"]
        if number not in after:
            break  # in play: no point yet
        deal_entries = entries.get(number, [])
        lines.deal(number, stored.bases[number], result_stacks(after[number], deal_entries))
        lines.follow(number, deal_entries)
    return lines.points
