"""The host's history page in Chromium after three King's Pot deals played through the API (the
deals of tests/test_history.py): the exact ledger, settle-up, deals and charts; the replay
stepped through with its buttons; the JSON export from the dealer's device; and a copy of the
table imported with its deals a week apart, shown as three nights.

Set ``DEALER_ASSIST_SCREENSHOTS=docs/screenshots`` to save history-*.png at tablet and phone
sizes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from test_history import play_kings_pot_night

pytestmark = pytest.mark.browser


class ApiDealer:
    """``Dealer.run`` over HTTP against the live server."""

    def __init__(self, server: Any, created: dict[str, Any]) -> None:
        self.server = server
        self.id = created["id"]
        self.token = created["dealer_token"]

    def run(self, *bodies: dict[str, Any]) -> dict[str, Any]:
        state: dict[str, Any] = {}
        for body in bodies:
            status, answer = self.server.api("POST", f"/api/tables/{self.id}/actions", body,
                                             token=self.token)
            assert status == 200, (body, answer)
            state = answer["state"]
        return state


def ledger_row(page: Page, name: str) -> list[str]:
    row = page.locator(f'.ledger-table tr[data-player="{name}"]')
    return [row.locator(f"td.{cls}").inner_text() for cls in ("bought-in", "stack", "net")]


def shot(pages: Any, page: Page, name: str) -> None:
    if pages.shots:
        folder = Path(pages.shots)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"history-{name}.png"), full_page=True)


def test_history_page_after_three_deals(pages) -> None:  # type: ignore[no-untyped-def]
    server = pages.server
    created = server.create_table("kings_pot", ["Ann", "Bob", "Cy"], name="Friday")
    play_kings_pot_night(ApiDealer(server, created))
    t = pages.tablet
    t.goto(f"{server.url}/t/{created['id']}/history")

    expect(t.locator("h1#table-name")).to_have_text("Friday")
    assert ledger_row(t, "Ann") == ["100", "97", "-3"]
    assert ledger_row(t, "Bob") == ["150", "138", "-12"]
    assert ledger_row(t, "Cy") == ["100", "110", "+10"]
    expect(t.locator(".ledger-table tr.on-table td.stack")).to_have_text("5")
    # R76: the king's pot's chips are paid to the banker, here the host, never "the table"
    expect(t.locator("#transfers li")).to_have_text([
        "Bob pays Cy 10", "Ann pays the host 3", "Bob pays the host 2"])
    # the deals, newest first, each with its king's pot after it
    expect(t.locator(".deal")).to_have_count(3)
    expect(t.locator(".deal .carried-after strong")).to_have_text(["5", "2", "0"])
    expect(t.locator('.deal[data-deal="3"] .deal-result')).to_have_text(
        "Pot 9: Cy, queen high on row 2. The king's pot of 5 carries to the next deal.")
    expect(t.locator('.deal[data-deal="1"] .entry')).to_contain_text([
        "Bob buys in for 50 more", "Cy gives 3 to Ann — “Ann's ante was counted twice”"])
    expect(t.locator('.deal[data-deal="1"] .entry .tag')).to_have_text(["Rebuy", "Adjustment"])
    # the charts: inline SVG, one line per player, the king's pot over 0..3
    for chart in ("#chart-stacks", "#chart-kings-pot"):
        expect(t.locator(chart)).to_be_visible()
    expect(t.locator("#chart-stacks g[data-series]")).to_have_count(3)  # a line per player
    assert t.locator('#chart-stacks g[data-series="Cy"] polyline').first.get_attribute("points")
    expect(t.locator("#chart-kings-pot circle")).to_have_count(4)
    expect(t.locator("#chart-stacks text").filter(has_text="Cy")).to_have_text("Cy 110")
    # times are shown in the tablet's own zone, not as raw UTC
    assert "UTC" not in t.locator(".deal time").first.inner_text()

    # the replay of deal 1, step by step
    t.locator('.deal[data-deal="1"] a.replay-link').click()
    expect(t.locator("#step-count")).to_have_text("Step 1 of 22")
    expect(t.locator("#prev")).to_be_disabled()
    expect(t.locator("#grid .cell .card.back")).to_have_count(25)
    for _ in range(7):
        t.locator("#next").click()
    expect(t.locator("#step-count")).to_have_text("Step 8 of 22")
    expect(t.locator("#step-label")).to_have_text("Turned the cards marked 1.")
    expect(t.locator("#grid .cell .card.back")).to_have_count(20)
    expect(t.locator('[data-carried="kings_pot"] .pot-amount')).to_have_text("4")
    t.locator("#last").click()
    expect(t.locator("#step-count")).to_have_text("Step 22 of 22")
    expect(t.locator("#step-label")).to_have_text(
        "Adjustment: Cy gives 3 to Ann (Ann's ante was counted twice).")
    t.keyboard.press("ArrowLeft")
    t.keyboard.press("ArrowLeft")
    expect(t.locator("#step-count")).to_have_text("Step 20 of 22")
    expect(t.locator("#result .payouts li .takes")).to_have_text(["takes 14"])
    expect(t.locator("#grid .cell.win")).to_have_count(0)  # the king's hand won, not a line
    expect(t.locator('[data-place="king"].win')).to_be_visible()
    expect(t.locator('#players [data-player="Cy"] .player-stack')).to_have_text("109")
    shot(pages, t, "replay-tablet")

    # the dealer's device (token in its storage) gets the JSON export button
    t.goto(f"{server.url}/t/{created['id']}/history")
    expect(t.locator("#export-json")).to_be_hidden()
    t.evaluate("([k, v]) => localStorage.setItem(k, v)",
               [f"dealer-assist:token:{created['id']}", created["dealer_token"]])
    t.reload()
    with t.expect_download() as download:
        t.locator("#export-json").click()
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["format"] == "dealer-assist table" and len(exported["actions"]) == 51

    # the same deals a week apart: three nights, the king's pot carried from night to night
    days = {1: "2026-11-20T20:00:00+00:00", 2: "2026-11-27T20:00:00+00:00",
            3: "2026-12-04T20:00:00+00:00"}
    for record in exported["actions"]:
        record["time"] = days[record["deal"]]
    status, copy = server.api("POST", "/api/tables/import", exported)
    assert status == 201, copy
    for page, label in ((t, "tablet"), (pages.phone, "phone")):
        page.goto(f"{server.url}/t/{copy['id']}/history")
        expect(page.locator(".night")).to_have_count(3)
        expect(page.locator(".night h3").first).to_contain_text("Night 3")
        assert ledger_row(page, "Bob") == ["150", "138", "-12"]
        # the stylesheet shows the chart drawn for the screen's width
        visible, hidden = (("#chart-stacks", "#chart-stacks-narrow") if label == "tablet"
                           else ("#chart-stacks-narrow", "#chart-stacks"))
        expect(page.locator(visible)).to_be_visible()
        expect(page.locator(hidden)).to_be_hidden()
        shot(pages, page, label)
    pages.phone.goto(f"{server.url}/t/{copy['id']}/history/3#step=20")
    expect(pages.phone.locator("#step-count")).to_have_text("Step 20 of 20")
    expect(pages.phone.locator("#result .payouts li .takes")).to_have_text(["takes 9"])
    shot(pages, pages.phone, "replay-phone")
