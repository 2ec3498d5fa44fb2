"""What is PostgreSQL's own (issue 16); everything the two engines share runs on both in
test_storage, test_api, test_races, test_crash_restart and the others (``both_engines``).

``--db`` takes a PostgreSQL URL: ``serve``, ``tables`` and ``pair`` use the
server it names, a server that does not answer or refuses the login is one sentence at start
(exit ``EXIT_DATABASE``), the banner never prints a password, ``backup`` points to
pg_dump, and a URL is never taken for a file path (it once made a folder ``postgresql:``).
Writers of different tables do not wait for each other, and a lost connection is a 503."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from conftest import Server, command, free_port

from dealer_assist.cli.database_arg import database_arg
from dealer_assist.cli.serve import EXIT_DATABASE
from dealer_assist.games import registry
from dealer_assist.services import storage, tables
from dealer_assist.services.auth import hash_token
from dealer_assist.web.app import create_app

pytestmark = pytest.mark.timeout(120)


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI run in ``tmp_path``: a URL taken for a path would leave a folder there."""
    return subprocess.run([*command(), *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, cwd=tmp_path)


def no_folder_from_the_url(tmp_path: Path) -> None:
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("postgres")] == []


def test_serve_on_a_url_keeps_the_tables_there_and_hides_the_password(
    postgres: Any, start_server: Any, tmp_path: Path
) -> None:
    url = postgres.new_database()
    with_password = url.replace("dealer@", "dealer:s3cret@")  # trust auth: any password
    port = free_port()
    server: Server = start_server(with_password, port=port, args=[
        "serve", "--host", "127.0.0.1", "--port", str(port), "--db", with_password,
        "--no-mdns"])
    output = server.output()
    assert f"Database: {url.replace('dealer@', 'dealer:***@')}\n" in output
    assert "s3cret" not in output
    made = server.create_table("texas_dozen", ["Ann", "Bob"], name="Friday")
    assert postgres.psql("SELECT id, name FROM tables", url.rsplit("/", 1)[1]) == (
        f"{made['id']}|Friday")
    listed = run(tmp_path, "tables", "--db", url)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[1].split()[:4] == [made["id"], "Friday", "Texas", "Dozen"]
    assert requests.get(server.url + "/api/tables", timeout=10).json()[0]["id"] == made["id"]
    no_folder_from_the_url(tmp_path)
    assert not (Path.cwd() / "postgresql:").exists()


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_a_server_that_does_not_answer_is_a_sentence_at_start(
    tmp_path: Path, scheme: str
) -> None:
    url = f"{scheme}://dealer:pw@127.0.0.1:{free_port()}/nothing"
    done = run(tmp_path, "serve", "--port", str(free_port()), "--db", url, "--no-mdns")
    assert done.returncode == EXIT_DATABASE, (done.stdout, done.stderr)
    shown = f"{scheme}://dealer:***@127.0.0.1:"
    assert done.stderr.startswith(f"dealer-assist: The PostgreSQL database {shown}")
    assert "Connection refused" in done.stderr and "pw@" not in done.stderr
    assert done.stderr.endswith("Check that the server runs, the database exists and the user "
                                "may log in, or give another --db.\n")
    assert done.stdout == ""
    no_folder_from_the_url(tmp_path)


def test_a_refused_login_or_a_missing_database_is_a_sentence_at_start(
    postgres: Any, tmp_path: Path
) -> None:
    base = postgres.url("postgres").rsplit("/", 1)[0]
    for url, reason in ((base.replace("dealer@", "nobody@") + "/postgres",
                         'role "nobody" does not exist'),
                        (base + "/nothere", 'database "nothere" does not exist')):
        done = run(tmp_path, "serve", "--port", str(free_port()), "--db", url, "--no-mdns")
        assert done.returncode == EXIT_DATABASE, done.stderr
        assert done.stderr.startswith(f"dealer-assist: The PostgreSQL database {url} cannot be "
                                      "used ("), done.stderr
        assert reason in done.stderr
        refused = run(tmp_path, "pair", "Friday", "--db", url)
        assert refused.returncode == 2 and reason in refused.stderr
    no_folder_from_the_url(tmp_path)


def test_backup_on_postgresql_points_to_pg_dump(tmp_path: Path) -> None:
    done = run(tmp_path, "backup", str(tmp_path / "copy.db"), "--db",
               "postgresql://dealer@127.0.0.1:1/tables")
    assert done.returncode == 2
    assert done.stderr == ("dealer-assist: backup copies a SQLite file; a PostgreSQL database "
                           "is backed up with its own tool, pg_dump (docs/deployment.md, "
                           "PostgreSQL).\n")
    assert not (tmp_path / "copy.db").exists()
    no_folder_from_the_url(tmp_path)


def test_a_path_is_still_a_file() -> None:
    assert database_arg("postgresql.db") == Path("postgresql.db")
    assert database_arg("POSTGRESQL://u@h/d") == "POSTGRESQL://u@h/d"


def test_writers_of_different_tables_do_not_wait_for_each_other(postgres: Any) -> None:
    """SQLite's ``BEGIN IMMEDIATE`` locks the file; PostgreSQL's write transaction locks the
    table it writes: while one table's writer holds its lock, another table takes an action,
    and the first table's next writer waits until the lock is let go."""
    url = postgres.new_database()
    storage.init_db(url)
    holder, other = storage.connect(url), storage.connect(url)
    setup = registry.new_setup("texas_dozen", ["Ann", "Bob"], None, "Friday")
    for table_id in ("t1", "t2"):
        tables.insert_table(holder, table_id, setup, hash_token("secret"))
    store = tables.TableStore()
    done: list[int] = []
    with storage.write_transaction(holder, key="t1"):
        assert store.act(other, "t2", {"type": "start_deal"}).table.seq == 1  # not blocked
        waiter = threading.Thread(target=lambda: done.append(
            tables.TableStore().act(storage.connect(url), "t1", {"type": "start_deal"})
            .table.seq))
        waiter.start()
        time.sleep(0.5)
        assert done == []  # t1's writer waits for t1's lock
    waiter.join(10)
    assert done == [1]
    holder.close()
    other.close()


def test_a_lost_connection_is_a_503_sentence_and_the_next_request_works(
    postgres: Any
) -> None:
    """The server closes the app's connections (a restart, an administrator): the request
    that meets a dead one answers 503 with a sentence, the pool drops it, the next works."""
    url = postgres.new_database()
    app = create_app(db_path=url)  # not testing: errors are answered, not raised
    client = app.test_client()
    made = client.post("/api/tables", json={"variant": "texas_dozen", "players": ["Ann", "Bob"]})
    assert made.status_code == 201
    table_id = made.get_json()["id"]
    name = url.rsplit("/", 1)[1]
    assert postgres.psql("SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity"
                         f" WHERE datname = '{name}'") != "0"
    lost = client.get(f"/api/tables/{table_id}")
    assert lost.status_code == 503
    assert lost.get_json() == {"error": "The server's database cannot be reached just now: "
                                        "nothing was changed. Try again in a moment."}
    again = client.get(f"/api/tables/{table_id}")
    assert again.status_code == 200 and again.get_json()["seq"] == 0
    app.extensions["dealer_assist.pool"].close()


def test_sqlite_needs_no_postgresql_driver(tmp_path: Path) -> None:
    """Without psycopg (no ``[postgres]`` extra), a SQLite server makes a table and acts;
    only a URL asks for the driver, in a sentence."""
    code = f"""
import sys
sys.modules["psycopg"] = None  # as if it were not installed: importing it fails
from dealer_assist.web.app import create_app
client = create_app(db_path={str(tmp_path / "t.db")!r}, testing=True).test_client()
made = client.post("/api/tables", json={{"variant": "texas_dozen", "players": ["Ann", "Bob"]}})
token = made.get_json()["dealer_token"]
acted = client.post(f"/api/tables/{{made.get_json()['id']}}/actions",
                    json={{"type": "start_deal"}}, headers={{"Authorization": "Bearer " + token}})
print(acted.status_code, acted.get_json()["seq"])
from dealer_assist.services import storage
print(storage.database_problem("postgresql://dealer@127.0.0.1:1/x"))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "200 1",
        '--db postgresql://dealer@127.0.0.1:1/x needs PostgreSQL\'s driver: pip install '
        '"dealer-assist[postgres]".']
