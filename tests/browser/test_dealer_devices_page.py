"""More than one dealer device (R75) in Chromium: a second device pairs by code from the
table's page, deals, and signs the first out; the first, still open, at once shows the server's
sentence and the way back in instead of the dealer's buttons, and again after a reload."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from browser.axe import check
from browser.felt import in_menu
from dealer_assist.services.auth import SIGNED_OUT_SENTENCE

pytestmark = pytest.mark.browser

TABLET = {"width": 1024, "height": 768}


def expect_signed_out(page: Any) -> None:
    """A tablet signed out by another device (R75): the server's sentence, no dealer's
    button, and "I'm dealing: enter code" offered."""
    expect(page.locator("#signed-out .notice")).to_have_text(SIGNED_OUT_SENTENCE)
    expect(page.locator("#signed-out-enter-code")).to_be_visible()
    expect(page.locator("#menu #enter-code")).to_have_count(1)  # and in the menu
    expect(page.locator("#actions [data-action]")).to_have_count(0)
    expect(page.locator("#add-device")).to_have_count(0)
    expect(page.locator("#undo")).to_be_disabled()
    expect(page.get_by_text("Could not load the table")).to_have_count(0)


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
    in_menu(first, "#add-device")
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
        expect(second.locator("#menu #add-device")).to_have_count(1)

        # the second device deals; the first and the phone follow
        second.locator('[data-action="start_deal"]').click()
        for page in (first, second):
            expect(page.locator("#instruction")).to_have_text(
                "Deal two hole cards to each player, then tap Next.")
        expect(phone.locator("#instruction")).to_have_text(  # the players' words
            "The dealer is dealing two hole cards to each player.")

        # ... and signs the first out (a second tap confirms)
        in_menu(second, "#add-device")
        second.locator("#sign-out-others").click()
        expect(second.locator("#sign-out-others")).to_have_text(
            "Tap again: sign out every other device")
        second.locator("#sign-out-others").click()
        expect(second.locator("#pairing-dialog .pairing-out")).to_have_text(
            "Signed out 1 other device. Only this one deals now.")
        second.locator("#pairing-dialog .pairing-close").click()

        # the first tablet, still open, says so at once: the server's sentence in place of
        # the dealer's buttons, and the way back in right there (no reload, no tap)
        expect_signed_out(first)
        expect(first.locator("#error-banner")).to_be_hidden()
        expect(first.locator("#instruction")).to_have_text(  # now the players' words
            "The dealer is dealing two hole cards to each player.")
        pages.shot("pairing-signed-out", "tablet")
        check(first, "a signed-out tablet, light")
        in_menu(first, '[data-theme-choice="dark"]')
        first.locator("#menu-close").click()
        expect(first.locator("html")).to_have_attribute("data-theme", "dark")
        pages.shot("pairing-signed-out-dark", "tablet")
        check(first, "a signed-out tablet, dark")
        in_menu(first, '[data-theme-choice="system"]')
        first.locator("#menu-close").click()
        assert pages.server.api("GET", f"/api/tables/{created['id']}")[1]["seq"] == 1

        # the second still deals; the first follows as a player would
        second.locator('[data-action="next"]').click()
        expect(phone.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
        expect(first.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")

        # reopened, it says the same, never "Could not load the table"
        first.reload()
        expect_signed_out(first)
        expect(first.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
        # opened again by the old dealer link (the key still kept, as on a tablet that was
        # asleep when it was signed out): the server's 401 says why, shown the same way
        parts = urlsplit(created["dealer_url"])
        first.goto(f"{pages.server.url}{parts.path}#{parts.fragment}")
        expect_signed_out(first)
        expect(first.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
        first.reload()
        expect_signed_out(first)
        # the offer in place opens the code entry
        first.locator("#signed-out-enter-code").click()
        expect(first.locator("#pairing-dialog h2")).to_have_text("I'm dealing: enter code")
        # ... and with a new code from the dealing tablet it deals again, the sentence gone
        in_menu(second, "#add-device")
        again = second.locator("#pairing-code")
        expect(again).to_have_text(re.compile(r"^[0-9]{3} [0-9]{3}$"))
        first.locator("#pairing-input").fill(again.inner_text())
        first.locator("#pairing-go").click()
        expect(first.locator("#menu #add-device")).to_have_count(1)
        expect(first.locator('[data-action="call"]')).to_be_visible()
        expect(first.locator("#signed-out")).to_have_count(0)
        first.reload()
        expect(first.locator('[data-action="call"]')).to_be_visible()
        expect(first.locator("#signed-out")).to_have_count(0)
        # the browser notes each refused request (401) on the console: expected here
        refused = [e for e in pages.errors if "status of 401" in e]
        assert refused and all(e.startswith("tablet console:") for e in refused)
        for e in refused:
            pages.errors.remove(e)
        assert not errors, errors
    finally:
        second_ctx.close()
