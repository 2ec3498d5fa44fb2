"""Issue 13, the player's own phone: "I am …" kept on the phone, that player's row pinned on
top with what a call costs them and "Your turn" (a vibration and a flash), the step in the
players' words, the players and the result within the first screen at 360x740 (the smallest
phone in use), who held which
line, the standings of a game of 21 hands, and a link to the table's history."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

SCREEN = {"width": 360, "height": 740}
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve"]
# every card of the ranks 2 to 8, then two more: no rank is entered more than four times with
# the players' cards (A K Q J T 9, one each)
GRID_AND_KINGS = [r + s for r in "2345678" for s in "cdhs"] + ["9c", "Tc"]


def top_of(page: Page, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["y"]


def test_phone_is_the_players_own(pages: Any) -> None:
    server = pages.server
    made = server.create_table("kings_pot", NAMES, name="Friday")
    token = made["dealer_token"]

    def act(body: dict[str, Any]) -> dict[str, Any]:
        status, answer = server.api("POST", f"/api/tables/{made['id']}/actions", body, token)
        assert status == 200, answer
        return answer["state"]

    pages.open(made)
    ph = pages.phone
    ph.set_viewport_size(SCREEN)
    ph.add_init_script("navigator.vibrate = (p) => { window.vibrated = (window.vibrated || 0) + 1;"
                       " return true; };")
    ph.reload()
    expect(ph.locator("#instruction")).to_have_text(
        "Waiting for the dealer to start the first deal.")
    sent: list[str] = []
    ph.on("request", lambda r: sent.append(r.url) if "/static/" not in r.url else None)
    ph.locator('.me-pick [data-me="Dee"]').click()
    expect(ph.locator("#me .me-name-label")).to_have_text("Dee")
    assert sent == []  # picking who you are sends nothing
    assert ph.evaluate(f"localStorage.getItem('dealer-assist:me:{made['id']}')") == "Dee"
    # before the first deal nobody is "Out": no status at all
    expect(ph.locator('#players [data-player="Dee"]')).to_have_class("player status-idle me")
    expect(ph.locator("#players .player-status")).to_have_count(0)
    expect(ph.locator("#history-link")).to_have_attribute("href", f"/t/{made['id']}/history")

    state = act({"type": "start_deal"})
    counts = {"Bob": 1, "Cy": 1, "Dee": 2, "Eve": 1, "Ann": 1}
    while state["step"]["kind"] == "buy":
        state = act({"type": "buy", "player": state["step"]["player"],
                     "count": counts[state["step"]["player"]]})
    expect(ph.locator("#instruction")).to_have_text("The dealer is dealing Bob 1 card.")
    ranks = {"Bob": ["A"], "Cy": ["K"], "Dee": ["Q", "J"], "Eve": ["T"], "Ann": ["9"]}
    while state["step"]["kind"] == "deal_cards":
        state = act({"type": "deal_cards", "player": state["step"]["player"],
                     "cards": ranks[state["step"]["player"]]})
    expect(ph.locator("#instruction")).to_have_text(
        "The dealer is turning the cards marked 1: 5 cards.")
    act({"type": "reveal"})
    act({"type": "bet", "player": "Bob", "amount": 2})
    expect(ph.locator("#your-turn")).to_have_count(0)
    # what a call costs her two cards, before her turn too
    expect(ph.locator("#me .me-call")).to_have_text("4 to call (2 per card × 2)")
    buzzed = ph.evaluate("window.vibrated || 0")  # once when Dee chose her cards
    assert buzzed == 1
    act({"type": "call", "player": "Cy"})
    # Dee's turn: her own row says so, with what a call costs her two cards
    expect(ph.locator("#your-turn")).to_have_text("Your turn")
    expect(ph.locator("#me")).to_have_class("me turn flash")
    expect(ph.locator("#me .me-call")).to_have_text("4 to call (2 per card × 2)")
    expect(ph.locator("#me .me-stack")).to_have_text("98")
    expect(ph.locator("#me .me-cards")).to_have_text("2 live cards")
    assert ph.evaluate("window.vibrated") == buzzed + 1
    assert top_of(ph, "#players") < SCREEN["height"]

    for name in ("Dee", "Eve", "Ann"):
        act({"type": "call", "player": name})
    state = act({"type": "reveal"})
    while state["step"]["kind"] in ("bet", "reveal"):
        step = state["step"]
        state = act({"type": "reveal"} if step["kind"] == "reveal"
                    else {"type": "check", "player": step["player"]})
    cells = dict(zip(state["step"]["cells"], GRID_AND_KINGS, strict=False))
    act({"type": "showdown", "cells": cells, "kings_hand": GRID_AND_KINGS[25:]})
    expect(ph.locator("#instruction")).to_have_text("The deal is over. The next one starts soon.")
    expect(ph.locator("#result .result-sentences li")).not_to_have_count(0)
    assert top_of(ph, "#result") < SCREEN["height"] and top_of(ph, "#players") < SCREEN["height"]
    # King's Pot: who held which line
    expect(ph.locator('table.lines tr[data-line="row1"] .held-by')).to_have_text("Bob")
    expect(ph.locator('table.lines tr[data-line="diag"] .held-by')).to_have_text("Dee")
    expect(ph.locator('table.lines tr[data-line="row2"] .held-by')).to_have_text("\u2014")

    # kept on the phone: a reload knows who this is; "Not me" lets someone else pick
    ph.reload()
    expect(ph.locator("#me .me-name-label")).to_have_text("Dee")
    ph.locator("#me .me-change").click()
    ph.locator('.me-pick [data-me=""]').click()
    expect(ph.locator("#me .me-pick")).to_have_count(0)
    expect(ph.locator("#me .me-open")).to_have_text("I am…")
    assert ph.evaluate(f"localStorage.getItem('dealer-assist:me:{made['id']}')") == ""


def test_phone_shows_the_standings_of_a_game_of_hands(pages: Any) -> None:
    made = pages.server.create_table("twenty_one_hand_holdem", ["Ann", "Bob", "Cy"])
    pages.open(made)
    ph = pages.phone
    expect(ph.locator("#standings-wrap")).to_be_visible()
    expect(ph.locator("#standings li .who")).to_have_text(["Ann", "Bob", "Cy"])
    expect(ph.locator("#standings li .takes")).to_have_text(["4", "4", "4"])
