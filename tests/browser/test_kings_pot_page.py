"""A whole King's Pot deal played by tapping the dealer's tablet page while a player's phone
follows live; both pages must show the same exact stacks, pots and winning line."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from browser.felt import in_menu, type_cards

pytestmark = pytest.mark.browser

ROW1 = ["r1c1", "r1c2", "r1c3", "r1c4", "r1c5"]


def instruction(page: Page, text: str) -> None:
    expect(page.locator("#instruction")).to_have_text(text)


# The phone says what the dealer is doing where the tablet says what to do (issue 13).
PHONE_WORDS = {
    "Deal Bob 2 cards and enter them (the rank is enough).": "The dealer is dealing Bob 2 cards.",
    "Turn the cards marked 1: 5 cards, framed.":
        "The dealer is turning the cards marked 1: 5 cards.",
    "Turn the cards marked 2: 5 cards, framed.":
        "The dealer is turning the cards marked 2: 5 cards.",
    "Turn the cards marked 3: 5 cards, framed.":
        "The dealer is turning the cards marked 3: 5 cards.",
    "Showdown: turn every card and enter the 15 grid cards not entered yet and the king's hand.":
        "Showdown: the dealer is turning every card and the king's hand.",
}


def both(pages, text: str) -> None:  # type: ignore[no-untyped-def]
    instruction(pages.tablet, text)
    instruction(pages.phone, PHONE_WORDS.get(text, text))


def stacks(page: Page, expected: dict[str, int]) -> None:
    for name, stack in expected.items():
        expect(page.locator(f'#players [data-player="{name}"] .player-stack')).to_have_text(
            f"{stack:,}")


def tap(page: Page, selector: str) -> None:
    page.locator(selector).click()


def highlighted(page: Page) -> set[str]:
    return set(page.locator("#grid .cell.highlight").evaluate_all(
        "els => els.map(e => e.dataset.cell)"))


def test_kings_pot_deal_on_tablet_and_phone(pages) -> None:  # type: ignore[no-untyped-def]
    created = pages.server.create_table("kings_pot", ["Ann", "Bob", "Cy"], name="Friday")
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    # the token left the address bar and went to this device's storage
    expect(t.locator("#conn")).to_have_attribute("data-status", "live")
    expect(ph.locator("#conn")).to_have_attribute("data-status", "live")
    assert "#" not in t.url
    assert t.evaluate(f"localStorage.getItem('dealer-assist:token:{created['id']}')") == \
        created["dealer_token"]

    # the players' QR code opens big, and loads
    in_menu(t, "#show-qr")
    expect(t.locator("#qr-overlay")).to_be_visible()
    assert t.locator("#qr-overlay img.qr").evaluate("img => img.complete && img.naturalWidth > 0")
    pages.shot("qr", "tablet")
    tap(t, "#qr-close")
    expect(t.locator("#qr-overlay")).to_be_hidden()

    tap(t, '[data-action="start_deal"]')
    both(pages, "Bob: how many cards? 0 to 7, 1 each to the king's pot.")
    expect(t.locator("button.buy")).to_have_count(8)  # 0..7
    expect(t.locator("#turn")).to_have_text("Bob")
    expect(ph.locator('#players [data-player="Bob"]')).to_have_class(re.compile(r"\bturn\b"))
    tap(t, 'button.buy[data-count="2"]')
    instruction(t, "Cy: how many cards? 0 to 7, 1 each to the king's pot.")
    tap(t, 'button.buy[data-count="1"]')
    instruction(t, "Ann: how many cards? 0 to 7, 1 each to the king's pot.")
    tap(t, 'button.buy[data-count="2"]')
    both(pages, "Deal Bob 2 cards and enter them (the rank is enough).")
    for page in (t, ph):
        expect(page.locator('[data-carried="kings_pot"] .pot-amount')).to_have_text("5")
        stacks(page, {"Ann": 98, "Bob": 98, "Cy": 99})
    expect(ph.locator('#players [data-player="Bob"] .player-cards')).to_have_text("2 cards")

    # Bob by rank buttons, Cy typed, Ann by rank buttons
    tap(t, 'button.rank-only[data-rank="A"]')
    tap(t, 'button.rank-only[data-rank="7"]')
    pages.shot("deal-cards", "tablet")
    tap(t, '[data-action="deal_cards"]')
    instruction(t, "Deal Cy 1 card and enter it (the rank is enough).")
    type_cards(t, "deal", "k", enter=True)
    instruction(t, "Deal Ann 2 cards and enter them (the rank is enough).")
    tap(t, 'button.rank-only[data-rank="J"]')
    tap(t, 'button.rank-only[data-rank="3"]')
    tap(t, '[data-action="deal_cards"]')

    # reveal 1: the cells marked 1, highlighted on both pages; cards entered by tapping
    set1 = ["r1c1", "r2c4", "r3c2", "r4c5", "r5c3"]
    both(pages, "Turn the cards marked 1: 5 cards, framed.")
    assert highlighted(t) == set(set1)
    expect(ph.locator("#grid .cell.highlight")).to_have_count(5)
    assert highlighted(ph) == set(set1)
    for card in ["2h", "Qd", "Ts", "Js", "7c"]:
        tap(t, f'.picker button.pick[data-card="{card}"]')
    expect(t.locator('.cell[data-cell="r2c4"] .card')).to_have_attribute("data-card", "Qd")
    expect(t.locator('.picker button.pick[data-card="Qd"]')).to_be_disabled()
    tap(t, '[data-action="reveal"]')
    both(pages, "Round 1: Bob: check or bet.")
    expect(ph.locator('.cell[data-cell="r1c1"] .card')).to_have_attribute("data-card", "2h")
    expect(ph.locator("#grid .cell.highlight")).to_have_count(0)

    # round 1: per-card amounts
    expect(t.locator("#amount")).to_have_value("1")
    tap(t, '[data-step="plus"]')
    expect(t.locator(".amount-note")).to_have_text("2 per card × 2 cards = 4")
    tap(t, '[data-action="bet"]')
    both(pages, "Round 1: Cy: 2 per card, 1 card = 2 to call.")
    expect(t.locator('[data-action="call"]')).to_have_text("Call 2 per card × 1 card = 2")
    tap(t, '[data-action="call"]')
    both(pages, "Round 1: Ann: 2 per card, 2 cards = 4 to call.")
    # a single-card fold: Ann folds her 3 and goes on acting with the jack
    expect(t.locator("[data-fold-card]")).to_have_count(2)
    tap(t, '[data-fold-card="3"]')
    both(pages, "Round 1: Ann: 2 per card, 1 card = 2 to call.")
    expect(ph.locator('#players [data-player="Ann"] .player-cards')).to_have_text("1 card")
    tap(t, '[data-action="call"]')
    both(pages, "Turn the cards marked 2: 5 cards, framed.")
    for page in (t, ph):
        expect(page.locator('.pot[data-pot="0"] .pot-amount')).to_have_text("8")
        stacks(page, {"Ann": 96, "Bob": 94, "Cy": 97})

    # reveal 2 without entering cards: turned but unknown
    tap(t, '[data-action="reveal"]')
    both(pages, "Round 2: Bob: check or bet.")
    expect(ph.locator('.cell[data-cell="r1c3"] .card.unknown')).to_have_count(1)
    tap(t, '[data-action="check"]')
    instruction(t, "Round 2: Cy: check or bet.")
    tap(t, '[data-step="plus"]')
    tap(t, '[data-step="plus"]')
    expect(t.locator(".amount-note")).to_have_text("3 per card × 1 card = 3")
    tap(t, '[data-action="bet"]')
    instruction(t, "Round 2: Ann: 3 per card, 1 card = 3 to call.")
    expect(t.locator("#amount")).to_have_value("6")  # the smallest raise
    tap(t, '[data-action="raise"]')
    instruction(t, "Round 2: Bob: 6 per card, 2 cards = 12 to call.")
    expect(t.locator('[data-action="call"]')).to_have_text("Call 6 per card × 2 cards = 12")
    tap(t, '[data-action="call"]')
    instruction(t, "Round 2: Cy: 3 per card, 1 card = 3 to call.")
    tap(t, '[data-action="call"]')
    both(pages, "Turn the cards marked 3: 5 cards, framed.")
    for page in (t, ph):
        expect(page.locator('.pot[data-pot="0"] .pot-amount')).to_have_text("32")
        stacks(page, {"Ann": 90, "Bob": 82, "Cy": 91})

    # reveal 3 typed
    type_cards(t, "reveal", "Kh 4s 5d 6s 5s")
    expect(t.locator('[data-action="reveal"]')).to_have_text("Turned — 5 of 5 entered")
    tap(t, '[data-action="reveal"]')
    both(pages, "Round 3: Bob: check or bet.")
    tap(t, '[data-action="check"]')
    instruction(t, "Round 3: Cy: check or bet.")
    tap(t, '[data-action="check"]')
    instruction(t, "Round 3: Ann: check or bet.")
    # undo is one tap away and says what it took back
    tap(t, "#undo")
    instruction(t, "Round 3: Cy: check or bet.")
    expect(t.locator("#info-banner")).to_contain_text("Undone")
    both(pages, "Round 3: Cy: check or bet.")
    tap(t, '[data-action="check"]')
    instruction(t, "Round 3: Ann: check or bet.")
    tap(t, '[data-action="check"]')
    both(pages, "Showdown: turn every card and enter the 15 grid cards not entered yet and "
                "the king's hand.")

    # a refused action shows the server's sentence and changes nothing
    seq = t.locator("#seq").inner_text()
    tap(t, '[data-action="showdown"]')
    expect(t.locator("#error-banner")).to_be_visible()
    expect(t.locator("#error-text")).to_contain_text("Enter every grid card")
    expect(t.locator("#seq")).to_have_text(seq)

    type_cards(t, "cells", "7h 9h Jh 3c 8d 6c 2s 9c 4d 8s Ac 3d Td 2d Qs")
    type_cards(t, "king", "Ah Ad Kc 3h 4h")
    tap(t, '[data-action="showdown"]')
    instruction(t, "The deal is over: tap Start deal for the next one.")
    instruction(ph, "The deal is over. The next one starts soon.")
    expect(t.locator("#error-banner")).to_be_hidden()
    for page in (t, ph):
        stacks(page, {"Ann": 90, "Bob": 114, "Cy": 91})
        expect(page.locator('[data-carried="kings_pot"] .pot-amount')).to_have_text("5")
        expect(page.locator("#winning-lines")).to_have_text(
            "Winning line: Row 1 (aces) with Flush, king high")
        # what Bob won over the deal (114 less the 100 he started with), and what he took
        expect(page.locator('.payouts [data-player="Bob"] .net')).to_have_text("+14")
        expect(page.locator('.payouts [data-player="Bob"] .takes')).to_have_text("takes 32")
        expect(page.locator('.payouts [data-player="Ann"] .net')).to_have_text("−10")
        expect(page.locator("#result .result-sentences li").first).to_have_text(
            re.compile(r"^(Main pot|Pot) \d+: Bob, a king-high flush on row 1\.$"))
        expect(page.locator("#result .result-sentences li").last).to_have_text(
            "The king's pot of 5 carries to the next deal.")
        expect(page.locator('table.lines tr[data-line="row1"]')).to_have_class(
            re.compile(r"\bwin\b"))
        expect(page.locator('table.lines tr[data-line="king"] .hand')).to_have_text(
            "Pair of aces")
        assert set(page.locator("#grid .cell.win").evaluate_all(
            "els => els.map(e => e.dataset.cell)")) == set(ROW1)
        expect(page.locator('[data-place="king"] .card')).to_have_count(5)
