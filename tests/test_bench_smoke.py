"""Every script under bench/ runs on today's code (issue 32: bench_league.py had stopped, on
``Table.create``'s new first argument, and nothing noticed). Each runs as a subprocess at a
tiny size, a few at a time, with ``BENCH_SMOKE=1`` (bench/_common.py: no target judged, since
tiny figures mean nothing); each must exit 0. Its figures are not read: docs/benchmarks.md
has the real runs. Every script that starts a server starts its own, on this machine."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"

# (script, its arguments): the smallest run that still goes through each path of the script
RUNS: list[tuple[str, ...]] = [
    ("bench_settle.py",),
    ("bench_equity.py", "--spots", "1"),
    ("bench_showdown.py", "--repeat", "2"),
    ("bench_ranking.py", "--runs", "1", "--hands", "100"),
    ("bench_token_check.py", "--rounds", "20", "--devices", "2"),
    ("bench_replay.py", "--rounds", "1", "--sizes", "50"),
    ("bench_state.py", "--deals", "2", "--rounds", "1"),
    ("bench_commit.py", "--young", "2", "--old", "4", "--deals", "1"),
    ("bench_engines.py", "--actions", "4"),
    ("bench_league.py", "--tables", "2", "--deals", "12", "--rounds", "1"),
    ("bench_taps.py", "--games", "texas_holdem"),
    ("bench_phone_page.py", "--runs", "1"),
    ("bench_fanout.py", "--sizes", "3", "--rounds", "1", "--actions", "4", "--procs", "1",
     "--patches"),
    ("bench_action_path.py", "--actions", "4", "--phones", "2", "--rounds", "1"),
    ("fanout_floor.py", "--phones", "3", "--actions", "4", "--runs", "1"),
    ("trace_fanout.py", "--clients", "3", "--actions", "4", "--procs", "1"),
    ("bench_capacity.py", "--tables", "2", "--clients", "2", "--seconds", "2", "--procs", "1",
     "--senders", "1"),
    ("bench_capacity.py", "--idle", "--step", "10", "--max-phones", "20", "--tables", "2",
     "--procs", "1"),
    ("bench_idle_phones.py", "--phones", "20", "--files", "400", "--tables", "2", "--step",
     "10"),
    ("bench_scale_out.py", "--clients", "3", "--actions", "4", "--rounds", "1",
     "--client-procs", "1"),
    ("hostile_guest.py", "bench", "--actions", "4", "--sockets", "20", "--runs", "1"),
    ("guest_attacks.py", "freeze", "--sockets", "20", "--hold", "0.5", "--after", "2.5",
     "--quiet", "1.5"),
    ("guest_attacks.py", "joins", "--clients", "2", "--seconds", "1.5", "--quiet", "1"),
    ("guest_attacks.py", "slowloris", "--seconds", "12"),
    ("guest_attacks.py", "garbage", "--seconds", "1.5", "--quiet", "0.5"),
    ("guest_attacks.py", "flood", "--seconds", "1", "--quiet", "1"),
    ("bench_clock.py", "--clocks", "3", "--tables", "2", "--phones", "1", "--samples", "3",
     "--changes", "2", "--procs", "1"),
    ("guest_attacks.py", "equity", "--shows", "1", "--quiet", "0.5"),
    ("guest_attacks.py", "reads", "--kinds", "deals", "phhs", "--connections", "2", "2",
     "--deals", "30", "--seconds", "1"),
]
AT_ONCE = 4  # most of a smoke run is waiting on servers, sockets and sleeps
EACH_SECONDS = 240


def run(args: tuple[str, ...]) -> tuple[tuple[str, ...], int, float, str]:
    env = {**os.environ, "BENCH_SMOKE": "1", "DEALER_ASSIST_NO_MDNS": "1",
           "PYTHONUNBUFFERED": "1"}
    began = time.monotonic()
    try:
        done = subprocess.run([sys.executable, str(BENCH / args[0]), *args[1:]], env=env,
                              cwd=BENCH.parent, capture_output=True, text=True,
                              timeout=EACH_SECONDS, stdin=subprocess.DEVNULL)
        code, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as err:
        code, output = -1, f"still running after {EACH_SECONDS} s\n{err.stdout}{err.stderr}"
    return args, code, time.monotonic() - began, output


def test_every_script_in_bench_is_run() -> None:
    """A new script gets a line in RUNS (the helpers the others start are run through them)."""
    helpers = {"_common.py", "_ports.py", "bare_server.py", "raw_phones.py"}
    scripts = {path.name for path in BENCH.glob("*.py")} - helpers
    assert scripts == {args[0] for args in RUNS}


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_every_bench_script_runs_at_a_tiny_size() -> None:
    with ThreadPoolExecutor(AT_ONCE) as pool:
        results = list(pool.map(run, RUNS))
    for args, code, seconds, _ in results:
        print(f"[figures] bench smoke {' '.join(args)}: exit {code} in {seconds:.1f} s")
    failed = [f"{' '.join(args)}: exit {code}\n{output[-3000:]}"
              for args, code, _, output in results if code != 0]
    assert not failed, "\n\n".join(failed)
