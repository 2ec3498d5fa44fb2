"""Action commit: the time to apply, persist and answer one dealer action, at a young table
(10 finished deals) and an old one (1,000 finished deals), side by side.

Run: ``python bench/bench_commit.py [--young 10] [--old 1000] [--deals 4]``

One SQLite file is built with two King's Pot tables (8 players, buy-in 10,000 so nobody busts),
their deals played by random legal play and stored with the app's own ``storage`` functions
(records, and each deal's row with its base totals), in one transaction per table. The file
is then copied once per case, so each case starts from the same tables:

- in-process: ``create_app`` and Flask's test client against the real SQLite file (no
  sockets): ``POST /api/tables/<id>/actions`` from request to answer, i.e. token check,
  ``BEGIN IMMEDIATE``, apply, insert, ``COMMIT`` (fsync), the broadcast (no client listens)
  and the JSON answer;
- HTTP loopback: a real ``dealer-assist serve`` process, one kept-alive HTTP connection;
- each with ``PRAGMA synchronous`` FULL (as shipped) and NORMAL.

Actions of the next ``--deals`` deals are posted to the young and the old table in turn
(young, old, young, ...), so noise falls on both alike. Also timed: bringing a table back
from the file with an empty cache (``TableStore.load``: last deal's base + that deal's
records), which must not grow with the table's age. Target: median <= 2 ms.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    Poster,
    app_server,
    keep_pool,
    machine,
    median,
    percentile,
    pick,
    target_code,
)

from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table
from dealer_assist.services import storage
from dealer_assist.services.auth import hash_token
from dealer_assist.services.tables import TableStore, append_action, insert_table

PLAYERS = [f"P{i}" for i in range(1, 9)]
RULES = {"buy_in": 10_000}
TOKEN = "bench-token-not-secret-0123456789"


def build(db_path: Path, ages: dict[str, int], seed: int) -> dict[str, Table]:
    """Tables ``{id: finished deals}`` stored as the app stores them; returns the tables."""
    storage.init_db(db_path)
    db = storage.connect(db_path)
    tables: dict[str, Table] = {}
    try:
        for table_id, deals in ages.items():
            rng = random.Random(seed)
            table = new_table("kings_pot", PLAYERS, RULES)
            insert_table(db, table_id, table.setup, hash_token(TOKEN))
            with storage.write_transaction(db):
                for _ in range(deals):
                    table = store_deal(db, table_id, table, rng)
            tables[table_id] = table
    finally:
        db.close()
    return tables


def store_deal(db: Any, table_id: str, table: Table, rng: random.Random) -> Table:
    """One deal of random legal play, each record stored as ``TableStore.act`` stores it."""
    while True:
        body = pick(table, rng)
        assert body is not None, "the game is over"
        action = table.prepare(body)
        after = table.apply(action)
        append_action(db, table_id, table, after, action)
        table = after
        if table.deal_over:
            return table


def next_bodies(table: Table, deals: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    bodies: list[dict[str, Any]] = []
    done = 0
    while done < deals:
        body = pick(table, rng)
        assert body is not None, "the game is over"
        table = table.apply(table.prepare(body))
        bodies.append(body)
        done += table.deal_over
    return bodies


def alternate(bodies: dict[str, list[dict[str, Any]]],
              post: Callable[[str, dict[str, Any]], None]) -> dict[str, list[float]]:
    """Post each table's next action in turn (young, old, young, ...); time each."""
    times: dict[str, list[float]] = {table_id: [] for table_id in bodies}
    for i in range(max(len(b) for b in bodies.values())):
        for table_id, mine in bodies.items():
            if i < len(mine):
                t0 = time.perf_counter()
                post(table_id, mine[i])
                times[table_id].append(time.perf_counter() - t0)
    return times


def in_process(db_path: Path, bodies: dict[str, list[dict[str, Any]]],
               synchronous: str, pool_keep: int | None) -> dict[str, list[float]]:
    from dealer_assist.web.app import create_app

    pool = storage.ConnectionPool
    if pool_keep is not None:
        keep_pool(pool_keep)
    setup = storage.sqlite.connect_with

    def connect_with(conn: Any, *more: Any) -> Any:
        db = setup(conn, *more)
        db.execute(f"PRAGMA synchronous = {synchronous}")
        return db

    storage.sqlite.connect_with = connect_with  # type: ignore[assignment]
    try:
        app = create_app(db_path=db_path)
        client = app.test_client()
        headers = {"Authorization": f"Bearer {TOKEN}"}

        def post(table_id: str, body: dict[str, Any]) -> None:
            response = client.post(f"/api/tables/{table_id}/actions", json=body,
                                   headers=headers)
            if response.status_code != 200:
                raise RuntimeError(f"{response.status_code} {response.get_json()}")

        return alternate(bodies, post)
    finally:
        storage.sqlite.connect_with = setup  # type: ignore[assignment]
        storage.ConnectionPool = pool  # type: ignore[misc]


def over_http(db_path: Path, log: Path, bodies: dict[str, list[dict[str, Any]]],
              synchronous: str, pool_keep: int | None) -> dict[str, list[float]]:
    server = app_server(db_path, log, synchronous=None if synchronous == "FULL"
                        else synchronous, pool_keep=pool_keep)
    with server.start(ready_path="/api/tables"):
        poster = Poster(server.url, TOKEN)

        def post(table_id: str, body: dict[str, Any]) -> None:
            status, answer = poster.post(f"/api/tables/{table_id}/actions", body)
            if status != 200:
                raise RuntimeError(f"{status} {answer}")

        try:
            return alternate(bodies, post)
        finally:
            poster.close()


def cold_loads(db_path: Path, ids: list[str], repeat: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {table_id: [] for table_id in ids}
    db = storage.connect(db_path)
    try:
        for _ in range(repeat):
            for table_id in ids:
                store = TableStore()
                t0 = time.perf_counter()
                table = store.load(db, table_id)
                times[table_id].append(time.perf_counter() - t0)
                assert table is not None
    finally:
        db.close()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--young", type=int, default=10, help="finished deals, young table")
    parser.add_argument("--old", type=int, default=1000, help="finished deals, old table")
    parser.add_argument("--deals", type=int, default=4, help="deals to time at each table")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--before", action="store_true",
                        help="also time the server without its connection pool (a connection "
                             "opened and closed per request, as before the fix)")
    args = parser.parse_args(argv)
    print(machine())
    ages = {f"young{args.young}": args.young, f"old{args.old}": args.old}
    ids = list(ages)
    with tempfile.TemporaryDirectory(prefix="bench-commit-") as tmp_name:
        tmp = Path(tmp_name)  # /tmp is on the disk here (ext4), not a tmpfs: fsync is real
        base = tmp / "base.db"
        t0 = time.perf_counter()
        tables = build(base, ages, args.seed)
        db = storage.connect(base)
        rows = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        db.close()
        print(f"built {base.stat().st_size / 1e6:.1f} MB, {rows} action records, in "
              f"{time.perf_counter() - t0:.1f} s")
        seqs = {table_id: t.seq for table_id, t in tables.items()}
        bodies = {table_id: next_bodies(t, args.deals, args.seed + 1)
                  for table_id, t in tables.items()}
        print(f"tables at seq {seqs}; timing the next {args.deals} deals at each: "
              f"{ {k: len(v) for k, v in bodies.items()} } actions")
        results: dict[str, dict[str, list[float]]] = {}
        cases = [(where, synchronous, None) for synchronous in ("FULL", "NORMAL")
                 for where in ("in-process", "HTTP")]
        if args.before:
            cases += [(where, "FULL", 0) for where in ("in-process", "HTTP")]
        for where, synchronous, keep in cases:
            db_path = tmp / f"{where}-{synchronous}-{keep}.db"
            shutil.copyfile(base, db_path)
            label = f"{where}, {synchronous}" + (", no pool" if keep == 0 else "")
            if where == "in-process":
                results[label] = in_process(db_path, bodies, synchronous, keep)
            else:
                results[label] = over_http(db_path, tmp / "server.log", bodies, synchronous,
                                           keep)
        loads = cold_loads(base, ids, 30)
    print()
    print(f"{'case':<30} {'young: median':>14} {'p90':>8} {'old: median':>12} {'p90':>8} "
          f"{'old/young':>9}")
    for label, times in results.items():
        y, o = times[ids[0]], times[ids[1]]
        print(f"{label:<30} {median(y) * 1000:>11.2f} ms "
              f"{percentile(y, 90) * 1000:>5.2f} ms {median(o) * 1000:>9.2f} ms "
              f"{percentile(o, 90) * 1000:>5.2f} ms {median(o) / median(y):>8.2f}x")
    y, o = loads[ids[0]], loads[ids[1]]
    print(f"{'load, empty cache (replay)':<30} {median(y) * 1000:>11.2f} ms "
          f"{percentile(y, 90) * 1000:>5.2f} ms {median(o) * 1000:>9.2f} ms "
          f"{percentile(o, 90) * 1000:>5.2f} ms {median(o) / median(y):>8.2f}x")
    full = results["in-process, FULL"]
    worst = max(median(full[i]) for i in ids)
    print("target met" if worst <= 0.002 else "target missed",
          f"(in-process, FULL, median {worst * 1000:.2f} ms; target 2 ms)")
    return target_code(worst <= 0.002)


if __name__ == "__main__":
    sys.exit(main())
