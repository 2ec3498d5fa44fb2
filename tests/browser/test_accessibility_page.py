"""Issue 13: axe-core (tests/browser/vendor/axe-core) inside the pages: no serious or critical
violation, text contrast of at least 4.5:1, targets of at least 24 px. Every game at every
step, at 1024x768, 768x1024 and 390x844 in both themes, is the matrix's
(test_matrix_page.py); here the sizes either side of it, a big tablet (1280x800, both themes)
and a small phone (360x740), at a betting round and the result, and the history pages
(the home page, the history and a replay)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.axe import check

pytestmark = pytest.mark.browser

SIZES = {"phone": {"width": 360, "height": 740}, "tablet": {"width": 1280, "height": 800}}
GRID_AND_KINGS = [r + s for r in "2345678" for s in "cdhs"] + ["9c", "Tc"]


def check_sizes(page: Page, where: str, seq: int) -> None:
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        page.reload()
        expect(page.locator("#seq")).to_have_text(f"#{seq}")
        check(page, f"{where} at {size_name} size")


def test_every_page_in_every_state_passes_axe(pages: Any) -> None:
    server = pages.server
    made = server.create_table("kings_pot", ["Ann", "Bob", "Cy"], name="Friday")
    token = made["dealer_token"]
    pages.open(made)
    t, ph = pages.tablet, pages.phone
    ph.evaluate(f"localStorage.setItem('dealer-assist:me:{made['id']}', 'Bob')")
    state = server.api("GET", f"/api/tables/{made['id']}")[1]

    def act(body: dict[str, Any]) -> dict[str, Any]:
        status, answer = server.api("POST", f"/api/tables/{made['id']}/actions", body, token)
        assert status == 200, answer
        return answer["state"]

    def check_all(label: str, seq: int) -> None:
        for theme in ("light", "dark"):
            t.evaluate(f"localStorage.setItem('dealer-assist:theme', '{theme}')")
            check_sizes(t, f"the tablet, {label}, {theme}", seq)
        check_sizes(ph, f"the phone, {label}", seq)

    state = act({"type": "start_deal"})
    for count in (2, 1, 1):
        state = act({"type": "buy", "player": state["step"]["player"], "count": count})
    for ranks in (["A", "K"], ["9"], ["Q"]):
        state = act({"type": "deal_cards", "player": state["step"]["player"], "cards": ranks})
    state = act({"type": "reveal"})
    state = act({"type": "bet", "player": "Bob", "amount": 2})
    check_all("in a betting round", state["seq"])
    while state["step"]["kind"] in ("bet", "reveal"):
        step = state["step"]
        state = act({"type": "reveal"} if step["kind"] == "reveal"
                    else {"type": "call" if step["to_call"] else "check", "player": step["player"]})
    cells = dict(zip(state["step"]["cells"], GRID_AND_KINGS, strict=False))
    state = act({"type": "showdown", "cells": cells, "kings_hand": GRID_AND_KINGS[25:]})
    check_all("with the result, between deals", state["seq"])

    for path in ("/", f"/t/{made['id']}/history", f"/t/{made['id']}/history/1"):
        for size_name, size in SIZES.items():
            ph.set_viewport_size(size)
            ph.goto(server.url + path)
            ph.wait_for_load_state("networkidle")
            check(ph, f"{path} at {size_name} size")
