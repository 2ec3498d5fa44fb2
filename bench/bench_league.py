"""The season (R78) over 100 tables of 300 deals each: ``GET /api/league`` on each engine, side by
side in one run. Issue 24 asks for at most 200 ms.

Run: ``python bench/bench_league.py [--tables 100] [--deals 300] [--rounds 9]``

One table of King's Pot, eight friends, ``--deals`` random legal deals (``core.autoplay``), a
rebuy for whoever runs low and one newcomer, 30 deals a night and a night a week, is replayed by the
import's own code (``history.rebuild``: the very rows a played table has, ``people_json`` and
``after_json`` included) and stored ``--tables`` times, each copy a day later than the one
before, in a SQLite file and in a database of a PostgreSQL server started here
(tests/postgres_server.py). Then, in turn per engine, each round times:

- ``season``: ``services.league.season`` (the rows read, the figures and the chart's points);
- ``GET /api/league``: the same through the app, its JSON included (Flask's test client, the
  request on the server's own machine, so the host's);
- ``range``: ``GET /api/league?from=...&to=...`` over a quarter of the nights.

Prints each one's median and the slowest round, per engine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from _common import REPO, machine

sys.path.insert(0, str(REPO / "tests"))
from postgres_server import PostgresServer

from dealer_assist.core.autoplay import legal_actions
from dealer_assist.games.registry import new_table
from dealer_assist.services import history, storage
from dealer_assist.services.auth import hash_token
from dealer_assist.services.league import season
from dealer_assist.web.app import create_app

PLAYERS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
RULES = {"buy_in": 1_000}
FIRST_NIGHT = datetime(2026, 1, 2, 19, 0)


def one_table(deals: int, seed: int) -> dict[str, Any]:
    """A table's export file: ``deals`` random deals, 30 a night, a night a week."""
    rng = random.Random(seed)
    table = new_table("kings_pot", PLAYERS, RULES)
    records: list[dict[str, Any]] = []

    def take(body: dict[str, Any], when: datetime) -> None:
        nonlocal table
        action = table.prepare(body)
        table = table.apply(action)
        records.append({"seq": table.seq, "time": when.isoformat() + "+00:00",
                        "action": action.to_json()})

    for number in range(deals):
        night, within = divmod(number, 30)
        when = FIRST_NIGHT + timedelta(days=7 * night, minutes=6 * within)
        if number == deals // 2:
            take({"type": "seat", "player": "Ivy", "stack": 1_000}, when)
        for name, stack in zip(table.totals.names, table.totals.stacks, strict=True):
            if stack < 100:  # down to a few antes: a rebuy, as at a real table
                take({"type": "rebuy", "player": name, "amount": 1_000}, when)
        take({"type": "start_deal"}, when)
        while not table.deal_over:
            take(rng.choice(legal_actions(table, rng)), when)
    return {"format": history.EXPORT_FORMAT, "version": history.EXPORT_VERSION,
            "setup": table.setup.to_json(), "actions": records}


def later(rows: list[dict[str, Any]], days: int, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """The rows with their times ``days`` later."""
    def shift(text: str | None) -> str | None:
        if text is None:
            return None
        return (datetime.fromisoformat(text) + timedelta(days=days)).isoformat(
            timespec="seconds")

    moved = [{**row, **{k: shift(row[k]) for k in keys}} for row in rows]
    for row in moved:
        if "day" in row:  # the day the deal counts for, in this server's time zone
            row["day"] = storage.local_day(row["started"])
    return moved


def store(target: str, rebuilt: history.Rebuilt, tables: int) -> None:
    """``tables`` copies of the rebuilt table, each a day later than the one before."""
    storage.init_db(target)
    db = storage.connect(target)
    try:
        for i in range(tables):
            copy = history.Rebuilt(rebuilt.setup, rebuilt.created,
                                   later(rebuilt.actions, i, ("created",)),
                                   later(rebuilt.deals, i, ("started", "finished")))
            history.import_table(db, f"bench{i:04d}", hash_token(f"token-{i}"), copy)
    finally:
        db.close()


def timed(fn: Any) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args(argv)
    print(machine())
    t0 = time.perf_counter()
    rebuilt = history.rebuild(one_table(args.deals, seed=7))
    print(f"one table: {len(rebuilt.deals)} deals, {len(rebuilt.actions)} records "
          f"({time.perf_counter() - t0:.1f} s to play and rebuild)")
    with tempfile.TemporaryDirectory(prefix="bench-league-") as tmp_name:
        tmp = Path(tmp_name)
        postgres = PostgresServer(tmp / "postgres")
        try:
            targets = {"SQLite": str(tmp / "league.db"),
                       "PostgreSQL": postgres.new_database("league")}
            for name, target in targets.items():
                t0 = time.perf_counter()
                store(target, rebuilt, args.tables)
                print(f"{name}: {args.tables} tables stored in {time.perf_counter() - t0:.1f} s")
            apps = {name: create_app(db_path=target) for name, target in targets.items()}
            clients = {name: app.test_client() for name, app in apps.items()}
            dbs = {name: storage.connect(target) for name, target in targets.items()}
            nights = season(dbs["SQLite"])["nights"]
            first = len(nights) // 3
            span = f"?from={nights[first]}&to={nights[first + len(nights) // 4]}"
            answer = clients["SQLite"].get("/api/league").get_json()
            assert clients["PostgreSQL"].get("/api/league").get_json() == answer
            print(f"the season: {len(answer['people'])} people, {len(nights)} nights, "
                  f"{sum(p['deals'] for p in answer['people']):,} people-deals\n")
            times: dict[tuple[str, str], list[float]] = {}
            for _ in range(args.rounds):
                for name in targets:  # in turn: noise falls on both alike
                    db, client = dbs[name], clients[name]
                    for what, fn in (
                        ("season()", lambda db=db: season(db)),
                        ("GET /api/league", lambda client=client: client.get("/api/league")),
                        ("GET ...?from&to",
                         lambda client=client: client.get(f"/api/league{span}")),
                    ):
                        times.setdefault((name, what), []).append(timed(fn))
            for db in dbs.values():
                db.close()
            for app in apps.values():
                app.extensions["dealer_assist.pool"].close()
        finally:
            postgres.stop()
    print(f"{'engine':<12} {'what':<18} {'median':>10} {'slowest':>10}   ({args.rounds} rounds)")
    for (name, what), samples in times.items():
        print(f"{name:<12} {what:<18} {statistics.median(samples) * 1000:>7.1f} ms "
              f"{max(samples) * 1000:>7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
