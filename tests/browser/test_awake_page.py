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


# Over http://<LAN address> a page is not a secure context and has no navigator.wakeLock: the
# same here on loopback with the API taken away before the page loads. The video's play() is
# recorded (and still called): which element, and whether the dealer's tap was active then.
RECORD_PLAY = """
window.__plays = [];
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  window.__video = this;
  window.__plays.push({tap: navigator.userActivation.isActive, muted: this.muted,
                       loop: this.loop, kind: (this.querySelector("source") || {}).type});
  return play.call(this);
};
"""
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;" + RECORD_PLAY

# A lock the browser refuses (a battery saver), as the page would meet it: the attribute
# Chromium has, redefined. And a video that will not play either.
REFUSED = """
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => ({
  request: async () => { throw new DOMException("battery saver", "NotAllowedError"); },
})});
"""
NO_VIDEO = """
HTMLMediaElement.prototype.play = function () {
  return Promise.reject(new DOMException("not allowed", "NotAllowedError"));
};
"""

VIDEO_NOTE = ("Screen: kept on during a deal by a silent looping video, since this address "
              "(not https) gets no wake lock. A tap starts it.")
VIDEO_REFUSED_NOTE = ("Screen: kept on during a deal by a silent looping video, since the "
                      "browser refused its wake lock. A tap starts it.")
REFUSED_NOTE = ("Screen: this browser will not keep it on, so it may sleep mid-deal. Set the "
                "tablet's screen timeout to its longest for the night.")


def open_dealer(chromium: Any, live_server: Any, script: str, name: str) -> tuple[Any, Any]:
    made = live_server.create_table("texas_holdem", ["Ann", "Bob", "Cy"], name=name)
    ctx = chromium.new_context(viewport=TABLET)
    ctx.add_init_script(script)
    page = ctx.new_page()
    page.goto(f"{live_server.url}/t/{made['id']}/dealer#token={made['dealer_token']}")
    expect(page.locator('[data-action="start_deal"]')).to_be_visible()
    return ctx, page


def test_without_a_wake_lock_a_muted_looping_video_started_by_a_tap_keeps_the_screen_on(
        chromium: Any, live_server: Any) -> None:
    ctx, page = open_dealer(chromium, live_server, NO_WAKE_LOCK, "No lock")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        assert page.evaluate("'wakeLock' in navigator") is False
        page.locator("#menu-button").click()
        expect(page.locator("#awake-note")).to_have_text(VIDEO_NOTE)
        page.locator("#menu-close").click()
        assert page.evaluate("window.__plays") == []  # between deals the screen may sleep

        page.locator('[data-action="start_deal"]').click()
        expect(page.locator("body")).to_have_attribute("data-awake", "video")
        plays = page.evaluate("window.__plays")
        assert plays[0] == {"tap": True, "muted": True, "loop": False, "kind": "video/webm"}
        # it really plays: time goes on (NoSleep loops it once its length is known)
        page.wait_for_function("() => window.__video.currentTime > 0 && !window.__video.paused")
        assert page.evaluate("window.__video.isConnected") is False  # never drawn on the page
        expect(page.locator("#awake-notice")).to_be_hidden()

        # the deal over (two fold): the video stops, the screen may sleep again
        page.locator('[data-action="next"]').click()
        page.locator('[data-action="fold"]').click()
        page.locator('[data-action="fold"]').click()
        expect(page.locator("#between")).to_be_visible()
        expect(page.locator("body")).to_have_attribute("data-awake", "no")
        assert page.evaluate("window.__video.paused") is True
    finally:
        ctx.close()
    assert not errors, errors


def test_a_refused_wake_lock_falls_back_to_the_video(chromium: Any, live_server: Any) -> None:
    ctx, page = open_dealer(chromium, live_server, REFUSED + RECORD_PLAY,
                            "Refused lock")
    try:
        assert page.evaluate("'wakeLock' in navigator") is True
        page.locator('[data-action="start_deal"]').click()
        expect(page.locator("body")).to_have_attribute("data-awake", "video")
        page.wait_for_function("() => window.__video.currentTime > 0 && !window.__video.paused")
        assert page.evaluate("window.__plays")[0]["muted"] is True
        assert page.evaluate("'wakeLock' in navigator") is True  # given back to the page
        page.locator("#menu-button").click()
        expect(page.locator("#awake-note")).to_have_text(VIDEO_REFUSED_NOTE)
        expect(page.locator("#awake-notice")).to_be_hidden()
    finally:
        ctx.close()


def test_when_nothing_keeps_the_screen_on_it_is_said_once_and_in_the_menu(
        chromium: Any, live_server: Any) -> None:
    ctx, page = open_dealer(chromium, live_server, REFUSED + NO_VIDEO, "Refused")
    try:
        page.locator('[data-action="start_deal"]').click()
        # the lock refused, the video not started outside a tap: the next tap tries it
        expect(page.locator("body")).to_have_attribute("data-awake", "tap")
        expect(page.locator("#awake-notice")).to_be_hidden()
        page.locator("#instruction").click()
        expect(page.locator("body")).to_have_attribute("data-awake", "refused")
        expect(page.locator("#awake-notice")).to_be_visible()
        expect(page.locator("#awake-notice-text")).to_have_text(REFUSED_NOTE)
        folder = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
        if folder:
            page.screenshot(path=str(Path(folder) / "tablet-awake-refused.png"))
        page.locator("#awake-notice-close").click()
        expect(page.locator("#awake-notice")).to_be_hidden()
        page.locator("#menu-button").click()
        expect(page.locator("#awake-note")).to_have_text(REFUSED_NOTE)

        # not a nag: the next visit on this tablet says it in the menu only
        page.reload()
        expect(page.locator('[data-action="next"]')).to_be_visible()
        page.locator("#instruction").click()
        expect(page.locator("body")).to_have_attribute("data-awake", "refused")
        expect(page.locator("#awake-notice")).to_be_hidden()
        page.locator("#menu-button").click()
        expect(page.locator("#awake-note")).to_have_text(REFUSED_NOTE)
    finally:
        ctx.close()
