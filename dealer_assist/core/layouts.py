"""The grids as data (R10, R11): cells, lines, and which cells each reveal turns.

>>> REVEAL_SETS_5[1]
('r1c1', 'r2c4', 'r3c2', 'r4c5', 'r5c3')
>>> LINES_4["diag"]
('r1c1', 'r2c2', 'r3c3', 'r4c4')
>>> LINE_OF_RANK["7"]
'col2'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dealer_assist.core.cards import RANK_PLURALS

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

# R21: the line each rank backs where cards bet on lines; K backs the king's hand.
LINE_OF_RANK: dict[str, str] = {
    "A": "row1", "2": "row2", "3": "row3", "4": "row4", "5": "row5",
    "6": "col1", "7": "col2", "8": "col3", "9": "col4", "T": "col5",
    "J": "diag", "Q": "anti", "K": "king",
}
RANK_OF_LINE: dict[str, str] = {line: rank for rank, line in LINE_OF_RANK.items()}

LINE_NAMES: dict[str, str] = {
    "row1": "row 1", "row2": "row 2", "row3": "row 3", "row4": "row 4", "row5": "row 5",
    "col1": "column 1", "col2": "column 2", "col3": "column 3", "col4": "column 4",
    "col5": "column 5", "diag": "the diagonal", "anti": "the anti-diagonal",
    "king": "the king's hand",
}


# How the pages title a line, in a heading or a list.
LINE_TITLES: dict[str, str] = {
    "row1": "Row 1", "row2": "Row 2", "row3": "Row 3", "row4": "Row 4", "row5": "Row 5",
    "col1": "Column 1", "col2": "Column 2", "col3": "Column 3", "col4": "Column 4",
    "col5": "Column 5", "diag": "Diagonal", "anti": "Anti-diagonal", "king": "King's hand",
}


def line_label(line: str, *, by_rank: bool = False) -> str:
    """How a line is called at the table: ``"row 1"``, or where a rank backs each line
    ``"row 1 (aces)"``."""
    name = LINE_NAMES[line]
    if by_rank:
        return f"{name} ({RANK_PLURALS[RANK_OF_LINE[line]]})"
    return name


class LayoutKind(StrEnum):
    """How the pages draw a game's shared cards."""

    GRID = "grid"  # a square grid of ``size`` with lines
    BOARD = "board"  # a community board in a row, b1..b5


class MarkKind(StrEnum):
    """What the marks on a grid's cells say."""

    NONE = "none"
    REVEAL_SET = "reveal_set"  # R10: the reveal each cell is turned in, 1..5
    FACE_DOWN = "face_down"  # R11: "D" dealt face down, "E" face up
    STREET = "street"  # a board's flop, turn and river


@dataclass(frozen=True)
class Layout:
    """A game's shared cards as data: the cells, the lines played from them, the marks printed
    on the cells, and (where cards bet on lines, R21) which rank backs each line."""

    kind: LayoutKind
    cells: tuple[str, ...]
    size: int = 0
    lines: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    mark_kind: MarkKind = MarkKind.NONE
    marks: Mapping[str, str] = field(default_factory=dict)
    rank_lines: Mapping[str, str] = field(default_factory=dict)  # rank -> the line it backs

    @property
    def by_rank(self) -> bool:
        return bool(self.rank_lines)

    def line_label(self, line: str) -> str:
        return line_label(line, by_rank=self.by_rank)

    def line_title(self, line: str) -> str:
        """A line's title on the pages: "Row 1", or where a rank backs it "Row 1 (aces)"."""
        title = LINE_TITLES[line]
        return f"{title} ({RANK_PLURALS[RANK_OF_LINE[line]]})" if self.by_rank else title

    def to_json(self) -> dict[str, Any]:
        every = dict.fromkeys((*self.lines, *self.rank_lines.values()))
        titles = {line: LINE_TITLES[line] for line in every}
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

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "cards": self.cards, "field": self.field,
                "line": self.line}


BOARD_CELLS: tuple[str, ...] = ("b1", "b2", "b3", "b4", "b5")

GRID5 = Layout(
    LayoutKind.GRID, CELLS_5, 5, LINES_5, MarkKind.REVEAL_SET,
    {cell(r + 1, c + 1): str(GRID5_SETS[r][c]) for r in range(5) for c in range(5)},
)
GRID5_RANKED = Layout(
    LayoutKind.GRID, CELLS_5, 5, LINES_5, MarkKind.REVEAL_SET, GRID5.marks, LINE_OF_RANK,
)
GRID4 = Layout(
    LayoutKind.GRID, CELLS_4, 4, LINES_4, MarkKind.FACE_DOWN,
    {c: ("D" if c in GRID4_DOWN else "E") for c in CELLS_4},
)
BOARD = Layout(LayoutKind.BOARD, BOARD_CELLS, mark_kind=MarkKind.STREET, marks={
    "b1": "Flop", "b2": "Flop", "b3": "Flop", "b4": "Turn", "b5": "River"})
