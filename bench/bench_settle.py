"""How long settle-up takes at the sizes a home game can reach.

    python bench/bench_settle.py

The exact search (``dealer_assist.services.ledger``) is ``2^n * n`` in the number ``n`` of
balances left
after pairing off opposites; it runs up to ``EXACT_LIMIT`` (16). Beyond that the greedy
fallback is linear-ish. Each size is timed on balances with no opposite pairs (the worst case).
"""

from __future__ import annotations

import random
import time

from dealer_assist.services.ledger import EXACT_LIMIT, settle


def worst_case(n: int, rng: random.Random) -> dict[str, int]:
    """``n`` non-zero balances summing to zero, no two opposite (so nothing pairs off)."""
    while True:
        values = [rng.choice([-1, 1]) * rng.randint(1, 400) for _ in range(n - 1)]
        values.append(-sum(values))
        if values[-1] and not any(-v in values for v in values):
            return {f"P{i}": v for i, v in enumerate(values)}


def main() -> None:
    rng = random.Random(4)
    print(f"{'balances':>8} {'seconds':>8} {'transfers':>9}  exact")
    for n in (4, 8, 12, 14, EXACT_LIMIT, EXACT_LIMIT + 1, 23):
        balances = worst_case(n, rng)
        start = time.perf_counter()
        result = settle(balances)
        took = time.perf_counter() - start
        print(f"{n:>8} {took:>8.3f} {len(result.transfers):>9}  {result.optimal}")


if __name__ == "__main__":
    main()
