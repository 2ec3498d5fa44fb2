"""Issue 13 on the dealer's tablet: entries are never lost (a refused submit, a reload, an undo
of the showdown), one tap a card at the showdown, the themes, and bet presets that never
repeat an amount with all in shown once."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.felt import entered, in_menu, ring

pytestmark = pytest.mark.browser

DECK = [r + s for r in "AKQJT98765432" for s in "shdc"]


def tap(page: Page, selector: str) -> None:
    page.locator(selector).click()


def test_showdown_entries_survive_a_refusal_a_reload_and_an_undo(pages: Any) -> None:
    made = pages.server.create_table("texas_dozen", ["Ann", "Bob"])
    pages.open(made)
    t = pages.tablet
    tap(t, '[data-action="start_deal"]')
    tap(t, '[data-action="next"]')
    tap(t, '[data-action="call"]')
    tap(t, '[data-action="check"]')
    for _ in range(3):  # turn everything, entering nothing; check every round
        tap(t, '[data-action="reveal"]')
        for _ in range(2):
            tap(t, '[data-action="check"]')
    expect(t.locator("#instruction")).to_contain_text("Showdown")
    # one tap a card, in order: the 25 cells on the felt, then Ann's and Bob's hole cards
    expect(t.locator(".area-grid button[data-slot].target")).to_have_attribute("data-order", "0")
    cards = DECK[:29]
    for card in cards[:27]:
        tap(t, f'.picker button.pick[data-card="{card}"]')
    expect(t.locator(f'.picker button.pick[data-card="{cards[0]}"]')).to_be_disabled()
    # a refused submit (Bob's cards missing) keeps every card entered
    tap(t, '[data-action="showdown"]')
    expect(t.locator("#error-text")).to_have_text("Enter Bob's 2 hole cards, or muck Bob's hand.")
    assert entered(t, "cells") == cards[:25]
    assert entered(t, "p:Ann") == cards[25:27]
    # so does a reload
    t.reload()
    expect(t.locator("#instruction")).to_contain_text("Showdown")
    assert entered(t, "cells") == cards[:25]
    assert entered(t, "p:Ann") == cards[25:27]
    # tap a filled place to change it: the next card tapped goes there
    ring(t, "p:Ann", 1)
    tap(t, f'.picker button.pick[data-card="{DECK[40]}"]')
    assert entered(t, "p:Ann") == [cards[25], DECK[40]]
    for card in cards[27:29]:
        tap(t, f'.picker button.pick[data-card="{card}"]')
    tap(t, '[data-action="showdown"]')
    expect(t.locator("#instruction")).to_have_text(
        "The deal is over: tap Start deal for the next one.")
    # an undo of the showdown finds every card again, ready to correct and confirm
    tap(t, "#undo")
    expect(t.locator("#instruction")).to_contain_text("Showdown")
    assert entered(t, "cells") == cards[:25]
    assert entered(t, "p:Ann") == [cards[25], DECK[40]]
    assert entered(t, "p:Bob") == cards[27:29]
    tap(t, '[data-action="showdown"]')
    expect(t.locator("#instruction")).to_have_text(
        "The deal is over: tap Start deal for the next one.")


def test_kings_pot_showdown_taps_and_a_tap_on_the_kings_hand_to_change_it(pages: Any) -> None:
    made = pages.server.create_table("kings_pot", ["Ann", "Bob", "Cy"])
    pages.open(made)
    t = pages.tablet
    tap(t, '[data-action="start_deal"]')
    for count in ("1", "1", "1"):
        tap(t, f'button.buy[data-count="{count}"]')
    # a rank entered alone counts once: the last queen's suit stays open to the picker
    for rank in ("Q", "A", "K"):
        tap(t, f'.picker button.rank-only[data-rank="{rank}"]')
        tap(t, '[data-action="deal_cards"]')
    # the faces of the first set entered as they are turned, one tap a card
    first = ["Qs", "Qh", "Qd", "2c", "3c"]
    for card in first:
        tap(t, f'.picker button.pick[data-card="{card}"]')
    tap(t, '[data-action="reveal"]')
    for _ in range(3):
        tap(t, '[data-action="check"]')
    for _ in range(2):  # the next sets turned, nothing entered
        tap(t, '[data-action="reveal"]')
        for _ in range(3):
            tap(t, '[data-action="check"]')
    expect(t.locator("#instruction")).to_contain_text("the 20 grid cards not entered yet")
    # the showdown asks only for what is unknown: 20 cells and the king's hand
    expect(t.locator(".area-grid button[data-slot]")).to_have_count(25)
    rest = [r + s for r in "456789T" for s in "cdhs"][:25]
    for card in rest:
        tap(t, f'.picker button.pick[data-card="{card}"]')
    assert entered(t, "king") == rest[20:]
    t.locator('[data-place="king"] button[data-slot] >> nth=2').click()
    tap(t, '.picker button.pick[data-card="Ac"]')
    assert entered(t, "king") == [*rest[20:22], "Ac", *rest[23:]]
    tap(t, '[data-action="showdown"]')
    expect(t.locator("#instruction")).to_have_text(
        "The deal is over: tap Start deal for the next one.")


def test_presets_never_repeat_and_all_in_is_shown_once(pages: Any) -> None:
    made = pages.server.create_table("kings_pot", ["Ann", "Bob", "Cy"],
                                     rules={"ante": 1})
    pages.open(made)
    t = pages.tablet
    tap(t, '[data-action="start_deal"]')
    for count in ("2", "1", "1"):  # Bob, Cy, Ann
        tap(t, f'button.buy[data-count="{count}"]')
    for ranks in (("A", "K"), ("2",), ("3",)):
        for r in ranks:
            tap(t, f'.picker button.rank-only[data-rank="{r}"]')
        tap(t, '[data-action="deal_cards"]')
    tap(t, '[data-action="reveal"]')
    expect(t.locator("#instruction")).to_have_text("Round 1: Bob: check or bet.")
    amounts = t.locator("[data-preset]").evaluate_all("els => els.map(e => e.dataset.amount)")
    labels = t.locator("[data-preset] .preset-label").all_inner_texts()
    assert len(amounts) == len(set(amounts)), (labels, amounts)
    assert "All in" not in labels
    # all in once, per card and in total: Bob's 98 chips over two cards, apart from Call
    expect(t.locator('[data-action="all_in"]')).to_have_count(1)
    expect(t.locator('[data-action="all_in"]')).to_have_text("All in: 98 (49 per card × 2)")


def test_every_page_follows_the_system_theme_and_the_choice(pages: Any, chromium: Any) -> None:
    made = pages.server.create_table("texas_dozen", ["Ann", "Bob"])
    for scheme, theme in (("light", "light"), ("dark", "dark")):
        ctx = chromium.new_context(viewport={"width": 1024, "height": 768}, color_scheme=scheme)
        try:
            page = ctx.new_page()
            for path in ("/", f"/t/{made['id']}", f"/t/{made['id']}/dealer"):
                page.goto(f"{pages.server.url}{path}")
                expect(page.locator("html")).to_have_attribute("data-theme", theme)
            # the tablet's menu chooses the other theme, and the choice is kept on the device
            other = "dark" if theme == "light" else "light"
            in_menu(page, f'[data-theme-choice="{other}"]')
            expect(page.locator("html")).to_have_attribute("data-theme", other)
            page.reload()
            expect(page.locator("html")).to_have_attribute("data-theme", other)
            page.goto(f"{pages.server.url}/t/{made['id']}")  # every page of this device
            expect(page.locator("html")).to_have_attribute("data-theme", other)
            bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
            assert bg == ("rgb(12, 16, 20)" if other == "dark" else "rgb(238, 240, 236)")
            page.locator('[data-theme-choice="system"]').click()  # back to the system's
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
        finally:
            ctx.close()
