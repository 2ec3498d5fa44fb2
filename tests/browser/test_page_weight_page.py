"""Issue 32: a phone's first load of the players' page is at most 120 KB over the wire, as
Chromium counts it (each response's body as transferred plus its headers, and the socket's
frames), on the bench's own table: 22 players of King's Pot in the middle of a deal. The
count is bench/bench_phone_page.py's, so the test and docs/benchmarks.md measure alike."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import PHONE

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import bench_phone_page
from _common import action_script

pytestmark = pytest.mark.browser


def test_the_phone_page_weighs_at_most_120_kb_cold(chromium: Any, live_server: Any) -> None:
    players = bench_phone_page.PLAYERS
    made = live_server.create_table("kings_pot", players, name="Weight")
    for body in action_script("kings_pot", players, 60, seed=3):
        status, answer = live_server.api("POST", f"/api/tables/{made['id']}/actions", body,
                                         token=made["dealer_token"])
        assert status == 200, answer
    ctx = chromium.new_context(viewport=PHONE)  # a new context: an empty cache
    try:
        load = bench_phone_page.load_once(ctx.new_page(), f"{live_server.url}/t/{made['id']}")
    finally:
        ctx.close()
    rows = {row["url"].split("?")[0].replace(live_server.url, ""): row for row in load["rows"]}
    assert all(row["status"] == 200 for row in rows.values()), rows
    assert {"/static/vendor/socket.io/socket.io.min.js", "/static/js/common.js",
            "/static/js/phone.js", f"/api/tables/{made['id']}"} <= rows.keys()
    # every file of the page's own was sent gzipped: a third of its size or less
    for name in ("/static/vendor/socket.io/socket.io.min.js", "/static/js/common.js",
                 "/static/css/base.css", f"/t/{made['id']}"):
        assert rows[name]["transfer"] < rows[name]["body"] / 2.5, (name, rows[name])
    total = sum(row["transfer"] for row in load["rows"]) + load["frames"]["in"]
    assert total <= bench_phone_page.TARGET_BYTES == 120_000, total
