"""Cards as the dealer types them, in every form R1 accepts.

A card is kept in its canonical two-letter form (``"Th"``, ``"As"``); a joker is ``"X1"`` or
``"X2"``. A game of bought cards records a player's card by rank alone (R23): that is a
one-letter ``"K"``.

>>> parse_card("10♥")
'Th'
>>> parse_card("as")
'As'
>>> parse_cards("As Kd, 7h")
['As', 'Kd', '7h']
>>> try:
...     parse_card("Zz")
... except BadCardError as err:
...     print(err)
"Zz" is not a card: write a rank (2-9, T, J, Q, K, A) and a suit (c, d, h, s), e.g. "Th".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

from dealer_assist.core.errors import BadCardError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
JOKERS = ("X1", "X2")
SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}
RANK_NAMES = {
    "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace",
}
RANK_PLURALS = {r: n + ("es" if n == "six" else "s") for r, n in RANK_NAMES.items()}

FULL_DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
#: the 36-card deck of six to ace (R79, R87)
SHORT_DECK: tuple[str, ...] = tuple(c for c in FULL_DECK if RANKS.index(c[0]) >= RANKS.index("6"))

_HINT = 'write a rank (2-9, T, J, Q, K, A) and a suit (c, d, h, s), e.g. "Th"'


def grammar() -> dict[str, dict[str, str]]:
    """The forms :func:`parse_card` reads, as data for the pages (their typed-card boxes read
    cards by these tables instead of by rules of their own): the upper-cased text of a rank,
    the last character of a suit, and the jokers, each to its canonical form."""
    ranks = {r: r for r in RANKS} | {"10": "T", "1O": "T"}
    suits = {s: s for s in SUITS} | {s.upper(): s for s in SUITS} | SUIT_SYMBOLS
    jokers = {j: j for j in JOKERS} | {"JOKER1": "X1", "JOKER2": "X2"}
    return {"ranks": ranks, "suits": suits, "jokers": jokers}


def rank_value(card: str) -> int:
    """2 for a deuce up to 14 for an ace (aces high, R56)."""
    return RANKS.index(card[0]) + 2


def _normalise_rank(text: str) -> str | None:
    return _GRAMMAR["ranks"].get(text.upper())


def parse_card(text: object, *, jokers: bool = False, rank_only: bool = False) -> str:
    """The canonical form of one card; raises :class:`BadCardError` naming the bad text.

    ``rank_only`` also accepts a bare rank (bought cards as dealt, R23) and returns it as
    one upper-case letter. ``jokers`` accepts ``X1``/``X2`` (a game with wild jokers).
    """
    if not isinstance(text, str):
        raise BadCardError(f"{text!r} is not a card: {_HINT}.")
    raw = text.strip()
    if not raw or len(raw) > 8:
        raise BadCardError(f'"{raw[:20]}" is not a card: {_HINT}.')
    upper = raw.upper()
    if upper in JOKERS or upper in ("JOKER1", "JOKER2"):
        if not jokers:
            raise BadCardError(f'"{raw}" is a joker, and this table plays without jokers.')
        return "X" + upper[-1]
    last = raw[-1]
    suit = SUIT_SYMBOLS.get(last) or (last.lower() if last.lower() in SUITS else None)
    if suit is not None and len(raw) >= 2:
        rank = _normalise_rank(raw[:-1])
        if rank is not None:
            return rank + suit
    if rank_only:
        rank = _normalise_rank(raw)
        if rank is not None:
            return rank
    raise BadCardError(f'"{raw}" is not a card: {_HINT}.')


_GRAMMAR = grammar()
_SPLIT = re.compile(r"[\s,;]+")


def parse_cards(
    cards: object, *, jokers: bool = False, rank_only: bool = False
) -> list[str]:
    """A list of cards from a list or from typed text such as ``"As Kd 10h"``."""
    if isinstance(cards, str):
        items: Iterable[object] = [c for c in _SPLIT.split(cards.strip()) if c]
    elif isinstance(cards, list | tuple):
        items = cards
    else:
        raise BadCardError(f"{cards!r} is not a list of cards: write them like \"As Kd\".")
    return [parse_card(c, jokers=jokers, rank_only=rank_only) for c in items]


class Wilds(StrEnum):
    """R54: which cards are wild (the house rule ``wilds``)."""

    NONE = "none"
    JOKERS = "jokers"
    DEUCES = "deuces"


def is_wild(card: str, wilds: Wilds) -> bool:
    """Whether ``card`` is wild under ``rules.wilds`` (R54)."""
    if wilds == Wilds.JOKERS:
        return card in JOKERS
    if wilds == Wilds.DEUCES:
        return card[0] == "2"
    return False


def deck(*, jokers: bool = False) -> tuple[str, ...]:
    """The deck a game is played with: 52 cards, plus two jokers where they are wild (R1)."""
    return FULL_DECK + JOKERS if jokers else FULL_DECK


def deck_ranks(cards: Iterable[str]) -> list[str]:
    """The ranks of a deck, its lowest (2, or 6 in the short deck) to ace."""
    held = {c[0] for c in cards}
    return [r for r in RANKS if r in held]


def deck_refusal(cards: tuple[str, ...], game_name: str, card: str) -> str | None:
    """Why ``card`` (a card or a rank) is not in ``cards``, the deck of the game called
    ``game_name``; None where it is."""
    if cards is FULL_DECK or card in JOKERS or card[0] in deck_ranks(cards):
        return None
    lowest = RANK_NAMES[deck_ranks(cards)[0]]
    what = pretty(card) if len(card) == 2 else f"A {RANK_NAMES[card[0]]}"
    return (f"{what} is not in the deck of {game_name}: its {len(cards)} cards run from "
            f"{lowest} to ace.")


def card_name(card: str) -> str:
    """Plain words for a card: ``"ten of hearts"``."""
    if card in JOKERS:
        return "joker"
    suit = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}.get(card[1:], "")
    return f"{RANK_NAMES[card[0]]} of {suit}" if suit else RANK_NAMES[card[0]]


def pretty(card: str) -> str:
    """``"T♥"`` for ``"Th"``: how the pages show a card."""
    if card in JOKERS or len(card) == 1:
        return card
    return card[0] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[card[1]]
