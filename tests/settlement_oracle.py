"""An independent reckoning of R6 and R7 for the property tests: pot layers and odd chips
worked out by hand from the public state, to compare with what the rules core pays."""

from __future__ import annotations

from typing import Any

from dealer_assist.table import Table


def expected_settlement(t: Table, scores: dict[str, int]) -> tuple[dict[str, int], int]:
    """R6 and R7 by hand, from the state before the showdown: layer every seat's chips in
    the pot by the levels of the seats still in; each layer to the best of the seats still
    in that reached it; odd chips by ``rules.odd_chip``. Returns (payouts, chips carried)."""
    s = t.state()
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
