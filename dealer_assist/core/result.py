"""A deal's result: who took which pot, with what, and what the game adds.

The result is built by the showdown (or by the last player left, R29) and read by the pages,
the history and the words of a result (``Game.result_sentences``). Its JSON, :meth:`to_json`,
is the state's ``result`` and the deals row's ``result_json``: a field that is ``None`` is left
out, so each game's result has only the keys it fills. A game with keys of its own subclasses
:class:`Result` (``Game.result_type``).

>>> result = Result()
>>> result.payouts["Ann"] = 6
>>> result.pots.append(PotShare(BET_POT, 6, ["Ann"], {"Ann": 1}, hand="Flush, ace high"))
>>> result.winners = ["Ann"]
>>> result.to_json()["pots"][0]["hand"]
'Flush, ace high'
>>> Result.from_json(result.to_json()) == result
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Self

# A share-out's ``kind``: a layer of the bets (R6), or else the key of the game's carried pot
# it shared (``CarriedPot.key``): what the game names, the core only carries.
BET_POT = "pot"


def plain(value: Any) -> Any:
    """``value`` as JSON: a dataclass as its fields, ``None`` fields left out. Through
    ``vars`` (the fields in their order) rather than ``dataclasses.fields``, which cost a
    result of many lines 0.4 ms a state."""
    if isinstance(value, str | int) or value is None:
        return value
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if hasattr(value, "to_json"):
        return value.to_json()
    if hasattr(value, "__dataclass_fields__"):
        return {k: plain(v) for k, v in vars(value).items() if v is not None}
    return value


def copied(value: Any) -> Any:
    """A deep copy of a result's plain data (dataclasses, dicts, lists, strings and ints):
    ``copy.deepcopy`` took twice as long, through each object's ``__reduce_ex__``."""
    if isinstance(value, str | int) or value is None:
        return value
    if isinstance(value, dict):
        return {k: copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copied(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        twin = object.__new__(type(value))
        twin.__dict__.update((k, copied(v)) for k, v in vars(value).items())
        return twin
    return value


@dataclass
class HalfShare:
    """R80: one half of a pot split high and low: who took it, with what hand, and how
    much; ``no_low`` where the low half went to the high hands, none of the pot's players
    having a low."""

    winners: list[str]
    hand: str | None
    amount: int
    no_low: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"winners": self.winners, "hand": self.hand,
                               "amount": self.amount}
        if self.no_low:
            out["no_low"] = True
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> HalfShare | None:
        if data is None:
            return None
        return cls(list(data.get("winners", [])), data.get("hand"), data.get("amount", 0),
                   bool(data.get("no_low", False)))


@dataclass
class PotShare:
    """One share-out (``Deal.share_out``): a pot, who took it and how many shares each, the odd
    chips each got over an even share (R7), and the odd chips left where they carry."""

    kind: str  # BET_POT, or the key of a carried pot shared out
    amount: int
    winners: list[str] = field(default_factory=list)  # one name a winner, in seat order
    shares: dict[str, int] = field(default_factory=dict)  # name -> shares (a card each, R27)
    odd: dict[str, int] = field(default_factory=dict)  # name -> odd chips over an even share
    carried: int = 0  # odd chips left under ``odd_chip: carry``
    hand: str | None = None  # the winning hand, for the pot's sentence
    lines: list[str] | None = None  # the winning lines, where the line is the bet (R26)
    # R66, a board run twice: the run (1 or 2) this half of a pot was settled on, and which
    # layer of the bets it is half of (0: the main pot)
    run: int | None = None
    layer: int | None = None
    # R80, a game split high and low: the pot's high half (the whole pot where no hand had a
    # low) and its low half, or None (``split`` says the pot was one of such a game)
    high: HalfShare | None = None
    low: HalfShare | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "amount": self.amount,
                               "winners": self.winners, "shares": self.shares, "odd": self.odd,
                               "carried": self.carried}
        if self.hand is not None:
            out["hand"] = self.hand
        if self.lines is not None:
            out["lines"] = self.lines
        if self.run is not None:
            out["run"] = self.run
            out["layer"] = self.layer
        if self.high is not None:  # API.md: every pot of a hi-lo game says both halves
            out["high"] = self.high.to_json()
            out["low"] = self.low.to_json() if self.low is not None else None
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PotShare:
        return cls(kind=str(data["kind"]), amount=data["amount"],
                   winners=list(data.get("winners", [])), shares=dict(data.get("shares", {})),
                   odd=dict(data.get("odd", {})), carried=data.get("carried", 0),
                   hand=data.get("hand"), lines=data.get("lines"), run=data.get("run"),
                   layer=data.get("layer"), high=HalfShare.from_json(data.get("high")),
                   low=HalfShare.from_json(data.get("low")))


@dataclass
class ShownHand:
    """A hand shown at a showdown: its five cards, its name, and the lines it was made on;
    with a board run twice (R66), the same hole cards' hand on the second run."""

    cards: list[str]
    hand: str
    lines: list[str] | None = None
    second_run: ShownHand | None = None
    low: ShownHand | None = None  # R80: the same cards' qualifying low, in a hi-lo game

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cards": self.cards, "hand": self.hand}
        if self.lines is not None:
            out["lines"] = self.lines
        if self.second_run is not None:
            out["second_run"] = self.second_run.to_json()
        if self.low is not None:
            out["low"] = self.low.to_json()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ShownHand:
        second = data.get("second_run")
        low = data.get("low")
        return cls(cards=list(data.get("cards", [])), hand=data["hand"],
                   lines=data.get("lines"),
                   second_run=cls.from_json(second) if isinstance(second, dict) else None,
                   low=cls.from_json(low) if isinstance(low, dict) else None)


@dataclass
class Result:
    """What every game's result has; ``None`` is "not part of this result"."""

    payouts: dict[str, int] = field(default_factory=dict)  # name -> chips won this deal
    # every share-out in order; None only in a result stored before pots were (issue 13)
    pots: list[PotShare] | None = field(default_factory=list)
    hands: dict[str, ShownHand] | None = None  # the hands shown, by name
    winners: list[str] | None = None
    winning_lines: list[str] | None = None
    uncontested: bool | None = None  # True: everyone else folded (R29)
    mucked: list[str] | None = None  # the hands mucked at the showdown, in seat order
    # name -> what each player dealt in won or lost in the deal: their stack after it less
    # their stack before (a payout counts the player's own chips back; this does not)
    net: dict[str, int] | None = None

    def add_pot(self, pot: PotShare) -> None:
        if self.pots is None:
            self.pots = []
        self.pots.append(pot)

    @property
    def last_pot(self) -> PotShare:
        assert self.pots, "no pot shared out yet"
        return self.pots[-1]

    def bet_pots(self) -> list[PotShare]:
        """The pot layers of the bets that held chips (not a carried pot shared out)."""
        return [p for p in self.pots or () if p.kind == BET_POT and p.amount]

    def shown(self, name: str) -> ShownHand | None:
        return (self.hands or {}).get(name)

    def to_json(self) -> dict[str, Any]:
        """The JSON, written field by field (the state carries it on every tap after a
        showdown): the pots and hands as theirs, each field a subclass adds as :func:`plain`
        gives it, a field that is ``None`` left out. It shares the result's lists and dicts:
        it is encoded at once, never changed."""
        out: dict[str, Any] = {"payouts": self.payouts}
        if self.pots is not None:
            out["pots"] = [pot.to_json() for pot in self.pots]
        if self.hands is not None:
            out["hands"] = {name: hand.to_json() for name, hand in self.hands.items()}
        for key in _BASE_PLAIN:
            value = self.__dict__[key]
            if value is not None:
                out[key] = value
        for key in self._own_fields():
            value = self.__dict__[key]
            if value is not None:
                out[key] = plain(value)
        return out

    @classmethod
    def _own_fields(cls) -> tuple[str, ...]:
        """The fields a subclass adds, in order (worked out once per class)."""
        own = _OWN_FIELDS.get(cls)
        if own is None:
            own = _OWN_FIELDS[cls] = tuple(
                f.name for f in dataclasses.fields(cls) if f.name not in _BASE_FIELDS)
        return own

    def copy(self) -> Self:
        """A copy that shares nothing mutable with this result (``Deal.clone``)."""
        twin: Self = copied(self)
        return twin

    @classmethod
    def fields_from_json(cls, data: dict[str, Any]) -> dict[str, Any]:
        """The base fields of ``data``; a subclass adds its own (:meth:`from_json`)."""
        pots = data.get("pots")
        hands = data.get("hands")
        return {
            "payouts": dict(data.get("payouts", {})),
            "pots": [PotShare.from_json(p) for p in pots] if pots is not None else None,
            "hands": ({name: ShownHand.from_json(h) for name, h in hands.items()}
                      if hands is not None else None),
            "winners": data.get("winners"),
            "winning_lines": data.get("winning_lines"),
            "uncontested": data.get("uncontested"),
            "mucked": data.get("mucked"),
            "net": dict(data["net"]) if data.get("net") is not None else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        """A result as :meth:`to_json` gave it, or as an older release stored it (keys it
        does not know are left out)."""
        return cls(**cls.fields_from_json(data))


_OWN_FIELDS: dict[type[Result], tuple[str, ...]] = {}  # a subclass's own fields, in order
_BASE_FIELDS = frozenset(f.name for f in dataclasses.fields(Result))
# already JSON as they are
_BASE_PLAIN = ("winners", "winning_lines", "uncontested", "mucked", "net")
