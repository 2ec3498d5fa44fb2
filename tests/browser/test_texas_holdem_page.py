"""A Texas Hold'em deal (R60, R61) played on the tablet page with a phone following live.
Nothing in the pages knows the game: its board, rounds and words come from its metadata."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from browser.deal import board, stacks
from browser.felt import type_cards

pytestmark = pytest.mark.browser


def instruction(page: Page, text: str) -> None:
    expect(page.locator("#instruction")).to_have_text(text)


def both(pages, text: str, players_words: str | None = None) -> None:  # type: ignore[no-untyped-def]
    """The tablet says ``text``; the phone says it in the players' words, where they differ."""
    instruction(pages.tablet, text)
    instruction(pages.phone, players_words or text)


def tap(page: Page, selector: str) -> None:
    page.locator(selector).click()


def test_texas_holdem_is_offered_on_the_home_page(pages) -> None:  # type: ignore[no-untyped-def]
    t = pages.tablet
    t.goto(pages.server.url + "/")
    expect(t.get_by_text("Texas Hold'em", exact=True).first).to_be_visible()


def test_texas_holdem_deal_on_tablet_and_phone(pages) -> None:  # type: ignore[no-untyped-def]
    created = pages.server.create_table("texas_holdem", ["Ann", "Bob", "Cy"], name="Hold'em")
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    expect(ph.locator("#conn")).to_have_attribute("data-status", "live")

    tap(t, '[data-action="start_deal"]')
    both(pages, "Deal two hole cards to each player, then tap Next.",
         "The dealer is dealing two hole cards to each player.")
    for page in (t, ph):  # R60: Bob and Cy, left of the dealer, post the blinds
        stacks(page, {"Ann": 100, "Bob": 99, "Cy": 98})
        expect(page.locator("#grid .board .cell")).to_have_count(5)
    tap(t, '[data-action="next"]')
    both(pages, "Pre-flop: Ann: 2 to call.")
    t.locator("#amount").fill("6")
    tap(t, '[data-action="raise"]')
    instruction(t, "Pre-flop: Bob: 5 to call.")
    tap(t, '[data-action="fold"]')
    instruction(t, "Pre-flop: Cy: 4 to call.")
    tap(t, '[data-action="call"]')

    # R61: the flop is b1 b2 b3, framed on both pages, turned before its round
    both(pages, "Turn the flop: 3 cards, framed.", "The dealer is turning the flop: 3 cards.")
    for page in (t, ph):
        expect(page.locator("#grid .board .cell.highlight")).to_have_count(3)
        expect(page.locator('.pot[data-pot="0"] .pot-amount')).to_have_text("13")
    type_cards(t, "reveal", "Ah 7c 2d")
    tap(t, '[data-action="reveal"]')
    both(pages, "Flop: Cy: check or bet.")
    expect(ph.locator('.board .cell[data-cell="b1"] .card')).to_have_attribute("data-card", "Ah")
    t.locator("#amount").fill("10")
    tap(t, '[data-action="bet"]')
    instruction(t, "Flop: Ann: 10 to call.")
    tap(t, '[data-action="call"]')

    both(pages, "Turn the turn: 1 card, framed.", "The dealer is turning the turn: 1 card.")
    tap(t, '.picker button.pick[data-card="Kd"]')
    tap(t, '[data-action="reveal"]')
    instruction(t, "Turn: Cy: check or bet.")
    tap(t, '[data-action="check"]')
    tap(t, '[data-action="check"]')
    both(pages, "Turn the river: 1 card, framed.", "The dealer is turning the river: 1 card.")
    tap(t, '[data-action="reveal"]')  # turned without entering: it comes at the showdown
    tap(t, '[data-action="check"]')
    tap(t, '[data-action="check"]')

    both(pages, "Showdown: enter the two cards of Ann, Cy and the board cards not entered "
                "yet (1).", "Showdown: Ann, Cy show their hole cards.")
    # the felt is the pad: the river's place, then Ann's and Cy's hands, the river ringed
    expect(t.locator(".area-grid button[data-slot]")).to_have_count(5)
    expect(t.locator('.area-grid button[data-slot="b5"]')).to_have_class(re.compile(r"\btarget\b"))
    expect(t.locator('[data-place="p:Ann"] .place-title')).to_have_text("Ann's hand")
    type_cards(t, "cells", "9s")
    type_cards(t, "p:Ann", "Ad Kh")
    # a card already entered is refused as it is typed, and its place stays empty
    type_cards(t, "p:Cy", "Ad 7s")
    expect(t.locator("#entry-bad")).to_have_text(
        "A♦ is entered twice: Ann's hand, card 1 and Cy's hand, card 1.")
    expect(t.locator('.picker button.pick[data-card="Ad"]')).to_be_disabled()
    pages.shot("entered-twice", "tablet")
    type_cards(t, "p:Cy", "7h 7s")
    expect(t.locator("#entry-bad")).to_have_text("")
    tap(t, '[data-action="showdown"]')
    instruction(t, "The deal is over: tap Start deal for the next one.")
    for page in (t, ph):
        # Cy's three sevens beat Ann's two pair; Cy takes 1 + 6 + 6 + 10 + 10 = 33, of which
        # 16 were Cy's own: Cy won 17
        stacks(page, {"Ann": 84, "Bob": 99, "Cy": 117})
        expect(page.locator('.payouts [data-player="Cy"] .takes')).to_have_text("takes 33")
        expect(page.locator('.payouts [data-player="Cy"] .net')).to_have_text("+17")
        expect(page.locator('.payouts [data-player="Ann"] .net')).to_have_text("−16")
        expect(page.locator(".result-sentences li").first).to_have_text(
            "Pot 33: Cy, three sevens.")
        expect(page.locator('.hands [data-player="Cy"] .hand')).to_have_text(
            "Three of a kind, sevens")
        expect(page.locator('.hands [data-player="Ann"] .hand')).to_have_text(
            "Two pair, aces and kings")
        assert board(page) == ["Ah", "7c", "2d", "Kd", "9s"]
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size[
            "width"]
