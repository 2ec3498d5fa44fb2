"""A whole Texas Dozen deal (the seed example) played on the tablet page with a phone
following live: blinds, pre-flop, the flop's 15 highlighted cells, turn, river, showdown."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from browser.felt import type_cards

pytestmark = pytest.mark.browser

FLOP = ["r1c1", "r2c4", "r3c2", "r4c5", "r5c3", "r1c3", "r2c1", "r3c4", "r4c2", "r5c5",
        "r1c5", "r2c3", "r3c1", "r4c4", "r5c2"]
TURN = ["r1c2", "r2c5", "r3c3", "r4c1", "r5c4"]
RIVER = ["r1c4", "r2c2", "r3c5", "r4c3", "r5c1"]
# Row 1 is 9h Th Jh 2c 3d and column 2 is Th Ac 4s 4d Kc, as in the seed's example.
GRID = {
    "r1c1": "9h", "r1c2": "Th", "r1c3": "Jh", "r1c4": "2c", "r1c5": "3d",
    "r2c1": "2d", "r2c2": "Ac", "r2c3": "5c", "r2c4": "6d", "r2c5": "9s",
    "r3c1": "3s", "r3c2": "4s", "r3c3": "8c", "r3c4": "8d", "r3c5": "Qs",
    "r4c1": "5s", "r4c2": "4d", "r4c3": "2s", "r4c4": "6c", "r4c5": "9d",
    "r5c1": "Tc", "r5c2": "Kc", "r5c3": "3c", "r5c4": "Qd", "r5c5": "7s",
}


def instruction(page: Page, text: str) -> None:
    expect(page.locator("#instruction")).to_have_text(text)


# The phone says what the dealer is doing where the tablet says what to do (issue 13).
PHONE_WORDS = {
    "Deal two hole cards to each player, then tap Next.":
        "The dealer is dealing two hole cards to each player.",
    "Turn the flop (marked 1, 2 and 3): 15 cards, framed.":
        "The dealer is turning the flop (marked 1, 2 and 3): 15 cards.",
    "Turn the turn card of every line (marked 4): 5 cards, framed.":
        "The dealer is turning the turn card of every line (marked 4): 5 cards.",
    "Turn the river card of every line (marked 5): 5 cards, framed.":
        "The dealer is turning the river card of every line (marked 5): 5 cards.",
    "Showdown: enter the hole cards of A, B and the grid cards not entered yet (5).":
        "Showdown: A, B show their hole cards.",
}


def both(pages, text: str) -> None:  # type: ignore[no-untyped-def]
    instruction(pages.tablet, text)
    instruction(pages.phone, PHONE_WORDS.get(text, text))


def tap(page: Page, selector: str) -> None:
    page.locator(selector).click()


def cells(page: Page, cls: str) -> list[str]:
    return page.locator(f"#grid .cell.{cls}").evaluate_all(
        "els => els.map(e => e.dataset.cell)")


def stacks(page: Page, expected: dict[str, int]) -> None:
    for name, stack in expected.items():
        expect(page.locator(f'#players [data-player="{name}"] .player-stack')).to_have_text(
            f"{stack:,}")


def test_texas_dozen_deal_on_tablet_and_phone(pages) -> None:  # type: ignore[no-untyped-def]
    created = pages.server.create_table("texas_dozen", ["A", "B"], name="Seed example")
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    expect(ph.locator("#conn")).to_have_attribute("data-status", "live")

    tap(t, '[data-action="start_deal"]')
    both(pages, "Deal two hole cards to each player, then tap Next.")
    # heads up: the dealer (A) posts the small blind, B the big blind
    for page in (t, ph):
        stacks(page, {"A": 99, "B": 98})
        expect(page.locator('#players [data-player="A"] .dealer-button')).to_have_count(1)
    tap(t, '[data-action="next"]')
    both(pages, "Pre-flop: A: 1 to call.")
    expect(t.locator('[data-action="call"]')).to_have_text("Call 1")
    tap(t, '[data-action="call"]')
    instruction(t, "Pre-flop: B: check or raise.")
    tap(t, '[data-action="check"]')

    # the flop: exactly the cells marked 1, 2 and 3 are highlighted, on both pages
    both(pages, "Turn the flop (marked 1, 2 and 3): 15 cards, framed.")
    for page in (t, ph):
        expect(page.locator("#grid .cell.highlight")).to_have_count(15)
        assert sorted(cells(page, "highlight")) == sorted(FLOP)
    type_cards(t, "reveal", " ".join(GRID[c] for c in FLOP))
    tap(t, '[data-action="reveal"]')
    both(pages, "Flop: B: check or bet.")
    expect(ph.locator('.cell[data-cell="r1c3"] .card')).to_have_attribute("data-card", "Jh")
    for page in (t, ph):
        expect(page.locator('.pot[data-pot="0"] .pot-amount')).to_have_text("4")
    tap(t, '[data-preset="Pot"]')
    expect(t.locator("#amount")).to_have_value("4")
    tap(t, '[data-action="bet"]')
    instruction(t, "Flop: A: 4 to call.")
    tap(t, '[data-action="call"]')

    # the turn: tapped in on the picker
    both(pages, "Turn the turn card of every line (marked 4): 5 cards, framed.")
    for page in (t, ph):
        expect(page.locator("#grid .cell.highlight")).to_have_count(5)
        assert sorted(cells(page, "highlight")) == sorted(TURN)
    for c in TURN:
        tap(t, f'.picker button.pick[data-card="{GRID[c]}"]')
    tap(t, '[data-action="reveal"]')
    instruction(t, "Turn: B: check or bet.")
    tap(t, '[data-action="check"]')
    instruction(t, "Turn: A: check or bet.")
    tap(t, '[data-action="check"]')

    # the river: turned without entering; the cards come at the showdown
    both(pages, "Turn the river card of every line (marked 5): 5 cards, framed.")
    tap(t, '[data-action="reveal"]')
    instruction(t, "River: B: check or bet.")
    t.locator("#amount").fill("10")
    expect(t.locator('[data-action="bet"]')).to_have_text("Bet 10")
    tap(t, '[data-action="bet"]')
    both(pages, "River: A: 10 to call.")
    t.locator("#amount").fill("30")
    tap(t, '[data-action="raise"]')
    instruction(t, "River: B: 20 to call.")
    tap(t, '[data-action="call"]')
    both(pages, "Showdown: enter the hole cards of A, B and the grid cards not entered yet (5).")
    for page in (t, ph):
        expect(page.locator('.pot[data-pot="0"] .pot-amount')).to_have_text("72")
        stacks(page, {"A": 64, "B": 64})

    type_cards(t, "cells", " ".join(GRID[c] for c in RIVER))
    type_cards(t, "p:A", "As Ad")
    type_cards(t, "p:B", "7h 8h")
    tap(t, '[data-action="showdown"]')
    instruction(t, "The deal is over: tap Start deal for the next one.")
    for page in (t, ph):
        stacks(page, {"A": 64, "B": 136})
        expect(page.locator('.payouts [data-player="B"] .net')).to_have_text("+36")
        expect(page.locator('.payouts [data-player="B"] .takes')).to_have_text("takes 72")
        expect(page.locator('.payouts [data-player="A"] .net')).to_have_text("−36")
        expect(page.locator("#winning-lines")).to_have_text(
            "Winning line: Row 1 — B: Straight flush, jack high")
        expect(page.locator('.hands [data-player="B"]')).to_have_class(re.compile(r"\bwin\b"))
        expect(page.locator('.hands [data-player="B"] .hand')).to_have_text(
            "Straight flush, jack high — Row 1")
        expect(page.locator('.hands [data-player="A"] .hand')).to_have_text(
            "Full house, aces full of fours — Column 2")
        assert sorted(cells(page, "win")) == ["r1c1", "r1c2", "r1c3", "r1c4", "r1c5"]


def test_a_big_tablet_gets_big_targets(pages) -> None:  # type: ignore[no-untyped-def]
    """At 1280x800 every button of the card picker and every action is at least 56 px (the
    smaller tablets' 44 px, in both orientations, are the matrix's: test_matrix_page.py)."""
    created = pages.server.create_table("texas_dozen", ["A", "B"], name="Sizes")
    pages.open(created)
    t = pages.tablet
    for body in ({"type": "start_deal"}, {"type": "next"}, {"type": "call", "player": "A"},
                 {"type": "check", "player": "B"}):
        status, _ = pages.server.api("POST", f"/api/tables/{created['id']}/actions", body,
                                     token=created["dealer_token"])
        assert status == 200
    expect(t.locator("#instruction")).to_contain_text("Turn the flop")
    t.set_viewport_size({"width": 1280, "height": 800})
    boxes = t.locator(".picker button.pick, [data-action]").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [e.textContent, r.width, r.height]; })")
    assert len(boxes) >= 52
    small = [b for b in boxes if b[1] < 56 or b[2] < 54]
    assert not small, small
    assert t.evaluate("document.documentElement.scrollWidth") <= 1280
