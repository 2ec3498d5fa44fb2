"""The home page is the host's or a guest's (issue 14): opened from another device, it shows
the tables to follow and no form; the host's link (``/#host=<key>``, the QR code the server
prints) makes that device the host: the form, each table's size and a Delete button."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import Server, free_port
from playwright.sync_api import expect

from browser.conftest import PHONE, TABLET
from dealer_assist.cli.banner import lan_address

pytestmark = pytest.mark.browser


@pytest.fixture
def lan_server(tmp_path: Path) -> Any:
    """A server on every address, opened through this machine's LAN address: its clients are
    not loopback, so not the host without the key."""
    address = lan_address()
    assert not address.startswith("127."), "the test needs a LAN address on this machine"
    port = free_port()
    server = Server(tmp_path / "lan.db", tmp_path / "lan.log", port=port, args=[
        "serve", "--host", "0.0.0.0", "--port", str(port), "--db", str(tmp_path / "lan.db"),
        "--no-mdns"])
    server.start()
    yield server, f"http://{address}:{port}"
    server.stop()


def test_a_guest_sees_tables_and_the_hosts_link_makes_a_host(
    chromium: Any, lan_server: tuple[Server, str]
) -> None:
    server, lan = lan_server
    kept = server.create_table("texas_dozen", ["Ann", "Bob"], name="Keep me")
    server.create_table("texas_dozen", ["Cy", "Dee"], name="Old one")
    key = re.search(r"Host key: (\S+) ", server.output())
    assert key is not None
    status, cup = server.api("POST", "/api/tournaments", {
        "name": "Cup", "buy_in": 10, "chips": 1000, "players": ["Eve", "Fay"],
        "levels": [{"minutes": 20, "small_blind": 10, "big_blind": 20}]}, token=key.group(1))
    assert status == 201, cup
    errors: list[str] = []
    shots = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
    for size, name in ((PHONE, "phone"), (TABLET, "tablet")):
        ctx = chromium.new_context(viewport=size)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(lan + "/")
        assert page.locator("#guest-note").is_visible()
        assert not page.locator("#host-setup").is_visible()
        assert page.locator(".table-item[data-table-id]").count() == 3  # the Cup's one too
        assert page.locator(".delete-table:visible").count() == 0
        assert not page.locator("#season-link").is_visible()  # the season is the host's
        # a tournament is followed by its clock; its controls are the host's
        listed = page.locator(".tournament-item", has_text="Cup")
        expect(listed.get_by_role("link", name="Clock screen")).to_be_visible()
        assert not listed.get_by_role("link", name="Controls").is_visible()
        if shots:
            page.screenshot(path=str(Path(shots) / f"home-guest-{name}.png"), full_page=True)
        if name == "phone":
            ctx.close()
            continue
        # the host's QR code: the key is kept, the fragment leaves the address bar
        page.goto(f"{lan}/#host={key.group(1)}")
        page.locator("#host-setup").wait_for(state="visible")
        assert page.url == lan + "/"
        assert not page.locator("#guest-note").is_visible()
        page.reload()
        page.locator("#host-setup").wait_for(state="visible")
        assert page.locator("#season-link").is_visible()
        expect(page.locator(".tournament-item", has_text="Cup").get_by_role(
            "link", name="Controls")).to_be_visible()
        old = page.locator(".table-item", has_text="Old one")
        assert old.locator(".table-size").inner_text() == "empty"
        if shots:
            page.screenshot(path=str(Path(shots) / "home-host-tablet.png"), full_page=True)
        page.once("dialog", lambda dialog: dialog.accept())
        old.locator(".delete-table").click()
        page.locator(".table-item", has_text="Old one").wait_for(state="detached")
        ctx.close()
    assert errors == []
    status, tables = server.api("GET", "/api/tables")
    assert status == 200
    assert [t["id"] for t in tables] == [cup["tables"][0]["id"], kept["id"]]
