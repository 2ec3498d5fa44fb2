"""Several machines (issue 16): nginx routes every request by table, so all of one table's
tablets and phones reach the process that owns it; when that process dies, nginx sends them
to another, and nothing acknowledged is lost.

Everything is real and on loopback: Debian's nginx running docs/nginx-several.conf (the very
file docs/deployment.md gives, its two upstream addresses and its port written in), a real
``redis-server``, and two ``dealer-assist serve --message-queue`` processes in folders of
their own that share nothing but a PostgreSQL database and Redis. The phones are python-socketio
clients over websocket that connect with ``?table=ID``, as the pages do (static/js/common.js).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
from conftest import Server, free_port
from listeners import Listener
from real_servers import NginxServer, RedisServer

from dealer_assist.core.autoplay import legal_actions
from dealer_assist.games.registry import new_table

pytestmark = pytest.mark.timeout(300)

SITE = Path(__file__).resolve().parent.parent / "docs" / "nginx-several.conf"
UPSTREAM_HEADER = "X-Dealer-Assist-Upstream"
PLAYERS = ["Ann", "Bob", "Cy"]
TABLES_PER_PROCESS = 2
PHONES_PER_TABLE = 3
ACTIONS = 24  # racing pairs per table, after its start_deal
KILL_AFTER = 8  # the dying process's tables have this many acknowledged pairs when it dies

@pytest.fixture
def database(postgres: Any) -> str:
    """What the two processes share besides Redis: a database on the session's real
    PostgreSQL server (no disk is shared; the test checks the records are PostgreSQL's)."""
    return str(postgres.new_database())


def test_the_deployment_guide_shows_the_configuration_this_file_tests() -> None:
    guide = (SITE.parent / "deployment.md").read_text()
    assert "```nginx\n" + SITE.read_text() + "```\n" in guide


def site_for(ports: list[int], listen: int) -> str:
    """docs/nginx-several.conf with the test's loopback ports in place of the doc's
    machines: each placeholder must be there exactly once, so the doc cannot drift."""
    text = SITE.read_text()
    swaps = {f"server dealer-{i}:5001 ": f"server 127.0.0.1:{port} "
             for i, port in enumerate(ports, start=1)}
    swaps["listen 80;"] = f"listen 127.0.0.1:{listen};"
    for placeholder, value in swaps.items():
        assert text.count(placeholder) == 1, placeholder
        text = text.replace(placeholder, value)
    assert "dealer-" not in text.split("upstream dealer_assist", 1)[1].split("}", 1)[0]
    return text


@pytest.fixture
def cluster(tmp_path: Path, database: str) -> Iterator[tuple[NginxServer, list[Server]]]:
    redis_server = RedisServer(tmp_path / "redis")
    processes = []
    for name in ("one", "two"):
        folder = tmp_path / name
        folder.mkdir()
        port = free_port()
        processes.append(Server(
            tmp_path / "shared.db", folder / "server.log", port=port, cwd=folder,
            args=["serve", "--host", "127.0.0.1", "--port", str(port), "--db", database,
                  "--message-queue", redis_server.url, "--proxy-hops", "1", "--no-mdns"]))
    nginx: NginxServer | None = None
    try:
        for process in processes:
            process.start()
        redis_server.wait_for_subscribers(2)
        nginx = NginxServer(tmp_path / "nginx",
                            site_for([p.port for p in processes], free_port()))
        yield nginx, processes
    finally:
        if nginx is not None:
            nginx.stop()
        for process in processes:
            process.stop()
        redis_server.stop()


def answered_by(response: requests.Response) -> str:
    """The process that answered at last (after a fail-over nginx lists each one it tried)."""
    return response.headers[UPSTREAM_HEADER].split(",")[-1].strip()


def script(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` legal King's Pot actions after the first start_deal: random legal play on a
    local table (nothing in King's Pot's records is drawn by the server)."""
    rng = random.Random(seed)
    table = new_table("kings_pot", PLAYERS, {})
    table = table.apply(table.prepare({"type": "start_deal"}))
    bodies: list[dict[str, Any]] = []
    while len(bodies) < count:
        options = [o for o in legal_actions(table, rng) if o["type"] != "undo"]
        body = rng.choice(options)
        table = table.apply(table.prepare(body))
        bodies.append(body)
    return bodies


@dataclass
class RacingTablets:
    """Two tablets of one table, each with its own kept-alive connection through nginx,
    posting the same next action with the same ``expect_seq`` at the same moment."""

    base: str
    made: dict[str, Any]
    bodies: list[dict[str, Any]]
    acknowledged: list[int] = field(default_factory=list)  # the seq of every 200
    clean_pairs: list[list[int]] = field(default_factory=list)  # both answered: the codes
    broken_pairs: list[list[int]] = field(default_factory=list)  # one or both got no answer
    upstreams: list[str] = field(default_factory=list)  # who answered each 200 or 409

    def __post_init__(self) -> None:
        self.sessions = [requests.Session(), requests.Session()]
        for session in self.sessions:
            session.headers["Authorization"] = f"Bearer {self.made['dealer_token']}"
        self.url = f"{self.base}/api/tables/{self.made['id']}"

    def post(self, session: requests.Session, body: dict[str, Any]) -> requests.Response | None:
        try:
            return session.post(self.url + "/actions", json=body, timeout=10)
        except requests.RequestException:
            return None  # the process died with the request: no answer, no acknowledgement

    def seq_now(self) -> int:
        """The table's seq, read again after a pair that got no answer (bounded)."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                response = self.sessions[0].get(self.url, timeout=5)
                if response.status_code == 200:
                    return int(response.json()["seq"])
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise AssertionError("the table could not be read through nginx for 20 s")

    def play(self, pool: ThreadPoolExecutor, gap: float) -> None:
        seq = 1  # after the start_deal
        while seq - 1 < len(self.bodies):
            sent = self.bodies[seq - 1] | {"expect_seq": seq}
            answers = list(pool.map(self.post, self.sessions, [sent, sent]))
            codes = [a.status_code if a is not None else 0 for a in answers]
            for answer in answers:
                if answer is not None and answer.status_code in (200, 409):
                    self.upstreams.append(answered_by(answer))
                if answer is not None and answer.status_code == 200:
                    assert answer.json()["seq"] == seq + 1
                    self.acknowledged.append(seq + 1)
            if all(code in (200, 409) for code in codes):
                self.clean_pairs.append(codes)
                seq += 1
            else:
                assert all(code in (0, 200, 409, 502) for code in codes), (
                    [a.text for a in answers if a is not None])
                self.broken_pairs.append(codes)
                seq = self.seq_now()
            time.sleep(gap)

    def records(self) -> list[int]:
        """The seq of every action the table keeps, deal by deal."""
        deals = requests.get(self.url + "/deals", timeout=10).json()
        return [action["seq"] for deal in deals for action in requests.get(
            f"{self.url}/deals/{deal['number']}", timeout=10).json()["actions"]]


@pytest.mark.slow  # about 45 s
def test_one_table_one_process_and_a_killed_process_loses_nothing_acknowledged(
    cluster: tuple[NginxServer, list[Server]], listeners: list[Listener], database: str,
    request: pytest.FixtureRequest
) -> None:
    nginx, processes = cluster
    addresses = [f"127.0.0.1:{p.port}" for p in processes]
    # tables through nginx (POST /api/tables may go anywhere), until each process owns two
    owned: dict[str, list[dict[str, Any]]] = {a: [] for a in addresses}
    for _ in range(60):
        if all(len(tables) >= TABLES_PER_PROCESS for tables in owned.values()):
            break
        created = requests.post(nginx.url + "/api/tables", timeout=10, json={
            "name": "club", "variant": "kings_pot", "players": PLAYERS})
        assert created.status_code == 201, created.text
        made = created.json()
        owner = answered_by(requests.get(f"{nginx.url}/api/tables/{made['id']}", timeout=10))
        owned[owner].append(made)
    assert all(len(tables) >= TABLES_PER_PROCESS for tables in owned.values()), owned
    dying, surviving = addresses
    tables = {a: owned[a][:TABLES_PER_PROCESS] for a in addresses}

    # every path that names a table reaches its owner: the API, the pages, the socket
    for owner, mine in tables.items():
        for made in mine:
            table_id = made["id"]
            for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/deals",
                         f"/t/{table_id}", f"/t/{table_id}/dealer", f"/t/{table_id}/history",
                         f"/socket.io/?EIO=4&transport=polling&table={table_id}"):
                response = requests.get(nginx.url + path, timeout=10)
                assert response.status_code == 200, (path, response.text)
                assert response.headers[UPSTREAM_HEADER] == owner, path
            started = requests.post(f"{nginx.url}/api/tables/{table_id}/actions", timeout=10,
                                    json={"type": "start_deal"},
                                    headers={"Authorization": f"Bearer {made['dealer_token']}"})
            assert started.status_code == 200 and started.json()["seq"] == 1
            assert started.headers[UPSTREAM_HEADER] == owner

    # the phones, through nginx with ?table=ID as the pages connect
    phones: dict[str, list[Listener]] = {}
    for mine in tables.values():
        for made in mine:
            phones[made["id"]] = [Listener(f"{nginx.url}/?table={made['id']}", made["id"])
                                  for _ in range(PHONES_PER_TABLE)]
            listeners.extend(phones[made["id"]])
    for table_phones in phones.values():
        for phone in table_phones:
            assert phone.next_state()["seq"] == 1

    # two tablets race on every table; the process that owns two of them dies mid-stream
    bodies = script(ACTIONS, seed=16)
    tablets = {made["id"]: RacingTablets(nginx.url, made, bodies)
               for mine in tables.values() for made in mine}
    pools = [ThreadPoolExecutor(max_workers=2) for _ in tablets]
    players = [threading.Thread(target=t.play, args=(pool, 0.03), daemon=True)
               for t, pool in zip(tablets.values(), pools, strict=True)]
    for thread in players:
        thread.start()
    deadline = time.monotonic() + 60
    while min(len(tablets[m["id"]].clean_pairs) for m in tables[dying]) < KILL_AFTER:
        assert time.monotonic() < deadline, "the tablets did not get going"
        time.sleep(0.01)
    processes[0].kill()  # SIGKILL, mid-stream
    for thread in players:
        thread.join(120)
        assert not thread.is_alive(), "a table's tablets did not finish in 120 s"
    for pool in pools:
        pool.shutdown()

    for owner, mine in tables.items():
        for made in mine:
            table_id = made["id"]
            tablet = tablets[table_id]
            # exactly one of each pair wins, the other is told its seq is stale
            assert all(sorted(codes) == [200, 409] for codes in tablet.clean_pairs), (
                tablet.clean_pairs)
            assert all(codes.count(200) <= 1 for codes in tablet.broken_pairs)
            if owner == surviving:
                assert tablet.broken_pairs == []
                assert set(tablet.upstreams) == {surviving}
            else:  # at most the pair in flight when the process died got no answer
                assert len(tablet.broken_pairs) <= 1, tablet.broken_pairs
                assert set(tablet.upstreams) == {dying, surviving}
            # nothing acknowledged is lost: the records hold every seq, once, in order
            final = 1 + ACTIONS
            state = requests.get(f"{nginx.url}/api/tables/{table_id}", timeout=10).json()
            assert state["seq"] == final
            assert tablet.records() == list(range(1, final + 1))
            assert set(tablet.acknowledged) <= set(range(2, final + 1))
            assert len(tablet.acknowledged) == len(set(tablet.acknowledged)) >= ACTIONS - 1
            for phone in phones[table_id]:
                got = phone.states_until(final, timeout=20)
                assert got[-1] == state
                assert phone.quiet(0.2) == []
                check_phone(phone, tablet.acknowledged, final,
                            reconnected=owner == dying)
    # the records above are PostgreSQL's own
    held = request.getfixturevalue("postgres").psql(
        "SELECT count(DISTINCT table_id), count(*) FROM actions",
        database=database.rsplit("/", 1)[1])
    assert held == f"{len(tablets)}|{len(tablets) * (1 + ACTIONS)}", held
    # and nginx's own log: every socket of a table went to its owner (the dying one's
    # reconnected ones to the survivor), keyed by the ?table= of the connection
    for phone in listeners:
        phone.close()
    time.sleep(0.5)  # a websocket is logged when it closes
    sockets: dict[str, set[str]] = {}
    for upstream, key, request, status in nginx.routed():
        if request.startswith("GET /socket.io/") and "transport=websocket" in request:
            assert f"table={key}" in request and status == 101, (upstream, key, request)
            sockets.setdefault(key, set()).add(upstream.split(",")[-1].strip())
    for made in tables[surviving]:
        assert sockets[made["id"]] == {surviving}
    for made in tables[dying]:
        assert sockets[made["id"]] == {dying, surviving}


def check_phone(phone: Listener, acknowledged: list[int], final: int, *,
                reconnected: bool) -> None:
    """Within one connection seqs go up one at a time, none skipped nor repeated; only a
    reconnect's join may jump, with the full state it reads, over seqs the phone never got,
    and it never goes back. It may send again the seq the phone had: the process died after
    its state of seq 9 went out, and the phone was back (0.2 s) before the tablets, failing
    over, had the survivor store seq 10 (seen once under load: seq 9 twice)."""
    seqs = [seq for _, seq in phone.arrivals]
    assert seqs == sorted(seqs), seqs
    assert seqs[-1] == final
    assert phone.connects == (2 if reconnected else 1), phone.arrivals
    for (conn_a, seq_a), (conn_b, seq_b) in zip(phone.arrivals, phone.arrivals[1:],
                                                  strict=False):
        if conn_a == conn_b:
            assert seq_b == seq_a + 1, phone.arrivals
        else:  # the join's whole state: the table's seq now
            assert conn_b == conn_a + 1 and seq_b >= seq_a, phone.arrivals
    if not reconnected:
        assert seqs == list(range(1, final + 1))
    missed = set(acknowledged) - set(seqs)
    jumps = [(a, b) for (ca, a), (cb, b) in zip(phone.arrivals, phone.arrivals[1:],
                                                 strict=False) if ca != cb]
    assert all(any(a < seq < b for a, b in jumps) for seq in missed), (missed, phone.arrivals)
