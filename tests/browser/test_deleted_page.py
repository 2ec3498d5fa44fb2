"""What the screens still open on a deleted table or tournament do (R94), in Chromium against a
real server: the host's delete reaches the TV clock, the host's page on another device, the
dealer's tablet and the phones at once; each says so in the server's sentence and stops (no
clock counting on, no poll or reconnect asking again). A page opened or coming back after
the delete says the same. Each such page is looked at as tests/browser/look.py looks.

Set ``DEALER_ASSIST_SCREENSHOTS=docs/screenshots`` to save clock-tv-deleted-light.png,
tablet-deleted-light.png and phone-deleted-dark.png (docs/tournaments.md)."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from browser.conftest import PHONE, TABLET, LiveServer
from browser.look import problems, shot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

TV = {"width": 1920, "height": 1080}
LEVELS = [{"minutes": 15, "small_blind": 25, "big_blind": 50},
          {"minutes": 15, "small_blind": 50, "big_blind": 100}]
WITHIN_MS = 2000  # from the host's answer to every open screen saying so


class Screens:
    """Pages opened on one server, each one's console errors and requests to the server
    counted (the requests a page makes after it has stopped must be none)."""

    def __init__(self, browser: Browser, server: LiveServer) -> None:
        self.browser, self.server = browser, server
        self.errors: list[str] = []
        self.asked: list[str] = []
        self.status: dict[Page, int] = {}  # each page's own HTTP status

    def open(self, path: str, size: dict[str, int], theme: str = "light") -> Page:
        context = self.browser.new_context(viewport=size, device_scale_factor=1,
                                           color_scheme=theme, has_touch=size is not TV,
                                           is_mobile=size is PHONE)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda exc: self.errors.append(f"{path}: {exc}"))
        # a refused read is a 404 the page expects: Chromium logs it, the page says so itself
        page.on("console", lambda msg: self.errors.append(f"{path}: {msg.text}")
                if msg.type == "error" and "404" not in msg.text else None)
        page.on("request", self.note)
        response = page.goto(f"{self.server.url}{path}")
        self.status[page] = response.status if response is not None else 0
        return page

    def note(self, request: Request) -> None:
        if "/api/" in request.url or "/socket.io/" in request.url:
            self.asked.append(request.url)

    def quiet_for(self, page: Page, ms: int) -> list[str]:
        """The requests made to the server over ``ms`` milliseconds."""
        before = len(self.asked)
        page.wait_for_timeout(ms)
        return self.asked[before:]


def test_r94_every_open_screen_of_a_deleted_tournament_says_so_and_stops(
        chromium: Browser, live_server: LiveServer) -> None:
    status, created = live_server.api("POST", "/api/tournaments", {
        "name": "Friday", "buy_in": 20, "chips": 5000, "seats": 6, "tables": 2,
        "levels": LEVELS, "players": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]})
    assert status == 201, created
    tournament = created["id"]
    table = created["tables"][0]
    status, _ = live_server.api("POST", f"/api/tournaments/{tournament}/actions",
                                {"type": "resume"})
    assert status == 200
    dealer = urlsplit(table["dealer_url"])
    screens = Screens(chromium, live_server)
    tv = screens.open(f"/c/{tournament}", TV)
    host = screens.open(f"/tournaments/{tournament}", TABLET)
    tablet = screens.open(f"{dealer.path}#{dealer.fragment}", TABLET)
    phone = screens.open(f"/t/{table['id']}", PHONE, "dark")
    for page in (tv, tablet, phone):
        expect(page.locator("#conn")).to_have_attribute("data-status", "live")
    expect(tablet.locator("#tournament-bar")).to_contain_text("Level 1")
    expect(phone.locator("#tournament-bar")).to_contain_text("Level 1")
    expect(host.locator("#clock-toggle")).to_have_text("Pause")

    status, body = live_server.api("DELETE", f"/api/tournaments/{tournament}")
    assert status == 200, body
    said = "The host deleted Friday: it is no longer on this server."
    expect(tv.locator("#stale")).to_have_text(said, timeout=WITHIN_MS)
    expect(tv.locator("#clock")).to_be_hidden()
    expect(tv.locator("#conn .conn-text")).to_have_text("Deleted")
    expect(host.locator("#tournament-error")).to_have_text(said, timeout=WITHIN_MS)
    expect(host.locator(".clock-panel")).to_be_hidden()
    expect(host.locator("#delete-tournament")).to_be_hidden()
    expect(host.locator("#clock-link")).to_be_hidden()
    for page in (tablet, phone):
        expect(page.locator("#stale")).to_have_text(said, timeout=WITHIN_MS)
        expect(page.locator("#conn .conn-text")).to_have_text("Deleted")
        expect(page.locator("#tournament-bar")).to_be_hidden()
        expect(page.locator("body")).to_have_class(re.compile(r"\bgone\b"))
    # stopped: nothing asks the server again (the clock's level end, a poll, a reconnect)
    assert screens.quiet_for(tv, 3000) == []
    for page in (tv, host, tablet, phone):
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    tv.evaluate("window.dispatchEvent(new Event('online'))")
    phone.evaluate("window.dispatchEvent(new Event('online'))")
    later = screens.quiet_for(tv, 1500)
    assert all("/socket.io/" not in url for url in later), later

    for page, name in ((tv, "clock-tv-deleted"), (tablet, "tablet-deleted"),
                       (phone, "phone-deleted")):
        for which in ("light", "dark"):
            page.emulate_media(color_scheme=which)
            page.wait_for_timeout(150)
            found = problems(page, instruction_min=None)
            assert not found, f"{name} {which}:\n" + "\n".join(found)
            if (name, which) in (("clock-tv-deleted", "light"), ("tablet-deleted", "light"),
                                 ("phone-deleted", "dark")):
                shot(page, f"{name}-{which}")

    # a TV switched on after the delete, and a phone coming back to the table's link: 404s
    late_tv = screens.open(f"/c/{tournament}", TV)
    late_phone = screens.open(f"/t/{table['id']}", PHONE)
    assert (screens.status[late_tv], screens.status[late_phone]) == (404, 404)
    expect(late_tv.locator("body")).not_to_contain_text("Level 1")
    for page in (tv, host, tablet, phone, late_tv, late_phone):
        page.context.close()
    assert not screens.errors, "\n".join(screens.errors)


def test_r94_a_deleted_tables_phones_and_tablet_say_so_and_stop(
        chromium: Browser, live_server: LiveServer) -> None:
    created = live_server.create_table("texas_holdem", ["Ann", "Bob", "Cy"], name="Kitchen")
    dealer = urlsplit(created["dealer_url"])
    screens = Screens(chromium, live_server)
    tablet = screens.open(f"{dealer.path}#{dealer.fragment}", TABLET)
    phone = screens.open(f"/t/{created['id']}", PHONE)
    for page in (tablet, phone):
        expect(page.locator("#conn")).to_have_attribute("data-status", "live")

    status, body = live_server.api("DELETE", f"/api/tables/{created['id']}")
    assert status == 200, body
    said = "The host deleted this table: it is no longer on this server."
    for page in (tablet, phone):
        expect(page.locator("#stale")).to_have_text(said, timeout=WITHIN_MS)
        expect(page.locator("#conn .conn-text")).to_have_text("Deleted")
    assert screens.quiet_for(phone, 2500) == []
    for page in (tablet, phone):
        found = problems(page, instruction_min=None)
        assert not found, "\n".join(found)
        page.context.close()
    assert not screens.errors, "\n".join(screens.errors)
