"""Capacity: many tables on one server process, each followed by its players' phones.

Run: ``python bench/bench_capacity.py [--tables 100] [--clients 10] [--every 2] [--seconds 60]``

One real ``dealer-assist serve`` process on loopback. ``--tables`` King's Pot tables (9
players) are made over HTTP; ``--clients`` python-socketio clients (websocket transport)
join each, spread over ``--procs`` client processes. Then, for ``--seconds``, every table gets
one dealer action every ``--every`` seconds, the tables staggered evenly (100 tables every 2 s:
one action each 20 ms), posted over kept-alive HTTP connections by ``--senders`` threads. For
every (action, client): receipt of the action's seq minus the POST's send time
(``time.perf_counter``, one clock for all processes). Target: p99 <= 100 ms, nothing missed.

Memory: the server's RSS (/proc) when started, after the tables are made, after the clients
joined, and at the end; per table = (end - start) / tables, everything a followed, played
table costs (its cached table, its rooms, its clients' connections and threads).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    ClientFleet,
    Poster,
    action_script,
    app_server,
    create_table,
    latencies,
    machine,
    percentile,
    rss_kib,
)

PLAYERS = [f"P{i}" for i in range(1, 10)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--clients", type=int, default=10, help="clients per table")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between a table's "
                                                                 "actions")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play")
    parser.add_argument("--procs", type=int, default=4, help="client processes")
    parser.add_argument("--senders", type=int, default=4, help="dealer threads")
    parser.add_argument("--async-mode", choices=("threading", "gevent"), default=None)
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL"), default=None,
                        help="the app's PRAGMA synchronous (default: as shipped, FULL)")
    parser.add_argument("--before", action="store_true",
                        help="the server as before issue 6's fixes (connection per request, "
                             "fsync inside COMMIT)")
    args = parser.parse_args(argv)
    if args.seconds > 300:
        parser.error("at most 300 seconds")
    rounds = int(args.seconds / args.every)
    print(machine())
    print(f"{args.tables} tables x {args.clients} clients = {args.tables * args.clients} "
          f"clients over {args.procs} processes; one action per table every {args.every} s "
          f"for {rounds * args.every:.0f} s ({args.tables / args.every:.0f} actions/s); "
          f"async mode {args.async_mode or 'threading (as shipped)'}, synchronous "
          f"{args.synchronous or 'FULL (as shipped)'}"
          + (", BEFORE the fixes" if args.before else ""))
    bodies = action_script("kings_pot", PLAYERS, rounds, seed=11)
    with tempfile.TemporaryDirectory(prefix="bench-capacity-") as tmp:
        server = app_server(Path(tmp) / "capacity.db", Path(tmp) / "server.log",
                            async_mode=args.async_mode, synchronous=args.synchronous,
                            before=args.before)
        with server.start(ready_path="/api/tables"):
            time.sleep(1.0)
            rss = {"started": rss_kib(server.pid)}
            tables = [create_table(server.url, "kings_pot", PLAYERS, name=f"cap {i}")
                      for i in range(args.tables)]
            rss["tables made"] = rss_kib(server.pid)
            t0 = time.monotonic()
            fleet = ClientFleet(server.url, [(t["id"], args.clients) for t in tables],
                                args.procs, run_limit=args.seconds + 240)
            fleet.start(timeout=180)
            print(f"{fleet.total} clients joined in {time.monotonic() - t0:.1f} s", flush=True)
            rss["clients joined"] = rss_kib(server.pid)
            sent: dict[str, dict[int, float]] = {t["id"]: {} for t in tables}
            answers: list[float] = []
            errors: list[str] = []
            start = time.perf_counter() + 0.5
            gap = args.every / args.tables

            def sender(k: int) -> None:
                mine = [(i, tables[i]) for i in range(k, args.tables, args.senders)]
                posters = {t["id"]: Poster(server.url, t["dealer_token"]) for _, t in mine}
                schedule = sorted((start + r * args.every + i * gap, r, t["id"])
                                  for r in range(rounds) for i, t in mine)
                try:
                    for due, r, table_id in schedule:
                        time.sleep(max(0.0, due - time.perf_counter()))
                        t_send = time.perf_counter()
                        status, answer = posters[table_id].post(
                            f"/api/tables/{table_id}/actions", bodies[r])
                        answers.append(time.perf_counter() - t_send)
                        if status != 200:
                            errors.append(f"{status} {answer}")
                            return
                        sent[table_id][answer["seq"]] = t_send
                finally:
                    for poster in posters.values():
                        poster.close()

            threads = [threading.Thread(target=sender, args=(k,), daemon=True)
                       for k in range(args.senders)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=args.seconds + 120)
            time.sleep(2.0)  # the last updates
            rss["end"] = rss_kib(server.pid)
            stamps = fleet.finish(timeout=120)
    if errors:
        print("refused:", errors[:3])
        return 1
    lat, expected, missing = latencies(sent, stamps)
    actions = sum(len(v) for v in sent.values())
    print()
    print(f"actions {actions}, updates expected {expected}, received {len(lat)}, "
          f"missing {missing}")
    print(f"latency p50 {percentile(lat, 50) * 1000:.1f} ms, p90 "
          f"{percentile(lat, 90) * 1000:.1f} ms, p99 {percentile(lat, 99) * 1000:.1f} ms, "
          f"max {max(lat) * 1000:.1f} ms; POST answer p50 "
          f"{percentile(answers, 50) * 1000:.1f} ms, p99 {percentile(answers, 99) * 1000:.1f} ms")
    slow = slow_updates(sent, stamps, start, 0.100)
    if slow:
        when = sorted({int(offset) for offset, _ in slow})
        print(f"updates over 100 ms: {len(slow)} of {len(lat)}, sent at second(s) {when} "
              f"of the {rounds * args.every:.0f} s of play")
    print("server RSS: " + ", ".join(f"{k} {v / 1024:.1f} MiB" for k, v in rss.items()))
    per_table = (rss["end"] - rss["started"]) / args.tables
    tables_only = (rss["tables made"] - rss["started"]) / args.tables
    print(f"per table: {per_table:.0f} KiB in all ({tables_only:.0f} KiB the table itself, "
          f"{(rss['end'] - rss['tables made']) / (args.tables * args.clients):.0f} KiB per "
          f"client connection and play)")
    ok = percentile(lat, 99) <= 0.100 and missing == 0
    print("targets met" if ok else "a target is missed")
    return 0 if ok else 1


def slow_updates(sent: dict[str, dict[int, float]],
                 stamps: dict[str, list[list[tuple[int, float]]]], start: float,
                 limit: float) -> list[tuple[float, float]]:
    """(seconds into the play when the action was sent, latency) of every update slower than
    ``limit``: to tell a stall at one moment from a slowness spread over the run."""
    out = []
    for table_id, by_seq in sent.items():
        for box in stamps.get(table_id, []):
            first: dict[int, float] = {}
            for seq, t in box:
                first.setdefault(seq, t)
            out += [(t_sent - start, first[seq] - t_sent) for seq, t_sent in by_seq.items()
                    if seq in first and first[seq] - t_sent > limit]
    return out


if __name__ == "__main__":
    sys.exit(main())
