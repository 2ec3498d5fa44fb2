"""How fast hands are ranked: evaluations per second of dealer_assist.core.hands.

Run from the repository root: ``python bench/bench_ranking.py [--runs 7] [--hands 20000]``.
Every run ranks the same pre-dealt hands (fixed seed); the table shows the median run, for
each evaluator backend installed side by side (the pure one's tables filled first, as the
server does when it starts).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dealer_assist.core import evaluator
from dealer_assist.core.cards import FULL_DECK, JOKERS, is_wild
from dealer_assist.core.hands import (
    best_five,
    best_five_short_deck,
    best_two_plus_three,
    rank_five,
    use_evaluator,
)
from dealer_assist.core.lowhands import LowRule, best_low, best_low_two_plus_three

SEED = 20240607


def _deals(rng: random.Random, count: int, size: int, deck: tuple[str, ...]) -> list[list[str]]:
    return [rng.sample(deck, size) for _ in range(count)]


def _with_wild(
    rng: random.Random, count: int, wilds: str, deck: tuple[str, ...]
) -> list[list[str]]:
    """Seven-card deals that hold at least one wild card."""
    out: list[list[str]] = []
    while len(out) < count:
        drawn = rng.sample(deck, 7)
        if any(is_wild(c, wilds) for c in drawn):
            out.append(drawn)
    return out


def _rate(call: Callable[[list[str]], object], deals: list[list[str]], runs: int) -> float:
    """Median evaluations per second over ``runs`` passes through ``deals``."""
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        for drawn in deals:
            call(drawn)
        rates.append(len(deals) / (time.perf_counter() - start))
    return statistics.median(rates)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7, help="passes to take the median of")
    parser.add_argument("--hands", type=int, default=20_000, help="deals per pass")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    n = args.hands
    joker_deck = FULL_DECK + JOKERS

    cases: list[tuple[str, Callable[[list[str]], object], list[list[str]]]] = [
        ("rank_five", rank_five, _deals(rng, n, 5, FULL_DECK)),
        ("best_five, 7 cards", best_five, _deals(rng, n, 7, FULL_DECK)),
        ("best_five, 9 cards", best_five, _deals(rng, n, 9, FULL_DECK)),
        (
            "best_five, 7 cards, jokers (1+ wild)",
            lambda d: best_five(d, wilds="jokers"),
            _with_wild(rng, n, "jokers", joker_deck),
        ),
        (
            "best_two_plus_three, no wilds",
            lambda d: best_two_plus_three(d[:2], d[2:]),
            _deals(rng, n, 7, FULL_DECK),
        ),
        (
            "best_two_plus_three, jokers (deck of 54)",
            lambda d: best_two_plus_three(d[:2], d[2:], wilds="jokers"),
            _deals(rng, n, 7, joker_deck),
        ),
        (
            "best_two_plus_three, jokers (1+ wild)",
            lambda d: best_two_plus_three(d[:2], d[2:], wilds="jokers"),
            _with_wild(rng, n, "jokers", joker_deck),
        ),
        (
            "best_two_plus_three, deuces (1+ wild)",
            lambda d: best_two_plus_three(d[:2], d[2:], wilds="deuces"),
            _with_wild(rng, n, "deuces", FULL_DECK),
        ),
        # R79: low hands and the short deck
        ("best_low, ace-to-five, 7 cards", lambda d: best_low(d, LowRule.ACE_TO_FIVE),
         _deals(rng, n, 7, FULL_DECK)),
        ("best_low, eight or better, 7 cards",
         lambda d: best_low(d, LowRule.EIGHT_OR_BETTER), _deals(rng, n, 7, FULL_DECK)),
        ("best_low, deuce-to-seven, 5 cards", lambda d: best_low(d, LowRule.DEUCE_TO_SEVEN),
         _deals(rng, n, 5, FULL_DECK)),
        ("best_low, four suits, 4 cards", lambda d: best_low(d, LowRule.FOUR_SUITS),
         _deals(rng, n, 4, FULL_DECK)),
        ("best_low_two_plus_three, 8 or better, 4+5",
         lambda d: best_low_two_plus_three(d[:4], d[4:], LowRule.EIGHT_OR_BETTER),
         _deals(rng, n, 9, FULL_DECK)),
        ("best_two_plus_three, 4+5 (its high half)",
         lambda d: best_two_plus_three(d[:4], d[4:]), _deals(rng, n, 9, FULL_DECK)),
        ("best_five_short_deck, 7 cards", best_five_short_deck,
         _deals(rng, n, 7, tuple(c for c in FULL_DECK if c[0] in "6789TJQKA"))),
    ]

    print(f"Python {sys.version.split()[0]}, {n} deals per pass, median of {args.runs} passes")
    backends = evaluator.available()
    rates = {}
    for backend in backends:
        use_evaluator(backend.value)
        evaluator.warm_up()
        for label, call, deals in cases:
            rates[backend, label] = _rate(call, deals, args.runs)
    heads = "".join(f" {b.value + ' evals/s':>15} {'us':>6}" for b in backends)
    print(f"{'function':<42}{heads}")
    print("-" * (42 + 22 * len(backends)))
    for label, _call, _hands in cases:
        cells = "".join(
            f" {rates[b, label]:>15,.0f} {1e6 / rates[b, label]:>6.1f}" for b in backends
        )
        print(f"{label:<42}{cells}")


if __name__ == "__main__":
    main()
