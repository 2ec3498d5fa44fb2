"""More than one dealer device (R75) in Chromium: a second device pairs by code from the
table's page, deals, and signs the first out; the first's next tap is refused with a sentence."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from dealer_assist.services.auth import SIGNED_OUT_SENTENCE

pytestmark = pytest.mark.browser

TABLET = {"width": 1280, "height": 800}


def test_r75_a_second_tablet_pairs_by_code_deals_and_signs_the_first_out(
    pages, chromium  # type: ignore[no-untyped-def]
) -> None:
    created = pages.server.create_table("texas_dozen", ["Ann", "Bob", "Cy"], name="Two tablets")
    pages.open(created)
    first, phone = pages.tablet, pages.phone
    expect(first.locator("#conn")).to_have_attribute("data-status", "live")

    # a player's phone offers the way in, never the dealer's buttons
    expect(phone.locator("#add-device")).to_have_count(0)
    phone.locator("#enter-code").click()
    expect(phone.locator("#pairing-dialog h2")).to_have_text("I'm dealing: enter code")
    phone.locator("#pairing-input").fill("000000")
    phone.locator("#pairing-go").click()
    expect(phone.locator("#pairing-dialog .pairing-note.bad")).to_contain_text(
        "That is not this table's pairing code")
    pages.shot("pairing-enter", "phone")
    phone.locator("#pairing-dialog .pairing-close").click()
    expect(phone.locator("#pairing-dialog")).to_have_count(0)

    # the first tablet shows a code, big
    first.locator("#add-device").click()
    code_el = first.locator("#pairing-code")
    expect(code_el).to_have_text(re.compile(r"^[0-9]{3} [0-9]{3}$"))
    expect(first.locator("#pairing-dialog")).to_contain_text("Works once, for ")
    pages.shot("pairing-code", "tablet")
    code = code_el.inner_text().replace(" ", "")
    first.locator("#pairing-dialog .pairing-close").click()

    second_ctx = chromium.new_context(viewport=TABLET, has_touch=True)
    try:
        second = second_ctx.new_page()
        errors: list[str] = []
        second.on("pageerror", lambda exc: errors.append(str(exc)))
        # the table's page on another device: "I'm dealing: enter code"
        second.goto(f"{pages.server.url}/t/{created['id']}")
        second.locator("#enter-code").click()
        second.locator("#pairing-input").fill(f"{code[:3]} {code[3:]}")
        second.locator("#pairing-go").click()
        second.wait_for_url(re.compile(rf"/t/{created['id']}/dealer$"))
        expect(second.locator("#conn")).to_have_attribute("data-status", "live")
        expect(second.locator("#add-device")).to_be_visible()

        # the second device deals; the first and the phone follow
        second.locator('[data-action="start_deal"]').click()
        for page in (first, second):
            expect(page.locator("#instruction")).to_have_text(
                "Deal two hole cards to each player, then tap Next.")
        expect(phone.locator("#instruction")).to_have_text(  # the players' words
            "The dealer is dealing two hole cards to each player.")

        # ... and signs the first out (a second tap confirms)
        second.locator("#add-device").click()
        second.locator("#sign-out-others").click()
        expect(second.locator("#sign-out-others")).to_have_text(
            "Tap again: sign out every other device")
        second.locator("#sign-out-others").click()
        expect(second.locator("#pairing-dialog .pairing-out")).to_have_text(
            "Signed out 1 other device. Only this one deals now.")
        second.locator("#pairing-dialog .pairing-close").click()

        # the first tablet's next tap is refused with a sentence, and changes nothing
        seq = first.locator("#seq").inner_text()
        first.locator("#error-close").click()
        first.locator('[data-action="next"]').click()
        expect(first.locator("#error-banner")).to_be_visible()
        expect(first.locator("#error-text")).to_have_text(SIGNED_OUT_SENTENCE)
        pages.shot("pairing-signed-out", "tablet")
        expect(first.locator("#instruction")).to_have_text(
            "Deal two hole cards to each player, then tap Next.")
        assert first.locator("#seq").inner_text() == seq
        assert pages.server.api("GET", f"/api/tables/{created['id']}")[1]["seq"] == 1

        # the second still deals
        second.locator('[data-action="next"]').click()
        expect(phone.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")

        # reopened, the signed-out tablet has forgotten its key and offers the way back in
        first.reload()
        expect(first.locator("#enter-code")).to_be_visible()
        expect(first.locator("#add-device")).to_have_count(0)
        first.reload()  # the key is gone: the page is a spectator's, with no refusal
        expect(first.locator("#actions .notice")).to_contain_text(
            "This device is not signed in as the dealer.")
        expect(first.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
        # the browser notes each refused request (401) on the console: expected here
        refused = [e for e in pages.errors if "status of 401" in e]
        assert refused and all(e.startswith("tablet console:") for e in refused)
        for e in refused:
            pages.errors.remove(e)
        assert not errors, errors
    finally:
        second_ctx.close()
