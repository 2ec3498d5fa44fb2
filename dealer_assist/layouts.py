"""The grids as data (R10, R11): cells, lines, and which cells each reveal turns.

>>> REVEAL_SETS_5[1]
('r1c1', 'r2c4', 'r3c2', 'r4c5', 'r5c3')
>>> LINES_4["diag"]
('r1c1', 'r2c2', 'r3c3', 'r4c4')
>>> LINE_OF_RANK["7"]
'col2'
"""

from __future__ import annotations

from dealer_assist.cards import RANK_PLURALS

# R10: the set each cell of the 5x5 grid belongs to, row by row.
GRID5_SETS: tuple[tuple[int, ...], ...] = (
    (1, 4, 2, 5, 3),
    (2, 5, 3, 1, 4),
    (3, 1, 4, 2, 5),
    (4, 2, 5, 3, 1),
    (5, 3, 1, 4, 2),
)

# R11: the face-down cards of Off-Road Stud's 4x4 grid.
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

# R21: the line each rank backs in King's Pot; K backs the king's hand.
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


def line_label(line: str, *, kings_pot: bool = False) -> str:
    """How a line is called at the table: ``"row 1"``, or in King's Pot ``"row 1 (aces)"``."""
    name = LINE_NAMES[line]
    if kings_pot:
        return f"{name} ({RANK_PLURALS[RANK_OF_LINE[line]]})"
    return name
