"""A Seven-Card Stud deal (R81) and a Stud Hi-Lo result (R83) on the tablet with a phone
following live: each street's up cards entered on the felt in one pass, one tap a card; the
top bar's who brings in and why; every player's up cards on the phone; the showdown asking
only for the down cards, on each player's row. The pages read the game's layout and the
state's words from the server."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from browser.deal import pick

pytestmark = pytest.mark.browser


def up_cards(page: Page, name: str) -> list[str]:
    return page.locator(f'.up-row[data-player="{name}"] .up-card .card').evaluate_all(
        "els => els.map(e => e.dataset.card)")


def test_r81_a_stud_street_is_entered_on_the_felt_one_tap_a_card(pages) -> None:  # type: ignore[no-untyped-def]
    t, ph = pages.tablet, pages.phone
    pages.open(pages.server.create_table("seven_card_stud", ["Ann", "Bob", "Cy"], name="Stud"))
    expect(ph.locator("#conn")).to_have_attribute("data-status", "live")
    t.locator('[data-action="start_deal"]').click()
    expect(t.locator("#instruction")).to_contain_text("Third street: deal two cards down")
    # one place at the end of each row, the first ringed; a tap a card fills them in order
    expect(t.locator(".up-row button.place-card")).to_have_count(3)
    expect(t.locator('.up-row[data-player="Ann"] button.place-card.target')).to_have_count(1)
    for card in ("Kd", "2c", "9h"):
        pick(t, card)
    t.locator('[data-action="reveal"]').click()
    expect(t.locator("#why")).to_have_text("Bob brings in: two of clubs, the lowest up card.")
    expect(ph.locator("#instruction .why")).to_have_text(
        "Bob brings in: two of clubs, the lowest up card.")
    for page in (t, ph):  # everyone's up card, face up; two backs a row
        expect(page.locator('.up-row[data-player="Cy"] .up-card .card')).to_have_count(1)
        assert up_cards(page, "Bob") == ["2c"]
        expect(page.locator('.up-row[data-player="Ann"] .down-card .card.back')).to_have_count(2)
    t.locator('[data-action="bring_in"]').click()
    t.locator('[data-action="call"]').click()  # Cy calls the bring-in
    t.locator('[data-action="call"]').click()  # Ann too
    expect(t.locator("#instruction")).to_contain_text("Fourth street")
    for card in ("Kh", "3c", "9d"):
        pick(t, card)
    t.locator('[data-action="reveal"]').click()
    expect(t.locator("#why")).to_have_text(
        "Ann acts first: a pair of kings, the best hand showing.")
    assert up_cards(ph, "Ann") == ["Kd", "Kh"]
    pages.shot("stud-fourth-street")


def test_r83_the_showdown_asks_only_for_the_down_cards_on_each_row(pages) -> None:  # type: ignore[no-untyped-def]
    server = pages.server
    created = server.create_table("seven_card_stud_hi_lo", ["Ann", "Bob"], name="Hi-Lo")
    token = created["dealer_token"]

    def post(body: dict[str, object]) -> None:
        status, answer = server.api("POST", f"/api/tables/{created['id']}/actions", body, token)
        assert status == 200, answer

    post({"type": "start_deal"})
    post({"type": "reveal", "cards": {"Ann": "Kd", "Bob": "2c"}})
    post({"type": "bring_in", "player": "Bob"})
    post({"type": "call", "player": "Ann"})
    for up in ({"Ann": "Kh", "Bob": "3c"}, {"Ann": "Ks", "Bob": "4c"}, {"Ann": "9d", "Bob": "6c"}):
        post({"type": "reveal", "cards": up})
        for name in ("Ann", "Bob"):
            post({"type": "check", "player": name})
    post({"type": "next"})
    for name in ("Ann", "Bob"):
        post({"type": "check", "player": name})
    pages.open(created)
    t = pages.tablet
    expect(t.locator("#instruction")).to_have_text(
        "Showdown: enter the three down cards of Ann and Bob.")
    expect(t.locator(".up-row button.place-card")).to_have_count(6)
    for card in ("2d", "5h", "Jc", "8d", "Qs", "Qh"):
        pick(t, card)
    t.locator('[data-action="showdown"]').click()
    expect(t.locator(".result")).to_contain_text(
        "Pot 4: Ann takes the high half (2) with three kings, Bob the low half (2) with "
        "8-6-4-3-2 low.")
    expect(pages.phone.locator(".hands .hand.low")).to_have_count(1)
    pages.shot("stud-hi-lo-result")
