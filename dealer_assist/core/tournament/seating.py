"""Seating a tournament (R92): the first draw, a late entry's seat, the balancing move the
rules name, and a table that breaks with its players' new seats drawn at random.

A table's seats are its players in order (as at any table, R70): a seat is named by the
player it comes after. A player placed out stays seated with no chips, dealt out. The random
draws take a ``random.Random`` (the server's is ``secrets.SystemRandom``), so that what is
drawn is recorded and replays the same.

>>> v = [TableView(0, ("A", "B", "C", "D", "E"), (9,) * 5, 0), TableView(1, ("F", "G", "H"),
...      (9,) * 3, 2)]
>>> balancing_move(v, seats=9)
Move(player='D', from_table=0, to_table=1, after='G')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TableView:
    """What seating reads of a table: its number in the tournament, its players in seat
    order (everyone still in, a busted player waiting on a rebuy included), their stacks, and
    the seat of the last deal's button (-1 before the first deal)."""

    number: int
    names: tuple[str, ...]
    stacks: tuple[int, ...]
    button: int = -1
    # busted players waiting on a rebuy: still in, with no chips; any other seat with no
    # chips is a player placed out (R91), who is seated but no longer counts
    waiting: frozenset[str] = frozenset()

    @property
    def players(self) -> tuple[str, ...]:
        """The players still in the tournament at this table, in seat order."""
        return tuple(n for n, s in zip(self.names, self.stacks, strict=True)
                     if s > 0 or n in self.waiting)


@dataclass(frozen=True)
class Move:
    """``player`` goes from one table to another, sitting after ``after`` (None: at the end
    of the seat order, which is the same seat as before the first)."""

    player: str
    from_table: int
    to_table: int
    after: str | None

    def to_json(self) -> dict[str, object]:
        return {"player": self.player, "from_table": self.from_table,
                "to_table": self.to_table, "after": self.after}


def draw_tables(players: Sequence[str], tables: int, rng: random.Random) -> tuple[
        tuple[str, ...], ...]:
    """The first draw: the players in a random order dealt round the tables, so no two
    differ by more than one."""
    order = list(players)
    rng.shuffle(order)
    return tuple(tuple(order[t::tables]) for t in range(tables))


def _dealt_in(stacks: Sequence[int]) -> list[int]:
    return [i for i, s in enumerate(stacks) if s > 0]


def big_blind_next(names: Sequence[str], stacks: Sequence[int], button: int) -> int | None:
    """The seat that posts the big blind in the next deal, as the table's blinds go (R30,
    R73): the button to the next seat with chips, the big blind two on (heads up, one)."""
    dealt = _dealt_in(stacks)
    if len(dealt) < 2:
        return None
    n = len(names)
    dealer = next(s for step in range(1, n + 1) if (s := (button + step) % n) in dealt)
    at = dealt.index(dealer)
    return dealt[(at + (1 if len(dealt) == 2 else 2)) % len(dealt)]


def deals_until_big_blind(names: Sequence[str], stacks: Sequence[int], button: int,
                          seat: int) -> int:
    """How many deals before ``seat`` posts the big blind (0: the next)."""
    big = big_blind_next(names, stacks, button)
    dealt = _dealt_in(stacks)
    if big is None or seat not in dealt:
        return len(names)
    return (dealt.index(seat) - dealt.index(big)) % len(dealt)


def worst_seat(view: TableView, newcomer: str) -> str | None:
    """The open seat at ``view`` that posts the big blind soonest: the player a newcomer
    sits after (the first such seat in seat order)."""
    if not view.names:
        return None
    best: tuple[int, str] | None = None
    for position in range(1, len(view.names) + 1):
        names = (*view.names[:position], newcomer, *view.names[position:])
        stacks = (*view.stacks[:position], 1, *view.stacks[position:])
        moved = view.button >= 0 and position <= view.button
        button = view.button + 1 if moved else view.button
        wait = deals_until_big_blind(names, stacks, button, position)
        if best is None or wait < best[0]:
            best = (wait, view.names[position - 1])
    assert best is not None
    return best[1]


def balancing_move(views: Sequence[TableView], seats: int) -> Move | None:
    """R92: when two tables differ by two players or more, the player who is big blind next
    at the fullest table moves to the seat that posts the big blind soonest at the shortest
    (the first of equal tables by number)."""
    if len(views) < 2:
        return None
    fullest = min(views, key=lambda v: (-len(v.players), v.number))
    shortest = min(views, key=lambda v: (len(v.players), v.number))
    if len(fullest.players) - len(shortest.players) < 2 or len(shortest.players) >= seats:
        return None
    big = big_blind_next(fullest.names, fullest.stacks, fullest.button)
    player = fullest.names[big] if big is not None else fullest.players[0]
    return Move(player, fullest.number, shortest.number, worst_seat(shortest, player))


def table_to_break(views: Sequence[TableView], seats: int) -> TableView | None:
    """R92: when the players left fit the other tables, the table that breaks: the one
    with the fewest players (of equal ones, the last by number)."""
    if len(views) < 2:
        return None
    players = sum(len(v.players) for v in views)
    if players > (len(views) - 1) * seats:
        return None
    return min(views, key=lambda v: (len(v.players), -v.number))


def draw_break(views: Sequence[TableView], breaking: TableView,
               rng: random.Random) -> tuple[Move, ...]:
    """Each player of the breaking table drawn a seat at random at the other tables: a
    table among those with the fewest players (as filled so far), a seat among its open
    ones."""
    order = list(breaking.players)
    rng.shuffle(order)
    others = [v for v in views if v.number != breaking.number]
    seated = {v.number: list(v.names) for v in others}
    counts = {v.number: len(v.players) for v in others}
    moves = []
    for player in order:
        fewest = min(counts.values())
        table = rng.choice(sorted(n for n, count in counts.items() if count == fewest))
        counts[table] += 1
        names = seated[table]
        position = rng.randrange(len(names) + 1) if names else 0
        after = names[position - 1] if position else (names[-1] if names else None)
        names.insert(position if position else len(names), player)
        moves.append(Move(player, breaking.number, table, after))
    return tuple(moves)


def late_seat(views: Sequence[TableView], player: str, seats: int,
              rng: random.Random) -> Move | None:
    """A late entry's seat, drawn: a table with the fewest players, a seat at random there;
    None when every table is full. ``from_table`` is -1: the player comes from the door."""
    open_tables = [v for v in views if len(v.players) < seats]
    if not open_tables:
        return None
    fewest = min(len(v.players) for v in open_tables)
    view = rng.choice([v for v in open_tables if len(v.players) == fewest])
    after = rng.choice(view.names) if view.names else None
    return Move(player, -1, view.number, after)
