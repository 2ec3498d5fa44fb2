"""Low hands and the short deck (R79), against PokerKit's hands.

Random hands of every rule are valued by dealer-assist and by PokerKit (``RegularLowHand``,
``EightOrBetterLowHand``, ``OmahaEightOrBetterLowHand``, ``StandardLowHand``, ``BadugiHand``,
``ShortDeckHoldemHand``, each through ``from_game``); the two must order every pair of hands
the same way (the better, or a tie) and play the same ranks; up cards of fewer than five
order as PokerKit's lookup for the lowest hand showing. Every test runs once per
evaluator backend installed (pure always, eval7 when it imports): deuce-to-seven and the
short deck are scored by the backend, and the backends must agree hand for hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from pokerkit import (
    BadugiHand,
    EightOrBetterLowHand,
    OmahaEightOrBetterLowHand,
    RegularLowHand,
    ShortDeckHoldemHand,
    StandardLowHand,
)

from dealer_assist.core import evaluator
from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.errors import BadCardError, SetupError
from dealer_assist.core.hands import HandValue, best_five, best_five_short_deck, use_evaluator
from dealer_assist.core.lowhands import LowRule, LowValue, best_low, best_low_two_plus_three

SHORT_DECK = tuple(c for c in FULL_DECK if c[0] in "6789TJQKA")


pytestmark = pytest.mark.usefixtures("every_evaluator")  # each test once a backend


def low(text: str, rule: LowRule) -> LowValue:
    value = best_low(text.split(), rule)
    assert value is not None
    return value


# --------------------------------------------------------------------------------------------
# Hands a player would check.


def test_r79_wheel_is_the_best_ace_to_five_low() -> None:
    wheel = low("5h 4d 3c 2s Ah", LowRule.ACE_TO_FIVE)
    assert wheel.words == "5-4-3-2-A low"
    assert wheel.cards == ("5h", "4d", "3c", "2s", "Ah")
    for other in ("6h 4d 3c 2s Ah", "5h 4d 3c 3s Ah", "6d 5h 4d 3c 2s", "5c 4c 3c 2c Ac"):
        assert wheel >= low(other, LowRule.ACE_TO_FIVE)
    # straights and flushes do not count: the suited wheel is the same low
    assert low("5c 4c 3c 2c Ac", LowRule.ACE_TO_FIVE) == wheel


def test_r79_ace_to_five_pairs_count_against_the_hand() -> None:
    pair = low("Ah Ad 2c 3s 4h", LowRule.ACE_TO_FIVE)
    assert pair.words == "Pair of aces"
    assert low("Kh Qd Jc Ts 9h", LowRule.ACE_TO_FIVE) > pair
    assert pair > low("2h 2d 3c 3s 4h", LowRule.ACE_TO_FIVE)  # two pair is worse
    best = low("8h 6d 4c 2s As Kd Kc", LowRule.ACE_TO_FIVE)
    assert (best.words, best.cards) == ("8-6-4-2-A low", ("8h", "6d", "4c", "2s", "As"))


def test_r79_nine_high_is_no_eight_or_better_low() -> None:
    assert best_low(["9h", "6d", "4c", "2s", "As"], LowRule.EIGHT_OR_BETTER) is None
    assert best_low(["9h", "6d", "4c", "2s", "As", "Kd", "4h"], LowRule.EIGHT_OR_BETTER) is None
    assert best_low(["8h", "8d", "4c", "2s", "As", "4h", "2h"], LowRule.EIGHT_OR_BETTER) is None
    eight = low("9h 8d 4c 2s As Kd 7h", LowRule.EIGHT_OR_BETTER)
    assert (eight.words, eight.cards) == ("8-7-4-2-A low", ("8d", "7h", "4c", "2s", "As"))
    # the same low by either rule scores the same
    assert eight.score == low("9h 8d 4c 2s As Kd 7h", LowRule.ACE_TO_FIVE).score


def test_r79_seven_five_is_the_best_deuce_to_seven_low() -> None:
    best = low("7h 5d 4c 3s 2h", LowRule.DEUCE_TO_SEVEN)
    assert best.words == "7-5-4-3-2 low"
    for other in ("7h 6d 4c 3s 2h", "8h 5d 4c 3s 2h", "Ah 5d 4c 3s 2h", "6h 5d 4c 3s 2h",
                  "7h 5h 4h 3h 2h", "2h 2d 4c 3s 5h"):
        assert best > low(other, LowRule.DEUCE_TO_SEVEN), other
    # aces are high only: A-5-4-3-2 is no straight, and worse than a king high
    wheel = low("Ah 5d 4c 3s 2h", LowRule.DEUCE_TO_SEVEN)
    assert wheel.words == "A-5-4-3-2 low"
    assert low("Kh 5d 4c 3s 2h", LowRule.DEUCE_TO_SEVEN) > wheel
    assert low("Ah 5h 4h 3h 2h", LowRule.DEUCE_TO_SEVEN).words == "Flush, ace high"
    assert low("6h 5d 4c 3s 2h", LowRule.DEUCE_TO_SEVEN).words == "Straight, six high"
    assert low("7s 5d 4c 3s 2h 2c 7c", LowRule.DEUCE_TO_SEVEN) == best


def test_r79_badugi_hands() -> None:
    best = low("4s 3h 2d Ac", LowRule.FOUR_SUITS)
    assert (best.words, best.cards) == ("four cards, 4-3-2-A", ("4s", "3h", "2d", "Ac"))
    king = low("Ks Qh Jd Tc", LowRule.FOUR_SUITS)
    three = low("Ac 2c 3h 4d", LowRule.FOUR_SUITS)  # two clubs: the best three of four suits
    assert (three.words, three.cards) == ("three cards, 4-3-A", ("4d", "3h", "Ac"))
    assert best > king > three
    assert low("Ac 2d 3h 3s", LowRule.FOUR_SUITS) > three  # a pair of threes: 3-2-A plays
    assert low("Ac 2d 3h 3s", LowRule.FOUR_SUITS) > low("2c 3d 4h 5h", LowRule.FOUR_SUITS)
    assert low("Ac 2c 3h 3d", LowRule.FOUR_SUITS).words == "two cards, 3-A"
    assert low("Kc Qc Jc Tc", LowRule.FOUR_SUITS).words == "one card, T"
    assert low("Ac Ad Ah As", LowRule.FOUR_SUITS).cards[0][0] == "A"


def test_r79_short_deck_straight_and_flush() -> None:
    lowest = best_five_short_deck(["As", "6d", "7c", "8h", "9s"])
    assert (lowest.name, lowest.category, lowest.cards) == (
        "Straight, nine high", "straight", ("9s", "8h", "7c", "6d", "As"))
    assert lowest < best_five_short_deck(["Ts", "6d", "7c", "8h", "9s"])
    assert lowest > best_five_short_deck(["As", "Ad", "Ac", "Kh", "Qs"])
    flush = best_five_short_deck(["6h", "7h", "8h", "Th", "Qh"])
    full = best_five_short_deck(["Ah", "Ad", "Ac", "Kh", "Ks"])
    assert flush.name == "Flush, queen high" and full.name == "Full house, aces full of kings"
    assert flush > full
    assert best_five_short_deck(["6h", "7h", "8h", "Th", "Qh", "Qd", "Qc"]) == flush
    assert best_five_short_deck(["As", "6s", "7s", "8s", "9s"]).name == "Straight flush, nine high"
    with pytest.raises(BadCardError, match="not in the short deck"):
        best_five_short_deck(["As", "5d", "7c", "8h", "9s"])


def test_r79_two_plus_three_low() -> None:
    hole, board = ["Ah", "2d", "Kc", "Kd"], ["3s", "4h", "8c", "Qd", "Js"]
    value = best_low_two_plus_three(hole, board, LowRule.EIGHT_OR_BETTER)
    assert value is not None and value.cards == ("8c", "4h", "3s", "2d", "Ah")
    # three low cards in the hand do not play: only two of them may
    assert best_low_two_plus_three(["Ah", "2d", "3c", "Kd"], ["4s", "5h", "Kc", "Qd", "Js"],
                                   LowRule.EIGHT_OR_BETTER) is None
    # nor do four low cards of the board
    assert best_low_two_plus_three(["Ah", "Kd", "Qc", "Jd"], ["2s", "3h", "4c", "5d", "6s"],
                                   LowRule.EIGHT_OR_BETTER) is None


def test_r79_bad_input_is_refused_as_high_hands_refuse_it() -> None:
    for bad in (["As", "As", "2c", "3d", "4h"], ["Zz", "2c", "3d", "4h", "5s"],
                ["X1", "2c", "3d", "4h", "5s"]):
        with pytest.raises(BadCardError) as low_error:
            best_low(bad, LowRule.ACE_TO_FIVE)
        with pytest.raises(BadCardError) as high_error:
            best_five(bad)
        assert str(low_error.value) == str(high_error.value)
    with pytest.raises(SetupError, match="not a low rule"):
        best_low(["As", "2c", "3d", "4h", "5s"], "lowball")  # type: ignore[arg-type]
    with pytest.raises(BadCardError, match="five cards at least"):
        best_low(["As", "2c", "3d"], LowRule.DEUCE_TO_SEVEN)
    with pytest.raises(SetupError):
        best_low_two_plus_three(["As", "2c"], ["3d", "4h", "5s"], LowRule.FOUR_SUITS)
    with pytest.raises(BadCardError, match="two hole cards"):
        best_low_two_plus_three(["As"], ["3d", "4h", "5s"], LowRule.ACE_TO_FIVE)


# --------------------------------------------------------------------------------------------
# Against PokerKit: the same order on every pair of random hands.


def pokerkit_strength(hand: Any) -> int:
    """A number that orders PokerKit's hands of one class as PokerKit does, better higher."""
    index: int = hand.entry.index
    return -index if hand.low else index


def ranks(cards: Sequence[str]) -> list[str]:
    return sorted(c[0] for c in cards)


def assert_same_order(
    hands: list[tuple[Sequence[str], Sequence[str]]],
    ours: Callable[[Sequence[str], Sequence[str]], LowValue | HandValue | None],
    theirs: Callable[[str, str], Any],
) -> None:
    """Every pair of ``hands`` (hole, board) is ordered alike by both, and each hand plays the
    same ranks; a hand with no value (no qualifying low) has none in either."""
    strength_by_score: dict[int, int] = {}
    for hole, board in hands:
        mine = ours(hole, board)
        pk = theirs("".join(hole), "".join(board))
        assert (mine is None) == (pk is None), (hole, board, mine, pk)
        if mine is None:
            continue
        assert set(mine.cards) <= {*hole, *board}
        assert ranks(mine.cards) == ranks([repr(c) for c in pk.cards]), (hole, board, mine, pk)
        strength = strength_by_score.setdefault(mine.score, pokerkit_strength(pk))
        assert strength == pokerkit_strength(pk), ("a tie for us, not for PokerKit", hole, board)
    # our scores and PokerKit's strengths must rise together: then every pair agrees
    strengths = [strength_by_score[s] for s in sorted(strength_by_score)]
    assert strengths == sorted(set(strengths)), "a pair of hands ordered differently"
    assert len(strength_by_score) > 20  # the sample is varied enough to mean something


def random_hands(deck: Sequence[str], size: int, count: int, seed: int
                 ) -> list[tuple[Sequence[str], Sequence[str]]]:
    rng = random.Random(seed)
    return [(rng.sample(deck, size), ()) for _ in range(count)]


def paired_hands(size: int, count: int, seed: int) -> list[tuple[Sequence[str], Sequence[str]]]:
    """Hands from a few ranks only, so that pairs, trips, full houses and quads come often."""
    rng = random.Random(seed)
    out: list[tuple[Sequence[str], Sequence[str]]] = []
    for _ in range(count):
        few = rng.sample("A23456789TJQK", rng.randint(2, 5))
        deck = [c for c in FULL_DECK if c[0] in few]
        out.append((rng.sample(deck, min(size, len(deck))), ()))
    return out


def test_r79_ace_to_five_orders_as_pokerkit_regular_low() -> None:
    hands = (random_hands(FULL_DECK, 7, 1500, 79) + random_hands(FULL_DECK, 5, 500, 80)
             + paired_hands(5, 700, 81) + paired_hands(7, 300, 82))
    assert_same_order(hands, lambda hole, _: best_low(hole, LowRule.ACE_TO_FIVE),
                      lambda hole, _: RegularLowHand.from_game(hole))


def test_r79_eight_or_better_orders_as_pokerkit() -> None:
    low_deck = [c for c in FULL_DECK if c[0] in "A23456789T"]
    hands = random_hands(FULL_DECK, 7, 1000, 83) + random_hands(low_deck, 7, 1000, 84)
    assert_same_order(hands, lambda hole, _: best_low(hole, LowRule.EIGHT_OR_BETTER),
                      lambda hole, _: EightOrBetterLowHand.from_game_or_none(hole))


def test_r79_two_plus_three_eight_or_better_orders_as_pokerkit() -> None:
    rng = random.Random(85)
    low_deck = [c for c in FULL_DECK if c[0] in "A2345678J"]
    hands: list[tuple[Sequence[str], Sequence[str]]] = []
    for _ in range(1500):
        cards = rng.sample(low_deck, 9)
        hands.append((cards[:4], cards[4:]))
    assert_same_order(
        hands, lambda hole, board: best_low_two_plus_three(hole, board, LowRule.EIGHT_OR_BETTER),
        OmahaEightOrBetterLowHand.from_game_or_none)


def test_r79_deuce_to_seven_orders_as_pokerkit_standard_low() -> None:
    low_deck = [c for c in FULL_DECK if c[0] in "A2345678"]
    hands = (random_hands(FULL_DECK, 5, 1500, 86) + random_hands(low_deck, 5, 1000, 87)
             + paired_hands(5, 500, 88) + random_hands(FULL_DECK, 7, 300, 89))
    assert_same_order(hands, lambda hole, _: best_low(hole, LowRule.DEUCE_TO_SEVEN),
                      lambda hole, _: StandardLowHand.from_game(hole))


def test_r79_badugi_orders_as_pokerkit() -> None:
    hands = (random_hands(FULL_DECK, 4, 2000, 90) + paired_hands(4, 500, 91)
             + random_hands(FULL_DECK, 6, 300, 92))
    assert_same_order(hands, lambda hole, _: best_low(hole, LowRule.FOUR_SUITS),
                      lambda hole, _: BadugiHand.from_game(hole))


def test_r79_short_deck_orders_as_pokerkit() -> None:
    hands = random_hands(SHORT_DECK, 7, 1500, 93) + random_hands(SHORT_DECK, 5, 1000, 94)
    assert_same_order(hands, lambda hole, _: best_five_short_deck(hole),
                      lambda hole, _: ShortDeckHoldemHand.from_game(hole))


def test_r79_every_backend_gives_every_low_the_same_value(every_evaluator: str) -> None:
    """The values under this test's backend are the very ones each other backend gives."""
    rng = random.Random(95)
    hands = [rng.sample(FULL_DECK, 7) for _ in range(400)]
    short = [rng.sample(SHORT_DECK, 7) for _ in range(400)]

    def said(value: LowValue | HandValue | None) -> tuple[object, ...]:
        if isinstance(value, HandValue):
            return value.score, value.cards, value.name
        return (None,) if value is None else (value.score, value.cards, value.words)

    def values() -> list[tuple[object, ...]]:
        return ([said(best_low(h, rule)) for h in hands for rule in LowRule]
                + [said(best_low_two_plus_three(h[:2], h[2:], LowRule.DEUCE_TO_SEVEN))
                   for h in hands]
                + [said(best_five_short_deck(h)) for h in short])

    here = values()
    try:
        for other in evaluator.available():
            use_evaluator(other.value)
            assert values() == here, other
    finally:
        use_evaluator(every_evaluator)


def test_r79_up_cards_order_as_pokerkits_lowest_hand_showing() -> None:
    """Fewer than five cards (a stud hand's up cards) are valued as they are: among hands of
    as many cards, ace-to-five orders them as PokerKit's lookup for the lowest hand showing
    (the razz opener from fourth street), pairs and trips against the hand."""
    from pokerkit.state import _LowHandOpeningLookup  # the lookup PokerKit opens razz by

    lookup = _LowHandOpeningLookup()
    for size in (1, 2, 3, 4):
        hands = random_hands(FULL_DECK, size, 400, 96 + size) + paired_hands(size, 300, 100 + size)
        strength_by_score: dict[int, int] = {}
        for hole, _ in hands:
            mine = best_low(hole, LowRule.ACE_TO_FIVE)
            assert mine is not None and sorted(mine.cards) == sorted(hole)
            theirs = -lookup.get_entry("".join(hole)).index  # the lowest entry opens
            assert strength_by_score.setdefault(mine.score, theirs) == theirs, hole
        strengths = [strength_by_score[s] for s in sorted(strength_by_score)]
        assert strengths == sorted(set(strengths)), size
    assert low("Kc Qd", LowRule.ACE_TO_FIVE) > low("2c 2d", LowRule.ACE_TO_FIVE)
    assert low("4c 2d Ah", LowRule.ACE_TO_FIVE).words == "4-2-A low"
