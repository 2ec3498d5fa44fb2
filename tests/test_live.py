"""Live updates (API.md "Live updates"): Flask-SocketIO's test client in-process, then a real
server process with python-socketio clients over real websockets."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from conftest import Dealer, Server, free_port
from flask import Flask
from flask.testing import FlaskClient
from flask_socketio import SocketIO, SocketIOTestClient
from listeners import Listener

from dealer_assist.services import storage
from dealer_assist.web.app import get_db

pytestmark = pytest.mark.timeout(120)


def received(client: SocketIOTestClient, name: str) -> list[Any]:
    return [event["args"][0] for event in client.get_received() if event["name"] == name]


@pytest.fixture
def kings(make_table: Any) -> Dealer:
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 1},
          {"type": "buy", "player": "Cy", "count": 1}, {"type": "buy", "player": "Ann", "count": 1})
    return d


# --------------------------------------------------------------------------- in-process
def test_join_gets_the_state_at_once(app: Flask, socketio: SocketIO, kings: Dealer) -> None:
    phone = socketio.test_client(app)
    phone.emit("join", {"table": kings.id})
    (state,) = received(phone, "state")
    assert state == kings.state()
    tablet = socketio.test_client(app)
    tablet.emit("join", {"table": kings.id, "token": kings.token})
    (state,) = received(tablet, "state")
    assert state == kings.state(dealer=True)


def test_every_room_gets_its_state_after_an_action(
    app: Flask, socketio: SocketIO, kings: Dealer
) -> None:
    phone = socketio.test_client(app)
    tablet = socketio.test_client(app)
    phone.emit("join", {"table": kings.id})
    tablet.emit("join", {"table": kings.id, "token": kings.token})
    phone.get_received()
    tablet.get_received()
    answer = kings.act({"type": "deal_cards", "player": "Bob", "cards": ["Ah"]})
    (public,) = received(phone, "state")
    (private,) = received(tablet, "state")
    assert public["seq"] == private["seq"] == answer["seq"] == 5
    assert private == answer["state"] == kings.state(dealer=True)
    assert public == kings.state()
    # R23: Bob's ace is the dealer's to see, not the phones'
    assert next(p for p in private["players"] if p["name"] == "Bob")["hand"] == ["Ah"]
    assert '"Ah"' not in json.dumps(public) and kings.token not in json.dumps(public)


def test_the_commit_is_synced_after_the_phones_emit_and_before_the_dealers(
    app: Flask, socketio: SocketIO, kings: Dealer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The phones' frames go out while the request thread waits on the disk; the dealer's
    state and answer come after the fsync, so what the dealer sees accepted is on disk."""
    order: list[str] = []
    real_sync, real_emit = storage.sync_log, socketio.emit

    def sync_log(path: Any) -> None:
        order.append("fsync")
        real_sync(path)

    def emit(event: str, *args: Any, **kwargs: Any) -> Any:
        order.append(kwargs["to"])
        return real_emit(event, *args, **kwargs)

    # a client in each room: an empty room is sent nothing (rooms.has_clients)
    for join in ({"table": kings.id}, {"table": kings.id, "patches": True},
                 {"table": kings.id, "token": kings.token}):
        socketio.test_client(app).emit("join", join)
    monkeypatch.setattr(storage, "sync_log", sync_log)
    monkeypatch.setattr(socketio, "emit", emit)
    kings.act({"type": "deal_cards", "player": "Bob", "cards": ["Ah"]})
    # both phones' rooms (patches, the many, then whole states: docs/api.md) before the fsync
    phones_first = [f"table:{kings.id}:patches", f"table:{kings.id}:public", "fsync",
                    f"table:{kings.id}:dealer"]
    assert order == phones_first
    kings.act({"type": "check", "player": "Bob"}, status=400)  # refused: nothing to sync
    assert order == phones_first


def test_a_refused_action_sends_nothing(app: Flask, socketio: SocketIO, kings: Dealer) -> None:
    phone = socketio.test_client(app)
    phone.emit("join", {"table": kings.id})
    phone.get_received()
    kings.act({"type": "check", "player": "Bob"}, status=400)
    assert phone.get_received() == []


def test_wrong_token_gets_an_error_and_the_public_view(
    app: Flask, socketio: SocketIO, kings: Dealer
) -> None:
    kings.run({"type": "deal_cards", "player": "Bob", "cards": ["Ah"]})
    client = socketio.test_client(app)
    client.emit("join", {"table": kings.id, "token": "guess"})
    events = client.get_received()
    assert [e["name"] for e in events] == ["error", "state"]
    assert events[0]["args"][0] == {
        "error": "That is not this table's dealer token: you see the players' view."}
    assert events[1]["args"][0] == kings.state()
    kings.run({"type": "deal_cards", "player": "Cy", "cards": ["Kd"]})
    (state,) = received(client, "state")
    assert state == kings.state()  # the public room only
    assert "hand" not in state["players"][1]


@pytest.mark.parametrize(("data", "error"), [
    # no such table (never made, or deleted): the pages stop following it
    ({"table": "nope"}, {"error": "There is no table 'nope' on this server.", "no_table": True}),
    ("nope", {"error": 'Join a table with {"table": "<id>"}.'}),
    ({}, {"error": 'Join a table with {"table": "<id>"}.'}),
])
def test_join_refusals(app: Flask, socketio: SocketIO, data: Any, error: dict[str, Any]) -> None:
    client = socketio.test_client(app)
    client.emit("join", data)
    assert client.get_received() == [{"name": "error", "args": [error], "namespace": "/"}]


def test_r94_a_deleted_tables_screens_are_told_and_a_join_after_is_refused(
        app: Flask, client: FlaskClient, socketio: SocketIO, kings: Dealer) -> None:
    phone = socketio.test_client(app)
    phone.emit("join", {"table": kings.id, "patches": True})
    tablet = socketio.test_client(app)
    tablet.emit("join", {"table": kings.id, "token": kings.token})
    phone.get_received()
    tablet.get_received()
    assert client.delete(f"/api/tables/{kings.id}").status_code == 200  # loopback: the host
    told = {"table": kings.id,
            "error": "The host deleted this table: it is no longer on this server."}
    assert phone.get_received() == [{"name": "table_deleted", "args": [told], "namespace": "/"}]
    assert tablet.get_received() == [{"name": "table_deleted", "args": [told], "namespace": "/"}]
    tablet.emit("join", {"table": kings.id, "token": kings.token})  # back after the delete
    (refused,) = received(tablet, "error")
    assert refused == {"error": f"There is no table {kings.id!r} on this server.",
                       "no_table": True}


def test_socket_action_from_the_dealer(app: Flask, socketio: SocketIO, kings: Dealer) -> None:
    phone = socketio.test_client(app)
    phone.emit("join", {"table": kings.id})
    tablet = socketio.test_client(app)
    tablet.emit("join", {"table": kings.id, "token": kings.token})
    phone.get_received()
    tablet.get_received()
    # a phone is no dealer
    ack = phone.emit("action", {"table": kings.id, "action": {"type": "undo"}}, callback=True)
    assert ack["status"] == 401 and kings.state()["seq"] == 4
    ack = tablet.emit("action", {"table": kings.id, "action": {"type": "next"}}, callback=True)
    assert ack["status"] == 400 and ack["error"].startswith("Cannot next now")
    ack = tablet.emit("action", {"table": kings.id, "action": {
        "type": "deal_cards", "player": "Bob", "cards": ["Ah"], "expect_seq": 4}}, callback=True)
    assert ack["status"] == 200 and ack["seq"] == 5 and ack["state"] == kings.state(dealer=True)
    ack = tablet.emit("action", {"table": kings.id, "action": {
        "type": "undo", "expect_seq": 4}}, callback=True)
    assert ack["status"] == 409 and ack["seq"] == 5 and ack["state"]["seq"] == 5
    assert [s["seq"] for s in received(phone, "state")] == [5]
    assert [s["seq"] for s in received(tablet, "state")] == [5]


def test_client_can_leave(app: Flask, socketio: SocketIO, kings: Dealer) -> None:
    phone = socketio.test_client(app)
    phone.emit("join", {"table": kings.id})
    phone.emit("leave", {"table": kings.id})
    phone.get_received()
    kings.run({"type": "deal_cards", "player": "Bob", "cards": ["Ah"]})
    assert phone.get_received() == []


def test_a_second_http_client_does_not_disturb_rooms(client: FlaskClient, app: Flask,
                                                     socketio: SocketIO, kings: Dealer) -> None:
    """Two tables: each room hears only its own table."""
    other: Dealer = Dealer(client, client.post("/api/tables", json={
        "variant": "texas_dozen", "players": ["Ann", "Bob"]}).get_json())
    phone = socketio.test_client(app)
    phone.emit("join", {"table": kings.id})
    phone.get_received()
    other.run({"type": "start_deal"})
    assert phone.get_received() == []


# --------------------------------------------------------------------------- a real server
def post(url: str, made: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    response = requests.post(f"{url}/api/tables/{made['id']}/actions", json=body, timeout=10,
                             headers={"Authorization": f"Bearer {made['dealer_token']}"})
    assert response.status_code == 200, response.text
    return response.json()


def test_real_server_sends_every_client_the_new_state(
    start_server: Any, listeners: list[Listener]
) -> None:
    server: Server = start_server()
    made = server.create_table("kings_pot", ["Ann", "Bob", "Cy"])
    post(server.url, made, {"type": "start_deal"})
    phones = [Listener(server.url, made["id"]) for _ in range(2)]
    phones.append(Listener(server.url, made["id"], transports=["polling"]))
    tablet = Listener(server.url, made["id"], made["dealer_token"])
    listeners.extend([*phones, tablet])
    for listener in listeners:
        assert listener.next_state()["seq"] == 1  # at once on joining
    answers = [post(server.url, made, body) for body in (
        {"type": "buy", "player": "Bob", "count": 1}, {"type": "buy", "player": "Cy", "count": 1},
        {"type": "buy", "player": "Ann", "count": 1},
        {"type": "deal_cards", "player": "Bob", "cards": ["Ah"]})]
    public = requests.get(f"{server.url}/api/tables/{made['id']}", timeout=10).json()
    for phone in phones:
        seen = [phone.next_state() for _ in answers]
        assert [s["seq"] for s in seen] == [2, 3, 4, 5]  # every state, in order
        assert seen[-1] == public
        assert '"Ah"' not in json.dumps(seen) and made["dealer_token"] not in json.dumps(seen)
    seen = [tablet.next_state() for _ in answers]
    assert seen == [a["state"] for a in answers]
    assert tablet.errors.empty()


def test_real_server_behind_a_proxy_throttles_the_forwarded_address(
    start_server: Any, listeners: list[Listener], tmp_path: Path
) -> None:
    """``--proxy-hops 1``: HTTP and Socket.IO both see the address the proxy forwards, so a
    phone that guessed ten tokens waits, and the tablet behind the same proxy joins."""
    port = free_port()
    server: Server = start_server(port=port, args=[
        "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(tmp_path / "p.db"),
        "--proxy-hops", "1"])
    # the host makes the table through the proxy, from the server's own machine
    made = requests.post(f"{server.url}/api/tables", timeout=10, json={
        "variant": "kings_pot", "players": ["Ann", "Bob", "Cy"]},
        headers={"X-Forwarded-For": "127.0.0.1"}).json()
    url = f"{server.url}/api/tables/{made['id']}"
    guesses = [requests.get(url, timeout=10, headers={
        "Authorization": f"Bearer wrong-{i}", "X-Forwarded-For": "203.0.113.9"}).status_code
        for i in range(11)]
    assert guesses == [401] * 10 + [429]
    phone = Listener(server.url, made["id"], made["dealer_token"],
                     headers={"X-Forwarded-For": "203.0.113.9"})
    tablet = Listener(server.url, made["id"], made["dealer_token"],
                      headers={"X-Forwarded-For": "192.168.1.20"})
    listeners.extend([phone, tablet])
    error = phone.errors.get(timeout=10)
    assert error["retry_after"] > 0 and "Too many wrong dealer tokens" in error["error"]
    assert phone.next_state()["seq"] == tablet.next_state()["seq"] == 0
    for body in ({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 1},
                 {"type": "buy", "player": "Cy", "count": 1},
                 {"type": "buy", "player": "Ann", "count": 1},
                 {"type": "deal_cards", "player": "Bob", "cards": ["Ah"]}):
        answer = post(server.url, made, body)
    seen = [tablet.next_state() for _ in range(5)]
    assert seen[-1] == answer["state"] and tablet.errors.empty()  # the dealer's room
    assert next(p for p in seen[-1]["players"] if p["name"] == "Bob")["hand"] == ["Ah"]
    public = [phone.next_state() for _ in range(5)][-1]  # the phone: the public room only
    assert public["seq"] == 5 and '"Ah"' not in json.dumps(public)


def test_real_server_reconnect_gets_the_current_state_at_once(
    start_server: Any, listeners: list[Listener], tmp_path: Path
) -> None:
    """The server goes away (kill -9) and comes back on the same port and file: the phone
    reconnects by itself and at once has the state, with what happened while it was away."""
    server: Server = start_server()
    made = server.create_table("texas_dozen", ["Ann", "Bob"])
    post(server.url, made, {"type": "start_deal"})
    phone = Listener(server.url, made["id"])
    listeners.append(phone)
    assert phone.next_state()["seq"] == 1
    server.kill()
    server.start()
    last = post(server.url, made, {"type": "next"})
    deadline = time.monotonic() + 20
    state = phone.next_state(timeout=20)
    while state["seq"] < last["seq"] and time.monotonic() < deadline:
        state = phone.next_state(timeout=20)
    assert phone.connects >= 2
    assert state == requests.get(f"{server.url}/api/tables/{made['id']}", timeout=10).json()
    assert state["seq"] == 2


def test_real_server_wrong_token_error(start_server: Any, listeners: list[Listener]) -> None:
    server: Server = start_server()
    made = server.create_table("off_road_stud", ["Ann", "Bob"])
    listener = Listener(server.url, made["id"], "not-the-token")
    listeners.append(listener)
    assert "not this table's dealer token" in listener.errors.get(timeout=10)["error"]
    assert listener.next_state() == requests.get(
        f"{server.url}/api/tables/{made['id']}", timeout=10).json()


def test_an_older_state_is_never_sent_after_a_newer_one(
    app: Flask, socketio: SocketIO, kings: Dealer
) -> None:
    """Two actions finishing out of order: the late broadcast of the older state is dropped."""
    from dealer_assist.web.broadcast import broadcast

    with app.app_context():
        older = app.extensions["dealer_assist.store"].load(get_db(), kings.id)
    phone = socketio.test_client(app)
    phone.emit("join", {"table": kings.id})
    phone.get_received()
    kings.run({"type": "deal_cards", "player": "Bob", "cards": ["Ah"]})
    with app.app_context():
        broadcast(kings.id, older)
    assert [s["seq"] for s in received(phone, "state")] == [5]
