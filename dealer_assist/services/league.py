"""The season (R77, R78): every deal of every table in a date range, per person.

A person is a name compared as at a table, the host's aliases followed
(:mod:`dealer_assist.services.people`). Per person: the nights played (the calendar days, in
the server's time zone, on which they were dealt in), the deals dealt in, what they bought
in and cashed out, the stack still at a table, the net, and the biggest pot won (their
largest payout in one deal). Sorted by net, highest first. The chips the tables hold beyond
what they started with (a pot carried to a later deal) are the ``bank``, shown apart: the
people's nets and the bank sum to zero.

It reads the deal rows only, never a record (``storage.season_rows``): each finished deal's
``people_json`` (who was dealt in, and their payouts), and the totals a day's first deal
started from and its last deal left (``base_json``, ``after_json``). A person's net moves
only with a deal's result and a correction (R8), so their net over a day at a table is their
net at its end minus their net at its start (``books.Position``). A range that begins while
a table is under way counts the stack a person had there as bought in: money in for the
range, so that every range adds up like the whole season.

>>> from datetime import timedelta, timezone
>>> day_of("2026-11-28T01:30:00+00:00", timezone(timedelta(hours=-5)))
datetime.date(2026, 11, 27)
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from typing import Any

from dealer_assist.core.deal import Totals
from dealer_assist.core.errors import SetupError
from dealer_assist.core.table import TableSetup
from dealer_assist.games.registry import game_for
from dealer_assist.services import carried, storage
from dealer_assist.services.history.books import Position, positions
from dealer_assist.services.history.export import csv_cell
from dealer_assist.services.history.stored import as_seated
from dealer_assist.services.people import People, read_people
from dealer_assist.services.storage import Connection as Database
from dealer_assist.services.tables import load_table, setup_of


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


def day_of(started: str, zone: tzinfo | None = None) -> date:
    """The calendar day of a stored time, in ``zone`` (None: the server's own)."""
    moment = datetime.fromisoformat(started)
    return moment.astimezone(zone).date()


@dataclass
class Person:
    name: str
    days: set[date] = field(default_factory=set)
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


class Season:
    """The season being added up, table by table."""

    def __init__(self, people: People) -> None:
        self.directory = people
        self.people: dict[str, Person] = {}
        self.keys: dict[str, str] = {}  # a name as recorded -> the person's key
        self.bank = 0
        self.nightly: dict[date, dict[str, int]] = defaultdict(dict)  # day -> key -> net

    def person(self, name: str) -> Person:
        key = self.keys.get(name)
        if key is None:
            key, shown = self.directory.person(name)
            self.keys[name] = key
            if key not in self.people:
                self.people[key] = Person(shown)
        return self.people[key]

    def span(self, start: Totals, end: Totals) -> None:
        """What changed at one table from ``start`` to ``end`` (the range's whole stay)."""
        before, after = positions(start), positions(end)
        for name, now in after.items():
            was = before.get(name, Position())
            person = self.person(name)
            person.bought_in += now.bought_in - was.bought_in + was.stack
            person.cashed_out += now.cashed_out - was.cashed_out
            person.stack += now.stack
            person.net += now.net - was.net
        self.bank += held(end) - held(start)

    def day(self, day: date, start: Totals, end: Totals, dealt: set[str]) -> None:
        """One day at one table (``dealt``: who was dealt in), for the chart by night."""
        before, after = positions(start), positions(end)
        nets = self.nightly[day]
        for name, now in after.items():
            change = now.net - before.get(name, Position()).net
            if change or name in dealt:
                key = self.keys.get(name) or self.directory.person(name)[0]
                nets[key] = nets.get(key, 0) + change


def held(totals: Totals) -> int:
    return sum(carried.amounts(totals).values())


@dataclass(frozen=True)
class Row:
    number: int
    day: date
    base_json: str
    after_json: str | None
    people_json: str | None


class TableRows:
    """One table's deal rows, and the totals at the moments a season needs."""

    def __init__(self, db: Database, table_id: str, rows: list[Row],
                 setups: dict[str, str]) -> None:
        self.db, self.table_id, self.rows, self.setups = db, table_id, rows, setups

    def setup(self) -> TableSetup:
        if not self.setups:  # read once, and only for rows older than schema step 4
            self.setups.update(storage.table_setups(self.db))
        return setup_of({"setup_json": self.setups[self.table_id]})

    def totals(self, text: str) -> Totals:
        found = Totals.from_json(json.loads(text))
        return found if found.names else as_seated(found, self.setup())  # before R70

    def before(self, i: int) -> Totals:
        """The totals deal ``i`` started from; the table's first deal: those the table was
        made with, so that a correction before it counts (R8)."""
        if i == 0 and self.rows[0].number == 1:
            setup = self.setup()
            return as_seated(game_for(setup.variant, setup.rules).initial_totals(setup), setup)
        return self.totals(self.rows[i].base_json)

    def after(self, i: int) -> Totals:
        """The totals deal ``i`` left, the between-deal records after it included."""
        text = self.rows[i].after_json
        if text is not None:
            return self.totals(text)
        if i + 1 < len(self.rows):
            return self.before(i + 1)
        # a table's last deal stored before its row kept what followed it: replay that deal
        table = load_table(self.db, self.setup(), self.table_id)
        return table.totals if table.deal_over else table.base

    def add_to(self, books: Season, first: date | None, last: date | None) -> None:
        counted = [i for i, d in enumerate(self.rows) if d.people_json is not None
                   and (first is None or d.day >= first) and (last is None or d.day <= last)]
        if not counted:
            return
        start = day_start = self.before(counted[0])
        dealt: set[str] = set()
        for at, i in enumerate(counted):
            deal = self.rows[i]
            for name, payout in json.loads(deal.people_json or "{}").items():
                person = books.person(name)
                person.days.add(deal.day)
                person.deals += 1
                person.biggest_pot = max(person.biggest_pot, payout)
                dealt.add(name)
            following = counted[at + 1] if at + 1 < len(counted) else None
            if following is None or self.rows[following].day != deal.day:
                day_end = self.after(i)  # the day's last deal, and what followed it
                books.day(deal.day, day_start, day_end, dealt)
                dealt = set()
                if following is not None:
                    day_start = self.before(following)
        books.span(start, day_end)


def season(db: Database, first: date | None = None, last: date | None = None,
           zone: tzinfo | None = None) -> dict[str, Any]:
    """``GET /api/league``'s answer for the days ``first`` to ``last`` (None: open)."""
    with storage.read_transaction(db):
        people = read_people(db)
        by_table: dict[str, list[Row]] = defaultdict(list)
        days: dict[str, date] = {}  # a start's minute -> its day: one parse per minute
        for r in storage.season_rows(db):
            minute = r["started"][:16]
            day = days.get(minute)
            if day is None:
                day = days[minute] = day_of(r["started"], zone)
            by_table[r["table_id"]].append(
                Row(r["number"], day, r["base_json"], r["after_json"], r["people_json"]))
        books = Season(people)
        setups: dict[str, str] = {}
        for table_id, rows in by_table.items():
            TableRows(db, table_id, rows, setups).add_to(books, first, last)
    listed = [p for p in books.people.values() if p.deals or p.net or p.bought_in]
    listed.sort(key=lambda p: (-p.net, p.name.casefold()))
    return {
        "from": first.isoformat() if first else None, "to": last.isoformat() if last else None,
        "people": [p.to_json() for p in listed], "bank": books.bank,
        "nights": [d.isoformat() for d in sorted(books.nightly)],
        "chart": cumulative(books, listed), **people.to_json(),
    }


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
                points.append({"night": night.isoformat(), "net": total})
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
    writer.writerow(["(held by the bank)", "", "", "", "", "", answer["bank"], ""])
    return out.getvalue()
