"""Hand ranking (R2) and the 21 Hand Hold'em hand with wild cards (R54).

The ranking is cross-checked against an independent evaluator (phevaluator; lower is better
there) on every five-card hand and on a fixed sample of seven-card hands, and the wild-card
logic against brute force (every wild card replaced by every one of the 52 cards). Every test
here runs once per evaluator backend installed (pure always, eval7 when it imports).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations, combinations_with_replacement, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from dealer_assist.core.cards import FULL_DECK, JOKERS, RANKS, is_wild
from dealer_assist.core.errors import BadCardError, SetupError
from dealer_assist.core.hands import (
    CATEGORIES,
    HandValue,
    best_five,
    best_two_plus_three,
    rank_five,
)

PH_ID = {card: i for i, card in enumerate(FULL_DECK)}  # phevaluator's ids: 2c=0, 2d=1 .. As=51


pytestmark = pytest.mark.usefixtures("every_evaluator")  # each test once a backend


def cards(text: str) -> list[str]:
    return text.split()


# --------------------------------------------------------------------------------------------
# Known hands and their names (R2).


@pytest.mark.parametrize(
    ("hand", "name", "category"),
    [
        ("Ah Kh Qh Jh Th", "Royal flush", "royal_flush"),
        ("9c 8c 7c 6c 5c", "Straight flush, nine high", "straight_flush"),
        ("5d 4d 3d 2d Ad", "Straight flush, five high", "straight_flush"),
        ("Kh Kd Kc Ks 2h", "Four of a kind, kings", "four_of_a_kind"),
        ("Ah Ad Ac 4s 4d", "Full house, aces full of fours", "full_house"),
        ("6h 6d 6c As Ad", "Full house, sixes full of aces", "full_house"),
        ("Ah 9h 7h 5h 3h", "Flush, ace high", "flush"),
        ("Ah Kd Qc Js Th", "Straight, ace high", "straight"),
        ("5h 4d 3c 2s Ah", "Straight, five high", "straight"),
        ("7h 7d 7c Ks 2d", "Three of a kind, sevens", "three_of_a_kind"),
        ("Jh Jd 4c 4s 9d", "Two pair, jacks and fours", "two_pair"),
        ("9h 9d Ac 4s 2d", "Pair of nines", "pair"),
        ("6h 6d Ac 4s 2d", "Pair of sixes", "pair"),
        ("Kh Jd 9c 4s 2d", "High card, king", "high_card"),
    ],
)
def test_r2_known_hands_and_names(hand: str, name: str, category: str) -> None:
    value = rank_five(cards(hand))
    assert (value.name, value.category) == (name, category)
    assert best_five(cards(hand)) == value
    assert sorted(value.cards) == sorted(cards(hand))


def test_r2_categories_rank_in_order() -> None:
    hands = [
        "Kh Jd 9c 4s 2d",
        "9h 9d Ac 4s 2d",
        "Jh Jd 4c 4s 9d",
        "7h 7d 7c Ks 2d",
        "5h 4d 3c 2s Ah",
        "Ah 9h 7h 5h 3h",
        "2h 2d 2c 3s 3d",
        "2h 2d 2c 2s 3d",
        "6c 5c 4c 3c 2c",
        "Ah Kh Qh Jh Th",
    ]
    values = [rank_five(cards(h)) for h in hands]
    assert values == sorted(values)
    assert len({v.score for v in values}) == len(values)
    assert [v.category for v in values] == [c for c in CATEGORIES if c != "five_of_a_kind"]


def test_r2_wheel_is_five_high_and_loses_to_six_high_straight() -> None:
    wheel = rank_five(cards("Ah 2d 3c 4s 5h"))
    six_high = rank_five(cards("2h 3d 4c 5s 6h"))
    assert wheel.name == "Straight, five high"
    assert wheel.cards == ("5h", "4s", "3c", "2d", "Ah")
    assert wheel < six_high
    assert rank_five(cards("Ah Kd Qc Js 9h")) < wheel  # ace-high is not a straight: A-K-Q-J-9
    assert rank_five(cards("Kh Ad 2c 3s 4h")).category == "high_card"  # no wrap-around


def test_r2_steel_wheel_is_a_five_high_straight_flush() -> None:
    steel = rank_five(cards("Ah 2h 3h 4h 5h"))
    assert steel.name == "Straight flush, five high"
    assert steel < rank_five(cards("2h 3h 4h 5h 6h"))
    assert steel > rank_five(cards("Kh Kd Kc Ks Ah"))


def test_r2_suits_never_break_ties() -> None:
    assert rank_five(cards("Ah Kh Qh Jh Th")) == rank_five(cards("As Ks Qs Js Ts"))
    assert rank_five(cards("Ah 9h 7h 5h 3h")) == rank_five(cards("Ac 9c 7c 5c 3c"))
    assert rank_five(cards("9h 9d Ac 4s 2d")) == rank_five(cards("9c 9s Ad 4h 2c"))
    assert best_five(cards("7h 7d Kc Ks 2d 3h 9c")) == best_five(cards("7c 7s Kd Kh 2c 3s 9d"))
    # Only ranks beyond the five count: the sixth and seventh cards never matter.
    assert best_five(cards("Ah Ad Kc Ks Qd 3h 2c")) == best_five(cards("As Ac Kh Kd Qc 3s 4d"))


def test_r2_kickers_decide_then_tie() -> None:
    assert rank_five(cards("9h 9d Ac 4s 3d")) > rank_five(cards("9c 9s Ad 4h 2c"))
    assert rank_five(cards("Ah Ad Kc Ks 4d")) > rank_five(cards("Ac As Kh Kd 3d"))
    assert rank_five(cards("Ah Ad Ac 4s 4d")) > rank_five(cards("Kh Kd Kc As Ad"))


def test_r2_best_five_of_seven() -> None:
    hand = best_five(cards("2c 7d Ah Kh 9h 5h 3h"))
    assert hand.name == "Flush, ace high"
    assert hand.cards == ("Ah", "Kh", "9h", "5h", "3h")
    hand = best_five(cards("9h 9d 9c 5s 5h 5c 2d"))  # two sets of trips
    assert hand.name == "Full house, nines full of fives"
    assert Counter(c[0] for c in hand.cards) == {"9": 3, "5": 2}
    hand = best_five(cards("8c 7d 6h 5s 4c 3d 2h"))  # seven in a row: the top five count
    assert hand.name == "Straight, eight high"
    assert hand.cards == ("8c", "7d", "6h", "5s", "4c")
    hand = best_five(cards("Ah Ad Kc Ks 4d 4c 3h"))  # three pairs: the best two and a kicker
    assert hand.name == "Two pair, aces and kings"
    assert hand.cards == ("Ah", "Ad", "Kc", "Ks", "4d")


def test_r2_best_five_of_eight_and_nine() -> None:
    hand = best_five(cards("9h 8h 7h 6h 5h 4h 3h 2h Ah"))
    assert hand.name == "Straight flush, nine high"
    hand = best_five(cards("Ah Ad Ac As Kh Kd Kc Ks"))
    assert hand.name == "Four of a kind, aces"
    hand = best_five(cards("Ah Ad Ac Kh Kd 2h 5h 9h"))  # full house and flush in eight cards
    assert hand.name == "Full house, aces full of kings"


def test_r2_texas_dozen_seed_example_best_line() -> None:
    row1 = cards("9h Th Jh 2c 3d")
    col2 = cards("Th Ac 4s 4d Kc")
    player_a = best_five(cards("As Ad") + col2)
    assert player_a.name == "Full house, aces full of fours"
    assert player_a.cards == ("As", "Ad", "Ac", "4s", "4d")
    assert player_a.category == "full_house"
    player_b = best_five(cards("7h 8h") + row1)
    assert player_b.name == "Straight flush, jack high"
    assert player_b.cards == ("Jh", "Th", "9h", "8h", "7h")
    assert player_b > player_a
    assert best_five(cards("As Ad") + row1) < player_a  # A's best line is column 2


def test_r2_off_road_three_hole_plus_four_line() -> None:
    hand = best_five(cards("Ah Ad 7c") + cards("As 7h 7d 2c"))
    assert hand.name == "Full house, aces full of sevens"


# --------------------------------------------------------------------------------------------
# R54: both hole cards and exactly three of the board.


def test_r54_four_hearts_on_board_and_one_in_hand_is_not_a_flush() -> None:
    hole, board = cards("3h 4d"), cards("Ah Kh Qh Jh 2c")
    hand = best_two_plus_three(hole, board)
    assert hand.name == "High card, ace"
    assert hand.cards == ("Ah", "Kh", "Qh", "4d", "3h")
    assert best_five(hole + board).name == "Flush, ace high"  # what "best five" would say


def test_r54_two_hearts_in_hand_and_three_on_board_is_a_flush() -> None:
    hand = best_two_plus_three(cards("3h 4h"), cards("Ah Kh Qh Jh 2c"))
    assert hand.name == "Flush, ace high"
    assert hand.cards == ("Ah", "Kh", "Qh", "4h", "3h")


def test_r54_board_quads_are_only_three_of_a_kind_for_the_player() -> None:
    hand = best_two_plus_three(cards("Ah Kd"), cards("9s 9h 9d 9c 2h"))
    assert hand.name == "Three of a kind, nines"
    assert hand.cards == ("9s", "9h", "9d", "Ah", "Kd")
    # With a pair in the hand the board's trips make a full house, never four of a kind.
    hand = best_two_plus_three(cards("2d 2s"), cards("9s 9h 9d 9c 2h"))
    assert hand.name == "Full house, nines full of twos"
    # A player holding the fourth card does make four of a kind.
    assert best_two_plus_three(cards("9c Ad"), cards("9s 9h 9d 5c 2h")).name == (
        "Four of a kind, nines"
    )
    # So does a wild card in the hand (it stands for a nine), and two of them make five.
    hand = best_two_plus_three(cards("X1 Ad"), cards("9s 9h 9d 9c 2h"), wilds="jokers")
    assert hand.name == "Four of a kind, nines"
    assert hand.cards == ("9s", "9h", "9d", "X1", "Ad")
    hand = best_two_plus_three(cards("X1 X2"), cards("9s 9h 9d 9c 2h"), wilds="jokers")
    assert hand.name == "Five of a kind, nines"


def test_r54_a_straight_on_the_board_does_not_play() -> None:
    hand = best_two_plus_three(cards("Kc Kd"), cards("5h 6d 7c 8s 9h"))
    assert hand.name == "Pair of kings"
    hand = best_two_plus_three(cards("Tc 4d"), cards("5h 6d 7c 8s 9h"))
    assert hand.name == "High card, ten"  # needs both hole cards: 4 and T cannot both fit
    assert best_two_plus_three(cards("Tc Jd"), cards("5h 6d 7c 8s 9h")).name == (
        "Straight, jack high"
    )


def test_r54_best_of_ten_combinations_matches_brute_force() -> None:
    rng = random.Random(54)
    for _ in range(3000):
        drawn = rng.sample(FULL_DECK, 7)
        hole, board = drawn[:2], drawn[2:]
        hand = best_two_plus_three(hole, board)
        expected = max(rank_five(hole + list(three)) for three in combinations(board, 3))
        assert hand.score == expected.score
        assert rank_five(hand.cards).score == hand.score
        assert set(hole) <= set(hand.cards)
        assert len(set(hand.cards) & set(board)) == 3


def test_r54_cross_check_with_phevaluator_sample() -> None:
    """Against phevaluator: min over the ten choices of three board cards (lower is better)."""
    rng = random.Random(5454)
    pairs = []
    for _ in range(20_000):
        drawn = rng.sample(range(52), 7)
        hole, board = drawn[:2], drawn[2:]
        ours = best_two_plus_three([FULL_DECK[i] for i in hole], [FULL_DECK[i] for i in board])
        theirs = min(evaluate_cards(*hole, *three) for three in combinations(board, 3))
        pairs.append((ours.score, theirs))
    _assert_same_order(pairs)


def test_r54_board_before_the_river() -> None:
    assert best_two_plus_three(cards("Ah Ad"), cards("Ac 7d 2s")).name == "Three of a kind, aces"
    assert best_two_plus_three(cards("Ah Kh"), cards("Qh Jh 2c Th")).name == "Royal flush"


# --------------------------------------------------------------------------------------------
# R54: wild cards.


def test_r54_five_of_a_kind_beats_a_royal_flush() -> None:
    five = best_two_plus_three(cards("X1 Ah"), cards("Ac Ad As 5h 6h"), wilds="jokers")
    assert five.name == "Five of a kind, aces"
    assert five.category == "five_of_a_kind"
    assert five.cards == ("Ah", "Ac", "Ad", "As", "X1")
    royal = rank_five(cards("Ah Kh Qh Jh Th"))
    assert five > royal
    low_five = best_five(cards("2h 3c 3d 3h 3s"), wilds="deuces")
    assert low_five.name == "Five of a kind, threes"
    assert royal < low_five < five
    assert best_five(cards("X1 X2 Kh Kd Kc"), wilds="jokers").name == "Five of a kind, kings"


def test_r54_wild_completes_a_straight_flush() -> None:
    hand = best_two_plus_three(cards("X1 9h"), cards("Th Jh Qh 2c 3d"), wilds="jokers")
    assert hand.name == "Straight flush, king high"
    assert hand.cards == ("X1", "Qh", "Jh", "Th", "9h")
    hand = best_two_plus_three(cards("2c Kh"), cards("Th Jh Ah 5s 6s"), wilds="deuces")
    assert hand.name == "Royal flush"
    assert hand.cards == ("Ah", "Kh", "2c", "Jh", "Th")


def test_r54_two_jokers() -> None:
    hand = best_two_plus_three(cards("X1 X2"), cards("Ah Kh 7c 7d 2s"), wilds="jokers")
    assert hand.name == "Four of a kind, sevens"
    assert Counter(c[0] for c in hand.cards) == {"X": 2, "7": 2, "A": 1}
    hand = best_two_plus_three(cards("X1 X2"), cards("Ah Kh Qh 7d 2s"), wilds="jokers")
    assert hand.name == "Royal flush"
    hand = best_two_plus_three(cards("X1 X2"), cards("Ah Ac As 7d 2s"), wilds="jokers")
    assert hand.name == "Five of a kind, aces"
    hand = best_two_plus_three(cards("X1 X2"), cards("Ah Kc Ts 7d 3h"), wilds="jokers")
    assert hand.name == "Straight, ace high"
    hand = best_two_plus_three(cards("X1 X2"), cards("Ah Kc 8s 6d 3h"), wilds="jokers")
    assert hand.name == "Three of a kind, aces"


def test_r54_deuces_wild() -> None:
    hand = best_two_plus_three(cards("2c 2d"), cards("Th Jh Qc Kc 3d"), wilds="deuces")
    assert hand.name == "Straight, ace high"
    assert hand.cards == ("2c", "2d", "Qc", "Jh", "Th")  # the deuces read as ace and king
    hand = best_two_plus_three(cards("2c 5d"), cards("5h 9h 9c Kc 3d"), wilds="deuces")
    assert hand.name == "Full house, nines full of fives"
    hand = best_two_plus_three(cards("2c 2d"), cards("2h 2s Kc 9d 3d"), wilds="deuces")
    assert hand.name == "Five of a kind, kings"
    assert best_five(cards("2c 2d 2h 2s 3c"), wilds="deuces").name == "Five of a kind, threes"
    assert best_five(cards("2c 3d 4h 5s 6c"), wilds="deuces").name == "Straight, seven high"
    assert best_five(cards("2c 3d 4h 5s 6c")).name == "Straight, six high"
    assert best_five(cards("2c 3d 4h 5s Ac"), wilds="deuces").name == "Straight, five high"


def test_r54_wild_names_say_what_the_wild_cards_make() -> None:
    assert best_five(cards("X1 Ah 2c 3d 4s"), wilds="jokers").name == "Straight, five high"
    assert best_five(cards("X1 Kh Kd Kc 9s"), wilds="jokers").name == "Four of a kind, kings"
    assert best_five(cards("X1 Kh Kd 9c 9s"), wilds="jokers").name == (
        "Full house, kings full of nines"
    )
    assert best_five(cards("X1 Kh Kd 9c 4s"), wilds="jokers").name == "Three of a kind, kings"
    assert best_five(cards("X1 Kh Jd 9c 4s"), wilds="jokers").name == "Pair of kings"
    hand = best_five(cards("X1 Kh Jd 9c 4s 4h"), wilds="jokers")
    assert hand.name == "Three of a kind, fours"
    assert hand.cards == ("4s", "4h", "X1", "Kh", "Jd")


def test_r54_wild_in_a_flush_is_a_card_the_hand_lacks() -> None:
    hand = best_five(cards("As Ks 9s 5s X1"), wilds="jokers")
    assert hand.name == "Flush, ace high"
    assert hand == rank_five(cards("As Ks Qs 9s 5s"))  # not a "double-ace" flush A-A-K-9-5
    assert hand.cards == ("As", "Ks", "X1", "9s", "5s")


def test_r54_wild_is_never_worse_than_the_card_itself() -> None:
    rng = random.Random(2)
    for _ in range(2000):
        drawn = rng.sample(FULL_DECK, 7)
        assert best_five(drawn, wilds="deuces") >= best_five(drawn)
        assert best_two_plus_three(drawn[:2], drawn[2:], wilds="deuces") >= (
            best_two_plus_three(drawn[:2], drawn[2:])
        )


# Brute force: every wild card replaced by every one of the 52 cards. A card held twice only
# makes five of a kind (scored as (1, rank)); any other hand is five different cards.


def _brute_five(five: Sequence[str], wilds: str) -> tuple[int, int]:
    naturals = [c for c in five if not is_wild(c, wilds)]
    k = 5 - len(naturals)
    best = (-1, -1)
    # Wild cards are interchangeable, so a multiset of stand-ins covers every assignment.
    for stand_ins in combinations_with_replacement(FULL_DECK, k):
        hand = naturals + list(stand_ins)
        if len({c[0] for c in hand}) == 1:
            key = (1, RANKS.index(hand[0][0]))
        elif len(set(hand)) < 5:
            continue
        else:
            key = (0, rank_five(hand).score)
        best = max(best, key)
    return best


_PLURAL_RANK = {
    "twos": 0,
    "threes": 1,
    "fours": 2,
    "fives": 3,
    "sixes": 4,
    "sevens": 5,
    "eights": 6,
    "nines": 7,
    "tens": 8,
    "jacks": 9,
    "queens": 10,
    "kings": 11,
    "aces": 12,
}


def _key_of(value: HandValue) -> tuple[int, int]:
    if value.category == "five_of_a_kind":
        return (1, _PLURAL_RANK[value.name.removeprefix("Five of a kind, ")])
    return (0, value.score)


# Some cases draw their natural cards from a corner of the deck: two suits and the ranks of the
# top and bottom straights (wild straights, flushes and straight flushes), or three ranks
# (wild full houses, four and five of a kind); the rest from the whole deck.
_CORNERS = (
    FULL_DECK,
    tuple(r + s for r in "3459TJQKA" for s in "hs"),
    tuple(r + s for r in "9KA" for s in "cdhs"),
)


def _deal(rng: random.Random, n: int, wilds: str, wild_count: int, corner: int) -> list[str]:
    if wilds == "jokers":
        wild_cards = list(JOKERS[:wild_count])
    else:
        wild_cards = rng.sample([c for c in FULL_DECK if c[0] == "2"], wild_count)
    pool = [c for c in _CORNERS[corner] if not is_wild(c, wilds)]
    chosen = wild_cards + rng.sample(pool, n - wild_count)
    rng.shuffle(chosen)
    return chosen


def test_r54_wild_cards_match_brute_force_best_five() -> None:
    rng = random.Random(1)
    seen: Counter[str] = Counter()
    for i in range(400):
        wilds = "jokers" if i % 2 else "deuces"
        wild_count = 1 if i % 3 else 2
        hand = _deal(rng, 5 + (i // 2) % 3, wilds, wild_count, corner=i % 5 % 3)
        value = best_five(hand, wilds=wilds)
        expected = max(_brute_five(five, wilds) for five in combinations(hand, 5))
        assert _key_of(value) == expected, (hand, wilds, value)
        assert len(set(value.cards)) == 5
        assert set(value.cards) <= set(hand)
        assert best_five(value.cards, wilds=wilds).score == value.score
        seen[value.category] += 1
    # The sample reaches every kind of hand that wild cards can make.
    assert set(seen) >= set(CATEGORIES) - {"high_card", "two_pair"}


def test_r54_wild_cards_match_brute_force_two_plus_three() -> None:
    rng = random.Random(7)
    seen: Counter[str] = Counter()
    for i in range(300):
        wilds = "jokers" if i % 2 else "deuces"
        wild_count = 1 + (i % 4 == 0)
        drawn = _deal(rng, 7, wilds, wild_count, corner=i % 5 % 3)
        hole, board = drawn[:2], drawn[2:]
        value = best_two_plus_three(hole, board, wilds=wilds)
        expected = max(_brute_five(hole + list(three), wilds) for three in combinations(board, 3))
        assert _key_of(value) == expected, (hole, board, wilds, value)
        assert set(hole) <= set(value.cards)
        assert len(set(value.cards) & set(board)) == 3
        seen[value.category] += 1
    assert set(seen) >= set(CATEGORIES) - {"high_card", "two_pair"}


def test_r54_three_deuces_match_brute_force_two_plus_three() -> None:
    rng = random.Random(333)
    for i in range(12):
        drawn = _deal(rng, 7, "deuces", 3, corner=i % 3)
        hole, board = drawn[:2], drawn[2:]
        value = best_two_plus_three(hole, board, wilds="deuces")
        expected = max(
            _brute_five(hole + list(three), "deuces") for three in combinations(board, 3)
        )
        assert _key_of(value) == expected, (hole, board, value)


@pytest.mark.parametrize(
    "hand",
    ["2c 2d 2h 9s 8s", "2c 2d 2h Ks 9d", "2c 2d 2h Kd Kc", "2c 2d 2h 3s 7s", "2c 2d 2h As Ts"],
)
def test_r54_three_deuces_match_brute_force(hand: str) -> None:
    value = best_five(cards(hand), wilds="deuces")
    assert _key_of(value) == _brute_five(cards(hand), "deuces")


def test_r54_five_of_a_kind_scores_above_every_eval7_value() -> None:
    royal = rank_five(cards("As Ks Qs Js Ts"))
    fives = [best_five([r + "c", "X1", "X2", r + "d", r + "h"], wilds="jokers") for r in RANKS]
    assert all(f > royal for f in fives)
    assert fives == sorted(fives)
    assert len({f.score for f in fives}) == 13


# --------------------------------------------------------------------------------------------
# Refusals (R9).


def test_r9_wrong_counts_are_refused() -> None:
    with pytest.raises(BadCardError, match=r"^A hand needs exactly five cards, got 4\.$"):
        rank_five(cards("Ah Kh Qh Jh"))
    with pytest.raises(BadCardError, match=r"got 10\."):
        best_five(FULL_DECK[:10])
    with pytest.raises(BadCardError, match=r"got 4\."):
        best_five(FULL_DECK[:4])
    with pytest.raises(BadCardError, match=r"^A hand needs two hole cards at least, got 1\.$"):
        best_two_plus_three(cards("Ah"), cards("2c 3c 4c 5c 6c"))
    with pytest.raises(BadCardError, match=r"got 6\."):
        best_two_plus_three(cards("Ah Kh"), cards("2c 3c 4c 5c 6c 7c"))
    with pytest.raises(BadCardError, match=r"got 2\."):
        best_two_plus_three(cards("Ah Kh"), cards("2c 3c"))


def test_r9_duplicates_and_bad_cards_are_refused() -> None:
    with pytest.raises(BadCardError, match=r"^Ah is entered twice\.$"):
        rank_five(cards("Ah Kh Qh Jh Ah"))
    with pytest.raises(BadCardError, match=r"^Ah is entered twice\.$"):
        best_two_plus_three(cards("Ah Kh"), cards("2c 3c 4c 5c Ah"))
    with pytest.raises(BadCardError, match=r"^X1 is entered twice\.$"):
        best_five(cards("X1 X1 Kh Qh Jh"), wilds="jokers")
    with pytest.raises(BadCardError, match="joker"):
        best_five(cards("X1 Ah Kh Qh Jh"))
    with pytest.raises(BadCardError, match="joker"):
        best_five(cards("X1 Ah Kh Qh Jh"), wilds="deuces")
    with pytest.raises(BadCardError, match="joker"):
        rank_five(cards("X1 Ah Kh Qh Jh"))
    with pytest.raises(BadCardError, match="not a card"):
        rank_five(cards("10h Ah Kh Qh Jh"))
    with pytest.raises(SetupError, match="wild-card rule"):
        best_five(cards("Ah Kh Qh Jh Th"), wilds="bugs")


# --------------------------------------------------------------------------------------------
# Properties (hypothesis).

_hands = st.lists(st.sampled_from(FULL_DECK), min_size=5, max_size=9, unique=True)
_joker_hands = st.lists(st.sampled_from((*FULL_DECK, *JOKERS)), min_size=5, max_size=8, unique=True)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), hand=_hands, wilds=st.sampled_from(("none", "deuces")))
def test_r2_best_five_ignores_card_order(data: st.DataObject, hand: list[str], wilds: str) -> None:
    shuffled = data.draw(st.permutations(hand))
    a, b = best_five(hand, wilds=wilds), best_five(shuffled, wilds=wilds)
    assert (a.score, a.name, a.category) == (b.score, b.name, b.category)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), hand=_joker_hands)
def test_r54_best_five_with_jokers_ignores_card_order(data: st.DataObject, hand: list[str]) -> None:
    shuffled = data.draw(st.permutations(hand))
    assert best_five(hand, wilds="jokers").score == best_five(shuffled, wilds="jokers").score


@settings(max_examples=300, deadline=None)
@given(hand=_hands)
def test_r2_best_five_beats_or_ties_every_five_card_subset(hand: list[str]) -> None:
    best = best_five(hand)
    subsets = [rank_five(five) for five in combinations(hand, 5)]
    assert best == max(subsets)
    assert rank_five(best.cards) == best
    assert set(best.cards) <= set(hand)


@settings(max_examples=200, deadline=None)
@given(hand=_joker_hands)
def test_r54_best_five_with_jokers_beats_or_ties_every_subset(hand: list[str]) -> None:
    best = best_five(hand, wilds="jokers")
    assert best == max(best_five(five, wilds="jokers") for five in combinations(hand, 5))
    assert best_five(best.cards, wilds="jokers") == best


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    drawn=st.lists(st.sampled_from((*FULL_DECK, *JOKERS)), min_size=7, max_size=7, unique=True),
)
def test_r54_two_plus_three_ignores_order_within_hole_and_board(
    data: st.DataObject, drawn: list[str]
) -> None:
    hole, board = drawn[:2], drawn[2:]
    a = best_two_plus_three(hole, board, wilds="jokers")
    b = best_two_plus_three(hole[::-1], data.draw(st.permutations(board)), wilds="jokers")
    assert (a.score, a.name) == (b.score, b.name)
    assert a <= best_five(drawn, wilds="jokers")


# --------------------------------------------------------------------------------------------
# Cross-check against phevaluator.


def _assert_same_order(pairs: Iterable[tuple[int, int]]) -> int:
    """Our scores (higher better) and phevaluator's ranks (lower better) order hands alike.

    The map from our score to phevaluator's rank must be a function, one-to-one, and strictly
    decreasing. Returns the number of equivalence classes.
    """
    rank_of: dict[int, int] = {}
    for ours, theirs in pairs:
        if rank_of.setdefault(ours, theirs) != theirs:
            raise AssertionError(f"score {ours:#x} is phevaluator {rank_of[ours]} and {theirs}")
    assert len(set(rank_of.values())) == len(rank_of), "two scores for one phevaluator class"
    ranks = [rank_of[s] for s in sorted(rank_of)]
    assert all(a > b for a, b in pairwise(ranks)), "order differs"
    return len(rank_of)


@pytest.mark.slow
def test_r2_every_five_card_hand_ranks_as_phevaluator_does() -> None:
    deck = FULL_DECK
    categories: Counter[str] = Counter()
    rank_of: dict[int, int] = {}
    count = 0
    for combo in combinations(range(52), 5):
        value = rank_five([deck[i] for i in combo])
        theirs = evaluate_cards(*combo)
        if rank_of.setdefault(value.score, theirs) != theirs:
            raise AssertionError(f"{value} is phevaluator {rank_of[value.score]} and {theirs}")
        categories[value.category] += 1
        count += 1
    assert count == 2_598_960
    assert _assert_same_order(rank_of.items()) == 7462
    assert categories == {
        "royal_flush": 4,
        "straight_flush": 36,
        "four_of_a_kind": 624,
        "full_house": 3744,
        "flush": 5108,
        "straight": 10200,
        "three_of_a_kind": 54912,
        "two_pair": 123552,
        "pair": 1098240,
        "high_card": 1302540,
    }


def test_r2_seven_card_sample_ranks_as_phevaluator_does() -> None:
    rng = random.Random(20240607)
    pairs = []
    for _ in range(200_000):
        drawn = rng.sample(range(52), 7)
        value = best_five([FULL_DECK[i] for i in drawn])
        pairs.append((value.score, evaluate_cards(*drawn)))
        if len(pairs) % 20 == 0:  # the five cards named make the score
            assert rank_five(value.cards).score == value.score
            assert set(value.cards) <= {FULL_DECK[i] for i in drawn}
    assert _assert_same_order(pairs) > 4000
