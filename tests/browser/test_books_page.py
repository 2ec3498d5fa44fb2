"""Issue 24 in Chromium: a season of two Fridays and a Saturday at two tables
(tests/books_scenario.py), played through a real server of its own, then read as a host reads
it: the settle-up with the banker and a payment link, copied as text; each night's summary on a
phone and on one printed sheet; the season with its date range and aliases; the charts' shapes
(a newcomer's line starts at her seat, a cash-out ends a line); and the history, replay, night
and season pages in both themes as tests/browser/look.py looks at a page (axe-core, targets of
44x44 px, no sideways scroll, no word broken). Then a banker chosen on the home page, and a
Hold'em deal's hand history in PHH downloaded from the history page, the public one and the
dealer's, each read by PokerKit.

Set ``DEALER_ASSIST_SCREENSHOTS=docs/screenshots`` to save the books-*.png docs/history.md
shows, at phone and tablet sizes, light and dark."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from books_scenario import SEASON, play_season
from playwright.sync_api import Browser, Page, expect
from pokerkit import HandHistory

from browser.look import problems
from browser.test_history_page import ApiDealer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
SHOTS = os.environ.get("DEALER_ASSIST_SCREENSHOTS")


class LiveHost:
    """books_scenario's Host over HTTP, on the server's own machine (the host)."""

    def __init__(self, server: Any) -> None:
        self.server = server

    def table(self, variant: str, players: list[str], rules: dict[str, Any],
              name: str) -> Any:
        return ApiDealer(self.server, self.server.create_table(variant, players, name, rules))

    def export(self, d: Any) -> dict[str, Any]:
        status, body = self.server.api("GET", f"/api/tables/{d.id}/export.json", token=d.token)
        assert status == 200, body
        return dict(body)

    def copy(self, exported: dict[str, Any]) -> str:
        status, body = self.server.api("POST", "/api/tables/import", exported)
        assert status == 201, body
        return str(body["id"])

    def delete(self, d: Any) -> None:
        assert self.server.api("DELETE", f"/api/tables/{d.id}")[0] == 200


def page_for(browser: Browser, size: dict[str, int], theme: str, errors: list[str]) -> Page:
    context = browser.new_context(viewport=size, device_scale_factor=1, color_scheme=theme,
                                  has_touch=True, is_mobile=size is PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda exc: errors.append(f"{exc}"))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return page


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"books-{name}.png"), full_page=True)


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), page.url


# look.py lets a link pass as one in a sentence wherever other words share its parent; on the
# books' pages only a link inside a paragraph is one, and every other is a target ("Deal 3",
# "Replay step by step", a night's "Summary", a payment link)
LINKS_OUT_OF_SENTENCES = """() => [...document.querySelectorAll("a[href]")]
  .filter((a) => a.getClientRects().length && !a.closest("p"))
  .map((a) => [a, a.getBoundingClientRect()])
  .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
  .map(([a, r]) => `link "${a.textContent.trim()}" `
    + `${Math.round(r.width)}x${Math.round(r.height)}`)"""


def looked_at(page: Page, where: str) -> list[str]:
    found = problems(page, instruction_min=None) + page.evaluate(LINKS_OUT_OF_SENTENCES)
    return [f"{where}: {p}" for p in found]


def pdf_pages(page: Page) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4")))


def test_r76_r77_r78_books_two_nights_at_two_tables(chromium: Browser,
                                                    start_server: Any) -> None:
    browser = chromium
    server = start_server()
    ids = play_season(LiveHost(server))
    assert server.api("POST", "/api/people/aliases", {"name": "Bobby", "is": "Bob"})[0] == 201
    assert server.api("PUT", "/api/people/Cy", {"pay_to": "venmo @cy-g"})[0] == 200
    friday = ids["friday"]
    errors: list[str] = []
    t = page_for(browser, TABLET, "light", errors)

    # ---- the table's history: the banker, the settle-up between people, a link to pay Cy
    t.goto(f"{server.url}/t/{friday}/history")
    expect(t.locator("#transfers li .pays")).to_have_text([
        "Bob pays Cy 10", "Bob pays Ann 2", "Bob pays Di 1"])
    expect(t.locator('#transfers li[data-to="Cy"] .pay-to a')).to_have_attribute(
        "href", "https://venmo.com/u/cy-g")
    expect(t.locator("#banker")).to_have_text("Ann holds 5 for the king's pot.")
    expect(t.locator('.ledger-table tr[data-player="Ann"] .banker-tag')).to_have_text("banker")
    # the deal of another game shows the king's pot that waited through it (R72)
    expect(t.locator('.deal[data-deal="4"] .carried-after.waiting')).to_have_text(
        "King's pot waiting 5")
    t.locator("#copy-settle").click()
    expect(t.locator("#copy-status")).to_have_text("Copied: paste it into the group chat.")
    assert t.evaluate("navigator.clipboard.readText()").splitlines() == [
        "Friday: settle-up after deal 4", "Bob pays Cy 10 (Cy: venmo @cy-g)", "Bob pays Ann 2",
        "Bob pays Di 1", "Ann holds 5 for the king's pot."]

    # ---- the charts' shapes: Di's line starts at her seat after deal 3, Cy's ends at deal 4
    # with his cash-out, Bob's rebuy is a marked jump, not a win
    def tick_x(chart: str, label: str) -> float:
        return float(t.locator(f"{chart} text", has_text=re.compile(f"^{label}$")).first
                     .get_attribute("x") or "nan")

    di = t.locator('#chart-stacks g[data-series="Di"]')
    expect(di).to_have_attribute("data-first-x", "3")
    assert float(di.locator('[data-mark="seat"]').get_attribute("cx") or "nan") == tick_x(
        "#chart-stacks", "3")
    assert tick_x("#chart-stacks", "3") > tick_x("#chart-stacks", "start")
    cy = t.locator('#chart-stacks g[data-series="Cy"]')
    expect(cy).to_have_attribute("data-last-x", "4")
    expect(cy.locator('[data-mark="cash_out"]')).to_have_count(1)
    expect(t.locator('#chart-stacks g[data-series="Bob"] [data-mark="rebuy"]')).to_have_count(1)
    expect(t.locator('#chart-net g[data-series="Bob"] [data-mark="rebuy"]')).to_have_count(1)
    bob_net = t.locator('#chart-net g[data-series="Bob"] line[data-entry="rebuy"]')
    assert bob_net.get_attribute("y1") == bob_net.get_attribute("y2")  # a rebuy is no win
    expect(t.locator("#chart-kings-pot circle")).to_have_count(5)

    # ---- night 2 on a phone: its own settle-up, and one printed sheet
    p = page_for(browser, PHONE, "dark", errors)
    p.goto(f"{server.url}/t/{friday}/nights/2")
    expect(p.locator("#night-people tbody tr")).to_have_count(4)
    expect(p.locator('#night-people tr[data-player="Di"] .net')).to_have_text("+1")
    expect(p.locator("#transfers li .pays")).to_have_text(["Bob pays Di 1"])
    expect(p.locator("#banker")).to_have_text("Ann still holds 5 for the king's pot.")
    no_sideways_scroll(p)
    shot(p, "night-phone-dark")
    p.goto(f"{server.url}/t/{friday}/nights/1")
    expect(p.locator("#transfers li .pays")).to_have_text(["Bob pays Cy 10", "Bob pays Ann 2"])
    expect(p.locator("#biggest-pots li .amount")).to_have_text(["14", "9"])
    assert pdf_pages(p) == 1

    # ---- the season: both tables, Bobby joined to Bob, the bank apart
    t.goto(f"{server.url}/league")
    rows = t.locator("#season-rows tr")
    expect(rows).to_have_count(len(SEASON))

    def season_rows() -> list[tuple[Any, ...]]:
        return [tuple(rows.nth(i).locator("th, td").all_inner_texts())
                for i in range(rows.count())]

    def shown(row: tuple[Any, ...]) -> tuple[str, ...]:
        name, nights, deals, bought, cashed, stack, net, biggest = row
        return (name, f"{net:+,}" if net else "0", str(nights), str(deals), f"{bought:,}",
                f"{cashed:,}", f"{stack:,}", f"{biggest:,}")

    assert season_rows() == [shown(r) for r in SEASON]
    expect(t.locator("#season-bank")).to_have_text(
        "Still held by the tables' bankers, not shared out: 5.")
    expect(t.locator("#league-chart-wide svg#chart-league")).to_be_attached()
    expect(t.locator('#chart-league g[data-series="Di"]')).to_have_attribute("data-first-x", "3")
    expect(t.locator("#aliases li")).to_contain_text(["Bobby is Bob"])
    t.fill("#from", "2026-11-21")
    t.fill("#to", "2026-11-21")
    t.locator("#range button[type=submit]").click()
    expect(t.locator("#season-rows tr th")).to_have_text(["Bob", "Ann", "Eve"])
    expect(t.locator("#season-span")).to_have_text("Nights from 2026-11-21 to 2026-11-21.")
    t.locator("#all-nights").click()
    expect(rows).to_have_count(len(SEASON))
    # undo the alias on the page: Bobby is a person again, Bob's figures his own
    t.locator("#aliases li", has_text="Bobby").get_by_role("button", name="Undo").click()
    expect(t.locator("#people-status")).to_have_text("Bobby and Bob are two people again.")
    expect(t.locator('#season-rows tr[data-person="Bobby"] .net')).to_have_text("+1")
    expect(t.locator('#season-rows tr[data-person="Bob"] .net')).to_have_text("-13")
    t.fill("#alias-name", "Bobby")
    t.fill("#alias-is", "Bob")
    t.locator("#alias-form button").click()
    expect(t.locator("#people-status")).to_have_text("Bobby is Bob from now on.")
    expect(rows).to_have_count(len(SEASON))
    shot(t, "league-tablet-light")

    # ---- every page of the books, both themes (the system's), phone and tablet: axe-core,
    # 44 px targets, no sideways scroll, no word broken
    found: list[str] = []
    for theme in ("light", "dark"):
        for size, label in ((TABLET, "tablet"), (PHONE, "phone")):
            page = page_for(browser, size, theme, errors)
            for path in (f"/t/{friday}/history", f"/t/{friday}/history/1#step=20",
                         f"/t/{friday}/nights/2", "/league"):
                page.goto(f"{server.url}{path}")
                if path == "/league":
                    expect(page.locator("#season-rows tr")).to_have_count(len(SEASON))
                    expect(page.locator("#league-chart-narrow svg")).to_be_attached()
                if "#step" in path:
                    expect(page.locator("#step-count")).to_have_text("Step 20 of 22")
                expect(page.locator("html")).to_have_attribute("data-theme", theme)
                found += looked_at(page, f"{path}, {label}, {theme}")
            # the docs show the history in both themes on a tablet, the rest dark on a phone
            if (label, theme) == ("phone", "dark"):
                shot(page, "league-phone-dark")
            if SHOTS and (label, theme) != ("phone", "light"):
                page.goto(f"{server.url}/t/{friday}/history")
                shot(page, f"history-{label}-{theme}")
            page.context.close()
    assert not found, "\n".join(found)
    assert not errors, errors


def downloaded(page: Page, link: Any) -> str:
    with page.expect_download() as download:
        link.click()
    return Path(download.value.path()).read_text()


def final_stacks(text: str) -> list[int]:
    """PokerKit's replay of one PHH hand: its stacks at the end."""
    states = list(HandHistory.loads(text))
    return list(states[-1].stacks)


def test_r76_a_banker_chosen_at_home_and_a_holdem_deal_in_phh(chromium: Browser,
                                                              live_server: Any) -> None:
    server = live_server
    errors: list[str] = []
    t = page_for(chromium, TABLET, "light", errors)
    t.goto(f"{server.url}/")
    expect(t.locator("#season-link")).to_be_visible()  # this machine is the host
    expect(t.locator("#season-link")).to_have_attribute("href", "/league")
    t.locator('input[name="variant"][value="texas_holdem"]').check()
    banker = t.locator('#rules [data-rule="banker"] select')
    expect(banker.locator("option")).to_have_text(["The host (default)"])
    for name in ("Ann", "Bob", "Cy"):
        t.fill("#new-player", name)
        t.locator("#add-player").click()
    expect(banker.locator("option")).to_have_text(["The host (default)", "Ann", "Bob", "Cy"])
    banker.select_option(label="Bob")
    # a player removed leaves the list; the banker chosen stays chosen through a game changed
    t.locator('#player-list li[data-index="2"] button[aria-label="Remove"]').click()
    t.locator('input[name="variant"][value="texas_dozen"]').check()
    t.locator('input[name="variant"][value="texas_holdem"]').check()
    expect(banker.locator("option")).to_have_text(["The host (default)", "Ann", "Bob"])
    expect(banker.locator("option:checked")).to_have_text("Bob")
    t.locator("#create-table").click()
    t.wait_for_url("**/dealer")
    table_id = t.url.split("/t/")[1].split("/")[0]
    token = t.evaluate("(id) => localStorage.getItem(`dealer-assist:token:${id}`)", table_id)
    status, ledger = server.api("GET", f"/api/tables/{table_id}/ledger")
    assert status == 200 and ledger["banker"]["name"] == "Bob", ledger

    # a deal to the showdown: Ann (the dealer, the small blind) raises, Bob goes all in, Ann
    # calls; Ann's aces beat Bob's kings
    ApiDealer(server, {"id": table_id, "dealer_token": token}).run(
        {"type": "start_deal"}, {"type": "next"},
        {"type": "raise", "player": "Ann", "amount": 10}, {"type": "all_in", "player": "Bob"},
        {"type": "call", "player": "Ann"}, {"type": "reveal"}, {"type": "reveal"},
        {"type": "reveal"},
        {"type": "showdown", "board": ["As", "Kd", "7c", "2h", "9s"],
         "hands": {"Ann": ["Ah", "Ad"], "Bob": ["Kh", "Ks"]}})

    # the dealer's device: the hand history with every card the dealer entered
    t.goto(f"{server.url}/t/{table_id}/history")
    expect(t.locator('.ledger-table tr[data-player="Bob"] .banker-tag')).to_have_text("banker")
    expect(t.locator("#dealer-view")).to_be_visible()
    dealers = downloaded(t, t.locator('.deal[data-deal="1"] a.phh-link'))
    assert 'variant = "NT"' in dealers and "d dh p1 KhKs" in dealers, dealers
    assert final_stacks(dealers) == [0, 200]  # PHH's seats: Bob (the big blind), Ann

    # anyone else: a plain link to the public one, the hole cards only as they were shown
    p = page_for(chromium, PHONE, "dark", errors)
    p.goto(f"{server.url}/t/{table_id}/history")
    expect(p.locator("#dealer-view")).to_be_hidden()
    link = p.locator('.deal[data-deal="1"] a.phh-link')
    expect(link).to_have_attribute("href", f"/api/tables/{table_id}/deals/1.phh")
    public = downloaded(p, link)
    assert "d dh p1 ????" in public and "p1 sm KhKs" in public, public
    assert final_stacks(public) == [0, 200]
    whole = downloaded(p, p.locator("#table-phh"))
    assert [list(list(hand)[-1].stacks) for hand in HandHistory.loads_all(whole)] == [[0, 200]]
    found = looked_at(p, "history, phone, dark") + looked_at(t, "history, tablet, light")
    assert not found, "\n".join(found)
    for page in (t, p):
        page.context.close()
    assert not errors, errors
