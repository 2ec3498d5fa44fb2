"""The options of a Hold'em night on the tablet, a phone following (issue 23), tapped as a dealer
taps them: the next deal's own options between deals (the straddle, "Bomb pot: 5 each"), a bomb
pot dealt (who posted what, no blind marked), the hands tabled at an all-in with each player's
chance on every screen (sampled with its margin, then exact), the board run twice (the second
run's places beside the first, framed when they are to be turned) and its result, then a deal
straddled (who posts what, SB, BB and the straddle on the players' rows).

At each of those states what a person sees is checked as the matrix checks it
(tests/browser/look.py) on the tablet held both ways and on the phone, in both themes; with
``DEALER_ASSIST_SCREENSHOTS=<folder>`` each is saved as ``<view>-<stage>-<theme>.png``
(docs/screenshots).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.felt import type_cards
from browser.look import problems

pytestmark = pytest.mark.browser

VIEWS = (("tablet", "tablet", {"width": 1024, "height": 768}),
         ("tablet", "tablet-upright", {"width": 768, "height": 1024}),
         ("phone", "phone", {"width": 390, "height": 844}))
BOARD = ["b1", "b2", "b3", "b4", "b5"]


def look(pages: Any, stage: str, *, cells: list[str], marked: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """Every view and theme of the state on screen: what is wrong with it; saved as the
    documentation's screenshots where asked."""
    found: list[str] = []
    folder = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
    for device, view, size in VIEWS:
        page: Page = getattr(pages, device)
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        for theme in ("light", "dark"):
            page.emulate_media(color_scheme=theme)
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
            found += [f"{stage} {view} {theme}: {p}" for p in problems(
                page, cells=cells, marked=list(marked) if device == "tablet" else [],
                instruction_min=300 if device == "tablet" else 250,
                with_axe=view != "tablet-upright")]
            if folder:
                Path(folder).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(Path(folder) / f"{view}-{stage}-{theme}.png"),
                                full_page=device == "phone")
    pages.tablet.set_viewport_size(VIEWS[0][2])
    return found


def api(pages: Any, created: dict[str, Any], *bodies: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for body in bodies:
        status, answer = pages.server.api("POST", f"/api/tables/{created['id']}/actions", body,
                                          created["dealer_token"])
        assert status == 200, (body, answer)
        state = answer["state"]
    return state


def seq(pages: Any, state: dict[str, Any]) -> None:
    for page in (pages.tablet, pages.phone):
        expect(page.locator("#seq")).to_have_text(f"#{state['seq']}")


def test_a_bomb_pot_tabled_hands_and_a_board_run_twice_on_tablet_and_phone(pages: Any) -> None:
    created = pages.server.create_table(
        "texas_holdem", ["Ann", "Bob", "Cy", "Dee"], name="Friday at Dee's",
        rules={"small_blind": 1, "big_blind": 2, "straddle": True, "bomb_pot_ante": 5})
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    ph.locator('[data-me="Ann"]').click()
    found: list[str] = []

    # between deals: the straddle on (the table's rule), a bomb pot of the rule's 5
    straddle = t.locator('[data-do="straddle"]')
    expect(straddle).to_have_text("Straddle: on")
    expect(straddle).to_have_attribute("aria-pressed", "true")
    bomb = t.locator('[data-action="bomb_pot"]')
    expect(bomb).to_have_text("Bomb pot: 5 each")
    t.locator('[data-step="plus"]').click()
    expect(bomb).to_have_text("Bomb pot: 6 each")
    t.locator('[data-step="minus"]').click()
    straddle.click()
    expect(straddle).to_have_text("Straddle: off")
    found += look(pages, "deal-options", cells=BOARD)

    # one tap: a bomb pot of 5; who posted what, and no blind on any row
    bomb.click()
    expect(t.locator("#instruction")).to_have_text(
        "Deal two hole cards to each player, then tap Next.")
    expect(t.locator("#posted")).to_contain_text("Everyone antes for the bomb pot: 5")
    for page in (t, ph):
        expect(page.locator('.pot.flag[data-flag="bomb_pot"]')).to_have_text("Bomb pot · 5 each")
        expect(page.locator(".blind-marker")).to_have_count(0)
        expect(page.locator('#players [data-player="Ann"] .player-stack')).to_have_text("95")
    found += look(pages, "bomb-pot", cells=BOARD)

    # no pre-flop betting: the flop is turned first, entered as it is turned
    t.locator('[data-action="next"]').click()
    expect(t.locator("#instruction")).to_have_text("Turn the flop: 3 cards, framed.")
    type_cards(t, "reveal", "As 7d 2c")
    t.locator('[data-action="reveal"]').click()
    expect(t.locator("#instruction")).to_have_text("Flop: Bob: check or bet.")
    state = api(pages, created, {"type": "all_in", "player": "Bob"},
                {"type": "fold", "player": "Cy"}, {"type": "fold", "player": "Dee"},
                {"type": "call", "player": "Ann"})
    seq(pages, state)

    # at the all-in: Ann tables her hand; Bob's unseen, the chances are sampled
    expect(t.locator('[data-action="run_twice"]')).to_be_visible()
    t.locator('[data-action="table-hands"]').click()
    expect(t.locator('[data-place="p:Ann"] .place-title')).to_have_text("Ann's hand")
    type_cards(t, "p:Ann", "Kh Kd")
    t.locator('[data-action="show"]').click()
    for page in (t, ph):
        expect(page.locator('#equity-box [data-player="Ann"] .equity-pc')).to_have_text(
            re.compile(r"^\d+%$"))
        expect(page.locator(".equity-margin")).to_have_attribute("data-exact", "no")
        expect(page.locator(".equity-margin")).to_contain_text("points (95%)")
        expect(page.locator('#players [data-player="Ann"] .player-hand .card')).to_have_count(2)
    found += look(pages, "tabled-sampled", cells=BOARD, marked=["b4"])

    # Bob tables too: the chances are exact; then the board is run twice
    t.locator('[data-action="table-hands"]').click()
    type_cards(t, "p:Bob", "Ac Qc")
    t.locator('[data-action="show"]').click()
    expect(t.locator(".equity-margin")).to_have_attribute("data-exact", "yes")
    expect(ph.locator('#players [data-player="Bob"] .player-equity')).to_have_text(
        re.compile(r"^\d+% to win$"))
    t.locator('[data-action="run_twice"]').click()
    expect(t.locator("#instruction")).to_have_text("Turn the first run's turn: 1 card, framed.")
    for page in (t, ph):
        expect(page.locator('.run[data-run="2"] [data-cell="b4.2"]')).to_be_visible()
        expect(page.locator('.pot.flag[data-flag="run_twice"]')).to_be_visible()
        expect(page.locator(".equity-runs").first).to_contain_text("run 2")
    type_cards(t, "reveal", "9h")
    t.locator('[data-action="reveal"]').click()
    expect(t.locator("#instruction")).to_have_text("Turn the first run's river: 1 card, framed.")
    type_cards(t, "reveal", "4s")
    t.locator('[data-action="reveal"]').click()
    expect(t.locator("#instruction")).to_have_text("Turn the second run's turn: 1 card, framed.")
    # the second run's place to turn is framed, entered the same way as the first run's
    for page in (t, ph):
        expect(page.locator('[data-cell="b4.2"]')).to_have_class(re.compile(r"\bhighlight\b"))
    found += look(pages, "run-twice", cells=[*BOARD, "b4.2", "b5.2"], marked=["b4.2"])
    type_cards(t, "reveal", "Ks")
    t.locator('[data-action="reveal"]').click()
    # the river's place is framed before its card is typed (as for the first run): typed
    # sooner, a loaded CI run's redraw dropped the card
    expect(t.locator("#instruction")).to_have_text("Turn the second run's river: 1 card, framed.")
    type_cards(t, "reveal", "3c")
    t.locator('[data-action="reveal"]').click()

    # every hand was tabled: the showdown asks for nothing more
    expect(t.locator("#instruction")).to_have_text("Showdown: every hand is tabled; tap Show down.")
    t.locator('[data-action="showdown"]').click()
    for page in (t, ph):
        sentences = page.locator(".result-sentences li")
        # 20 anted and 95 each: 210, a half a run
        expect(sentences.first).to_have_text("Pot 210, first run's half 105: Bob, a pair of aces.")
        expect(sentences.nth(1)).to_have_text("Pot 210, second run's half 105: Ann, three kings.")
    found += look(pages, "run-twice-result", cells=BOARD)

    # the next deal, with the table's straddle: who posts what, and each blind on its row
    t.locator('[data-action="start_deal"]').click()
    expect(t.locator("#posted .posted-item")).to_have_text(
        ["Cy small blind 1", "Dee big blind 2", "Ann straddle 4"])
    for page in (t, ph):
        for name, marker in (("Cy", "SB"), ("Dee", "BB"), ("Ann", "Straddle")):
            expect(page.locator(f'#players [data-player="{name}"] .blind-marker')).to_have_text(
                marker)
    found += look(pages, "straddle", cells=BOARD)
    assert not found, "\n".join(found)
