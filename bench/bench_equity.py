"""How long the dealer waits for the equity (R67) once the hands are tabled at an all-in.

Run from the repository root: ``python bench/bench_equity.py [--spots 200] [--backend all]``.

Each case is many different random spots (fixed seed: every run deals the same ones), each
timed once from the cards to the figures, with the cache of figures already seen emptied
first, as for cards never seen before. Quoted: the median and the 99th percentile, per
evaluator backend side by side in one run (the pure one's tables filled first, as the server
does when it starts), and whether the case is counted exactly or sampled.

- a 3-way all-in on the flop (Hold'em): the 903 turn-and-river pairs are counted exactly;
- a heads-up all-in pre-flop (Hold'em): 1.7 million boards, so a sample, with its margin;
- the same two in Omaha, and a heads-up pre-flop all-in run twice, for comparison;
- one hand tabled and the other not yet (R67 lets the dealer table them one by one), which
  counts every hand the unseen player may hold: heads up pre-flop and on the turn in Hold'em,
  on the flop in Omaha.
"""

from __future__ import annotations

import argparse
import random
import time

from _common import percentile  # puts the repository on the path, as every bench does

from dealer_assist.core import equity as equity_module
from dealer_assist.core import evaluator
from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.equity import HandRule, equity

SEED = 20261203

# (label, players, board cards turned, runs, rule, spots as a share of --spots, hands not
# tabled yet)
CASES: tuple[tuple[str, int, int, int, HandRule, float, int], ...] = (
    ("Hold'em, 3-way all-in on the flop", 3, 3, 1, HandRule.BEST_FIVE, 1.0, 0),
    ("Hold'em, heads-up all-in pre-flop", 2, 0, 1, HandRule.BEST_FIVE, 0.5, 0),
    ("Hold'em, heads-up pre-flop, run twice: run 1 to its turn", 2, 4, 2,
     HandRule.BEST_FIVE, 0.25, 0),
    ("Omaha, 3-way all-in on the flop", 3, 3, 1, HandRule.TWO_PLUS_THREE, 0.25, 0),
    ("Omaha, heads-up all-in pre-flop", 2, 0, 1, HandRule.TWO_PLUS_THREE, 0.25, 0),
    ("Hold'em, heads-up pre-flop, one hand tabled", 2, 0, 1, HandRule.BEST_FIVE, 0.25, 1),
    ("Hold'em, heads-up on the turn, one hand tabled", 2, 4, 1, HandRule.BEST_FIVE, 0.25, 1),
    ("Omaha, heads-up on the flop, one hand tabled", 2, 3, 1, HandRule.TWO_PLUS_THREE, 0.25,
     1),
)


def spot(rng: random.Random, players: int, board: int, runs: int, rule: HandRule,
         unseen: int = 0) -> tuple[dict[str, list[str] | None], list[list[str]]]:
    """Random hands and boards; the last ``unseen`` hands not tabled (None). With two runs,
    ``board`` counts run 1's cards after an all-in pre-flop (its flop and turn: run 2 has
    none yet), so both runs are counted."""
    hole = 4 if rule is HandRule.TWO_PLUS_THREE else 2
    cards = rng.sample(FULL_DECK, players * hole + board)
    hands: dict[str, list[str] | None] = {
        f"P{i}": cards[i * hole:(i + 1) * hole] if i < players - unseen else None
        for i in range(players)}
    turned = cards[players * hole:]
    return hands, ([turned] if runs == 1 else [turned, []])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--spots", type=int, default=200, help="spots of the first case")
    parser.add_argument("--backend", default="all", help="pure, eval7 or all (installed)")
    args = parser.parse_args()
    backends = ([b.value for b in evaluator.available()] if args.backend == "all"
                else [args.backend])
    evaluator.warm_up()
    print(f"{'case':64} {'backend':8} {'median':>9} {'p99':>9} {'max':>9}  counted")
    for label, players, board, runs, rule, share, unseen in CASES:
        count = max(min(10, args.spots), int(args.spots * share))  # 10 at least, as a rule
        for backend in backends:
            rng = random.Random(SEED)
            times: list[float] = []
            margins: list[float] = []
            exact = True
            for _ in range(count):
                hands, boards = spot(rng, players, board, runs, rule, unseen)
                equity_module._equity.cache_clear()  # cards never seen before
                start = time.perf_counter()
                got = equity(hands, boards, rule=rule, backend=backend)
                times.append(time.perf_counter() - start)
                exact = exact and got.exact
                margins.append(got.margin)
            counted = ("exactly" if exact else
                       f"sampled, margin up to ±{100 * max(margins):.1f} points")
            print(f"{label:64} {backend:8} {percentile(times, 50) * 1000:7.1f}ms "
                  f"{percentile(times, 99) * 1000:7.1f}ms {max(times) * 1000:7.1f}ms  "
                  f"{counted} ({count} spots)")


if __name__ == "__main__":
    main()
