"""Issue 22's matrix: every game, dealt at a table made for another (R71: a cash game is dealt
by dealer's choice at a King's Pot table, King's Pot at a Texas Hold'em one; 21 Hand Hold'em,
a whole game of its own, at its own table), on the tablet held both ways (1024x768, 768x1024)
and on a phone (390x844), in the light and the dark theme, at each key step (between deals, the
deal's first step, a reveal, betting, the showdown's entry, the result). At every one, what a
person sees is checked (tests/browser/look.py): every card place of the dealt game's layout and
its own places drawn, the places to turn framed, no sideways scroll, no word broken across
lines, the instruction one readable block, every target at least 44x44 px, and axe-core clean.
On the tablet, two things more: the hands entered at the showdown each as wide as the others
(a hand alone on its row does not span the felt), and the result read before the next deal's
taps: its sentences in the window as it opens, they and the felt above the start (SHAPE).

The steps are reached through the API (tests/browser/drive.py), which the pages follow by their
socket; each page state is then looked at in every size and theme without loading it again.

``DEALER_ASSIST_SCREENSHOTS=<folder>`` saves the documentation's screenshots as the matrix
passes them (DOC_SHOTS); ``DEALER_ASSIST_MATRIX_SHOTS=<folder>`` saves every one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.drive import STAGES, Driver
from browser.look import problems
from dealer_assist.games.registry import all_games

pytestmark = pytest.mark.browser

TABLET_WIDE = {"width": 1024, "height": 768}
TABLET_UPRIGHT = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}
THEMES = ("light", "dark")
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]

GAMES = [g.metadata() for g in all_games()]
BY_VARIANT = {g["variant"]: g for g in GAMES}
CASH = [g for g in GAMES if not g["whole_game"]]


def host_of(game: dict[str, Any]) -> str:
    """The game the table is made for: the first cash game (King's Pot's grid, a board game
    dealt there as issue 22 found it), for that one the last (a grid dealt at a board's
    table), or the game itself where it is a whole game of its own."""
    if game["whole_game"]:
        return str(game["variant"])
    return str((CASH[-1] if game is CASH[0] else CASH[0])["variant"])


# (variant, stage, view, theme) -> the name of the documentation's screenshot
DOC_SHOTS = {
    ("kings_pot", "buying", "wide", "light"): "tablet-buy",
    ("kings_pot", "reveal", "wide", "light"): "tablet-reveal",
    ("kings_pot", "betting", "wide", "light"): "tablet-bet",
    ("kings_pot", "betting", "upright", "dark"): "tablet-bet-portrait",
    ("kings_pot", "betting", "phone", "dark"): "phone-bet",
    ("kings_pot", "showdown", "wide", "dark"): "tablet-showdown",
    ("kings_pot", "result", "wide", "light"): "tablet-result",
    ("kings_pot", "result", "phone", "light"): "phone-result",
    ("texas_dozen", "showdown", "upright", "light"): "tablet-td-showdown",
    ("texas_holdem", "reveal", "wide", "dark"): "tablet-flop",
    ("texas_holdem", "reveal", "phone", "light"): "phone-flop",
    ("texas_holdem", "showdown", "wide", "light"): "tablet-holdem-showdown",
    ("twenty_one_hand_holdem", "result", "upright", "light"): "tablet-twenty-one-result",
    ("off_road_stud", "between", "phone", "light"): "phone-before-the-first-deal",
    ("seven_card_stud", "reveal", "wide", "light"): "tablet-stud-third-street-light",
    ("seven_card_stud", "reveal", "upright", "dark"): "tablet-stud-third-street-dark",
    ("seven_card_stud", "betting", "wide", "dark"): "tablet-stud-bring-in-dark",
    ("seven_card_stud", "betting", "upright", "light"): "tablet-stud-bring-in-light",
    ("seven_card_stud", "betting", "phone", "light"): "phone-stud-light",
    ("seven_card_stud", "betting", "phone", "dark"): "phone-stud-dark",
    ("seven_card_stud", "showdown", "wide", "dark"): "tablet-stud-showdown-dark",
    ("seven_card_stud", "showdown", "upright", "light"): "tablet-stud-showdown-light",
    ("razz", "betting", "wide", "light"): "tablet-razz-light",
    ("seven_card_stud_hi_lo", "result", "wide", "light"): "tablet-stud-hi-lo-result-light",
    ("seven_card_stud_hi_lo", "result", "phone", "dark"): "phone-stud-hi-lo-result-dark",
    ("home", "home", "wide", "light"): "tablet-home",
    ("home", "home", "wide", "dark"): "tablet-home-dark",
}


def views(game: dict[str, Any]) -> list[tuple[str, str, dict[str, int]]]:
    return [("tablet", "wide", TABLET_WIDE), ("tablet", "upright", TABLET_UPRIGHT),
            ("phone", "phone", PHONE)]


@pytest.fixture(scope="module")
def devices(chromium: Any, live_server: Any) -> Iterator[dict[str, Any]]:
    """One tablet and one phone for the whole matrix: each game's table opens in them in turn."""
    tablet = chromium.new_context(viewport=TABLET_WIDE, device_scale_factor=1, has_touch=True)
    phone = chromium.new_context(viewport=PHONE, device_scale_factor=1, has_touch=True,
                                 is_mobile=True)
    pages = {"tablet": tablet.new_page(), "phone": phone.new_page()}
    errors: list[str] = []
    for label, page in pages.items():
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda exc, label=label: errors.append(f"{label}: {exc}"))
    yield {"pages": pages, "errors": errors, "server": live_server}
    tablet.close()
    phone.close()


def expected(state: dict[str, Any], device: str) -> dict[str, Any]:
    """The card places this page must draw for ``state`` (its game's: before the first deal,
    the table's), and the ones it must frame."""
    game = BY_VARIANT[state["variant"]]
    step = state["step"]
    marked: list[str] = []
    if step["kind"] == "reveal" or (step["kind"] == "showdown" and device == "tablet"):
        marked = list(step.get("cells") or [])
    cells = list(game["layout"]["cells"])
    if game["layout"]["kind"] == "up_cards":  # R81: the card in the middle only once it is
        cells = [c for c in cells if (state.get("grid") or {}).get("cells", {}).get(c)
                 is not None or c in marked or c in (step.get("cells") or [])]
    return {
        "cells": cells,
        "marked": marked,
        "places": [(p["id"], p["cards"]) for p in game["places"]],
        "instruction_min": 300 if device == "tablet" else 250,
    }


SHAPE = """({stage}) => {
  const bad = [];
  const box = (el) => el.getBoundingClientRect();
  if (stage === "showdown") {
    const felt = document.querySelector(".area-grid .felt");
    const hands = [...document.querySelectorAll("#places > .place:not(.of-game)")];
    const widths = hands.map((el) => Math.round(box(el).width));
    if (hands.length > 1 && Math.max(...widths) - Math.min(...widths) > 1) {
      bad.push(`the hands to enter are of different widths: ${widths.join(", ")} px`);
    }
    for (const el of hands) {
      if (box(el).right > box(felt).right + 1) bad.push(`${el.dataset.place} runs off the felt`);
    }
  }
  if (stage === "result") {
    // who won what: the sentences, and the felt with the winning hands
    const words = document.querySelector(".result .result-sentences");
    const felt = document.querySelector(".area-grid");
    const start = document.querySelector('#actions [data-action="start_deal"]');
    if (!words) bad.push("no result sentences");
    else if (box(words).bottom > window.innerHeight) {
      const end = Math.round(box(words).bottom);
      bad.push(`the result's sentences end at ${end} px, below the window`);
    }
    for (const [what, el] of [["sentences", words], ["felt", felt]]) {
      if (el && start && box(start).top < box(el).top) {
        bad.push(`the next deal's start is above the result's ${what}`);
      }
    }
  }
  return bad;
}"""


def shoot(page: Page, variant: str, stage: str, view: str, theme: str) -> None:
    doc = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
    name = DOC_SHOTS.get((variant, stage, view, theme))
    if doc and name:
        Path(doc).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(doc) / f"{name}.png"), full_page=view == "phone")
    every = os.environ.get("DEALER_ASSIST_MATRIX_SHOTS")
    if every:
        Path(every).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(every) / f"{variant}-{stage}-{view}-{theme}.png"),
                        full_page=view == "phone")


def look_everywhere(devices: dict[str, Any], game: dict[str, Any], stage: str,
                    state: dict[str, Any]) -> list[str]:
    found: list[str] = []
    for device, page in devices["pages"].items():
        expect(page.locator("#seq")).to_have_text(f"#{state['seq']}")
        want = expected(state, device)
        for label, view, size in views(game):
            if label != device:
                continue
            page.set_viewport_size(size)
            for theme in THEMES:
                page.emulate_media(color_scheme=theme)
                expect(page.locator("html")).to_have_attribute("data-theme", theme)
                if stage == "showdown" and device == "tablet":
                    # the entry is on the felt: one place for each card not known, the first ringed
                    expect(page.locator(".area-grid button[data-slot].target")).to_have_count(1)
                for problem in problems(page, **want):
                    found.append(f"{game['variant']} {stage} {view} {theme}: {problem}")
                if device == "tablet" and theme == "light":  # the shape is the same in both
                    page.evaluate("window.scrollTo(0, 0)")
                    for problem in page.evaluate(SHAPE, {"stage": stage}):
                        found.append(f"{game['variant']} {stage} {view}: {problem}")
                shoot(page, game["variant"], stage, view, theme)
    return found


@pytest.mark.parametrize("game", GAMES, ids=[g["variant"] for g in GAMES])
def test_every_step_of_the_game_reads_well_everywhere(devices: dict[str, Any],
                                                      game: dict[str, Any]) -> None:
    server = devices["server"]
    host = host_of(game)
    players = PLAYERS[:max(game["players"][0], 3)]
    created = server.create_table(host, players, name="Friday night at Dee's")
    driver = Driver(server, created)
    tablet, phone = devices["pages"]["tablet"], devices["pages"]["phone"]
    tablet.set_viewport_size(TABLET_WIDE)
    tablet.goto(f"{server.url}/t/{created['id']}/dealer#token={created['dealer_token']}")
    phone.goto(f"{server.url}/t/{created['id']}")
    # the phone's player says who they are: their own row is part of what is looked at
    phone.locator('[data-me="Ann"]').click()
    found: list[str] = []
    found += look_everywhere(devices, game, "between", driver.state())
    driver.start(None if host == game["variant"] else game["variant"])
    for stage in STAGES:
        state = driver.to(stage)
        assert state["variant"] == game["variant"]
        found += look_everywhere(devices, game, stage, state)
    assert not devices["errors"], devices["errors"]
    assert not found, "\n".join(found)


def test_the_home_page_reads_well_everywhere(devices: dict[str, Any]) -> None:
    """The host's home page (this machine is the host), every game's house rules open in
    turn, at each size, in both themes."""
    server = devices["server"]
    page = devices["pages"]["tablet"]
    page.goto(f"{server.url}/")
    expect(page.locator("#host-setup")).to_be_visible()
    found: list[str] = []
    for game in GAMES:
        page.locator(f'input[name=variant][value="{game["variant"]}"]').check()
        for size in (TABLET_WIDE, TABLET_UPRIGHT, PHONE):
            page.set_viewport_size(size)
            for theme in THEMES:
                page.emulate_media(color_scheme=theme)
                expect(page.locator("html")).to_have_attribute("data-theme", theme)
                # axe once a game and theme: the rules' boxes differ by game, not by size
                found += [f"home {game['variant']} {size['width']} {theme}: {p}" for p in
                          problems(page, instruction_min=None, with_axe=size is PHONE)]
                if game is GAMES[0] and size is TABLET_WIDE:
                    shoot(page, "home", "home", "wide", theme)
    assert not devices["errors"], devices["errors"]
    assert not found, "\n".join(found)


BAD_PAGE = """<!doctype html><html><body style="margin:0">
<div id="instruction" style="width:120px;font-size:12px;line-height:14px">Turn the flop: three
cards, framed, then tap Turned once every card is face up on the table</div>
<p style="width:150px;word-break:break-all">Players follow the game on their phones</p>
<div style="width:2000px;height:10px"></div>
<button type="button" style="width:30px;height:30px">x</button>
<p>Stack null</p>
<div id="grid"><div data-cell="r1c1"><span class="card">A</span></div></div>
</body></html>"""


def test_the_look_finds_what_a_person_would_see_wrong(chromium: Any) -> None:
    """The checks can fail: a page with each fault has each one named."""
    ctx = chromium.new_context(viewport=TABLET_UPRIGHT)
    try:
        page = ctx.new_page()
        page.set_content(BAD_PAGE)
        found = "\n".join(problems(page, cells=["r1c1", "r1c2"], marked=["r1c1"],
                                   with_axe=False))
    finally:
        ctx.close()
    for fault in ("sideways scroll: the page is 2000 px wide in 768",
                  "card place r1c2 not drawn", "place r1c1 to turn is not framed",
                  'a word broken across lines: "',
                  "the instruction is squeezed to 120 px", "the instruction takes",
                  "the instruction's type is 12px", 'target under 44 px: button "x" 30x30',
                  '"Stack null" shown in p'):
        assert fault in found, (fault, found)
