"""Caps on what one guest can push (issue 14, findings 1, 4 and 5): open connections per
client address and in all with room kept for a dealer's tablet, send queues that drop to the
newest state, rate limits on joins and on new tables."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import requests
from conftest import Server, free_port, host_headers, new_table
from engineio import packet
from flask import Flask

from dealer_assist.cli.banner import lan_address
from dealer_assist.services.connection_caps import ConnectionCaps
from dealer_assist.services.rate_limit import RateLimit
from dealer_assist.services.send_queue import NewestStateQueue
from dealer_assist.web.app import create_app, get_socketio
from dealer_assist.web.guest_caps import connections
from dealer_assist.web.server import FULL_SENTENCE

GUEST = "192.168.1.77"


def state_packet(seq: int) -> packet.Packet:
    return packet.Packet(packet.MESSAGE, f'2["state",{{"seq":{seq}}}]')


def test_a_send_queue_drops_to_the_newest_state() -> None:
    """Finding 5: a phone that never reads got a full state queued per join, without end."""
    q = NewestStateQueue(limit=4)
    other = packet.Packet(packet.MESSAGE, '2["error",{"error":"x"}]')
    q.put(other)
    for seq in range(1, 1001):
        q.put(state_packet(seq))
    waiting = [q.get_nowait() for _ in range(q.qsize())]
    for _ in waiting:
        q.task_done()
    # what is left: the non-state packet and the newest states, never more than the limit + 1
    assert waiting[0] is other
    assert len(waiting) <= 5 and waiting[-1].data == '2["state",{"seq":1000}]'
    seqs = [int(p.data.split(":")[1].rstrip("}]")) for p in waiting[1:]]
    assert seqs == sorted(seqs)
    done = threading.Thread(target=q.join)  # the count of unfinished packets stayed right
    done.start()
    done.join(timeout=2)
    assert not done.is_alive()
    for _ in range(1000):  # other packets beyond 4 x the limit are dropped too
        q.put(other)
    assert q.qsize() == 16


def test_the_app_gives_every_client_a_bounded_queue(app: Flask) -> None:
    assert isinstance(get_socketio(app).server.eio.create_queue(), NewestStateQueue)


def test_connections_per_address_and_in_all_keep_room_for_a_dealer() -> None:
    """Finding 1: about 1,010 idle sockets from one guest locked every tablet out."""
    limits = ConnectionCaps(per_address=3, total=10, reserve=4)
    assert [limits.admit("10.0.0.66") for _ in range(5)] == [True] * 3 + [False] * 2
    assert [limits.admit(f"10.0.1.{i}") for i in range(5)] == [True] * 3 + [False] * 2
    assert limits.open_total == 6  # 10 - 4 kept for dealers
    limits.mark_dealer("10.0.0.2")
    assert [limits.admit("10.0.0.2") for _ in range(5)] == [True] * 4 + [False]
    limits.release("10.0.0.66")
    assert limits.admit("10.0.0.66") is False  # the room freed is the dealers' now
    assert limits.refused == 6
    for _ in range(3):
        limits.release("10.0.0.2")
    assert limits.admit("10.0.0.66") is False  # guests stop at 10 - 4 open in all
    limits.release("10.0.0.2")
    assert limits.admit("10.0.0.66") is True


def test_rate_limit_lets_a_burst_through_then_a_steady_rate() -> None:
    now = [0.0]
    limit = RateLimit(burst=3, rate=0.5, clock=lambda: now[0])
    assert [limit.take("a") for _ in range(4)] == [0, 0, 0, 2]
    assert limit.take("b") == 0  # per key
    now[0] += 2.0
    assert limit.take("a") == 0 and limit.take("a") == 2


def test_join_spam_is_refused_with_a_sentence_then_disconnected(db_path: Path) -> None:
    """Over its join rate a client hears one sentence and is disconnected, and its address
    may not connect again for a while (issue 25: refusals are cheap, a spammer is not
    answered 100,000 times)."""
    # the default burst, with a refill too slow to matter on a loaded machine
    app = create_app(db_path=db_path, testing=True, config={"JOIN_RATE": 0.001})
    d = new_table(app.test_client(), "texas_dozen", ["Ann", "Bob"])
    sio = get_socketio(app).test_client(app)
    joins = 0
    while sio.is_connected() and joins < 40:
        sio.emit("join", {"table": d.id})
        joins += 1
    assert joins == 31 and not sio.is_connected()
    events = [e for e in sio.queue if e["namespace"] == "/"]  # get_received needs a connection
    states = [e for e in events if e["name"] == "state"]
    errors = [e["args"][0] for e in events if e["name"] == "error"]
    assert len(states) == 30
    assert len(errors) == 1
    assert errors[0]["error"].startswith("Too many joins from this device: wait ")
    assert errors[0]["retry_after"] >= 100
    # the test client has no address: "unknown" is held off, a dealer or this machine never
    caps = connections(app)
    assert not caps.admit("unknown") and caps.admit("127.0.0.1")


def test_new_tables_are_rate_limited_per_address(app: Flask) -> None:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = GUEST
    body = {"variant": "texas_dozen", "players": ["Ann", "Bob"]}
    statuses = [client.post("/api/tables", json=body, headers=host_headers(app)).status_code
                for _ in range(21)]
    assert statuses == [201] * 20 + [429]
    answer = client.post("/api/tables", json=body, headers=host_headers(app))
    assert answer.get_json()["error"].startswith("Too many new tables from this device: wait ")
    assert int(answer.headers["Retry-After"]) >= 1


def test_a_real_server_refuses_a_guests_extra_sockets_not_the_dealers(tmp_path: Path) -> None:
    """The server on every address, a guest through this machine's LAN address holding
    sockets: beyond its cap each new one gets a 503 with the sentence and is closed, while the
    dealer's tablet (on loopback here) still acts."""
    address = lan_address()
    assert not address.startswith("127."), "the test needs a LAN address on this machine"
    port = free_port()
    db = tmp_path / "caps.db"
    server = Server(db, tmp_path / "caps.log", port=port, args=[
        "serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(db), "--no-mdns",
        "--max-connections-per-address", "5"])
    server.start()
    held: list[socket.socket] = []
    try:
        made = server.create_table("texas_dozen", ["Ann", "Bob"])
        for _ in range(5):
            held.append(socket.create_connection((address, port), timeout=5))
        time.sleep(0.3)
        extra = socket.create_connection((address, port), timeout=5)
        extra.settimeout(5)
        answer = b""
        while chunk := extra.recv(4096):
            answer += chunk
        extra.close()
        assert answer.startswith(b"HTTP/1.1 503 ")
        assert FULL_SENTENCE.encode() in answer
        status, body = server.api("POST", f"/api/tables/{made['id']}/actions",
                                  {"type": "start_deal"}, token=made["dealer_token"])
        assert status == 200, body
        for sock in held:
            sock.close()
        time.sleep(0.3)
        lan = requests.get(f"http://{address}:{port}/api/tables", timeout=5)
        assert lan.status_code == 200  # the guest's room is back once its sockets close
    finally:
        for sock in held:
            sock.close()
        server.stop()


def test_defaults_are_in_the_config(db_path: Path) -> None:
    app = create_app(db_path=db_path, testing=True, config={"JOIN_BURST": 2})
    values: dict[str, Any] = {key: app.config[key] for key in (
        "JOIN_BURST", "MAX_CONNECTIONS_PER_ADDRESS", "SEND_QUEUE_LIMIT")}
    assert values == {"JOIN_BURST": 2, "MAX_CONNECTIONS_PER_ADDRESS": 32,
                      "SEND_QUEUE_LIMIT": 64}
