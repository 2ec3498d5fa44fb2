"""Ranking poker hands (R2), with wild cards and the two-plus-three rule (R54).

The scores come from :mod:`dealer_assist.core.evaluator` (pure Python, or eval7 when it is
installed: both give every hand the same score): this module chooses which cards make the
hand, turns wild cards into the cards they stand for, and names the result in the words a
dealer reads out.

Every function returns a :class:`HandValue`. Values compare by ``score`` alone, so hands from
different functions can be compared with ``<``, ``>`` and ``==``; an equal score is a tie
(suits never break ties, R2).

>>> rank_five(["Ah", "Kh", "Qh", "Jh", "Th"]).name
'Royal flush'
>>> hand = best_five(["As", "Ad", "Th", "Ac", "4s", "4d", "Kc"])
>>> hand.name, hand.cards
('Full house, aces full of fours', ('As', 'Ad', 'Ac', '4s', '4d'))
>>> best_five(["7h", "8h", "9h", "Th", "Jh", "2c", "3d"]) > hand
True
>>> best_two_plus_three(["X1", "Ah"], ["Ac", "Ad", "As", "5h", "6h"], wilds="jokers").name
'Five of a kind, aces'

Wild cards (R54, ``wilds`` = ``"jokers"`` or ``"deuces"``): a wild card stands for any card,
even one already in the hand, so five of a kind is possible, and it ranks above a straight
flush. In a flush or a straight flush the cards are five different cards: a wild card there
stands for a card the hand does not hold already (no "double-ace flush").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import combinations

from dealer_assist.core import evaluator
from dealer_assist.core.cards import (
    FULL_DECK,
    JOKERS,
    RANK_NAMES,
    RANK_PLURALS,
    RANKS,
    Wilds,
    is_wild,
)
from dealer_assist.core.errors import BadCardError, SetupError

__all__ = [
    "CATEGORIES",
    "WILD_RULES",
    "HandCategory",
    "HandValue",
    "best_five",
    "best_five_short_deck",
    "best_two_plus_three",
    "check_naturals",
    "five_card_value",
    "high_score",
    "rank_five",
    "use_evaluator",
]

class HandCategory(StrEnum):
    """What kind of hand a :class:`HandValue` is (R2, R54), weakest first."""

    HIGH_CARD = "high_card"
    PAIR = "pair"
    TWO_PAIR = "two_pair"
    THREE_OF_A_KIND = "three_of_a_kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    ROYAL_FLUSH = "royal_flush"
    FIVE_OF_A_KIND = "five_of_a_kind"


#: ``HandValue.category`` values, weakest first.
CATEGORIES: tuple[HandCategory, ...] = tuple(HandCategory)

#: The values ``rules.wilds`` may take (R54).
WILD_RULES: tuple[Wilds, ...] = tuple(Wilds)


@dataclass(frozen=True, order=True)
class HandValue:
    """A ranked five-card hand.

    ``score`` orders hands: higher beats lower, equal is a tie. ``cards`` are the five cards
    that make the hand as they were given (a wild card stays ``"X1"`` or ``"2h"``), in reading
    order. ``name`` is what the dealer reads out; ``category`` is one of :data:`CATEGORIES`.

    >>> a = rank_five(["Ah", "Ad", "9c", "7s", "4d"])
    >>> b = rank_five(["As", "Ac", "9h", "7d", "4s"])
    >>> a == b, a.name, a.category.value
    (True, 'Pair of aces', 'pair')
    """

    score: int
    cards: tuple[str, ...] = field(compare=False)
    name: str = field(compare=False)
    category: HandCategory = field(compare=False)


# --------------------------------------------------------------------------------------------
# Scores (the evaluator's layout): ``type << 24`` plus up to five 4-bit rank indices
# (0 = deuce, 12 = ace) from bit 16 down: type 0 high card .. 8 straight flush. Five of a kind
# uses type 9, above every evaluator's value, ordered by its rank.

_FIVE_TYPE = 9
_RANK_INDEX: dict[str, int] = {r: i for i, r in enumerate(RANKS)}
_NATURALS = frozenset(FULL_DECK)
_evaluator = evaluator.load()
_evaluate = _evaluator.evaluate


def use_evaluator(name: str | None = None) -> evaluator.Backend:
    """Rank with the backend ``name`` from now on (``None``: as the environment says).

    The backends agree on every score; the tests run with each in turn.
    """
    global _evaluator, _evaluate
    _evaluator = evaluator.load(name)
    _evaluate = _evaluator.evaluate
    return _evaluator.backend

#: (rank mask, ranks high to low) of every straight, the best (ace high) first.
_STRAIGHTS: tuple[tuple[int, tuple[int, ...]], ...] = tuple(
    (
        sum(1 << r for r in ranks),
        ranks,
    )
    for ranks in (tuple(h - k if h - k >= 0 else 12 for k in range(5)) for h in range(12, 2, -1))
)

_TYPE_CATEGORY = CATEGORIES[:9]  # by the evaluator's type, 0 (high card) to 8


def _five_of_a_kind_score(rank: int) -> int:
    return (_FIVE_TYPE << 24) | (rank << 16)


def _layout(score: int) -> tuple[int, ...]:
    """The five rank indices a score stands for, in reading order (trips before the pair)."""
    kind = score >> 24
    n0 = (score >> 16) & 0xF
    n1 = (score >> 12) & 0xF
    n2 = (score >> 8) & 0xF
    n3 = (score >> 4) & 0xF
    if kind in (0, 5):
        return (n0, n1, n2, n3, score & 0xF)
    if kind == 1:
        return (n0, n0, n1, n2, n3)
    if kind == 2:
        return (n0, n0, n1, n1, n2)
    if kind == 3:
        return (n0, n0, n0, n1, n2)
    if kind in (4, 8):
        return tuple(n0 - k if n0 - k >= 0 else 12 for k in range(5))
    if kind == 6:
        return (n0, n0, n0, n1, n1)
    if kind == 7:
        return (n0, n0, n0, n0, n1)
    return (n0,) * 5


# A hand's name by its type (the score's top byte): {high} and {second} are the ranks' names
# ("ace"), {highs} and {seconds} their plurals ("aces").
_TYPE_WORDS: tuple[str, ...] = (
    "High card, {high}",
    "Pair of {highs}",
    "Two pair, {highs} and {seconds}",
    "Three of a kind, {highs}",
    "Straight, {high} high",
    "Flush, {high} high",
    "Full house, {highs} full of {seconds}",
    "Four of a kind, {highs}",
    "Straight flush, {high} high",
)


def _words(score: int) -> tuple[str, HandCategory]:
    """(name, category) of a score."""
    kind = score >> 24
    top = RANKS[(score >> 16) & 0xF]
    second = RANKS[(score >> 12) & 0xF]
    if kind == _FIVE_TYPE:
        return f"Five of a kind, {RANK_PLURALS[top]}", HandCategory.FIVE_OF_A_KIND
    if kind == 8 and top == "A":
        return "Royal flush", HandCategory.ROYAL_FLUSH
    name = _TYPE_WORDS[kind].format(high=RANK_NAMES[top], highs=RANK_PLURALS[top],
                                    second=RANK_NAMES[second], seconds=RANK_PLURALS[second])
    return name, _TYPE_CATEGORY[kind]


_WORDS_CACHE: dict[int, tuple[str, HandCategory]] = {}


def _value(score: int, cards: tuple[str, ...]) -> HandValue:
    words = _WORDS_CACHE.get(score)
    if words is None:
        words = _WORDS_CACHE[score] = _words(score)
    return HandValue(score, cards, words[0], words[1])


_LAYOUT_RANKS: dict[int, str] = {}


def _arrange(
    score: int, given: Sequence[str], stands: Sequence[str] | None = None
) -> tuple[str, ...]:
    """Five of the ``given`` cards in reading order, as given; ``stands`` are the cards they
    stand for (a wild card's stand-in), the given cards themselves when ``None``.

    There may be more than five cards (then none is wild); for a flush the five are taken from
    the suit that has all the ranks the score needs.
    """
    layout = _LAYOUT_RANKS.get(score)
    if layout is None:  # memoised: a showdown asks for the same few layouts again and again
        layout = _LAYOUT_RANKS[score] = "".join(RANKS[r] for r in _layout(score))
    if stands is None:
        stands = given
    if score >> 24 in (5, 8) and len(given) > 5:
        for suit in "cdhs":
            suited = [i for i, c in enumerate(stands) if c[1] == suit]
            if len(suited) >= 5 and {stands[i][0] for i in suited} >= set(layout):
                given = [given[i] for i in suited]
                stands = [stands[i] for i in suited]
                break
    by_rank: dict[str, list[str]] = {}
    for card, stand in zip(given, stands, strict=True):
        by_rank.setdefault(stand[0], []).append(card)
    try:
        return tuple([by_rank[rank].pop(0) for rank in layout])
    except (KeyError, IndexError):  # pragma: no cover - the score does not match the cards
        raise AssertionError(f"cards {given!r} do not make score {score:#x}") from None


# --------------------------------------------------------------------------------------------
# Wild cards.


def _wild_score(naturals: Sequence[str], wild: int) -> tuple[int, list[str]]:
    """Best score of exactly five cards: ``naturals`` plus ``wild`` (>= 1) wild cards.

    Returns the score and the cards the wild cards stand for (empty for five of a kind). The
    best hand is built directly, category by category from the top, and the evaluator scores it.
    """
    if not naturals:
        return _five_of_a_kind_score(12), []
    ranks = [_RANK_INDEX[c[0]] for c in naturals]
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    if len(counts) == 1:
        return _five_of_a_kind_score(ranks[0]), []

    suits = {c[1] for c in naturals}
    one_suit = len(suits) == 1
    straight: tuple[int, ...] | None = None
    if len(counts) == len(ranks):
        mask = 0
        for r in ranks:
            mask |= 1 << r
        for window_mask, window in _STRAIGHTS:
            if mask & ~window_mask == 0:
                straight = window
                break
    have = set(ranks)

    def fill(rank: int, number: int) -> list[str]:
        """``number`` cards of ``rank`` in suits the naturals do not hold."""
        used = {c[1] for c in naturals if _RANK_INDEX[c[0]] == rank}
        return [RANKS[rank] + s for s in "cdhs" if s not in used][:number]

    stands: list[str]
    if straight is not None and one_suit:  # straight flush
        suit = naturals[0][1]
        stands = [RANKS[r] + suit for r in straight if r not in have]
    else:
        quads = [r for r, n in counts.items() if n + wild >= 4]
        if quads:
            top = max(quads)
            stands = fill(top, 4 - counts[top])
        elif wild == 1 and sorted(counts.values()) == [2, 2]:  # full house
            stands = fill(max(counts), 1)
        elif one_suit:  # flush: the highest ranks the suit lacks
            suit = naturals[0][1]
            stands = [RANKS[r] + suit for r in range(12, -1, -1) if r not in have][:wild]
        elif straight is not None:
            stands = [RANKS[r] + "cdhs"[k % 4] for k, r in enumerate(straight) if r not in have]
        elif wild == 1 and 2 in counts.values():  # three of a kind
            stands = fill(max(r for r, n in counts.items() if n == 2), 1)
        else:  # two wild cards make three of a kind, one makes a pair, of the top rank
            stands = fill(max(ranks), wild)
    return _evaluate([*naturals, *stands]), stands


def _wild_cards_in_order(
    score: int, naturals: Sequence[str], wild_cards: Sequence[str], stands: Sequence[str]
) -> tuple[str, ...]:
    """The five cards of a hand with wild cards, as given, in reading order."""
    if not stands:  # five of a kind
        return (*naturals, *wild_cards)
    return _arrange(score, [*naturals, *wild_cards], [*naturals, *stands])


# --------------------------------------------------------------------------------------------
# Checking the input.


def _check_wilds(wilds: str) -> None:
    if wilds not in tuple(WILD_RULES):
        raise SetupError(f'"{wilds}" is not a wild-card rule: use "none", "jokers" or "deuces".')


def _check_cards(cards: Sequence[str], wilds: Wilds) -> None:
    seen: set[str] = set()
    for card in cards:
        if card not in _NATURALS:
            if card in JOKERS:
                if wilds != Wilds.JOKERS:
                    raise BadCardError(
                        f"{card} is a joker, and this hand is played without jokers."
                    )
            else:
                raise BadCardError(
                    f'{card!r} is not a card: write it like "Th" (rank, then suit c, d, h or s).'
                )
        if card in seen:
            raise BadCardError(f"{card} is entered twice.")
        seen.add(card)


# --------------------------------------------------------------------------------------------
# Public functions.


def rank_five(cards: Sequence[str]) -> HandValue:
    """The value of exactly five cards, with no wild cards (R2).

    >>> rank_five(["5h", "4d", "3c", "2s", "Ah"]).name
    'Straight, five high'
    >>> rank_five(["5h", "4d", "3c", "2s", "Ah"]) < rank_five(["6h", "5d", "4c", "3s", "2h"])
    True
    >>> rank_five(["4d", "Ac", "4s", "Ah", "Ad"]).cards
    ('Ac', 'Ah', 'Ad', '4d', '4s')
    >>> rank_five(["Ah", "Kh"])
    Traceback (most recent call last):
    ...
    dealer_assist.core.errors.BadCardError: A hand needs exactly five cards, got 2.
    """
    if len(cards) != 5:
        raise BadCardError(f"A hand needs exactly five cards, got {len(cards)}.")
    _check_cards(cards, Wilds.NONE)
    score = _evaluate(cards)
    return _value(score, _arrange(score, cards))


def best_five(cards: Sequence[str], wilds: Wilds = Wilds.NONE) -> HandValue:
    """The best five of 5 to 9 cards ("cards speak", R2), wild cards as ``wilds`` says (R54).

    >>> best_five(["As", "Ad", "Th", "Ac", "4s", "4d", "Kc"]).name
    'Full house, aces full of fours'
    >>> best_five(["Ah", "Kh", "X1", "Jh", "9h", "3d"], wilds="jokers").name
    'Flush, ace high'
    >>> best_five(["Ah", "Kh", "Qh", "Jh", "2c", "3d"], wilds="deuces").name
    'Royal flush'
    >>> best_five(["9s", "9d", "2h", "2c", "Kd"], wilds="deuces").cards
    ('9s', '9d', '2h', '2c', 'Kd')
    >>> best_five(["Ah", "Ah", "Kh", "Qh", "Jh"])
    Traceback (most recent call last):
    ...
    dealer_assist.core.errors.BadCardError: Ah is entered twice.
    """
    _check_wilds(wilds)
    n = len(cards)
    if not 5 <= n <= 9:
        raise BadCardError(f"A hand is made from 5 to 9 cards, got {n}.")
    _check_cards(cards, wilds)
    wild_cards = [c for c in cards if is_wild(c, wilds)] if wilds != Wilds.NONE else []
    if not wild_cards:
        best = _evaluate(cards)
        return _value(best, _arrange(best, cards))

    naturals = [c for c in cards if not is_wild(c, wilds)]
    used_wilds = wild_cards[:5]
    take = 5 - len(used_wilds)
    # Five of a kind is the best hand there is: take it at once when it is there.
    counts: dict[str, list[str]] = {}
    for c in naturals:
        counts.setdefault(c[0], []).append(c)
    kinds = [r for r, same in counts.items() if len(same) >= take]
    if take == 0 or kinds:
        top = max(kinds, key=_RANK_INDEX.__getitem__) if take else "A"
        chosen = tuple(counts[top][:take]) if take else ()
        return _value(_five_of_a_kind_score(_RANK_INDEX[top]), chosen + tuple(used_wilds))
    best = -1
    best_naturals: tuple[str, ...] = ()
    best_stands: list[str] = []
    for sub in combinations(naturals, take):
        score, stands = _wild_score(sub, len(used_wilds))
        if score > best:
            best, best_naturals, best_stands = score, sub, stands
    return _value(best, _wild_cards_in_order(best, best_naturals, used_wilds, best_stands))


_THREES: dict[int, tuple[tuple[int, int, int], ...]] = {
    n: tuple(combinations(range(n), 3)) for n in (3, 4, 5)
}


def best_two_plus_three(
    hole: Sequence[str], board: Sequence[str], wilds: Wilds = Wilds.NONE
) -> HandValue:
    """The best hand of exactly two of the hole cards and exactly three board cards, from two
    hole cards (R54) or more (R62: four, where a player holding one heart with four hearts on
    the board has no flush).

    The board normally holds five cards (ten ways to choose three); three or four, before the
    river, are accepted too.

    >>> best_two_plus_three(["3h", "4d"], ["Ah", "Kh", "Qh", "Jh", "2c"]).name
    'High card, ace'
    >>> best_two_plus_three(["Ah", "Kd"], ["9s", "9h", "9d", "9c", "2h"]).name
    'Three of a kind, nines'
    >>> best_two_plus_three(["X1", "X2"], ["Ah", "Kh", "7c", "7d", "2s"], wilds="jokers").name
    'Four of a kind, sevens'
    >>> best_two_plus_three(["Ah", "7c", "7d", "2s"], ["Kh", "Qh", "5h", "4h", "9c"]).name
    'Pair of sevens'
    >>> best_two_plus_three(["Ah", "Kh", "7d", "2s"], ["Qh", "5h", "4h", "9c", "3d"]).name
    'Flush, ace high'
    >>> best_two_plus_three(["Ah"], ["9s", "9h", "9d", "9c", "2h"])
    Traceback (most recent call last):
    ...
    dealer_assist.core.errors.BadCardError: A hand needs two hole cards at least, got 1.
    """
    _check_wilds(wilds)
    if len(hole) < 2:
        raise BadCardError(f"A hand needs two hole cards at least, got {len(hole)}.")
    if not 3 <= len(board) <= 5:
        raise BadCardError(f"The board needs five cards (three at least), got {len(board)}.")
    _check_cards([*hole, *board], wilds)
    fives = [(hole[a], hole[b], board[i], board[j], board[k])
             for a, b in combinations(range(len(hole)), 2) for i, j, k in _THREES[len(board)]]
    best = -1
    if wilds == Wilds.NONE or not any(is_wild(c, wilds) for c in (*hole, *board)):
        chosen = fives[0]
        for five in fives:
            score = _evaluate(five)
            if score > best:
                best, chosen = score, five
        return _value(best, _arrange(best, list(chosen)))
    best_five_cards: tuple[str, ...] = ()
    best_stands: list[str] = []
    for five in fives:
        naturals = [c for c in five if not is_wild(c, wilds)]
        if len(naturals) < 5:
            score, stands = _wild_score(naturals, 5 - len(naturals))
        else:
            score, stands = _evaluate(five), []
        if score > best:
            best, best_five_cards, best_stands = score, five, stands
    if len(best_stands) == 0 and best >> 24 != _FIVE_TYPE:
        return _value(best, _arrange(best, best_five_cards))
    naturals = [c for c in best_five_cards if not is_wild(c, wilds)]
    wild_cards = [c for c in best_five_cards if is_wild(c, wilds)]
    return _value(best, _wild_cards_in_order(best, naturals, wild_cards, best_stands))


# --------------------------------------------------------------------------------------------
# The parts other hand values build on (core/lowhands.py), and the short deck (R79).


def check_naturals(cards: Sequence[str]) -> None:
    """Refuse a card that is not a natural card, or one entered twice, as every hand does."""
    _check_cards(cards, Wilds.NONE)


def high_score(cards: Sequence[str]) -> int:
    """The score of the best five of 5 to 9 natural cards, checked already, by the backend in
    use (so a value built on it is the same under either backend)."""
    return _evaluate(cards)


def five_card_value(score: int, five: Sequence[str]) -> HandValue:
    """The named value of the five cards ``five`` for ``score`` (the evaluator's layout), the
    cards in reading order: the score may be one the evaluator would not give these cards (an
    ace-to-five "straight" read as ace high, ``A-5-4-3-2``)."""
    return _value(score, _arrange(score, five))


_SHORT_DECK_RANKS = frozenset("6789TJQKA")
#: The short deck's lowest straight, A-6-7-8-9, by its rank mask.
_SHORT_WHEEL = sum(1 << _RANK_INDEX[r] for r in "A6789")
_FLUSH_TYPE, _FULL_HOUSE_TYPE = 5, 6


def _short_deck_score(five: Sequence[str]) -> tuple[int, int]:
    """(short-deck score, score in the evaluator's layout naming the same hand) of five cards.

    A flush beats a full house: their types trade places. A-6-7-8-9 is a straight (a straight
    flush when suited) whose top card is the nine, so it ranks below the ten-high one."""
    score = _evaluate(five)
    kind = score >> 24
    if kind in (0, 5) and sum(1 << _RANK_INDEX[c[0]] for c in five) == _SHORT_WHEEL:
        named = ((4 if kind == 0 else 8) << 24) | (_RANK_INDEX["9"] << 16)
        return named, named
    if kind == _FLUSH_TYPE:
        return (_FULL_HOUSE_TYPE << 24) | (score & 0xFFFFFF), score
    if kind == _FULL_HOUSE_TYPE:
        return (_FLUSH_TYPE << 24) | (score & 0xFFFFFF), score
    return score, score


def best_five_short_deck(cards: Sequence[str]) -> HandValue:
    """The best five of 5 to 9 cards of the 36-card deck (6 to ace, R79): a flush beats a full
    house, and A-6-7-8-9 is the lowest straight. The value is a :class:`HandValue` like every
    high hand's, its ``score`` ordering short-deck hands among themselves.

    >>> best_five_short_deck(["As", "6d", "7c", "8h", "9s", "Kd", "Kc"]).name
    'Straight, nine high'
    >>> best_five_short_deck(["As", "6d", "7c", "8h", "9s"]).cards
    ('9s', '8h', '7c', '6d', 'As')
    >>> flush = best_five_short_deck(["Ah", "Jh", "9h", "7h", "6h"])
    >>> flush > best_five_short_deck(["Kh", "Kd", "Kc", "Qs", "Qd"])
    True
    >>> best_five_short_deck(["As", "2d", "7c", "8h", "9s"])
    Traceback (most recent call last):
    ...
    dealer_assist.core.errors.BadCardError: 2d is not in the short deck: its ranks are 6 to ace.
    """
    n = len(cards)
    if not 5 <= n <= 9:
        raise BadCardError(f"A hand is made from 5 to 9 cards, got {n}.")
    check_naturals(cards)
    for card in cards:
        if card[0] not in _SHORT_DECK_RANKS:
            raise BadCardError(f"{card} is not in the short deck: its ranks are 6 to ace.")
    best, named, chosen = -1, -1, tuple(cards[:5])
    for five in combinations(cards, 5):
        score, as_named = _short_deck_score(five)
        if score > best:
            best, named, chosen = score, as_named, five
    if named >> 24 in (4, 8) and (named >> 16) & 0xF == _RANK_INDEX["9"]:
        # A-6-7-8-9 is read nine first, the ace last: no layout of the evaluator's says so
        ordered = tuple(sorted(chosen, key=lambda c: (c[0] != "A", _RANK_INDEX[c[0]]),
                               reverse=True))
        name, category = _words(named)
        return HandValue(best, ordered, name, category)
    value = five_card_value(named, chosen)
    return HandValue(best, value.cards, value.name, value.category)
