"""Action commit on each storage engine: the time of a dealer's ``POST .../actions`` from
request to answer, on SQLite (a file, ``synchronous=FULL``, as shipped) and on PostgreSQL
(a local server on loopback, default ``synchronous_commit=on``), side by side in one run.

Run: ``python bench/bench_engines.py [--actions 400]``

Two ``dealer-assist serve`` processes on loopback, one on a SQLite file in a temporary folder
(on the disk: fsync is real), one on a database of a PostgreSQL server started here
(tests/postgres_server.py: Debian's PostgreSQL, its own data folder and port, stopped at the
end). Each gets a King's Pot table (8 players) and the same random legal actions, posted in
turn (SQLite, PostgreSQL, SQLite, ...) over one kept-alive connection each, so noise falls on
both alike. Prints the median, p90 and p99 of each and their ratios.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from _common import (
    HOST,
    REPO,
    Poster,
    ServerProcess,
    action_script,
    create_table,
    free_port,
    machine,
    median,
    percentile,
)

sys.path.insert(0, str(REPO / "tests"))
from postgres_server import PostgresServer

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
RULES = {"buy_in": 10_000}


def serve(db: str, log: Path) -> ServerProcess:
    port = free_port()
    return ServerProcess([sys.executable, "-m", "dealer_assist", "serve", "--host", HOST,
                          "--port", str(port), "--db", db, "--no-mdns"], log, port)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=400, help="actions timed per engine")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    print(machine())
    bodies = action_script("kings_pot", PLAYERS, args.actions, args.seed, RULES)
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp_name:
        tmp = Path(tmp_name)
        postgres = PostgresServer(tmp / "postgres")
        try:
            targets = {"SQLite": str(tmp / "dealer.db"),
                       "PostgreSQL": postgres.new_database("bench")}
            procs = {name: serve(db, tmp / f"{name}.log") for name, db in targets.items()}
            try:
                for proc in procs.values():
                    proc.start(ready_path="/api/tables")
                made = {name: create_table(proc.url, "kings_pot", PLAYERS, RULES)
                        for name, proc in procs.items()}
                posters = {name: Poster(procs[name].url, made[name]["dealer_token"])
                           for name in procs}
                times: dict[str, list[float]] = {name: [] for name in procs}
                for body in bodies:
                    for name, poster in posters.items():
                        t0 = time.perf_counter()
                        status, answer = poster.post(
                            f"/api/tables/{made[name]['id']}/actions", body)
                        times[name].append(time.perf_counter() - t0)
                        if status != 200:
                            raise RuntimeError(f"{name}: {status} {answer}")
                for poster in posters.values():
                    poster.close()
            finally:
                for proc in procs.values():
                    proc.stop()
        finally:
            postgres.stop()
    print(f"{len(bodies)} actions per engine, posted in turn\n")
    print(f"{'engine':<12} {'median':>9} {'p90':>9} {'p99':>9}")
    for name, samples in times.items():
        print(f"{name:<12} {median(samples) * 1000:>6.2f} ms {percentile(samples, 90) * 1000:>6.2f}"
              f" ms {percentile(samples, 99) * 1000:>6.2f} ms")
    pg, lite = times["PostgreSQL"], times["SQLite"]
    print(f"{'PG/SQLite':<12} {median(pg) / median(lite):>8.2f}x "
          f"{percentile(pg, 90) / percentile(lite, 90):>8.2f}x "
          f"{percentile(pg, 99) / percentile(lite, 99):>8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
