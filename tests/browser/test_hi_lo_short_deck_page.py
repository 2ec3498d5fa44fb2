"""A whole deal of Omaha Hi-Lo (R80, R84) and of Short-deck Hold'em (R87) tapped on the tablet,
a phone following live: the deal started, every bet, call, check and fold of every street on
the tablet's buttons, each street's board cards picked on the tablet's picker (the short
deck's offers six to ace only, read from the game's metadata), the showdown's hands entered on
the felt, a hand mucked; on both pages the board, the pot after each street, the result (both
halves of a split pot, each hand's low beside its high) and every player's chips after it.
With ``DEALER_ASSIST_SCREENSHOTS=<folder>`` saved in every view and theme
(``<view>-omaha-hi-lo-result-<theme>.png``, ``<view>-short-deck-showdown-<theme>.png``)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.deal import act, board, pick, pot, stacks, tap
from browser.test_all_in_page import BOARD, look

pytestmark = pytest.mark.browser


def open_table(pages: Any, variant: str) -> tuple[Page, Page]:
    """The table on both pages, the phone Ann's; the deal started and its hands dealt, all
    on the tablet: Ann deals, Bob and Cy post the blinds (R60)."""
    created = pages.server.create_table(variant, ["Ann", "Bob", "Cy"], name="Board night")
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    ph.locator('[data-me="Ann"]').click()
    tap(t, '[data-action="start_deal"]')
    for page in (t, ph):
        stacks(page, {"Ann": 100, "Bob": 99, "Cy": 98})
    tap(t, '[data-action="next"]')
    return t, ph


def street(pages: Any, cards: str, pot_now: int) -> None:
    """Pick the street's cards on the tablet's picker and turn them; both pages draw them."""
    t = pages.tablet
    expect(t.locator("#grid .board .cell.highlight")).to_have_count(len(cards.split()))
    pick(t, cards)
    tap(t, '[data-action="reveal"]')
    known = [c for c in board(t) if c]
    assert known[-len(cards.split()):] == cards.split()
    for page in (t, pages.phone):
        expect(page.locator("#grid .board .card[data-card]")).to_have_count(len(known))
        pot(page, pot_now)
    assert board(pages.phone) == board(t)


def test_r80_an_omaha_hi_lo_deal_tapped_on_the_tablet_splits_its_pot_high_and_low(
        pages: Any) -> None:
    t, ph = open_table(pages, "omaha_hi_lo")
    # fixed limit (R84): a raise is one tap, to the small bet's next step
    expect(t.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
    act(t, "raise")  # Ann raises to 4
    act(t, "call")  # Bob
    act(t, "call")  # Cy
    # the full deck in the picker: thirteen ranks a suit
    expect(t.locator(".picker .suit-row").first.locator("button.pick")).to_have_count(13)
    street(pages, "As 2d 7h", 12)
    act(t, "check")  # Bob
    act(t, "bet")  # Cy bets the small bet, 2
    act(t, "call")  # Ann
    act(t, "fold")  # Bob
    street(pages, "Kc", 16)
    act(t, "check")  # Cy
    act(t, "bet")  # Ann bets the big bet, 4
    act(t, "call")  # Cy
    street(pages, "9s", 24)
    act(t, "check")
    act(t, "check")
    expect(t.locator("#instruction")).to_have_text("Showdown: enter the four cards of Ann, Cy.")
    pick(t, "3c 4d Qh Qs  Kd Kh 8c 8d")
    tap(t, '[data-action="showdown"]')
    # Cy's three kings take the high half, Ann's 7-4-3-2-A the low; Cy has no low (a pair of
    # eights is not two low ranks), Bob folded
    halves = ("Pot 24: Cy takes the high half (12) with three kings, Ann the low half (12) "
              "with 7-4-3-2-A low.")
    for page in (t, ph):
        expect(page.locator(".result .result-sentences li")).to_have_text([halves])
        expect(page.locator('.payouts li[data-player="Cy"] .takes')).to_have_text("takes 12")
        expect(page.locator('.payouts li[data-player="Ann"] .takes')).to_have_text("takes 12")
        expect(page.locator('.payouts li[data-player="Ann"] .net')).to_have_text("+2")
        expect(page.locator('.payouts li[data-player="Bob"] .net')).to_have_text("\u22124")
        stacks(page, {"Ann": 102, "Bob": 96, "Cy": 102})
        assert board(page) == ["As", "2d", "7h", "Kc", "9s"]
    # Ann's hand: her high (a pair of queens) and, beside it, the low that took the half; on
    # the tablet under the felt, in view beside the next deal's choices
    for ann in (ph.locator('.hands li[data-player="Ann"]'),
                t.locator('.area-grid .hands li[data-player="Ann"]')):
        expect(ann.locator(".hand").first).to_have_text("Pair of queens")
        expect(ann.locator(".hand.low")).to_contain_text("7-4-3-2-A low")
        assert ann.locator(".hand.low .card").evaluate_all(
            "els => els.map(e => e.dataset.card)") == ["7h", "4d", "3c", "2d", "As"]
    expect(ph.locator('.hands li[data-player="Cy"] .hand').first).to_have_text(
        "Three of a kind, kings")
    expect(ph.locator(".hands .hand.low")).to_have_count(1)
    found = look(pages, "omaha-hi-lo-result", cells=BOARD)
    assert not found, "\n".join(found)


def test_r87_a_short_deck_deal_tapped_on_the_tablet_a_flush_beats_a_full_house(
        pages: Any) -> None:
    t, ph = open_table(pages, "short_deck_holdem")
    act(t, "call")  # Ann
    act(t, "call")  # Bob
    act(t, "check")  # Cy
    for row in t.locator(".picker .suit-row").all():
        ranks = row.locator("button.pick").evaluate_all("els => els.map(e => e.dataset.card[0])")
        assert ranks == ["A", "6", "7", "8", "9", "T", "J", "Q", "K"]
    street(pages, "Ah Kh 7c", 6)
    act(t, "bet", 4)  # Bob: no limit, the amount typed
    act(t, "call")  # Cy
    act(t, "call")  # Ann
    street(pages, "7s", 18)
    for _ in range(3):
        act(t, "check")
    street(pages, "9h", 18)
    act(t, "check")  # Bob
    act(t, "bet", 6)  # Cy
    act(t, "call")  # Ann
    act(t, "call")  # Bob
    for page in (t, ph):
        pot(page, 36)
    expect(t.locator("#instruction")).to_have_text(
        "Showdown: enter the two cards of Ann, Bob, Cy.")
    # the board's cards are taken already: greyed in the picker
    expect(t.locator('.picker button[data-card="Ah"]')).to_be_disabled()
    found = look(pages, "short-deck-showdown", cells=BOARD)
    # Cy gives his hand up unseen: his places go, the muck pressed
    t.locator('[data-place="p:Cy"] button.muck').click()
    expect(t.locator('[data-place="p:Cy"] button[data-slot]')).to_have_count(0)
    pick(t, "6h Th  As Ac")
    tap(t, '[data-action="showdown"]')
    for page in (t, ph):
        expect(page.locator(".result .result-sentences li")).to_have_text(
            ["Pot 36: Ann, an ace-high flush.", "Cy mucked."])
        expect(page.locator('.payouts li[data-player="Ann"] .takes')).to_have_text("takes 36")
        stacks(page, {"Ann": 124, "Bob": 88, "Cy": 88})
    expect(ph.locator('.hands li[data-player="Bob"] .hand')).to_have_text(
        "Full house, aces full of sevens")
    expect(ph.locator('.hands li[data-player="Cy"]')).to_have_count(0)
    assert not found, "\n".join(found)
