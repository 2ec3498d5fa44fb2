"""Shared helpers for the server benchmarks: real server processes on loopback, Socket.IO
client processes that stamp every ``state`` they receive, percentiles, and RSS.

Clock: every stamp is ``time.perf_counter()``, which on Linux reads CLOCK_MONOTONIC, one clock
for every process on the host; so a send stamped in the dealer process and a receipt stamped
in a client process can be subtracted.

Run as a script, it starts the app with benchmark-only switches (a launcher, so nothing in the
server's code needs a switch):

    python bench/_common.py serve --port P --db FILE [--synchronous NORMAL]
        [--async-mode gevent]
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
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _ports import free_port

from dealer_assist.games.registry import new_table

BENCH_DIR = Path(__file__).resolve().parent
REPO = BENCH_DIR.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

HOST = "127.0.0.1"  # every benchmark talks to loopback only


# --------------------------------------------------------------------------- figures
def percentile(samples: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of ``samples``; NaN when empty."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples) if samples else math.nan


def rss_kib(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB (``VmRSS`` of /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def machine() -> str:
    cpu = "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores "
            f"({cpu}), Python {sys.version.split()[0]}")


# --------------------------------------------------------------------------- servers
class ServerProcess:
    """A server as a child process on a free loopback port, its output in ``log``."""

    def __init__(self, args: list[str], log: Path, port: int,
                 env: dict[str, str] | None = None, cwd: Path | None = None) -> None:
        self.args = args
        self.log = log
        self.port = port
        self.env = env or {}
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, ready_path: str = "/", timeout: float = 30.0) -> ServerProcess:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.args, stdout=out, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=env, cwd=self.cwd,
                                         start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server stopped at start:\n{self.log.read_text()}")
            with contextlib.suppress(OSError):
                status, _ = request("GET", self.url + ready_path, timeout=1)
                if status < 500:
                    return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"server did not answer in {timeout}s:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def app_server(db: Path | str, log: Path, *, synchronous: str | None = None,
               async_mode: str | None = None, pool_keep: int | None = None,
               before: bool = False, switch_interval: float | None = None,
               sync_at_teardown: bool = False) -> ServerProcess:
    """``dealer-assist serve`` on loopback (through the launcher below if a switch is set).
    ``before``: the server as it was before issue 6 (a connection opened and closed per
    request, the fsync inside COMMIT, before the broadcast). ``sync_at_teardown``: the
    commit's fsync at the request's teardown, after the dealer's state was built, as before
    the fsync moved to right after the phones' emit."""
    port = free_port()
    flags: list[str] = []
    if synchronous:
        flags += ["--synchronous", synchronous]
    # async_mode: the app serves on gevent since issue 25; its server before is --baseline's
    if before:
        flags += ["--pool-keep", "0", "--sync-in-commit"]
    elif pool_keep is not None:
        flags += ["--pool-keep", str(pool_keep)]
    if switch_interval:
        flags += ["--switch-interval", str(switch_interval)]
    if sync_at_teardown:
        flags += ["--sync-at-teardown"]
    if flags:
        args = [sys.executable, str(BENCH_DIR / "_common.py"), "serve", "--port", str(port),
                "--db", str(db), *flags]
    else:
        args = [sys.executable, "-m", "dealer_assist", "serve", "--host", HOST,
                "--port", str(port), "--db", str(db)]
    return ServerProcess(args, log, port)


def baseline_server(ref: str, folder: Path, log: Path) -> ServerProcess:
    """``dealer-assist serve`` as it was at git commit ``ref`` of this repository: the
    commit's tree is unpacked into ``folder``, where the server starts (``-m`` looks in the
    working directory first) with the folder on its PYTHONPATH, so a change is measured side
    by side with the code before it, in one run."""
    folder.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    port = free_port()
    return ServerProcess([sys.executable, "-m", "dealer_assist", "serve", "--host", HOST,
                          "--port", str(port), "--db", str(folder / "baseline.db")], log, port,
                         env={"PYTHONPATH": str(folder)}, cwd=folder)


def bare_server(log: Path, *, async_mode: str = "gevent", pad: int = 0) -> ServerProcess:
    port = free_port()
    return ServerProcess([sys.executable, str(BENCH_DIR / "bare_server.py"), "--port",
                          str(port), "--async-mode", async_mode, "--pad", str(pad)], log, port)


def request(method: str, url: str, body: Any = None, token: str | None = None,
            timeout: float = 10.0) -> tuple[int, Any]:
    """One HTTP request on a new connection (set-up steps; timed loops use :class:`Poster`)."""
    host_port = url.split("//", 1)[1].split("/", 1)[0]
    path = "/" + url.split("//", 1)[1].split("/", 1)[1] if "/" in url.split("//", 1)[1] else "/"
    conn = http.client.HTTPConnection(host_port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        resp = conn.getresponse()
        raw = resp.read()
        ctype = resp.getheader("Content-Type") or ""
        return resp.status, json.loads(raw) if "json" in ctype and raw else raw
    finally:
        conn.close()


class Poster:
    """POSTs JSON over one kept-alive HTTP/1.1 connection (reopened if the server closed it),
    as the tablet's browser does."""

    def __init__(self, base_url: str, token: str | None = None, timeout: float = 10.0) -> None:
        self.host_port = base_url.split("//", 1)[1].rstrip("/")
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        data = json.dumps(body)
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host_port, timeout=self.timeout)
            try:
                self.conn.request("POST", path, data, self.headers)
                resp = self.conn.getresponse()
                raw = resp.read()
                if resp.will_close:
                    self.close()
                return resp.status, json.loads(raw) if raw else None
            except (http.client.HTTPException, ConnectionError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def create_table(base_url: str, variant: str, players: list[str],
                 rules: dict[str, Any] | None = None, name: str = "bench") -> dict[str, Any]:
    status, body = request("POST", base_url + "/api/tables", {
        "name": name, "variant": variant, "players": players, "rules": rules or {}})
    if status != 201:
        raise RuntimeError(f"create table: {status} {body}")
    return body


def pick(table: Any, rng: random.Random) -> dict[str, Any] | None:
    """A legal action as a table might play it (not uniform, which folds most deals at
    once): King's Pot players buy one or two cards, and bets are mostly checks and calls."""
    from dealer_assist.core.autoplay import legal_actions

    options = legal_actions(table, rng)
    if not options:
        return None
    kind = table.step()["kind"]
    if kind == "buy":
        some = [o for o in options if 1 <= o["count"] <= 2]
        return rng.choice(some or options)
    if kind == "bet":
        calm = [o for o in options if o["type"] in ("check", "call")]
        roll = rng.random()
        if calm and roll < 0.75:
            return rng.choice(calm)
        if roll < 0.85:
            folds = [o for o in options if o["type"] == "fold"]
            if folds:
                return rng.choice(folds)
        # a small bet or raise, never all in: stacks last for a thousand deals
        step = table.step()
        small = [o for o in options if o["type"] in ("bet", "raise")
                 and o.get("amount") == step.get("min_raise_to")]
        return rng.choice(small or calm or options)
    return rng.choice(options)


def action_script(variant: str, players: list[str], count: int, seed: int = 1,
                  rules: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """``count`` legal action bodies in order, from random legal play on a local table
    (King's Pot records replay the same on the server: nothing in them is drawn there)."""

    rng = random.Random(seed)
    table = new_table(variant, players, rules or {})
    bodies: list[dict[str, Any]] = []
    while len(bodies) < count:
        body = pick(table, rng)
        if body is None:
            break
        table = table.apply(table.prepare(body))
        bodies.append(body)
    return bodies


# --------------------------------------------------------------------------- clients
@dataclass
class ClientJob:
    """One client process: ``rooms`` lists (table id, number of clients) to connect, and
    ``urls`` the server of each table."""

    urls: dict[str, str]
    rooms: list[tuple[str, int]]
    connect_timeout: float = 60.0
    run_limit: float = 300.0  # a client process never outlives this
    patches: bool = False  # join with "patches": true, as the phone page does
    stamps: dict[str, list[list[tuple[int, float]]]] = field(default_factory=dict)


def _client_main(job: ClientJob, ready: Any, stop: Any, out: Any) -> None:
    """Connect every client of ``job`` (websocket transport), join its table, and stamp each
    ``state`` received with perf_counter until ``stop`` is set; then send the stamps."""
    import socketio

    from tests.patching import apply_in_place

    async def run() -> dict[str, list[list[tuple[int, float]]]]:
        stamps: dict[str, list[list[tuple[int, float]]]] = {}
        clients: list[socketio.AsyncClient] = []
        joined: list[asyncio.Event] = []

        async def connect(table_id: str, box: list[tuple[int, float]]) -> None:
            # the standard json module: engineio's own decoder guards every integer with a
            # Python hook, which made these Python clients, 50 to a process on the server's
            # own two cores, the bottleneck for a state of 400 values; a phone decodes with
            # the browser's native JSON.parse (docs/benchmarks.md, "Live fan-out")
            sio = socketio.AsyncClient(reconnection=False, json=json)
            first = asyncio.Event()

            shown: list[dict[str, Any]] = []  # the state a patch applies to, as on a phone
            join = {"table": table_id, **({"patches": True} if job.patches else {})}

            @sio.on("state")
            async def on_state(data: dict[str, Any]) -> None:
                box.append((data["seq"], time.perf_counter()))
                shown[:] = [data]
                first.set()

            @sio.on("state_patch")
            async def on_patch(data: dict[str, Any]) -> None:
                # what static/js/phone.js does: apply it if its base is the state shown,
                # else join again for the whole state (the gap shows as a missing seq)
                if shown and data["base_seq"] == shown[0]["seq"]:
                    shown[:] = [apply_in_place(shown[0], data["ops"])]
                    box.append((data["seq"], time.perf_counter()))
                elif not shown or data["seq"] > shown[0]["seq"]:
                    await sio.emit("join", join)

            @sio.event
            async def connect() -> None:
                await sio.emit("join", join)

            await sio.connect(job.urls[table_id], transports=["websocket"], wait_timeout=30)
            clients.append(sio)
            joined.append(first)

        started = time.monotonic()
        tasks = []
        for table_id, count in job.rooms:
            boxes: list[list[tuple[int, float]]] = [[] for _ in range(count)]
            stamps[table_id] = boxes
            tasks += [connect(table_id, box) for box in boxes]
        # connect in small batches: a burst of hundreds of handshakes only queues up
        for i in range(0, len(tasks), 20):
            await asyncio.gather(*tasks[i:i + 20])
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in joined)),
                               timeout=max(1.0, job.connect_timeout - (time.monotonic()
                                                                       - started)))
        ready.set()
        while not stop.is_set() and time.monotonic() - started < job.run_limit:
            await asyncio.sleep(0.05)
        await asyncio.gather(*(c.disconnect() for c in clients), return_exceptions=True)
        return stamps

    try:
        out.put(("ok", asyncio.run(run())))
    except BaseException as err:  # report, never hang the parent
        out.put(("error", repr(err)))
        ready.set()


class ClientFleet:
    """Socket.IO clients spread over ``procs`` processes (one asyncio loop each)."""

    def __init__(self, url: str | dict[str, str], rooms: list[tuple[str, int]], procs: int,
                 run_limit: float = 300.0, patches: bool = False) -> None:
        """``url``: the server, or each table id's server; ``patches``: the clients join for
        ``state_patch`` events (a server that does not send them sends whole states)."""
        urls = url if isinstance(url, dict) else {table_id: url for table_id, _ in rooms}
        ctx = mp.get_context("spawn")
        flat = [table_id for table_id, count in rooms for _ in range(count)]
        shares: list[dict[str, int]] = [{} for _ in range(procs)]
        for i, table_id in enumerate(flat):
            share = shares[i % procs]
            share[table_id] = share.get(table_id, 0) + 1
        self.total = len(flat)
        self.stop = ctx.Event()
        self.out = ctx.Queue()
        self.readies = []
        self.procs = []
        for share in shares:
            if not share:
                continue
            ready = ctx.Event()
            job = ClientJob({t: urls[t] for t in share}, list(share.items()),
                            run_limit=run_limit, patches=patches)
            proc = ctx.Process(target=_client_main, args=(job, ready, self.stop, self.out),
                               daemon=True)
            self.readies.append(ready)
            self.procs.append(proc)

    def start(self, timeout: float = 90.0) -> None:
        for proc in self.procs:
            proc.start()
        deadline = time.monotonic() + timeout
        for ready in self.readies:
            if not ready.wait(max(0.1, deadline - time.monotonic())):
                self.close()
                raise RuntimeError("clients did not all join in time")

    def finish(self, timeout: float = 60.0) -> dict[str, list[list[tuple[int, float]]]]:
        """Stop the clients and merge their stamps: table id -> one list per client."""
        self.stop.set()
        merged: dict[str, list[list[tuple[int, float]]]] = {}
        for _ in self.procs:
            kind, payload = self.out.get(timeout=timeout)
            if kind != "ok":
                raise RuntimeError(f"a client process failed: {payload}")
            for table_id, boxes in payload.items():
                merged.setdefault(table_id, []).extend(boxes)
        self.close()
        return merged

    def close(self) -> None:
        self.stop.set()
        for proc in self.procs:
            proc.join(timeout=10)
            if proc.is_alive():
                proc.kill()


# --------------------------------------------------------------------------- idle phones
PHONE_SOURCE = "127.0.0.2"  # idle phones connect from here: loopback, not the dealer's address


def _idle_main(url: str, tables: list[str], commands: Any, replies: Any,
               run_limit: float) -> None:
    """Hold idle phones (websocket, joined to ``tables`` in turn, reading what comes): on
    ("open", k) connect k more and reply (opened, refused, seconds); on ("close",) stop.
    Every phone connects from PHONE_SOURCE, so the server never counts them as the dealer's."""
    import aiohttp
    import socketio

    async def run() -> None:
        connector = aiohttp.TCPConnector(local_addr=(PHONE_SOURCE, 0), limit=0)
        session = aiohttp.ClientSession(connector=connector)
        clients: list[Any] = []
        started = time.monotonic()
        loop = asyncio.get_running_loop()

        async def one(table_id: str) -> bool:
            sio = socketio.AsyncClient(reconnection=False, json=json, http_session=session)
            joined = asyncio.Event()
            sio.on("state", lambda data: joined.set())

            async def on_connect() -> None:
                await sio.emit("join", {"table": table_id})

            sio.on("connect", on_connect)
            try:
                await sio.connect(url, transports=["websocket"], wait_timeout=20)
                await asyncio.wait_for(joined.wait(), timeout=20)
            except Exception:  # refused (503 past the cap) or timed out: counted, not held
                with contextlib.suppress(Exception):
                    await sio.disconnect()
                return False
            clients.append(sio)
            return True

        while time.monotonic() - started < run_limit:
            command = await loop.run_in_executor(None, commands.get)
            if command[0] != "open":
                break
            t0 = time.monotonic()
            results: list[bool] = []
            count = int(command[1])
            for i in range(0, count, 25):  # a few handshakes at a time
                batch = [one(tables[(len(clients) + j) % len(tables)])
                         for j in range(i, min(count, i + 25))]
                results += await asyncio.gather(*batch)
            replies.put((sum(results), len(results) - sum(results), time.monotonic() - t0))
        await asyncio.gather(*(c.disconnect() for c in clients), return_exceptions=True)
        await session.close()

    try:
        asyncio.run(run())
    except BaseException as err:  # report, never hang the parent
        replies.put(("error", repr(err), 0.0))


class IdleFleet:
    """Idle phones over ``procs`` client processes, opened step by step."""

    def __init__(self, url: str, tables: list[str], procs: int, run_limit: float = 600.0
                 ) -> None:
        ctx = mp.get_context("spawn")
        self.commands = [ctx.Queue() for _ in range(procs)]
        self.replies = ctx.Queue()
        self.procs = [ctx.Process(target=_idle_main, daemon=True,
                                  args=(url, tables, q, self.replies, run_limit))
                      for q in self.commands]
        for proc in self.procs:
            proc.start()

    def open(self, count: int, timeout: float = 180.0) -> tuple[int, int, float]:
        """Open ``count`` more phones, spread over the processes: (held, refused, seconds)."""
        shares = [count // len(self.procs) + (1 if i < count % len(self.procs) else 0)
                  for i in range(len(self.procs))]
        for queue_, share in zip(self.commands, shares, strict=True):
            queue_.put(("open", share))
        held = refused = 0
        slowest = 0.0
        for _ in self.procs:
            a, b, seconds = self.replies.get(timeout=timeout)
            if a == "error":
                raise RuntimeError(f"a phone process failed: {b}")
            held, refused, slowest = held + a, refused + b, max(slowest, seconds)
        return held, refused, slowest

    def close(self) -> None:
        for queue_ in self.commands:
            queue_.put(("close",))
        for proc in self.procs:
            proc.join(timeout=30)
            if proc.is_alive():
                proc.kill()


def threads_and_fds(pid: int) -> tuple[int, int]:
    """The threads and the open file descriptors of process ``pid``."""
    threads = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            threads = int(line.split()[1])
    return threads, len(os.listdir(f"/proc/{pid}/fd"))


def descriptor_limit(pid: int) -> int:
    """The soft limit on open files in force for process ``pid``."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    raise RuntimeError(f"no open-file limit for {pid}")


def latencies(sent: dict[str, dict[int, float]],
              stamps: dict[str, list[list[tuple[int, float]]]]) -> tuple[list[float], int, int]:
    """Per (action, client): first receipt of the action's seq minus its send time.
    Returns (latencies in seconds, updates expected, updates missing)."""
    out: list[float] = []
    expected = missing = 0
    for table_id, by_seq in sent.items():
        for box in stamps.get(table_id, []):
            first: dict[int, float] = {}
            for seq, t in box:
                first.setdefault(seq, t)
            for seq, t_sent in by_seq.items():
                expected += 1
                if seq in first:
                    out.append(first[seq] - t_sent)
                else:
                    missing += 1
    return out, expected, missing


# --------------------------------------------------------------------------- launcher
SMOKE_ENV = "BENCH_SMOKE"


def smoke() -> bool:
    """A smoke run (tests/test_bench_smoke.py runs every script at a tiny size, to show it
    runs on today's code): its figures mean nothing, so no target is judged."""
    return os.environ.get(SMOKE_ENV) == "1"


def target_code(met: bool) -> int:
    """A script's exit status: 1 when a target is missed, but never in a smoke run."""
    return 0 if met or smoke() else 1


def keep_pool(keep: int) -> None:
    """Make the app's connection pool keep ``keep`` connections (0: open and close one per
    request, as the server did before the pool)."""
    from dealer_assist.services import storage

    class Pool(storage.ConnectionPool):
        def __init__(self, path: str | Path, keep_: int = keep) -> None:
            super().__init__(path, keep_)

    storage.ConnectionPool = Pool  # type: ignore[misc]


def serve(argv: list[str]) -> None:
    """The app as ``dealer-assist serve`` runs it, with benchmark-only switches."""
    parser = argparse.ArgumentParser(prog="_common.py serve")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True, help="a SQLite file or a postgresql:// URL")
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL", "OFF"))
    parser.add_argument("--pool-keep", type=int, default=None,
                        help="connections the pool keeps (0: a new one per request, as before)")
    parser.add_argument("--sync-in-commit", action="store_true",
                        help="fsync inside COMMIT, before the broadcast (as before)")
    parser.add_argument("--switch-interval", type=float, default=None,
                        help="sys.setswitchinterval (seconds; CPython's default is 0.005)")
    parser.add_argument("--sync-at-teardown", action="store_true",
                        help="the commit's fsync at teardown, after the dealer's state (as "
                             "before it moved to right after the phones' emit)")
    args = parser.parse_args(argv)
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    from dealer_assist import cli
    from dealer_assist.services import storage

    if args.synchronous:
        setup = storage.sqlite.connect_with

        def connect_with(conn: Any, *more: Any) -> Any:
            db = setup(conn, *more)
            db.execute(f"PRAGMA synchronous = {args.synchronous}")
            return db

        storage.sqlite.connect_with = connect_with  # type: ignore[assignment]
    if args.pool_keep is not None:
        keep_pool(args.pool_keep)
    if args.sync_in_commit:
        from dealer_assist.services.tables import TableStore

        act = TableStore.act

        def act_synced(self: Any, *a: Any, defer_sync: bool = False, **kw: Any) -> Any:
            return act(self, *a, defer_sync=False, **kw)

        TableStore.act = act_synced  # type: ignore[method-assign]
    if args.sync_at_teardown:
        from dealer_assist.web import broadcast

        broadcast.pay_owed_sync = lambda: None  # type: ignore[assignment]  # teardown pays it
    # as ``dealer-assist serve`` runs (gevent patched in first, by cli/serve.py)
    sys.exit(cli.main(["serve", "--host", HOST, "--port", str(args.port), "--db", args.db,
                       "--no-mdns"]))


@contextlib.contextmanager
def servers(*procs: ServerProcess) -> Iterator[None]:
    try:
        for proc in procs:
            proc.start()
        yield
    finally:
        for proc in procs:
            proc.stop()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        serve(sys.argv[2:])
    else:
        print(__doc__)
