"""Two tablets stay in sync; a stale tablet is told another device acted first; a phone that
lost its connection comes back to the current state without a reload."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TABLET = {"width": 1280, "height": 800}


def test_two_tablets_and_a_stale_one(pages, chromium) -> None:  # type: ignore[no-untyped-def]
    created = pages.server.create_table("texas_dozen", ["Ann", "Bob", "Cy"], name="Sync")
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    dealer = urlsplit(created["dealer_url"])
    dealer_url = f"{pages.server.url}{dealer.path}#{dealer.fragment}"

    # a second tablet, live: it follows the first one
    second = chromium.new_context(viewport=TABLET)
    try:
        t2 = second.new_page()
        t2.goto(dealer_url)
        expect(t2.locator("#conn")).to_have_attribute("data-status", "live")
        t.locator('[data-action="start_deal"]').click()
        expect(t2.locator("#instruction")).to_have_text(
            "Deal two hole cards to each player, then tap Next.")
        t2.locator('[data-action="next"]').click()
        expect(t.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
        expect(ph.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
    finally:
        second.close()

    # a third tablet whose live connection never comes up: it goes stale
    stale = chromium.new_context(viewport=TABLET)
    try:
        t3 = stale.new_page()
        t3.route_web_socket("**/socket.io/**", lambda ws: ws.close())
        t3.route("**/socket.io/**", lambda route: route.abort())
        t3.goto(dealer_url)
        expect(t3.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
        # its polls for the state (it knows it is not live) get no answer either
        t3.route(re.compile(r".*/api/tables/[^/]+$"), lambda route: route.abort()
                 if route.request.method == "GET" else route.continue_())
        t.locator('[data-action="call"]').click()  # Ann calls on the first tablet
        expect(t.locator("#instruction")).to_have_text("Pre-flop: Bob: 1 to call.")
        expect(t3.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
        t3.locator('[data-action="fold"]').click()  # Ann again, from the stale view
        expect(t3.locator("#error-text")).to_contain_text("The table has moved on")  # the server's
        expect(t3.locator("#instruction")).to_have_text("Pre-flop: Bob: 1 to call.")
        expect(t.locator('#players [data-player="Ann"]')).not_to_contain_text("Folded")
    finally:
        stale.close()


def test_phone_comes_back_after_losing_its_connection(pages) -> None:  # type: ignore[no-untyped-def]
    created = pages.server.create_table("texas_dozen", ["Ann", "Bob"], name="Sleepy")
    links: list[Any] = []

    def proxy(ws: Any) -> None:
        ws.connect_to_server()
        links.append(ws)

    pages.phone.route_web_socket("**/socket.io/**", proxy)
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    expect(ph.locator("#conn")).to_have_attribute("data-status", "live")
    assert links
    links[-1].close()  # the phone sleeps: its connection drops
    expect(ph.locator("#conn")).to_have_attribute("data-status", "reconnecting")
    t.locator('[data-action="start_deal"]').click()
    t.locator('[data-action="next"]').click()
    expect(t.locator("#instruction")).to_have_text("Pre-flop: Ann: 1 to call.")
    # Socket.IO reconnects by itself and the join brings the current state
    expect(ph.locator("#conn")).to_have_attribute("data-status", "live", timeout=15_000)
    expect(ph.locator("#instruction")).to_have_text("Pre-flop: Ann: 1 to call.")
    expect(ph.locator("#seq")).to_have_text(t.locator("#seq").inner_text())


def test_tablet_without_the_token_only_follows(pages, chromium) -> None:  # type: ignore[no-untyped-def]
    created = pages.server.create_table("kings_pot", ["Ann", "Bob", "Cy"])
    other = chromium.new_context(viewport=TABLET)
    try:
        page = other.new_page()
        page.goto(f"{pages.server.url}/t/{created['id']}/dealer")
        expect(page.locator("#actions .notice")).to_contain_text(
            "This device is not signed in as the dealer")
        expect(page.locator("[data-action]")).to_have_count(0)
        expect(page.locator("#undo")).to_be_disabled()
        expect(page.locator("#instruction")).to_have_text(  # the players' words
            "Waiting for the dealer to start the first deal.")
    finally:
        other.close()
