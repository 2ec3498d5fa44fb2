"""Omaha Hi-Lo (R84) against PokerKit: random deals (2 to 10 players, short stacks and
all-ins, antes or none, fixed limit, its default, and pot limit; boards run twice and hands
tabled, R88) played through both engines action for action with tests/test_pokerkit.py's
harness, and at the end every stack equal chip for chip.

PokerKit 0.7.7's own Omaha eight-or-better class (``FixedLimitOmahaHoldemHighLowSplit
EightOrBetter``, PHH's ``FO/8``) is built on its pot-limit mixin and bets pot limit, so the
comparison sets PokerKit's ``State`` up by hand as the harness does for every game: fixed
limit (pre-flop the big blind and three raises, then a bet and three raises, small bets in
the first two rounds), Omaha's four hole cards and board, and the hand types
``(OmahaHoldemHand, OmahaEightOrBetterLowHand)``. At the showdown PokerKit's pots are shared as
R6, R7, R66 and R80 say (tests/test_pokerkit.py's ``shared_as_r7`` with the low hand); R80's
one difference with PokerKit, a low half none of a pot's players has a low for (R80 gives it
to the pot's best high hand, PokerKit shares it among all the pot's players), is counted.

Each fixed-limit deal is then exported under ``FO/8`` and replayed by PokerKit's
``HandHistory`` (tests/test_phh.py's check), the dealer's view and the public one. Its
pot-limit class takes every fixed-limit bet as a legal pot-limit one (a fixed-limit bet is
the smallest bet or raise there), so it replays to our stacks but for the differences
documented in docs/hand-histories.md.
"""

from __future__ import annotations

import functools
import random
import warnings
from typing import Any

import pytest
import test_phh
import test_pokerkit as reference
from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

HI_LO = "omaha_hi_lo"


def random_hi_lo_deal(rng: random.Random, seed: int, most: int = 10) -> reference.RandomDeal:
    n = rng.randint(2, most)
    betting = rng.choice(["fixed_limit", "fixed_limit", "pot_limit"])
    small_blind = rng.choice([1, 1, 2, 5])
    big_blind = small_blind * rng.choice([2, 2, 3])  # larger than the small one (test_pokerkit)
    rules: dict[str, Any] = {
        "betting": betting, "small_blind": small_blind, "big_blind": big_blind,
        "ante": rng.choice([0, 0, 0, 1, 2]), "odd_chip": rng.choice(["left_of_dealer", "carry"]),
        "min_bet": big_blind}
    if betting == "fixed_limit":  # the big blind is one small bet, as fixed limit plays
        rules |= {"small_bet": big_blind, "big_bet": 2 * big_blind}
    stacks = [rng.randint(1, 400 if rng.random() < 0.3 else 40) for _ in range(n)]
    # a big blind posted short is tests/test_pokerkit.py's documented difference: never here
    big_seat = (1 + (0 if n == 2 else 1)) % n
    stacks[big_seat] = max(stacks[big_seat], rules["ante"] + big_blind)
    return reference.RandomDeal(stacks, rules, seed, HI_LO)


@pytest.fixture
def hi_lo_in_pokerkit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness told of Omaha Hi-Lo: four hole cards, Omaha's high hand and its low."""
    monkeypatch.setitem(reference.GAMES, HI_LO, (4, OmahaHoldemHand))
    monkeypatch.setitem(reference.LOW_HANDS, HI_LO, OmahaEightOrBetterLowHand)


def play_hi_lo(count: int, seed: int, *, exported: bool = False
               ) -> tuple[reference.Differences, dict[str, int]]:
    """``count`` random deals through both engines; with ``exported``, each fixed-limit one's
    PHH export replayed in PokerKit too (what it met counted in the second value), at most 6
    players a deal: PokerKit's replay ranks every Omaha hand high and low again at each
    showdown to see who can still win, a second a deal of 10 players."""
    differences = reference.Differences()
    seen = dict.fromkeys((test_phh.SAME, test_phh.ODD_CHIPS, test_phh.SHORT_RAISE), 0)
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(count):
            d = random_hi_lo_deal(rng, seed * 100_000 + i, 6 if exported else 10)
            before = differences.uncounted_raises
            t = reference.play(d, differences)
            differences.played[d.rules["betting"]] += 1
            if exported and d.rules["betting"] == "fixed_limit":
                test_phh.check_deal_in_pokerkit(t, differences.uncounted_raises - before, seen,
                                                test_phh.holdem_shares(t, d))
    return differences, seen


@pytest.mark.usefixtures("hi_lo_in_pokerkit")
def test_r84_r80_omaha_hi_lo_matches_pokerkit_action_for_action() -> None:
    differences, _ = play_hi_lo(60, 84)
    assert {"fixed_limit", "pot_limit", "run twice", "hands tabled"} <= set(
        differences.played), differences.played


@pytest.mark.slow
@pytest.mark.usefixtures("hi_lo_in_pokerkit")
def test_r84_r80_hundreds_of_omaha_hi_lo_deals_match_pokerkit() -> None:
    differences, _ = play_hi_lo(300, 85)
    assert reference.R80_NO_LOW in differences.seen, differences.seen
    assert differences.played["pushed by PokerKit"] > 10, differences.played


@pytest.mark.usefixtures("hi_lo_in_pokerkit")
def test_r84_r88_every_exported_fixed_limit_omaha_hi_lo_deal_replays_in_pokerkit() -> None:
    """FO/8: the deals' exports, run twice and tabled hands among them, replay in PokerKit
    to our stacks, or where R7 or R80 share otherwise, PokerKit's pots shared as they say."""
    differences, seen = play_hi_lo(16, 86, exported=True)
    assert seen[test_phh.SAME] > 12, (seen, differences)


@pytest.mark.slow
@pytest.mark.usefixtures("hi_lo_in_pokerkit")
def test_r84_r88_a_hundred_exported_omaha_hi_lo_deals_replay_in_pokerkit() -> None:
    differences, seen = play_hi_lo(100, 87, exported=True)
    assert seen[test_phh.SAME] > 80 and differences.played["run twice"], (seen, differences)
    assert differences.played["hands tabled"], differences.played


@pytest.mark.usefixtures("hi_lo_in_pokerkit")
def test_r66_r67_r84_a_hand_tabled_and_named_again_is_written_once_in_fo8() -> None:
    """As tests/test_phh.py's for Hold'em and Omaha: hands tabled at the all-in and named
    again by the showdown are one sm line each, and PokerKit replays the FO/8 export."""
    seen = test_phh.run_pokerkit(15, 88, HI_LO, tabled_again=True,
                                 deal=functools.partial(random_hi_lo_deal, most=6))
    assert seen[test_phh.SAME] >= 20 and seen["two runs"] >= 2, seen
