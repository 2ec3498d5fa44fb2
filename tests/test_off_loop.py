"""Blocking work never stalls the server's event loop (issue 25).

``dealer-assist serve`` runs every connection as a greenlet on one native thread (gevent):
one call that blocks without yielding would stall every phone. Here each blocking part is
made slow on purpose, in a real server, and a phone asks for the table's state every 20 ms
meanwhile: no ask waits :data:`PROMPT` while the part blocks for :data:`SLOW` seconds.

- the fsync after an action (SQLite), and the hand evaluator's warm-up, block their native
  thread (``tests/serve_with_slow_parts.py`` adds a real, blocking ``time.sleep``); beside the
  first, the same server with that work on the loop (``--on-loop``) stalls the phone: the
  check can fail;
- Redis and PostgreSQL are made slow from outside (Redis's ``CLIENT PAUSE``, a PostgreSQL
  lock on the table held by the test), and zeroconf's announcement takes its own time: their
  waits yield.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
import requests
from conftest import Server, free_port
from real_servers import RedisServer

from dealer_assist.services import storage

pytestmark = pytest.mark.timeout(180)

SLOW = 2.5  # how long each slow part blocks
PROMPT = 1.0  # no phone's ask waits this long meanwhile (a busy machine: a few hundred ms)
LAUNCHER = [sys.executable, str(Path(__file__).parent / "serve_with_slow_parts.py")]


class Phone:
    """Asks for the table's public state every 20 ms, in a thread, timing each answer."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.asks: list[tuple[float, float]] = []  # (began, took)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with requests.Session() as session:
            while not self._stop.is_set():
                began = time.perf_counter()
                assert session.get(self.url, timeout=30).status_code == 200
                self.asks.append((began, time.perf_counter() - began))
                self._stop.wait(0.02)

    def worst_between(self, start: float, end: float) -> float:
        """The longest wait of the asks that were waiting at some moment of [start, end]
        (call after :meth:`stop`: every ask is then timed)."""
        during = [took for began, took in self.asks if began <= end and began + took >= start]
        assert during, "the phone asked nothing meanwhile: the check saw nothing"
        return max(during)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(35)


def slow_action(server: Server, made: dict[str, Any]) -> tuple[float, float]:
    """The dealer's action, which meets the slow part: when it began and how long it took."""
    began = time.perf_counter()
    status, body = server.api("POST", f"/api/tables/{made['id']}/actions",
                              {"type": "start_deal"}, token=made["dealer_token"])
    assert status == 200, body
    return began, time.perf_counter() - began


def slow_server(servers: list[Server], tmp_path: Path, name: str, *flags: str,
                extra: tuple[str, ...] = (), db: str | None = None) -> Server:
    port = free_port()
    target = db or str(tmp_path / f"{name}.db")
    server = Server(target, tmp_path / f"{name}.log", port=port,
                    launcher=[*LAUNCHER, *flags, "--"],
                    args=["serve", "--host", "127.0.0.1", "--port", str(port), "--db", target,
                          "--no-mdns", *extra])
    servers.append(server)
    return server.start()


def test_a_slow_fsync_keeps_the_dealer_waiting_not_the_phones(
    tmp_path: Path, servers: list[Server]
) -> None:
    waits = {}
    for case, flags in (("off the loop", ()), ("on the loop", ("--on-loop",))):
        server = slow_server(servers, tmp_path, case.replace(" ", "-"),
                             "--slow-fsync", str(SLOW), *flags)
        made = server.create_table("texas_dozen", ["Ann", "Bob"])
        phone = Phone(f"{server.url}/api/tables/{made['id']}")
        try:
            time.sleep(0.3)
            began, took = slow_action(server, made)
        finally:
            phone.stop()
        waits[case] = phone.worst_between(began + 0.1, began + took - 0.1)
        assert took >= SLOW, (case, took)  # the dealer's answer waited for the fsync
    print(f"[figures] off_loop fsync: phone's worst wait {waits}")
    assert waits["off the loop"] < PROMPT, waits
    assert waits["on the loop"] > SLOW * 0.6, waits  # the control: this check can fail


def test_the_warm_up_runs_beside_the_phones(tmp_path: Path, servers: list[Server]) -> None:
    server = slow_server(servers, tmp_path, "warm", "--slow-warm-up", str(2 * SLOW))
    began = time.perf_counter()
    made = server.create_table("texas_dozen", ["Ann", "Bob"])
    phone = Phone(f"{server.url}/api/tables/{made['id']}")
    try:
        time.sleep(SLOW)
    finally:
        phone.stop()
    worst = phone.worst_between(began, began + SLOW)
    assert "warm-up done" not in server.output(), "the slow warm-up ended too soon to tell"
    assert worst < PROMPT, worst


def test_a_slow_redis_keeps_the_dealer_waiting_not_the_phones(
    tmp_path: Path, servers: list[Server]
) -> None:
    redis = RedisServer(tmp_path / "redis")
    try:
        server = slow_server(servers, tmp_path, "queued",
                             extra=("--message-queue", redis.url))
        redis.wait_for_subscribers(1)
        made = server.create_table("texas_dozen", ["Ann", "Bob"])
        phone = Phone(f"{server.url}/api/tables/{made['id']}")
        try:
            time.sleep(0.3)
            # Redis answers no client for SLOW seconds: the action's broadcast waits for it
            redis.client.execute_command("CLIENT", "PAUSE", int(SLOW * 1000), "ALL")
            began, took = slow_action(server, made)
        finally:
            phone.stop()
    finally:
        redis.stop()
    worst = phone.worst_between(began + 0.1, began + took - 0.1)
    assert took >= SLOW * 0.9, took
    assert worst < PROMPT, worst


def test_a_slow_postgresql_keeps_the_dealer_waiting_not_the_phones(
    tmp_path: Path, servers: list[Server], postgres: Any
) -> None:
    url = postgres.new_database()
    server = slow_server(servers, tmp_path, "pg", db=url)
    made = server.create_table("texas_dozen", ["Ann", "Bob"])
    phone = Phone(f"{server.url}/api/tables/{made['id']}")
    held = threading.Event()

    def hold_the_tables_lock() -> None:  # the lock every writer of this table takes first
        with psycopg.connect(url, autocommit=False) as conn:
            conn.execute("SELECT pg_advisory_xact_lock(%s)",
                         [storage.advisory_key(made["id"])])
            held.set()
            time.sleep(SLOW)
            conn.rollback()

    holder = threading.Thread(target=hold_the_tables_lock)
    try:
        time.sleep(0.3)
        holder.start()
        assert held.wait(10)
        began, took = slow_action(server, made)
    finally:
        holder.join(30)
        phone.stop()
    worst = phone.worst_between(began + 0.1, began + took - 0.1)
    assert took >= SLOW * 0.8, took
    assert worst < PROMPT, worst


ZEROCONF = """
from gevent import monkey; monkey.patch_all()
import json, time, gevent
from dealer_assist.web import mdns

late = []
stop = False

def tick():
    while not stop:
        began = time.perf_counter()
        gevent.sleep(0.005)
        late.append(time.perf_counter() - began - 0.005)

ticker = gevent.spawn(tick)
gevent.sleep(0.05)
began = time.perf_counter()
advert = mdns.advertise("127.0.0.1", 5432)
took = time.perf_counter() - began
stop = True
ticker.join()
advert.close()
print(json.dumps({"problem": advert.problem, "name": advert.name, "took": took,
                  "worst": max(late)}))
"""


def test_zeroconfs_announcement_yields_to_the_loop() -> None:
    """zeroconf under gevent, as ``serve`` runs it, on loopback only: its announcement
    (probes and waits of its own, about a second) leaves the loop free meanwhile."""
    run = subprocess.run([sys.executable, "-c", ZEROCONF], capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["problem"] is None and out["name"] == "dealer-assist.local", out
    assert out["took"] > 0.2, out  # it did wait, for its probes
    assert out["worst"] < PROMPT / 2, out
