"""What the public may see of a deal's records that were undone (issue 14, finding 7).

A record that an undo took back (a showdown entered by mistake, say) is face down again: its
cards were entered, not necessarily shown. Public records and replays show that it happened,
never its cards; a replay's public step for it shows the table as it was before it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dealer_assist.games.registry import CATALOGUE

HIDDEN = "?"
# the fields of an action that carry cards (API.md "Actions"), whatever the game: the core's,
# and each game's own places (a showdown's hand of the game's own)
CARD_FIELDS = ("cards", "card", "cells", "hands", "board", *sorted(CATALOGUE.place_fields))


def undone_seqs(records: Iterable[tuple[int, str]]) -> set[int]:
    """The seqs of one deal's records that an undo took back, from ``(seq, type)`` pairs in
    order: an undo takes back the last record still standing (Table.undo)."""
    standing: list[int] = []
    undone: set[int] = set()
    for seq, kind in records:
        if kind == "undo":
            if standing:
                undone.add(standing.pop())
        else:
            standing.append(seq)
    return undone


def hide_all(value: Any) -> Any:
    """Every card in ``value`` (a card, a list, a dict of them) as ``"?"``: how many, not which."""
    if isinstance(value, dict):
        return {key: hide_all(item) for key, item in value.items()}
    if isinstance(value, list):
        return [hide_all(item) for item in value]
    return HIDDEN if isinstance(value, str) else value


def without_cards(action: dict[str, Any]) -> dict[str, Any]:
    return {key: hide_all(value) if key in CARD_FIELDS else value
            for key, value in action.items()}


def hide_undone(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A deal's ``{"seq", "action", ...}`` entries with the cards of the undone ones hidden."""
    undone = undone_seqs((e["seq"], str(e["action"].get("type"))) for e in entries)
    return [{**e, "action": without_cards(e["action"])} if e["seq"] in undone else e
            for e in entries]


def public_steps(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A public replay's steps: an undone record's step keeps its place, but its cards are
    hidden, its label names only its kind, and its state is the table before it."""
    undone = undone_seqs((s["seq"], str(s["action"].get("type"))) for s in steps)
    out: list[dict[str, Any]] = []
    for step in steps:
        if step["seq"] in undone:
            kind = str(step["action"].get("type", "action")).replace("_", " ")
            step = {**step, "action": without_cards(step["action"]),
                    "label": f"{kind.capitalize()} (undone after).",
                    "state": out[-1]["state"] if out else step["state"]}
        out.append(step)
    return out
