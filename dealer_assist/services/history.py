"""The host's view of a table after the night: deals grouped by night, replays, the ledger and
settle-up, and the CSV and JSON exports (with the import that reads the JSON back).

Everything here is read from the stored records and deal rows (``storage.py``); nothing is
ever written back except by :func:`import_table`, which makes a *new* table. No web imports:
``history_api.py`` serves these answers.

**Nights.** Deals are grouped by night: a deal starts a new night when it starts
:data:`NIGHT_GAP` (6 hours) or more after the previous deal started. A table continues across
nights, and so does its king's pot (R28).

**The ledger.** Each player's buy-ins are the stack they sat down with plus every ``rebuy``;
``net = stack - bought in``. Chips that belong to no player (the king's pot, a game's bank
(R50), chips carried in a pot, odd chips taken off the table) are listed as "on the table". The
table is one more party in the settle-up: its balance is the chips on it now minus the chips it
started with (a bank's 21 chips, R50; nothing in the other games). With it, the balances
sum to zero (R3), and a payment to the table means "put this in the kitty that stands for the
king's pot"; a payment from it, the bank's chips the game paid out. In transfers
the table is ``null``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from dealer_assist.core.actions import BETWEEN_DEAL_TYPES, Action
from dealer_assist.core.deal import Totals
from dealer_assist.core.errors import DealerAssistError, ImportRefusedError
from dealer_assist.core.table import Table, TableSetup, describe
from dealer_assist.games.registry import all_games, game_class, game_for
from dealer_assist.services import storage
from dealer_assist.services.ledger import settle
from dealer_assist.services.storage import Connection as Database
from dealer_assist.services.tables import record_deal_number, replay_latest, setup_of

NIGHT_GAP = timedelta(hours=6)
EXPORT_FORMAT = "dealer-assist table"
EXPORT_VERSION = 1
MAX_IMPORT_ACTIONS = 200_000  # about 5,000 deals: far beyond any home game's table
BETWEEN_DEALS = BETWEEN_DEAL_TYPES


# a file that cannot be imported: the message is a sentence for the host
ImportRefused = ImportRefusedError


# --------------------------------------------------------------------------- reading
@dataclass(frozen=True)
class Stored:
    """One table as stored: its setup and every record, deal row and base."""

    table_id: str
    row: dict[str, Any]
    setup: TableSetup
    deals: list[dict[str, Any]]  # storage.list_deals
    records: list[dict[str, Any]]  # {"seq", "deal", "time", "action"} in seq order
    bases: dict[int, Totals]  # deal number -> the totals it started from


def first_made(row: dict[str, Any]) -> str:
    """When the table was first made: an import's file says so (``original_created``), its
    row's ``created`` is the time of the import."""
    return str(row.get("original_created") or row["created"])


def read_table(db: Database, table_id: str) -> Stored | None:
    """Everything stored for one table, read in one snapshot; None if there is no table."""
    with storage.read_transaction(db):
        row = storage.table_row(db, table_id)
        if row is None:
            return None
        deals = storage.list_deals(db, table_id, taken_back=False)
        records = [
            {"seq": r["seq"], "deal": r["deal_number"], "time": r["created"],
             "action": json.loads(r["record_json"])}
            for r in db.query(
                "SELECT seq, deal_number, created, record_json FROM actions WHERE table_id = ?"
                " ORDER BY seq", [table_id])
        ]
        bases = {
            number: Totals.from_json(json.loads(text)) for number, text in db.execute(
                "SELECT number, base_json FROM deals WHERE table_id = ?"
                " AND taken_back IS NULL", [table_id])
        }
    return Stored(table_id, row, setup_of(row), deals, records, bases)


def effective(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records of one deal that still count: an ``undo`` takes back the last record that
    still counted (Table.undo), so they are a stack."""
    kept: list[dict[str, Any]] = []
    for record in records:
        if record["action"].get("type") == "undo":
            kept.pop()
        else:
            kept.append(record)
    return kept


def current_table(stored: Stored) -> Table:
    """The table now, replayed as services.tables.load_table replays it."""
    rows = [(d["start_seq"], stored.bases[d["number"]]) for d in reversed(stored.deals[-2:])]

    def records_since(seq: int) -> list[Action]:
        return [Action.from_json(r["action"]) for r in stored.records if r["seq"] >= seq]

    return replay_latest(stored.setup, rows, records_since)


def everyone(stored: Stored, now: Table) -> list[str]:
    """Everyone who ever sat at the table, in the order they first sat (R70)."""
    names = list(stored.setup.players)
    for base in [*(stored.bases[d["number"]] for d in stored.deals), now.totals]:
        for name in (*base.names, *(d.name for d in base.departed)):
            if name not in names:
                names.append(name)
    return names


def seated_stacks(totals: Totals, names: list[str]) -> dict[str, int]:
    """Everyone's chips at the table: 0 for who is not seated (not yet, or gone)."""
    stacks = dict(zip(totals.names, totals.stacks, strict=True))
    return {name: stacks.get(name, 0) for name in names}


def deal_variant(stored: Stored, deal: dict[str, Any]) -> str:
    """The game a deal was (R71); deals stored before dealer's choice are the table's."""
    return deal.get("variant") or stored.setup.variant


def totals_after(stored: Stored, now: Table) -> dict[int, Totals]:
    """Deal number -> the totals after the deal and the rebuys and adjustments that followed
    it (the next deal's base), for every deal that is over."""
    out: dict[int, Totals] = {}
    for deal in stored.deals:
        following = stored.bases.get(deal["number"] + 1)
        if following is not None:
            out[deal["number"]] = following
        elif now.deal_over:
            out[deal["number"]] = now.totals
    return out


# --------------------------------------------------------------------------- history
def entry_out(record: dict[str, Any]) -> dict[str, Any]:
    """A rebuy or an adjustment as the history and the ledger list it."""
    action = record["action"]
    out: dict[str, Any] = {"seq": record["seq"], "time": record["time"], "deal": record["deal"],
                           "type": action["type"], "player": action.get("player"),
                           "amount": action.get("amount")}
    if action["type"] == "adjust":
        out["to"] = action.get("to")
        out["note"] = action.get("note")
    if action["type"] == "seat":
        out["amount"] = action.get("stack")
        out["after"] = action.get("after")
    return out


def with_cash_outs(entries: dict[int, list[dict[str, Any]]], stored: Stored, now: Table
                   ) -> None:
    """A leave's entry gets the chips cashed out, as the totals after it recorded them."""
    cashed: dict[str, int] = {}
    for base in [*stored.bases.values(), now.totals]:
        for gone in base.departed:
            cashed[gone.name] = gone.cashed_out
    for deal_entries in entries.values():
        for e in deal_entries:
            if e["type"] == "leave":
                e["amount"] = cashed.get(e["player"] or "", 0)
            e["words"] = entry_words(e)


def between_deal_entries(stored: Stored) -> dict[int, list[dict[str, Any]]]:
    """Deal number -> the rebuys and adjustments made after it that still count."""
    records: dict[int, list[dict[str, Any]]] = {deal["number"]: [] for deal in stored.deals}
    for record in stored.records:  # one pass: a long table has many deals
        records.setdefault(record["deal"], []).append(record)
    return {number: [entry_out(r) for r in effective(deal_records)
                     if r["action"].get("type") in BETWEEN_DEALS]
            for number, deal_records in records.items()}


def parse_time(text: str) -> datetime:
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def group_nights(deals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Nights: a deal that starts NIGHT_GAP or more after the previous deal started opens a
    new night. Each night: number, first and last start, and its deal numbers."""
    nights: list[dict[str, Any]] = []
    previous: datetime | None = None
    for deal in deals:
        started = parse_time(deal["started"])
        if previous is None or started - previous >= NIGHT_GAP:
            nights.append({"number": len(nights) + 1, "started": deal["started"],
                           "last_started": deal["started"], "deals": []})
        nights[-1]["deals"].append(deal["number"])
        nights[-1]["last_started"] = deal["started"]
        previous = started
    return nights


def result_words(deal: dict[str, Any], variant: str) -> str:
    """One sentence for a deal's result, as the history lists it (``variant``: the deal's)."""
    result = deal["result"]
    if result is None:
        return "In play." if deal["finished"] is None else "No result."
    game = game_class(variant)
    return game.result_words(game.result_type.from_json(result))


def table_history(stored: Stored) -> dict[str, Any]:
    """The JSON of the history page: every deal with its result and the king's pot after it,
    the nights, the stacks after each deal, and the ledger."""
    now = current_table(stored)
    after = totals_after(stored, now)
    entries = between_deal_entries(stored)
    with_cash_outs(entries, stored, now)
    setup = stored.setup
    game = game_class(setup.variant)
    names = everyone(stored, now)
    deals = []
    for deal in stored.deals:
        number = deal["number"]
        base = stored.bases[number]
        totals = after.get(number)
        variant = deal_variant(stored, deal)
        out = {
            **deal,
            "variant": variant, "variant_name": game_class(variant).name,
            "in_play": totals is None,
            "words": result_words(deal, variant),
            "stacks_before": seated_stacks(base, names),
            "stacks_after": seated_stacks(totals, names) if totals is not None else None,
            "entries": entries[number],
        }
        if "bank" in game.state_fields:
            out["bank_after"] = totals.bank if totals is not None else None
        deals.append(out)
    history: dict[str, Any] = {
        "id": stored.table_id, "name": setup.name, "variant": setup.variant,
        "variant_name": game.name, "created": stored.row["created"],
        "players": names,  # everyone who ever sat (R70)
        "starting_stacks": {name: dict(zip(setup.players, setup.stacks, strict=True)).get(
            name, 0) for name in names},
        "games": sorted({d["variant"] for d in deals}, key=[g.variant for g in all_games()]
                        .index),
        "night_gap_hours": NIGHT_GAP.total_seconds() / 3600,
        "nights": group_nights(stored.deals),
        "deals": deals,
        "ledger": table_ledger(stored, now),
    }
    if any(game_class(v).keeps_kings_pot for v in {setup.variant, *history["games"]}):
        history["kings_pot"] = now.totals.kings_pot if now.deal_over else now.base.kings_pot
    if game.deals_per_game is not None:
        last = stored.deals[-1]["result"] if stored.deals else None
        history["game"] = {key: last[key] for key in ("game_winner", "standings",
                                                      "tiebreak_draws")
                           if last and key in last} or None
    return history


# --------------------------------------------------------------------------- ledger
def table_ledger(stored: Stored, now: Table | None = None) -> dict[str, Any]:
    """Buy-ins, stacks, nets, chips on the table and the fewest transfers that settle up.

    While a deal is in play, the figures are those before it (the chips in its pot belong to
    nobody yet)."""
    now = now or current_table(stored)
    settled = now.totals if now.deal_over else now.base
    in_play = None if now.deal_over else now.deal.totals.deal_number if now.deal else None
    setup = stored.setup
    by_deal = between_deal_entries(stored)
    with_cash_outs(by_deal, stored, now)
    entries = [e for deal_entries in by_deal.values()
               for e in deal_entries if in_play is None or e["deal"] < in_play]
    gone = {d.name: d for d in settled.departed}
    players: list[dict[str, Any]] = []
    for name in everyone(stored, now):
        if name not in gone and name not in settled.names:
            continue  # seated during the deal in play: the ledger is as before it
        listed = [{"type": "start", "amount": stack, "deal": None, "seq": None,
                   "time": first_made(stored.row)}
                  for n, stack in zip(setup.players, setup.stacks, strict=True) if n == name]
        listed += [{"type": "late" if e["type"] == "seat" else "rebuy", "amount": e["amount"],
                    "deal": e["deal"], "seq": e["seq"], "time": e["time"]} for e in entries
                   if e["type"] in ("rebuy", "seat") and e["player"] == name]
        adjustments = []
        for e in entries:
            if e["type"] != "adjust" or name not in (e["player"], e["to"]):
                continue
            gives = e["player"] == name
            adjustments.append({"deal": e["deal"], "seq": e["seq"], "time": e["time"],
                                "amount": -e["amount"] if gives else e["amount"],
                                "with": e["to"] if gives else e["player"], "note": e["note"]})
        cash_outs = [{"amount": e["amount"], "deal": e["deal"], "seq": e["seq"],
                      "time": e["time"]} for e in entries
                     if e["type"] == "leave" and e["player"] == name]
        if name in gone:  # settled by their net at leaving (R70)
            left = gone[name]
            bought, stack, net = left.bought_in, 0, left.cashed_out - left.bought_in
        else:
            seat = settled.names.index(name)
            bought, stack = settled.buy_ins[seat], settled.stacks[seat]
            net = stack - bought
        players.append({
            "name": name, "buy_ins": listed, "bought_in": bought, "stack": stack, "net": net,
            "adjustments": adjustments, "cash_outs": cash_outs, "left": name in gone,
            "cashed_out": gone[name].cashed_out if name in gone else 0,
        })
    started_with = game_for(setup.variant, setup.rules).initial_totals(setup)
    on_table = {
        "kings_pot": settled.kings_pot, "bank": settled.bank, "carried": settled.carry,
        "off_table": settled.off_table,
    }
    held = sum(on_table.values())
    on_table |= {"total": held, "started_with": started_with.chips() - sum(setup.stacks),
                 "net": held - (started_with.chips() - sum(setup.stacks))}
    balances: dict[str | None, int] = {p["name"]: p["net"] for p in players}
    balances[None] = on_table["net"]  # the table: see the module's docstring
    settlement = settle(balances)
    return {
        "as_of_deal": settled.deal_number, "deal_in_play": in_play,
        "players": players, "on_table": on_table,
        "transfers": [{"from": t.payer, "to": t.payee, "amount": t.amount}
                      for t in settlement.transfers],
        "fewest": settlement.optimal,
        "rebuys": [e for e in entries if e["type"] == "rebuy"],
        "adjustments": [e for e in entries if e["type"] == "adjust"],
        "late_buy_ins": [e for e in entries if e["type"] == "seat"],
        "cash_outs": [e for e in entries if e["type"] == "leave"],
    }


# --------------------------------------------------------------------------- replay
def replay_deal(stored: Stored, number: int, *, dealer: bool,
                view: Callable[[Table], dict[str, Any]],
                mask: Any = None) -> dict[str, Any] | None:
    """Deal ``number`` step by step: ``view`` of the table after each of its records (undo
    records included), replayed from the totals it started from. ``mask`` hides a record's
    face-down cards for a public reader (``api.hide_cards``)."""
    deal = next((d for d in stored.deals if d["number"] == number), None)
    if deal is None:
        return None
    table = Table.replay(stored.setup, stored.bases[number], (), seq=deal["start_seq"] - 1)
    steps = []
    # from its start: a start_deal that was undone before it (R74) is not this deal's
    for record in (r for r in stored.records
                   if r["deal"] == number and r["seq"] >= deal["start_seq"]):
        action = Action.from_json(record["action"])
        logged = len(table.deal.log) if table.deal and action.type != "start_deal" else 0
        table = table.apply(action)
        assert table.deal is not None
        if action.type == "undo":
            label = f"Undo: {table.undone}."
        else:
            new_lines = table.deal.log[logged:] + list(table.between_log[-1:]
                                                       if action.type in BETWEEN_DEALS else [])
            # the log is in the public state already; describe() never names a hidden card
            label = " ".join(new_lines) if new_lines else describe(action).capitalize() + "."
        shown = mask(record) if mask and not dealer else record
        steps.append({"seq": record["seq"], "time": record["time"], "action": shown["action"],
                      "label": label,
                      "state": {"id": stored.table_id, **view(table)}})
    return {"number": number, "dealer": deal["dealer"], "started": deal["started"],
            "finished": deal["finished"], "steps": steps}


# --------------------------------------------------------------------------- CSV
CSV_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell a spreadsheet will not run: text that starts like a formula gets a quote mark."""
    if isinstance(value, str) and value.startswith(CSV_FORMULA_START):
        return "'" + value
    return value


def deals_csv(stored: Stored) -> str:
    """One row per deal: number, started, finished, dealer, winners, winning lines, each
    player's payout, the king's pot after it (empty where the game has none), and the rebuys and
    adjustments that followed it."""
    now = current_table(stored)
    players = everyone(stored, now)
    entries = between_deal_entries(stored)
    with_cash_outs(entries, stored, now)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([csv_cell(c) for c in (
        ["number", "started", "finished", "dealer", "winners", "winning_lines"]
        + [f"payout {name}" for name in players] + ["kings_pot_after", "between_deals",
                                                      "game"])])
    for deal in stored.deals:
        result = deal["result"] or {}
        payouts = result.get("payouts", {})
        notes = "; ".join(entry_words(e) for e in entries[deal["number"]])
        row = [deal["number"], deal["started"], deal["finished"] or "", deal["dealer"] or "",
               " ".join(result.get("winners") or []), " ".join(result.get("winning_lines") or []),
               *[payouts.get(name, 0) for name in players],
               "" if deal["kings_pot_after"] is None else deal["kings_pot_after"], notes,
               game_class(deal_variant(stored, deal)).name]
        writer.writerow([csv_cell(c) for c in row])
    return out.getvalue()


def entry_words(entry: dict[str, Any]) -> str:
    if entry["type"] == "rebuy":
        return f"{entry['player']} buys in for {entry['amount']} more"
    if entry["type"] == "seat":
        where = f" after {entry['after']}" if entry.get("after") else ""
        return f"{entry['player']} sits down{where} with {entry['amount']}"
    if entry["type"] == "leave":
        return f"{entry['player']} cashes out {entry['amount']} and leaves"
    if entry["type"] in ("sit_out", "sit_in"):
        return f"{entry['player']} " + ("sits out" if entry["type"] == "sit_out" else "is back in")
    note = f" ({entry['note']})" if entry.get("note") else ""
    return f"Adjustment: {entry['player']} gives {entry['amount']} to {entry['to']}{note}"


# --------------------------------------------------------------------------- JSON export
def export_table(stored: Stored) -> dict[str, Any]:
    """The whole table: its setup, every record with its seq and time, and its deals."""
    return {
        "format": EXPORT_FORMAT, "version": EXPORT_VERSION, "exported": storage.now(),
        "table": {"id": stored.table_id, "name": stored.setup.name,
                  "variant": stored.setup.variant, "created": first_made(stored.row)},
        "setup": stored.setup.to_json(),
        "actions": stored.records,
        "deals": stored.deals,
    }


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
        setup = TableSetup.from_json(data["setup"])
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
            action = Action.from_json(record["action"])
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
        row["kings_pot_after"] = table.totals.kings_pot if table.game.keeps_kings_pot else None
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
