"""The typed ``Step`` says exactly what the loose dicts said (issue 11, "Typed state").

``tests/fixtures/step_json_golden.json.gz`` was written by the dict-returning code (before
``Step`` existed) with ``python tests/test_step_json.py --write``: seeded random deals of every
game and betting structure, the ``step`` JSON of every state text for text (key order too).
The test plays the same deals and compares each state's ``step`` byte for byte. It was written
again once, when the pay step gained ``fold_label`` and ``pay_label`` (issue 21: the pages stop
reading the instruction's English), just before the core stopped importing the games, which it
guards; and again when a reveal at an all-in gained ``options``, ``players`` and
``hole_cards`` (R66, R67) and the random play took bomb pots, runs twice and tabled hands
(issue 23): played with the random play of before, every trail was then the written one but
for those three keys of those reveals; and when a call the stack cannot cover came to be
offered as all in only (issue 32): with the random play still sending that call, every trail
was the written one but for the ``options`` of those betting steps; and when a showdown's
step gained ``muckable`` (issue 32), every trail was the written one but for that key. The
draw games (R85) added their trails, every earlier trail unchanged.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

from dealer_assist.core.autoplay import legal_actions, unused_cards
from dealer_assist.core.errors import IllegalActionError, SetupError
from dealer_assist.games.registry import all_games, new_table

GOLDEN = Path(__file__).parent / "fixtures" / "step_json_golden.json.gz"
SEEDS = range(4)
DEALS = 5


def cases() -> list[tuple[str, dict[str, Any], int]]:
    """Every game, with every betting structure it takes, at a few table sizes."""
    out = []
    for game in all_games():
        low, high = game.players
        for betting, extra in (("no_limit", {}), ("pot_limit", {}), ("fixed_limit", {}),
                               ("no_limit", {"draw_for_blind": True, "river_raise": True})):
            for n in sorted({low, min(high, low + 2), min(high, 6)}):
                rules: dict[str, Any] = {"betting": betting, "buy_in": 12, **extra}
                try:
                    new_table(game.variant, [f"P{i}" for i in range(n)], rules)
                except SetupError:
                    continue
                out.append((game.variant, rules, n))
    return out


def trail(variant: str, rules: dict[str, Any], n: int, seed: int) -> list[str]:
    """The ``step`` JSON of every state of a few seeded random deals."""
    rng = random.Random(f"{variant}/{rules['betting']}/{n}/{seed}")
    table = new_table(variant, [f"P{i}" for i in range(n)], rules)
    steps = [json.dumps(table.step())]
    deals = 0
    for _ in range(3000):
        if table.deal_over:
            deals += 1
            if deals > DEALS or table.step()["kind"] == "game_over":
                break
        body = rng.choice(legal_actions(table, rng))
        if body["type"] == "draw":  # the app's own draw is secret: draw from the seed
            body = {**body, "card": rng.choice(unused_cards(table))}
        try:
            table = table.apply(table.prepare(body))
        except IllegalActionError:  # too few players with chips for another deal
            assert body["type"] == "start_deal"
            break
        steps.append(json.dumps(table.step()))
    return steps


def all_trails() -> dict[str, list[str]]:
    return {f"{v} {sorted(r.items())} {n} {s}": trail(v, r, n, s)
            for v, r, n in cases() for s in SEEDS}


def test_step_json_is_what_the_dicts_gave() -> None:
    golden = json.loads(gzip.decompress(GOLDEN.read_bytes()))
    now = all_trails()
    assert sorted(now) == sorted(golden)
    kinds = set()
    for key, steps in now.items():
        assert len(steps) == len(golden[key]), key
        for i, (got, want) in enumerate(zip(steps, golden[key], strict=True)):
            assert got == want, f"{key}, state {i}"
            kinds.add(json.loads(got)["kind"])
    # every kind of step was seen, so every producer was compared
    assert kinds >= {"start_deal", "next", "reveal", "bet", "showdown", "buy", "deal_cards",
                     "draw", "discard", "pay"}


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    GOLDEN.write_bytes(gzip.compress(json.dumps(all_trails()).encode(), mtime=0))
