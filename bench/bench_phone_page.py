"""The phone page: the bytes it loads and the time to its first state, in Debian's Chromium.

Run: ``python bench/bench_phone_page.py [--runs 15]``

A real ``dealer-assist serve`` process on loopback holds a 22-player King's Pot table in the
middle of a deal (cards bought and dealt, grid cells revealed, bets: a full public state).
Chromium (/usr/bin/chromium, headless, driven by Playwright; never a downloaded browser) opens
``/t/<id>`` at a phone's size:

- bytes: every response, counted from Playwright's ``response`` events (the body as
  delivered, and the transfer size: body plus headers, from ``request.sizes()``), plus the
  Socket.IO frames; the source map ``socket.io.min.js.map`` is only fetched by an open
  DevTools, so it is counted apart ("with the .map") by fetching it once;
- time: navigation start to the first state rendered, the ``da:first-state`` performance
  mark that ``static/js/phone.js`` sets after its first render, with first contentful paint
  and DOMContentLoaded beside it. "cold" is a new browser context each time (empty cache);
  "warm" reloads in the same context (Flask answers 304 to the revalidations).

Targets: at most 120 KB loaded cold, the socket's frames included (issue 32; Chromium asks
for gzip, and the server compresses), first state at most 300 ms.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    Poster,
    action_script,
    app_server,
    create_table,
    machine,
    median,
    percentile,
    target_code,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 780}
PLAYERS = [f"P{i:02d}" for i in range(1, 23)]
TARGET_BYTES = 120_000  # a phone's cold load, over the wire

TIMES_JS = """() => {
  const mark = performance.getEntriesByName("da:first-state")[0];
  const nav = performance.getEntriesByType("navigation")[0];
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  return {first_state: mark ? mark.startTime : null,
          fcp: fcp ? fcp.startTime : null,
          dcl: nav ? nav.domContentLoadedEventEnd : null};
}"""


def load_once(page: Any, url: str) -> dict[str, Any]:
    responses: list[Any] = []
    frames = {"in": 0, "out": 0}

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.__setitem__(
            "in", frames["in"] + len(payload)))
        ws.on("framesent", lambda payload: frames.__setitem__(
            "out", frames["out"] + len(payload)))

    def on_response(response: Any) -> None:
        responses.append(response)

    page.on("response", on_response)
    page.on("websocket", on_ws)
    page.goto(url, wait_until="load")
    page.wait_for_function(
        "() => performance.getEntriesByName('da:first-state').length > 0", timeout=10_000)
    page.wait_for_timeout(300)  # let the socket's join and first state arrive too
    times = page.evaluate(TIMES_JS)
    rows = []
    for response in responses:
        try:
            body = len(response.body())
        except Exception:  # a 304 or a redirect has no body to read
            body = 0
        sizes = response.request.sizes()
        rows.append({"url": response.url, "status": response.status, "body": body,
                     "transfer": sizes["responseBodySize"] + sizes["responseHeadersSize"]})
    page.remove_listener("response", on_response)
    page.remove_listener("websocket", on_ws)
    return {"times": times, "rows": rows, "frames": frames}


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15, help="navigations, cold and warm each")
    args = parser.parse_args(argv)
    print(machine())
    with tempfile.TemporaryDirectory(prefix="bench-phone-") as tmp:
        server = app_server(Path(tmp) / "phone.db", Path(tmp) / "server.log")
        with server.start(ready_path="/api/tables"):
            created = create_table(server.url, "kings_pot", PLAYERS, name="Friday")
            poster = Poster(server.url, created["dealer_token"])
            for body in action_script("kings_pot", PLAYERS, 60, seed=3):
                status, answer = poster.post(f"/api/tables/{created['id']}/actions", body)
                assert status == 200, answer
            poster.close()
            url = f"{server.url}/t/{created['id']}"
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                             headless=True)
                try:
                    cold, warm = [], []
                    for _ in range(args.runs):
                        context = browser.new_context(viewport=PHONE)
                        page = context.new_page()
                        cold.append(load_once(page, url))
                        warm.append(load_once(page, url))
                        context.close()
                    context = browser.new_context()
                    map_url = f"{server.url}/static/vendor/socket.io/socket.io.min.js.map"
                    map_response = context.request.get(map_url)
                    map_bytes = len(map_response.body())
                    context.close()
                finally:
                    browser.close()
    first = cold[0]
    print(f"\nrequests of one cold load of {url.split('/t/')[0]}/t/<id>:")
    for row in first["rows"]:
        name = row["url"].split("?")[0].replace(server.url, "")
        print(f"  {row['status']} {name:<52} {row['body'] / 1000:>7.1f} KB body "
              f"{row['transfer'] / 1000:>7.1f} KB transfer")
    body = sum(r["body"] for r in first["rows"])
    transfer = sum(r["transfer"] for r in first["rows"])
    ws_in = first["frames"]["in"]
    maps = [r for r in first["rows"] if r["url"].endswith(".map")]
    print(f"  websocket frames received {ws_in / 1000:.1f} KB, sent "
          f"{first['frames']['out'] / 1000:.1f} KB")
    print(f"total, cold: {len(first['rows'])} requests, {body / 1000:.1f} KB of bodies, "
          f"{transfer / 1000:.1f} KB transferred, {(transfer + ws_in) / 1000:.1f} KB with the "
          f"socket's frames; the .map was {'' if maps else 'not '}requested")
    print(f"with the .map (as an open DevTools would fetch it): "
          f"{(transfer + (0 if maps else map_bytes)) / 1000:.1f} KB ({map_bytes / 1000:.1f} KB"
          f" .map)")
    warm_transfer = median([sum(r["transfer"] for r in w["rows"]) for w in warm])
    print(f"warm reload transfer (304s): {warm_transfer / 1000:.1f} KB")
    print(f"\n{'navigation start to':<24} {'cold median':>12} {'cold p90':>9} "
          f"{'warm median':>12} {'warm p90':>9}")
    for key, label in (("dcl", "DOMContentLoaded"), ("fcp", "first contentful paint"),
                       ("first_state", "first state rendered")):
        c = [r["times"][key] for r in cold if r["times"][key] is not None]
        w = [r["times"][key] for r in warm if r["times"][key] is not None]
        print(f"{label:<24} {median(c):>9.1f} ms {percentile(c, 90):>6.1f} ms "
              f"{median(w):>9.1f} ms {percentile(w, 90):>6.1f} ms")
    first_state = median([r["times"]["first_state"] for r in cold])
    ok = transfer + ws_in <= TARGET_BYTES and first_state <= 300
    print("targets met" if ok else "a target is missed")
    return target_code(ok)


if __name__ == "__main__":
    sys.exit(main())
