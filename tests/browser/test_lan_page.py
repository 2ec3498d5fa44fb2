"""Issue 32: the app as every real tablet and phone reaches it, over a local network address,
not loopback. The test makes a network namespace joined to this one by a veth pair, with
addresses of its own from 10.x (the only ones it sends anything to), serves the app inside it
with ``ip netns exec``, and opens it in Chromium from outside. Over that address the page is
not a secure context (no Screen Wake Lock), so the tablet keeps its screen on with the video
started by a tap and says so; the host's link makes the host, the key leaves the address bar,
and the host still makes a table after a reload.

Making a namespace needs root (as here and in CI): where it cannot be made, the test fails
and says why; it never skips."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Server
from playwright.sync_api import expect

from browser.conftest import TABLET
from browser.test_awake_page import VIDEO_NOTE

pytestmark = pytest.mark.browser

IP = "/usr/sbin/ip" if Path("/usr/sbin/ip").exists() else "ip"


def ip(*args: str) -> None:
    done = subprocess.run([IP, *args], capture_output=True, text=True, timeout=20)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip() or done.returncode}")


class NamespacedServer(Server):
    """``dealer-assist serve`` inside the namespace, reached on its veth address."""

    def __init__(self, address: str, tmp: Path, namespace: str) -> None:
        self.address = address
        super().__init__(tmp / "lan.db", tmp / "lan.log", port=5000 + random.randrange(1000),
                         launcher=[IP, "netns", "exec", namespace, sys.executable, "-m",
                                   "dealer_assist"])
        self.args = ["serve", "--host", address, "--port", str(self.port), "--db",
                     str(self.db), "--no-mdns"]

    @property
    def url(self) -> str:
        return f"http://{self.address}:{self.port}"


@pytest.fixture
def lan(tmp_path: Path) -> Iterator[tuple[NamespacedServer, str]]:
    tag = f"{os.getpid() % 100000}{random.randrange(10)}"
    namespace, outside, inside = f"da-lan-{tag}", f"dal{tag}o", f"dal{tag}i"
    net = f"10.{random.randrange(200, 250)}.{random.randrange(256)}"
    made: list[str] = []
    server: NamespacedServer | None = None
    try:
        try:
            ip("netns", "add", namespace)
            made.append("netns")
            ip("link", "add", outside, "type", "veth", "peer", "name", inside)
            made.append("veth")
            ip("link", "set", inside, "netns", namespace)
            ip("addr", "add", f"{net}.1/30", "dev", outside)
            ip("link", "set", outside, "up")
            ip("netns", "exec", namespace, IP, "addr", "add", f"{net}.2/30", "dev", inside)
            ip("netns", "exec", namespace, IP, "link", "set", inside, "up")
            ip("netns", "exec", namespace, IP, "link", "set", "lo", "up")
        except (RuntimeError, OSError) as err:
            pytest.fail(f"Cannot make the test's network namespace ({err}). This test serves "
                        "the app on a non-loopback address inside a namespace of its own: run "
                        "it as root (as CI does) on a machine with iproute2 and veth.",
                        pytrace=False)
        server = NamespacedServer(f"{net}.2", tmp_path, namespace)
        server.start()
        key = re.search(r"Host key: (\S+) ", server.output())
        assert key is not None, server.output()
        yield server, key.group(1)
    finally:
        if server is not None:
            server.stop()
        if "veth" in made:
            subprocess.run([IP, "link", "del", outside], capture_output=True, timeout=20)
        if "netns" in made:
            ip("netns", "del", namespace)


def test_over_a_lan_address_the_host_gets_in_and_the_tablet_keeps_its_screen_on(
        chromium: Any, lan: tuple[NamespacedServer, str]) -> None:
    server, key = lan
    banner = server.output()
    assert banner.startswith("Dealer Assist is running. First, on the tablet that makes the "
                             "tables, scan this host link")  # its QR code next (test_cli.py)
    assert f"Players and other devices open {server.url}/ or scan:" in banner
    errors: list[str] = []
    ctx = chromium.new_context(viewport=TABLET, has_touch=True)
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/")
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'wakeLock' in navigator") is False
        expect(page.locator("#guest-note")).to_be_visible()  # the plain address: a guest

        # the host's link: the key is kept, and leaves the address bar
        page.goto(f"{server.url}/#host={key}")
        expect(page.locator("#host-setup")).to_be_visible()
        assert page.url == server.url + "/"
        page.reload()
        expect(page.locator("#host-setup")).to_be_visible()
        assert "#host=" not in page.url
        page.locator('input[name="variant"][value="texas_holdem"]').check()
        for name in ("Ann", "Bob", "Cy"):
            page.fill("#new-player", name)
            page.locator("#add-player").click()
        page.locator("#create-table").click()
        page.wait_for_url("**/dealer")
        assert page.url.startswith(server.url + "/t/") and "#" not in page.url

        # live over the LAN address (the websocket too)
        expect(page.locator("#conn")).to_have_attribute("data-status", "live")
        expect(page.locator('[data-action="start_deal"]')).to_be_visible()

        # the tablet says how its screen is kept on, and a tap starts the video
        page.locator("#menu-button").click()
        expect(page.locator("#awake-note")).to_have_text(VIDEO_NOTE)
        folder = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
        if folder:
            page.screenshot(path=str(Path(folder) / "tablet-lan-menu.png"))
        page.locator("#menu-close").click()
        expect(page.locator("body")).not_to_have_attribute("data-awake", "video")
        page.locator('[data-action="start_deal"]').click()
        expect(page.locator("body")).to_have_attribute("data-awake", "video")
        expect(page.locator("#awake-notice")).to_be_hidden()
        expect(page.locator('[data-action="next"]')).to_be_visible()
    finally:
        ctx.close()
    assert not errors, errors
