"""Rules-core speed per dealer tap: ``Table.apply(action)`` and the state build
(``table_state``, public and the dealer's), on recorded random deals of every game.

Run: python bench/bench_state.py [--deals N] [--rounds R] [--baseline REF] [--code REF]

``apply_settled`` and ``state_settled`` are the same medians over the records that start from
or leave a settled deal (its ``Result``): the showdown and what follows it.

The deals are played once by ``autoplay`` (fixed seeds) and stored as JSON records; each
round replays every record, timing each apply and each state build, and takes the median per
game. ``--baseline REF`` extracts the commit REF (``git archive``) into a temporary folder and
runs the same replay against it in a subprocess, alternating rounds with the current code, so
both sides share the machine's noise; it prints the two side by side. Then each side runs in
a fresh process a round, the same warm-up for both. ``--code REF`` measures the commit REF
instead of this checkout: what one change cost against its baseline, before later work.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = {
    "kings_pot": 10,
    "kings_pot_optional": 10,
    "texas_dozen": 9,
    "off_road_stud": 8,
    "twenty_one_hand_holdem": 6,
}


# per record: apply, the public and the dealer's state; then apply and the public state of
# the records that start from or leave a deal's result (the showdown and what follows it)
MEASURES = ("apply", "state", "dealer_state", "apply_settled", "state_settled")
LATER_TYPES = {"run_twice", "show"}


def table_maker() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """How this code makes a table and reads a record; the same for a ``--baseline`` from
    before games plugged in through a catalogue (issue 21), which ``run_at`` runs this script
    on: there ``Table.create`` made a table and ``Action.from_json`` took the body alone."""
    from dealer_assist.core.actions import Action

    try:
        from dealer_assist.games.registry import CATALOGUE, new_table
    except ImportError:
        from dealer_assist.core.table import Table

        return Table.create, Action.from_json
    return new_table, lambda body: Action.from_json(body, CATALOGUE.place_fields)


def record_deals(deals: int) -> dict[str, list[dict[str, Any]]]:
    from dealer_assist.core.autoplay import legal_actions

    new_table, _ = table_maker()

    out: dict[str, list[dict[str, Any]]] = {}
    for variant, players in GAMES.items():
        rng = random.Random(7)
        t = new_table(variant, [f"P{i}" for i in range(players)])
        records: list[dict[str, Any]] = []
        for _ in range(deals):
            action = t.prepare({"type": "start_deal"})
            try:
                t = t.apply(action)
            except ValueError:  # a game of a fixed number of deals is over
                break
            records.append(action.to_json())
            while not t.deal_over:
                # the records every release since issue 14 takes, so that --baseline replays
                # them too (a bomb pot, run it twice and tabled hands came with issue 23)
                choices = [a for a in legal_actions(t, rng) if a["type"] not in LATER_TYPES]
                action = t.prepare(rng.choice(choices))
                t = t.apply(action)
                records.append(action.to_json())
        out[variant] = records
    return out


def replay_round(recorded: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, float]]:
    """Median µs per record of apply, the public state and the dealer's state, per game."""
    from dealer_assist.web.state import table_state

    new_table, read_action = table_maker()
    out: dict[str, dict[str, float]] = {}
    for variant, records in recorded.items():
        players = [f"P{i}" for i in range(GAMES[variant])]
        t = new_table(variant, players)
        applies, public, dealer = [], [], []
        settled_applies, settled_public = [], []  # the records that leave a result standing
        for body in records:
            action = read_action(body)
            settled = t.deal is not None and t.deal.result is not None
            start = time.perf_counter()
            t = t.apply(action)
            applies.append(time.perf_counter() - start)
            start = time.perf_counter()
            table_state(t)
            public.append(time.perf_counter() - start)
            start = time.perf_counter()
            table_state(t, dealer=True)
            dealer.append(time.perf_counter() - start)
            if settled or (t.deal is not None and t.deal.result is not None):
                settled_applies.append(applies[-1])
                settled_public.append(public[-1])
        out[variant] = {
            name: statistics.median(xs) * 1e6
            for name, xs in (
                ("apply", applies),
                ("state", public),
                ("dealer_state", dealer),
                ("apply_settled", settled_applies),
                ("state_settled", settled_public),
            )
            if xs
        }
    return out


def unpack(ref: str, folder: Path) -> Path:
    """The tree of commit ``ref`` of this repository, unpacked into ``folder``."""
    folder.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def run_at(base_dir: Path, script: str, data: Path) -> Any:
    """``script --replay data`` on the code unpacked in ``base_dir``: its JSON answer."""
    env = {**os.environ, "PYTHONPATH": str(base_dir), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, script, "--replay", str(data)],
        env=env,
        cwd=base_dir,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", help="a commit to compare with, e.g. main")
    parser.add_argument(
        "--code",
        help="a commit to measure instead of this checkout (with "
        "--baseline: what one change cost, before later work was added)",
    )
    parser.add_argument("--replay", help=argparse.SUPPRESS)  # the subprocess's records file
    args = parser.parse_args()
    if args.replay:
        print(json.dumps(replay_round(json.loads(Path(args.replay).read_text()))))
        return
    recorded = record_deals(args.deals)
    with tempfile.TemporaryDirectory() as tmp:
        records = Path(tmp) / "records.json"
        records.write_text(json.dumps(recorded))
        base_dir = unpack(args.baseline, Path(tmp) / "baseline") if args.baseline else None
        code_dir = unpack(args.code, Path(tmp) / "code") if args.code else ROOT
        ours: list[dict[str, dict[str, float]]] = []
        theirs: list[dict[str, dict[str, float]]] = []
        for _ in range(args.rounds):
            # each side in a process of its own, a fresh one a round: the same warm-up for both
            measured = base_dir or args.code
            ours.append(run_at(code_dir, __file__, records) if measured else replay_round(recorded))
            if base_dir is not None:
                theirs.append(run_at(base_dir, __file__, records))
    print(f"median µs per record, median of {args.rounds} rounds, {args.deals} deals per game")
    head = f"| game | measure | {args.code or 'this code'} |"
    head += f" {args.baseline} | change |" if theirs else ""
    print(head)
    print("| --- | --- | ---: |" + (" ---: | ---: |" if theirs else ""))
    for variant in GAMES:
        for measure in MEASURES:
            now = statistics.median(r[variant][measure] for r in ours)
            row = f"| {variant} | {measure} | {now:.1f} |"
            if theirs:
                then = statistics.median(r[variant][measure] for r in theirs)
                row += f" {then:.1f} | {100 * (now - then) / then:+.0f}% |"
            print(row)


if __name__ == "__main__":
    main()
