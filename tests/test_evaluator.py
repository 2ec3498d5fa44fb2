"""The evaluator backends (dealer_assist.core.evaluator): the pure one and eval7 give every hand
the same score, either is chosen by name or by $DEALER_ASSIST_EVALUATOR, a missing eval7 is
never fatal, and every game's tests pass with each backend."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from dealer_assist.core import evaluator
from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.errors import SetupError

ROOT = Path(__file__).resolve().parent.parent
HAVE_EVAL7 = evaluator.Backend.EVAL7 in evaluator.available()
needs_eval7 = pytest.mark.skipif(not HAVE_EVAL7, reason="eval7 is not installed here")


def hand(text: str) -> list[str]:
    return text.split()


def test_pure_backend_scores_known_hands_in_eval7_layout() -> None:
    score = evaluator.load("pure").evaluate
    assert score(hand("Ah Kh Qh Jh Th")) == (8 << 24) | (12 << 16)
    assert score(hand("5d 4d 3d 2d Ad")) == (8 << 24) | (3 << 16)
    assert score(hand("Kh Kd Kc Ks 2h")) == (7 << 24) | (11 << 16) | (0 << 12)
    assert score(hand("6h 6d 6c As Ad")) == (6 << 24) | (4 << 16) | (12 << 12)
    assert score(hand("Jh Jd 4c 4s 9d")) == (2 << 24) | (9 << 16) | (2 << 12) | (7 << 8)
    assert score(hand("Kh Jd 9c 4s 2d")) == 0xB9720
    # Seven cards: a straight flush hidden under four of a kind.
    assert score(hand("9h 9d 9c 9s Th Jh Qh Kh")) == (8 << 24) | (11 << 16)


@needs_eval7
@pytest.mark.parametrize("size", [5, 6, 7, 8, 9])
def test_backends_agree_on_a_sample_of_every_size(size: int) -> None:
    pure, fast = evaluator.load("pure").evaluate, evaluator.load("eval7").evaluate
    rng = random.Random(size)
    for _ in range(40_000):
        drawn = rng.sample(FULL_DECK, size)
        assert pure(drawn) == fast(drawn), drawn


@needs_eval7
def test_backends_agree_on_every_flush_rich_seven_card_hand_of_two_suits() -> None:
    """All 7-card hands of the hearts and spades from eight up: flushes, straight flushes and
    their overlap with pairs and trips, where a wrong flush check would show first."""
    pure, fast = evaluator.load("pure").evaluate, evaluator.load("eval7").evaluate
    corner = [r + s for r in "89TJQKA" for s in "hs"]
    count = 0
    for hand in combinations(corner, 7):
        assert pure(hand) == fast(hand), hand
        count += 1
    assert count == 3432


@needs_eval7
@pytest.mark.slow
def test_backends_agree_on_every_five_card_hand() -> None:
    pure, fast = evaluator.load("pure").evaluate, evaluator.load("eval7").evaluate
    count = 0
    for hand in combinations(FULL_DECK, 5):
        if pure(hand) != fast(hand):
            raise AssertionError(f"{hand}: pure {pure(hand):#x}, eval7 {fast(hand):#x}")
        count += 1
    assert count == 2_598_960


def test_load_by_name_and_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert evaluator.load("pure").backend is evaluator.Backend.PURE
    assert evaluator.load(" Pure ").backend is evaluator.Backend.PURE
    monkeypatch.setenv(evaluator.ENV_VAR, "pure")
    assert evaluator.load().backend is evaluator.Backend.PURE
    monkeypatch.setenv(evaluator.ENV_VAR, "auto")
    expected = evaluator.Backend.EVAL7 if HAVE_EVAL7 else evaluator.Backend.PURE
    assert evaluator.load().backend is expected
    with pytest.raises(SetupError, match=r'^"c" is not an evaluator: use "auto", "pure"'):
        evaluator.load("c")


def test_without_eval7_auto_falls_back_to_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "eval7", None)  # "import eval7" now raises ImportError
    assert evaluator.available() == [evaluator.Backend.PURE]
    assert evaluator.load("auto").backend is evaluator.Backend.PURE
    with pytest.raises(SetupError, match=r'pip install "dealer-assist\[fast\]"'):
        evaluator.load("eval7")


def test_warm_up_fills_the_tables_with_the_scores_evaluation_gives() -> None:
    evaluator.warm_up()
    assert len(evaluator._MULTISET_SCORES) >= 73_775  # every rank multiset of 5, 6 or 7 cards
    rng = random.Random(9)
    for _ in range(2000):
        drawn = rng.sample(FULL_DECK, 7)
        key = sum(1 << (3 * "23456789TJQKA".index(c[0])) for c in drawn)
        assert evaluator._MULTISET_SCORES[key] == evaluator._multiset_score(key)


GAME_TESTS = ["tests/test_kings_pot.py", "tests/test_texas_dozen.py",
              "tests/test_off_road_stud.py", "tests/test_twenty_one.py", "tests/test_doctests.py"]


@pytest.mark.slow
@pytest.mark.parametrize("backend", [b.value for b in evaluator.available()])
def test_every_game_test_passes_with_each_backend(backend: str) -> None:
    """The games' own tests (every showdown among them) in a fresh process on one backend."""
    env = {**os.environ, evaluator.ENV_VAR: backend}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
         *GAME_TESTS],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout.splitlines()[-1]
