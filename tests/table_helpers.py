"""Helpers the rule tests share: act, refuse, stacks."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

from dealer_assist.core.errors import DealerAssistError
from dealer_assist.core.hands import rank_five
from dealer_assist.core.table import Table
from dealer_assist.web.state import table_state


def act(t: Table, **body: Any) -> Table:
    """Apply ``body``; every action conserves chips (R3: bank, carry and off_table included)
    and leaves exactly one next step."""
    before = t.chips()
    after = t.apply(t.prepare(body))
    assert after.chips() == before
    step = after.step()
    assert isinstance(step, dict) and isinstance(step["kind"], str)
    return after


def refuse(t: Table, match: str, **body: Any) -> str:
    """R9: ``body`` is refused with a sentence matching ``match``, and nothing changes."""
    before = table_state(t, dealer=True)
    with pytest.raises(DealerAssistError, match=match) as err:  # malformed or illegal
        t.apply(t.prepare(body))
    assert table_state(t, dealer=True) == before
    message = str(err.value)
    assert message.endswith(".") and len(message.split()) >= 3
    return message


def check_round(t: Table) -> Table:
    """Everyone to act checks (or calls) until the betting round is over."""
    while t.step()["kind"] == "bet":
        step = t.step()
        t = act(t, type="call" if step["to_call"] else "check", player=step["player"])
    return t


def to_showdown(t: Table) -> Table:
    """Turn every street and check every round down to the showdown."""
    while t.step()["kind"] != "showdown":
        t = check_round(t) if t.step()["kind"] == "bet" else act(t, type="reveal")
    return t


def stacks(t: Table) -> dict[str, int]:
    return {p["name"]: p["stack"] for p in table_state(t)["players"]}


def showdown(t: Table, cells: dict[str, str], hands: dict[str, str]) -> Table:
    """The showdown with the grid ``cells`` and each player's hole cards as typed text."""
    return act(t, type="showdown", cells=cells,
               hands={name: text.split() for name, text in hands.items()})


def brute_force_lines(hole: list[str], cells: dict[str, str],
                      lines: dict[str, tuple[str, ...]]) -> tuple[int, set[str]]:
    """R32, R42 by hand: every five of the hole cards and one line, ranked by rank_five alone;
    the best score and every line that gives it."""
    best: dict[str, int] = {}
    for line, line_cells in lines.items():
        seven = hole + [cells[c] for c in line_cells]
        best[line] = max(rank_five(list(five)).score for five in combinations(seven, 5))
    top = max(best.values())
    return top, {line for line, score in best.items() if score == top}
