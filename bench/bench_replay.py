"""Replaying one long deal: the cost of n records, undo included, should grow as n.

Run: python bench/bench_replay.py [--rounds R] [--sizes N ...] [--baseline REF] [--baseline-max N]

Three deals of the two-player board game, each ``n`` records long (start_deal and next
included), replayed by ``Table.replay`` as crash recovery and the store's reload do it:

- ``raises``: every other record a minimum raise;
- ``raise/undo``: raise, undo, raise, undo, ...;
- ``raises, then undo/raise``: n/2 raises, then undo and raise again, n/4 times each, so every
  undo takes back a record of a long deal.

Each size is timed ``--rounds`` times (the median, in ms). ``--baseline REF`` runs the same
deals against the commit REF (``git archive`` into a temporary folder, in a subprocess, the
rounds alternating with this code's) for the sizes up to ``--baseline-max``: a quadratic
replay there would take minutes at 10,000 records.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_state import run_at, unpack

from dealer_assist.games.registry import new_table

VARIANT = "texas_dozen"  # two players, no limit: a raise can follow a raise forever
SIZES = (1250, 2500, 5000, 10000)
SHAPES = ("raises", "raise/undo", "raises, then undo/raise")


def records(shape: str, n: int) -> list[dict[str, Any]]:
    """The JSON records of one deal of ``n`` records (Ann and Bob raise by the big blind)."""

    t = new_table(VARIANT, [{"name": "Ann", "stack": 10**8}, {"name": "Bob", "stack": 10**8}])
    out: list[dict[str, Any]] = []

    def take(body: dict[str, Any]) -> None:
        nonlocal t
        t = t.apply(t.prepare(body))
        out.append(body)

    def raise_once() -> None:
        step = t.step()
        take({"type": "raise", "player": step["player"], "amount": step["min_raise_to"]})

    take({"type": "start_deal"})
    take({"type": "next"})  # the hole cards are dealt: the pre-flop betting starts
    while len(out) < n:
        if shape == "raises" or (shape != "raise/undo" and len(out) < n // 2):
            raise_once()
        elif shape == "raise/undo":
            raise_once()
            take({"type": "undo"})
        else:
            take({"type": "undo"})
            raise_once()
    return out[:n]


def replay_ms(bodies: list[dict[str, Any]]) -> float:
    from dealer_assist.core.actions import Action
    from dealer_assist.core.table import Table

    empty = new_table(VARIANT, [{"name": "Ann", "stack": 10**8},
                                   {"name": "Bob", "stack": 10**8}])
    actions = [Action.from_json(b) for b in bodies]
    start = time.perf_counter()
    table = Table.replay(empty.setup, empty.base, actions)
    elapsed = time.perf_counter() - start
    assert table.seq == len(actions)
    return elapsed * 1000


def one_round(deals: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    return {key: replay_ms(bodies) for key, bodies in deals.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES),
                        help="records in a deal")
    parser.add_argument("--baseline", help="a commit to compare with, e.g. main")
    parser.add_argument("--baseline-max", type=int, default=2500)
    parser.add_argument("--replay", help=argparse.SUPPRESS)  # the subprocess's deals file
    args = parser.parse_args()
    if args.replay:
        print(json.dumps(one_round(json.loads(Path(args.replay).read_text()))))
        return
    deals = {f"{shape}|{n}": records(shape, n) for shape in SHAPES for n in args.sizes}
    older = {k: v for k, v in deals.items() if int(k.split("|")[1]) <= args.baseline_max}
    ours: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "deals.json"
        file.write_text(json.dumps(older))
        base_dir = unpack(args.baseline, Path(tmp) / "baseline") if args.baseline else None
        for _ in range(args.rounds):
            ours.append(one_round(deals))
            if base_dir is not None:
                theirs.append(run_at(base_dir, __file__, file))
    print(f"Table.replay of one deal, median ms of {args.rounds} rounds")
    head = "| deal | records | this code | ms per 1,000 |"
    print(head + (f" {args.baseline} |" if theirs else ""))
    print("| --- | ---: | ---: | ---: |" + (" ---: |" if theirs else ""))
    for key in deals:
        shape, n = key.split("|")
        now = statistics.median(r[key] for r in ours)
        row = f"| {shape} | {int(n):,} | {now:.0f} | {now * 1000 / int(n):.1f} |"
        if theirs:
            row += (f" {statistics.median(r[key] for r in theirs):.0f} |" if key in older
                    else " (not run) |")
        print(row)


if __name__ == "__main__":
    main()
