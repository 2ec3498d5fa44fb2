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

FRIDAY_1 = "2026-11-20T12:00:00+00:00"  # noon UTC: one day from UTC-11 to UTC+11
SATURDAY = "2026-11-21T12:00:00+00:00"
FRIDAY_2 = "2026-11-27T12:00:00+00:00"


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


class Host(Protocol):
    """What the season needs of a server: make a table, export, import, delete (as the
    host: the tests run on the server's own machine)."""

    def table(self, variant: str, players: list[str], rules: dict[str, Any],
              name: str) -> Any: ...

    def export(self, d: Any) -> dict[str, Any]: ...

    def copy(self, exported: dict[str, Any]) -> str: ...

    def delete(self, d: Any) -> None: ...


def play_season(host: Host) -> dict[str, str]:
    """Friday's and Saturday's tables, played now, then kept only as copies on their dates:
    the copies' ids."""
    friday = host.table("kings_pot", ["Ann", "Bob", "Cy"], {"banker": "Ann"}, "Friday")
    play_friday(friday)
    saturday = host.table("texas_holdem", ["Bobby", "Eve", "Ann"], {}, "Saturday")
    play_saturday(saturday)
    ids = {"friday": host.copy(dated(host.export(friday),
                                     {1: FRIDAY_1, FRIDAY_2_FROM: FRIDAY_2})),
           "saturday": host.copy(dated(host.export(saturday), {1: SATURDAY}))}
    host.delete(friday)
    host.delete(saturday)
    return ids


# the season of all three nights, Bobby being Bob (R78's figures, worked out in the module's
# docstring's deals): name, nights, deals, bought in, cashed out, stack, net, biggest pot.
# Bob bought no card in deal 2 (King's Pot): not dealt in.
SEASON = [
    ("Cy", 2, 4, 100, 110, 0, 10, 14),
    ("Di", 1, 1, 100, 0, 101, 1, 2),
    ("Eve", 1, 2, 100, 0, 99, -1, 0),
    ("Ann", 3, 6, 200, 0, 197, -3, 2),
    ("Bob", 3, 5, 250, 0, 238, -12, 2),
]
