"""A damaged database never silences or breaks the app (issue 25).

SQLite's ``quick_check`` (``storage.database_problem``) finds a file whose structure is
broken. A file whose structure is sound but whose content is not (a table's setup JSON
broken, an action record that no longer replays: a bit flipped on an SD card looks exactly
like this) passes it, and used to start without a word while that table's state and history
answered 500. Here every table is read back as the server would serve it:

- :func:`check_table`: its setup, its deals' rows, and its latest deal replayed from the
  totals it started from (``whole=True``: every deal, as its history replays them); the
  first thing that cannot be read or replayed is a :class:`Damage`, which names the deal
  and the record;
- :func:`check_database`: :func:`refusal` (a zero-byte file, another program's SQLite
  file: refused, exit 3) and every table; the :class:`Report` that ``dealer-assist serve``
  prints at start and ``dealer-assist check`` prints alone;
- :func:`readable_history`: what a damaged table's history still holds, up to the damage.

The web keeps the damaged tables of the process in a :class:`DamagedTables` and answers for
them with the sentence, never a 5xx; every other table works as before.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.core.actions import Action
from dealer_assist.core.deal import Totals
from dealer_assist.core.errors import DealerAssistError
from dealer_assist.core.table import Table, TableSetup
from dealer_assist.services import storage
from dealer_assist.services.history import Stored
from dealer_assist.services.locks import native_lock
from dealer_assist.services.storage import Connection
from dealer_assist.services.tables import load_table, setup_of

OUR_TABLES = {"schema_version", "tables", "actions"}


@dataclass(frozen=True)
class Damage:
    """Where a table stops being readable: its deal and record (``seq``), or its setup
    (both None), and why."""

    table_id: str
    name: str
    deal: int | None
    seq: int | None
    reason: str

    @property
    def where(self) -> str:
        if self.seq is None:
            return "its setup"
        if self.deal:
            return f"deal {self.deal}, record {self.seq}"
        return f"record {self.seq}, before its first deal"

    @property
    def sentence(self) -> str:
        label = f"{self.name!r} ({self.table_id})" if self.name else self.table_id
        after = ("Its history up to there can still be read; nothing more can be played on "
                 "it." if self.seq is not None else "Nothing of it can be shown.")
        return (f"Table {label} is damaged: {self.where} cannot be read back "
                f"({self.reason}). {after}")

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "seq": self.seq, "reason": self.reason,
                "sentence": self.sentence}


@dataclass(frozen=True)
class Report:
    """What :func:`check_database` found: the database refused (``problem``, exit 3), or
    how many tables were read back and which of them are damaged."""

    target: str
    problem: str | None = None
    tables: int = 0
    damaged: tuple[Damage, ...] = ()

    def lines(self) -> list[str]:
        if self.problem:
            return [self.problem]
        if not self.damaged:
            return [f"Checked: {self.tables} table{'' if self.tables == 1 else 's'} read back "
                    "whole."]
        good = self.tables - len(self.damaged)
        return [*(damage.sentence for damage in self.damaged),
                f"Checked: {good} of {self.tables} tables read back whole; the damaged ones "
                "above are shown as damaged, the others work as before."]


def reason_of(err: Exception) -> str:
    """Why a row could not be read or replayed, in a few words (a guest never sees more
    than the host would: no path, no data)."""
    if isinstance(err, json.JSONDecodeError):
        return "it is not valid JSON"
    if isinstance(err, DealerAssistError):
        return f"the rules refuse it: {str(err)[:120].rstrip('.')}"
    return f"{type(err).__name__} while reading it"


def refusal(target: str | Path) -> str | None:
    """A file that is no dealer-assist database (a sentence), or None: a zero-byte file, or
    another program's SQLite file (it has tables, none of ours). A missing file, or a SQLite
    file with no table at all, is a new database."""
    if storage.is_url(target):
        return None
    path = Path(target)
    if not path.is_file():
        return None
    if path.stat().st_size == 0:
        return (f"The database {path} is an empty file (0 bytes), not a dealer-assist "
                "database: if it was one, it was lost; keep it and start with another --db "
                "(a new file name makes a new database).")
    db = storage.connect(path)
    try:
        names = set(db.table_names())
    finally:
        db.close()
    if names and not names & OUR_TABLES:
        shown = ", ".join(sorted(names)[:5])
        return (f"The database {path} is another program's SQLite file (its tables: {shown}), "
                "not a dealer-assist database: give --db another file (a new file name "
                "makes a new database).")
    return None


Record = tuple[int, int, str, str]  # storage.record_rows: seq, deal, time, JSON


def check_table(db: Connection, row: dict[str, Any], *, whole: bool = False) -> Damage | None:
    """The first thing of the table that cannot be read or replayed, or None: its setup, its
    records' and deals' rows, and the table as the server loads it (its latest deal replayed
    from the totals it started from); with ``whole``, every deal replayed, as its history
    does. A database that cannot be reached raises ``storage.StorageError`` as ever."""
    table_id, name = str(row["id"]), str(row.get("name") or "")

    def damage(deal: int | None, seq: int | None, err: Exception) -> Damage:
        return Damage(table_id, name, deal or None, seq, reason_of(err))

    try:
        setup = setup_of(row)
    except Exception as err:  # any way the JSON or the rules refuse it
        return damage(None, None, err)
    with storage.read_transaction(db):
        deals = storage.deal_starts(db, table_id)
        records = storage.record_rows(db, table_id)
        for seq, deal, _time, text in records:
            try:
                json.loads(text)
            except ValueError as err:
                return damage(deal, seq, err)
        unread = unreadable_deal(db, table_id, deals)
        if unread is not None:
            return damage(*unread)
        try:
            table = load_table(db, setup, table_id)
            if table.seq != (records[-1][0] if records else 0):
                raise RuntimeError(f"the replay reached seq {table.seq}")
            failed: Exception | None = None
        except storage.StorageError:
            raise
        except Exception as err:
            failed = err
    if failed is None and not whole:
        return None
    # which record: each deal replayed one record at a time (only the latest, unless whole)
    segments = [(number, start, base) for number, start, base in deals]
    if whole and (not segments or segments[0][1] > 1):
        segments.insert(0, (0, 1, ""))  # the records before the first deal, from the setup
    elif not segments:
        segments = [(0, 1, "")]
    first = 0 if whole else len(segments) - 1
    for i in range(first, len(segments)):
        number, start, base_json = segments[i]
        end = segments[i + 1][1] if i + 1 < len(segments) else None
        found = replay_deal(setup, number, start, base_json, records, end)
        if found is not None:
            return damage(*found)
    if failed is not None:  # each record replays, the deal as a whole does not
        last = records[-1] if records else (0, 0, "", "")
        return damage(last[1], last[0], failed)
    return None


def unreadable_deal(db: Connection, table_id: str, deals: list[tuple[int, int, str]]
                    ) -> tuple[int, int, Exception] | None:
    """The first deal whose row (its result) cannot be read as the history reads it."""
    try:
        storage.list_deals(db, table_id)
        return None
    except storage.StorageError:
        raise
    except Exception:
        pass
    for number, start, _base in deals:
        try:
            storage.get_deal(db, table_id, number)
        except storage.StorageError:
            raise
        except Exception as err:
            return number, start, err
    return None


def replay_deal(setup: TableSetup, number: int, start: int, base_json: str,
                records: list[Record], end: int | None
                ) -> tuple[int, int, Exception] | None:
    """Replay one deal's records (from ``start`` up to ``end``) one at a time: the deal, seq
    and error of the first that cannot be read or applied, or None."""
    try:
        base = Totals.from_json(json.loads(base_json)) if base_json else None
    except Exception as err:
        return number, start, err
    table = Table.replay(setup, base, [], seq=start - 1)
    for seq, deal, _time, text in records:
        if seq < start or (end is not None and seq >= end):
            continue
        try:
            table = table.apply(Action.from_json(json.loads(text)))
        except Exception as err:
            return deal, seq, err
    return None


def check_tables(db: Connection) -> list[Damage]:
    """Every damaged table of the database (each one's latest deal, as at start)."""
    found = []
    for listed in storage.list_tables(db):
        row = storage.table_row(db, listed["id"])
        if row is not None:
            damage = check_table(db, row)
            if damage is not None:
                found.append(damage)
    return found


def check_database(target: str | Path) -> Report:
    """The report ``dealer-assist serve`` prints at start and ``dealer-assist check`` alone:
    the database refused, or its tables read back."""
    shown = storage.shown_target(target)
    problem = storage.database_problem(target) or refusal(target)
    if problem:
        return Report(shown, problem=problem)
    if not storage.is_url(target) and not Path(target).exists():
        return Report(shown)  # a new database: nothing to read back
    db = storage.connect(target)
    try:
        if not OUR_TABLES & set(db.table_names()):
            return Report(shown)  # an empty SQLite file: made into a database at start
        count = len(storage.list_tables(db))
        return Report(shown, tables=count, damaged=tuple(check_tables(db)))
    finally:
        db.close()


def readable_history(db: Connection, damage: Damage) -> Stored | None:
    """What the damaged table's history still holds: its deals and records up to the
    damaged record (None when its setup is what is damaged)."""
    if damage.seq is None:
        return None
    row = storage.table_row(db, damage.table_id)
    if row is None:
        return None
    cut = damage.seq
    with storage.read_transaction(db):
        raw = storage.record_rows(db, damage.table_id)
        starts = storage.deal_starts(db, damage.table_id)
        deals = [deal for deal in storage.list_deals(db, damage.table_id, taken_back=False)
                 if deal["start_seq"] < cut]
    records = [{"seq": seq, "deal": deal, "time": time, "action": json.loads(text)}
               for seq, deal, time, text in raw if seq < cut]
    bases = {number: Totals.from_json(json.loads(base))
             for number, start, base in starts if start < cut}
    return Stored(damage.table_id, row, setup_of(row), deals, records, bases)


class DamagedTables:
    """The damaged tables of this process: found at start, or when a table fails to load."""

    def __init__(self, found: list[Damage] | tuple[Damage, ...] = ()) -> None:
        self._lock = native_lock()  # loop and native threads alike (services/locks.py)
        self._found = {damage.table_id: damage for damage in found}

    def get(self, table_id: str) -> Damage | None:
        with self._lock:
            return self._found.get(table_id)

    def add(self, damage: Damage) -> None:
        with self._lock:
            self._found[damage.table_id] = damage

    def all(self) -> list[Damage]:
        with self._lock:
            return list(self._found.values())


__all__ = ["Damage", "DamagedTables", "Report", "check_database", "check_table",
           "readable_history", "refusal"]
