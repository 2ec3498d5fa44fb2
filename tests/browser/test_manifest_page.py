"""Add to home screen: the join (phone) page links a web app manifest that Chromium parses
without an error, with the app's name and icons of 192 and 512 pixels that load."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_the_join_page_links_a_manifest_whose_icons_load(pages: Any) -> None:
    server, phone = pages.server, pages.phone
    created = server.create_table("texas_dozen", ["Ann", "Bob"])
    phone.goto(f"{server.url}/t/{created['id']}")
    href = phone.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/static/manifest.webmanifest"

    # Chromium's own reading of the manifest, as "Add to home screen" uses it
    cdp = phone.context.new_cdp_session(phone)
    found = cdp.send("Page.getAppManifest")
    assert found["url"] == f"{server.url}{href}"
    assert found["errors"] == []
    manifest = json.loads(found["data"])
    assert (manifest["name"], manifest["short_name"], manifest["display"]) == (
        "Dealer Assist", "Dealer Assist", "standalone")
    assert "start_url" not in manifest  # the icon opens the table it was added from

    answer = phone.request.get(f"{server.url}{href}")
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")

    sizes = {}
    for icon in manifest["icons"]:
        url = f"{server.url}/static/{icon['src']}"
        assert phone.request.get(url).headers["content-type"] == "image/png"
        width, height = phone.evaluate(
            """url => new Promise((done, fail) => {
                   const img = new Image();
                   img.onload = () => done([img.naturalWidth, img.naturalHeight]);
                   img.onerror = () => fail(new Error("no image at " + url));
                   img.src = url;
               })""", url)
        sizes[icon["sizes"]] = (width, height)
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}
    touch = phone.locator('link[rel="apple-touch-icon"]').get_attribute("href")
    assert touch == "/static/img/icon-192.png"
