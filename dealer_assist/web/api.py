"""The JSON API of shared/API.md: tables, actions, state and history."""

from __future__ import annotations

import json
import logging
import sqlite3
from typing import Any

from flask import Blueprint, g, jsonify, request
from flask.typing import ResponseReturnValue

from dealer_assist.core.errors import DealerAssistError
from dealer_assist.core.table import Table, TableSetup
from dealer_assist.games import Game
from dealer_assist.games.registry import game_class
from dealer_assist.services import storage
from dealer_assist.services.auth import (
    bearer_token,
    hash_token,
    new_table_id,
    new_token,
    throttled_sentence,
    token_matches,
)
from dealer_assist.web.app import base_url, get_db, get_store, get_throttle
from dealer_assist.web.host import full_sentence, require_host
from dealer_assist.web.limits import note_dealer
from dealer_assist.web.records import hide_undone
from dealer_assist.web.state import table_state

bp = Blueprint("api", __name__, url_prefix="/api")
log = logging.getLogger("dealer_assist.api")

TABLE_FIELDS = {"name", "variant", "players", "rules"}


class ApiError(Exception):
    """A refusal: its sentence and HTTP status, and maybe more fields for the body."""

    def __init__(self, status: int, sentence: str, **extra: Any) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence
        self.extra = extra


@bp.errorhandler(ApiError)
def api_error(err: ApiError) -> ResponseReturnValue:
    extra = dict(err.extra)
    retry_after = extra.pop("retry_after", None)  # a header, not a field
    response = jsonify({"error": err.sentence, **extra})
    response.status_code = err.status
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    if err.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="dealer-assist"'
    return response


def json_object(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object, or a 400 that says what is wrong with it."""
    if not raw.strip():
        raise ApiError(400, 'The body is empty: send a JSON object such as {"type": "next"}.')
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: deep nesting
        raise ApiError(400, "The body is not valid JSON.") from None
    if not isinstance(body, dict):
        raise ApiError(400, 'The body must be a JSON object such as {"type": "next"}.')
    refuse_lone_surrogates(body)
    return body


def refuse_lone_surrogates(body: Any) -> None:
    """A ``\ud800`` escape with no pair decodes to a string no UTF-8 answer can carry: a 400
    here, not a 500 when the refusal that names it is written out."""
    try:
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ApiError(400, "The body holds a lone surrogate (an unpaired \\ud800-\\udfff "
                            "escape): send the text as it is typed.") from None


def state_for(table_id: str, table: Table, *, dealer: bool = False) -> dict[str, Any]:
    """The core's state with the table's id, as every answer and event carries it."""
    return {"id": table_id, **table_state(table, dealer=dealer)}


def table_urls(table_id: str, token: str | None = None) -> dict[str, str]:
    base = base_url()
    urls = {"join_url": f"{base}/t/{table_id}", "qr_url": f"{base}/t/{table_id}/qr.svg"}
    if token is not None:
        urls["dealer_url"] = f"{base}/t/{table_id}/dealer#token={token}"
    return urls


def no_table(table_id: str) -> str:
    return f"There is no table {table_id[:40]!r} on this server."


def find_table(table_id: str) -> dict[str, Any]:
    """The table's row, or a 404."""
    row = get_store().row(get_db(), table_id)
    if row is None:
        raise ApiError(404, no_table(table_id))
    return row


def is_dealer(row: dict[str, Any]) -> bool:
    """Whether the request carries this table's dealer token; a wrong one is a 401."""
    header = request.headers.get("Authorization")
    if header is None:
        return False
    throttle, address = get_throttle(), request.remote_addr or "unknown"
    wait = throttle.retry_after(address)
    if wait:  # checked before the token: a guesser learns nothing while it waits
        raise ApiError(429, throttled_sentence(wait), retry_after=wait)
    if not token_matches(bearer_token(header), row["token_hash"]):
        throttle.fail(address, row["id"])
        raise ApiError(401, "That is not this table's dealer token: open the dealer link again.")
    note_dealer()  # this address keeps room among the connections (web/limits.py)
    return True


def load(table_id: str) -> Table:
    table = get_store().load(get_db(), table_id)
    if table is None:
        raise ApiError(404, no_table(table_id))
    return table


# --------------------------------------------------------------------------- tables
@bp.post("/tables")
def create_table() -> ResponseReturnValue:
    require_host()
    body = json_object(request.get_data())
    unknown = sorted(set(body) - TABLE_FIELDS)
    if unknown:
        raise ApiError(400, f"A new table has no field {unknown[0][:40]!r}: give "
                            "name, variant, players and rules.")
    try:
        setup = TableSetup.create(body.get("variant"), body.get("players"), body.get("rules"),
                                  body.get("name", ""))
    except DealerAssistError as err:
        raise ApiError(400, str(err)) from None
    table_id, token = new_table_id(), new_token()
    try:
        storage.insert_table(get_db(), table_id, setup, hash_token(token))
    except sqlite3.OperationalError as err:
        if storage.is_full(err):
            raise ApiError(507, full_sentence()) from None
        raise
    table = Table.from_setup(setup)
    out = {"id": table_id, "dealer_token": token, **table_urls(table_id, token),
           "state": state_for(table_id, table, dealer=True)}
    response = jsonify(out)
    response.status_code = 201
    response.headers["Location"] = f"/api/tables/{table_id}"
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tables")
def list_tables() -> ResponseReturnValue:
    return jsonify(storage.list_tables(get_db()))


@bp.get("/tables/<table_id>")
def get_table(table_id: str) -> ResponseReturnValue:
    row = find_table(table_id)
    dealer = is_dealer(row)
    response = jsonify(state_for(table_id, load(table_id), dealer=dealer))
    response.headers["Cache-Control"] = "no-store"
    return response


# --------------------------------------------------------------------------- actions
def expected_seq(body: dict[str, Any]) -> int | None:
    value = body.get("expect_seq")
    if value is None:
        return None
    # no table gets near 2**53 actions; a larger number is a typing slip, not a seq
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise ApiError(400, f"expect_seq must be the whole number seq you saw, not "
                            f"{repr(value)[:40]}.")
    return value


def take_action(table_id: str, body: dict[str, Any]) -> Table:
    """Apply and store ``body``; returns the table after it, or raises ApiError. The caller
    sends the live events, then answers with :func:`answer_after`."""
    expect = expected_seq(body)
    try:
        # the commit's fsync runs after the phones' emit (app.pay_owed_sync), before
        # the answer leaves (docs/benchmarks.md, "Live fan-out")
        accepted = get_store().act(get_db(), table_id, body, expect_seq=expect,
                                   defer_sync=True)
    except DealerAssistError as err:
        raise ApiError(400, str(err)) from None
    except sqlite3.OperationalError as err:  # before COMMIT returned: nothing was stored
        if storage.is_full(err):
            raise ApiError(507, full_sentence()) from None
        raise
    except storage.StaleTableError as err:
        table = load(table_id)
        sentence = str(err) if expect is not None else (
            "Another device acted on this table at the same moment: look again and retry.")
        raise ApiError(409, sentence, seq=table.seq,
                       state=state_for(table_id, table, dealer=True)) from None
    if accepted.sync_owed:
        g.sync_owed = True
    return accepted.table


def answer_after(table_id: str, table: Table) -> dict[str, Any]:
    """The dealer's answer to an accepted action: the live broadcast, phones first, then
    ``{"seq", "state"}`` with the dealer's state the broadcast built.

    The action is stored (its COMMIT returned) before this runs, so it is acknowledged
    whatever fails here: a broadcast that fails is logged, the dealer still gets the ``200``
    (phones catch up at their next state or reconnect), never a "nothing was changed"."""
    from dealer_assist.web.live import broadcast

    try:
        state = broadcast(table_id, table)
    except Exception:
        log.exception("Table %s: seq %d is stored, but its broadcast failed.", table_id,
                      table.seq)
        state = state_for(table_id, table, dealer=True)
    return {"seq": table.seq, "state": state}


@bp.post("/tables/<table_id>/actions")
def post_action(table_id: str) -> ResponseReturnValue:
    row = find_table(table_id)
    if not is_dealer(row):
        raise ApiError(401, "Only the dealer acts: send the dealer token "
                            "(Authorization: Bearer <token>).")
    body = json_object(request.get_data())
    table = take_action(table_id, body)
    return jsonify(answer_after(table_id, table))


# --------------------------------------------------------------------------- history
@bp.get("/tables/<table_id>/deals")
def list_deals(table_id: str) -> ResponseReturnValue:
    find_table(table_id)
    return jsonify(storage.list_deals(get_db(), table_id))


@bp.get("/tables/<table_id>/deals/<int(max=999999999):number>")
def get_deal(table_id: str, number: int) -> ResponseReturnValue:
    row = find_table(table_id)
    dealer = is_dealer(row)
    deal = storage.get_deal(get_db(), table_id, number)
    if deal is None:
        raise ApiError(404, f"Table {table_id} has no deal {number}.")
    if not dealer:
        game = game_class(row["variant"])
        deal["actions"] = hide_undone([hide_cards(entry, game) for entry in deal["actions"]])
    return jsonify(deal)


def hide_cards(entry: dict[str, Any], game: type[Game]) -> dict[str, Any]:
    """A record as the public history shows it: what the game keeps the dealer's
    (``Game.public_action``) hidden."""
    action = entry["action"]
    shown = game.public_action(action)
    return entry if shown is action else {**entry, "action": shown}
