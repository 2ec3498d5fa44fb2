"""A damaged database never silences or breaks the app (issue 25, services/integrity.py).

A file whose structure is sound but whose content is not (a bit flipped on an SD card): one
table's setup JSON cut short, one table's latest deal holding a record the rules refuse, one
table's first deal holding a record that is no longer JSON, and one table untouched. A real
``dealer-assist serve`` on it says each damage at start, on the home page and on that
table's pages, in a sentence naming the deal and record; no route of the url_map answers
5xx for any table; a damaged table's history up to the damage is served; the untouched
table plays on, over HTTP and Socket.IO. ``dealer-assist check`` prints the same report.
A zero-byte file and another program's SQLite file are refused with a sentence (exit 3),
while a new file name still makes a new database.
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
import requests
from conftest import Server, command, free_port, new_table
from listeners import Listener
from test_access import path_of

from dealer_assist.cli.serve import EXIT_DATABASE
from dealer_assist.web.app import create_app

pytestmark = pytest.mark.timeout(180)

PLAY = [{"type": "start_deal"}, {"type": "next"},
        {"type": "raise", "player": "Ann", "amount": 6},
        {"type": "fold", "player": "Bob"}, {"type": "fold", "player": "Cy"},
        {"type": "start_deal"}, {"type": "next"}]


def damaged_file(folder: Path) -> tuple[Path, dict[str, str], dict[str, int]]:
    """Four Texas Dozen tables, each with a finished deal and one in play; three damaged as a
    flipped bit would. Returns the file, the tables' ids by name, and the damaged seqs."""
    path = folder / "damaged.db"
    app = create_app(db_path=path, testing=True)
    client = app.test_client()
    ids = {}
    for name in ("Setup", "Latest", "Oldest", "Whole"):
        dealer = new_table(client, "texas_dozen", ["Ann", "Bob", "Cy"], name=name)
        dealer.run(*PLAY)
        ids[name] = dealer.id
    app.extensions["dealer_assist.pool"].close()
    seqs = {}
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE tables SET setup_json = substr(setup_json, 1, 30) WHERE id = ?",
                     [ids["Setup"]])
        # deal 2's "next" now reads as a raise by a player who never sat: the rules refuse it
        seqs["Latest"] = conn.execute(
            "SELECT seq FROM actions WHERE table_id = ? AND deal_number = 2 AND record_json"
            " LIKE '%next%'", [ids["Latest"]]).fetchone()[0]
        conn.execute("UPDATE actions SET record_json = ? WHERE table_id = ? AND seq = ?",
                     ['{"type": "raise", "player": "Zed", "amount": 6}', ids["Latest"],
                      seqs["Latest"]])
        # deal 1's raise is cut short: no longer JSON
        seqs["Oldest"] = conn.execute(
            "SELECT seq FROM actions WHERE table_id = ? AND deal_number = 1 AND record_json"
            " LIKE '%raise%'", [ids["Oldest"]]).fetchone()[0]
        conn.execute("UPDATE actions SET record_json = substr(record_json, 1, 12)"
                     " WHERE table_id = ? AND seq = ?", [ids["Oldest"], seqs["Oldest"]])
    conn.close()
    return path, ids, seqs


SENTENCES = {  # what each damaged table's sentence says of where
    "Setup": "its setup cannot be read back",
    "Latest": "deal 2, record {seq} cannot be read back (the rules refuse it",
    "Oldest": "deal 1, record {seq} cannot be read back (it is not valid JSON)",
}


def expected(name: str, ids: dict[str, str], seqs: dict[str, int]) -> str:
    return f"Table '{name}' ({ids[name]}) is damaged: " + SENTENCES[name].format(
        seq=seqs.get(name))


def serve(db: Path, tmp_path: Path, servers: list[Server]) -> Server:
    port = free_port()
    server = Server(db, tmp_path / f"serve-{port}.log", port=port, args=[
        "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--no-mdns"])
    servers.append(server)
    return server.start()


def test_a_damaged_table_is_said_everywhere_and_breaks_nothing(
    tmp_path: Path, servers: list[Server], listeners: list[Listener]
) -> None:
    db, ids, seqs = damaged_file(tmp_path)
    server = serve(db, tmp_path, servers)
    banner = server.output()
    home = requests.get(server.url + "/", timeout=10).text
    listed = {row["id"]: row for row in requests.get(server.url + "/api/tables",
                                                     timeout=10).json()}
    for name in SENTENCES:
        sentence = expected(name, ids, seqs)
        assert f"Damaged: {sentence}" in banner, (name, banner[-2000:])
        assert sentence in home.replace("&#39;", "'"), name
        assert listed[ids[name]]["damaged"]["sentence"].startswith(sentence), name
        for page in (f"/t/{ids[name]}", f"/t/{ids[name]}/dealer"):
            answer = requests.get(server.url + page, timeout=10)
            assert answer.status_code == 423, (page, answer.status_code)
            assert sentence in answer.text.replace("&#39;", "'"), page
        state = requests.get(f"{server.url}/api/tables/{ids[name]}", timeout=10)
        assert state.status_code == 423 and state.json()["error"].startswith(sentence)
    assert "damaged" not in listed[ids["Whole"]]
    assert "Traceback" not in banner

    # the history up to the damage: Latest's first deal, whole; Setup's, nothing
    history = requests.get(f"{server.url}/api/tables/{ids['Latest']}/history", timeout=10)
    assert history.status_code == 200, history.text
    assert [deal["number"] for deal in history.json()["deals"]] == [1, 2]
    assert history.json()["damaged"]["seq"] == seqs["Latest"]
    assert requests.get(f"{server.url}/api/tables/{ids['Setup']}/history",
                        timeout=10).status_code == 423
    assert requests.get(f"{server.url}/api/tables/{ids['Oldest']}/history",
                        timeout=10).json()["deals"][-1]["number"] == 1

    # no route answers 5xx, for any table (the url_map of the same app, walked)
    app = create_app(db_path=tmp_path / "routes.db", testing=True)
    for name, table_id in ids.items():
        for rule in app.url_map.iter_rules():
            if "<table_id>" not in rule.rule or "GET" not in (rule.methods or ()):
                continue
            for number in ("1", "2"):
                path = path_of(rule, table_id).replace("/1", f"/{number}")
                answer = requests.get(server.url + path, timeout=10)
                assert answer.status_code < 500, (name, path, answer.status_code)

    # the untouched table plays on, over HTTP and over Socket.IO
    phone = Listener(server.url, ids["Whole"])
    listeners.append(phone)
    assert phone.next_state()["id"] == ids["Whole"]
    assert requests.get(f"{server.url}/api/tables/{ids['Whole']}/history",
                        timeout=10).status_code == 200
    broken = Listener(server.url, ids["Latest"])
    listeners.append(broken)
    assert broken.errors.get(timeout=10)["error"].startswith(expected("Latest", ids, seqs))
    assert broken.states.empty()
    assert "Traceback" not in server.output()


def check(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command(), "check", "--db", str(db)], capture_output=True,
                          text=True, timeout=60, check=False)


def test_dealer_assist_check_prints_the_same_report(tmp_path: Path) -> None:
    db, ids, seqs = damaged_file(tmp_path)
    done = check(db)
    assert done.returncode == 1, done.stderr
    for name in SENTENCES:
        assert expected(name, ids, seqs) in done.stdout
    assert "Checked: 1 of 4 tables read back whole" in done.stdout
    whole = tmp_path / "whole.db"
    app = create_app(db_path=whole, testing=True)
    new_table(app.test_client(), "texas_dozen", ["Ann", "Bob"]).run(*PLAY[:2])
    app.extensions["dealer_assist.pool"].close()
    done = check(whole)
    assert (done.returncode, done.stdout.splitlines()[-1]) == (
        0, "Checked: 1 table read back whole."), done


@pytest.mark.parametrize("kind", ["zero bytes", "another program's"])
def test_a_file_that_is_no_database_of_ours_is_refused(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "other.db"
    if kind == "zero bytes":
        db.write_bytes(b"")
        said = "is an empty file (0 bytes), not a dealer-assist database"
    else:
        conn = sqlite3.connect(db)
        conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, path TEXT)")
        conn.commit()
        conn.close()
        said = "is another program's SQLite file (its tables: photos)"
    before = db.read_bytes()
    port = free_port()
    done = subprocess.run([*command(), "serve", "--host", "127.0.0.1", "--port", str(port),
                           "--db", str(db), "--no-mdns"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == EXIT_DATABASE, (done.stdout, done.stderr)
    assert said in done.stderr and "Traceback" not in done.stderr
    assert "Address:" not in done.stdout
    assert check(db).returncode == EXIT_DATABASE
    tables = subprocess.run([*command(), "tables", "--db", str(db)], capture_output=True,
                            text=True, timeout=60, check=False)
    assert tables.returncode == 2 and said in tables.stderr
    assert db.read_bytes() == before  # nothing was made in it


def test_a_new_file_name_still_makes_a_new_database(tmp_path: Path,
                                                    servers: list[Server]) -> None:
    db = tmp_path / "fresh" / "new.db"
    server = serve(db, tmp_path, servers)
    assert requests.get(server.url + "/api/tables", timeout=10).json() == []
    assert db.exists() and not re.search("Damaged|Traceback", server.output())


def test_the_report_reads_whole_tables_as_whole(tmp_path: Path, database: str,
                                                 make_table: Any) -> None:
    """No false alarm: every game's table, played, reads back whole."""
    from dealer_assist.services import integrity

    dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    dealer.run({"type": "start_deal"})
    report = integrity.check_database(database)
    assert (report.problem, report.tables, report.damaged) == (None, 1, ())
