"""The grids as data (R10, R11): cells, lines, and which cells each reveal turns.

>>> REVEAL_SETS_5[1]
('r1c1', 'r2c4', 'r3c2', 'r4c5', 'r5c3')
>>> LINES_4["diag"]
('r1c1', 'r2c2', 'r3c3', 'r4c4')
>>> GRID5.line_label("anti")
'the anti-diagonal'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any

from dealer_assist.core.cards import RANK_PLURALS
from dealer_assist.core.words import and_words

# R10: the set each cell of the 5x5 grid belongs to, row by row.
GRID5_SETS: tuple[tuple[int, ...], ...] = (
    (1, 4, 2, 5, 3),
    (2, 5, 3, 1, 4),
    (3, 1, 4, 2, 5),
    (4, 2, 5, 3, 1),
    (5, 3, 1, 4, 2),
)

# R11: the face-down cards of the 4x4 grid.
GRID4_DOWN: tuple[str, ...] = ("r1c1", "r2c3", "r3c4", "r4c2")


def cell(row: int, col: int) -> str:
    return f"r{row}c{col}"


def grid_cells(size: int) -> tuple[str, ...]:
    return tuple(cell(r, c) for r in range(1, size + 1) for c in range(1, size + 1))


def grid_lines(size: int) -> dict[str, tuple[str, ...]]:
    """Rows, columns, ``diag`` (top left to bottom right) and ``anti`` (bottom left to top
    right), each as its cells in reading order."""
    span = range(1, size + 1)
    lines: dict[str, tuple[str, ...]] = {}
    for r in span:
        lines[f"row{r}"] = tuple(cell(r, c) for c in span)
    for c in span:
        lines[f"col{c}"] = tuple(cell(r, c) for r in span)
    lines["diag"] = tuple(cell(i, i) for i in span)
    lines["anti"] = tuple(cell(size + 1 - i, i) for i in span)
    return lines


CELLS_5 = grid_cells(5)
CELLS_4 = grid_cells(4)
LINES_5 = grid_lines(5)
LINES_4 = grid_lines(4)

REVEAL_SETS_5: dict[int, tuple[str, ...]] = {
    n: tuple(
        cell(r + 1, c + 1) for r in range(5) for c in range(5) if GRID5_SETS[r][c] == n
    )
    for n in range(1, 6)
}
GRID4_UP: tuple[str, ...] = tuple(c for c in CELLS_4 if c not in GRID4_DOWN)

# How a line is called in a sentence, and titled on the pages.
LINE_NAMES: dict[str, str] = {
    "row1": "row 1", "row2": "row 2", "row3": "row 3", "row4": "row 4", "row5": "row 5",
    "col1": "column 1", "col2": "column 2", "col3": "column 3", "col4": "column 4",
    "col5": "column 5", "diag": "the diagonal", "anti": "the anti-diagonal",
}
LINE_TITLES: dict[str, str] = {
    "row1": "Row 1", "row2": "Row 2", "row3": "Row 3", "row4": "Row 4", "row5": "Row 5",
    "col1": "Column 1", "col2": "Column 2", "col3": "Column 3", "col4": "Column 4",
    "col5": "Column 5", "diag": "Diagonal", "anti": "Anti-diagonal",
}


class LayoutKind(StrEnum):
    """How the pages draw a game's shared cards."""

    GRID = "grid"  # a square grid of ``size`` with lines
    BOARD = "board"  # a community board in a row, b1..b5
    # each player's row of down and up cards (R81), and one card in the middle when the
    # deck runs short (c1)
    UP_CARDS = "up_cards"
    # no shared cards: each player's hand alone, drawn to and shown whole (R85)
    HANDS = "hands"


class MarkKind(StrEnum):
    """What the marks on a grid's cells say."""

    NONE = "none"
    REVEAL_SET = "reveal_set"  # R10: the reveal each cell is turned in, 1..5
    FACE_DOWN = "face_down"  # R11: "D" dealt face down, "E" face up
    STREET = "street"  # a board's flop, turn and river


@dataclass(frozen=True)
class Layout:
    """A game's shared cards as data: the cells, the lines played from them, the marks printed
    on the cells, and (where cards bet on lines, R21) which rank backs each line. A game whose
    cards back a hand of its own beside the grid (a :class:`Place`) names that hand as a line
    too: ``names`` and ``titles`` hold it, ``hand_lines`` says it is a hand, not a line of
    cells."""

    kind: LayoutKind
    cells: tuple[str, ...]
    size: int = 0
    lines: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    mark_kind: MarkKind = MarkKind.NONE
    marks: Mapping[str, str] = field(default_factory=dict)
    rank_lines: Mapping[str, str] = field(default_factory=dict)  # rank -> the line it backs
    names: Mapping[str, str] = field(default_factory=lambda: LINE_NAMES)  # "row 1"
    titles: Mapping[str, str] = field(default_factory=lambda: LINE_TITLES)  # "Row 1"
    hand_lines: tuple[str, ...] = ()  # lines that are a hand of their own, not of cells

    @property
    def by_rank(self) -> bool:
        return bool(self.rank_lines)

    def line_label(self, line: str, *, by_rank: bool | None = None) -> str:
        """How a line is called at the table: "row 1", or where a rank backs each line
        "row 1 (aces)" (``by_rank`` False: without the rank)."""
        name = self.names[line]
        if (self.by_rank if by_rank is None else by_rank) and line in self.rank_of_line:
            return f"{name} ({RANK_PLURALS[self.rank_of_line[line]]})"
        return name

    def line_title(self, line: str) -> str:
        """A line's title on the pages: "Row 1", or where a rank backs it "Row 1 (aces)"."""
        title = self.titles[line]
        rank = self.rank_of_line.get(line)
        return f"{title} ({RANK_PLURALS[rank]})" if rank else title

    @cached_property
    def rank_of_line(self) -> dict[str, str]:
        return {line: rank for rank, line in self.rank_lines.items()}

    def on_lines(self, lines: Sequence[str]) -> str:
        """Where a hand was made, in a sentence: "on row 1", "on row 1, row 2 and column 3",
        "on 10 lines", and a hand of its own "in the ..." (``hand_lines``)."""
        names = [self.line_label(line, by_rank=False) for line in lines
                 if line not in self.hand_lines]
        parts = []
        if len(names) > 3:
            parts.append(f"on {len(names)} lines")
        elif names:
            parts.append("on " + and_words(names))
        parts += [f"in {self.names[line]}" for line in self.hand_lines if line in lines]
        return " and ".join(parts)

    def to_json(self) -> dict[str, Any]:
        every = dict.fromkeys((*self.lines, *self.rank_lines.values()))
        titles = {line: self.titles[line] for line in every}
        return {
            "kind": self.kind.value, "size": self.size, "cells": list(self.cells),
            "lines": {name: list(cells) for name, cells in self.lines.items()},
            "mark_kind": self.mark_kind.value, "marks": dict(self.marks),
            "line_titles": titles,  # "Row 1"
            # "Row 1 (aces)" where a rank backs each line, else as above
            "line_titles_ranked": {line: self.line_title(line) for line in titles},
            "rank_lines": dict(self.rank_lines),  # "A" -> "row1"
        }


@dataclass(frozen=True)
class Place:
    """A place for cards that a game adds beside its layout (a hand of its own that plays as a
    line): the pages draw it, face down until the showdown shows it, and enter its cards
    there. ``field`` names both the showdown record's key for its cards and the state's key
    that holds them once shown; ``line`` is the line id a result names when it wins."""

    id: str
    title: str
    cards: int
    field: str
    line: str

    @property
    def where(self) -> str:
        """The place in a sentence: "the spare hand" for a title "Spare hand"."""
        return "the " + self.title[:1].lower() + self.title[1:]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "cards": self.cards, "field": self.field,
                "line": self.line}


BOARD_CELLS: tuple[str, ...] = ("b1", "b2", "b3", "b4", "b5")

GRID5 = Layout(
    LayoutKind.GRID, CELLS_5, 5, LINES_5, MarkKind.REVEAL_SET,
    {cell(r + 1, c + 1): str(GRID5_SETS[r][c]) for r in range(5) for c in range(5)},
)
GRID4 = Layout(
    LayoutKind.GRID, CELLS_4, 4, LINES_4, MarkKind.FACE_DOWN,
    {c: ("D" if c in GRID4_DOWN else "E") for c in CELLS_4},
)
BOARD = Layout(LayoutKind.BOARD, BOARD_CELLS, mark_kind=MarkKind.STREET, marks={
    "b1": "Flop", "b2": "Flop", "b3": "Flop", "b4": "Turn", "b5": "River"})


# R81: each player's own cards, down and up, and the one card turned in the middle for all
# when too few are left for everyone
UP_CARDS = Layout(LayoutKind.UP_CARDS, ("c1",))

# R85: the draw games share no card; each player's hand is all there is
HANDS = Layout(LayoutKind.HANDS, ())
