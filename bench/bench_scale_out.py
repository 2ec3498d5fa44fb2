"""Scale-out fan-out: the phones of one table spread over two server processes (Redis message
queue, one SQLite file) against all of them on one process, side by side in one run.

Run from the repository root (Debian's ``redis-server`` must be installed):

    python bench/bench_scale_out.py [--clients 50 200] [--actions 100] [--gap 0.05]
        [--rounds 2] [--client-procs 2]

It starts, on loopback only: a ``redis-server`` on a free port (temporary folder, nothing
saved), one ``dealer-assist serve`` without a queue, and two ``dealer-assist serve
--message-queue`` processes on one database. For each number of clients N and each case:

- ``one``: the N clients and the dealer on the plain process (what a home game runs);
- ``one+queue``: the same on one queued process (the queue's own cost; the second queued
  process is up, idle, and gets every message too);
- ``two+queue``: the N clients spread evenly over both queued processes, the dealer on the
  first, so half the states reach their phones through Redis and the other process.

The dealer (this process) posts ``--actions`` actions of random legal King's Pot play (22
players) over HTTP, one every ``--gap`` seconds; every client (python-socketio AsyncClient,
websocket transport, spread over ``--client-procs`` processes) stamps each ``state`` it gets.
Latency is, per (action, client), the first receipt of the action's seq minus the moment the
POST was sent, both ``time.perf_counter()`` (CLOCK_MONOTONIC: one clock for the host's
processes). Cases alternate and repeat ``--rounds`` times so noise on a shared machine falls
on all alike. It prints p50, p90, p99 and max per case (and, for two processes, for the
clients on the other process alone: "(other)"), and the updates that never came.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import math
import multiprocessing as mp
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench._common import HOST, free_port, machine, percentile  # noqa: E402

PLAYERS = [f"P{i:02d}" for i in range(1, 23)]  # a full King's Pot table (R20)
CHANNEL = "flask-socketio"
MAX_RUN_SECONDS = 900  # the whole run is refused beyond this


# --------------------------------------------------------------------------- processes
class Child:
    """A child process (its output in ``log``), stopped with SIGTERM, then SIGKILL."""

    def __init__(self, args: list[str], log: Path) -> None:
        with log.open("ab") as out:
            self.proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True,
                                         env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.log = log

    def check(self) -> None:
        if self.proc.poll() is not None:
            raise RuntimeError(f"{self.log.name} stopped:\n{self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


def start_redis(folder: Path) -> tuple[Child, str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed (apt-get install redis-server).")
    port = free_port()
    child = Child([binary, "--port", str(port), "--bind", HOST, "--dir", str(folder),
                   "--save", "", "--appendonly", "no", "--daemonize", "no"],
                  folder / "redis.log")
    url = f"redis://{HOST}:{port}"
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    for _ in range(200):  # 10 s at most
        child.check()
        with contextlib.suppress(redis.RedisError):
            if client.ping():
                client.close()
                return child, url
        time.sleep(0.05)
    child.stop()
    raise RuntimeError("redis-server did not answer")


def start_app(db: Path, log: Path, queue: str | None) -> tuple[Child, str]:
    port = free_port()
    args = [sys.executable, "-m", "dealer_assist", "serve", "--host", HOST, "--port",
            str(port), "--db", str(db)]
    if queue:
        args += ["--message-queue", queue]
    child = Child(args, log)
    url = f"http://{HOST}:{port}"
    for _ in range(600):  # 30 s at most
        child.check()
        with contextlib.suppress(OSError):
            if request("GET", url + "/api/tables")[0] == 200:
                return child, url
        time.sleep(0.05)
    child.stop()
    raise RuntimeError(f"the server did not answer:\n{log.read_text()[-2000:]}")


def wait_for_subscribers(url: str, count: int) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        for _ in range(400):  # 20 s at most
            if dict(client.pubsub_numsub(CHANNEL)).get(CHANNEL.encode(), 0) >= count:
                return
            time.sleep(0.05)
    finally:
        client.close()
    raise RuntimeError("the queued servers do not all listen to Redis")


# --------------------------------------------------------------------------- HTTP
def request(method: str, url: str, body: Any = None, token: str | None = None
            ) -> tuple[int, Any]:
    rest = url.split("//", 1)[1]
    host_port, _, path = rest.partition("/")
    conn = http.client.HTTPConnection(host_port, timeout=10)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, "/" + path, json.dumps(body) if body is not None else None,
                     headers)
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, json.loads(raw) if raw else None
    finally:
        conn.close()


class Poster:
    """POSTs over one kept-alive connection, as the tablet's browser does."""

    def __init__(self, url: str, token: str) -> None:
        self.host_port = url.split("//", 1)[1]
        self.headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        self.conn = http.client.HTTPConnection(self.host_port, timeout=10)

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        for attempt in (1, 2):
            try:
                self.conn.request("POST", path, json.dumps(body), self.headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                if resp.will_close:
                    self.conn.close()
                return resp.status, json.loads(raw)
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.conn.close()


def action_script(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` legal King's Pot actions in order (random legal play on a local table)."""
    from dealer_assist.core.autoplay import legal_actions
    from dealer_assist.games.registry import new_table

    rng = random.Random(seed)
    table = new_table("kings_pot", PLAYERS, {})
    bodies: list[dict[str, Any]] = []
    while len(bodies) < count:
        options = legal_actions(table, rng)
        if not options:
            break
        body = rng.choice(options)
        table = table.apply(table.prepare(body))
        bodies.append(body)
    return bodies


# --------------------------------------------------------------------------- clients
def client_main(targets: list[tuple[str, str]], ready: Any, stop: Any, out: Any,
                limit: float) -> None:
    """Connect one client per (server url, table id), join, stamp every ``state`` until
    ``stop`` (or ``limit`` seconds), then send back each client's stamps."""
    import socketio

    async def run() -> list[tuple[str, list[tuple[int, float]]]]:
        boxes: list[list[tuple[int, float]]] = [[] for _ in targets]
        clients: list[Any] = []
        joined: list[asyncio.Event] = []

        async def connect(url: str, table_id: str, box: list[tuple[int, float]]) -> None:
            sio = socketio.AsyncClient(reconnection=False)
            first = asyncio.Event()

            async def on_state(data: dict[str, Any]) -> None:
                box.append((data["seq"], time.perf_counter()))
                first.set()

            async def on_connect() -> None:
                await sio.emit("join", {"table": table_id})

            sio.on("state", on_state)
            sio.on("connect", on_connect)
            await sio.connect(url, transports=["websocket"], wait_timeout=30)
            clients.append(sio)
            joined.append(first)

        started = time.monotonic()
        jobs = [connect(url, table_id, box) for (url, table_id), box in zip(
            targets, boxes, strict=True)]
        for i in range(0, len(jobs), 20):  # a few handshakes at a time
            await asyncio.gather(*jobs[i:i + 20])
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in joined)), timeout=60)
        ready.set()
        while not stop.is_set() and time.monotonic() - started < limit:
            await asyncio.sleep(0.05)
        await asyncio.gather(*(c.disconnect() for c in clients), return_exceptions=True)
        return [(url, box) for (url, _), box in zip(targets, boxes, strict=True)]

    try:
        out.put(("ok", asyncio.run(run())))
    except BaseException as err:  # report; never leave the parent waiting
        out.put(("error", repr(err)))
        ready.set()


class Fleet:
    """The clients, spread over ``procs`` processes (one asyncio loop each)."""

    def __init__(self, targets: list[tuple[str, str]], procs: int, limit: float) -> None:
        ctx = mp.get_context("spawn")
        self.stop = ctx.Event()
        self.out = ctx.Queue()
        self.readies = []
        self.procs = []
        for share in (targets[i::procs] for i in range(procs)):
            if share:
                ready = ctx.Event()
                self.readies.append(ready)
                self.procs.append(ctx.Process(target=client_main, daemon=True,
                                              args=(share, ready, self.stop, self.out, limit)))

    def __enter__(self) -> Fleet:
        for proc in self.procs:
            proc.start()
        deadline = time.monotonic() + 90
        for ready in self.readies:
            if not ready.wait(max(0.1, deadline - time.monotonic())):
                raise RuntimeError("the clients did not all join in time")
        return self

    def stamps(self) -> list[tuple[str, list[tuple[int, float]]]]:
        """(server url, the client's (seq, receipt time) stamps) for every client."""
        self.stop.set()
        boxes: list[tuple[str, list[tuple[int, float]]]] = []
        for _ in self.procs:
            kind, payload = self.out.get(timeout=60)
            if kind != "ok":
                raise RuntimeError(f"a client process failed: {payload}")
            boxes.extend(payload)
        return boxes

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for proc in self.procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()


# --------------------------------------------------------------------------- one case
def run_case(servers: list[str], clients: int, bodies: list[dict[str, Any]], gap: float,
             procs: int) -> dict[str, Any]:
    """N clients spread evenly over ``servers``; the dealer posts to the first."""
    status, made = request("POST", servers[0] + "/api/tables",
                           {"variant": "kings_pot", "players": PLAYERS, "name": "scale-out"})
    if status != 201:
        raise RuntimeError(f"create: {status} {made}")
    targets = [(servers[i % len(servers)], made["id"]) for i in range(clients)]
    path = f"/api/tables/{made['id']}/actions"
    poster = Poster(servers[0], made["dealer_token"])
    sent: dict[int, float] = {}
    limit = len(bodies) * gap + 120
    try:
        with Fleet(targets, procs, limit) as fleet:
            time.sleep(0.5)  # let the joins settle
            due = time.perf_counter()
            for body in bodies:
                t0 = time.perf_counter()
                status, answer = poster.post(path, body)
                if status != 200:
                    raise RuntimeError(f"{status} {answer} for {body}")
                sent[answer["seq"]] = t0
                due += gap
                time.sleep(max(0.0, due - time.perf_counter()))
            time.sleep(1.0)  # the last updates
            boxes = fleet.stamps()
    finally:
        poster.close()
    lat: list[float] = []
    remote: list[float] = []  # clients on another process than the dealer's
    missing = 0
    for url, box in boxes:
        first: dict[int, float] = {}
        for seq, t in box:
            first.setdefault(seq, t)
        for seq, t0 in sent.items():
            if seq in first:
                lat.append(first[seq] - t0)
                if url != servers[0]:
                    remote.append(first[seq] - t0)
            else:
                missing += 1
    return {"lat": lat, "remote": remote, "expected": len(sent) * len(boxes),
            "missing": missing}


def round_median(rows: list[dict[str, Any]], p: float) -> float:
    """The median over rounds of each round's percentile ``p`` (robust to one noisy round)."""
    return statistics.median(percentile(r["lat"], p) for r in rows)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


@contextlib.contextmanager
def running(children: list[Child]) -> Iterator[None]:
    try:
        yield
    finally:
        for child in reversed(children):
            child.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--actions", type=int, default=100, help="actions per case")
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between actions")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--client-procs", type=int, default=2, help="client processes")
    args = parser.parse_args(argv)
    cases = ("one", "one+queue", "two+queue")
    estimate = args.rounds * len(args.clients) * len(cases) * (args.actions * args.gap + 5)
    if estimate > MAX_RUN_SECONDS:
        parser.error(f"that run would take about {estimate:.0f} s: fewer rounds, actions or "
                     f"sizes (at most {MAX_RUN_SECONDS} s)")
    if min(args.clients) < 2 or args.client_procs < 1:
        parser.error("at least 2 clients and 1 client process")
    bodies = action_script(args.actions, seed=7)
    print(machine(), f"load average {os.getloadavg()[0]:.1f} (a busy machine: rerun)")
    print(f"{len(bodies)} King's Pot actions per case (22 players), one every "
          f"{args.gap * 1000:.0f} ms; clients over {args.client_procs} processes; "
          f"{args.rounds} rounds")
    results: dict[tuple[str, int], list[dict[str, Any]]] = {}
    children: list[Child] = []
    with tempfile.TemporaryDirectory(prefix="bench-scale-out-") as tmp, running(children):
        folder = Path(tmp)
        redis_child, queue = start_redis(folder)
        children.append(redis_child)
        plain, plain_url = start_app(folder / "plain.db", folder / "plain.log", None)
        children.append(plain)
        first, first_url = start_app(folder / "shared.db", folder / "q1.log", queue)
        children.append(first)
        second, second_url = start_app(folder / "shared.db", folder / "q2.log", queue)
        children.append(second)
        wait_for_subscribers(queue, 2)
        layouts = {"one": [plain_url], "one+queue": [first_url],
                   "two+queue": [first_url, second_url]}
        for rnd in range(1, args.rounds + 1):
            for n in args.clients:
                for case in cases:
                    row = run_case(layouts[case], n, bodies, args.gap, args.client_procs)
                    results.setdefault((case, n), []).append(row)
                    print(f"  round {rnd} {case:<10} N={n:<4} p50 "
                          f"{ms(percentile(row['lat'], 50))}  p99 "
                          f"{ms(percentile(row['lat'], 99))}  missing "
                          f"{row['missing']}/{row['expected']}  load "
                          f"{os.getloadavg()[0]:.1f}", flush=True)
    print()
    print(f"{'case':<10} {'N':>4} {'updates':>8} {'missing':>8} {'p50':>10} {'p90':>10} "
          f"{'p99':>10} {'max':>10}")
    missing = 0
    for n in args.clients:
        for case in cases:
            rows = results[(case, n)]
            lat = [x for r in rows for x in r["lat"]]
            gone = sum(r["missing"] for r in rows)
            missing += gone
            print(f"{case:<10} {n:>4} {sum(r['expected'] for r in rows):>8} {gone:>8} "
                  f"{ms(percentile(lat, 50))} {ms(percentile(lat, 90))} "
                  f"{ms(percentile(lat, 99))} {ms(max(lat) if lat else math.nan)}")
            remote = [x for r in rows for x in r["remote"]]
            if remote:
                print(f"{'  (other)':<10} {n:>4} {len(remote):>8} {'':>8} "
                      f"{ms(percentile(remote, 50))} {ms(percentile(remote, 90))} "
                      f"{ms(percentile(remote, 99))} {ms(max(remote))}")
        print("       p99 per round: " + "; ".join(
            case + " " + "/".join(f"{percentile(r['lat'], 99) * 1000:.0f}"
                                  for r in results[(case, n)]) + " ms" for case in cases))
        print("       median of the rounds' p50 / p99: " + "; ".join(
            f"{case} {round_median(results[(case, n)], 50) * 1000:.1f} / "
            f"{round_median(results[(case, n)], 99) * 1000:.1f} ms" for case in cases))
    print("every update arrived" if missing == 0 else f"{missing} updates never arrived")
    return 0 if missing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
