"""The ``dealer-assist`` command: its arguments, the address and QR code it prints, and a real
start that serves the home page."""

from __future__ import annotations

import io
import ipaddress
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest
import requests
from conftest import Server, free_port

from dealer_assist import cli
from dealer_assist.cli import banner, serve
from dealer_assist.cli.database_arg import default_db
from dealer_assist.web.mdns import Advert
from dealer_assist.web.qr import qr_text

pytestmark = pytest.mark.timeout(120)


def test_no_subcommand_is_serve_with_the_defaults() -> None:
    args = cli.parse_args([])
    assert (args.command, args.host, args.port, args.db) == ("serve", "0.0.0.0", 5000, None)
    args = cli.parse_args(["--port", "8000"])
    assert (args.command, args.port) == ("serve", 8000)
    args = cli.parse_args(["serve", "--host", "127.0.0.1", "--port", "5001", "--db", "x.db"])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 5001, Path("x.db"))


def test_default_database_is_in_the_user_data_folder(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db() == tmp_path / "data" / "dealer-assist" / "dealer-assist.db"


def test_a_bad_port_is_refused_with_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["serve", "--port", "70000"]) == 2
    assert "the port must be from 1 to 65535, not 70000." in capsys.readouterr().err


def test_a_negative_proxy_count_is_refused_with_a_sentence(
    capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["serve", "--proxy-hops", "-1"]) == 2
    assert "--proxy-hops counts proxies: 0 or more, not -1." in capsys.readouterr().err


def test_the_start_is_frozen_out_of_the_collectors_full_passes() -> None:
    """After the warm-up, the objects the start made are in gc's permanent generation, and
    a full collection no longer walks them (issue 32: it stopped the loop mid-fan-out)."""
    import gc

    made: list[object] = []
    keep = [[i] for i in range(50_000)]  # a start's worth of containers, alive throughout
    try:
        serve.freeze_start(lambda: made.append(object()))
        assert made and gc.get_freeze_count() >= len(keep)
        frozen = gc.get_freeze_count()
        gc.collect()  # nothing frozen comes back into sight
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
    assert keep[-1] == [49_999]


def test_lan_address_is_an_address() -> None:
    address = ipaddress.ip_address(banner.lan_address())
    assert address.version == 4 and not address.is_unspecified
    assert banner.public_host("0.0.0.0") == banner.lan_address()
    assert banner.public_host("192.168.1.9") == "192.168.1.9"
    assert banner.url_for_host("::1", 5000) == "http://[::1]:5000"


def test_announce_prints_the_address_its_qr_code_and_the_database() -> None:
    out = io.StringIO()
    banner.announce("http://192.168.1.9:5000", Path("/tmp/x.db"), out)
    text = out.getvalue()
    assert "Address: http://192.168.1.9:5000/\n" in text
    assert "Database: /tmp/x.db\n" in text
    assert qr_text("http://192.168.1.9:5000/") in text
    assert "\nDealer: the tablet that made a table keeps its dealer key" in text


def test_announce_leads_the_host_to_the_host_qr_before_the_players_address() -> None:
    """The plain address opens a guest's home page ("Only the host makes tables"): the tablet
    that makes tables needs the host link, so that QR code comes first and says so."""
    out = io.StringIO()
    banner.announce("http://192.168.1.9:5000", Path("/tmp/x.db"), out, host_key="k3y")
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0] == ("Dealer Assist is running. First, on the tablet that makes the tables, "
                        "scan this host link (never show it to the players):")
    host_qr = text.index(qr_text("http://192.168.1.9:5000/#host=k3y"))
    players = text.index("Players and other devices open http://192.168.1.9:5000/ or scan:\n")
    home_qr = text.index(qr_text("http://192.168.1.9:5000/"), players)
    assert host_qr < players < home_qr
    assert "Host key: k3y (http://192.168.1.9:5000/#host=k3y)\n" in text


def test_announce_prints_the_mdns_name_beside_the_address_or_why_not() -> None:
    out = io.StringIO()
    banner.announce("http://192.168.1.9:5000", Path("/tmp/x.db"), out,
                 mdns_url="http://dealer-assist.local:5000")
    assert ("Address: http://192.168.1.9:5000/ (or http://dealer-assist.local:5000/)\n"
            in out.getvalue())
    out = io.StringIO()
    banner.announce("http://192.168.1.9:5000", Path("/tmp/x.db"), out,
                 mdns_problem="mDNS is not available here (no multicast).")
    assert ("Name: mDNS is not available here (no multicast). Use the address above.\n"
            in out.getvalue())


def test_mdns_is_not_tried_on_loopback_nor_with_no_mdns() -> None:
    assert serve.start_mdns("127.0.0.1", "127.0.0.1", 5000, no_mdns=False) == (Advert(), None)
    assert serve.start_mdns("0.0.0.0", "192.168.1.9", 5000, no_mdns=True) == (Advert(), None)
    assert serve.start_mdns("box.lan", "box.lan", 5000, no_mdns=False) == (Advert(), None)


def wait_for(server: Server, pattern: str, timeout: float = 20.0) -> re.Match[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = re.search(pattern, server.output())
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{pattern!r} not printed:\n{server.output()}")


def test_serve_prints_the_lan_address_and_qr_and_serves_pages(
    start_server: Any, tmp_path: Path
) -> None:
    port = free_port()
    db = tmp_path / "cli.db"
    server: Server = start_server(db, port=port, prefer_script=True,
                                  args=["serve", "--port", str(port), "--db", str(db),
                                        "--no-mdns"])
    address = wait_for(server, r"Address: (http://[^\s]+)/\n").group(1)
    host = re.fullmatch(r"http://([\d.]+):(\d+)", address)
    assert host is not None and host.group(2) == str(port)
    assert host.group(1) == banner.lan_address()
    output = server.output()
    assert qr_text(address + "/") in output  # the QR code of the home page
    assert f"Database: {db.resolve()}\n" in output
    assert db.exists()
    home = requests.get(server.url + "/", timeout=10)
    assert home.status_code == 200 and "text/html" in home.headers["Content-Type"]
    assert requests.get(address + "/api/tables", timeout=10).json() == []  # on the LAN address
    # a table made from the host's own browser (127.0.0.1) gets a join URL phones can open
    made = requests.post(server.url + "/api/tables", timeout=10, json={
        "variant": "texas_dozen", "players": ["Ann", "Bob"]}).json()
    assert made["join_url"] == f"{address}/t/{made['id']}"


def test_no_arguments_keeps_the_database_in_the_user_data_folder(
    start_server: Any, tmp_path: Path
) -> None:
    port = free_port()
    home = tmp_path / "home"
    server: Server = start_server(tmp_path / "unused.db", port=port,
                                  args=["--port", str(port), "--no-mdns"],
                                  env={"XDG_DATA_HOME": str(home / "data"), "HOME": str(home)})
    expected = home / "data" / "dealer-assist" / "dealer-assist.db"
    wait_for(server, re.escape(f"Database: {expected}") + "\n")
    assert expected.exists()
    assert not (tmp_path / "unused.db").exists()


def test_the_start_is_quiet_no_warning_and_no_request_lines(
    start_server: Any, tmp_path: Path
) -> None:
    server: Server = start_server(tmp_path / "quiet.db")
    for _ in range(5):
        assert requests.get(server.url + "/api/tables", timeout=10).status_code == 200
    assert requests.get(server.url + "/nothing-here", timeout=10).status_code == 404
    time.sleep(0.3)
    output = server.output()
    lines = [line for line in output.splitlines() if line.strip()]
    assert "Address: http://127.0.0.1:" in output
    assert not re.search(r"development server|WARNING|Running on|Serving Flask|Debug mode",
                         output), output
    assert not re.search(r"GET /|HTTP/1\.1", output), output
    # the banner and nothing else: its lines after the QR code are the last ones printed
    assert lines[-1] == "Stop with Ctrl+C.", lines[-3:]


def test_access_log_prints_a_line_per_request(start_server: Any, tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "loud.db"
    server: Server = start_server(db, port=port, args=[
        "serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--access-log"])
    requests.get(server.url + "/nothing-here", timeout=10)
    found = wait_for(server, r'"GET /nothing-here HTTP/1\.1" 404')
    assert found
    assert "development server" not in server.output()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_wheel_ships_every_template_and_static_file(tmp_path: Path) -> None:
    """A non-editable install serves the pages from inside the package: build the wheel from
    a copy of the repository and find every file of templates/ and static/ in it."""
    repo = Path(__file__).resolve().parents[1]
    source = tmp_path / "src"
    shutil.copytree(repo, source, ignore=shutil.ignore_patterns(
        ".git", "*.egg-info", "build", "dist", "__pycache__", ".*cache", ".hypothesis",
        ".benchmarks", "*.db", "*.db-*"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(tmp_path / "dist"), str(source)], check=True, timeout=240,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    (wheel,) = (tmp_path / "dist").glob("dealer_assist-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("templates", "static"):
        files = [p for p in (repo / folder).rglob("*") if p.is_file()]
        assert files, folder
        for path in files:
            assert f"dealer_assist/{path.relative_to(repo).as_posix()}" in names
    assert {"dealer_assist/templates/index.html", "dealer_assist/templates/tablet.html",
            "dealer_assist/templates/phone.html"} <= names


def test_pair_takes_a_table_id_that_starts_with_a_dash() -> None:
    """A table id is URL-safe base64, so tables made before new_table_id skipped them may
    start with ``-`` (a CI run drew ``-XOre1KC``): the command still names that table."""
    for argv in (["pair", "-XOre1KC", "--db", "x.db"], ["pair", "--db", "x.db", "-XOre1KC"],
                 ["pair", "--db=x.db", "-XOre1KC"], ["pair", "--", "-XOre1KC", "--db", "x.db"]):
        args = cli.parse_args(argv)
        assert (args.command, args.table) == ("pair", "-XOre1KC"), argv
        assert args.db == Path("x.db"), argv
    assert cli.parse_args(["pair", "Friday"]).table == "Friday"
    with pytest.raises(SystemExit):
        cli.parse_args(["pair", "--db", "x.db"])  # no table: argparse's own sentence


def test_new_table_ids_never_start_with_a_dash(monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_assist.services import auth
    drawn = iter(["-XOre1KC", "-abcdefg", "AbC-d_ef"])
    monkeypatch.setattr("secrets.token_urlsafe", lambda nbytes: next(drawn))
    assert auth.new_table_id() == "AbC-d_ef"
