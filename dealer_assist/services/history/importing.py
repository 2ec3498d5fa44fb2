"""The import: an export file checked and replayed record by record, stored as a new table."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from dealer_assist.core.actions import Action
from dealer_assist.core.errors import DealerAssistError, ImportRefusedError
from dealer_assist.core.table import Table, TableSetup
from dealer_assist.games.registry import setup_from_json
from dealer_assist.services import storage
from dealer_assist.services.history.export import EXPORT_FORMAT, EXPORT_VERSION
from dealer_assist.services.history.stored import (
    parse_time,
)
from dealer_assist.services.storage import Connection as Database
from dealer_assist.services.tables import kept_after, record_deal_number

MAX_IMPORT_ACTIONS = 200_000  # about 5,000 deals: far beyond any home game's table

# a file that cannot be imported: the message is a sentence for the host
ImportRefused = ImportRefusedError


@dataclass(frozen=True)
class Rebuilt:
    """A file's table replayed: the rows to store."""

    setup: TableSetup
    created: str  # when the table was first made (the file's), else now
    actions: list[dict[str, Any]]  # seq, deal_number, record_json, created
    deals: list[dict[str, Any]]  # the deals table's columns


def check_keys(value: Any, where: str, needed: set[str], allowed: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ImportRefused(f"{where} must be a JSON object.")
    missing = sorted(needed - set(value))
    if missing:
        raise ImportRefused(f"{where} has no {missing[0]!r}.")
    extra = sorted(set(value) - allowed)
    if extra:
        raise ImportRefused(f"{where} has a field this server does not know: {extra[0][:40]!r}.")
    return value


def import_time(value: Any, where: str) -> str:
    if not isinstance(value, str) or len(value) > 40:
        raise ImportRefused(f"{where} needs its time in ISO 8601, such as "
                            "2026-12-02T21:05:00+00:00.")
    try:
        moment = parse_time(value).astimezone(UTC)
    except ValueError:
        raise ImportRefused(f"{where} has a time that is not ISO 8601: {value[:40]!r}.") from None
    except OverflowError:  # e.g. 0001-01-01T00:00:00+01:00: before the calendar's first day
        raise ImportRefused(f"{where} has a time outside the calendar: {value[:40]!r}.") from None
    return moment.isoformat(timespec="seconds")


def rebuild(data: Any) -> Rebuilt:
    """Check an export file and replay every record in it from the setup: the rows a new
    table gets. Raises :class:`ImportRefused` with a sentence for the first thing wrong."""
    data = check_keys(data, "The file", {"format", "version", "setup", "actions"},
                      {"format", "version", "exported", "table", "setup", "actions", "deals"})
    if data["format"] != EXPORT_FORMAT:
        raise ImportRefused(f"This is not a dealer-assist table export (its format should be "
                            f"{EXPORT_FORMAT!r}).")
    if data["version"] != EXPORT_VERSION:
        raise ImportRefused(f"This server reads export version {EXPORT_VERSION}, not "
                            f"{str(data['version'])[:20]}.")
    try:
        setup = setup_from_json(data["setup"])
    except DealerAssistError as err:
        raise ImportRefused(f"The file's setup is refused: {err}") from None
    except (KeyError, TypeError, AttributeError):
        raise ImportRefused("The file's setup needs variant, players and rules.") from None
    records = data["actions"]
    if not isinstance(records, list) or len(records) > MAX_IMPORT_ACTIONS:
        raise ImportRefused(f"actions must be a list of at most {MAX_IMPORT_ACTIONS:,} "
                            "records.")
    table = Table.from_setup(setup)
    actions: list[dict[str, Any]] = []
    deals: list[dict[str, Any]] = []
    for index, record in enumerate(records, start=1):
        where = f"Record {index}"
        record = check_keys(record, where, {"seq", "time", "action"},
                            {"seq", "time", "action", "deal"})
        if record["seq"] != index or isinstance(record["seq"], bool):
            raise ImportRefused(f"{where} has seq {str(record['seq'])[:20]}: the records must "
                                "be numbered 1, 2, 3... in order.")
        stamp = import_time(record["time"], where)
        try:
            action = Action.from_json(record["action"], setup.catalogue.place_fields)
            before = table
            table = table.apply(action)
        except DealerAssistError as err:
            kind = record["action"].get("type") if isinstance(record["action"], dict) else None
            raise ImportRefused(f"{where} ({str(kind)[:20]}) cannot be replayed: {err}"
                                ) from None
        assert table.seq == index
        number = record_deal_number(before, table, action)
        if "deal" in record and record["deal"] != number:
            raise ImportRefused(f"{where} says deal {str(record['deal'])[:20]}, but replaying "
                                f"puts it in deal {number}.")
        actions.append({"seq": index, "deal_number": number,
                        "record_json": json.dumps(action.to_json()), "created": stamp})
        if action.type == "start_deal":
            if deals and deals[-1]["number"] == number:  # taken back before (R74)
                deals.pop()
            deals.append({"number": number, "start_seq": index,
                          "base_json": json.dumps(before.totals.to_json()), "started": stamp,
                          "finished": None, "variant": table.game.variant, "taken_back": None,
                          "dealer": None, "result_json": None, "kings_pot_after": None})
        if action.type == "undo" and before.lone_start:
            deals[-1]["taken_back"] = 1  # the start was undone (R74)
            continue
        deal = table.deal
        if deal is None:
            continue
        row = deals[-1]
        row["dealer"] = deal.players[deal.dealer].name
        row["result_json"] = (json.dumps(deal.result.to_json()) if deal.result is not None
                              else None)
        row["finished"] = (row["finished"] or stamp) if table.deal_over else None
        row["kings_pot_after"] = kept_after(table.game, table.totals, "kings_pot")
    check_deals(data.get("deals"), deals)
    return Rebuilt(setup, table_created(data.get("table")), actions, deals)


def table_created(table: Any) -> str:
    """The time the table was first made, kept so that the copy's history is the same."""
    if table is None:
        return storage.now()
    table = check_keys(table, "The file's table", set(), {"id", "name", "variant", "created"})
    created = table.get("created")
    return storage.now() if created is None else import_time(created, "The file's table")


def check_deals(claimed: Any, deals: list[dict[str, Any]]) -> None:
    """The file's own list of deals, where it has one, must be what replaying gives."""
    if claimed is None:
        return
    deals = [d for d in deals if not d["taken_back"]]
    if not isinstance(claimed, list) or len(claimed) != len(deals):
        raise ImportRefused(f"The file lists {len(claimed) if isinstance(claimed, list) else 0}"
                            f" deals, but its records make {len(deals)}.")
    for mine, theirs in zip(deals, claimed, strict=True):
        if not isinstance(theirs, dict):
            raise ImportRefused("Each of the file's deals must be a JSON object.")
        replayed = {"number": mine["number"], "dealer": mine["dealer"],
                    "variant": mine["variant"],
                    "start_seq": mine["start_seq"],
                    "result": json.loads(mine["result_json"]) if mine["result_json"] else None,
                    "kings_pot_after": mine["kings_pot_after"]}
        for key, value in replayed.items():
            if key in theirs and theirs[key] != value:
                raise ImportRefused(f"The file's deal {mine['number']} does not match its "
                                    f"records ({key} differs): the file has been changed.")


def import_table(db: Database, table_id: str, token_hash: str, rebuilt: Rebuilt) -> None:
    """Store a rebuilt table under a new id, all in one transaction."""
    with storage.write_transaction(db):
        imported = storage.now()  # listed by when it came here, never as the file claims
        storage.insert_table_row(db, {
            "id": table_id, "name": rebuilt.setup.name, "variant": rebuilt.setup.variant,
            "setup_json": json.dumps(rebuilt.setup.to_json()), "token_hash": token_hash,
            "created": imported,
        })
        db.execute("INSERT INTO imports (table_id, imported, original_created) VALUES (?, ?, ?)",
                   [table_id, imported, rebuilt.created])
        storage.insert_all(db, "actions",
                           [{"table_id": table_id, **row} for row in rebuilt.actions])
        storage.insert_all(db, "deals",
                           [{"table_id": table_id, **row} for row in rebuilt.deals])
