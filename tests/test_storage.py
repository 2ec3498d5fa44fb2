"""The storage layer on real SQLite files and a real PostgreSQL (each test on both): schema
and migrations, WAL and sync settings, the UNIQUE seq that stops two writers, stale caches,
and a replay that never grows with age."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.core.deal import Totals
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.table import Table, TableSetup
from dealer_assist.games.registry import new_setup
from dealer_assist.services import storage, tables
from dealer_assist.services.auth import hash_token
from dealer_assist.services.storage import Connection as Database
from dealer_assist.web.state import table_state

pytestmark = [pytest.mark.timeout(120), pytest.mark.both_engines]


@pytest.fixture
def db(database: str) -> Iterator[Database]:
    storage.init_db(database)
    conn = storage.connect(database)
    yield conn
    conn.close()


def load(store: tables.TableStore, db: Database, table_id: str = "t1") -> Table:
    table = store.load(db, table_id)
    assert table is not None
    return table


def make(db: Database, table_id: str = "t1", variant: str = "texas_dozen",
         players: list[str] | None = None) -> TableSetup:
    setup = new_setup(variant, players or ["Ann", "Bob", "Cy"], None, "Friday")
    tables.insert_table(db, table_id, setup, hash_token("secret"))
    return setup


def test_schema_is_made_once_and_migrations_are_recorded(database: str) -> None:
    storage.init_db(database)
    storage.init_db(database)  # a second start changes nothing
    db = storage.connect(database)
    assert storage.schema_version(db) == len(storage.schema.MIGRATIONS) >= 2
    rows = list(db.query("SELECT version, name FROM schema_version"))
    assert rows == [{"version": n, "name": name}
                    for n, (name, _) in enumerate(storage.MIGRATIONS, start=1)]
    assert rows[:2] == [{"version": 1, "name": "tables, actions and deals"},
                        {"version": 2, "name": "dealer devices: tokens and pairing codes"}]
    assert {"tables", "actions", "deals", "schema_version"} <= set(db.table_names())
    assert db.columns("actions") == [
        "table_id", "seq", "deal_number", "record_json", "created"]
    assert db.columns("deals") == [
        "table_id", "number", "start_seq", "base_json", "dealer", "started", "finished",
        "result_json", "variant", "taken_back", "after_json", "people_json",
        "day", "carried_after"]
    assert {"people", "aliases", "season_people", "season_days"} <= set(db.table_names())
    db.close()


def test_a_new_migration_runs_once_on_start(database: str, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    storage.init_db(database)
    calls: list[int] = []

    def add_notes(db: Database) -> None:
        calls.append(1)
        db.execute("ALTER TABLE tables ADD COLUMN notes TEXT")

    monkeypatch.setattr(storage.schema, "MIGRATIONS",
                        [*storage.MIGRATIONS, ("notes", add_notes)])
    storage.init_db(database)
    storage.init_db(database)
    db = storage.connect(database)
    assert calls == [1] and storage.schema_version(db) == len(storage.schema.MIGRATIONS)
    assert "notes" in db.columns("tables")
    db.close()


@pytest.mark.sqlite_only
def test_wal_and_full_sync(db: Database) -> None:
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_unique_table_seq_refuses_a_second_record_at_one_seq(db: Database) -> None:
    make(db)
    row = ["t1", 1, 1, '{"type": "start_deal"}', storage.now()]
    sql = ("INSERT INTO actions (table_id, seq, deal_number, record_json, created)"
           " VALUES (?, ?, ?, ?, ?)")
    db.execute(sql, row)
    with pytest.raises(storage.DuplicateRow):
        db.execute(sql, row)


def test_the_store_keeps_a_tables_row_but_not_an_unknown_id(db: Database) -> None:
    """Every dealer tap checks the token against the table's row: read once per process,
    handed out as a copy; an unknown id is asked of the database each time."""
    store = tables.TableStore()
    assert store.row(db, "t1") is None
    make(db)  # made after a miss: the miss was not kept
    row = store.row(db, "t1")
    assert row is not None and row["token_hash"] == hash_token("secret")
    row["token_hash"] = "changed by a caller"
    again = store.row(db, "t1")
    assert again is not None and again["token_hash"] == hash_token("secret")


def test_acting_appends_a_record_and_a_deal_row(db: Database) -> None:
    make(db)
    store = tables.TableStore()
    accepted = store.act(db, "t1", {"type": "start_deal"})
    assert accepted.table.seq == 1
    store.act(db, "t1", {"type": "next"})
    assert storage.last_seq(db, "t1") == 2
    records = list(db.query("SELECT seq, deal_number, record_json FROM actions ORDER BY seq"))
    assert records == [{"seq": 1, "deal_number": 1, "record_json": '{"type": "start_deal"}'},
                       {"seq": 2, "deal_number": 1, "record_json": '{"type": "next"}'}]
    (deal,) = storage.list_deals(db, "t1")
    assert (deal["number"], deal["start_seq"], deal["dealer"], deal["finished"]) == (
        1, 1, "Ann", None)
    (base,) = [Totals.from_json(json.loads(text)) for (text,) in db.execute(
        "SELECT base_json FROM deals WHERE table_id = 't1' AND number = 1")]
    assert base.stacks == (100, 100, 100)


def test_a_refused_action_stores_nothing(db: Database) -> None:
    make(db)
    store = tables.TableStore()
    store.act(db, "t1", {"type": "start_deal"})
    store.act(db, "t1", {"type": "next"})
    with pytest.raises(IllegalActionError, match="It is not Bob's turn"):
        store.act(db, "t1", {"type": "check", "player": "Bob"})
    assert storage.last_seq(db, "t1") == 2


def test_a_second_process_never_acts_on_a_stale_state(database: str) -> None:
    """Two stores (two processes, each with its cache) on one file."""
    storage.init_db(database)
    db_a, db_b = storage.connect(database), storage.connect(database)
    make(db_a)
    a, b = tables.TableStore(), tables.TableStore()
    a.act(db_a, "t1", {"type": "start_deal"})
    assert load(b, db_b).seq == 1  # b caches seq 1
    a.act(db_a, "t1", {"type": "next"})
    a.act(db_a, "t1", {"type": "call", "player": "Ann"})
    # b's cache says seq 1 (step "next"); the file says seq 3 (Bob to act)
    with pytest.raises(IllegalActionError, match="Cannot next now"):
        b.act(db_b, "t1", {"type": "next"})
    accepted = b.act(db_b, "t1", {"type": "call", "player": "Bob"})
    assert accepted.table.seq == 4
    assert table_state(load(a, db_a)) == table_state(accepted.table)
    db_a.close()
    db_b.close()


@pytest.mark.parametrize("expect", [True, False])
def test_two_writers_at_one_seq_only_one_wins(database: str, expect: bool) -> None:
    storage.init_db(database)
    setup_db = storage.connect(database)
    make(setup_db)
    tables.TableStore().act(setup_db, "t1", {"type": "start_deal"})
    setup_db.close()
    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def writer() -> None:
        db = storage.connect(database)
        store = tables.TableStore()
        load(store, db)  # every writer starts from seq 1
        barrier.wait()
        body: dict[str, Any] = {"type": "next"} | ({"expect_seq": 1} if expect else {})
        try:
            store.act(db, "t1", body, expect_seq=1 if expect else None)
            outcomes.append("ok")
        except storage.StaleTableError:
            outcomes.append("stale")
        except IllegalActionError:
            outcomes.append("refused")
        finally:
            db.close()

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(outcomes) == ["ok"] + (["stale"] * 3 if expect else ["refused"] * 3)
    db = storage.connect(database)
    assert [r["seq"] for r in db.query("SELECT seq FROM actions ORDER BY seq")] == [1, 2]
    db.close()


PLAYERS = ["Ann", "Bob", "Cy"]


def play_texas_deal(store: tables.TableStore, db: Database, dealer: int = 0) -> None:
    """A three-handed deal that ends before the flop: the dealer (first to act, left of the
    big blind) raises, both blinds fold."""
    first, small, big = (PLAYERS[(dealer + i) % 3] for i in range(3))
    for body in ({"type": "start_deal"}, {"type": "next"},
                 {"type": "raise", "player": first, "amount": 6},
                 {"type": "fold", "player": small}, {"type": "fold", "player": big}):
        store.act(db, "t1", body)


def test_a_restart_replays_only_the_last_deal(db: Database) -> None:
    make(db)
    store = tables.TableStore()
    for dealer in range(3):
        play_texas_deal(store, db, dealer)
    # each dealer took the blinds once (+3) and paid the small (1) and the big (2) once
    state = table_state(load(store, db))
    assert [p["stack"] for p in state["players"]] == [100, 100, 100]
    assert (state["deal_number"], state["seq"]) == (3, 15)
    table = store.act(db, "t1", {"type": "start_deal"}).table
    before = table_state(table, dealer=True)
    # spoil every record before the last deal: a restart does not need them (a deal that
    # is still only its start_deal, which undo may take back, needs the one before, R74)
    db.execute("UPDATE actions SET record_json = 'spoilt' WHERE deal_number < 3")
    restored = load(tables.TableStore(), db)
    assert table_state(restored, dealer=True) == before
    assert restored.seq == 16
    table = store.act(db, "t1", {"type": "next"}).table
    db.execute("UPDATE actions SET record_json = 'spoilt' WHERE deal_number < 4")
    restored = load(tables.TableStore(), db)
    assert table_state(restored, dealer=True) == table_state(table, dealer=True)


def test_a_replay_with_undo_records_gives_the_same_table(db: Database) -> None:
    make(db, variant="kings_pot")
    store = tables.TableStore()
    for body in ({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 2},
                 {"type": "undo"}, {"type": "buy", "player": "Bob", "count": 1},
                 {"type": "buy", "player": "Cy", "count": 3}, {"type": "undo"}, {"type": "undo"}):
        table = store.act(db, "t1", body).table
    assert table.seq == 7 and table_state(table)["undone"] == "Bob: buy 1"
    restored = load(tables.TableStore(), db)
    assert table_state(restored, dealer=True) == table_state(table, dealer=True)


def test_list_tables_counts_deals(db: Database) -> None:
    make(db, "t1")
    make(db, "t2", "off_road_stud", ["Ann", "Bob"])
    play_texas_deal(tables.TableStore(), db)
    assert {t["id"]: t["deals"] for t in storage.list_tables(db)} == {"t1": 1, "t2": 0}


def test_write_transaction_rolls_back_on_error(db: Database) -> None:
    make(db)
    with pytest.raises(RuntimeError), storage.write_transaction(db):
        db.execute("UPDATE tables SET name = 'Saturday'")
        raise RuntimeError("boom")
    row = storage.table_row(db, "t1")
    assert row is not None and row["name"] == "Friday"
    assert storage.table_row(db, "x" * 100) is None


@pytest.mark.timeout(120)
def test_two_server_processes_on_one_file_never_act_on_a_stale_state(
    start_server: Any, tmp_path: Path
) -> None:
    """Each process caches tables; each must see what the other wrote before it acts."""
    import requests

    db = tmp_path / "shared.db"
    one, two = start_server(db), start_server(db)
    made = requests.post(one.url + "/api/tables", timeout=10, json={
        "variant": "texas_dozen", "players": ["Ann", "Bob", "Cy"]}).json()
    headers = {"Authorization": f"Bearer {made['dealer_token']}"}

    def act(server: Any, body: dict[str, Any]) -> requests.Response:
        return requests.post(f"{server.url}/api/tables/{made['id']}/actions", json=body,
                             headers=headers, timeout=10)

    bodies = [{"type": "start_deal"}, {"type": "next"}, {"type": "call", "player": "Ann"},
              {"type": "call", "player": "Bob"}, {"type": "check", "player": "Cy"},
              {"type": "reveal"}, {"type": "check", "player": "Bob"}]
    for i, body in enumerate(bodies):  # alternate: each process acts on the other's write
        response = act((one, two)[i % 2], body)
        assert response.status_code == 200, response.text
        assert response.json()["seq"] == i + 1
    # both processes refuse what is now out of turn, and agree on the state
    assert act(one, {"type": "check", "player": "Bob"}).status_code == 400
    assert act(two, {"type": "next"}).status_code == 400
    states = [requests.get(f"{s.url}/api/tables/{made['id']}", timeout=10).json()
              for s in (one, two)]
    assert states[0] == states[1] and states[0]["seq"] == 7
    assert states[0]["step"]["player"] == "Cy"
    # expect_seq across processes: the second of two tablets that saw seq 7 gets a 409
    assert act(one, {"type": "check", "player": "Cy", "expect_seq": 7}).status_code == 200
    stale = act(two, {"type": "bet", "player": "Cy", "amount": 5, "expect_seq": 7})
    assert stale.status_code == 409 and stale.json()["seq"] == 8


def test_processes_starting_together_build_the_schema_once(database: str) -> None:
    """Three processes start on one new database at once: each migrates (SQLite: each step
    under the file's write lock; PostgreSQL: under an advisory lock) and none fails."""
    code = ("import sys; from dealer_assist.services import storage; "
            "storage.init_db(sys.argv[1]); print('ok')")
    starts = [subprocess.Popen([sys.executable, "-c", code, database], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outcomes = [p.communicate(timeout=60) for p in starts]
    assert [(p.returncode, out) for p, (out, _) in zip(starts, outcomes, strict=True)] == [
        (0, "ok\n")] * 3, outcomes
    db = storage.connect(database)
    assert [r["version"] for r in db.query("SELECT version FROM schema_version ORDER BY version")
            ] == list(range(1, len(storage.MIGRATIONS) + 1))
    db.close()
