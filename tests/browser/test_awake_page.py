"""Issue 22: the tablet keeps its screen on through a deal (the Screen Wake Lock API) and lets it
go between deals; and it says each step aloud (the browser's speech synthesis) once the dealer
turns spoken prompts on in the menu, never before.

The page's calls are recorded by replacing the two browser functions before the page loads:
what is checked is what the page asks of the browser, and when."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from browser.conftest import TABLET

pytestmark = pytest.mark.browser

RECORD = """
window.__spoken = [];
window.__locks = {taken: 0, released: 0};
if (!window.speechSynthesis) window.speechSynthesis = {};
window.speechSynthesis.speak = (u) => window.__spoken.push(u.text);
window.speechSynthesis.cancel = () => {};
if (!window.SpeechSynthesisUtterance) {
  window.SpeechSynthesisUtterance = function (t) { this.text = t; };
}
const sentinel = () => {
  const listeners = [];
  return {
    released: false,
    addEventListener: (_, f) => listeners.push(f),
    release: async function () {
      window.__locks.released++;
      this.released = true;
      listeners.forEach((f) => f());
    },
  };
};
Object.defineProperty(navigator, "wakeLock", {value: {
  request: async (kind) => {
    if (kind !== "screen") throw new Error(kind);
    window.__locks.taken++;
    return sentinel();
  },
}});
"""


def test_the_screen_stays_on_through_a_deal_and_prompts_are_spoken_when_asked(
        chromium: Any, live_server: Any) -> None:
    made = live_server.create_table("texas_holdem", ["Ann", "Bob", "Cy"], name="Awake")
    ctx = chromium.new_context(viewport=TABLET)
    errors: list[str] = []
    try:
        ctx.add_init_script(RECORD)
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{live_server.url}/t/{made['id']}/dealer#token={made['dealer_token']}")
        locks = lambda: page.evaluate("window.__locks")  # noqa: E731
        spoken = lambda: page.evaluate("window.__spoken")  # noqa: E731

        # between deals: the screen may sleep
        expect(page.locator('[data-action="start_deal"]')).to_be_visible()
        assert locks() == {"taken": 0, "released": 0}
        page.locator('[data-action="start_deal"]').click()
        expect(page.locator("body")).to_have_attribute("data-awake", "yes")
        page.locator('[data-action="next"]').click()
        expect(page.locator("#instruction")).to_have_text("Pre-flop: Ann: 2 to call.")
        assert locks() == {"taken": 1, "released": 0}  # once for the whole deal
        assert spoken() == []  # off by default

        # the dealer turns spoken prompts on: the step now is said, and each one after it
        page.locator("#menu-button").click()
        toggle = page.locator("#speak-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        toggle.click()
        expect(toggle).to_have_attribute("aria-pressed", "true")
        expect(toggle).to_have_text("Spoken prompts: on")
        folder = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
        if folder:
            page.screenshot(path=str(Path(folder) / "tablet-menu.png"))
        page.locator("#menu-close").click()
        assert spoken() == ["Ann to act, 2 to call"]
        page.locator('[data-action="call"]').click()
        expect(page.locator("#instruction")).to_have_text("Pre-flop: Bob: 1 to call.")
        page.locator('[data-action="fold"]').click()
        expect(page.locator("#instruction")).to_have_text("Pre-flop: Cy: check or raise.")
        page.locator('[data-action="check"]').click()
        expect(page.locator("#instruction")).to_have_text("Turn the flop: 3 cards, framed.")
        assert spoken() == ["Ann to act, 2 to call", "Bob to act, 1 to call", "Cy to act",
                            "Turn the flop: 3 cards, framed."]

        # the choice is kept on the tablet
        page.reload()
        expect(page.locator("#speak-toggle")).to_have_attribute("aria-pressed", "true")

        # the deal over (Ann folds too): the lock is let go
        page.locator('[data-action="reveal"]').click()
        page.locator('[data-action="fold"]').click()
        expect(page.locator("#between")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-awake", "no")
        assert locks()["released"] == 1
    finally:
        ctx.close()
    assert not errors, errors
