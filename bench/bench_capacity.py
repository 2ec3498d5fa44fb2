"""Capacity: many tables on one server process, each followed by its players' phones.

Run: ``python bench/bench_capacity.py [--tables 100] [--clients 10] [--every 2] [--seconds 60]
[--processes 1 2 4] [--db DATABASE]``, or ``python bench/bench_capacity.py --idle [--step 250]
[--max-phones 2250]``

One real ``dealer-assist serve`` process on loopback. ``--tables`` King's Pot tables (9
players) are made over HTTP; ``--clients`` python-socketio clients (websocket transport)
join each, spread over ``--procs`` client processes. Then, for ``--seconds``, every table gets
one dealer action every ``--every`` seconds, the tables staggered evenly (100 tables every 2 s:
one action each 20 ms), posted over kept-alive HTTP connections by ``--senders`` threads. For
every (action, client): receipt of the action's seq minus the POST's send time
(``time.perf_counter``, one clock for all processes). Target: p99 <= 100 ms, nothing missed.

``--processes 1 2 4``: the same play, side by side, on 1, then 2, then 4 ``dealer-assist serve
--message-queue`` processes on one database (``--db``: a SQLite file by default, or any
``serve --db`` value) and one ``redis-server``, each table's phones and dealer on the process
that owns it (table i on process i mod N), as nginx's hash on the table id sends them
(docs/nginx-several.conf). Reported per case: p50/p99 of the fan-out and the actions per
second the processes took (sent and answered over the play's wall time).

``--idle``: how many idle phones one process holds. Phones (websocket, joined, then idle,
from 127.0.0.2) are opened ``--step`` at a time up to ``--max-phones``; after each step the
server's RSS, threads and open descriptors, the phones refused, and whether a new tablet (a
dealer connection from the dealer's address: the HTTP state with its token, then a socket
that joins with it) still connects. Then tablets are opened and held until one is refused:
the room the server keeps for dealers.

Memory: the server's RSS (/proc) when started, after the tables are made, after the clients
joined, and at the end; per table = (end - start) / tables, everything a followed, played
table costs (its cached table, its rooms, its clients' connections and threads).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    HOST,
    ClientFleet,
    IdleFleet,
    Poster,
    ServerProcess,
    action_script,
    app_server,
    create_table,
    descriptor_limit,
    free_port,
    latencies,
    machine,
    percentile,
    request,
    rss_kib,
    target_code,
    threads_and_fds,
)
from bench_scale_out import start_redis, wait_for_subscribers

MAX_PHONES = 3000  # --idle never opens more

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
    parser.add_argument("--processes", type=int, nargs="+", default=None,
                        help="server processes behind a Redis queue, side by side (e.g. 1 2 4)")
    parser.add_argument("--db", default=None,
                        help="what every process gets as serve --db (default: per --engines)")
    parser.add_argument("--engines", nargs="+", choices=("sqlite", "postgresql"),
                        default=["sqlite"],
                        help="--processes: the databases, side by side: a SQLite file in a "
                             "temporary folder, and a PostgreSQL server started here "
                             "(tests/postgres_server.py), a new database per case")
    parser.add_argument("--idle", action="store_true",
                        help="measure how many idle phones one process holds")
    parser.add_argument("--step", type=int, default=250, help="--idle: phones per step")
    parser.add_argument("--max-phones", type=int, default=2250, help="--idle: at most")
    args = parser.parse_args(argv)
    if args.seconds > 300:
        parser.error("at most 300 seconds")
    if args.max_phones > MAX_PHONES:
        parser.error(f"at most {MAX_PHONES} phones")
    print(machine(), f"load average {os.getloadavg()[0]:.1f}")
    if args.idle:
        return idle(args)
    if args.processes:
        return side_by_side(args)
    return one_server(args)


def one_server(args: argparse.Namespace) -> int:
    """The play on one plain process (the benchmark as it was)."""
    rounds = int(args.seconds / args.every)
    describe(args, rounds)
    with tempfile.TemporaryDirectory(prefix="bench-capacity-") as tmp:
        server = app_server(Path(tmp) / "capacity.db", Path(tmp) / "server.log",
                            async_mode=args.async_mode, synchronous=args.synchronous,
                            before=args.before)
        with server.start(ready_path="/api/tables"):
            result = play([server], args, rounds)
    return report(result, args, rounds)


def describe(args: argparse.Namespace, rounds: int) -> None:
    print(f"{args.tables} tables x {args.clients} clients = {args.tables * args.clients} "
          f"clients over {args.procs} processes; one action per table every {args.every} s "
          f"for {rounds * args.every:.0f} s ({args.tables / args.every:.0f} actions/s); "
          f"async mode {args.async_mode or 'gevent (as shipped)'}, synchronous "
          f"{args.synchronous or 'FULL (as shipped)'}"
          + (", BEFORE the fixes" if args.before else ""), flush=True)


def play(servers: list[ServerProcess], args: argparse.Namespace, rounds: int
         ) -> dict[str, Any]:
    """Make the tables (table i on server i mod N), join the clients, play; the figures."""
    bodies = action_script("kings_pot", PLAYERS, rounds, seed=11)
    time.sleep(1.0)
    rss = {"started": sum(rss_kib(s.pid) for s in servers)}
    tables = [create_table(servers[i % len(servers)].url, "kings_pot", PLAYERS,
                           name=f"cap {i}") for i in range(args.tables)]
    home = {t["id"]: servers[i % len(servers)].url for i, t in enumerate(tables)}
    rss["tables made"] = sum(rss_kib(s.pid) for s in servers)
    t0 = time.monotonic()
    fleet = ClientFleet(home, [(t["id"], args.clients) for t in tables], args.procs,
                        run_limit=args.seconds + 240)
    fleet.start(timeout=180)
    print(f"{fleet.total} clients joined in {time.monotonic() - t0:.1f} s", flush=True)
    rss["clients joined"] = sum(rss_kib(s.pid) for s in servers)
    sent: dict[str, dict[int, float]] = {t["id"]: {} for t in tables}
    answers: list[float] = []
    errors: list[str] = []
    start = time.perf_counter() + 0.5
    gap = args.every / args.tables

    def sender(k: int) -> None:
        mine = [(i, tables[i]) for i in range(k, args.tables, args.senders)]
        posters = {t["id"]: Poster(home[t["id"]], t["dealer_token"]) for _, t in mine}
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
    wall = time.perf_counter() - start
    time.sleep(2.0)  # the last updates
    rss["end"] = sum(rss_kib(s.pid) for s in servers)
    stamps = fleet.finish(timeout=120)
    return {"sent": sent, "stamps": stamps, "answers": answers, "errors": errors,
            "rss": rss, "start": start, "wall": wall, "load": os.getloadavg()[0]}


def report(result: dict[str, Any], args: argparse.Namespace, rounds: int) -> int:
    sent, stamps, answers = result["sent"], result["stamps"], result["answers"]
    if result["errors"]:
        print("refused:", result["errors"][:3])
        return 1
    lat, expected, missing = latencies(sent, stamps)
    actions = sum(len(v) for v in sent.values())
    print()
    print(f"actions {actions} ({actions / result['wall']:.1f}/s), updates expected "
          f"{expected}, received {len(lat)}, missing {missing}")
    print(f"latency p50 {percentile(lat, 50) * 1000:.1f} ms, p90 "
          f"{percentile(lat, 90) * 1000:.1f} ms, p99 {percentile(lat, 99) * 1000:.1f} ms, "
          f"max {max(lat) * 1000:.1f} ms; POST answer p50 "
          f"{percentile(answers, 50) * 1000:.1f} ms, p99 {percentile(answers, 99) * 1000:.1f} ms")
    slow = slow_updates(sent, stamps, result["start"], 0.100)
    if slow:
        when = sorted({int(offset) for offset, _ in slow})
        print(f"updates over 100 ms: {len(slow)} of {len(lat)}, sent at second(s) {when} "
              f"of the {rounds * args.every:.0f} s of play")
    rss = result["rss"]
    print("server RSS: " + ", ".join(f"{k} {v / 1024:.1f} MiB" for k, v in rss.items()))
    per_table = (rss["end"] - rss["started"]) / args.tables
    tables_only = (rss["tables made"] - rss["started"]) / args.tables
    print(f"per table: {per_table:.0f} KiB in all ({tables_only:.0f} KiB the table itself, "
          f"{(rss['end'] - rss['tables made']) / (args.tables * args.clients):.0f} KiB per "
          f"client connection and play)")
    ok = percentile(lat, 99) <= 0.100 and missing == 0
    print("targets met" if ok else "a target is missed")
    return target_code(ok)


def queued_server(db: str, queue: str, log: Path, cwd: Path) -> ServerProcess:
    """``dealer-assist serve --message-queue`` in a working folder of its own."""
    cwd.mkdir(parents=True, exist_ok=True)
    port = free_port()
    return ServerProcess([sys.executable, "-m", "dealer_assist", "serve", "--host", HOST,
                          "--port", str(port), "--db", db, "--message-queue", queue,
                          "--no-mdns"], log, port, cwd=cwd)


def side_by_side(args: argparse.Namespace) -> int:
    """The same play on 1, 2, 4... queued processes, one after the other in one run."""
    rounds = int(args.seconds / args.every)
    describe(args, rounds)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-capacity-") as tmp:
        folder = Path(tmp)
        redis_child, queue = start_redis(folder)
        postgres = None
        try:
            if "postgresql" in args.engines and not args.db:
                sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
                from postgres_server import PostgresServer

                postgres = PostgresServer(folder / "postgres")
            for engine in args.engines:
                for n in args.processes:
                    db = args.db or (postgres.new_database("bench") if engine == "postgresql"
                                     and postgres else str(folder / f"shared-{n}.db"))
                    servers = [queued_server(db, queue, folder / f"{engine}{n}-{i}.log",
                                             folder / f"{engine}{n}-{i}") for i in range(n)]
                    try:
                        for server in servers:
                            server.start(ready_path="/api/tables")
                        wait_for_subscribers(queue, n)
                        print(f"--- {n} process(es), {engine}: --db {db}", flush=True)
                        result = play(servers, args, rounds)
                    finally:
                        for server in servers:
                            server.stop()
                    if engine == "postgresql" and postgres is not None:
                        held = postgres.psql("SELECT count(*) FROM tables",
                                             database=db.rsplit("/", 1)[1])
                        assert int(held) == args.tables, f"PostgreSQL holds {held} tables"
                    report(result, args, rounds)
                    lat, expected, missing = latencies(result["sent"], result["stamps"])
                    actions = sum(len(v) for v in result["sent"].values())
                    rows.append((engine, n, actions / result["wall"], percentile(lat, 50),
                                 percentile(lat, 99), percentile(result["answers"], 99),
                                 missing, expected, result["load"]))
        finally:
            if postgres is not None:
                postgres.stop()
            redis_child.stop()
    print()
    print(f"{'engine':<10} {'processes':>9} {'actions/s':>9} {'p50':>9} {'p99':>9} "
          f"{'POST p99':>9} {'missing':>9} {'load':>5}")
    for engine, n, rate, p50, p99, post99, missing, expected, load in rows:
        print(f"{engine:<10} {n:>9} {rate:>9.1f} {p50 * 1000:>6.1f} ms {p99 * 1000:>6.1f} ms "
              f"{post99 * 1000:>6.1f} ms {missing:>4}/{expected} {load:>5.1f}")
    base = rows[0][4]
    print("p99 against the first: " + ", ".join(f"{engine} {n}: {p99 / base:.2f}x"
                                                for engine, n, _, _, p99, *_ in rows))
    return 0 if all(r[6] == 0 for r in rows) else 1


def tablet_connects(url: str, made: dict[str, Any], hold: list[Any] | None = None) -> bool:
    """A new dealer connection: the state over HTTP with the token, then a socket that joins
    with it and gets the dealer's state (kept open in ``hold`` if given, else closed)."""
    import socketio as socketio_client

    try:
        status, _ = request("GET", f"{url}/api/tables/{made['id']}", token=made["dealer_token"],
                            timeout=10)
        if status != 200:
            return False
        sio = socketio_client.Client(reconnection=False)
        got = threading.Event()
        sio.on("state", lambda data: got.set())
        sio.on("connect", lambda: sio.emit("join", {"table": made["id"],
                                                     "token": made["dealer_token"]}))
        sio.connect(url, transports=["websocket"], wait_timeout=10)
    except Exception:
        return False
    ok = got.wait(10)
    if hold is not None and ok:
        hold.append(sio)
    else:
        sio.disconnect()
    return ok


def idle(args: argparse.Namespace) -> int:
    """Idle phones on one process, step by step, until a tablet cannot connect or the
    bound; then tablets until one is refused."""
    with tempfile.TemporaryDirectory(prefix="bench-idle-") as tmp:
        server = app_server(Path(tmp) / "idle.db", Path(tmp) / "server.log")
        with server.start(ready_path="/api/tables"):
            tables = [create_table(server.url, "kings_pot", PLAYERS, name=f"idle {i}")
                      for i in range(max(1, args.tables))]
            dealer = tables[0]
            assert tablet_connects(server.url, dealer)  # the dealer's address shows its token
            time.sleep(1.0)
            base_rss = rss_kib(server.pid)
            base_threads, base_fds = threads_and_fds(server.pid)
            print(f"server open-file limit {descriptor_limit(server.pid)}; at rest: RSS "
                  f"{base_rss / 1024:.1f} MiB, {base_threads} threads, {base_fds} descriptors",
                  flush=True)
            print(f"{'phones':>7} {'held':>6} {'refused':>8} {'RSS MiB':>8} {'KiB/phone':>9} "
                  f"{'threads':>8} {'thr/phone':>9} {'fds':>6} {'tablet':>7} {'open s':>7}")
            fleet = IdleFleet(server.url, [t["id"] for t in tables], args.procs)
            held = refused = 0
            try:
                while held + refused < args.max_phones:
                    got, lost, seconds = fleet.open(min(args.step,
                                                        args.max_phones - held - refused))
                    held, refused = held + got, refused + lost
                    time.sleep(1.0)
                    rss = rss_kib(server.pid)
                    threads, fds = threads_and_fds(server.pid)
                    tablet = tablet_connects(server.url, dealer)
                    print(f"{held + refused:>7} {held:>6} {refused:>8} {rss / 1024:>8.1f} "
                          f"{(rss - base_rss) / max(1, held):>9.0f} {threads:>8} "
                          f"{(threads - base_threads) / max(1, held):>9.2f} {fds:>6} "
                          f"{'yes' if tablet else 'NO':>7} {seconds:>7.1f}", flush=True)
                    if not tablet:
                        break
                # the room kept for dealers: tablets held open until one is refused
                tablets: list[Any] = []
                while len(tablets) < 100 and tablet_connects(server.url, dealer, tablets):
                    pass
                print(f"then {len(tablets)} more tablets held before one was refused; "
                      f"{held} phones held in all, {refused} refused", flush=True)
                for sio in tablets:
                    sio.disconnect()
            finally:
                fleet.close()
    return 0


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
