"""More than one dealer device (R75): pairing codes, tokens of their own, signing the others
out, over HTTP and Socket.IO, on real SQLite files."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from conftest import Dealer, Server, command, free_port, new_table
from flask import Flask
from flask.testing import FlaskClient
from listeners import Listener

from dealer_assist.games.registry import new_setup
from dealer_assist.services import auth, storage
from dealer_assist.web.app import create_app, get_socketio

pytestmark = pytest.mark.both_engines

SIGNED_OUT = auth.SIGNED_OUT_SENTENCE


def ask_code(d: Dealer, headers: dict[str, str] | None = None) -> str:
    response = d.client.post(f"/api/tables/{d.id}/pairing", headers=headers or d.headers)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert set(body) == {"code", "expires_in"} and body["expires_in"] == 300
    assert re.fullmatch(r"[0-9]{6}", body["code"])
    assert response.headers["Cache-Control"] == "no-store"
    return str(body["code"])


def pair(client: FlaskClient, table_id: str, code: Any, status: int = 201) -> dict[str, Any]:
    response = client.post(f"/api/tables/{table_id}/pair", json={"code": code})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def second_device(d: Dealer) -> Dealer:
    """Another device of the same dealer, paired by code: a Dealer with its own token."""
    answer = pair(d.client, d.id, ask_code(d))
    return Dealer(d.client, {"id": d.id, **answer})


def test_r75_a_pairing_code_gives_another_device_a_token_of_its_own(
    make_table: Any
) -> None:
    first = make_table("texas_dozen", ["Ann", "Bob", "Cy"])
    code = ask_code(first)
    answer = pair(first.client, first.id, code)
    assert set(answer) >= {"dealer_token", "dealer_url"}
    token = answer["dealer_token"]
    assert token != first.token and len(token) >= 32
    assert answer["dealer_url"].endswith(f"/t/{first.id}/dealer#token={token}")
    second = Dealer(first.client, {"id": first.id, **answer})
    # both devices deal the same table, each with its own token
    assert second.act({"type": "start_deal", "expect_seq": 0})["seq"] == 1
    assert first.act({"type": "next", "expect_seq": 1})["seq"] == 2
    assert second.state(dealer=True) == first.state(dealer=True)
    # one use: the same code again is refused with a sentence, and makes no token
    refused = pair(first.client, first.id, code, status=400)
    assert refused == {"error": "That is not this table's pairing code (or it was used "
                                "already): check the six digits, or ask for a new code."}


def test_r75_only_a_dealer_device_asks_for_a_code(make_table: Any, client: FlaskClient) -> None:
    d = make_table("texas_dozen", ["Ann", "Bob"])
    other = make_table("texas_dozen", ["Ann", "Bob"])
    for headers in ({}, {"Authorization": "Bearer nope-nope-nope"}, other.headers):
        for route in ("pairing", "sign_out_others"):
            response = client.post(f"/api/tables/{d.id}/{route}", headers=headers)
            assert response.status_code == 401
            assert response.get_json()["error"].endswith(".")
    assert client.post("/api/tables/nope/pairing", headers=d.headers).status_code == 404
    assert client.post("/api/tables/nope/pair", json={"code": "123456"}).status_code == 404


def test_r75_a_code_is_six_digits_and_bad_ones_get_a_sentence(make_table: Any) -> None:
    d = make_table("texas_dozen", ["Ann", "Bob"])
    ask_code(d)
    for code, sentence in ((None, 'Send the six-digit code as {"code": "123456"}.'),
                           (123456, 'Send the six-digit code as {"code": "123456"}.'),
                           ("12345", "A pairing code is six digits: look at the dealing "
                                     "device again and type them."),
                           ("12345x", "A pairing code is six digits"),
                           ("１２３４５６", "A pairing code is six digits")):
        assert sentence in pair(d.client, d.id, code, status=400)["error"]
    assert storage.connect(d.client.application.config["DATABASE"]).execute(
        "SELECT COUNT(*) FROM dealer_tokens").fetchone()[0] == 1  # none made by a bad code
    # spaces between the digits are forgiven, as people type them from a screen
    code = ask_code(d)
    assert "dealer_token" in pair(d.client, d.id, f" {code[:3]} {code[3:]} ")


def test_r75_a_code_expires_after_five_minutes_and_a_new_one_replaces_it(
    make_table: Any, database: str
) -> None:
    d = make_table("texas_dozen", ["Ann", "Bob"])
    db = storage.connect(database)
    stale = auth.new_pairing_code(db, d.id, now=time.time() - 301)
    assert pair(d.client, d.id, stale.code, status=400) == {
        "error": "That pairing code has expired (a code lasts five minutes): ask for a new "
                 "one on the dealing device."}
    fresh = auth.new_pairing_code(db, d.id, now=time.time() - 290)  # 10 s left
    newer = ask_code(d)  # replaces it: one open code per table
    if newer != fresh.code:
        pair(d.client, d.id, fresh.code, status=400)
    assert "dealer_token" in pair(d.client, d.id, newer)
    db.close()


def test_r75_wrong_codes_are_throttled_like_wrong_tokens(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(db_path=database, testing=True,
                     config={"TOKEN_FAILURES": 3, "TOKEN_FAILURE_WINDOW": 60})
    d = new_table(app.test_client(), "texas_dozen", ["Ann", "Bob"])
    code = ask_code(d)
    wrong = [f"{(int(code) + k) % 10**6:06d}" for k in (1, 2, 3)]
    mallory = app.test_client()
    mallory.environ_base["REMOTE_ADDR"] = "10.0.0.66"
    with caplog.at_level(logging.WARNING, logger="dealer_assist.auth"):
        for guess in wrong:
            assert mallory.post(f"/api/tables/{d.id}/pair",
                                json={"code": guess}).status_code == 400
        # the fourth try is refused before the code is looked at, the right one too
        response = mallory.post(f"/api/tables/{d.id}/pair", json={"code": code})
        assert response.status_code == 429
        assert response.get_json() == {"error": "Too many wrong pairing codes from this "
                                                "device: wait 60 seconds, then type the code "
                                                "again."}
        assert response.headers["Retry-After"] == "60"
        # wrong codes and wrong tokens share one count per address
        assert mallory.get(f"/api/tables/{d.id}", headers=d.headers).status_code == 429
    # another address is not slowed, and the code still works there (once)
    assert "dealer_token" in pair(app.test_client(), d.id, code)
    logged = [r.getMessage() for r in caplog.records if r.name == "dealer_assist.auth"]
    assert len(logged) == 3
    for line in logged:
        assert line.startswith("Wrong pairing code for table ") and "10.0.0.66" in line
        assert d.id in line and not any(c in line for c in [code, *wrong])


def test_r75_a_code_stops_working_after_twenty_wrong_tries_from_anywhere(
    make_table: Any
) -> None:
    """Many addresses (each under the throttle's limit) share twenty tries at one code."""
    d = make_table("texas_dozen", ["Ann", "Bob"])
    app = d.client.application

    def guess_from_many(code: str, tries: int) -> None:
        for n in range(tries):
            guesser = app.test_client()
            guesser.environ_base["REMOTE_ADDR"] = f"10.1.0.{n + 1}"
            wrong = f"{(int(code) + n + 1) % 10**6:06d}"
            assert guesser.post(f"/api/tables/{d.id}/pair",
                                json={"code": wrong}).status_code == 400

    code = ask_code(d)
    guess_from_many(code, auth.CODE_TRIES - 1)
    assert "dealer_token" in pair(d.client, d.id, code)  # nineteen wrong: it still works
    code = ask_code(d)
    guess_from_many(code, auth.CODE_TRIES)
    assert pair(d.client, d.id, code, status=400) == {"error": auth.WRONG_CODE_SENTENCE}
    assert "dealer_token" in pair(d.client, d.id, ask_code(d))  # a new code works


def test_r75_signing_the_others_out_makes_their_tokens_invalid_at_once(
    make_table: Any
) -> None:
    first = make_table("texas_dozen", ["Ann", "Bob", "Cy"])
    second, third = second_device(first), second_device(first)
    first.run({"type": "start_deal"})
    open_code = ask_code(first)
    response = second.client.post(f"/api/tables/{second.id}/sign_out_others",
                                  headers=second.headers)
    assert response.status_code == 200 and response.get_json() == {"signed_out": 2}
    for gone in (first, third):
        refused = gone.act({"type": "next"}, status=401)
        assert refused == {"error": SIGNED_OUT}
        assert gone.client.get(f"/api/tables/{gone.id}",
                               headers=gone.headers).status_code == 401
        assert gone.client.post(f"/api/tables/{gone.id}/pairing",
                                headers=gone.headers).status_code == 401
    # a code shown before the sign-out no longer lets anyone in
    assert "error" in pair(first.client, first.id, open_code, status=400)
    assert second.act({"type": "next", "expect_seq": 1})["seq"] == 2
    # signing out again signs out nobody, and a signed-out device can pair again
    assert second.client.post(f"/api/tables/{second.id}/sign_out_others",
                              headers=second.headers).get_json() == {"signed_out": 0}
    assert second_device(second).act({"type": "undo"})["seq"] == 3


def test_r75_two_dealer_devices_never_both_land_one_tap(make_table: Any) -> None:
    first = make_table("texas_dozen", ["Ann", "Bob", "Cy"])
    second = second_device(first)
    first.run({"type": "start_deal"}, {"type": "next"})
    state = first.state()
    seq, tap = state["seq"], {"type": "call", "player": state["step"]["player"]}
    assert first.act({**tap, "expect_seq": seq})["seq"] == seq + 1
    stale = second.act({**tap, "expect_seq": seq}, status=409)
    assert stale["seq"] == seq + 1 and stale["state"] == first.state(dealer=True)


def test_r75_live_connections_of_signed_out_devices_lose_the_dealers_view(
    app: Flask, make_table: Any
) -> None:
    first = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    second = second_device(first)
    socketio = get_socketio(app)
    first_live, second_live = socketio.test_client(app), socketio.test_client(app)
    try:
        first_live.emit("join", {"table": first.id, "token": first.token})
        second_live.emit("join", {"table": first.id, "token": second.token})
        for live in (first_live, second_live):
            (event,) = live.get_received()
            assert event["args"][0] == first.state(dealer=True)
        assert first.client.post(f"/api/tables/{first.id}/sign_out_others",
                                 headers=second.headers).status_code == 200
        events = first_live.get_received()
        assert [e["name"] for e in events] == ["error", "state"]
        assert events[0]["args"][0] == {"error": SIGNED_OUT, "signed_out": True}
        assert events[1]["args"][0] == first.state()  # the public view
        assert second_live.get_received() == []
        # the signed-out connection can no longer act, and hears only the public view
        ack = first_live.emit("action", {"table": first.id, "action": {"type": "start_deal"}},
                              callback=True)
        assert ack["status"] == 401
        ack = second_live.emit("action", {"table": first.id, "action": {"type": "start_deal"}},
                               callback=True)
        assert ack["status"] == 200
        (event,) = first_live.get_received()
        assert event["args"][0] == first.state()
        # joining again with the old token: a sentence and the public view
        first_live.emit("join", {"table": first.id, "token": first.token})
        events = first_live.get_received()
        assert [e["args"][0] for e in events] == [{"error": SIGNED_OUT, "signed_out": True},
                                                  first.state()]
    finally:
        first_live.disconnect()
        second_live.disconnect()


def test_r75_codes_never_appear_in_a_public_payload(app: Flask, make_table: Any) -> None:
    d = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"})
    socketio = get_socketio(app)
    phone = socketio.test_client(app)
    try:
        phone.emit("join", {"table": d.id})
        code = ask_code(d)
        d.run({"type": "buy", "player": "Bob", "count": 1})
        public: list[Any] = [e["args"] for e in phone.get_received()]
        for path in (f"/api/tables/{d.id}", "/api/tables", f"/api/tables/{d.id}/deals",
                     f"/api/tables/{d.id}/deals/1", f"/api/tables/{d.id}/ledger",
                     f"/t/{d.id}", f"/t/{d.id}/dealer", f"/t/{d.id}/history"):
            response = d.client.get(path)
            assert response.status_code == 200, path
            public.append(response.get_data(as_text=True))
        # nor in the dealer's own state: only the answer to the pairing request holds it
        public.append(d.state(dealer=True))
        assert len(public) >= 10
        for payload in public:
            assert code not in json.dumps(payload)
        db = storage.connect(app.config["DATABASE"])
        assert code not in json.dumps(storage.get_deal(db, d.id, 1))  # hashed where kept
        assert code not in repr(db.execute("SELECT * FROM pairing_codes").fetchall())
        db.close()
    finally:
        phone.disconnect()


def test_r75_a_table_made_before_pairing_existed_keeps_its_token(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as before:  # the database as the previous release left it
        before.setattr(storage.schema, "MIGRATIONS", storage.MIGRATIONS[:1])
        storage.init_db(database)
    db = storage.connect(database)
    setup = new_setup("texas_dozen", ["Ann", "Bob"], None, "Friday")
    token = auth.new_token()
    with storage.write_transaction(db):
        storage.insert(db, "tables", {
            "id": "oldtable", "name": setup.name, "variant": setup.variant,
            "setup_json": json.dumps(setup.to_json()), "token_hash": auth.hash_token(token),
            "created": storage.now()})
    db.close()
    app = create_app(db_path=database, testing=True)  # migrates: the token comes over
    d = Dealer(app.test_client(), {"id": "oldtable", "dealer_token": token})
    assert d.act({"type": "start_deal", "expect_seq": 0})["seq"] == 1
    assert "dealer_token" in pair(d.client, d.id, ask_code(d))


# --------------------------------------------------------------------------- the command line
def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command(), *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


@pytest.mark.timeout(120)
def test_r75_pair_on_the_servers_machine_lets_a_device_in_while_it_runs(
    start_server: Any, tmp_path: Path, database: str
) -> None:
    db, port = database, free_port()
    server: Server = start_server(db, port=port, args=[
        "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--access-log"])
    made = server.create_table("texas_dozen", ["Ann", "Bob"], name="Friday")
    server.create_table("kings_pot", ["Ann", "Bob", "Cy"], name="Poker club")
    listed = run_cli("tables", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0].split() == ["TABLE", "NAME", "GAME", "MADE", "(UTC)", "DEALS"]
    assert lines[2].split()[:4] == [made["id"], "Friday", "Texas", "Dozen"]
    assert lines[1].split()[1:5] == ["Poker", "club", "King's", "Pot"]
    codes = []
    for wanted in (made["id"], "friday"):  # by id, or by name in any case
        printed = run_cli("pair", wanted, "--db", str(db))
        assert printed.returncode == 0, printed.stderr
        found = re.fullmatch(
            rf"Pairing code for table Friday \({made['id']}\): ([0-9]{{6}})\n"
            "On the device, open the table's page and tap \"I'm dealing: enter code\". "
            "The code works once, for 5 minutes.\n", printed.stdout)
        assert found, printed.stdout
        codes.append(found.group(1))
    # the newer code replaced the older one
    if codes[0] != codes[1]:
        assert server.api("POST", f"/api/tables/{made['id']}/pair",
                          {"code": codes[0]})[0] == 400
    status, paired = server.api("POST", f"/api/tables/{made['id']}/pair", {"code": codes[1]})
    assert status == 201, paired
    status, acted = server.api("POST", f"/api/tables/{made['id']}/actions",
                               {"type": "start_deal"}, token=paired["dealer_token"])
    assert status == 200 and acted["seq"] == 1
    # a code the tablet asked for, used: the access log has both requests, never the code
    status, asked = server.api("POST", f"/api/tables/{made['id']}/pairing",
                               token=made["dealer_token"])
    assert status == 201
    assert server.api("POST", f"/api/tables/{made['id']}/pair", {"code": asked["code"]})[0] == 201
    time.sleep(0.3)
    log = server.output()
    assert f'"POST /api/tables/{made["id"]}/pair HTTP/1.1" 201' in log
    assert f'"POST /api/tables/{made["id"]}/pairing HTTP/1.1" 201' in log
    for code in (*codes, asked["code"]):
        assert code not in log
    assert paired["dealer_token"] not in log and made["dealer_token"] not in log
    refused = run_cli("pair", "Saturday", "--db", str(db))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == ("dealer-assist: There is no table 'Saturday' in this database: "
                              "'dealer-assist tables' lists them.\n")
    missing = run_cli("tables", "--db", str(tmp_path / "nothing.db"))
    assert missing.returncode == 2 and "There is no database at" in missing.stderr
    assert not (tmp_path / "nothing.db").exists()


class Writer(threading.Thread):
    """A dealer tapping as fast as the server answers: next, undo, next, undo... Keeps the seq
    of every acknowledged action."""

    def __init__(self, server: Server, table: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        self.server, self.table = server, table
        self.acked: list[int] = []
        self.stop = threading.Event()
        self.problem: str | None = None

    def run(self) -> None:
        session = requests.Session()
        session.headers["Authorization"] = f"Bearer {self.table['dealer_token']}"
        url = f"{self.server.url}/api/tables/{self.table['id']}/actions"
        taps = [{"type": "start_deal"}]
        while not self.stop.is_set():
            body = taps.pop() if taps else {"type": "next" if len(self.acked) % 2 else "undo"}
            response = session.post(url, json=body, timeout=30)
            if response.status_code != 200:
                self.problem = f"{body}: {response.status_code} {response.text}"
                return
            self.acked.append(response.json()["seq"])


@pytest.mark.timeout(180)
@pytest.mark.sqlite_only  # a copy of the file (PostgreSQL: pg_dump, test_cli)
def test_r75_backup_while_the_server_writes_holds_every_acknowledged_action(
    start_server: Any, tmp_path: Path
) -> None:
    db = tmp_path / "live.db"
    server: Server = start_server(db)
    table = server.create_table("texas_dozen", ["Ann", "Bob", "Cy"], name="Friday")
    writer = Writer(server, table)
    writer.start()
    copies: list[tuple[Path, int, int]] = []
    try:
        for n in range(3):
            while len(writer.acked) < 20 * (n + 1) and writer.problem is None:
                time.sleep(0.01)
            before = writer.acked[-1]
            target = tmp_path / f"backup-{n}.db"
            done = run_cli("backup", str(target), "--db", str(db))
            after = writer.acked[-1]
            assert done.returncode == 0, done.stderr
            assert done.stdout.startswith("Backed up 1 tables (")
            assert after > before, "the server kept writing during the backup"
            copies.append((target, before, after))
    finally:
        writer.stop.set()
        writer.join(30)
    assert writer.problem is None, writer.problem
    live = sqlite3.connect(db)
    live_rows = live.execute("SELECT seq, record_json FROM actions ORDER BY seq").fetchall()
    live.close()
    for target, before, after in copies:
        assert not Path(f"{target}-wal").exists()  # one self-contained file
        copy = sqlite3.connect(target)
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = copy.execute("SELECT seq, record_json FROM actions ORDER BY seq").fetchall()
        copy.close()
        last = rows[-1][0]
        # every action acknowledged before the backup began; at most the one in flight after
        assert before <= last <= after + 1, (before, last, after)
        assert rows == live_rows[:last]
        # restoring is starting on the copy: the table is back at that seq
        restored = create_app(db_path=target, testing=True).test_client()
        state = restored.get(f"/api/tables/{table['id']}").get_json()
        assert state["seq"] == last
        tap = "next" if state["step"]["kind"] == "next" else "undo"
        assert restored.post(f"/api/tables/{table['id']}/actions", json={"type": tap},
                             headers={"Authorization": f"Bearer {table['dealer_token']}"}
                             ).status_code == 200


def test_r75_backup_refuses_to_overwrite_the_database_with_a_sentence(tmp_path: Path) -> None:
    db = tmp_path / "dealer.db"
    storage.init_db(db)
    for target, sentence in (
            (db, "is the database itself: name another file for the copy."),
            (Path(f"{db}-wal"), "is the database itself"),
            (tmp_path, "is a folder: name a file for the copy"),
            (tmp_path / "no" / "x.db", "does not exist.")):
        refused = run_cli("backup", str(target), "--db", str(db))
        assert refused.returncode == 2 and sentence in refused.stderr, refused.stderr
    assert storage.schema_version(storage.connect(db)) == len(storage.MIGRATIONS)


@pytest.mark.timeout(180)
def test_r75_sign_out_reaches_connections_on_every_process(
    start_server: Any, tmp_path: Path, database: str, listeners: list[Listener]
) -> None:
    """Two ``serve --message-queue`` processes on one database: a device signed out through
    one process loses the dealer's view on the other at once."""
    from real_servers import RedisServer

    queue = RedisServer(tmp_path / "redis")
    try:
        db = database
        servers = []
        for _ in range(2):
            port = free_port()
            servers.append(start_server(db, port=port, args=[
                "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db),
                "--message-queue", queue.url]))
        queue.wait_for_subscribers(2)
        a, b = servers
        made = a.create_table("kings_pot", ["Ann", "Bob", "Cy"], name="Club")
        status, asked = a.api("POST", f"/api/tables/{made['id']}/pairing",
                              token=made["dealer_token"])
        assert status == 201
        status, paired = b.api("POST", f"/api/tables/{made['id']}/pair", {"code": asked["code"]})
        assert status == 201
        first = Listener(b.url, made["id"], made["dealer_token"], reconnect=False)
        listeners.append(first)
        assert first.next_state()["seq"] == 0
        status, _ = a.api("POST", f"/api/tables/{made['id']}/sign_out_others",
                          token=paired["dealer_token"])
        assert status == 200
        assert first.errors.get(timeout=10) == {"error": SIGNED_OUT, "signed_out": True}
        public = a.api("GET", f"/api/tables/{made['id']}")[1]
        assert first.next_state() == public
        # from now on the signed-out connection hears the public view only
        status, _ = a.api("POST", f"/api/tables/{made['id']}/actions",
                              {"type": "start_deal"}, token=paired["dealer_token"])
        assert status == 200
        assert first.next_state() == a.api("GET", f"/api/tables/{made['id']}")[1]
        ack = first.sio.call("action", {"table": made["id"], "action": {"type": "undo"}},
                             timeout=10)
        assert ack["status"] == 401 and ack["error"] == SIGNED_OUT
    finally:
        queue.stop()
