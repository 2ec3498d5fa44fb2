"""Answers that tell the truth (issue 14, findings 2, 3 and 4): an action whose COMMIT returned
is acknowledged whatever fails after it; one that failed before changes nothing and says so;
the Socket.IO ``action`` event always gets an acknowledgement; a full database, an oversized
import and a second import at once get a sentence."""

from __future__ import annotations

import errno
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from conftest import new_table
from flask import Flask
from flask.testing import FlaskClient

from dealer_assist.services import storage, tables
from dealer_assist.web import history_api, imports
from dealer_assist.web.app import create_app, get_socketio

NOTHING_CHANGED = "Something went wrong on the server; nothing was changed. Try again."


def stored_seq(db_path: Path, table_id: str) -> int:
    db = storage.connect(db_path)
    try:
        return storage.last_seq(db, table_id)
    finally:
        db.close()


def emfile(_path: Any) -> None:
    raise OSError(errno.EMFILE, "Too many open files")


def test_an_action_stored_before_a_failed_fsync_is_acknowledged(
    client: FlaskClient, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 2: the file open after COMMIT failed (EMFILE) and the dealer was told that
    nothing was changed, while the action was stored and sent to the phones."""
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    monkeypatch.setattr(storage, "sync_log", emfile)
    answer = client.post(f"/api/tables/{d.id}/actions", json={"type": "start_deal"},
                         headers=d.headers)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["seq"] == 1 == stored_seq(db_path, d.id)


def test_an_action_whose_broadcast_fails_is_still_acknowledged(
    app: Flask, client: FlaskClient, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(errno.EMFILE, "Too many open files")

    monkeypatch.setattr(get_socketio(app), "emit", broken)
    answer = client.post(f"/api/tables/{d.id}/actions", json={"type": "start_deal"},
                         headers=d.headers)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["state"]["seq"] == 1 == stored_seq(db_path, d.id)


def test_the_socket_action_is_always_acknowledged(
    app: Flask, client: FlaskClient, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 2: over Socket.IO a failure gave no acknowledgement at all."""
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    sio = get_socketio(app).test_client(app)
    try:
        sio.emit("join", {"table": d.id, "token": d.token})
        monkeypatch.setattr(storage, "sync_log", emfile)  # after COMMIT: acknowledged
        ack = sio.emit("action", {"table": d.id, "action": {"type": "start_deal"}},
                       callback=True)
        assert (ack["status"], ack["seq"]) == (200, 1)

        def fails_before_commit(*_args: Any, **_kwargs: Any) -> None:
            raise RuntimeError("the disk went away")

        monkeypatch.setattr(tables.TableStore, "act", fails_before_commit)
        ack = sio.emit("action", {"table": d.id, "action": {"type": "next"}}, callback=True)
        assert ack == {"status": 500, "error": NOTHING_CHANGED}
        assert stored_seq(db_path, d.id) == 1
    finally:
        sio.disconnect()


def test_a_full_database_says_so_and_keeps_room_to_play(tmp_path: Path) -> None:
    """Finding 4: a filled disk made every dealer action a 500 "Try again", forever. With a
    cap on the file (SQLite's own max_page_count), new tables stop at 90% of it with a
    sentence, and an action that finds the file full is a 507 sentence, nothing stored."""
    app = create_app(db_path=tmp_path / "small.db", testing=True,
                     config={"MAX_DB_BYTES": 160 * 1024})
    client = app.test_client()
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    body = {"variant": "texas_dozen", "players": ["Ann", "Bob"], "name": "x" * 80}
    for _ in range(400):
        answer = client.post("/api/tables", json=body)
        if answer.status_code != 201:
            break
    assert answer.status_code == 507
    assert answer.get_json()["error"].startswith("The server's database is full (")
    assert "the host deletes old tables on the home page" in answer.get_json()["error"]
    seq = 0
    statuses = set()
    for _ in range(2000):  # play on until the file itself is full
        state = d.state(dealer=True)
        body = ({"type": "start_deal"} if state["step"]["kind"] == "start_deal"
                else {"type": "next"} if state["step"]["kind"] == "next"
                else {"type": "fold", "player": state["step"]["player"]})
        answer = client.post(f"/api/tables/{d.id}/actions", json=body, headers=d.headers)
        statuses.add(answer.status_code)
        if answer.status_code != 200:
            break
        seq = answer.get_json()["seq"]
    assert seq > 30  # the room kept for play was used
    assert answer.status_code == 507, answer.get_json()
    assert answer.get_json()["error"] == (
        "The server's database is full: nothing was changed. The host deletes old tables on "
        "the home page to make room.")
    assert d.state(dealer=True)["seq"] == seq == stored_seq(tmp_path / "small.db", d.id)


@pytest.fixture
def export(client: FlaskClient) -> dict[str, Any]:
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    d.run({"type": "start_deal"}, {"type": "next"}, {"type": "fold", "player": "Ann"})
    data: dict[str, Any] = client.get(f"/api/tables/{d.id}/export.json",
                                      headers=d.headers).get_json()
    return data


def test_imports_are_capped_before_anything_is_replayed(
    client: FlaskClient, export: dict[str, Any]
) -> None:
    """Finding 3: a file of raise/undo pairs ran past 55 s; 32 MB of {} took 868 MB."""
    before = client.get("/api/tables").get_json()
    big = b'{"format": "' + b"x" * (imports.MAX_IMPORT_BYTES + 1) + b'"}'
    answer = client.post("/api/tables/import", data=big, content_type="application/json")
    assert answer.status_code == 413
    assert answer.get_json() == {"error": "The file is too large: an import has at most 4 MB."}
    record = export["actions"][1]  # the deal's "next"
    long_deal = dict(export, actions=[export["actions"][0]] + [
        dict(record, seq=i) for i in range(2, history_api.MAX_DEAL_RECORDS + 3)])
    answer = client.post("/api/tables/import", json=long_deal)
    assert (answer.status_code, answer.get_json()["error"]) == (
        400, "Deal 1 of the file has more than 2,000 records: no deal needs that many.")
    start = export["actions"][0]
    many = dict(export, actions=[dict(start, seq=i)
                                 for i in range(1, history_api.MAX_IMPORT_DEALS + 2)])
    answer = client.post("/api/tables/import", json=many)
    assert (answer.status_code, answer.get_json()["error"]) == (
        400, "The file has more than 5,000 deals: an import takes at most that.")
    assert client.get("/api/tables").get_json() == before


def test_one_import_at_a_time(client: FlaskClient, export: dict[str, Any]) -> None:
    held = imports.IMPORTS_AT_ONCE.acquire(blocking=False)
    assert held
    try:
        answer = client.post("/api/tables/import", data=json.dumps(export),
                             content_type="application/json")
        assert answer.status_code == 503
        assert answer.get_json() == {"error": "Another import is running: try again in a "
                                              "moment."}
        assert answer.headers["Retry-After"] == "2"
    finally:
        imports.IMPORTS_AT_ONCE.release()
    done: list[int] = []
    threads = [threading.Thread(target=lambda: done.append(client.application.test_client().post(
        "/api/tables/import", json=export).status_code)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert set(done) <= {201, 503} and 201 in done
