"""Taps and keys a dealer spends on one deal of each game, on the tablet page in Chromium.

Run: ``python bench/bench_taps.py [--games VARIANT ...]``

A real ``dealer-assist serve`` on loopback; Debian's Chromium (headless, driven by Playwright)
opens the dealer's page at 1024x768 and plays one deal of each game, everyone checking or
calling, every card entered on the felt with the card picker (the first place to fill is ringed
and each card picked rings the next: one tap a card, no typing). Two ways of dealing are
counted:

- ``at the showdown``: every reveal is one tap on Turned, entering nothing; the showdown then
  asks for every card (the grid or board, the king's hand, the hole cards);
- ``as turned``: at each reveal the picker fills the framed cells in order; the showdown then
  asks only for what was never turned face up (King's Pot's last sets and the king's hand, or
  the hole cards).

Counted: every click and key press the script makes on the page. The goal (issues 13 and 22):
a showdown costs at most one tap per card not yet entered plus one to record, in every game.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import app_server, create_table, machine, request, target_code

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TABLET = {"width": 1024, "height": 768}


def games() -> list[tuple[str, int]]:
    """Every game, with four players (five where a game's grid takes them)."""
    from dealer_assist.games.registry import all_games
    return [(g.variant, max(4, min(5, g.players[1])) if g.layout.size == 5 else 4)
            for g in all_games()]


STYLES = ("at the showdown", "as turned")


@dataclass
class Count:
    taps: int = 0
    keys: int = 0
    showdown_taps: int = 0
    showdown_cards: int = 0  # the cards the showdown asked for


class Dealer:
    """Plays the tablet page by its buttons, counting every tap."""

    def __init__(self, page: Any, base: str, table_id: str, seed: int) -> None:
        self.page, self.base, self.table_id = page, base, table_id
        self.deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
        random.Random(seed).shuffle(self.deck)
        self.count = Count()

    def state(self) -> dict[str, Any]:
        return request("GET", f"{self.base}/api/tables/{self.table_id}")[1]

    def tap(self, selector: str) -> None:
        self.page.locator(selector).first.click()
        self.count.taps += 1

    def submit(self, selector: str) -> None:
        """A tap that sends an action: wait for the page to show the next state."""
        seq = self.page.locator("#seq").inner_text()
        self.tap(selector)
        self.page.wait_for_function(
            "(seq) => document.getElementById('seq').textContent !== seq", arg=seq)

    def pick_cards(self, n: int, *, rank_only: bool = False) -> None:
        for _ in range(n):
            card = self.deck.pop()
            if rank_only:
                self.tap(f'.picker button.rank-only[data-rank="{card[0]}"]')
            else:
                self.tap(f'.picker button.pick[data-card="{card}"]')

    def play(self, style: str) -> Count:
        self.submit('[data-action="start_deal"]')
        while True:
            s = self.state()
            step = s["step"]
            kind = step["kind"]
            if kind == "buy":
                self.submit('button.buy[data-count="1"]')
            elif kind == "deal_cards":
                self.pick_cards(step["count"], rank_only=True)
                self.submit('[data-action="deal_cards"]')
            elif kind == "reveal":
                if style == "as turned":
                    self.pick_cards(len(step["cells"]))
                self.submit('[data-action="reveal"]')
            elif kind == "bet":
                # a call the stack cannot cover is offered as All in only
                verb = ("check" if not step["to_call"] else
                        "call" if "call" in step["options"] else "all_in")
                self.submit(f'[data-action="{verb}"]')
            elif kind == "pay":
                self.submit('[data-action="pay"]')
            elif kind == "next":
                self.submit('[data-action="next"]')
            elif kind == "draw":
                self.submit('[data-action="app-draw"]')
            elif kind == "showdown":
                before = self.count.taps
                # the places the showdown asks for: buttons on the felt, the first one ringed
                slots = self.page.locator(".area-grid button[data-slot]").count()
                self.count.showdown_cards = slots
                self.pick_cards(slots)
                self.submit('[data-action="showdown"]')
                self.count.showdown_taps = self.count.taps - before
            else:
                assert kind in ("start_deal", "game_over"), step
                assert s["result"] is not None
                return self.count


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--games", nargs="+", default=None, metavar="VARIANT",
                        help="only these games (all by default)")
    args = parser.parse_args(argv)
    print(machine())
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-taps-") as tmp:
        server = app_server(Path(tmp) / "taps.db", Path(tmp) / "server.log")
        with server.start(ready_path="/api/tables"), sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                for variant, players in games():
                    if args.games and variant not in args.games:
                        continue
                    for style in STYLES:
                        names = ["Ann", "Bob", "Cy", "Dee", "Eve"][:players]
                        made = create_table(server.url, variant, names)
                        context = browser.new_context(viewport=TABLET)
                        page = context.new_page()
                        page.goto(f"{server.url}/t/{made['id']}/dealer#token={made['dealer_token']}")
                        page.locator('[data-action="start_deal"]').wait_for()
                        count = Dealer(page, server.url, made["id"], args.seed).play(style)
                        context.close()
                        rows.append((variant, players, style, count))
            finally:
                browser.close()
    print("\n| game | players | cards entered | taps, whole deal | keys | showdown: cards asked "
          "| showdown taps | goal (cards + 1) |")
    print("| --- | ---: | --- | ---: | ---: | ---: | ---: | --- |")
    for variant, players, style, c in rows:
        goal = "met" if c.showdown_taps <= c.showdown_cards + 1 else "MISSED"
        print(f"| {variant} | {players} | {style} | {c.taps} | {c.keys} | {c.showdown_cards} "
              f"| {c.showdown_taps} | {goal} |")
    return target_code(all(c.showdown_taps <= c.showdown_cards + 1 for *_, c in rows))


if __name__ == "__main__":
    raise SystemExit(main())
