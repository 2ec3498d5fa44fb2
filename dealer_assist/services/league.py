"""The season (R77, R78): every deal of every table in a date range, per person.

A person is a name compared as at a table, the host's aliases followed
(:mod:`dealer_assist.services.people`). Per person: the nights played (the calendar days, in
the server's time zone, on which they were dealt in), the deals dealt in, what they bought
in and cashed out, the stack still at a table, the net, and the biggest pot won (their
largest payout in one deal). Sorted by net, highest first. The chips the tables hold beyond
what they started with (a pot carried to a later deal) are the ``bank``, shown apart: the
people's nets and the bank sum to zero. Tournaments (R94) are apart too: their tables' chips
are no one's money, and each person's tournament money (paid in, won) is its own list.

It reads finished deals' rows only, never a record, added up by the database a table and a
day at a time (``storage.season_people``, ``storage.season_days``): who was dealt in and
their largest payout (``people_json``), and the totals a day's first deal started from and
its last deal left (``base_json``, ``after_json``). A person's net moves only with a deal's
result and a correction (R8), so their net over a day at a table is their net at its end
minus their net at its start (``books.Position``); a table's first day starts from nobody
(a correction before the first deal counts). A range that begins while a table is under way
counts the stack a person had there as bought in: money in for the range, so that every
range adds up like the whole season.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from dealer_assist.core.deal import Totals
from dealer_assist.core.errors import SetupError
from dealer_assist.services import carried, storage
from dealer_assist.services.history.books import Position, positions
from dealer_assist.services.history.export import csv_cell
from dealer_assist.services.history.stored import as_seated
from dealer_assist.services.people import People, read_people
from dealer_assist.services.storage import Connection as Database
from dealer_assist.services.tables import load_table, setup_of
from dealer_assist.services.tournaments import replay

NOBODY = Totals(stacks=())  # where a table's first day starts


class RangeRefused(SetupError):
    """A date range that is no range: the message is a sentence."""


def parse_day(value: str | None, what: str) -> date | None:
    if value is None or value == "":
        return None
    try:
        if len(value) == 10:
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise RangeRefused(f"{what} must be a date such as 2026-11-27, not {value[:20]!r}.")


def date_range(start: str | None, end: str | None) -> tuple[date | None, date | None]:
    """``?from=`` and ``?to=`` as dates (either may be left out), or a sentence."""
    first, last = parse_day(start, "from"), parse_day(end, "to")
    if first and last and first > last:
        raise RangeRefused(f"from ({first}) is after to ({last}): nothing is in between.")
    return first, last


@dataclass
class Person:
    name: str
    days: set[str] = field(default_factory=set)
    deals: int = 0
    bought_in: int = 0
    cashed_out: int = 0
    stack: int = 0
    net: int = 0
    biggest_pot: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "nights": len(self.days), "deals": self.deals,
                "bought_in": self.bought_in, "cashed_out": self.cashed_out,
                "stack": self.stack, "net": self.net, "biggest_pot": self.biggest_pot}


def held(totals: Totals) -> int:
    return sum(carried.amounts(totals).values())


class Season:
    """The season being added up, table by table."""

    def __init__(self, people: People) -> None:
        self.directory = people
        self.people: dict[str, Person] = {}
        self.keys: dict[str, str] = {}  # a name as recorded -> the person's key
        self.bank = 0
        self.nightly: dict[str, dict[str, int]] = defaultdict(dict)  # day -> key -> net

    def key(self, name: str) -> str:
        key = self.keys.get(name)
        if key is None:
            key, shown = self.directory.person(name)
            self.keys[name] = key
            if key not in self.people:
                self.people[key] = Person(shown)
        return key

    def dealt(self, day: str, name: str, deals: int, biggest: int) -> None:
        person = self.people[self.key(name)]
        person.days.add(day)
        person.deals += deals
        person.biggest_pot = max(person.biggest_pot, biggest)

    def span(self, before: dict[str, Position], after: dict[str, Position],
             held_change: int) -> None:
        """What changed at one table over the range (``before`` and ``after``: everyone's
        positions at its start and end; ``held_change``: what the table holds more)."""
        for name, now in after.items():
            was = before.get(name, Position())
            person = self.people[self.key(name)]
            person.bought_in += now.bought_in - was.bought_in + was.stack
            person.cashed_out += now.cashed_out - was.cashed_out
            person.stack += now.stack
            person.net += now.net - was.net
        self.bank += held_change

    def day(self, day: str, before: dict[str, Position], after: dict[str, Position],
            dealt: set[str]) -> None:
        """One day at one table (``dealt``: who was dealt in), for the chart by night."""
        nets = self.nightly[day]
        for name, now in after.items():
            change = now.net - before.get(name, Position()).net
            if change or name in dealt:
                key = self.key(name)
                nets[key] = nets.get(key, 0) + change


class TableDays:
    """One table's days: the totals at each day's start and end."""

    def __init__(self, db: Database, table_id: str, days: list[dict[str, Any]],
                 setups: dict[str, str]) -> None:
        self.db, self.table_id, self.days, self.setups = db, table_id, days, setups

    def totals(self, text: str) -> Totals:
        found = Totals.from_json(json.loads(text))
        if found.names:
            return found
        if not self.setups:  # rows older than R70 name nobody: the setup's players sat
            self.setups.update(storage.table_setups(self.db))
        return as_seated(found, setup_of({"setup_json": self.setups[self.table_id]}))

    def end(self, day: dict[str, Any]) -> Totals:
        """The totals the day's last deal left, the between-deal records after it too."""
        text = day["after_json"] or storage.base_json_of(self.db, self.table_id,
                                                         day["last"] + 1)
        if text is not None:
            return self.totals(text)
        # a table's last deal stored before its row kept what followed it: replay that deal
        if not self.setups:
            self.setups.update(storage.table_setups(self.db))
        table = load_table(self.db, setup_of({"setup_json": self.setups[self.table_id]}),
                           self.table_id)
        return table.totals if table.deal_over else table.base

    def add_to(self, books: Season, dealt: dict[str, set[str]]) -> None:
        """The table's days in the range, in order; a day's start is the day before's end
        where no deal lies between them (one parse of the totals a day)."""
        if not self.days:
            return
        first_base = self.totals(self.days[0]["base_json"])
        start = positions(NOBODY) if self.days[0]["first"] == 1 else positions(first_base)
        before, last, end = start, None, first_base
        for day in self.days:
            if last is not None and day["first"] != last + 1:
                before = positions(self.totals(day["base_json"]))
            end = self.end(day)
            after = positions(end)
            books.day(day["day"], before, after, dealt.get(day["day"], set()))
            before, last = after, day["last"]
        books.span(start, before, held(end) - held(first_base))


def season(db: Database, first: date | None = None, last: date | None = None
           ) -> dict[str, Any]:
    """``GET /api/league``'s answer for the days ``first`` to ``last`` (None: open)."""
    low, high = (first.isoformat() if first else ""), (last.isoformat() if last else "9999")
    books = Season(People())
    with storage.read_transaction(db):
        books.directory = read_people(db)
        # R94: a tournament's tables play for chips that are no one's money; the
        # tournament's money is its own part of the season (tournament_season)
        apart = storage.tournaments.all_tournament_tables(db)
        dealt: dict[tuple[str, str], set[str]] = defaultdict(set)
        for table_id, day, name, deals, biggest in storage.season_people(db):
            if low <= day <= high and table_id not in apart:
                books.dealt(day, name, deals, biggest)
                dealt[table_id, day].add(name)
        by_table: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in storage.season_days(db):
            if low <= row["day"] <= high and row["table_id"] not in apart:
                by_table[row["table_id"]].append(row)
        setups: dict[str, str] = {}
        for table_id, days in by_table.items():
            TableDays(db, table_id, days, setups).add_to(
                books, {day["day"]: dealt[table_id, day["day"]] for day in days})
        tournaments = tournament_season(db, books.directory, low, high)
    listed = [p for p in books.people.values() if p.deals or p.net or p.bought_in]
    listed.sort(key=lambda p: (-p.net, p.name.casefold()))
    answer: dict[str, Any] = {
        "from": first.isoformat() if first else None, "to": last.isoformat() if last else None,
        "people": [p.to_json() for p in listed]}
    answer.update(bank=books.bank)  # R78's: what the tables keep, apart from the people
    answer |= {"nights": sorted(books.nightly), "chart": cumulative(books, listed),
               **books.directory.to_json(), "tournaments": tournaments}
    return answer


def tournament_season(db: Database, directory: People, low: str, high: str
                      ) -> list[dict[str, Any]]:
    """R94: per person, the tournaments made on the days ``low`` to ``high`` they entered,
    the money they paid in (buy-ins, rebuys, add-ons) and won, and the net; best net first.
    Apart from the cash games' people: no chip of a tournament is money."""
    people: dict[str, dict[str, Any]] = {}
    for tournament_id, created in storage.tournaments.tournament_days(db):
        if not low <= storage.local_day(created) <= high:
            continue
        tournament = replay(db, tournament_id)
        if tournament is None:
            continue
        for name, (paid, won) in tournament.money().items():
            key, shown = directory.person(name)
            row = people.setdefault(key, {"name": shown, "tournaments": 0, "paid_in": 0,
                                          "won": 0, "net": 0})
            row["tournaments"] += 1
            row["paid_in"] += paid
            row["won"] += won
            row["net"] += won - paid
    return sorted(people.values(), key=lambda r: (-r["net"], r["name"].casefold()))


def cumulative(books: Season, listed: Iterable[Person]) -> list[dict[str, Any]]:
    """Each person's net added up night by night, from their first night on."""
    keys = {id(p): key for key, p in books.people.items()}
    out = []
    for person in listed:
        key, total = keys[id(person)], 0
        points: list[dict[str, Any]] = []
        for night in sorted(books.nightly):
            nets = books.nightly[night]
            if key in nets or points:
                total += nets.get(key, 0)
                points.append({"night": night, "net": total})
        out.append({"name": person.name, "points": points})
    return out


LEAGUE_COLUMNS = ("name", "nights", "deals", "bought_in", "cashed_out", "stack", "net",
                  "biggest_pot")


def season_csv(answer: dict[str, Any]) -> str:
    """The season as CSV: one row a person, then the bank's."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(LEAGUE_COLUMNS)
    for person in answer["people"]:
        writer.writerow([csv_cell(person[c]) for c in LEAGUE_COLUMNS])
    held = -sum(person["net"] for person in answer["people"])  # the nets and it sum to 0
    writer.writerow(["(kept by the tables)", "", "", "", "", "", held, ""])
    return out.getvalue()
