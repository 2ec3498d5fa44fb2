"""A night played from the tablet's between-deal screen alone (RULES.md R70-R74), a phone
following: three deals of three games, a player seated between deals 1 and 2, one cashing out
after deal 2, an accidental start undone, a correction, and the king's pot waiting."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def tap(page: Page, selector: str) -> None:
    page.locator(selector).first.click()


def between(page: Page) -> None:
    """The between-deal screen is up."""
    expect(page.locator("#between")).to_be_visible()


def fold_to_the_end(page: Page) -> None:
    """Tap Next where the dealer deals, turn cards without entering them, and fold whoever
    is asked to bet, until the deal is over and the between-deal screen is back."""
    for _ in range(20):
        page.wait_for_function(
            "() => document.querySelector('#between') || document.querySelector("
            "'[data-action=\"next\"], [data-action=\"fold\"], [data-action=\"reveal\"]')")
        if page.locator("#between").count():
            return
        seq = page.locator("#seq").text_content()
        for action in ("fold", "next", "reveal"):
            button = page.locator(f'[data-action="{action}"]')
            if button.count():
                break
        button.first.click()
        expect(page.locator("#seq")).not_to_have_text(seq or "")
    raise AssertionError("the deal did not end")


def seated(page: Page) -> list[str]:
    return page.locator("#players [data-player]").evaluate_all(
        "els => els.map(e => e.dataset.player)")


def stack_of(page: Page, name: str) -> str:
    return page.locator(f'#between [data-player="{name}"] .bd-stack').inner_text()


def shot(page: Page, name: str, *, full: bool = False) -> None:
    folder = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
    if folder:
        if not full and name.startswith("tablet"):
            page.evaluate("window.scrollTo(0, 0)")
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=full)


def test_a_night_from_the_tablet_with_a_phone_following(pages) -> None:  # type: ignore[no-untyped-def]
    created = pages.server.create_table("kings_pot", ["Ann", "Bob", "Cy"], name="Night")
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    expect(ph.locator("#conn")).to_have_attribute("data-status", "live")
    # the phone is Bob's; before the first deal nobody reads "Out"
    ph.locator('[data-me="Bob"]').click()
    expect(ph.locator("#me .me-name-label")).to_have_text("Bob")
    expect(ph.locator("#players .player-status")).to_have_count(0)

    # deal 1, King's Pot: only Bob buys a card, so its ante stays in the king's pot (R29)
    between(t)
    tap(t, '#between [data-action="start_deal"]')
    tap(t, '.btn.buy[data-count="1"]')
    tap(t, '.btn.buy[data-count="0"]')
    tap(t, '.btn.buy[data-count="0"]')
    between(t)

    # a player arrives: Dee sits after Bob with 50 (R70)
    tap(t, '#between [data-do="seat"]')
    t.locator("#bd-seat-name").fill("Dee")
    t.locator("#bd-seat-stack").fill("50")
    t.locator("#bd-seat-after").select_option("Bob")
    tap(t, '[data-do="confirm-seat"]')
    expect(t.locator('#between [data-player="Dee"]')).to_be_visible()
    expect(ph.locator('#players [data-player="Dee"]')).to_be_visible()
    assert seated(ph) == ["Ann", "Bob", "Dee", "Cy"]

    # deal 2, dealer's choice: Texas Dozen; the king's pot waits (R72)
    game = t.locator('.bd-game[data-variant="texas_dozen"]')
    expect(game.locator(".bd-game-rules")).to_have_text(  # the server's line of its rules
        "No limit · blinds 1/2 · min bet 1")
    game.click()
    expect(t.locator('#between [data-action="start_deal"]')).to_have_text(
        "Start deal 2: Texas Dozen")
    shot(t, "tablet-between-deals")
    pages.shot_portrait("between-deals-portrait")
    tap(t, '#between [data-action="start_deal"]')
    expect(t.locator("#variant-name")).to_have_text("Texas Dozen")
    # the board of the game dealt, not the table's first game's grid (R71)
    expect(t.locator("#grid .grid.size5 .cell")).to_have_count(25)
    for page in (t, ph):
        expect(page.locator('[data-carried="kings_pot"][data-waiting]')).to_have_text(
            "King's pot waiting: 1")
    shot(ph, "phone-kings-pot-waiting", full=True)
    fold_to_the_end(t)
    assert stack_of(t, "Cy") == "101" and stack_of(t, "Dee") == "49"

    # Bob cashes out after deal 2 (R70)
    tap(t, '#between [data-player="Bob"] [data-do="leave"]')
    expect(t.locator(".bd-question")).to_have_text("Bob cashes out 99 and leaves the table?")
    tap(t, '[data-do="confirm-leave"]')
    expect(t.locator('#between [data-player="Bob"]')).to_have_count(0)
    expect(ph.locator('#players [data-player="Bob"]')).to_have_count(0)
    # Bob's phone says why he is no longer listed, and keeps his name until he chooses
    expect(ph.locator("#me-gone")).to_contain_text("Bob cashed out 99 and left the table.")
    expect(ph.locator("#me .me-pick")).to_have_count(0)
    shot(ph, "phone-cashed-out")

    # an accidental start, taken back (R74): between deals again, as it was, the game picked
    # before the start still picked
    tap(t, '.bd-game[data-variant="texas_holdem"]')
    tap(t, '#between [data-action="start_deal"]')
    expect(t.locator("#variant-name")).to_have_text("Texas Hold'em")
    expect(t.locator("#grid .board .cell")).to_have_count(5)
    expect(t.locator("#between")).to_have_count(0)
    expect(t.locator("#undo")).to_be_enabled()
    tap(t, "#undo")
    between(t)
    expect(t.locator("#info-text")).to_have_text("Undone: start deal")
    expect(ph.locator("#instruction")).to_have_text("The deal is over. The next one starts soon.")
    expect(t.locator('.bd-game[data-variant="texas_holdem"]')).to_have_attribute(
        "aria-checked", "true")
    expect(t.locator('#between [data-action="start_deal"]')).to_have_text(
        "Start deal 3: Texas Hold'em")
    shot(t, "tablet-start-undone")

    # a correction: Ann gives Cy 2 (R8)
    tap(t, '#between [data-do="adjust"]')
    t.locator("#bd-adjust-from").select_option("Ann")
    t.locator("#bd-adjust-to").select_option("Cy")
    t.locator("#bd-adjust-amount").fill("2")
    t.locator("#bd-adjust-note").fill("miscounted the pot")
    tap(t, '[data-do="confirm-adjust"]')
    expect(t.locator('#between [data-player="Cy"] .bd-stack')).to_have_text("103")
    assert stack_of(t, "Ann") == "98"
    expect(ph.locator('#players [data-player="Cy"] .player-stack')).to_have_text("103")

    # deal 3: Off-Road Stud, Dee sitting it out
    tap(t, '#between [data-player="Dee"] [data-do="sit_out"]')
    expect(t.locator('#between [data-player="Dee"] .bd-tag')).to_have_text("sitting out")
    tap(t, '.bd-game[data-variant="off_road_stud"]')
    tap(t, '#between [data-action="start_deal"]')
    expect(t.locator("#variant-name")).to_have_text("Off-Road Stud")
    for page in (t, ph):
        expect(page.locator('#players [data-player="Dee"] .player-sub')).to_have_text(
            "Sitting out")
    ph.locator('#players [data-player="Dee"]').scroll_into_view_if_needed()
    shot(ph, "phone-sitting-out")
    expect(ph.locator('[data-carried="kings_pot"][data-waiting]')).to_have_text(
        "King's pot waiting: 1")
    expect(t.locator("#grid .grid.size4 .cell")).to_have_count(16)
    fold_to_the_end(t)
    assert seated(ph) == ["Ann", "Dee", "Cy"]

    ledger = pages.tablet.request.get(f"{pages.server.url}/api/tables/{created['id']}/ledger")
    rows = {p["name"]: p for p in ledger.json()["players"]}
    assert (rows["Bob"]["left"], rows["Bob"]["cashed_out"], rows["Bob"]["net"]) == (True, 99, -1)
    assert rows["Dee"]["buy_ins"][0]["type"] == "late"
    history = pages.tablet.request.get(
        f"{pages.server.url}/api/tables/{created['id']}/history").json()
    assert [d["variant_name"] for d in history["deals"]] == [
        "King's Pot", "Texas Dozen", "Off-Road Stud"]
    # the history page names each deal's game and the night's comings and goings
    ph.goto(f"{pages.server.url}/t/{created['id']}/history")
    expect(ph.locator('[data-deal="2"] .deal-meta')).to_contain_text("Texas Dozen")
    expect(ph.locator('[data-deal="2"] .entry.leave')).to_contain_text(
        "Bob cashes out 99 and leaves")
    expect(ph.locator('#ledger [data-player="Dee"] .sub')).to_contain_text(
        "50 on sitting down after deal 1")
    expect(ph.locator('#ledger [data-player="Bob"] .sub.left')).to_have_text(
        "cashed out 99 and left after deal 2")
    shot(ph, "phone-history-night", full=True)
