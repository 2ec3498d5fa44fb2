"""Nobody but the dealer changes a table (issue 5).

- Every route of the Flask url_map (walked from ``app.url_map``, so a new route is covered the
  day it is added), with every method, without a token, with a junk token and with another
  table's real token: never a 5xx, a mutating method is a 401, 404 or 405 (or, on the two
  routes that make a *new* table, a refusal of the body), and the database file holds exactly
  what it held before, byte for byte in every row.
- Every Socket.IO event the server handles (walked from the server's handlers), with the same
  three kinds of token: nothing changes.
- Guessing tokens is slowed: after ``TOKEN_FAILURES`` wrong tokens from one address within
  ``TOKEN_FAILURE_WINDOW`` seconds, that address gets a 429 with a sentence and a Retry-After
  (over HTTP) or an error event (over Socket.IO), while a right token from another address
  works; every failure is logged with the table id and the address, never the token.
- Every HTML page, and the 404 page, sends a Content-Security-Policy without inline scripts,
  ``frame-ancestors 'none'`` and ``X-Content-Type-Options: nosniff``.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import Dealer, new_table
from figures import record
from flask import Flask
from flask.testing import FlaskClient

from dealer_assist.web.app import create_app, get_socketio

METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"]
MUTATING = {"POST", "PUT", "PATCH", "DELETE"}
NEW_TABLE_ROUTES = {"/api/tables", "/api/tables/import"}  # make a table; change none
PAIR_ROUTE = "/api/tables/<table_id>/pair"  # no token: a missing code is a 400 (R75)
BODY_REFUSED = NEW_TABLE_ROUTES | {PAIR_ROUTE}  # may answer 400: the body is not theirs
JUNK_TOKEN = "x" * 32
GUEST_ADDRESS = "192.168.1.77"  # a guest on the Wi-Fi, not the server's own machine


def dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the database file."""
    conn = sqlite3.connect(db)
    try:
        names = [n for (n,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {n: sorted(conn.execute(f'SELECT * FROM "{n}"').fetchall(), key=repr)
                for n in names}
    finally:
        conn.close()


def played(client: FlaskClient) -> tuple[Dealer, Dealer]:
    """A Texas Dozen table with one finished deal and one in play, and a second table whose
    token is real, but not the first table's."""
    d = new_table(client, "texas_dozen", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"}, {"type": "next"}, {"type": "raise", "player": "Ann",
                                                    "amount": 6},
          {"type": "fold", "player": "Bob"}, {"type": "fold", "player": "Cy"},
          {"type": "start_deal"}, {"type": "next"})
    other = new_table(client, "kings_pot", ["Ann", "Bob", "Cy"])
    return d, other


def path_of(rule: Any, table_id: str) -> str:
    values = {"table_id": table_id, "number": "1", "filename": "js/common.js", "name": "stacks"}
    path = str(rule.rule)
    for arg in rule.arguments:
        path = re.sub(rf"<(?:[^:<>]+:)?{arg}>", values.get(arg, "x"), path)
    return path


@pytest.fixture
def walk_app(tmp_path: Path) -> Flask:
    # the walk sends many wrong tokens on purpose: the throttle has its own tests below
    return create_app(db_path=tmp_path / "walk.db", testing=True,
                      config={"TOKEN_FAILURES": 10**9})


def test_every_route_refuses_to_change_a_table_without_the_token(
    walk_app: Flask, tmp_path: Path
) -> None:
    client = walk_app.test_client()
    d, other = played(client)
    client.environ_base["REMOTE_ADDR"] = GUEST_ADDRESS  # not the host: makes and deletes none
    before = dump(tmp_path / "walk.db")
    state = (d.state(), d.state(dealer=True))
    walked = requests_sent = 0
    for rule in walk_app.url_map.iter_rules():
        walked += 1
        path = path_of(rule, d.id)
        for method in METHODS:
            for token in (None, JUNK_TOKEN, other.token):
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                response = client.open(path, method=method, headers=headers,
                                       json={"type": "start_deal"})
                requests_sent += 1
                status = response.status_code
                assert status < 500, (method, path, token, response.data[:200])
                if method in MUTATING:
                    allowed = {401, 404, 405} | ({400} if rule.rule in BODY_REFUSED else set())
                    assert status in allowed, (method, path, token, status, response.data[:200])
                if status >= 400 and path.startswith("/api/") and method != "HEAD":
                    assert isinstance(response.get_json()["error"], str)
                assert dump(tmp_path / "walk.db") == before, (method, path, token)
    assert (d.state(), d.state(dealer=True)) == state
    assert walked >= 19
    record("access_routes", routes=walked, requests=requests_sent)


def test_every_socket_event_refuses_to_change_a_table_without_the_token(
    walk_app: Flask, tmp_path: Path
) -> None:
    client = walk_app.test_client()
    d, other = played(client)
    socketio = get_socketio(walk_app)
    events = sorted(socketio.server.handlers["/"])
    assert {"join", "action", "leave"} <= set(events)
    before = dump(tmp_path / "walk.db")
    bodies: list[Any] = [None, "junk", 7, [], {}, {"table": d.id}, {"table": d.id * 50}]
    for token in (None, JUNK_TOKEN, other.token, 12345, {"$ne": ""}):
        body = {"table": d.id, "action": {"type": "start_deal"},
                "actions": [{"type": "undo"}]} | ({"token": token} if token else {})
        bodies.append(body)
    sent = 0
    for token in (None, JUNK_TOKEN, other.token):
        sio = socketio.test_client(walk_app)
        try:
            # first join the table (as a phone, or with a wrong token), then try everything
            sio.emit("join", {"table": d.id} | ({"token": token} if token else {}))
            for event in events:
                for body in bodies:
                    ack = sio.emit(event, body, callback=True)
                    sent += 1
                    if isinstance(ack, dict) and "status" in ack:
                        assert ack["status"] in (400, 401), (event, body, ack)
                    assert dump(tmp_path / "walk.db") == before, (event, body)
            public = d.state()
            for message in sio.get_received():
                if message["name"] == "state":
                    assert message["args"][0] == public  # never the dealer's state
        finally:
            sio.disconnect()
    record("access_socket_events", events=len(events), emits=sent)


# --------------------------------------------------------------------------- the throttle
class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def throttled(tmp_path: Path) -> tuple[Flask, Clock]:
    app = create_app(db_path=tmp_path / "throttle.db", testing=True,
                     config={"TOKEN_FAILURES": 3, "TOKEN_FAILURE_WINDOW": 60})
    clock = Clock()
    app.extensions["dealer_assist.throttle"].clock = clock
    return app, clock


def guesser(app: Flask, address: str) -> FlaskClient:
    """A test client whose requests come from ``address``."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_wrong_tokens_are_throttled_per_address_and_logged(
    throttled: tuple[Flask, Clock], caplog: pytest.LogCaptureFixture
) -> None:
    app, clock = throttled
    d = new_table(app.test_client(), "texas_dozen", ["Ann", "Bob"])
    mallory, dealer = guesser(app, "10.0.0.66"), guesser(app, "10.0.0.2")
    url = f"/api/tables/{d.id}/actions"
    guesses = [f"guess-number-{i}-{'z' * 20}" for i in range(5)]
    with caplog.at_level(logging.WARNING, logger="dealer_assist.auth"):
        for i in range(3):
            clock.now += 5
            response = mallory.post(url, json={"type": "start_deal"},
                                    headers={"Authorization": f"Bearer {guesses[i]}"})
            assert response.status_code == 401
        # the fourth try is refused before its token is even looked at: the right one too
        for token in (guesses[3], d.token):
            response = mallory.post(url, json={"type": "start_deal"},
                                    headers={"Authorization": f"Bearer {token}"})
            assert response.status_code == 429
            assert response.get_json() == {"error": "Too many wrong dealer tokens from this "
                                           "device: wait 50 seconds, then open the dealer "
                                           "link again."}
            assert response.headers["Retry-After"] == "50"  # the first failure was at +5
        assert mallory.get(f"/api/tables/{d.id}", headers={
            "Authorization": f"Bearer {guesses[4]}"}).status_code == 429
        # reading without a token stays open; the dealer elsewhere is untouched
        assert mallory.get(f"/api/tables/{d.id}").status_code == 200
        response = dealer.post(url, json={"type": "start_deal"}, headers=d.headers)
        assert response.status_code == 200 and response.get_json()["seq"] == 1
        # once the oldest failure is a window old, one more try is allowed
        clock.now += 50
        response = mallory.post(url, json={"type": "next"}, headers=d.headers)
        assert response.status_code == 200 and response.get_json()["seq"] == 2
    failures = [r for r in caplog.records if r.name == "dealer_assist.auth"]
    assert len(failures) == 3
    for entry in failures:
        message = entry.getMessage()
        assert d.id in message and "10.0.0.66" in message
        assert not any(g in message for g in guesses) and d.token not in message
    assert d.state()["seq"] == 2


def test_socket_joins_are_throttled_too(throttled: tuple[Flask, Clock]) -> None:
    app, clock = throttled
    d = new_table(app.test_client(), "texas_dozen", ["Ann", "Bob"])
    socketio = get_socketio(app)
    sio = socketio.test_client(app)
    try:
        for i in range(3):
            sio.emit("join", {"table": d.id, "token": f"nope-{i}"})
        assert [e["args"][0] for e in sio.get_received() if e["name"] == "error"] == [
            {"error": "That is not this table's dealer token: you see the players' view."}] * 3
        # another address (this HTTP client) is not slowed by them
        assert app.test_client().get(f"/api/tables/{d.id}", headers=d.headers).status_code == 200
        sio.emit("join", {"table": d.id, "token": d.token})  # right, but too late
        events = sio.get_received()
        assert [e["name"] for e in events] == ["error", "state"]
        assert events[0]["args"][0] == {
            "error": "Too many wrong dealer tokens from this device: wait 60 seconds, then "
                     "open the dealer link again.", "retry_after": 60}
        assert events[1]["args"][0] == d.state()  # the public view only
        ack = sio.emit("action", {"table": d.id, "action": {"type": "start_deal"}},
                       callback=True)
        assert ack["status"] == 401
        clock.now += 61
        sio.emit("join", {"table": d.id, "token": d.token})
        (event,) = sio.get_received()
        assert event["name"] == "state" and event["args"][0] == d.state(dealer=True)
    finally:
        sio.disconnect()


def test_default_throttle_is_ten_a_minute(client: FlaskClient, make_table: Any) -> None:
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    url = f"/api/tables/{d.id}"
    statuses = [client.get(url, headers={"Authorization": f"Bearer wrong-{i}"}).status_code
                for i in range(11)]
    assert statuses == [401] * 10 + [429]
    response = client.get(url, headers=d.headers)
    assert response.status_code == 429 and 55 <= int(response.headers["Retry-After"]) <= 60
    other = guesser(client.application, "192.168.1.7")
    assert other.get(url, headers=d.headers).status_code == 200


def test_behind_a_proxy_the_forwarded_address_is_throttled_not_the_proxys(
    db_path: Path
) -> None:
    """docs/deployment.md puts nginx in front: every request then comes from 127.0.0.1. With
    PROXY_HOPS (``--proxy-hops 1``) the throttle counts the address nginx forwards, so ten
    wrong tokens from one phone do not lock the dealer's tablet out."""
    app = create_app(db_path=db_path, testing=True, config={"PROXY_HOPS": 1})
    client = app.test_client()
    client.environ_base["HTTP_X_FORWARDED_FOR"] = "127.0.0.1"  # the host, through the proxy
    d = new_table(client, "kings_pot", ["Ann", "Bob", "Cy"])
    del client.environ_base["HTTP_X_FORWARDED_FOR"]
    url = f"/api/tables/{d.id}"

    def get(address: str, token: str) -> int:
        return client.get(url, headers={"Authorization": f"Bearer {token}",
                                        "X-Forwarded-For": address}).status_code

    assert [get("203.0.113.9", f"wrong-{i}") for i in range(11)] == [401] * 10 + [429]
    assert get("203.0.113.9", d.token) == 429  # that phone waits
    assert get("192.168.1.20", d.token) == 200  # the tablet does not


def test_without_proxy_hops_a_forwarded_address_is_not_believed(
    client: FlaskClient, make_table: Any
) -> None:
    """A client cannot dodge the throttle by writing its own X-Forwarded-For."""
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    url = f"/api/tables/{d.id}"
    statuses = [client.get(url, headers={"Authorization": f"Bearer wrong-{i}",
                                         "X-Forwarded-For": f"10.0.0.{i}"}).status_code
                for i in range(11)]
    assert statuses == [401] * 10 + [429]


def test_proxy_hops_must_not_be_negative(db_path: Path) -> None:
    with pytest.raises(ValueError, match="PROXY_HOPS must be 0 or more, not -1"):
        create_app(db_path=db_path, testing=True, config={"PROXY_HOPS": -1})


# --------------------------------------------------------------------------- headers
CSP_PARTS = ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'"]


def test_every_html_route_sends_the_security_headers(walk_app: Flask) -> None:
    client = walk_app.test_client()
    d, _ = played(client)
    pages = 0
    paths = [path_of(rule, d.id) for rule in walk_app.url_map.iter_rules()
             if "GET" in (rule.methods or set())]
    for path in [*paths, "/no/such/page", f"/t/{'n' * 8}"]:
        for headers in ({}, d.headers):
            response = client.get(path, headers=headers)
            assert response.headers["X-Content-Type-Options"] == "nosniff", path
            if response.mimetype != "text/html":
                continue
            pages += 1
            csp = response.headers["Content-Security-Policy"]
            assert all(part in csp for part in CSP_PARTS), (path, csp)
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, (path, csp)
            html = response.get_data(as_text=True)
            # nothing inline for the policy to block: every script has a src
            # a script without a src may only be JSON data (the games' metadata), never run
            assert not re.search(
                r'<script(?![^>]*\bsrc=)(?![^>]*type="application/json")[^>]*>', html), path
            assert not re.search(r"\son[a-z]+\s*=", html), path
    assert pages >= 8
    record("html_headers", html_responses=pages)
