"""Making a tournament on the home page and running it from the host's page (issue 31, R89-R93),
in Chromium: a preset picked, 18 names added with the server's payouts previewed as they come,
a refused setup said in the server's sentence and nothing made, the seats the server drew at
three tables with their links; the host's own payouts and rounding unit previewed to the unit
and paid as previewed; then the one-tap controls: the clock started, paused and moved,
a rebuy, a late entry, an add-on at the break, an undo, a chop shown both ways, a breaking
table's moves, and a busted player's rebuy or exit."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from browser.conftest import PHONE, TABLET, LiveServer
from browser.look import problems

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

VIEWS = (("tablet", TABLET), ("tablet-upright", {"width": 768, "height": 1024}),
         ("phone", PHONE))
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kai", "Lu",
         "Max", "Ned", "Oz", "Pia", "Quin", "Rex"]


def look(page: Page, stage: str) -> list[str]:
    """What is wrong with the page in each view and theme; the documentation's screenshots
    when asked."""
    found: list[str] = []
    folder = os.environ.get("DEALER_ASSIST_SCREENSHOTS")
    for view, size in VIEWS:
        page.set_viewport_size(size)
        for theme in ("light", "dark"):
            page.emulate_media(color_scheme=theme)
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
            found += [f"{stage} {view} {theme}: {p}"
                      for p in problems(page, instruction_min=None)]
            if folder:
                Path(folder).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(Path(folder) / f"{stage}-{view}-{theme}.png"),
                                full_page=True)
    page.set_viewport_size(TABLET)
    page.emulate_media(color_scheme="light")
    return found


def prizes(page: Page) -> list[str]:
    return [t.split()[-1] for t in page.locator("#preview-payouts li").all_inner_texts()]


@pytest.fixture
def host_page(chromium: Any) -> Any:
    context = chromium.new_context(viewport=TABLET, device_scale_factor=1, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" and not re.match(
        r"Failed to load resource: .* status of 400\b", msg.text) else None)
    yield page
    context.close()
    assert errors == []


def test_r89_a_tournament_is_made_on_the_home_page_and_run_with_one_tap_each(
        live_server: LiveServer, host_page: Page) -> None:
    page, server = host_page, live_server
    before = server.api("GET", "/api/tournaments")[1]["tournaments"]  # the session's server
    page.goto(server.url + "/")
    page.locator("#host-setup").wait_for(state="visible")
    page.locator("#kind-tournament").click()
    expect(page.locator("#setup-title")).to_have_text("New tournament")
    assert not page.locator("#setup-form").is_visible()

    # the presets are the server's: the turbo has no add-on, the home game its break
    page.get_by_text("Turbo", exact=True).click()
    expect(page.locator("#levels li")).to_have_count(8)
    assert not page.locator("#t-add-on").is_checked()
    assert page.locator("#t-rebuy-until").input_value() == ""
    page.get_by_text("Two-hour home game").click()
    expect(page.locator("#levels li")).to_have_count(10)
    assert page.locator("#levels li.break-row").count() == 1
    assert page.locator("#t-add-on").is_checked()
    assert page.locator("#t-buy-in").input_value() == "20"
    assert page.locator("#t-rebuy-until option:checked").inner_text() == "The end of level 3"

    # the level editor: a level added, then removed
    page.locator("#add-level").click()
    expect(page.locator("#levels li")).to_have_count(11)
    last = page.locator("#levels li").last
    assert last.locator("input").nth(1).input_value() == "2400"  # the big blind doubled
    last.get_by_role("button").click()
    expect(page.locator("#levels li")).to_have_count(10)

    page.locator("#tournament-name").fill("Friday")
    box = page.locator("#t-new-player")
    for count, name in enumerate(NAMES, start=1):
        box.fill(name)
        box.press("Enter")
        if count == 7:  # one place paid: the pool of seven buy-ins
            expect(page.locator("#preview-pool")).to_contain_text("7 players:")
            assert prizes(page) == ["140"]
        if count == 8:  # two: 65% and 35% of 160
            expect(page.locator("#preview-pool")).to_contain_text("8 players:")
            assert prizes(page) == ["104", "56"]
    expect(page.locator("#preview-pool")).to_have_text(
        "18 players: a prize pool of 360, 3 paid.")
    assert prizes(page) == ["180", "108", "72"]
    assert page.locator("#t-tables").input_value() == "3"  # 18 players at tables of 8
    found = look(page, "tournament-editor")

    # a bad setup: the server's sentence, and nothing made
    page.locator("#t-fee").fill("25")
    page.locator("#create-tournament").click()
    expect(page.locator("#tournament-error")).to_have_text(
        "The fee comes out of each buy-in: it cannot be more than it.")
    assert server.api("GET", "/api/tournaments")[1]["tournaments"] == before
    page.locator("#t-fee").fill("0")
    # a level the server refuses is marked (the fifth row: the API counts from 0)
    big_blind = page.locator("#levels li").nth(4).locator("input").nth(1)
    big_blind.fill("50")
    page.locator("#create-tournament").click()
    expect(page.locator("#tournament-error")).to_have_text(
        "Level 4: the small blind is more than the big blind.")
    expect(page.locator("#levels li").nth(4)).to_have_class(re.compile(r"\binvalid\b"))
    assert server.api("GET", "/api/tournaments")[1]["tournaments"] == before
    big_blind.fill("200")

    page.locator("#create-tournament").click()
    page.locator("#tournament-made").wait_for(state="visible")
    tables = page.locator(".made-table")
    expect(tables).to_have_count(3)
    listed = server.api("GET", "/api/tournaments")[1]["tournaments"]
    assert listed[1:] == before  # the newest first
    tournament_id = listed[0]["id"]
    state = server.api("GET", f"/api/tournaments/{tournament_id}")[1]
    for number, table in enumerate(state["tables"]):
        shown = tables.nth(number)
        drawn = [p["name"] for p in table["players"]]
        assert len(drawn) == 6
        assert shown.locator(".seat-name").all_inner_texts() == drawn
        assert shown.locator(".seat").all_inner_texts() == [f"Seat {i}" for i in range(1, 7)]
        tablet = shown.get_by_role("link", name="Tablet").get_attribute("href") or ""
        assert f"/t/{table['id']}/dealer#token=" in tablet
    assert sorted(p for t in state["tables"] for p in (q["name"] for q in t["players"])) \
        == sorted(NAMES)
    clock = page.locator("#made-clock").get_attribute("href") or ""
    assert clock.endswith(f"/c/{tournament_id}")
    found += look(page, "tournament-seats")
    run = page.locator("#made-run").get_attribute("href")
    assert run == f"/tournaments/{tournament_id}"
    # another with the same structure: the form back, the players gone
    page.locator("#made-another").click()
    expect(page.locator("#tournament-form")).to_be_visible()
    expect(page.locator("#t-players li")).to_have_count(0)
    assert page.locator("#levels li").count() == 10
    page.locator("#kind-table").click()  # the cash table's form
    expect(page.locator("#setup-form")).to_be_visible()
    assert not page.locator("#tournament-form").is_visible()
    page.goto(server.url + run)

    # the host's page: one tap each
    expect(page.locator("#tournament-name")).to_have_text("Friday")
    expect(page.locator("#clock-level")).to_have_text("Level 1: blinds 25/50")
    expect(page.locator(".t-table")).to_have_count(3)
    toggle = page.locator("#clock-toggle")
    expect(toggle).to_have_text("Start the clock")
    toggle.click()
    expect(toggle).to_have_text("Pause")
    expect(page.locator("#clock-time")).to_have_text(re.compile(r"^19:5\d$"))  # it runs
    assert server.api("GET", f"/api/tournaments/{tournament_id}")[1]["clock"]["running"]
    toggle.click()
    expect(toggle).to_have_text("Resume")
    assert not server.api("GET", f"/api/tournaments/{tournament_id}")[1]["clock"]["running"]
    page.locator("#level-next").click()
    expect(page.locator("#clock-level")).to_have_text("Level 2: blinds 50/100")
    # a tap on another device (a table's dealer; here the API) shows within a second: the
    # tournament's room brings it, the page's poll is only for a socket that is down
    status, _ = server.api("POST", f"/api/tournaments/{tournament_id}/actions",
                           {"type": "level", "to": 2})
    assert status == 200
    expect(page.locator("#clock-level")).to_have_text("Level 3: blinds 75/150", timeout=1000)
    page.locator("#level-back").click()
    expect(page.locator("#clock-level")).to_have_text("Level 2: blinds 50/100")

    # a rebuy: the starting stack again, the buy-in into the pool
    first = page.locator(".t-table").first.locator(".t-player").first
    rebuyer = first.locator(".seat-name").inner_text()
    first.get_by_role("button", name="Rebuy").click()
    expect(first.locator(".t-stack")).to_have_text("10000")
    figures = page.locator("#figures")
    expect(figures.locator(".figure", has_text="Prize pool").locator("dd")).to_have_text("380")
    expect(figures.locator(".figure", has_text="Rebuys").locator("dd")).to_have_text("1")
    state = server.api("GET", f"/api/tournaments/{tournament_id}")[1]
    assert state["rebuys"] == 1 and state["prize_pool"] == 380
    assert {"name": rebuyer, "stack": 10000} in state["tables"][0]["players"]

    # a late entry, seated by the server
    page.locator("#late-name").fill("Sam")
    page.locator("#late-enter").click()
    expect(figures.locator(".figure", has_text="Players left").locator("dd")).to_have_text(
        "19 of 19")
    expect(page.locator(".t-player", has_text="Sam")).to_have_count(1)

    # the break: the add-on, one tap; a second is refused in the server's words
    page.locator("#level-next").click()
    page.locator("#level-next").click()
    expect(page.locator("#clock-level")).to_have_text("Break, 10 minutes: color up the 25s")
    assert not page.locator("#late-panel").is_visible()  # late entry ended with level 3
    taker = page.locator(".t-player", has_text="Sam")
    taker.get_by_role("button", name="Add-on").click()
    expect(figures.locator(".figure", has_text="Add-ons").locator("dd")).to_have_text("1")
    expect(taker.locator(".t-stack")).to_have_text("10000")
    taker.get_by_role("button", name="Add-on").click()
    expect(page.locator("#tournament-error")).to_have_text("Sam has taken the add-on: one each.")
    page.locator("#undo").click()
    expect(figures.locator(".figure", has_text="Add-ons").locator("dd")).to_have_text("0")
    expect(taker.locator(".t-stack")).to_have_text("5000")
    expect(page.locator("#tournament-error")).to_be_hidden()
    page.locator("#level-back").click()
    expect(page.locator("#clock-level")).to_have_text("Level 3: blinds 75/150")
    found += look(page, "tournament-run")
    assert found == []


def test_r93_a_chop_shows_chip_chop_and_icm_side_by_side(
        live_server: LiveServer, host_page: Page) -> None:
    status, made = live_server.api("POST", "/api/tournaments", {
        "name": "Final three", "buy_in": 50, "chips": 1000, "players": ["Ann", "Bob", "Cy"],
        "levels": [{"minutes": 20, "small_blind": 10, "big_blind": 20}],
        "rebuy_until_level": 0, "payouts": [50, 30, 20]})
    assert status == 201, made
    page = host_page
    page.goto(f"{live_server.url}/tournaments/{made['id']}")
    # Ann's rebuy, one tap: 2000 chips of 4000, a pool of 200 paying 100, 60 and 40
    ann = page.locator(".t-player", has_text="Ann")
    ann.get_by_role("button", name="Rebuy").click()
    expect(ann.locator(".t-stack")).to_have_text("2000")
    page.locator("#chop-show").click()
    rows = page.locator(".chop-table tbody tr")
    expect(rows).to_have_count(3)
    assert page.locator(".chop-table thead th").all_inner_texts() == [
        "Player", "Chips", "Chip-chop", "ICM"]
    # by chips: half of 200 to Ann, a quarter each to the others; by ICM (Malmuth-Harville):
    # Ann wins half the time, is second a third and third a sixth of it: 76 2/3, the others
    # 61 2/3 each, rounded down with the 2 left to the chip leader
    assert sorted(r.split("\t") for r in rows.all_inner_texts()) == [
        ["Ann", "2000", "100", "78"], ["Bob", "1000", "50", "61"], ["Cy", "1000", "50", "61"]]
    found = look(page, "tournament-chop")
    page.get_by_role("button", name="Agree ICM").click()
    expect(page.locator("#places")).to_contain_text("Results")
    shared = page.locator("#places li")
    assert shared.locator(".place-no").inner_text() == "1-3."
    assert sorted(shared.locator("span").nth(1).inner_text().split(", ")) == [
        "Ann (78)", "Bob (61)", "Cy (61)"]
    state = live_server.api("GET", f"/api/tournaments/{made['id']}")[1]
    assert state["finished"]
    assert sorted((c["name"], c["amount"]) for c in state["chop"]) == [
        ("Ann", 78), ("Bob", 61), ("Cy", 61)]
    assert not page.locator("#chop-panel").is_visible()
    assert found == []


def test_r92_a_breaking_tables_seats_are_named_and_taken_with_one_tap(
        live_server: LiveServer, host_page: Page) -> None:
    # six players at two tables of six seats: they fit at one, so the second breaks
    everyone = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
    status, made = live_server.api("POST", "/api/tournaments", {
        "name": "Small", "buy_in": 10, "chips": 1000, "players": everyone,
        "levels": [{"minutes": 20, "small_blind": 10, "big_blind": 20}], "seats": 6,
        "tables": 2})
    assert status == 201, made
    first = made["tables"][0]
    # the first deal asked for: the server draws the breaking table's seats first
    status, refused = live_server.api("POST", f"/api/tables/{first['id']}/actions",
                                      {"type": "start_deal"}, token=first["dealer_token"])
    assert status == 400 and refused["error"].startswith("First move ")
    state = live_server.api("GET", f"/api/tournaments/{made['id']}")[1]
    leaving = [p["name"] for p in state["tables"][1]["players"]]
    assert sorted(m["player"] for m in state["moves"]) == sorted(leaving)
    # the home page lists it, its controls the host's
    page = host_page
    page.goto(live_server.url + "/")
    listed = page.locator(".tournament-item", has_text="Small")
    expect(listed).to_contain_text("6 of 6 players left")
    listed.get_by_role("link", name="Controls").click()
    page.wait_for_url(f"**/tournaments/{made['id']}")
    moves = page.locator("#moves .move")
    expect(moves).to_have_count(3)
    for name in leaving:
        expect(page.locator("#moves")).to_contain_text(f"Move {name} from table 2 to table 1")
    # one move, one tap; then the two left at once
    moves.first.click()
    expect(moves).to_have_count(2)
    assert len(live_server.api("GET", f"/api/tournaments/{made['id']}")[1]["moves"]) == 2
    page.locator("#all-moves").click()
    expect(page.locator("#moves-panel")).to_be_hidden()
    expect(page.locator(".t-table")).to_have_count(1)
    state = live_server.api("GET", f"/api/tournaments/{made['id']}")[1]
    assert state["moves"] == []
    assert sorted(p["name"] for p in state["tables"][0]["players"]) == everyone
    assert not state["tables"][1]["in_play"]


def all_in_deal(server: LiveServer, table: dict[str, Any], winner: str, loser: str) -> None:
    """A deal at a tournament's table, played through the API: both all-in before the flop,
    aces for ``winner``: ``loser`` ends it at 0."""
    def act(body: dict[str, Any]) -> dict[str, Any]:
        status, answer = server.api("POST", f"/api/tables/{table['id']}/actions", body,
                                    token=table["dealer_token"])
        assert status == 200, (body, answer)
        return answer["state"]  # type: ignore[no-any-return]

    state = act({"type": "start_deal"})
    while state["step"]["kind"] != "start_deal":
        step = state["step"]
        if step["kind"] == "bet":  # all-in, or call one when no raise is left
            verb = "call" if step.get("min_raise_to") is None else "all_in"
            state = act({"type": verb, "player": step["player"]})
        elif step["kind"] == "showdown":
            state = act({"type": "showdown", "board": ["Kd", "Qs", "9h", "5c", "3d"],
                         "hands": {winner: ["As", "Ah"], loser: ["2c", "7d"]}})
        else:
            state = act({"type": step["kind"]})  # next, reveal: the cards come at the end


def test_r91_a_busted_player_rebuys_or_is_out_with_one_tap(
        live_server: LiveServer, host_page: Page) -> None:
    status, made = live_server.api("POST", "/api/tournaments", {
        "name": "Heads-up", "buy_in": 10, "chips": 1000, "players": ["Ann", "Bob"],
        "levels": [{"minutes": 20, "small_blind": 10, "big_blind": 20}],
        "rebuy_until_level": 0})
    assert status == 201, made
    table = made["tables"][0]
    page = host_page
    page.goto(f"{live_server.url}/tournaments/{made['id']}")
    assert not page.locator("#waiting-panel").is_visible()
    all_in_deal(live_server, table, "Ann", "Bob")
    waiting = page.locator("#waiting .waiting-row")
    expect(waiting).to_have_count(1)  # read again by the page within a few seconds
    expect(waiting).to_contain_text("Bob")
    waiting.get_by_role("button", name="Rebuy").click()
    expect(page.locator("#waiting-panel")).to_be_hidden()
    expect(page.locator(".t-player", has_text="Bob").locator(".t-stack")).to_have_text("1000")
    all_in_deal(live_server, table, "Ann", "Bob")
    page.reload()
    page.locator("#waiting .waiting-row").get_by_role("button", name="Out").click()
    expect(page.locator("#places")).to_contain_text("Results")
    assert page.locator("#places ol li").all_inner_texts() == ["1.Ann (30)", "2.Bob"]
    # R94: Bob paid two buy-ins, Ann one and won the 30
    assert page.locator("#places ul li").all_inner_texts() == ["Bob pays Ann 20"]
    state = live_server.api("GET", f"/api/tournaments/{made['id']}")[1]
    assert state["finished"] and state["prize_pool"] == 30
    assert [p["players"][0]["name"] for p in state["places"]] == ["Ann", "Bob"]


def test_r93_the_hosts_own_payouts_are_previewed_and_paid_to_the_unit(
        live_server: LiveServer, host_page: Page) -> None:
    page, server = host_page, live_server
    before = server.api("GET", "/api/tournaments")[1]["tournaments"]
    page.goto(server.url + "/")
    page.locator("#host-setup").wait_for(state="visible")
    page.locator("#kind-tournament").click()
    page.get_by_text("Turbo", exact=True).click()
    # R93's table is the server's, shown by the number of players
    expect(page.locator("#pay-table li")).to_have_count(5)
    assert page.locator("#pay-table li").nth(1).inner_text() == "8 to 15 players: 65% · 35%"
    page.locator("#tournament-name").fill("Payouts")
    page.locator("#t-buy-in").fill("20")
    page.locator("#t-fee").fill("2")
    box = page.locator("#t-new-player")
    for name in NAMES:
        box.fill(name)
        box.press("Enter")
    expect(page.locator("#preview-pool")).to_have_text(
        "18 players: a prize pool of 324, 3 paid.")
    assert prizes(page) == ["163", "97", "64"]

    # my own: the places paid now to start from, the total shown
    page.get_by_text("My own percentages").click()
    places = page.locator("#own-places input")
    expect(places).to_have_count(3)
    assert [places.nth(i).input_value() for i in range(3)] == ["50", "30", "20"]
    expect(page.locator("#own-total")).to_have_text("Total: 100%")
    assert not page.locator("#pay-table").is_visible()
    # a bad table: the server's sentence, in the preview and when creating; nothing made
    places.nth(2).fill("15")
    expect(page.locator("#own-total")).to_have_text("Total: 95% (needs 100%)")
    expect(page.locator("#preview-pool")).to_have_text(
        "payouts: the percentages add up to 95, not 100.")
    page.locator("#create-tournament").click()
    expect(page.locator("#tournament-error")).to_have_text(
        "payouts: the percentages add up to 95, not 100.")
    places.nth(0).fill("30")  # 30, 55, 15: 100, second paid more than first
    expect(page.locator("#tournament-error")).to_be_hidden()  # an edit takes it away
    places.nth(1).fill("55")
    expect(page.locator("#preview-pool")).to_have_text(
        "payouts: no place is paid more than the place above it.")
    assert server.api("GET", "/api/tournaments")[1]["tournaments"] == before

    # four places, 45/25/20/10 of 324: 145.8, 81, 64.8, 32.4 rounded down, 2 left to first
    page.locator("#add-place").click()
    expect(places).to_have_count(4)
    for i, value in enumerate(["45", "25", "20", "10"]):
        places.nth(i).fill(value)
    expect(page.locator("#preview-pool")).to_have_text(
        "18 players: a prize pool of 324, 4 paid.")
    assert prizes(page) == ["147", "81", "64", "32"]
    # in fives: 145, 80, 60, 30, and the 9 the rounding leaves to first place
    page.locator("#t-unit").select_option("5")
    expect(page.locator("#preview-payouts li").first).to_contain_text("154")
    previewed = prizes(page)
    assert previewed == ["154", "80", "60", "30"]
    found = look(page, "tournament-editor-payouts")

    page.locator("#create-tournament").click()
    page.locator("#tournament-made").wait_for(state="visible")
    made = server.api("GET", "/api/tournaments")[1]["tournaments"][0]
    assert made["name"] == "Payouts"
    state = server.api("GET", f"/api/tournaments/{made['id']}")[1]
    assert state["payouts"] == [int(p) for p in previewed]
    assert state["prize_pool"] == 324
    assert found == []


def test_r93_the_host_edits_a_running_tournaments_payouts_until_the_money_is_decided(
        live_server: LiveServer, host_page: Page) -> None:
    status, made = live_server.api("POST", "/api/tournaments", {
        "name": "Payouts later", "buy_in": 20, "fee": 2, "chips": 1000, "players": NAMES[:9],
        "levels": [{"minutes": 20, "small_blind": 10, "big_blind": 20}]})
    assert status == 201, made
    page = host_page
    page.goto(f"{live_server.url}/tournaments/{made['id']}")
    # 9 entries, a pool of 162: the usual table pays 65% and 35%, 105.3 and 56.7 rounded
    # down with the 1 left to first
    expect(page.locator("#payouts li")).to_have_text(["1.106", "2.56"])
    page.locator("#payouts-edit").click()
    boxes = page.locator("#own-places input")
    expect(boxes).to_have_count(2)
    assert [boxes.nth(i).input_value() for i in range(2)] == ["65", "35"]
    page.locator("#add-place").click()
    boxes.nth(2).fill("20")
    expect(page.locator("#own-total")).to_have_text("Total: 120% (needs 100%)")
    expect(page.locator("#preview-pool")).to_have_text(
        "payouts: the percentages add up to 120, not 100.")
    boxes.nth(0).fill("50")
    boxes.nth(1).fill("30")
    # 81, 48.6 and 32.4 rounded down, the 1 left to first
    expect(page.locator("#preview-pool")).to_have_text("A prize pool of 162: 3 paid.")
    assert prizes(page) == ["82", "48", "32"]
    found = look(page, "tournament-payouts")
    page.locator("#payouts-save").click()
    expect(page.locator("#payouts-editor")).to_be_hidden()
    expect(page.locator("#payouts li")).to_have_text(["1.82", "2.48", "3.32"])
    assert live_server.api("GET", f"/api/tournaments/{made['id']}")[1]["payouts"] == [
        82, 48, 32]
    expect(page.locator("#payouts-edit")).to_be_visible()
    found += look(page, "tournament-payouts-paid")
    # a chop agreed: the money is decided, and the control goes
    status, _ = live_server.api("POST", f"/api/tournaments/{made['id']}/actions",
                                {"type": "chop", "method": "chips", "agree": True})
    assert status == 200
    expect(page.locator("#payouts-edit")).to_be_hidden()
    assert found == []


def test_r89_the_host_deletes_a_tournament_after_confirming(
        live_server: LiveServer, host_page: Page) -> None:
    status, made = live_server.api("POST", "/api/tournaments", {
        "name": "A test", "buy_in": 10, "chips": 1000, "players": ["Ann", "Bob"],
        "levels": [{"minutes": 20, "small_blind": 10, "big_blind": 20}]})
    assert status == 201, made
    page = host_page
    page.goto(f"{live_server.url}/tournaments/{made['id']}")
    expect(page.locator("#tournament-name")).to_have_text("A test")
    found = look(page, "tournament-delete")
    asked: list[str] = []

    def answer(dialog: Any, accept: bool) -> None:
        asked.append(dialog.message)
        if accept:
            dialog.accept()
        else:
            dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.locator("#delete-tournament").click()
    expect(page.locator("#tournament-name")).to_have_text("A test")
    assert asked == ["Delete A test, its tables and all their deals? Its money leaves the "
                     "books and the season. This cannot be undone."]
    assert live_server.api("GET", f"/api/tournaments/{made['id']}")[0] == 200  # kept
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.locator("#delete-tournament").click()
    page.wait_for_url(f"{live_server.url}/")
    assert live_server.api("GET", f"/api/tournaments/{made['id']}")[0] == 404
    assert live_server.api("GET", f"/api/tables/{made['tables'][0]['id']}")[0] == 404
    listed = live_server.api("GET", "/api/tournaments")[1]["tournaments"]
    assert made["id"] not in [t["id"] for t in listed]
    assert found == []
