"""Omaha Hi-Lo (R80) and Short-deck Hold'em (R87) on the tablet, a phone following live: the
board entered on the felt, the showdown's hands picked from the game's own deck (the short
deck's picker offers six to ace only, read from the game's metadata), and the result: both
halves of a split pot, each hand's low beside its high. With ``DEALER_ASSIST_SCREENSHOTS=
<folder>`` saved in every view and theme (``<view>-omaha-hi-lo-result-<theme>.png``,
``<view>-short-deck-showdown-<theme>.png``)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.test_all_in_page import BOARD, api, look, seq

pytestmark = pytest.mark.browser


def to_showdown(pages: Any, variant: str, board: list[str]) -> None:
    """A deal of ``variant`` checked down to its showdown, the board entered by the API."""
    created = pages.server.create_table(variant, ["Ann", "Bob", "Cy"], name="Board night")
    pages.open(created)
    pages.phone.locator('[data-me="Ann"]').click()
    streets = iter([board[:3], board[3:4], board[4:]])
    state = api(pages, created, {"type": "start_deal"})
    while state["step"]["kind"] != "showdown":
        step = state["step"]
        if step["kind"] == "next":
            body: dict[str, Any] = {"type": "next"}
        elif step["kind"] == "reveal":
            body = {"type": "reveal", "cards": next(streets)}
        else:
            body = {"type": "check" if "check" in step["options"] else "call",
                    "player": step["player"]}
        state = api(pages, created, body)
    seq(pages, state)


def pick(page: Page, cards: str) -> None:
    for card in cards.split():
        page.locator(f'.picker button[data-card="{card}"]').click()


def test_r80_an_omaha_hi_lo_split_pot_shows_both_halves_on_tablet_and_phone(pages: Any) -> None:
    to_showdown(pages, "omaha_hi_lo", ["As", "2d", "7h", "Kc", "9s"])
    t, ph = pages.tablet, pages.phone
    expect(t.locator("#instruction")).to_have_text(
        "Showdown: enter the four cards of Ann, Bob, Cy.")
    # the full deck in the picker: thirteen ranks a suit
    expect(t.locator(".picker .suit-row").first.locator("button.pick")).to_have_count(13)
    pick(t, "3c 4d Qh Qs  Kd Kh 8c 8d  Jc Jd Tc Td")
    t.locator('[data-action="showdown"]').click()
    halves = ("Pot 6: Bob takes the high half (3) with three kings, Ann the low half (3) with "
              "7-4-3-2-A low.")
    for page in (t, ph):
        expect(page.locator(".result .result-sentences li")).to_have_text([halves])
        expect(page.locator('.payouts li[data-player="Bob"] .takes')).to_have_text("takes 3")
        expect(page.locator('.payouts li[data-player="Ann"] .takes')).to_have_text("takes 3")
    # Ann's hand: her high (a pair of queens) and, beside it, the low that took the half; on
    # the tablet under the felt, in view beside the next deal's choices
    for ann in (ph.locator('.hands li[data-player="Ann"]'),
                t.locator('.area-grid .hands li[data-player="Ann"]')):
        expect(ann.locator(".hand").first).to_have_text("Pair of queens")
        expect(ann.locator(".hand.low")).to_contain_text("7-4-3-2-A low")
        assert ann.locator(".hand.low .card").evaluate_all(
            "els => els.map(e => e.dataset.card)") == ["7h", "4d", "3c", "2d", "As"]
    expect(ph.locator(".hands .hand.low")).to_have_count(1)
    found = look(pages, "omaha-hi-lo-result", cells=BOARD)
    assert not found, "\n".join(found)


def test_r87_the_short_deck_picker_offers_six_to_ace_and_a_flush_beats_a_full_house(
        pages: Any) -> None:
    to_showdown(pages, "short_deck_holdem", ["Ah", "Kh", "7c", "7s", "9h"])
    t, ph = pages.tablet, pages.phone
    for row in t.locator(".picker .suit-row").all():
        ranks = row.locator("button.pick").evaluate_all("els => els.map(e => e.dataset.card[0])")
        assert ranks == ["A", "6", "7", "8", "9", "T", "J", "Q", "K"]
    # the board's cards are taken already: greyed in the picker
    expect(t.locator('.picker button[data-card="Ah"]')).to_be_disabled()
    found = look(pages, "short-deck-showdown", cells=BOARD)
    pick(t, "6h Th  As Ac  Qd Jd")
    t.locator('[data-action="showdown"]').click()
    for page in (t, ph):
        expect(page.locator(".result .result-sentences li")).to_have_text(
            ["Pot 6: Ann, an ace-high flush."])
    expect(ph.locator('.hands li[data-player="Bob"] .hand')).to_have_text(
        "Full house, aces full of sevens")
    assert not found, "\n".join(found)
