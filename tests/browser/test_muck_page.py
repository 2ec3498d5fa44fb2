"""Issue 32 on the tablet: a Muck tap on a hand's place at the showdown (R6), the refusal of a
muck that leaves a pot with no hand, the result on the tablet and the phone; and a call the
stack cannot cover offered as All in only. What a person sees at the muck tap is checked as
the matrix checks it, on the tablet held both ways and the phone, in both themes (the all-in
page's ``look``; with ``DEALER_ASSIST_SCREENSHOTS=<folder>`` saved as
``<view>-muck-<theme>.png``)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from browser.felt import entered
from browser.test_all_in_page import api, look

pytestmark = pytest.mark.browser

BOARD = ["b1", "b2", "b3", "b4", "b5"]


def test_a_muck_tap_on_a_hand_and_the_short_call_as_all_in(pages: Any) -> None:
    created = pages.server.create_table(
        "texas_holdem", ["Ann", "Bob", {"name": "Cy", "stack": 92}],
        rules={"small_blind": 1, "big_blind": 2})
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    # Ann deals, Bob and Cy post the blinds; all call, the flop turned; Bob bets 91 and Cy,
    # with 90 behind, is offered fold and all in (90), never "Call 91"
    api(pages, created, {"type": "start_deal"}, {"type": "next"},
        {"type": "call", "player": "Ann"}, {"type": "call", "player": "Bob"},
        {"type": "check", "player": "Cy"}, {"type": "reveal", "cards": ["2c", "7d", "9s"]},
        {"type": "bet", "player": "Bob", "amount": 91})
    expect(t.locator("#instruction")).to_have_text("Flop: Cy: 91 to call.")
    expect(t.locator('[data-action="all_in"]')).to_have_text("All in: 90")
    expect(t.locator('[data-action="call"]')).to_have_count(0)
    t.locator('[data-action="all_in"]').click()
    expect(t.locator("#instruction")).to_have_text("Flop: Ann: 91 to call.")
    api(pages, created, {"type": "call", "player": "Ann"},
        {"type": "reveal", "cards": ["Jc"]}, {"type": "check", "player": "Bob"},
        {"type": "check", "player": "Ann"}, {"type": "reveal", "cards": ["3h"]},
        {"type": "check", "player": "Bob"}, {"type": "check", "player": "Ann"})
    expect(t.locator("#instruction")).to_contain_text("Showdown")

    # every hand has its Muck tap; Cy's pressed, her places go and the count drops to four
    muck = {name: t.locator(f'button.muck[data-muck="{name}"]') for name in ("Ann", "Bob", "Cy")}
    for button in muck.values():
        expect(button).to_have_attribute("aria-pressed", "false")
    expect(t.locator('[data-action="showdown"]')).to_have_text("Show down \u2014 0 of 6 entered")
    muck["Cy"].click()
    expect(muck["Cy"]).to_have_attribute("aria-pressed", "true")
    expect(t.locator('[data-place="p:Cy"]')).to_contain_text("Mucked")
    expect(t.locator('.area-grid button[data-group="p:Cy"]')).to_have_count(0)
    expect(t.locator('[data-action="showdown"]')).to_have_text("Show down \u2014 0 of 4 entered")
    found = look(pages, "muck", cells=BOARD)

    # Ann and Bob mucked too: refused, the sentence names a hand the main pot needs
    muck["Ann"].click()
    muck["Bob"].click()
    t.locator('[data-action="showdown"]').click()
    expect(t.locator("#error-text")).to_have_text(
        "Cy's hand is needed: no other hand is left in the main pot.")
    # a second tap gives the hands back to enter; the cards picked go to Ann, then Bob
    muck["Ann"].click()
    muck["Bob"].click()
    expect(muck["Bob"]).to_have_attribute("aria-pressed", "false")
    for card in ("As", "Ad", "Ks", "Kd"):
        t.locator(f'.picker button.pick[data-card="{card}"]').click()
    assert entered(t, "p:Ann") == ["As", "Ad"]
    assert entered(t, "p:Bob") == ["Ks", "Kd"]
    t.locator('[data-action="showdown"]').click()
    expect(t.locator("#instruction")).to_have_text(
        "The deal is over: tap Start deal for the next one.")
    # Ann's aces beat Bob's kings for the main pot (3 x 92 = 276) and the side pot of the 1
    # each she and Bob put in over Cy's all-in: 7 + 278
    for page in (t, ph):
        expect(page.locator("#seq")).to_have_text(t.locator("#seq").inner_text())
        expect(page.locator("body")).to_contain_text("Cy mucked.")
    expect(t.locator('li.player[data-player="Ann"] .player-stack')).to_have_text("285")
    expect(t.locator('li.player[data-player="Bob"] .player-stack')).to_have_text("7")
    expect(t.locator('li.player[data-player="Cy"] .player-stack')).to_have_text("0")
    assert not found, "\n".join(found)
