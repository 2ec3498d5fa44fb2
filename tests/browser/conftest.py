"""Browser tests: a real ``dealer-assist serve`` subprocess on a free port with a temporary
database, and Debian's Chromium driven by Playwright (never a downloaded browser).

Set ``DEALER_ASSIST_SCREENSHOTS=<folder>`` to have the tests save the documentation
screenshots (tablet-*.png, phone-*.png) as they play.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import Server

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str:
    """Debian's Chromium; the tests fail (never skip) without it."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.fail("Chromium is missing: install Debian's chromium package (apt-get install "
                "chromium); the browser tests need /usr/bin/chromium.", pytrace=False)


# One helper starts every real server of the test suite (tests/conftest.py's ``Server``);
# ``LiveServer`` is its name here, kept for the browser tests' type hints.
LiveServer = Server


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("server")
    server = LiveServer(tmp / "browser.db", tmp / "server.log")
    try:
        server.start()
    except AssertionError as err:
        pytest.fail(str(err), pytrace=False)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    path = chromium_path()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=10_000)  # a slow CI machine is not a failure
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class Pages:
    """A tablet (the dealer's) and a phone (a player's), each in its own browser context."""

    def __init__(self, browser: Any, server: LiveServer) -> None:
        self.server = server
        self.errors: list[str] = []
        self.tablet_ctx = browser.new_context(viewport=TABLET, device_scale_factor=1,
                                              has_touch=True)
        self.phone_ctx = browser.new_context(viewport=PHONE, device_scale_factor=1,
                                             has_touch=True, is_mobile=True,
                                             color_scheme="dark")
        self.tablet = self.tablet_ctx.new_page()
        self.phone = self.phone_ctx.new_page()
        for label, page in (("tablet", self.tablet), ("phone", self.phone)):
            page.set_default_timeout(10_000)
            page.on("pageerror", lambda exc, label=label: self.errors.append(f"{label}: {exc}"))
            page.on("console", lambda msg, label=label: self.console(label, msg))
            page.on("dialog", lambda d, label=label: (self.errors.append(
                f"{label}: a dialog opened: {d.message}"), d.dismiss()))
        self.shots = os.environ.get("DEALER_ASSIST_SCREENSHOTS")

    def console(self, label: str, msg: Any) -> None:
        """Console errors fail the test, except the browser's own note on an answer the
        page expects: a refused action (400) or a stale one (409)."""
        if msg.type != "error":
            return
        if re.match(r"Failed to load resource: .* status of (400|409)\b", msg.text):
            return
        self.errors.append(f"{label} console: {msg.text}")

    def open(self, created: dict[str, Any]) -> None:
        # the server may name its LAN address; the tests stay on the loopback one
        parts = urlsplit(created["dealer_url"])
        self.tablet.goto(f"{self.server.url}{parts.path}#{parts.fragment}")
        self.phone.goto(f"{self.server.url}/t/{created['id']}")

    def shot(self, name: str, which: str = "both") -> None:
        if not self.shots:
            return
        folder = Path(self.shots)
        folder.mkdir(parents=True, exist_ok=True)
        if which in ("both", "tablet"):
            self.tablet.screenshot(path=str(folder / f"tablet-{name}.png"))
        if which in ("both", "phone"):
            self.phone.screenshot(path=str(folder / f"phone-{name}.png"), full_page=True)

    def shot_portrait(self, name: str) -> None:
        """The tablet held upright (768x1024)."""
        if not self.shots:
            return
        self.tablet.set_viewport_size({"width": TABLET["height"], "height": TABLET["width"]})
        self.tablet.evaluate("window.scrollTo(0, 0)")
        self.tablet.wait_for_timeout(200)
        self.tablet.screenshot(path=str(Path(self.shots) / f"tablet-{name}.png"))
        self.tablet.set_viewport_size(TABLET)

    def close(self) -> None:
        self.tablet_ctx.close()
        self.phone_ctx.close()


@pytest.fixture
def pages(chromium: Any, live_server: LiveServer) -> Iterator[Pages]:
    p = Pages(chromium, live_server)
    yield p
    p.close()
    assert not p.errors, "\n".join(p.errors)
