"""Two Fridays and a Saturday of a home game (issue 24), played through the API and moved to
known dates by export and import, for the host's books: the banker (R76), the season with an
alias (R77, R78), and the charts of a newcomer, a rebuy and a cash-out.

- **Friday** (King's Pot; ``rules.banker``: Ann). Night 1, 2026-11-20: the three deals of
  ``test_history.play_kings_pot_night`` (Cy wins the king's hand's pot, Bob rebuys 50, Cy
  gives Ann 3 back); the king's pot keeps 5. Night 2, 2026-11-27: Di sits down after Bob
  with 100; deal 4 is Texas Dozen (dealer's choice, R71), folded to the big blind, the king's
  pot of 5 waiting through it (R72); Cy cashes out and leaves.
- **Saturday** (Texas Hold'em), 2026-11-21: Bobby, Eve and Ann; two deals folded to the big
  blind. The host says Bobby is Bob.

Both drivers have ``run(*bodies) -> state``: a Flask test client's ``Dealer`` or a live
server's.
"""

from __future__ import annotations

from typing import Any, Protocol

from test_history import play_kings_pot_night

FRIDAY_1 = "2026-11-20T20:00:00+00:00"
SATURDAY = "2026-11-21T20:00:00+00:00"
FRIDAY_2 = "2026-11-27T20:00:00+00:00"


class Driver(Protocol):
    def run(self, *bodies: dict[str, Any]) -> dict[str, Any]: ...


def fold_to_the_blind(d: Driver, **start: Any) -> dict[str, Any]:
    """A deal started with ``start`` in which everyone asked to bet folds."""
    state = d.run({"type": "start_deal", **start})
    while state["result"] is None:
        step = state["step"]
        body = ({"type": "fold", "player": step["player"]} if step["kind"] == "bet"
                else {"type": step["kind"]})
        state = d.run(body)
    return state


def play_friday(d: Driver) -> None:
    play_kings_pot_night(d)  # night 1: deals 1-3
    d.run({"type": "seat", "player": "Di", "stack": 100, "after": "Bob"})
    fold_to_the_blind(d, variant="texas_dozen")  # night 2: deal 4
    d.run({"type": "leave", "player": "Cy"})


def play_saturday(d: Driver) -> None:
    fold_to_the_blind(d)
    fold_to_the_blind(d)


FRIDAY_2_FROM = 52  # the seq of Di's seat: night 1 is the 51 records of the first three deals


def dated(exported: dict[str, Any], nights: dict[int, str]) -> dict[str, Any]:
    """The export with each record moved to its night (``nights``: the first seq of each
    night -> its time)."""
    firsts = sorted(nights)
    for record in exported["actions"]:
        record["time"] = nights[max(n for n in firsts if n <= record["seq"])]
    return exported
