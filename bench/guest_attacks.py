"""What a guest on the Wi-Fi can make the dealer wait (issue 25), on a real server: a real
``dealer-assist serve`` process, a tablet dealing over Socket.IO from the server's own
machine (timing every acknowledgement), and the guest in a process of its own (niced, and
on a core of its own where the machine has two or more: on a real night it is another
laptop, so its own CPU is not the server's).

    python bench/guest_attacks.py freeze [--sockets 1000 2000] [--hold 3] [--after 5] [--runs 2]
    python bench/guest_attacks.py joins [--clients 8] [--seconds 15] [--runs 2]
    python bench/guest_attacks.py slowloris [--seconds 16] [--runs 1]
    python bench/guest_attacks.py garbage [--seconds 20] [--runs 1]
    python bench/guest_attacks.py flood [--event leave|action] [--seconds 6] [--runs 1]
    python bench/guest_attacks.py equity [--shows 3] [--runs 1]
    python bench/guest_attacks.py reads [--kinds deals phhs views] [--deals 3000] [--runs 1]

(``--quiet S``: the seconds the tablet acts alone before the guest, and after it for joins.)

Each prints one JSON line of figures per run; docs/benchmarks.md ("A guest on the Wi-Fi")
quotes them, and tests/test_guest_attacks.py runs the same attacks and holds their bounds.
Every stamp is ``time.perf_counter`` (CLOCK_MONOTONIC, one clock for every process of the
machine). Everything goes to this machine's own addresses, and stops by itself.

- **freeze**: the guest, from 127.0.0.2, opens N sockets that each send a request line and
  one header and never finish, waits 3 s, then closes them all at once.
- **joins**: from this machine's LAN address, ``--clients`` Socket.IO clients emit ``join``
  in a loop, connecting again as soon as they are disconnected.
- **slowloris**: from the LAN address, 44 sockets send a header line every 2 s (or a body
  a byte at a time) and never finish; meanwhile a new phone (from 127.0.0.1) and a new
  dealer websocket get in.
- **garbage**: from the LAN address, every event with missing and wrong arguments, lone
  surrogates as table ids, and broken packets and requests, as fast as they go.
- **equity** (issue 32): no guest but the dealer's own heavy work: at one table ten players
  of Omaha all in pre-flop show their hands (600,000 rankings for R67's chances), while a
  tablet deals at another table; its acks beside each show, the show's ack and its chances.
- **flood** (issue 32): from the LAN address, a raw websocket sends ``leave`` (or ``action``)
  events as fast as it can, each asking for an acknowledgement, connecting again when cut.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from _ports import free_port

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

GUEST = "127.0.0.2"
# how the server is started: the app as shipped, or (BENCH_LAUNCHER=script.py) a script that
# patches it first for a measurement, then runs dealer_assist.cli.main
LAUNCHER = [os.environ["BENCH_LAUNCHER"]] if os.environ.get("BENCH_LAUNCHER") else [
    "-m", "dealer_assist"]  # the freeze's guest: loopback, so no per-address cap stops it first
# the server's code: this checkout's, or (--code REF) a commit's unpacked here, for a before
CODE: Path | None = None


def unpack(ref: str, folder: Path) -> Path:
    """The tree of git commit ``ref`` of this repository, unpacked into ``folder``: a server
    started there (``-m`` looks in its working directory first) runs that commit's code."""
    archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", ref], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def lan_address() -> str:
    from dealer_assist.cli.banner import lan_address as found

    return found()


def raise_limit() -> None:
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# --------------------------------------------------------------------------- the server
class Server:
    """``dealer-assist serve`` on every address (or another ``command`` given the port: the
    floor's server), its output in ``log``, once it answers ``ready``."""

    def __init__(self, folder: Path, *args: str, files: int | None = None,
                 command: Callable[[int], list[str]] | None = None,
                 ready: str = "/api/tables") -> None:
        import requests

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"server-{self.port}.log"

        def limit() -> None:  # the open-file limit, hard and soft: the server's total cap
            if files:
                import resource

                resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        argv = command(self.port) if command else [
            sys.executable, *LAUNCHER, "serve", "--host", "0.0.0.0", "--port", str(self.port),
            "--db", str(folder / f"{self.port}.db"), "--no-mdns", *args]
        code = {"env": {**os.environ, "PYTHONPATH": str(CODE)}, "cwd": CODE} if CODE else {}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                argv, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, preexec_fn=limit, **code)  # type: ignore[call-overload]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if requests.get(self.url + ready, timeout=1).ok:
                    return
            except requests.RequestException:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(self.log.read_text(errors="replace")[-3000:])

    @property
    def pid(self) -> int:
        return self.proc.pid

    def table(self, variant: str = "texas_dozen",
              players: tuple[str, ...] = ("Ann", "Bob")) -> dict[str, Any]:
        import requests

        made: dict[str, Any] = requests.post(self.url + "/api/tables", timeout=10, json={
            "variant": variant, "players": list(players)}).json()
        return made

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_server(folder: Path, *args: str, files: int | None = None,
                 command: Callable[[int], list[str]] | None = None,
                 ready: str = "/api/tables") -> Server:
    for attempt in range(5):  # a free port may be taken meanwhile by a busy machine's client
        try:
            return Server(folder, *args, files=files, command=command, ready=ready)
        except RuntimeError as err:
            if "Address already in use" not in str(err) or attempt == 4:
                raise
    raise AssertionError("unreachable")


@contextmanager
def server(folder: Path, *args: str, files: int | None = None) -> Iterator[Server]:
    running = start_server(folder, *args, files=files)
    try:
        yield running
    finally:
        running.stop()


# --------------------------------------------------------------------------- the tablet
def next_body(state: dict[str, Any]) -> dict[str, Any]:
    step = state["step"]
    if step["kind"] == "bet":
        return {"type": "fold", "player": step["player"]}
    return {"type": step["kind"]}


class Tablet:
    """The dealer's tablet: a python-socketio client that joins with the dealer token and,
    in a thread, sends Texas Dozen actions (start, next, fold...) over Socket.IO one after
    another, ``pause`` apart, timing each acknowledgement: (sent, seconds, status)."""

    def __init__(self, url: str, made: dict[str, Any], pause: float = 0.02) -> None:
        import socketio

        self.table = made["id"]
        self.pause = pause
        self.samples: list[tuple[float, float, int]] = []
        self.client = socketio.Client(reconnection=False)
        got: list[dict[str, Any]] = []
        self.client.on("state", got.append)
        self.client.connect(url, transports=["websocket"], wait_timeout=10)
        self.client.emit("join", {"table": self.table, "token": made["dealer_token"]})
        deadline = time.monotonic() + 10
        while not got and time.monotonic() < deadline:
            time.sleep(0.01)
        self.state = got[-1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def act(self) -> dict[str, Any]:
        body = next_body(self.state) | {"expect_seq": self.state["seq"]}
        sent = time.perf_counter()
        ack = self.client.call("action", {"table": self.table, "action": body}, timeout=60)
        self.samples.append((sent, time.perf_counter() - sent, int(ack.get("status", 0))))
        if ack.get("status") == 200:
            self.state = ack["state"]
        return dict(ack)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.act()
            self._stop.wait(self.pause)

    def start(self) -> Tablet:
        for _ in range(10):  # warm: the first actions load the table and the evaluator
            self.act()
        self.samples.clear()
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(90)
        self.client.disconnect()

    def between(self, start: float, end: float) -> list[float]:
        return [took for sent, took, _ in self.samples if start <= sent < end]


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2) if samples else float("nan")


def beside_quiet(quiet: list[float], loaded: list[float]) -> dict[str, Any]:
    """The tablet's acks beside the attack against its quiet ones: medians, ratio, worst."""
    return {
        "quiet_median_ms": median_ms(quiet), "loaded_median_ms": median_ms(loaded),
        "ratio": round(statistics.median(loaded) / statistics.median(quiet), 2)
        if loaded else None,
        "quiet_max_ms": round(max(quiet) * 1000, 1),
        "loaded_max_ms": round(max(loaded, default=float("nan")) * 1000, 1),
    }


def guest_core() -> set[int] | None:
    """The last CPU this process may use, for the guest alone, if it may use two or more
    (Linux; elsewhere None)."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    cpus = sorted(os.sched_getaffinity(0))
    return {cpus[-1]} if len(cpus) >= 2 else None


def guest(kind: str, *args: str) -> subprocess.Popen[str]:
    """The guest's process. On a real night it is another laptop; here it shares the
    server's machine, so it is kept to one core (the scheduler leaves the server the others)
    and niced: what it costs the server is what the server does for it, not the guest's own
    CPU. Sharing both of CI's two cores at nice 10, the guest's own loop alone took join
    spam from 1.14-1.22x the dealer's quiet median to 1.61-2.02x (docs/benchmarks.md)."""
    core = guest_core()

    def start() -> None:
        os.nice(10)
        if core is not None:
            os.sched_setaffinity(0, core)

    return subprocess.Popen([sys.executable, str(Path(__file__)), f"guest-{kind}", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=start)


def read_json_line(proc: subprocess.Popen[str], timeout: float = 120) -> dict[str, Any]:
    """The guest's next line of JSON on stdout."""
    assert proc.stdout is not None
    result: list[str] = []
    reader = threading.Thread(target=lambda: result.append(proc.stdout.readline()),  # type: ignore[union-attr]
                              daemon=True)
    reader.start()
    reader.join(timeout)
    if not result or not result[0]:
        raise RuntimeError(f"the guest said nothing: {proc.stderr.read() if proc.stderr else ''}")
    line: dict[str, Any] = json.loads(result[0])
    return line


# --------------------------------------------------------------------------- freeze
def guest_freeze(address: str, port: int, count: int, hold: float) -> None:
    raise_limit()
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.bind((GUEST, 0))
        sock.connect((address, port))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: guest\r\n")  # and never the blank line
        held.append(sock)
    print(json.dumps({"opened": len(held), "at": time.perf_counter()}), flush=True)
    time.sleep(hold)
    released = time.perf_counter()
    for sock in held:
        sock.close()
    print(json.dumps({"released": released, "closed_in": time.perf_counter() - released}),
          flush=True)


def freeze(folder: Path, sockets: int, hold: float = 3.0, after: float = 5.0,
           quiet: float = 3.0) -> dict[str, Any]:
    with server(folder) as running:
        tablet = Tablet(running.url, running.table()).start()
        began = time.perf_counter()
        time.sleep(quiet)
        attack = guest("freeze", "--port", str(running.port), "--count", str(sockets),
                       "--hold", str(hold))
        try:
            opened = read_json_line(attack)
            released = read_json_line(attack)
        finally:
            attack.wait(60)
        time.sleep(after)
        tablet.stop()
        alive = running.proc.poll() is None
    release = released["released"]
    quiet = tablet.between(began, opened["at"] - 1)
    return {
        "sockets": opened["opened"], "acks": len(tablet.samples),
        "not_200": sum(status != 200 for _, _, status in tablet.samples),
        "quiet_median_ms": median_ms(quiet),
        "quiet_max_ms": round(max(quiet) * 1000, 1),
        "opening_max_ms": round(max(tablet.between(opened["at"] - 1, opened["at"]),
                                    default=0) * 1000, 1),
        "while_held_max_ms": round(max(tablet.between(opened["at"], release)) * 1000, 1),
        "first_2s_after_max_ms": round(max(tablet.between(release, release + 2)) * 1000, 1),
        "max_ms": round(max(took for _, took, _ in tablet.samples) * 1000, 1),
        "after_2s_median_ms": median_ms(tablet.between(release + 2, release + after)),
        "after_2s_ratio": round(statistics.median(tablet.between(release + 2, release + after))
                                / statistics.median(quiet), 2),
        "server_alive": alive,
    }


class Watched:
    """A guest's attack from the LAN address, between two quiet spells of ``quiet`` seconds,
    the server's memory watched meanwhile: when it began and ended, its line of figures,
    the server's memory before and at its most."""

    def __init__(self, running: Server, quiet: float, kind: str, *args: str) -> None:
        time.sleep(quiet)
        self.rss_before = self.rss_most = rss_mib(running.pid)
        self.began = time.perf_counter()
        attack = guest(kind, "--address", lan_address(), "--port", str(running.port), *args)
        while attack.poll() is None:
            self.rss_most = max(self.rss_most, rss_mib(running.pid))
            time.sleep(0.25)
        self.ended = time.perf_counter()
        self.said = read_json_line(attack)
        time.sleep(quiet)


# --------------------------------------------------------------------------- joins
def guest_joins(address: str, port: int, table: str, clients: int, seconds: float) -> None:
    import socketio

    stats = {"connects": 0, "refused": 0, "joins": 0, "errors_heard": 0, "states_heard": 0}
    lock = threading.Lock()
    ends = time.monotonic() + seconds

    def count(key: str) -> None:
        with lock:
            stats[key] += 1

    def spam() -> None:
        while time.monotonic() < ends:
            client = socketio.Client(reconnection=False)
            client.on("error", lambda _e: count("errors_heard"))
            client.on("state", lambda _s: count("states_heard"))
            try:
                client.connect(f"http://{address}:{port}", transports=["websocket"],
                               wait_timeout=5)
            except Exception:
                count("refused")
                continue
            count("connects")
            try:
                while client.connected and time.monotonic() < ends:
                    client.emit("join", {"table": table})
                    count("joins")
                    time.sleep(0.002)
            except Exception:
                pass
            finally:
                client.disconnect()

    threads = [threading.Thread(target=spam, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 30)
    print(json.dumps(stats), flush=True)


@contextmanager
def dealing(folder: Path, quiet: float) -> Iterator[tuple[Server, dict[str, Any], Tablet,
                                                           float]]:
    """A server with a table, its tablet acting from this machine since ``began``, once
    ``quiet`` seconds of it (with no guest) have passed."""
    with server(folder) as running:
        made = running.table()
        tablet = Tablet(running.url, made).start()
        began = time.perf_counter()
        time.sleep(quiet)
        yield running, made, tablet, began


def joins(folder: Path, clients: int = 8, seconds: float = 15.0,
          quiet: float = 5.0) -> dict[str, Any]:
    with dealing(folder, quiet) as (running, made, tablet, began):
        rss_before = rss_mib(running.pid)
        attack_began = time.perf_counter()
        attack = guest("joins", "--address", lan_address(), "--port", str(running.port),
                       "--table", made["id"], "--clients", str(clients), "--seconds",
                       str(seconds))
        rss_most = rss_before
        while attack.poll() is None:
            rss_most = max(rss_most, rss_mib(running.pid))
            time.sleep(0.25)
        attack_ended = time.perf_counter()
        spam = read_json_line(attack)
        time.sleep(quiet)
        tablet.stop()
    quiet_before = tablet.between(began, attack_began)
    quiet_after = tablet.between(attack_ended + 1, attack_ended + 1 + quiet)
    loaded = tablet.between(attack_began + 1, attack_ended)
    quiet_all = quiet_before + quiet_after
    return {
        "clients": clients, "seconds": seconds, **spam,
        "quiet_median_ms": median_ms(quiet_all),
        "quiet_before_ms": median_ms(quiet_before), "quiet_after_ms": median_ms(quiet_after),
        "quiet_max_ms": round(max(quiet_all) * 1000, 1),
        "loaded_median_ms": median_ms(loaded),
        "ratio": round(statistics.median(loaded) / statistics.median(quiet_all), 2),
        "loaded_max_ms": round(max(loaded) * 1000, 1),
        "loaded_p90_ms": round(sorted(loaded)[int(len(loaded) * 0.9)] * 1000, 1),
        "slowest_at_s": [round(sent - attack_began, 1) for sent, took, _ in sorted(
            tablet.samples, key=lambda s: -s[1])[:3]],
        "acks": len(tablet.samples),
        "not_200": sum(status != 200 for _, _, status in tablet.samples),
        "rss_before_mib": round(rss_before, 1), "rss_growth_mib": round(rss_most - rss_before, 1),
    }


# --------------------------------------------------------------------------- slowloris
def guest_slowloris(address: str, port: int, heads: int, bodies: int, seconds: float) -> None:
    """``heads`` sockets dribbling header lines, ``bodies`` dribbling a body; for each: when
    its first byte went, whether the server answered 503 at once, and when it closed it."""
    raise_limit()
    socks: list[dict[str, Any]] = []
    for i in range(bodies + heads):  # the bodies first: the heads beyond the cap are refused
        sock = socket.create_connection((address, port), timeout=5)
        sock.setblocking(False)
        body = i < bodies
        first = (b"POST /api/tables HTTP/1.1\r\nHost: guest\r\nContent-Type: "
                 b"application/json\r\nContent-Length: 1000\r\n\r\n" if body
                 else b"GET / HTTP/1.1\r\nHost: guest\r\n")
        sock.sendall(first)
        socks.append({"sock": sock, "body": body, "first": time.perf_counter(),
                      "closed": None, "refused": False})
    ends = time.monotonic() + seconds
    next_drip = time.monotonic() + 1
    while time.monotonic() < ends and any(s["closed"] is None for s in socks):
        for s in socks:
            if s["closed"] is not None:
                continue
            try:
                data = s["sock"].recv(4096)
                if data.startswith(b"HTTP/1.1 503"):
                    s["refused"] = True
                if data == b"" or s["refused"]:
                    s["closed"] = time.perf_counter()
            except BlockingIOError:
                pass
            except OSError:
                s["closed"] = time.perf_counter()
        if time.monotonic() >= next_drip:
            next_drip += 1
            for s in socks:
                if s["closed"] is None:
                    try:
                        s["sock"].send(b"{" if s["body"] else b"X-Slow: yes\r\n")
                    except OSError:
                        s["closed"] = time.perf_counter()
        time.sleep(0.02)
    out = [{"body": s["body"], "refused": s["refused"],
            "closed_after": None if s["closed"] is None else s["closed"] - s["first"]}
           for s in socks]
    for s in socks:
        s["sock"].close()
    print(json.dumps(out), flush=True)


def slowloris(folder: Path, seconds: float = 16.0) -> dict[str, Any]:
    import requests
    from listeners import Listener

    with server(folder) as running:
        made = running.table()
        attack = guest("slowloris", "--address", lan_address(), "--port", str(running.port),
                       "--heads", "40", "--bodies", "4", "--seconds", str(seconds))
        time.sleep(4)
        # meanwhile: a new phone from another address, and a new dealer websocket
        page = requests.get(f"{running.url}/t/{made['id']}", timeout=10).status_code
        phone = Listener(running.url, made["id"], reconnect=False)
        phone_state = phone.next_state()["seq"]
        tablet = Tablet(running.url, made)
        tablet_ack = tablet.act()["status"]
        phone.close()
        tablet.client.disconnect()
        sockets = read_json_line(attack, timeout=seconds + 60)
        attack.wait(30)
    held = [s for s in sockets if not s["refused"]]
    closes = [s["closed_after"] for s in held]
    return {
        "tried": len(sockets), "refused_503": sum(s["refused"] for s in sockets),
        "held": len(held), "never_closed": sum(c is None for c in closes),
        "closed_after_min_s": round(min(c for c in closes if c is not None), 2),
        "closed_after_max_s": round(max(c for c in closes if c is not None), 2),
        "bodies_closed_after_s": sorted(round(s["closed_after"], 2) for s in held
                                        if s["body"] and s["closed_after"] is not None),
        "new_phone_page": page, "new_phone_state_seq": phone_state,
        "new_dealer_ack": tablet_ack,
    }


# --------------------------------------------------------------------------- garbage
BAD_ARGUMENTS: list[tuple[Any, ...]] = [
    (), (None,), ("x",), (7,), ([],), ({},), ({"table": 5},), ({"table": "\ud800"},),
    ({"table": "\ud800", "action": {"type": "next"}},), ({"table": "x" * 500},),
    ({"table": "abc", "action": "next"},), ({"table": "abc"}, "extra", 3),
]


PACE_SECONDS = 0.055  # a garbage connection's calls: at most 18 a second (its budget: 20)

def guest_garbage(address: str, port: int, seconds: float) -> None:
    """Two Socket.IO clients: one calls ``action`` and ``leave`` with every bad argument,
    the other ``join`` (it is soon over its join rate and held off: it tries again); a raw
    websocket sends broken packets; raw sockets send broken requests."""
    import socketio
    import websocket

    url = f"http://{address}:{port}"
    stats: dict[str, Any] = {"calls": 0, "acks_with_error": 0, "acks_without_error": 0,
                             "no_ack": 0, "join_calls": 0, "broken_packets": 0,
                             "broken_requests": 0}
    ends = time.monotonic() + seconds

    def connected() -> Any:
        client = socketio.Client(reconnection=False)
        try:
            client.connect(url, transports=["websocket"], wait_timeout=5)
        except Exception:
            return None
        return client

    last_call: dict[int, float] = {}

    def call(client: Any, event: str, args: tuple[Any, ...]) -> Any:
        # each connection below its event budget (a flood is the flood attack's, and is
        # cut): every bad argument here must be answered with a sentence
        time.sleep(max(0.0, last_call.get(id(client), 0.0) + PACE_SECONDS - time.monotonic()))
        last_call[id(client)] = time.monotonic()
        data = args[0] if len(args) == 1 else (args or None)
        return client.call(event, data, timeout=10)

    def raw_socket() -> Any:
        raw = websocket.create_connection(
            f"ws://{address}:{port}/socket.io/?EIO=4&transport=websocket", timeout=5)
        raw.recv()
        raw.send("40")
        return raw

    actor, joiner, raw = connected(), connected(), raw_socket()
    broken = ["42[", '42["join",', "4x", "9", '42["action",{"table":"\\ud800"}]',
              '421["action"]', "2probe", "5", '42{"a":1}']
    while time.monotonic() < ends:
        for args in BAD_ARGUMENTS:
            for event in ("action", "leave"):
                first = args[0] if args else None
                if event == "leave" and isinstance(first, dict) and first.get("table") == "abc":
                    continue  # a leave as it should be (of a table not joined): no refusal
                try:
                    ack = call(actor, event, args)
                    good = isinstance(ack, dict) and ack.get("status") in (400, 401) and \
                        isinstance(ack.get("error"), str)
                    stats["acks_with_error" if good else "acks_without_error"] += 1
                except socketio.exceptions.TimeoutError:
                    stats["no_ack"] += 1
                stats["calls"] += 1
            if joiner is not None and joiner.connected:
                try:
                    call(joiner, "join", args)
                    stats["join_calls"] += 1
                except Exception:  # disconnected for its rate: held off a while
                    joiner = None
            elif joiner is None or not joiner.connected:
                joiner = connected()
        for packet in broken:
            try:
                raw.send(packet)
                stats["broken_packets"] += 1
            except Exception:
                raw = raw_socket()
        for junk in (b"BLAH\r\n\r\n", b"GET\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n",
                     b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -4\r\n\r\n",
                     b"GET / HTTP/1.1\r\n" + b"X" * 9000 + b"\r\n\r\n"):
            try:
                with socket.create_connection((address, port), timeout=5) as sock:
                    sock.sendall(junk)
                    sock.recv(1024)
                stats["broken_requests"] += 1
            except OSError:
                pass
    actor.disconnect()
    print(json.dumps(stats), flush=True)


def garbage(folder: Path, seconds: float = 20.0, quiet: float = 2.0) -> dict[str, Any]:
    with server(folder) as running:
        made = running.table()
        tablet = Tablet(running.url, made).start()
        time.sleep(quiet)
        before = running.log.stat().st_size
        attack = guest("garbage", "--address", lan_address(), "--port", str(running.port),
                       "--seconds", str(seconds))
        stats = read_json_line(attack, timeout=seconds + 60)
        attack.wait(30)
        grew = running.log.stat().st_size - before
        tablet.stop()
        output = running.output()[-grew:] if grew else ""
    return {"seconds": seconds, **stats, "log_bytes": grew,
            "log_bytes_a_minute": round(grew * 60 / seconds),
            "tracebacks": output.count("Traceback"),
            "tablet_acks": len(tablet.samples),
            "tablet_not_200": sum(status != 200 for _, _, status in tablet.samples),
            "log": output[-2000:]}



# --------------------------------------------------------------------------- reads (issue 32)
def big_table_export(deals: int, players: tuple[str, ...] = ("Ann", "Bob", "Cat")
                     ) -> dict[str, Any]:
    """A Texas Hold'em table of ``deals`` deals (each folded round to the big blind), as the
    JSON export writes it: what a host imports, within the import's caps."""
    from dealer_assist.core.table import Table
    from dealer_assist.games.registry import new_setup
    from dealer_assist.services import history

    setup = new_setup("texas_holdem", list(players), {}, "Big night")
    table = Table.from_setup(setup)
    records: list[dict[str, Any]] = []
    started = 0
    while True:
        body = next_body({"step": table.step()})
        if body["type"] == "start_deal":
            if started == deals:
                break
            started += 1
        action = table.prepare(body)
        table = table.apply(action)
        records.append({"seq": table.seq, "time": "2026-12-01T20:00:00Z",
                        "action": action.to_json()})
    return {"format": history.EXPORT_FORMAT, "version": history.EXPORT_VERSION,
            "setup": setup.to_json(), "actions": records}


def import_big_table(url: str, deals: int) -> str:
    """A table of ``deals`` deals imported by the host (the server's own machine): its id."""
    import requests

    answer = requests.post(url + "/api/tables/import", json=big_table_export(deals),
                           timeout=300)
    if answer.status_code != 201:
        raise RuntimeError(answer.text[:500])
    return str(answer.json()["id"])


def read_paths(kind: str, table: str) -> list[str]:
    """What the guest asks for, each connection in turn."""
    return {
        "deals": [f"/api/tables/{table}/deals"],
        "phhs": [f"/api/tables/{table}/export.phhs"],
        "views": ["/", "/api/tables", f"/api/tables/{table}", f"/api/tables/{table}/deals",
                  f"/api/tables/{table}/export.csv"],
    }[kind]


def guest_reads(address: str, port: int, paths: list[str], connections: int,
                seconds: float) -> None:
    """``connections`` keep-alive connections, each asking for ``paths`` in turn as fast as
    the answers come: how many answers of each status, the bytes, and what a refusal said."""
    import requests

    stats: dict[str, Any] = {"requests": 0, "statuses": {}, "bytes": 0, "refusals": [],
                             "errors": 0, "error_kinds": {}}
    lock = threading.Lock()
    ends = time.monotonic() + seconds

    def hammer(offset: int) -> None:
        with requests.Session() as session:
            turn = offset
            while time.monotonic() < ends:
                path = paths[turn % len(paths)]
                turn += 1
                try:
                    answer = session.get(f"http://{address}:{port}{path}", timeout=120)
                except requests.RequestException as error:
                    with lock:
                        stats["errors"] += 1
                        kinds = stats["error_kinds"]
                        kinds[type(error).__name__] = kinds.get(type(error).__name__, 0) + 1
                    time.sleep(0.05)
                    continue
                with lock:
                    stats["requests"] += 1
                    key = str(answer.status_code)
                    stats["statuses"][key] = stats["statuses"].get(key, 0) + 1
                    stats["bytes"] += len(answer.content)
                    if answer.status_code >= 400 and len(stats["refusals"]) < 50:
                        stats["refusals"].append([answer.status_code, answer.text[:300]])

    threads = [threading.Thread(target=hammer, args=(i,), daemon=True)
               for i in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 150)
    print(json.dumps(stats), flush=True)


def reads(folder: Path, kind: str, connections: int = 8, deals: int = 3000,
          seconds: float = 12.0, quiet: float = 4.0, big: str | None = None,
          server_args: tuple[str, ...] = ()) -> dict[str, Any]:
    """A guest on the LAN address asking for a big table's ``kind`` of reads
    (:func:`read_paths`) from ``connections`` connections, beside the tablet: its quiet
    median, then its median and worst while the guest asks, and the server's memory."""
    with server(folder, *server_args) as running:
        table = big or import_big_table(running.url, deals)
        tablet = Tablet(running.url, running.table()).start()
        began = time.perf_counter()
        watched = Watched(running, quiet, "reads", "--paths", *read_paths(kind, table),
                          "--connections", str(connections), "--seconds", str(seconds))
        attack_began, attack_ended, asked = watched.began, watched.ended, watched.said
        rss_before, rss_most = watched.rss_before, watched.rss_most
        tablet.stop()
        tracebacks = running.output().count("Traceback")
    # quiet: before the guest and after (a shared machine's load drifts meanwhile)
    quiet_acks = tablet.between(began, attack_began) + tablet.between(
        attack_ended + 1, attack_ended + quiet)
    loaded = tablet.between(attack_began + 0.5, attack_ended)
    return {
        "kind": kind, "connections": connections, "deals": deals, "seconds": seconds,
        **{k: v for k, v in asked.items() if k != "refusals"},
        "refusal_sentences": sorted({f"{code} {text}" for code, text in asked["refusals"]}),
        **beside_quiet(quiet_acks, loaded),
        "loaded_p90_ms": round(sorted(loaded)[int(len(loaded) * 0.9)] * 1000, 1),
        "acks": len(tablet.samples), "loaded_acks": len(loaded),
        "not_200": sum(status != 200 for _, _, status in tablet.samples),
        "rss_before_mib": round(rss_before, 1), "rss_growth_mib": round(rss_most - rss_before, 1),
        "tracebacks": tracebacks,
    }


# --------------------------------------------------------------------------- flood
def guest_flood(address: str, port: int, table: str, event: str, seconds: float) -> None:
    """Raw websockets, one at a time: each sends ``event`` packets with an ack id as fast as
    it can while a thread counts the acks, until the server cuts it; then a new one."""
    import websocket

    body = {"table": table} if event == "leave" else {
        "table": table, "action": {"type": "next"}}
    payload = json.dumps([event, body])
    stats: dict[str, Any] = {"connections": [], "refused": 0}
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        try:
            ws = websocket.create_connection(
                f"ws://{address}:{port}/socket.io/?EIO=4&transport=websocket", timeout=5)
            ws.recv()  # Engine.IO's open packet
            ws.send("40")
            ws.recv()  # Socket.IO's connect
        except Exception:
            stats["refused"] += 1
            time.sleep(0.05)
            continue
        acks = [0]
        cut = threading.Event()

        def read(ws: Any = ws, acks: list[int] = acks, cut: threading.Event = cut) -> None:
            try:
                while True:
                    message = ws.recv()
                    if not message:
                        break
                    if isinstance(message, str) and message.startswith("43"):
                        acks[0] += 1
            except Exception:
                pass
            cut.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        sent, began = 0, time.perf_counter()
        try:
            while not cut.is_set() and time.monotonic() < ends:
                ws.send(f"42{sent}{payload}")
                sent += 1
        except Exception:
            pass
        cut.wait(max(0.0, ends - time.monotonic()))
        took = time.perf_counter() - began
        reader.join(1)
        with contextlib.suppress(Exception):
            ws.close(timeout=1)
        stats["connections"].append({"sent": sent, "acks": acks[0], "cut": cut.is_set(),
                                     "seconds": round(took, 3)})
    print(json.dumps(stats), flush=True)


def flood(folder: Path, event: str = "leave", seconds: float = 6.0,
          quiet: float = 3.0) -> dict[str, Any]:
    """The tablet (from this machine) acting throughout; the guest floods for ``seconds``."""
    with dealing(folder, quiet) as (running, made, tablet, began):
        attack_began = time.perf_counter()
        attack = guest("flood", "--address", lan_address(), "--port", str(running.port),
                       "--table", made["id"], "--event", event, "--seconds", str(seconds))
        stats = read_json_line(attack, timeout=seconds + 60)
        attack.wait(30)
        attack_ended = time.perf_counter()
        tablet.stop()
        log = running.output()
    quiet_samples = tablet.between(began, attack_began)
    loaded = tablet.between(attack_began, attack_ended)
    first = stats["connections"][0] if stats["connections"] else {}
    return {
        "event": event, "seconds": seconds, "connections": len(stats["connections"]),
        "refused": stats["refused"], "first_connection": first,
        "events_sent": sum(c["sent"] for c in stats["connections"]),
        "acks_heard": sum(c["acks"] for c in stats["connections"]),
        "all_cut": all(c["cut"] for c in stats["connections"]),
        "quiet_median_ms": median_ms(quiet_samples),
        "loaded_median_ms": median_ms(loaded),
        "ratio": round(statistics.median(loaded) / statistics.median(quiet_samples), 2),
        "quiet_max_ms": round(max(quiet_samples) * 1000, 1),
        "loaded_max_ms": round(max(loaded) * 1000, 1),
        "acks": len(loaded), "not_200": sum(status != 200 for _, _, status in tablet.samples),
        "cut_lines": log.count("Socket.IO events at once"),
        "tracebacks": log.count("Traceback"),
    }


# --------------------------------------------------------------------------- equity
EQUITY_PLAYERS = tuple(f"P{i}" for i in range(10))


def omaha_all_in(running: Server) -> dict[str, Any]:
    """A new table of ten players of no-limit Omaha, all in pre-flop, at its ``show``."""
    import requests

    made: dict[str, Any] = requests.post(running.url + "/api/tables", timeout=10, json={
        "variant": "omaha", "players": list(EQUITY_PLAYERS),
        "rules": {"betting": "no_limit"}}).json()
    body: dict[str, Any] = {"type": "start_deal"}
    while True:
        answer = requests.post(f"{running.url}/api/tables/{made['id']}/actions", json=body,
                               headers={"Authorization": f"Bearer {made['dealer_token']}"},
                               timeout=30)
        if answer.status_code != 200:
            raise RuntimeError(f"{answer.status_code} {answer.text}")
        step = answer.json()["state"]["step"]
        if step["kind"] == "reveal":
            return made
        body = {"type": "all_in" if "all_in" in step["options"] else "call",
                "player": step["player"]} if step["kind"] == "bet" else {"type": step["kind"]}


def show_hands(running: Server, made: dict[str, Any], number: int) -> tuple[float, float]:
    """The dealer of ``made`` (its own Socket.IO client) tables every hand, four cards each
    from the deck turned ``number`` places (so no two shows ask the same question): the
    seconds to its acknowledgement, and to the state of that seq carrying the chances (the
    acknowledgement's own state before issue 32, where it waited for them)."""
    import socketio

    from dealer_assist.core.cards import FULL_DECK

    deck = [*FULL_DECK[number:], *FULL_DECK[:number]]
    hands = {name: deck[4 * i:4 * i + 4] for i, name in enumerate(EQUITY_PLAYERS)}
    heard: list[tuple[float, dict[str, Any]]] = []
    arrived = threading.Condition()

    def on_state(state: dict[str, Any]) -> None:
        with arrived:
            heard.append((time.perf_counter(), state))
            arrived.notify_all()

    dealer = socketio.Client(reconnection=False)
    dealer.on("state", on_state)
    dealer.connect(running.url, transports=["websocket"], wait_timeout=10)
    try:
        dealer.emit("join", {"table": made["id"], "token": made["dealer_token"]})
        with arrived:
            arrived.wait_for(lambda: bool(heard), 10)
        sent = time.perf_counter()
        ack = dealer.call("action", {"table": made["id"], "action": {
            "type": "show", "hands": hands}}, timeout=60)
        acked = time.perf_counter()
        if ack.get("status") != 200:
            raise RuntimeError(str(ack)[:300])
        if ack["state"].get("equity") is not None:
            return acked - sent, acked - sent
        with arrived:
            if not arrived.wait_for(lambda: any(
                    s["seq"] == ack["seq"] and s.get("equity") is not None
                    for _, s in heard), 60):
                raise RuntimeError("the chances never came")
            later = next(at for at, s in heard
                         if s["seq"] == ack["seq"] and s.get("equity") is not None)
        return acked - sent, later - sent
    finally:
        dealer.disconnect()


def equity_attack(folder: Path, shows: int = 3, quiet: float = 3.0) -> dict[str, Any]:
    """The dealer's own heavy work (issue 32): at one table ten players of Omaha all in
    pre-flop table their hands (600,000 rankings for the chances); at another table a tablet
    deals throughout, as the other tables of the night do. Its acknowledgements quiet, and
    those it sent while a show's chances were being worked out; the show's own."""
    with dealing(folder, quiet) as (running, _, tablet, began):
        quiet_ended = time.perf_counter()
        windows: list[tuple[float, float]] = []
        took: list[tuple[float, float]] = []
        for number in range(shows):
            made = omaha_all_in(running)
            time.sleep(0.5)
            start = time.perf_counter()
            took.append(show_hands(running, made, 7 * number))
            windows.append((start, start + took[-1][1]))
            time.sleep(0.5)
        after = time.perf_counter()
        time.sleep(quiet)
        tablet.stop()
        tracebacks = running.output().count("Traceback")
    quiet_acks = tablet.between(began, quiet_ended) + tablet.between(after, after + quiet)
    # an ack waits for a blocked loop if it was sent up to its end: the window's acks
    loaded = [t for start, end in windows for t in tablet.between(start - 0.05, end)]
    return {
        "shows": shows,
        "show_ack_ms": [round(ack * 1000, 1) for ack, _ in took],
        "figures_after_ms": [round(later * 1000, 1) for _, later in took],
        **beside_quiet(quiet_acks, loaded), "loaded_acks": len(loaded),
        "not_200": sum(status != 200 for _, _, status in tablet.samples),
        "tracebacks": tracebacks,
    }


# --------------------------------------------------------------------------- main
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    for name in ("freeze", "joins", "slowloris", "garbage", "reads", "flood", "equity"):
        bench = commands.add_parser(name)
        bench.add_argument("--runs", type=int, default=1)
        bench.add_argument("--code", help="measure git commit CODE's server instead "
                                          "(a before, side by side)")
        if name not in ("slowloris", "reads"):
            bench.add_argument("--quiet", type=float,
                               default={"joins": 5.0, "garbage": 2.0}.get(name, 3.0),
                               help="seconds of the tablet alone, before (and after) the guest")
        elif name == "slowloris":
            bench.add_argument("--seconds", type=float, default=16.0)
        if name == "freeze":
            bench.add_argument("--sockets", type=int, nargs="+", default=[1000, 2000])
            bench.add_argument("--hold", type=float, default=3.0)
            bench.add_argument("--after", type=float, default=5.0)
        if name == "joins":
            bench.add_argument("--clients", type=int, default=8)
            bench.add_argument("--seconds", type=float, default=15)
        if name == "garbage":
            bench.add_argument("--seconds", type=float, default=20)
        if name == "reads":
            bench.add_argument("--kinds", nargs="+", default=["deals", "phhs", "views"],
                               choices=["deals", "phhs", "views"])
            bench.add_argument("--connections", type=int, nargs="+", default=[8, 12, 8])
            bench.add_argument("--deals", type=int, default=3000)
            bench.add_argument("--seconds", type=float, default=12)
        if name == "equity":
            bench.add_argument("--shows", type=int, default=3)
        if name == "flood":
            bench.add_argument("--seconds", type=float, default=6)
            bench.add_argument("--event", choices=("leave", "action"), default="leave")
    guest_freeze_ = commands.add_parser("guest-freeze")
    guest_joins_ = commands.add_parser("guest-joins")
    guest_slow = commands.add_parser("guest-slowloris")
    guest_garbage_ = commands.add_parser("guest-garbage")
    guest_reads_ = commands.add_parser("guest-reads")
    guest_reads_.add_argument("--paths", nargs="+", required=True)
    guest_reads_.add_argument("--connections", type=int, default=8)
    guest_flood_ = commands.add_parser("guest-flood")
    for sub in (guest_freeze_, guest_joins_, guest_slow, guest_garbage_, guest_reads_,
                guest_flood_):
        sub.add_argument("--address", default="127.0.0.1")
        sub.add_argument("--port", type=int, required=True)
        sub.add_argument("--seconds", type=float, default=15)
    guest_freeze_.add_argument("--count", type=int, required=True)
    guest_freeze_.add_argument("--hold", type=float, default=3.0)
    guest_joins_.add_argument("--table", required=True)
    guest_joins_.add_argument("--clients", type=int, default=8)
    guest_slow.add_argument("--heads", type=int, default=40)
    guest_slow.add_argument("--bodies", type=int, default=4)
    guest_flood_.add_argument("--table", required=True)
    guest_flood_.add_argument("--event", choices=("leave", "action"), default="leave")
    args = parser.parse_args()
    if args.command == "guest-freeze":
        guest_freeze(args.address, args.port, args.count, args.hold)
    elif args.command == "guest-joins":
        guest_joins(args.address, args.port, args.table, args.clients, args.seconds)
    elif args.command == "guest-slowloris":
        guest_slowloris(args.address, args.port, args.heads, args.bodies, args.seconds)
    elif args.command == "guest-garbage":
        guest_garbage(args.address, args.port, args.seconds)
    elif args.command == "guest-reads":
        guest_reads(args.address, args.port, args.paths, args.connections, args.seconds)
    elif args.command == "guest-flood":
        guest_flood(args.address, args.port, args.table, args.event, args.seconds)
    else:
        sys.path.insert(0, str(HERE.parent / "tests"))
        from _common import machine

        print(machine(), flush=True)
        global CODE
        code_folder = tempfile.TemporaryDirectory() if args.code else None
        if code_folder is not None:
            CODE = unpack(args.code, Path(code_folder.name))
            print(f"the server runs commit {args.code}", flush=True)
        for run in range(1, args.runs + 1):
            with tempfile.TemporaryDirectory() as folder:
                if args.command == "reads":
                    for kind, count in zip(args.kinds, args.connections, strict=False):
                        print(f"run {run}: " + json.dumps(reads(
                            Path(folder), kind, count, args.deals, args.seconds)), flush=True)
                elif args.command == "freeze":
                    for count in args.sockets:
                        print(f"run {run}: " + json.dumps(freeze(
                            Path(folder), count, args.hold, args.after, args.quiet)), flush=True)
                elif args.command == "joins":
                    print(f"run {run}: " + json.dumps(joins(Path(folder), args.clients,
                                                              args.seconds, args.quiet)),
                          flush=True)
                elif args.command == "slowloris":
                    print(f"run {run}: " + json.dumps(slowloris(Path(folder), args.seconds)),
                          flush=True)
                elif args.command == "equity":
                    print(f"run {run}: " + json.dumps(equity_attack(Path(folder), args.shows,
                                                                    args.quiet)), flush=True)
                elif args.command == "flood":
                    print(f"run {run}: " + json.dumps(flood(Path(folder), args.event,
                                                            args.seconds, args.quiet)),
                          flush=True)
                else:
                    result = garbage(Path(folder), args.seconds, args.quiet)
                    log = result.pop("log")
                    print(f"run {run}: " + json.dumps(result), flush=True)
                    print(log, flush=True)


if __name__ == "__main__":
    os.environ.setdefault("DEALER_ASSIST_NO_MDNS", "1")
    main()
