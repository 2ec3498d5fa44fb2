"""A tournament's records: small, immutable, JSON-shaped; its state is what replaying them
gives (as a deal's, core/actions.py), and undo drops the last.

The host's and dealers' records (``ACTIONS``) carry what was asked; the server's own
(``bust``, ``draw``, ``restart``, ``reopen``) carry what it saw at the tables or drew. Every record
carries its moment, for the clock (R90). Only the host changes the money: ``payouts`` is the
host's alone (``HOST_ONLY``), never a table's dealer's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dealer_assist.core.errors import InvalidActionError, SetupError
from dealer_assist.core.tournament.money import ChopMethod, PayoutTable
from dealer_assist.core.tournament.seating import Move


class TournamentActionType(StrEnum):
    PAUSE = "pause"
    RESUME = "resume"
    LEVEL = "level"  # to: a level's index
    ENTER = "enter"  # late registration
    REBUY = "rebuy"
    ADD_ON = "add_on"
    DECLINE = "decline"  # a busted player takes no rebuy: placed now
    MOVE = "move"
    CHOP = "chop"
    PAYOUTS = "payouts"  # the host's new payout table (R93), until a paid place is decided
    UNDO = "undo"
    BUST = "bust"  # the server: players at 0 after a deal, with their stacks at its start
    DRAW = "draw"  # the server: a breaking table's players' new seats, drawn
    RESTART = "restart"  # the server: back up after being down since ``since``
    REOPEN = "reopen"  # the server: a deal's end undone at its table; its bust never was


# what the host or a dealer may ask for (API.md "Tournaments"); the rest are the server's
ACTIONS: tuple[TournamentActionType, ...] = (
    TournamentActionType.PAUSE, TournamentActionType.RESUME, TournamentActionType.LEVEL,
    TournamentActionType.ENTER, TournamentActionType.REBUY, TournamentActionType.ADD_ON,
    TournamentActionType.DECLINE, TournamentActionType.MOVE, TournamentActionType.CHOP,
    TournamentActionType.PAYOUTS, TournamentActionType.UNDO,
)
# of those, what the host alone may ask for: the money
HOST_ONLY: frozenset[TournamentActionType] = frozenset({TournamentActionType.PAYOUTS})

Pairs = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class TournamentRecord:
    type: TournamentActionType
    at: float  # seconds since the epoch, the server's clock
    player: str | None = None
    to: int | None = None  # level: the index
    table: int | None = None  # enter: where seated; move: from; bust, reopen: where
    deal: int | None = None  # bust, reopen: the deal's number at its table
    to_table: int | None = None  # move: where to
    after: str | None = None  # enter, move: the player sat after (None: the last seat)
    stack: int | None = None  # rebuy, add_on: the player's chips then, at the table
    out: Pairs | None = None  # bust: who went out, with their stacks at the deal's start
    moves: tuple[Move, ...] | None = None  # draw
    method: ChopMethod | None = None  # chop
    stacks: Pairs | None = None  # chop: the players left and their chips
    amounts: Pairs | None = None  # chop: what each takes
    since: float | None = None  # restart: the last moment the server was known up
    payouts: PayoutTable | None = None  # payouts: the table from now on

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": str(self.type), "at": self.at}
        for key in ("player", "to", "table", "deal", "to_table", "after", "stack", "since"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.method is not None:
            out["method"] = str(self.method)
        for key in ("out", "stacks", "amounts"):
            value = getattr(self, key)
            if value is not None:
                out[key] = [[name, amount] for name, amount in value]
        if self.moves is not None:
            out["moves"] = [m.to_json() for m in self.moves]
        if self.payouts is not None:
            out["payouts"] = self.payouts.to_json()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TournamentRecord:
        """A stored record, as :meth:`to_json` wrote it."""
        try:
            return cls(
                type=TournamentActionType(data["type"]), at=float(data["at"]),
                player=data.get("player"), to=data.get("to"), table=data.get("table"),
                deal=data.get("deal"),
                to_table=data.get("to_table"), after=data.get("after"),
                stack=data.get("stack"),
                out=_pairs(data.get("out")), stacks=_pairs(data.get("stacks")),
                amounts=_pairs(data.get("amounts")),
                moves=None if data.get("moves") is None else tuple(
                    Move(m["player"], m["from_table"], m["to_table"], m["after"])
                    for m in data["moves"]),
                method=None if data.get("method") is None else ChopMethod(data["method"]),
                since=None if data.get("since") is None else float(data["since"]),
                payouts=PayoutTable.from_json(data["payouts"]) if "payouts" in data else None)
        except (KeyError, TypeError, ValueError, SetupError) as err:
            raise InvalidActionError(f"A stored tournament record cannot be read: {err}.") \
                from None


def _pairs(value: Any) -> Pairs | None:
    if value is None:
        return None
    return tuple((str(name), int(amount)) for name, amount in value)
