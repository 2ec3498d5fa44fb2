"""Odd input gets a sentence, never a 5xx (issue 14, finding 8), and the smaller holes of
that finding: the Host header never makes a link, the dealer's view is never cached, a bad
database is said at start, and look-alike names cannot sit at one table."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import free_port, host_headers, new_table
from flask import Flask
from flask.testing import FlaskClient

from dealer_assist.web.app import create_app
from dealer_assist.web.qr import qr_svg

LAN = "http://192.168.1.20:5000"


@pytest.fixture
def export(client: FlaskClient) -> tuple[str, dict[str, Any]]:
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    d.run({"type": "start_deal"}, {"type": "next"}, {"type": "fold", "player": "Ann"})
    data = client.get(f"/api/tables/{d.id}/export.json", headers=d.headers).get_json()
    return d.id, data


def refused(response: Any, status: int = 400) -> str:
    assert response.status_code == status, (response.status_code, response.data[:300])
    sentence: str = response.get_json()["error"]
    return sentence


def test_an_import_time_at_the_edge_of_the_calendar(
    client: FlaskClient, export: tuple[str, dict[str, Any]]
) -> None:
    _, data = export
    for stamp in ("0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"):
        data["actions"][1]["time"] = stamp
        sentence = refused(client.post("/api/tables/import", json=data))
        assert sentence == f"Record 2 has a time outside the calendar: {stamp!r}."


def test_a_lone_surrogate_is_a_sentence(
    client: FlaskClient, export: tuple[str, dict[str, Any]]
) -> None:
    _, data = export
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    bodies = [
        ("/api/tables", '{"variant": "texas_dozen", "players": ["Ann", "\\ud800"]}', {}),
        (f"/api/tables/{d.id}/actions", '{"type": "check", "player": "\\udfff"}', d.headers),
        ("/api/tables/import", json.dumps(data).replace('"Ann"', '"An\\ud800n"', 1), {}),
    ]
    for path, raw, headers in bodies:
        sentence = refused(client.post(path, data=raw, content_type="application/json",
                                       headers=headers))
        assert sentence.startswith("The body holds a lone surrogate"), path


def test_a_deal_number_of_2_to_the_63(client: FlaskClient,
                                      export: tuple[str, dict[str, Any]]) -> None:
    table_id, _ = export
    for path in (f"/api/tables/{table_id}/deals/{2**63}",
                 f"/api/tables/{table_id}/deals/{2**63}/replay",
                 f"/api/tables/{table_id}/deals/{2**64 + 5}"):
        response = client.get(path)
        assert response.status_code == 404 and response.get_json()["error"], path
    assert client.get(f"/t/{table_id}/history/{2**63}").status_code == 404


@pytest.mark.parametrize(("rules", "sentence"), [
    ({"betting": "x" * 60_000}, "betting must be no_limit, pot_limit or fixed_limit."),
    ({"betting": [1, 2]}, "betting must be no_limit, pot_limit or fixed_limit."),
    ({"betting": "pot_limit"}, "21 Hand Hold'em has no betting structure: leave betting out."),
    ({"odd_chip": {"a": 1}}, "odd_chip must be left_of_dealer or carry."),
])
def test_house_rules_are_checked_per_game(client: FlaskClient, rules: dict[str, Any],
                                          sentence: str) -> None:
    response = client.post("/api/tables", json={
        "variant": "twenty_one_hand_holdem", "players": ["Ann", "Bob", "Cy"], "rules": rules})
    assert refused(response) == sentence
    assert client.get("/api/tables").get_json() == []


def test_the_host_header_never_makes_a_link(db_path: Path) -> None:
    """DNS rebinding: a page of evil.example, pointed at the server, sent its own Host; the
    join URL, dealer URL and QR code were made from it."""
    app: Flask = create_app(db_path=db_path, testing=True, config={"LAN_URL": LAN})
    client = app.test_client()
    made = client.post("/api/tables", json={"variant": "texas_dozen", "players": ["A", "B"]},
                       base_url="http://evil.example:5000", headers=host_headers(app))
    body = made.get_json()
    assert made.status_code == 201, body
    assert body["join_url"] == f"{LAN}/t/{body['id']}"
    assert body["dealer_url"].startswith(f"{LAN}/t/{body['id']}/dealer#token=")
    qr = client.get(f"/t/{body['id']}/qr.svg", base_url="http://evil.example:5000")
    assert qr.data == qr_svg(f"{LAN}/t/{body['id']}")
    page = client.get(f"/t/{body['id']}/dealer", base_url="http://evil.example:5000")
    assert b"evil.example" not in page.data


def test_the_dealers_view_is_never_cached(client: FlaskClient) -> None:
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    answer = client.post(f"/api/tables/{d.id}/actions", json={"type": "start_deal"},
                         headers=d.headers)
    assert answer.headers["Cache-Control"] == "no-store"
    stale = client.post(f"/api/tables/{d.id}/actions", json={"type": "next", "expect_seq": 0},
                        headers=d.headers)
    assert stale.status_code == 409 and stale.headers["Cache-Control"] == "no-store"
    for path in ("/deals", "/deals/1", "/deals/1/replay", "/history", "/ledger", ""):
        response = client.get(f"/api/tables/{d.id}{path}", headers=d.headers)
        assert response.status_code == 200, path
        assert response.headers["Cache-Control"] == "no-store", path


@pytest.mark.parametrize(("players", "sentence"), [
    (["Ann", "A\u200bnn"], "A player's name holds an invisible or direction character (U+200B)"),
    (["Ann", "Bob\u202e"], "A player's name holds an invisible or direction character (U+202E)"),
    (["Ann", "\uff21\uff4e\uff4e"], "Two players are called Ann: give each a different name."),
    (["Ann", "ANN"], "Two players are called ANN: give each a different name."),
])
def test_look_alike_names_cannot_sit_at_one_table(client: FlaskClient, players: list[str],
                                                  sentence: str) -> None:
    response = client.post("/api/tables", json={"variant": "texas_dozen", "players": players})
    assert refused(response).startswith(sentence)


def test_a_fullwidth_name_is_kept_as_its_plain_letters(client: FlaskClient) -> None:
    d = new_table(client, "texas_dozen", ["\uff21\uff4e\uff4e", "Bob"])
    assert [p["name"] for p in d.state()["players"]] == ["Ann", "Bob"]


# --------------------------------------------------------------------------- the database at start
def start(db: Path, as_nobody: bool = False) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "dealer_assist", "serve", "--host", "127.0.0.1",
               "--port", str(free_port()), "--db", str(db), "--no-mdns"]
    if as_nobody:  # root may write any file: the read-only case runs as nobody
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env,
                          stdin=subprocess.DEVNULL)


def check_refused(result: subprocess.CompletedProcess[str], words: str) -> None:
    assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
    assert result.stderr.startswith("dealer-assist: The database "), result.stderr
    assert words in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "Dealer Assist is running" not in result.stdout


def test_a_corrupt_database_is_said_at_start(tmp_path: Path) -> None:
    header = tmp_path / "header.db"
    header.write_bytes(b"SQLite format 3\x00" + b"\xff" * 200)
    check_refused(start(header), "is damaged or is not a database")
    text = tmp_path / "notes.db"
    text.write_text("my poker notes\n" * 100)
    check_refused(start(text), "is damaged or is not a database")
    # a real database whose pages were overwritten midway
    damaged = tmp_path / "damaged.db"
    conn = sqlite3.connect(damaged)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.executemany("INSERT INTO t VALUES (?)", [("x" * 500,) for _ in range(200)])
    conn.commit()
    conn.close()
    raw = bytearray(damaged.read_bytes())
    raw[4096 * 3: 4096 * 6] = b"\x07" * (4096 * 3)
    damaged.write_bytes(bytes(raw))
    check_refused(start(damaged), "is damaged")


def test_a_read_only_or_unreadable_database_is_said_at_start() -> None:
    folder = Path(tempfile.mkdtemp(prefix="da-ro-"))
    try:
        os.chmod(folder, 0o755)
        db = folder / "tables.db"
        create_app(db_path=db, testing=True)  # a good database, made by this user
        for path in folder.iterdir():
            os.chmod(path, 0o444)
        as_nobody = os.geteuid() == 0
        check_refused(start(db, as_nobody), "is read-only")
        os.chmod(db, 0o000)
        check_refused(start(db, as_nobody), "cannot be read")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_folder_given_as_the_database(tmp_path: Path) -> None:
    result = start(tmp_path)
    assert result.returncode == 3 and "is a folder, not a database file" in result.stderr
