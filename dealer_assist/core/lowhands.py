"""Low hands (R79): ace-to-five, eight-or-better, deuce-to-seven and four-card lows of four
suits.

Every rule gives a :class:`LowValue` whose ``score`` is higher for the better low, as a high
hand's is, so a showdown takes the best by ``max`` either way; scores compare across every hand
of one rule (never across rules). ``cards`` are the cards the hand plays, read from the top;
``words`` is the hand as the pages say it.

>>> best_low(["8h", "6d", "4c", "2s", "As", "Kd", "Kc"], LowRule.ACE_TO_FIVE).words
'8-6-4-2-A low'
>>> best_low(["9h", "6d", "4c", "2s", "As", "Kd", "Kc"], LowRule.EIGHT_OR_BETTER) is None
True
>>> wheel = best_low(["5h", "4d", "3c", "2s", "As"], LowRule.ACE_TO_FIVE)
>>> wheel.cards, wheel > best_low(["6h", "4d", "3c", "2s", "As"], LowRule.ACE_TO_FIVE)
(('5h', '4d', '3c', '2s', 'As'), True)
>>> best_low(["7h", "5d", "4c", "3s", "2h"], LowRule.DEUCE_TO_SEVEN).words
'7-5-4-3-2 low'
>>> best_low(["Ah", "5d", "4c", "3s", "2h"], LowRule.DEUCE_TO_SEVEN).words
'A-5-4-3-2 low'
>>> best_low(["Kc", "8d", "4h", "As"], LowRule.FOUR_SUITS).words
'four cards, K-8-4-A'
>>> best_low(["Kc", "8c", "4h", "As"], LowRule.FOUR_SUITS).words
'three cards, 8-4-A'

Ace-to-five: aces are low, straights and flushes do not count, a pair counts against the hand
(a pair is worse than any five different ranks, two pair worse still, and so on). Eight or
better: the ace-to-five lows of five different ranks, none above an eight; other hands have
none. Deuce-to-seven: aces are high only, straights and flushes count against the hand, so
the score is the high hand's turned over (``A-5-4-3-2`` is ace high, no straight); the evaluator
in use (pure or eval7) scores it, as it scores high hands. Four suits: four cards of different
suits and ranks, aces low; with none, the best three such cards, then two, then one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations

from dealer_assist.core.cards import RANKS
from dealer_assist.core.errors import BadCardError, SetupError
from dealer_assist.core.hands import check_naturals, five_card_value, high_score

__all__ = ["LowRule", "LowValue", "best_low", "best_low_two_plus_three"]


class LowRule(StrEnum):
    """How a low hand is valued (R79)."""

    ACE_TO_FIVE = "ace_to_five"
    EIGHT_OR_BETTER = "eight_or_better"
    DEUCE_TO_SEVEN = "deuce_to_seven"
    FOUR_SUITS = "four_suits"


@dataclass(frozen=True, order=True)
class LowValue:
    """A low hand's value: ``score`` orders the hands of one rule, higher better, equal a tie
    (suits never break a tie); ``cards`` are the cards played, read from the top; ``words``
    are how the pages say the hand.

    >>> a = best_low(["7h", "5d", "4c", "3s", "2h"], LowRule.DEUCE_TO_SEVEN)
    >>> b = best_low(["7s", "5c", "4d", "3h", "2c"], LowRule.DEUCE_TO_SEVEN)
    >>> a == b, a.cards
    (True, ('7h', '5d', '4c', '3s', '2h'))
    """

    score: int
    cards: tuple[str, ...] = field(compare=False)
    words: str = field(compare=False)


#: Ranks aces low: the ace 0, the deuce 1 .. the king 12.
_ACE_LOW: dict[str, int] = {r: (i + 1) % 13 for i, r in enumerate(RANKS)}
_ACE_LOW_NAMES = "A23456789TJQK"
_EIGHT = _ACE_LOW["8"]
_RANK_PLURAL = {"2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes",
                "7": "sevens", "8": "eights", "9": "nines", "T": "tens", "J": "jacks",
                "Q": "queens", "K": "kings", "A": "aces"}

# The ace-to-five categories, best first: five different ranks, a pair, two pair, three of a
# kind, a full house, four of a kind. A key is ``category << 20`` and the ranks of the groups
# (bigger groups first, then the higher rank) in 4-bit fields from bit 16 down; lower is better.
_NO_PAIR, _PAIR, _TWO_PAIR, _TRIPS, _FULL_HOUSE, _QUADS = range(6)
_ACE_TO_FIVE_TOP = 6 << 20
_CATEGORY_WORDS = (
    "",
    "Pair of {0}",
    "Two pair, {0} and {1}",
    "Three of a kind, {0}",
    "Full house, {0} full of {1}",
    "Four of a kind, {0}",
)
#: Deuce-to-seven scores are the high hand's turned over: every high score is below this.
_HIGH_TOP = 9 << 24
_WHEEL = frozenset("A2345")
_HIGH_CARD, _STRAIGHT, _FLUSH, _STRAIGHT_FLUSH = 0, 4, 5, 8
_COUNT_WORDS = ("", "one card", "two cards", "three cards", "four cards")


def _groups(five: Sequence[str]) -> list[tuple[int, int]]:
    """(count, ace-low rank) of each rank held, the bigger groups first, then the higher."""
    counts: dict[int, int] = {}
    for card in five:
        rank = _ACE_LOW[card[0]]
        counts[rank] = counts.get(rank, 0) + 1
    return sorted(((n, r) for r, n in counts.items()), reverse=True)


def _ace_to_five_key(five: Sequence[str]) -> int:
    groups = _groups(five)
    top = groups[0][0]
    pairs = sum(1 for n, _ in groups if n == 2)
    if top == 1:
        category = _NO_PAIR
    elif top == 2:
        category = _PAIR if pairs == 1 else _TWO_PAIR
    elif top == 3:
        category = _FULL_HOUSE if pairs else _TRIPS
    else:
        category = _QUADS
    key = category << 20
    for i, (_, rank) in enumerate(groups):
        key |= rank << (16 - 4 * i)
    return key


def _reading_order(cards: Iterable[str]) -> tuple[str, ...]:
    """Aces low: the bigger groups first, then the higher rank."""
    cards = list(cards)
    counts: dict[str, int] = {}
    for card in cards:
        counts[card[0]] = counts.get(card[0], 0) + 1
    return tuple(sorted(cards, key=lambda c: (counts[c[0]], _ACE_LOW[c[0]]), reverse=True))


def _dashed(cards: Sequence[str]) -> str:
    return "-".join(c[0] for c in cards)


def _ace_to_five_value(five: Sequence[str]) -> LowValue:
    key = _ace_to_five_key(five)
    cards = _reading_order(five)
    category = key >> 20
    if category == _NO_PAIR:
        words = f"{_dashed(cards)} low"
    else:
        ranks = [_ACE_LOW_NAMES[r] for _, r in _groups(five)]
        words = _CATEGORY_WORDS[category].format(*(_RANK_PLURAL[r] for r in ranks))
    return LowValue(_ACE_TO_FIVE_TOP - key, cards, words)


def _best_ace_to_five(cards: Sequence[str], *, eight_or_better: bool) -> LowValue | None:
    """The five lowest different ranks, when there are five (ranks above the eight left out
    for eight or better); else, ace-to-five only, the best of every five (pairs and worse)."""
    if eight_or_better:
        lowest = _lowest_cards(cards)
    else:
        lowest = {}
        for card in cards:
            lowest.setdefault(_ACE_LOW[card[0]], card)
    if len(lowest) >= 5:
        return _ace_to_five_value([lowest[r] for r in sorted(lowest)[:5]])
    if eight_or_better:
        return None
    if len(cards) <= 5:
        return _ace_to_five_value(cards)
    best = min(combinations(cards, 5), key=_ace_to_five_key)
    return _ace_to_five_value(best)


def _deuce_to_seven_score(five: Sequence[str]) -> int:
    """The high score of five cards, the ace high only: A-5-4-3-2 is no straight."""
    score = high_score(five)
    kind = score >> 24
    if kind in (_STRAIGHT, _STRAIGHT_FLUSH) and (score >> 16) & 0xF == RANKS.index("5"):
        ace_high = (RANKS.index("A"), 3, 2, 1, 0)
        score = (_HIGH_CARD if kind == _STRAIGHT else _FLUSH) << 24
        for i, rank in enumerate(ace_high):
            score |= rank << (16 - 4 * i)
    return score


def _deuce_to_seven_value(fives: Iterable[Sequence[str]]) -> LowValue:
    best_score, best_five = min((_deuce_to_seven_score(five), five) for five in fives)
    high = five_card_value(best_score, best_five)
    words = f"{_dashed(high.cards)} low" if best_score >> 24 == _HIGH_CARD else high.name
    return LowValue(_HIGH_TOP - best_score, high.cards, words)


def _four_suit_value(cards: Sequence[str]) -> LowValue:
    """The most cards of different suits and ranks (four at most), then the lowest."""
    for size in range(min(4, len(cards)), 0, -1):
        hands = [hand for hand in combinations(cards, size)
                 if len({c[1] for c in hand}) == size and len({c[0] for c in hand}) == size]
        if hands:
            ordered = [_reading_order(hand) for hand in hands]
            best = min(ordered, key=lambda hand: [_ACE_LOW[c[0]] for c in hand])
            key = 0
            for i, card in enumerate(best):
                key |= _ACE_LOW[card[0]] << (12 - 4 * i)
            return LowValue((size << 16) | (0xFFFF - key), best,
                            f"{_COUNT_WORDS[size]}, {_dashed(best)}")
    raise BadCardError("A hand needs one card at least, got none.")


def best_low(cards: Sequence[str], rule: LowRule) -> LowValue | None:
    """The best low of ``cards`` by ``rule`` (R79): the best five (four suits: the best four or
    fewer) of any number of cards. Fewer than five cards play as they are (the up cards of a
    hand still being dealt), comparing with hands of as many cards; eight or better then has
    no low. ``None`` only for eight or better, when no five cards qualify.

    >>> best_low(["Kd", "Kh", "4c", "2s"], LowRule.ACE_TO_FIVE).words
    'Pair of kings'
    >>> best_low(["Ah", "Ad"], LowRule.FOUR_SUITS).cards
    ('Ah',)
    >>> best_low(["Ah", "Ah", "3c", "4d", "5s"], LowRule.ACE_TO_FIVE)
    Traceback (most recent call last):
    ...
    dealer_assist.core.errors.BadCardError: Ah is entered twice.
    """
    rule = _rule(rule)
    check_naturals(cards)
    if rule == LowRule.FOUR_SUITS:
        return _four_suit_value(cards)
    if not cards:
        raise BadCardError("A hand needs one card at least, got none.")
    if rule == LowRule.DEUCE_TO_SEVEN:
        if len(cards) < 5:
            raise BadCardError(
                f"A deuce-to-seven hand needs five cards at least, got {len(cards)}.")
        return _deuce_to_seven_value(combinations(cards, 5))
    return _best_ace_to_five(cards, eight_or_better=rule == LowRule.EIGHT_OR_BETTER)


def best_low_two_plus_three(
    hole: Sequence[str], board: Sequence[str], rule: LowRule
) -> LowValue | None:
    """The best low of exactly two hole cards and exactly three board cards (R79 with R62's
    two-plus-three), from two hole cards or more and a board of three to five cards.

    >>> best_low_two_plus_three(["Ah", "2d", "Kc", "Kd"], ["3s", "4h", "8c", "Qd", "Js"],
    ...                         LowRule.EIGHT_OR_BETTER).words
    '8-4-3-2-A low'
    >>> best_low_two_plus_three(["Ah", "Kd", "Qc", "Jd"], ["2s", "3h", "4c", "5d", "6s"],
    ...                         LowRule.EIGHT_OR_BETTER) is None
    True
    """
    rule = _rule(rule)
    if rule == LowRule.FOUR_SUITS:
        raise SetupError("A four-suit low is made from the player's own cards alone, not two "
                         "of them and three of a board.")
    if len(hole) < 2:
        raise BadCardError(f"A hand needs two hole cards at least, got {len(hole)}.")
    if not 3 <= len(board) <= 5:
        raise BadCardError(f"The board needs five cards (three at least), got {len(board)}.")
    check_naturals([*hole, *board])
    fives = [(*two, *three) for two in combinations(hole, 2)
             for three in combinations(board, 3)]
    if rule == LowRule.DEUCE_TO_SEVEN:
        return _deuce_to_seven_value(fives)
    if rule == LowRule.EIGHT_OR_BETTER:
        return _two_plus_three_eight_or_better(hole, board)
    return _ace_to_five_value(min(fives, key=_ace_to_five_key))


def _two_plus_three_eight_or_better(
    hole: Sequence[str], board: Sequence[str]
) -> LowValue | None:
    """Two different hole ranks and three different board ranks, five different ranks in
    all, none above the eight: the lowest such five, by their ranks alone (a card of each)."""
    hole_low = _lowest_cards(hole)
    board_low = _lowest_cards(board)
    best: tuple[list[int], tuple[int, ...], tuple[int, ...]] | None = None
    for two in combinations(sorted(hole_low), 2):
        for three in combinations(sorted(board_low), 3):
            ranks = {*two, *three}
            if len(ranks) == 5:
                key = sorted(ranks, reverse=True)
                if best is None or key < best[0]:
                    best = (key, two, three)
    if best is None:
        return None
    return _ace_to_five_value([hole_low[r] for r in best[1]] + [board_low[r] for r in best[2]])


def _lowest_cards(cards: Sequence[str]) -> dict[int, str]:
    """A card of each rank up to the eight, by its ace-low rank."""
    out: dict[int, str] = {}
    for card in cards:
        rank = _ACE_LOW[card[0]]
        if rank <= _EIGHT and rank not in out:
            out[rank] = card
    return out


def _rule(rule: object) -> LowRule:
    if isinstance(rule, str) and rule in _RULES:
        return LowRule(rule)
    raise SetupError(f'"{rule}" is not a low rule: use '
                     f'{", ".join(f"{r.value!r}" for r in LowRule)}.')


_RULES = frozenset(r.value for r in LowRule)
