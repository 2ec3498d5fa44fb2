"""A 21 Hand Hold'em hand on the tablet page, the phone following: the draw for the first
blind, pay-or-fold steps, the five-card board and the bank's chip."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser.felt import type_cards

pytestmark = pytest.mark.browser


def instruction(page: Page, text: str) -> None:
    expect(page.locator("#instruction")).to_have_text(text)


def tap(page: Page, selector: str) -> None:
    page.locator(selector).click()


def test_twenty_one_hand_on_tablet_and_phone(pages) -> None:  # type: ignore[no-untyped-def]
    created = pages.server.create_table("twenty_one_hand_holdem", ["Ann", "Bob", "Cy"],
                                        name="21", rules={"draw_for_blind": True})
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    tap(t, '[data-action="start_deal"]')
    instruction(t, "Ann: draw a card (the lowest card takes the first blind), or let the "
                   "app draw.")
    expect(t.locator("#deal-number")).to_have_text("Hand 1 of 21")
    tap(t, '.picker button.pick[data-card="5c"]')
    tap(t, '[data-action="draw"]')
    instruction(t, "Bob: draw a card (the lowest card takes the first blind), or let the "
                   "app draw.")
    type_cards(t, "draw", "kd", enter=True)
    instruction(t, "Cy: draw a card (the lowest card takes the first blind), or let the "
                   "app draw.")
    type_cards(t, "draw", "9h")
    tap(t, '[data-action="draw"]')

    instruction(t, "Ann (blind): pay 1 to take a hand, or sit it out.")
    expect(t.locator('[data-action="fold"]')).to_have_text("Sit out")
    expect(ph.locator('#players [data-player="Ann"] .blind-marker')).to_have_text("Blind")
    expect(t.locator('[data-action="pay"]')).to_have_text("Ann pays 1")
    tap(t, '[data-action="pay"]')
    instruction(t, "Deal five cards to each player, then tap Next.")
    tap(t, '[data-action="next"]')
    instruction(t, "Everyone discards one card, then tap Next.")
    tap(t, '[data-action="next"]')
    instruction(t, "Ann (blind): pay 1 to see the flop, or fold.")
    tap(t, '[data-action="pay"]')

    instruction(t, "Turn the flop: 3 cards, framed.")
    instruction(ph, "The dealer is turning the flop: 3 cards.")
    for page in (t, ph):
        expect(page.locator("#grid .board .cell.highlight")).to_have_count(3)
    type_cards(t, "reveal", "As Qd 7h")
    tap(t, '[data-action="reveal"]')
    expect(ph.locator('.board .cell[data-cell="b2"] .card')).to_have_attribute("data-card", "Qd")
    tap(t, '[data-action="next"]')
    tap(t, '[data-action="pay"]')
    instruction(t, "Turn the turn card: 1 card, framed.")
    tap(t, '.picker button.pick[data-card="2c"]')
    tap(t, '[data-action="reveal"]')
    instruction(t, "Everyone discards one card, keeping two, then tap Next.")
    tap(t, '[data-action="next"]')
    instruction(t, "Bob: pay 1 to see the river, or fold.")
    tap(t, '[data-action="pay"]')
    instruction(t, "Cy: pay 1 to see the river, or fold.")
    tap(t, '[data-action="fold"]')
    instruction(t, "Ann (blind): pay 1 to see the river, or fold.")
    tap(t, '[data-action="pay"]')
    instruction(t, "Turn the river card: 1 card, framed.")
    for page in (t, ph):
        expect(page.locator(".pot .pot-amount").first).to_have_text("5")
    tap(t, '[data-action="reveal"]')
    instruction(t, "Showdown: enter the two cards of Ann, Bob and the board.")
    type_cards(t, "cells", "9s")
    type_cards(t, "p:Ann", "Ah Ac")
    type_cards(t, "p:Bob", "3h 4h")
    tap(t, '[data-action="showdown"]')
    instruction(t, "The deal is over: tap Start deal for the next one.")
    for page in (t, ph):
        expect(page.locator('[data-carried="bank"] .pot-amount')).to_have_text("20")
        # Ann takes the pot of 6 (the bank's chip in it); she had 4 before the hand and ends
        # with 6: "+6" would read as profit, she won 2
        expect(page.locator('.payouts [data-player="Ann"] .takes')).to_have_text("takes 6")
        expect(page.locator('.payouts [data-player="Ann"] .net')).to_have_text("+2")
        expect(page.locator("#result .result-sentences li")).to_have_text([
            "Pot 6: Ann, three aces.", "The pot includes 1 chip from the bank."])
        expect(page.locator('.hands [data-player="Ann"] .hand')).to_have_text(
            "Three of a kind, aces")
        for name, stack in (("Ann", 6), ("Bob", 3), ("Cy", 4)):
            expect(page.locator(f'#players [data-player="{name}"] .player-stack')).to_have_text(
                str(stack))
