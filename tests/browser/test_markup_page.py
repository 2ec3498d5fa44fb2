"""Names are text: markup in a table's or a player's name is shown as typed, never run."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TABLE = '<b>Bold</b> & <script>alert("t")</script>'
EVIL = '<img src=x onerror=alert(1)>'
ITALIC = "<i>Eve</i>"


def test_markup_in_names_is_text(pages) -> None:  # type: ignore[no-untyped-def]
    t, ph, server = pages.tablet, pages.phone, pages.server
    # set the table up through the home page's form
    t.goto(server.url + "/")
    t.locator('input[name="variant"][value="texas_dozen"]').check()
    t.locator("#table-name").fill(TABLE)
    # a refused table shows the server's sentence
    t.locator("#new-player").fill("Solo")
    t.locator("#add-player").click()
    t.locator("#create-table").click()
    expect(t.locator("#setup-error")).to_have_text("Texas Dozen is for 2 to 13 players, not 1.")
    t.locator('#player-list li[data-index="0"] button[aria-label="Remove"]').click()
    expect(t.locator("#player-list li")).to_have_count(0)
    for name in (EVIL, ITALIC, 'Zed "Z" O\'Neil'):
        t.locator("#new-player").fill(name)
        t.locator("#add-player").click()
    expect(t.locator("#player-list li")).to_have_count(3)
    # reorder: Zed moves up to the second seat
    t.locator('#player-list li[data-index="2"] button[aria-label="Move up"]').click()
    expect(t.locator('#player-list li[data-index="1"] .player-name')).to_have_value(
        'Zed "Z" O\'Neil')
    # only the rules of this game, with their defaults
    expect(t.locator('#rules [data-rule="big_blind"] input')).to_have_value("2")
    expect(t.locator('#rules [data-rule="wilds"]')).to_have_count(0)
    t.locator("#create-table").click()
    t.wait_for_url("**/dealer")
    assert "#" not in t.url

    table_id = t.url.split("/t/")[1].split("/")[0]
    ph.goto(f"{server.url}/t/{table_id}")
    for page in (t, ph):
        expect(page.locator("#table-name")).to_have_text(TABLE)
        expect(page.locator("#players .player-name")).to_have_text(
            [EVIL, 'Zed "Z" O\'Neil', ITALIC])
        assert page.locator("#players img, #players i, #players b, .topbar b").count() == 0
        assert page.locator("main script, header script").count() == 0
    t.locator('[data-action="start_deal"]').click()
    t.locator('[data-action="next"]').click()
    expect(ph.locator("#turn")).to_have_text(f"{EVIL}'s turn")
    expect(t.locator("#turn")).to_have_text(EVIL)
    expect(t.locator('[data-action="call"]')).to_have_text("Call 2")
    expect(ph.locator("#log li").first).to_contain_text("Done")

    t.goto(server.url + "/")
    item = t.locator(f'.table-item[data-table-id="{table_id}"]')
    expect(item.locator(".table-name")).to_have_text(TABLE)
    assert item.locator("b, script").count() == 0


# names that would set a global if they were ever run as markup (each at most 40 characters)
SCRIPTED = ['<img src=x onerror="window.__pwned=1">', "<script>window.__pwned=2</script>",
            '"><svg onload="window.__pwned=3">']
TABLE_SCRIPT = "<script>window.__pwned=4</script>"


def test_script_in_names_never_runs(pages) -> None:  # type: ignore[no-untyped-def]
    """On the tablet, the phone, the home page and the history page, through a deal."""
    server = pages.server
    created = server.create_table("kings_pot", SCRIPTED, name=TABLE_SCRIPT)
    pages.open(created)
    t, ph = pages.tablet, pages.phone
    t.locator('[data-action="start_deal"]').click()
    for page in (t, ph):
        expect(page.locator("#table-name")).to_have_text(TABLE_SCRIPT)
        expect(page.locator("#players .player-name")).to_have_text(SCRIPTED)
    expect(ph.locator("#turn")).to_have_text(f"{SCRIPTED[1]}'s turn")
    token = created["dealer_token"]
    for body in ({"type": "buy", "player": SCRIPTED[1], "count": 1},
                 {"type": "buy", "player": SCRIPTED[2], "count": 1},
                 {"type": "buy", "player": SCRIPTED[0], "count": 1}):
        assert server.api("POST", f"/api/tables/{created['id']}/actions", body, token)[0] == 200
    expect(ph.locator("#log li").first).to_contain_text(SCRIPTED[0])
    expect(t.locator("#log li").first).to_contain_text(SCRIPTED[0])
    visited = [t, ph]
    for path in ("/", f"/t/{created['id']}/history"):
        page = ph.context.new_page()
        page.on("pageerror", lambda exc, path=path: pages.errors.append(f"{path}: {exc}"))
        page.goto(server.url + path)
        expect(page.locator("body")).to_contain_text(TABLE_SCRIPT)
        visited.append(page)
    for page in visited:
        assert page.evaluate("typeof window.__pwned") == "undefined", page.url
        assert page.locator("main img, main svg[onload], #players script").count() == 0
