"""The house rules with their defaults (RULES.md), checked against what a game allows.

A game (``dealer_assist.games``) is a :class:`GameRules`: its name, the betting structures it is
played with, its own defaults, and a hook for the checks only it makes.

>>> class Plain(GameRules):
...     name = "A plain game"
...     betting_structures = (Betting.NO_LIMIT,)
...     rule_defaults = {"ante": 0}
>>> r = HouseRules.for_game(Plain, {"big_blind": 4})
>>> (r.ante, r.small_blind, r.big_blind, r.betting is Betting.NO_LIMIT, r.to_json()["betting"])
(0, 1, 4, True, 'no_limit')
>>> HouseRules.for_game(Plain, {"betting": "pot_limit"})
Traceback (most recent call last):
...
dealer_assist.core.errors.SetupError: A plain game is played no_limit, not pot_limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from enum import Enum, StrEnum
from functools import cached_property, lru_cache
from typing import Any, ClassVar, TypeVar

from dealer_assist.core.cards import Wilds
from dealer_assist.core.errors import SetupError


class GameRules:
    """What the house rules need to know of a game; ``games.Game`` is one."""

    name: ClassVar[str] = ""
    betting_structures: ClassVar[tuple[Betting, ...]] = ()  # R5; empty: no betting
    rule_defaults: ClassVar[Mapping[str, Any]] = {}  # the game's defaults over HouseRules'
    wild_cards: ClassVar[bool] = False  # whether ``wilds`` may be other than none

    @classmethod
    def check_rules(cls, rules: HouseRules) -> None:
        """The game's own checks; raise :class:`SetupError` with a sentence."""


MAX_CHIPS = 10**9  # no home game needs more; keeps sums exact and pages readable


# The house rules that are a choice of words: strings, so the JSON stays the same
class Betting(StrEnum):
    """R5: how much a bet or raise may be."""

    NO_LIMIT = "no_limit"
    POT_LIMIT = "pot_limit"
    FIXED_LIMIT = "fixed_limit"


class OddChip(StrEnum):
    """R7: where the odd chips of a split go."""

    LEFT_OF_DEALER = "left_of_dealer"
    CARRY = "carry"


_E = TypeVar("_E", bound=StrEnum)


def _choice(kind: type[_E], value: Any, sentence: str) -> _E:
    try:
        return kind(value)
    except (ValueError, TypeError):  # TypeError: a list or an object, unhashable
        raise SetupError(sentence) from None


@dataclass(frozen=True)
class HouseRules:
    """Every house rule of RULES.md with its default. Unknown names are refused."""

    ante: int = 1
    betting: Betting = Betting.NO_LIMIT
    min_bet: int = 1
    small_bet: int = 1
    big_bet: int = 2
    small_blind: int = 1
    big_blind: int = 2
    big_blind_ante: int = 0  # R64: one ante for the table, posted by the big blind
    straddle: bool = False  # R63: left of the big blind posts twice it, a live blind
    # R65: what each player antes in a bomb pot the dealer calls (0: twice the big blind); the
    # between-deals screen offers it, or the last bomb pot's
    bomb_pot_ante: int = 0
    # R81: the forced bet of the first round's opener where a game opens by the up cards
    # (0: half the small bet, rounded down, at least 1; ``bring_in_chips``)
    bring_in: int = 0
    odd_chip: OddChip = OddChip.LEFT_OF_DEALER
    river_raise: bool = False
    wilds: Wilds = Wilds.NONE
    buy_in: int = 100
    draw_for_blind: bool = False  # the low-card draw for the first blind (R51)
    banker: str | None = None  # R76: the seated player who holds the table's chips in cash

    @classmethod
    def for_game(cls, game: type[GameRules], given: dict[str, Any] | None) -> HouseRules:
        """The table's rules: the defaults of ``game`` with ``given`` laid over them."""
        if given is None:
            given = {}
        if not isinstance(given, dict):
            raise SetupError('rules must be an object such as {"ante": 2}.')
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(given) - known)
        if unknown:
            raise SetupError(
                f"Unknown house rule {unknown[0]!r}: the rules are {', '.join(sorted(known))}."
            )
        values: dict[str, Any] = dict(game.rule_defaults)
        values.update(given)
        if "big_bet" not in given and "small_bet" in given:
            values["big_bet"] = 2 * _whole(given["small_bet"], "small_bet", 1)
        for name in ("ante", "min_bet", "small_bet", "big_bet", "small_blind", "big_blind",
                     "big_blind_ante", "bomb_pot_ante", "bring_in", "buy_in"):
            values[name] = _whole(values.get(name, getattr(cls, name)), name,
                                   0 if name in ("ante", "small_blind", "big_blind_ante",
                                                 "bomb_pot_ante", "bring_in") else 1)
        banker = values.get("banker")
        if banker is not None and (not isinstance(banker, str) or not banker.strip()
                                   or len(banker) > 80):
            raise SetupError("banker must be the name of a player at the table.")
        for name in ("river_raise", "draw_for_blind", "straddle"):
            if not isinstance(values.get(name, False), bool):
                raise SetupError(f"{name} must be true or false.")
        allowed = game.betting_structures
        betting = values.get("betting", cls.betting)
        if allowed and betting not in allowed:
            raise SetupError(
                f"{game.name} is played {' or '.join(allowed)}, not {str(betting)[:40]}.")
        values["betting"] = _choice(Betting, betting, "betting must be no_limit, pot_limit "
                                                      "or fixed_limit.")
        values["odd_chip"] = _choice(OddChip, values.get("odd_chip", cls.odd_chip),
                                     "odd_chip must be left_of_dealer or carry.")
        values["wilds"] = _choice(Wilds, values.get("wilds", cls.wilds),
                                  "wilds must be none, jokers or deuces.")
        rules = cls(**values)
        rules._check(game)
        game.check_rules(rules)
        return rules

    @property
    def bring_in_chips(self) -> int:
        """The bring-in posted (R81): the rule, or half the small bet, at least 1."""
        return self.bring_in or max(1, self.small_bet // 2)

    def _check(self, game: type[GameRules]) -> None:
        if not game.betting_structures and self.betting != HouseRules.betting:
            raise SetupError(f"{game.name} has no betting structure: leave betting out.")
        if self.wilds != Wilds.NONE and not game.wild_cards:
            raise SetupError(f"Wild cards are not a rule of {game.name}.")
        if self.big_bet < self.small_bet:
            raise SetupError("big_bet cannot be smaller than small_bet.")
        if self.big_blind < self.small_blind:
            raise SetupError("big_blind cannot be smaller than small_blind.")
        if self.ante and self.big_blind_ante:  # R64: one or the other
            raise SetupError(f"Choose an ante or a big-blind ante, not both: ante is "
                             f"{self.ante} and big_blind_ante {self.big_blind_ante}.")

    def to_json(self) -> dict[str, Any]:
        return dict(self._json)

    @cached_property
    def _json(self) -> dict[str, Any]:  # every state carries the rules: worked out once
        # no banker named: the host holds the table's chips (R76), and the rules read as before
        return {k: v.value if isinstance(v, Enum) else v for k, v in asdict(self).items()
                if k != "banker" or v is not None}


class RuleKind(StrEnum):
    """How a house rule is entered: a number of chips, one of a few words, or on/off."""

    CHIPS = "chips"
    CHOICE = "choice"
    BOOL = "bool"
    PLAYER = "player"  # one of the table's players, or none (``RuleSpec.nobody``)


@dataclass(frozen=True)
class RuleSpec:
    """One house rule as the pages offer it: declared once here, embedded in every page
    (``rules_vocabulary``), so that the home page and the between-deals screen render from
    it and copy none of it. A game lists the rules it reads (``Game.house_rules``) and may
    say a rule's help in its own words (``Game.rule_help``)."""

    name: str
    label: str  # "Minimum bet"
    kind: RuleKind
    short: str = ""  # in a line of rules: "min bet 2"; "" where the label, lowered, says it
    help: str = ""
    minimum: int = 0
    # (value, label, in a line of rules): the first choice is the plain one, left out of a line
    choices: tuple[tuple[str, str, str], ...] = ()
    betting: tuple[Betting, ...] = ()  # the structures it applies to; () for any
    # a rule of the table, not of a game (who holds the cash): the home page offers it with
    # every game, and no game lists it in ``Game.house_rules``
    every_game: bool = False
    nobody: str = ""  # a player rule left unset: who it falls to ("The host")

    def applies(self, betting: str | None) -> bool:
        """Whether the rule is read under ``betting`` (None: the game has no betting)."""
        return not self.betting or betting is None or betting in self.betting

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "label": self.label,
                               "kind": self.kind.value, "help": self.help,
                               "betting": [b.value for b in self.betting] or None,
                               "every_game": self.every_game}
        if self.kind is RuleKind.CHIPS:
            out["min"] = self.minimum
        if self.choices:
            out["choices"] = [{"value": v, "label": label} for v, label, _ in self.choices]
        if self.kind is RuleKind.PLAYER:
            out["nobody"] = self.nobody
        return out


_NO_OR_POT = (Betting.NO_LIMIT, Betting.POT_LIMIT)

# Every house rule, in the order the pages show them.
RULE_SPECS: tuple[RuleSpec, ...] = (
    RuleSpec("ante", "Ante", RuleKind.CHIPS),
    RuleSpec("betting", "Betting", RuleKind.CHOICE, choices=(
        (Betting.NO_LIMIT.value, "No limit", "No limit"),
        (Betting.FIXED_LIMIT.value, "Fixed limit", "Fixed limit"),
        (Betting.POT_LIMIT.value, "Pot limit", "Pot limit"))),
    RuleSpec("min_bet", "Minimum bet", RuleKind.CHIPS, short="min bet", minimum=1,
             betting=_NO_OR_POT),
    RuleSpec("small_bet", "Small bet", RuleKind.CHIPS, help="early rounds", minimum=1,
             betting=(Betting.FIXED_LIMIT,)),
    RuleSpec("big_bet", "Big bet", RuleKind.CHIPS, help="later rounds", minimum=1,
             betting=(Betting.FIXED_LIMIT,)),
    RuleSpec("small_blind", "Small blind", RuleKind.CHIPS),
    RuleSpec("big_blind", "Big blind", RuleKind.CHIPS, minimum=1),
    RuleSpec("straddle", "Straddle", RuleKind.BOOL, betting=_NO_OR_POT,
             help="left of the big blind posts twice it, and acts last pre-flop"),
    RuleSpec("big_blind_ante", "Big-blind ante", RuleKind.CHIPS, short="big-blind ante",
             help="one ante for the whole table, posted by the big blind (0 = none)"),
    RuleSpec("bomb_pot_ante", "Bomb pot", RuleKind.CHIPS, short="bomb pots of",
             help="each player's ante when the dealer calls a bomb pot (0 = twice the big "
                  "blind)"),
    RuleSpec("bring_in", "Bring-in", RuleKind.CHIPS, short="bring-in",
             betting=(Betting.FIXED_LIMIT,),
             help="the first round's forced bet by the up cards (0 = half the small bet)"),
    RuleSpec("odd_chip", "Odd chip of a split pot", RuleKind.CHOICE, choices=(
        (OddChip.LEFT_OF_DEALER.value, "Left of the dealer", ""),
        (OddChip.CARRY.value, "Carries to the next deal", "odd chips carry"))),
    RuleSpec("buy_in", "Starting stack", RuleKind.CHIPS, help="every player's buy-in",
             minimum=1),
    RuleSpec("river_raise", "River raise", RuleKind.BOOL,
             help="anyone still in may raise by 1 once a hand"),
    RuleSpec("wilds", "Wild cards", RuleKind.CHOICE, choices=(
        (Wilds.NONE.value, "None", ""), (Wilds.JOKERS.value, "Two jokers", "jokers wild"),
        (Wilds.DEUCES.value, "Deuces", "deuces wild"))),
    RuleSpec("draw_for_blind", "Draw for the first blind", RuleKind.BOOL,
             help="lowest card takes it; else the first player listed"),
    RuleSpec("banker", "Banker", RuleKind.PLAYER, every_game=True, nobody="The host",
             help="holds in cash the chips the table keeps between deals, and pays them out"),
)
RULE_SPEC: dict[str, RuleSpec] = {spec.name: spec for spec in RULE_SPECS}


def rules_vocabulary() -> list[dict[str, Any]]:
    """Every house rule as the pages read it (embedded as ``rules_vocabulary``)."""
    return [spec.to_json() for spec in RULE_SPECS]


def rules_line(rules: Mapping[str, Any]) -> str:
    """The rules a game reads, in a line, as the between-deals screen lists a game:
    "No limit · blinds 1/2 · ante 1". Rules at their "nothing" (an ante of 0, no wild cards,
    a switch off) and rules the betting structure does not read are left out."""
    try:
        return _rules_line(tuple(rules.items()))
    except TypeError:  # a value that cannot be hashed: worked out afresh
        return _rules_line.__wrapped__(tuple(rules.items()))


@lru_cache(maxsize=1024)  # every between-deals state lists every game's line; few differ
def _rules_line(items: tuple[tuple[str, Any], ...]) -> str:
    rules = dict(items)
    betting = rules.get("betting")
    bits: list[str] = []
    if betting is not None:
        bits.append(_choice_words(RULE_SPEC["betting"], betting))
    if "small_blind" in rules and "big_blind" in rules:
        bits.append(f"blinds {rules['small_blind']}/{rules['big_blind']}")
    for spec in RULE_SPECS:
        if spec.name in ("betting", "small_blind", "big_blind", "buy_in") or (
                spec.name not in rules or not spec.applies(betting)
                or spec.kind is RuleKind.PLAYER):  # who holds the cash is no game's rule
            continue
        value = rules[spec.name]
        short = spec.short or spec.label.lower()
        if spec.kind is RuleKind.BOOL:
            if value:
                bits.append(short)
        elif spec.kind is RuleKind.CHOICE:
            if value != spec.choices[0][0]:  # the first choice is the plain one
                bits.append(_choice_words(spec, value))
        elif value:
            bits.append(f"{short} {value}")
    return " · ".join(bits)


def _choice_words(spec: RuleSpec, value: Any) -> str:
    return next((words for v, _, words in spec.choices if v == value), str(value))


def _whole(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupError(f"{name} must be a whole number of chips, not {_shown(value)}.")
    if value < minimum or value > MAX_CHIPS:
        raise SetupError(f"{name} must be from {minimum} to {MAX_CHIPS:,} chips, not "
                         f"{_shown(value)}.")
    return value


def _shown(value: Any) -> str:
    """A refused value as a sentence may quote it: short (a 70 KB string, or a number of
    thousands of digits that str() itself refuses, is not echoed)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**15:
        return "a number that large"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."

