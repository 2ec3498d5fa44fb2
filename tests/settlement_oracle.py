"""An independent reckoning of R6 and R7 for the property tests: pot layers and odd chips
worked out by hand from the public state, to compare with what the rules core pays."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from dealer_assist.core.autoplay import legal_actions, showdown_action
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table
from dealer_assist.web.state import table_state


def expected_settlement(t: Table, scores: dict[str, int]) -> tuple[dict[str, int], int]:
    """R6 and R7 by hand, from the state before the showdown: layer every seat's chips in
    the pot by the levels of the seats still in; each layer to the best of the seats still
    in that reached it; odd chips by ``rules.odd_chip``. Returns (payouts, chips carried)."""
    s = table_state(t)
    names = [p["name"] for p in s["players"]]
    put = {p["name"]: p["in_pot"] for p in s["players"]}
    live = [p["name"] for p in s["players"] if p["status"] in ("in", "all_in")]
    dealer = names.index(s["dealer"])
    from_left = names[dealer + 1:] + names[:dealer + 1]
    levels = sorted({put[n] for n in live if put[n]})
    layers: list[list[Any]] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in put.values())
        layers.append([amount, [n for n in live if put[n] >= level]])
        previous = level
    above = sum(c - previous for c in put.values() if c > previous)  # folded above every level
    if layers:
        layers[-1][0] += above
        layers[0][0] += s["carried"]
    else:
        layers.append([above + s["carried"], live])
    payouts: dict[str, int] = {}
    carried = 0
    for amount, eligible in layers:
        top = max(scores[n] for n in eligible)
        winners = [n for n in from_left if n in eligible and scores[n] == top]
        share, odd = divmod(amount, len(winners))
        for i, n in enumerate(winners):
            extra = 1 if s["rules"]["odd_chip"] == "left_of_dealer" and i < odd else 0
            if share + extra:
                payouts[n] = payouts.get(n, 0) + share + extra
        if s["rules"]["odd_chip"] == "carry":
            carried += odd
    return payouts, carried


def check_random_showdown(
    variant: str, seed: int, stacks: list[int], betting: str, odd_chip: str,
    score: Callable[[list[str], dict[str, str]], int],
) -> None:
    """Play a random deal to its showdown without folding where possible, then check that
    the core pays exactly what :func:`expected_settlement` works out, with ``score`` ranking
    each player's best hand independently."""
    rng = random.Random(seed)
    players = [{"name": f"P{i}", "stack": s} for i, s in enumerate(stacks)]
    t = new_table(variant, players, {"betting": betting, "odd_chip": odd_chip})
    t = t.apply(t.prepare({"type": "start_deal"}))
    while t.step()["kind"] != "showdown":
        if t.deal_over:
            return  # everyone else folded: no showdown to check
        options = legal_actions(t, rng)
        staying = [o for o in options if o["type"] != "fold"] or options
        t = t.apply(t.prepare(rng.choice(staying)))
    after = t.apply(t.prepare(showdown_action(t, t.next_step(), rng)))
    assert after.deal is not None
    cells = {c: card for c, card in after.deal.grid.items() if card}
    scores = {p.name: score(p.cards, cells) for p in after.deal.still_in()}
    payouts, carried = expected_settlement(t, scores)
    taken = {n: c for n, c in table_state(after)["result"]["payouts"].items() if c}
    assert taken == payouts  # API.md: players who take nothing may be left out
    assert after.totals.carry == carried
    assert sum(after.totals.stacks) + after.totals.carry == sum(stacks)
