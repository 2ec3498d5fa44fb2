"""``--db`` takes a PostgreSQL URL (issue 16): ``serve``, ``tables`` and ``pair`` use the
server it names, a server that does not answer or refuses the login is one sentence at start
(exit ``cli.EXIT_DATABASE``), the banner never prints a password, ``backup`` points to
pg_dump, and a URL is never taken for a file path (it once made a folder ``postgresql:``)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
import requests
from conftest import Server, command, free_port

from dealer_assist import cli

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
    assert done.returncode == cli.EXIT_DATABASE, (done.stdout, done.stderr)
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
        assert done.returncode == cli.EXIT_DATABASE, done.stderr
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
    assert cli.database_arg("postgresql.db") == Path("postgresql.db")
    assert cli.database_arg("POSTGRESQL://u@h/d") == "POSTGRESQL://u@h/d"
