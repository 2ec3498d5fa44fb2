"""The phone page follows the table through ``state_patch`` events (only what changed, after
one whole state), and a phone that misses a patch joins again and is whole: its seq never
goes backwards, and it ends on exactly the state the tablet shows."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee"]


def test_phone_misses_a_patch_and_is_whole_again(pages: Any) -> None:
    server = pages.server
    made = server.create_table("kings_pot", NAMES, name="Lossy")
    token = made["dealer_token"]
    joins: list[str] = []
    patches: list[str] = []
    dropped: list[str] = []

    def proxy(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def from_page(message: Any) -> None:
            if isinstance(message, str) and message.startswith('42["join"'):
                joins.append(message)
            upstream.send(message)

        def from_server(message: Any) -> None:
            if isinstance(message, str) and message.startswith('42["state_patch"'):
                patches.append(message)
                if len(patches) == 2:  # the Wi-Fi loses this one
                    dropped.append(message)
                    return
            ws.send(message)

        ws.on_message(from_page)
        upstream.on_message(from_server)

    ph = pages.phone
    ph.route_web_socket("**/socket.io/**", proxy)
    pages.open(made)
    expect(ph.locator("#conn")).to_have_attribute("data-status", "live")
    ph.evaluate("""() => {
        window.__seqs = [];
        new MutationObserver(() => window.__seqs.push(
            Number(document.getElementById("seq").textContent.slice(1)))
        ).observe(document.getElementById("seq"), {childList: true, characterData: true,
                                                    subtree: true});
    }""")
    bodies = [{"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 1},
              {"type": "buy", "player": "Cy", "count": 2},
              {"type": "buy", "player": "Dee", "count": 1},
              {"type": "buy", "player": "Ann", "count": 1}]
    for body in bodies:
        status, answer = server.api("POST", f"/api/tables/{made['id']}/actions", body, token)
        assert status == 200, answer
    last = answer["seq"]
    expect(ph.locator("#seq")).to_have_text(f"#{last}")
    expect(pages.tablet.locator("#seq")).to_have_text(f"#{last}")
    assert '"patches":true' in joins[0]
    assert len(dropped) == 1 and len(joins) == 2  # the gap seen: one join again, no more
    public = server.api("GET", f"/api/tables/{made['id']}")[1]
    expect(ph.locator("#log li").first).to_have_text(public["log"][-1])
    expect(ph.locator("#players .player-name")).to_have_text(NAMES)
    seqs = ph.evaluate("window.__seqs")
    assert seqs == sorted(seqs) and seqs[-1] == last
