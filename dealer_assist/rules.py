"""The five games, their player counts and their house rules with defaults (RULES.md).

>>> r = HouseRules.for_variant("texas_dozen", {"big_blind": 4})
>>> (r.small_blind, r.big_blind, r.betting)
(1, 4, 'no_limit')
>>> HouseRules.for_variant("kings_pot", {"betting": "pot_limit"})
Traceback (most recent call last):
...
dealer_assist.errors.SetupError: King's Pot is played no_limit or fixed_limit, not pot_limit.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from functools import cached_property
from typing import Any

from dealer_assist.errors import SetupError

VARIANT_NAMES: dict[str, str] = {
    "kings_pot": "King's Pot",
    "kings_pot_optional": "King's Pot Optional Play",
    "texas_dozen": "Texas Dozen",
    "off_road_stud": "Off-Road Stud",
    "twenty_one_hand_holdem": "21 Hand Hold'em",
}
VARIANTS = tuple(VARIANT_NAMES)
KINGS_POT_VARIANTS = ("kings_pot", "kings_pot_optional")

# R20, R30, R40, R50
PLAYER_RANGE: dict[str, tuple[int, int]] = {
    "kings_pot": (3, 22),
    "kings_pot_optional": (3, 22),
    "texas_dozen": (2, 13),
    "off_road_stud": (2, 12),
    "twenty_one_hand_holdem": (2, 8),
}

# R5: pot_limit only in Texas Dozen and Off-Road Stud.
BETTING_STRUCTURES: dict[str, tuple[str, ...]] = {
    "kings_pot": ("no_limit", "fixed_limit"),
    "kings_pot_optional": ("no_limit", "fixed_limit"),
    "texas_dozen": ("no_limit", "fixed_limit", "pot_limit"),
    "off_road_stud": ("no_limit", "fixed_limit", "pot_limit"),
    "twenty_one_hand_holdem": (),
}

MAX_CHIPS = 10**9  # no home game needs more; keeps sums exact and pages readable
HANDS_PER_GAME = 21  # R50


@dataclass(frozen=True)
class HouseRules:
    """Every house rule of RULES.md with its default. Unknown names are refused."""

    ante: int = 1
    betting: str = "no_limit"
    min_bet: int = 1
    small_bet: int = 1
    big_bet: int = 2
    small_blind: int = 1
    big_blind: int = 2
    odd_chip: str = "left_of_dealer"
    river_raise: bool = False
    wilds: str = "none"
    buy_in: int = 100
    draw_for_blind: bool = False  # 21 Hand Hold'em: the low-card draw for the first blind (R51)

    @classmethod
    def for_variant(cls, variant: str, given: dict[str, Any] | None) -> HouseRules:
        """The table's rules: the defaults of ``variant`` with ``given`` laid over them."""
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
        values: dict[str, Any] = {}
        if variant == "texas_dozen":
            values["ante"] = 0  # R30: the ante is optional in Texas Dozen
        if variant == "twenty_one_hand_holdem":
            values["buy_in"] = 4  # R50
        values.update(given)
        if "big_bet" not in given and "small_bet" in given:
            values["big_bet"] = 2 * _whole(given["small_bet"], "small_bet", 1)
        for name in ("ante", "min_bet", "small_bet", "big_bet", "small_blind", "big_blind",
                     "buy_in"):
            values[name] = _whole(values.get(name, getattr(cls, name)), name,
                                   0 if name in ("ante", "small_blind") else 1)
        for name in ("river_raise", "draw_for_blind"):
            if not isinstance(values.get(name, False), bool):
                raise SetupError(f"{name} must be true or false.")
        rules = cls(**values)
        rules._check(variant)
        return rules

    def _check(self, variant: str) -> None:
        game = VARIANT_NAMES[variant]
        allowed = BETTING_STRUCTURES[variant]
        if allowed and self.betting not in allowed:
            raise SetupError(f"{game} is played {' or '.join(allowed)}, not {self.betting}.")
        if self.odd_chip not in ("left_of_dealer", "carry"):
            raise SetupError("odd_chip must be left_of_dealer or carry.")
        if self.wilds not in ("none", "jokers", "deuces"):
            raise SetupError("wilds must be none, jokers or deuces.")
        if self.wilds != "none" and variant != "twenty_one_hand_holdem":
            raise SetupError(f"Wild cards are a 21 Hand Hold'em rule, not {game}'s.")
        if self.big_bet < self.small_bet:
            raise SetupError("big_bet cannot be smaller than small_bet.")
        if self.big_blind < self.small_blind:
            raise SetupError("big_blind cannot be smaller than small_blind.")
        if variant in KINGS_POT_VARIANTS and self.ante < 1:
            raise SetupError("King's Pot needs an ante of at least 1 per card (R22).")

    def to_json(self) -> dict[str, Any]:
        return dict(self._json)

    @cached_property
    def _json(self) -> dict[str, Any]:  # every state carries the rules: worked out once
        return asdict(self)


def _whole(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SetupError(f"{name} must be a whole number of chips, not {value!r}.")
    if value < minimum or value > MAX_CHIPS:
        raise SetupError(f"{name} must be from {minimum} to {MAX_CHIPS:,} chips, not {value}.")
    return value


def max_cards_per_player(players: int) -> int:
    """R22: how many cards each player may buy in King's Pot."""
    if players <= 3:
        return 7
    if players == 4:
        return 5
    if players == 5:
        return 4
    if players <= 7:
        return 3
    if players <= 11:
        return 2
    return 1
