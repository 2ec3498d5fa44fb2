"""The equity of R67 (cards tabled at an all-in) on its own: dealer_assist.core.equity against
an independent count (the ``show`` record and the state's ``equity`` are tested in
tests/test_run_twice.py). Every exact figure is
checked against a brute force that ranks hands with PokerKit's own hand classes (not our
evaluator); the sampled figures against the exact ones, within the margin they state; and
both evaluator backends give the very same figures.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import (
    OmahaEightOrBetterLowHand,
    OmahaHoldemHand,
    ShortDeckHoldemHand,
    StandardHighHand,
)

from dealer_assist.core import equity as equity_module
from dealer_assist.core import evaluator
from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.equity import HandRule, HandTypes, equity
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.lowhands import LowRule

BACKENDS = [b.value for b in evaluator.available()]
HAND_CLASS = {HandRule.BEST_FIVE: StandardHighHand, HandRule.TWO_PLUS_THREE: OmahaHoldemHand,
              HandRule.SHORT_DECK: ShortDeckHoldemHand}
HOLE = {HandRule.BEST_FIVE: 2, HandRule.TWO_PLUS_THREE: 4, HandRule.SHORT_DECK: 2}


def brute_force(hands: dict[str, list[str]], board: list[str], rule: HandRule,
                dead: Sequence[str] = (), *, split: bool = False) -> dict[str, Fraction]:
    """Every board that can come, each hand ranked by PokerKit; a tie is the share it wins.
    ``split`` (R80, R88): Omaha's eight-or-better low takes half of the pot where any hand has
    one, by PokerKit's ``OmahaEightOrBetterLowHand``."""
    hand_class = HAND_CLASS[rule]
    known = {c for cards in hands.values() for c in cards} | set(board) | set(dead)
    unseen = [c for c in rule.deck if c not in known]
    won = {name: Fraction(0) for name in hands}
    count = 0
    for extra in combinations(unseen, 5 - len(board)):
        full = "".join(board) + "".join(extra)
        halves = [({name: hand_class.from_game("".join(cards), full)
                    for name, cards in hands.items()})]
        if split:
            lows = {}
            for name, cards in hands.items():
                try:
                    lows[name] = OmahaEightOrBetterLowHand.from_game("".join(cards), full)
                except ValueError:  # no low of eight or better
                    continue
            if lows:
                halves.append(lows)
        for ranked in halves:
            best = max(ranked.values())
            winners = [name for name, value in ranked.items() if value == best]
            for name in winners:
                won[name] += Fraction(1, len(winners) * len(halves))
        count += 1
    return {name: share / count for name, share in won.items()}


def random_spot(rng: random.Random, players: int, board: int, rule: HandRule
                ) -> tuple[dict[str, list[str]], list[str]]:
    cards = rng.sample(rule.deck, players * HOLE[rule] + board)
    hole = HOLE[rule]
    hands = {f"P{i}": cards[i * hole:(i + 1) * hole] for i in range(players)}
    return hands, cards[players * hole:]


@pytest.mark.parametrize("backend", BACKENDS)
def test_equity_in_holdem_is_exact_and_matches_a_brute_force_with_pokerkit_hands(
        backend: str) -> None:
    rng = random.Random(67)
    spots = [random_spot(rng, players, 4, HandRule.BEST_FIVE) for players in (2, 3, 4, 6)]
    spots += [random_spot(rng, 3, 3, HandRule.BEST_FIVE)]  # the flop: 903 boards
    for hands, board in spots:
        got = equity(hands, [board], backend=backend)
        assert got.exact and got.margin == 0 and got.samples == 0
        expected = brute_force(hands, board, HandRule.BEST_FIVE)
        assert got.shares == pytest.approx({k: float(v) for k, v in expected.items()},
                                           abs=1e-12), (hands, board)


@pytest.mark.parametrize("backend", BACKENDS)
def test_equity_in_omaha_uses_exactly_two_hole_cards_as_pokerkit_does(
        backend: str) -> None:
    # Ann holds one heart and four are on the board: no flush in Omaha (R62), where Hold'em's
    # best five of her cards would make one; Bob's two pair of kings wins every river
    hands = {"Ann": ["Ah", "2c", "3d", "4s"], "Bob": ["Kc", "Kd", "7s", "7d"]}
    board = ["Kh", "Qh", "9h", "5h"]
    omaha = equity(hands, [board], rule=HandRule.TWO_PLUS_THREE, backend=backend)
    expected = brute_force(hands, board, HandRule.TWO_PLUS_THREE)
    assert omaha.exact and omaha.shares == pytest.approx({k: float(v) for k, v in
                                                          expected.items()}, abs=1e-12)
    assert omaha.shares["Ann"] < 0.3  # only a straight or better can save her
    rng = random.Random(62)
    for players in (2, 3):
        hands, board = random_spot(rng, players, 4, HandRule.TWO_PLUS_THREE)
        got = equity(hands, [board], rule=HandRule.TWO_PLUS_THREE, backend=backend)
        expected = brute_force(hands, board, HandRule.TWO_PLUS_THREE)
        assert got.exact
        assert got.shares == pytest.approx({k: float(v) for k, v in expected.items()},
                                           abs=1e-12), (hands, board)


def test_equity_a_tie_counts_as_the_share_it_wins() -> None:
    # the board is a royal flush: every hand plays it, three ways split
    board = ["As", "Ks", "Qs", "Js", "Ts"]
    got = equity({"Ann": ["2c", "3c"], "Bob": ["4d", "5d"], "Cy": ["6h", "7h"]}, [board])
    assert got.shares == pytest.approx({"Ann": 1 / 3, "Bob": 1 / 3, "Cy": 1 / 3})
    # one card to come: Ann's pair of aces against Bob's ace-king, kicker king on the board
    hands = {"Ann": ["Ah", "Kd"], "Bob": ["Ac", "Kc"]}
    board = ["As", "Ks", "7d", "2h"]
    got = equity(hands, [board])
    assert got.shares == pytest.approx(
        {k: float(v) for k, v in brute_force(hands, board, HandRule.BEST_FIVE).items()})
    assert sum(got.shares.values()) == pytest.approx(1.0)


def test_equity_two_runs_are_averaged_each_on_its_own_board() -> None:
    """After the flop, the runs part: run 1 has its turn and river, run 2 only its turn. Each
    run's equity is its own board's, with every other card seen out of the deck; the figure
    shown is their average."""
    hands = {"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"]}
    flop = ["Kh", "7c", "2d"]
    run1 = [*flop, "Ac", "9h"]
    run2 = [*flop, "5s"]
    got = equity(hands, [run1, run2])
    one = brute_force(hands, run1, HandRule.BEST_FIVE, dead=["5s"])
    two = brute_force(hands, run2, HandRule.BEST_FIVE, dead=["Ac", "9h"])
    assert got.exact
    assert got.runs == (pytest.approx({k: float(v) for k, v in one.items()}),
                        pytest.approx({k: float(v) for k, v in two.items()}))
    assert got.shares == pytest.approx({k: float((one[k] + two[k]) / 2) for k in hands})
    # before the runs part, both runs have the same chance: the same as one run
    assert equity(hands, [flop, flop]).shares == equity(hands, [flop]).shares


def test_equity_a_hand_not_shown_yet_is_any_two_cards_left() -> None:
    """Ann has tabled her hand; Bob has not. From the public cards, Bob holds any two of the
    cards nobody has seen, all as likely: on the river, Ann's chance is the share of those
    she beats."""
    board = ["Ks", "Qs", "7d", "4c", "2h"]
    ann = ["Kd", "Qd"]
    got = equity({"Ann": ann, "Bob": None}, [board])
    unseen = [c for c in FULL_DECK if c not in {*ann, *board}]
    mine = StandardHighHand.from_game("".join(ann), "".join(board))
    won = Fraction(0)
    pairs = list(combinations(unseen, 2))
    for pair in pairs:
        theirs = StandardHighHand.from_game("".join(pair), "".join(board))
        won += 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
    assert got.exact
    assert got.shares["Ann"] == pytest.approx(float(won / len(pairs)), abs=1e-12)


def test_equity_sampled_equity_is_within_the_margin_it_states(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Spots small enough to count exactly, sampled instead (the exact limit set to nothing):
    each sampled figure states its 95% margin, and the exact one lies within it (a spot a
    little outside may happen one time in twenty; never more than twice the margin)."""
    rng = random.Random(2026)
    spots = [random_spot(rng, rng.choice((2, 3)), 3, HandRule.BEST_FIVE) for _ in range(12)]
    exact = [equity(hands, [board]) for hands, board in spots]
    monkeypatch.setattr(equity_module, "EXACT_EVALUATIONS", 0)
    equity_module._equity.cache_clear()
    outside = 0
    for (hands, board), truth in zip(spots, exact, strict=True):
        sampled = equity(hands, [board])
        assert not sampled.exact and sampled.samples >= equity_module.FEWEST_SAMPLES
        assert 0 <= sampled.margin < 0.03  # 0 only where the result is sure (drawing dead)
        worst = max(abs(sampled.shares[k] - truth.shares[k]) for k in hands)
        assert worst <= 2 * sampled.margin, (hands, board, sampled, truth)
        outside += worst > sampled.margin
    assert outside <= 2
    equity_module._equity.cache_clear()


def test_equity_pre_flop_is_sampled_with_its_margin_and_the_same_every_time() -> None:
    hands = {"Ann": ["As", "Ad"], "Bob": ["7c", "2d"]}
    first = equity(hands, [[]])
    assert not first.exact and 0 < first.margin < 0.015
    assert 0.85 < first.shares["Ann"] < 0.9  # aces against seven-deuce: about 88%
    assert sum(first.shares.values()) == pytest.approx(1.0)
    # the sample's seed is the cards: another process (or a cleared cache) says the same
    equity_module._equity.cache_clear()
    assert equity(hands, [[]]) == first


@pytest.mark.skipif(len(BACKENDS) < 2, reason="eval7 is not installed here")
def test_equity_both_evaluators_give_the_very_same_figures() -> None:
    rng = random.Random(7)
    for rule, board, players in ((HandRule.BEST_FIVE, 3, 3), (HandRule.BEST_FIVE, 0, 2),
                                 (HandRule.TWO_PLUS_THREE, 4, 3),
                                 (HandRule.TWO_PLUS_THREE, 0, 2)):
        hands, cards = random_spot(rng, players, board, rule)
        pure = equity(hands, [cards], rule=rule, backend="pure")
        fast = equity(hands, [cards], rule=rule, backend="eval7")
        assert pure == fast, (rule, hands, cards)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 6), st.sampled_from([3, 4, 5]),
       st.sampled_from(list(HandRule)), st.booleans())
def test_equity_shares_are_chances_that_add_up_to_one(
        rng: random.Random, players: int, board: int, rule: HandRule, twice: bool) -> None:
    players = min(players, 3) if rule is HandRule.TWO_PLUS_THREE else players
    hands, cards = random_spot(rng, players, board, rule)
    boards = [cards]
    if twice and board < 5:  # a second run with its own next card
        left = [c for c in rule.deck if c not in {*cards, *(c for h in hands.values()
                                                            for c in h)}]
        boards.append([*cards, rng.choice(left)])
    got = equity(hands, boards, rule=rule)
    assert all(0 <= share <= 1 for share in got.shares.values())
    assert sum(got.shares.values()) == pytest.approx(1.0)
    assert len(got.runs) == len(boards)


def test_r88_hi_lo_equity_is_the_expected_share_of_the_pot_as_pokerkit_ranks_it() -> None:
    """R88: in Omaha Hi-Lo a player's equity is their expected share of the pot: half for the
    best high, half for the best eight-or-better low where any hand has one (R80), against a
    brute force over every river with PokerKit's Omaha high and low hands."""
    rule = HandTypes(HandRule.TWO_PLUS_THREE, LowRule.EIGHT_OR_BETTER)
    rng = random.Random(84)
    spots = [random_spot(rng, players, 4, HandRule.TWO_PLUS_THREE) for players in (2, 3, 4)]
    # Ann's nut low against Bob's set: half each on most rivers, more for Bob where a low
    # pairs the board out of Ann's reach
    spots.append(({"Ann": ["As", "2s", "Kd", "Qc"], "Bob": ["9h", "9d", "Tc", "Jc"]},
                  ["3h", "4d", "9c", "8s"]))
    for hands, board in spots:
        got = equity(hands, [board], rule=rule)
        assert got.exact
        expected = brute_force(hands, board, HandRule.TWO_PLUS_THREE, split=True)
        assert got.shares == pytest.approx({k: float(v) for k, v in expected.items()},
                                           abs=1e-12), (hands, board)
    assert sum(got.shares.values()) == pytest.approx(1.0)


def test_r87_short_deck_equity_counts_the_36_cards_with_its_own_values() -> None:
    """R87, R88: the short deck's equity is over its 36 cards, its hands by R79's values (a
    flush over a full house), as PokerKit's ShortDeckHoldemHand ranks them; a card below six
    is refused."""
    hands = {"Ann": ["Ah", "Kh"], "Bob": ["Qs", "Qd"]}
    board = ["Qh", "7h", "7c"]  # Bob's full house loses to Ann's flush when it comes
    got = equity(hands, [board], rule=HandRule.SHORT_DECK)
    expected = brute_force(hands, board, HandRule.SHORT_DECK)
    assert got.exact and got.shares == pytest.approx(
        {k: float(v) for k, v in expected.items()}, abs=1e-12)
    # 29 cards left: 125 of the 406 runouts bring one of the 5 hearts left without Bob's
    # fourth queen (a 52-card deck would hold 9 hearts, and the full house would win)
    assert got.shares["Ann"] > 125 / 406
    with pytest.raises(IllegalActionError, match="'2c' is not a card of the deck"):
        equity({"Ann": ["Ah", "2c"], "Bob": ["Qs", "Qd"]}, [[]], rule=HandRule.SHORT_DECK)


@pytest.mark.parametrize(("hands", "boards", "sentence"), [
    ({"Ann": ["As", "Ad"]}, [[]], "two players or more"),
    ({"Ann": ["As", "Ad"], "Bob": ["As", "Kd"]}, [[]], "As is both in Ann's hand and in Bob's"),
    ({"Ann": ["As", "Ad"], "Bob": ["Ks"]}, [[]], "Bob holds 2 cards, not 1"),
    ({"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"]}, [["Ad", "2c", "3c"]], "Ad is both"),
    ({"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"]}, [["2c", "3c", "4c", "5c", "6c", "7c"]],
     "5 cards at most"),
    ({"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"]}, [[], [], []], "once or twice"),
    ({"Ann": ["As", "Xd"], "Bob": ["Ks", "Kd"]}, [[]], "not a card"),
])
def test_r9_impossible_cards_are_refused_with_a_sentence(
        hands: dict[str, list[str]], boards: list[list[str]], sentence: str) -> None:
    with pytest.raises(IllegalActionError, match=sentence) as err:
        equity(hands, boards)
    assert str(err.value).endswith(".")
