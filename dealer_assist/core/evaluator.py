"""The five-card scores behind :mod:`dealer_assist.core.hands`, from one of two backends.

``pure`` (the default, pure Python, runs anywhere) and ``eval7`` (a C evaluator, an optional
speed-up: ``pip install "dealer-assist[fast]"``) give the very same score to every hand, so
nothing that reads a score can tell them apart. A score is eval7's layout: ``type << 24``
plus up to five 4-bit rank indices (0 = deuce .. 12 = ace) from bit 16 down, in reading order
(the trips before the pair); type 0 is a high card .. 8 a straight flush.

``DEALER_ASSIST_EVALUATOR`` chooses: ``auto`` (eval7 when it imports, else pure), ``pure`` or
``eval7``.

>>> pure = load("pure")
>>> hex(pure.evaluate(["As", "Ad", "Th", "Ac", "4s", "4d", "Kc"]))
'0x6c2000'
>>> pure.evaluate(["5h", "4d", "3c", "2s", "Ah"]) == (4 << 24) | (3 << 16)
True

The pure backend ranks any 5 to 9 cards at once: the ranks' multiset decides every hand but
the flush, so its best score is computed once per multiset and memoised; a flush needs five
cards of one suit, and the ranks of that suit are looked up the same way. That is one dict
look-up per hand instead of 21 five-card evaluations.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import combinations, combinations_with_replacement
from typing import Any

from dealer_assist.core.cards import FULL_DECK, RANKS, SUITS
from dealer_assist.core.errors import SetupError

__all__ = ["ENV_VAR", "Backend", "Evaluator", "available", "load", "warm_up"]

ENV_VAR = "DEALER_ASSIST_EVALUATOR"


class Backend(Enum):
    PURE = "pure"
    EVAL7 = "eval7"


@dataclass(frozen=True)
class Evaluator:
    """``evaluate(cards)``: the score of the best five of 5 to 9 distinct natural cards."""

    backend: Backend
    evaluate: Callable[[Sequence[str]], int]


# --------------------------------------------------------------------------------------------
# The pure backend.

_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL_HOUSE, _QUADS, _STRAIGHT_FLUSH = range(9)

#: Each card's part of a hand's sum: a count of its rank (3 bits a rank, from bit 0) and of its
#: suit (4 bits a suit, from bit 40). Every count of a hand of 9 cards fits its field.
_SUIT_SHIFT = 40
_CARD_SUM: dict[str, int] = {
    r + s: (1 << (3 * ri)) | (1 << (_SUIT_SHIFT + 4 * si))
    for ri, r in enumerate(RANKS)
    for si, s in enumerate(SUITS)
}
_RANK_FIELD = (1 << _SUIT_SHIFT) - 1
#: Three added to each suit count sets its top bit exactly when the suit has five cards or more.
_SUIT_BIAS = 0x3333
_FIVE_OF_A_SUIT = 0x8888
_RANK_BIT: dict[str, int] = {c: 1 << RANKS.index(c[0]) for c in FULL_DECK}

#: Rank mask of each straight and its top rank, the best (ace high) first; the wheel is last.
_STRAIGHTS: tuple[tuple[int, int], ...] = (
    *((0b11111 << (top - 4), top) for top in range(12, 3, -1)),
    ((1 << 12) | 0b1111, 3),
)


def _pack(kind: int, ranks: Sequence[int]) -> int:
    score = kind << 24
    for i, r in enumerate(ranks):
        score |= r << (16 - 4 * i)
    return score


def _top_straight(mask: int) -> int | None:
    for window, top in _STRAIGHTS:
        if mask & window == window:
            return top
    return None


def _multiset_score(key: int) -> int:
    """Best score of the cards whose rank counts ``key`` holds, a flush left aside."""
    counts = [(key >> (3 * r)) & 7 for r in range(13)]
    by_count = sorted((r for r in range(13) if counts[r]), key=lambda r: (counts[r], r),
                      reverse=True)
    top = by_count[0]
    rest = sorted(by_count[1:], reverse=True)  # other ranks held, highest first
    mask = sum(1 << r for r in by_count)
    if counts[top] >= 4:
        return _pack(_QUADS, (top, rest[0]))
    if counts[top] == 3:
        pairs = [r for r in rest if counts[r] >= 2]
        if pairs:
            return _pack(_FULL_HOUSE, (top, pairs[0]))
    straight = _top_straight(mask)
    if straight is not None:
        return _pack(_STRAIGHT, (straight,))
    if counts[top] == 3:
        return _pack(_TRIPS, (top, *rest[:2]))
    if counts[top] == 2:
        second = by_count[1]
        if counts[second] == 2:
            kickers = sorted((r for r in by_count if r not in (top, second)), reverse=True)
            return _pack(_TWO_PAIR, (top, second, kickers[0]))
        return _pack(_PAIR, (top, *rest[:3]))
    return _pack(_HIGH, by_count[:5])  # all single: highest first


def _suit_score(mask: int) -> int:
    """Best score of five or more cards of one suit whose ranks ``mask`` holds."""
    straight = _top_straight(mask)
    if straight is not None:
        return _pack(_STRAIGHT_FLUSH, (straight,))
    return _pack(_FLUSH, [r for r in range(12, -1, -1) if mask >> r & 1][:5])


_MULTISET_SCORES: dict[int, int] = {}
_SUIT_SCORES: dict[int, int] = {}


def _pure_evaluate(cards: Sequence[str]) -> int:
    total = sum(map(_CARD_SUM.__getitem__, cards))
    key = total & _RANK_FIELD
    score = _MULTISET_SCORES.get(key)
    if score is None:
        score = _MULTISET_SCORES[key] = _multiset_score(key)
    suits = (total >> _SUIT_SHIFT) + _SUIT_BIAS
    if suits & _FIVE_OF_A_SUIT:  # rare (3% of 7-card hands); may beat even four of a kind
        nibble = (suits & _FIVE_OF_A_SUIT).bit_length() // 4 - 1
        suit = SUITS[nibble]
        mask = 0
        for c in cards:
            if c[1] == suit:
                mask |= _RANK_BIT[c]
        flush = _SUIT_SCORES.get(mask)
        if flush is None:
            flush = _SUIT_SCORES[mask] = _suit_score(mask)
        score = max(score, flush)
    return score


def warm_up() -> None:
    """Fill the pure backend's tables for every hand of 5 to 7 cards (74k rank multisets,
    about 0.7 s), so that no showdown pays for them: the server does it in the background as
    it starts. Hands of 8 and 9 cards are still memoised as they come.
    """
    for size in (5, 6, 7):
        for ranks in combinations_with_replacement(range(13), size):
            key = sum(1 << (3 * r) for r in ranks)
            if key not in _MULTISET_SCORES and all(ranks.count(r) <= 4 for r in set(ranks)):
                _MULTISET_SCORES[key] = _multiset_score(key)
        for ranks in combinations(range(13), size):
            mask = sum(1 << r for r in ranks)
            if mask not in _SUIT_SCORES:
                _SUIT_SCORES[mask] = _suit_score(mask)


# --------------------------------------------------------------------------------------------
# The eval7 backend (ranks up to 7 cards at once: the best of their 7-card groups beyond).


def _eval7_evaluator() -> Evaluator:
    import eval7  # optional: imported only when asked for

    as_e7 = {c: eval7.Card(c) for c in FULL_DECK}.__getitem__
    e7_evaluate: Callable[[list[Any]], int] = eval7.evaluate  # eval7 has no type hints

    def evaluate(cards: Sequence[str]) -> int:
        if len(cards) <= 7:
            return e7_evaluate(list(map(as_e7, cards)))
        return max(e7_evaluate(list(map(as_e7, sub))) for sub in combinations(cards, 7))

    return Evaluator(Backend.EVAL7, evaluate)


_PURE = Evaluator(Backend.PURE, _pure_evaluate)


def available() -> list[Backend]:
    """The backends that load here: pure always, eval7 when it is installed."""
    out = [Backend.PURE]
    try:
        _eval7_evaluator()
    except ImportError:
        pass
    else:
        out.append(Backend.EVAL7)
    return out


def load(name: str | None = None) -> Evaluator:
    """The backend ``name`` (or ``$DEALER_ASSIST_EVALUATOR``, or ``auto``) stands for.

    >>> load("fast")
    Traceback (most recent call last):
    ...
    dealer_assist.core.errors.SetupError: "fast" is not an evaluator: use "auto", "pure" or "eval7".
    """
    choice = (name or os.environ.get(ENV_VAR) or "auto").strip().lower()
    if choice == "auto":
        try:
            return _eval7_evaluator()
        except ImportError:
            return _PURE
    if choice == Backend.PURE.value:
        return _PURE
    if choice == Backend.EVAL7.value:
        try:
            return _eval7_evaluator()
        except ImportError as err:
            raise SetupError(
                'The eval7 evaluator is not installed: pip install "dealer-assist[fast]".'
            ) from err
    raise SetupError(f'"{choice}" is not an evaluator: use "auto", "pure" or "eval7".')
