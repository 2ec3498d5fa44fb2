"""Showdown speed: a 13-player Texas Dozen showdown (every player's best of 12 lines) and a
22-player King's Pot showdown, from the dealer's tap to the settled table.

Run: python bench/bench_showdown.py [--repeat N] [--backend pure|eval7|all]

It times ``Table.apply(showdown)`` (which includes copying the deal, R9) and, separately,
the hand evaluation and pot settlement alone, once per evaluator backend (side by side in
one run). It prints medians over many prepared deals; the target is at most 2 ms each on the
project's 2-core machine. The pure backend's tables are filled first (``warm_up``, as the
server does when it starts); the first line per backend is one showdown with empty tables.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from dealer_assist.core import evaluator
from dealer_assist.core.autoplay import legal_actions, showdown_action
from dealer_assist.core.engine import current_phase
from dealer_assist.core.hands import use_evaluator
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table


def table_at_showdown(variant: str, players: int, seed: int) -> Table:
    """A table whose next step is the showdown, everyone still in (checks and calls only)."""
    rng = random.Random(seed)
    t = new_table(variant, [f"P{i}" for i in range(players)])
    t = t.apply(t.prepare({"type": "start_deal"}))
    while t.step()["kind"] != "showdown":
        options = legal_actions(t, rng)
        passive = [a for a in options if a["type"] in ("next", "reveal", "check", "call")]
        if t.step()["kind"] == "buy":
            passive = [a for a in options if a["count"] == 1]
        t = t.apply(t.prepare(passive[0] if passive else options[0]))
    return t


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def time_each(cases: list[tuple[Table, object]], run: Callable[[Table, object], object]
              ) -> list[float]:
    times = []
    for table, body in cases:
        start = time.perf_counter()
        run(table, body)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=200, help="deals per game")
    parser.add_argument("--backend", default="all", help="pure, eval7 or all (those installed)")
    args = parser.parse_args()
    names = ([b.value for b in evaluator.available()] if args.backend == "all"
             else [args.backend])
    prepared = prepare(args.repeat)
    for name in names:
        use_evaluator(name)
        first_table, first_action = prepared[0][2][0]
        cold = time_each([(first_table, first_action)], lambda t, a: t.apply(a))[0]
        evaluator.warm_up()
        print(f"\nbackend {name}: one Texas Dozen showdown, empty tables: {cold * 1000:.3f} ms")
        print(f"{'showdown':<34} {'apply median':>13} {'p90':>9} {'settle only':>12}")
        for label, _players, cases in prepared:
            applied = time_each(cases, lambda t, a: t.apply(a))
            settle_times = [settle_time(t, a) for t, a in cases]
            applied.sort()
            print(f"{label:<34} {median_ms(applied):>10.3f} ms "
                  f"{applied[int(len(applied) * 0.9)] * 1000:>6.3f} ms "
                  f"{median_ms(settle_times):>9.3f} ms")


def prepare(repeat: int) -> list[tuple[str, int, list[tuple[Table, object]]]]:
    """Every game's tables at the showdown, with the showdown action prepared."""
    out = []
    for label, variant, players in (
        ("Texas Dozen, 13 players", "texas_dozen", 13),
        ("King's Pot, 22 players", "kings_pot", 22),
        ("Off-Road Stud, 12 players", "off_road_stud", 12),
        ("21 Hand Hold'em, 8, jokers wild", "twenty_one_hand_holdem", 8),
    ):
        cases = []
        for seed in range(repeat):
            if variant == "twenty_one_hand_holdem":
                t = new_table(variant, [f"P{i}" for i in range(players)],
                                 {"wilds": "jokers"})
                t = table_at_showdown_21(t, seed)
            else:
                t = table_at_showdown(variant, players, seed)
            body = showdown_action(t, t.next_step(), random.Random(seed))
            cases.append((t, t.prepare(body)))
        out.append((label, players, cases))
    return out


def settle_time(t: Table, action: object) -> float:
    """Hand evaluation and pot settlement alone, without copying the deal."""
    deal = t.deal.clone()
    start = time.perf_counter()
    current_phase(t.game, deal).handle(t.game, deal, action)
    return time.perf_counter() - start


def table_at_showdown_21(t: Table, seed: int) -> Table:
    rng = random.Random(seed)
    t = t.apply(t.prepare({"type": "start_deal"}))
    while t.step()["kind"] != "showdown":
        options = legal_actions(t, rng)
        keep = [a for a in options if a["type"] in ("next", "reveal", "pay", "draw")]
        t = t.apply(t.prepare(keep[0]))
    return t


if __name__ == "__main__":
    main()
