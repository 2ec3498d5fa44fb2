"""The JSON API (docs/api.md): tables, actions, state and history."""

from __future__ import annotations

import json
import logging
from typing import IO, Any

from flask import Blueprint, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from dealer_assist.core.errors import DealerAssistError
from dealer_assist.core.game import Game
from dealer_assist.core.table import Table
from dealer_assist.games.registry import game_class, new_setup
from dealer_assist.services import auth, carried, storage, tables
from dealer_assist.services import host as host_service
from dealer_assist.services.auth import (
    bearer_token,
    hash_token,
    new_table_id,
    new_token,
    throttled_sentence,
)
from dealer_assist.web import off_loop, reads
from dealer_assist.web.acting import ApiError, load, no_table, state_for, take_action
from dealer_assist.web.broadcast import answer_after, send_deleted
from dealer_assist.web.damaged import damaged_tables
from dealer_assist.web.dealer_sockets import demote_signed_out
from dealer_assist.web.extensions import base_url, get_db, get_store, get_throttle
from dealer_assist.web.guest_caps import note_dealer
from dealer_assist.web.host import connection, full_sentence, refuse, require_host
from dealer_assist.web.records import hide_undone
from dealer_assist.web.tournament_live import tournament_after_table

bp = Blueprint("api", __name__, url_prefix="/api")
log = logging.getLogger("dealer_assist.api")

TABLE_FIELDS = {"name", "variant", "players", "rules"}


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
    except RecursionError:  # nested deeper than the encoder goes: no body of ours is
        raise ApiError(400, "The body is nested too deeply to be a request.") from None
    except UnicodeEncodeError:
        raise ApiError(400, "The body holds a lone surrogate (an unpaired \\ud800-\\udfff "
                            "escape): send the text as it is typed.") from None


def table_urls(table_id: str, token: str | None = None) -> dict[str, str]:
    base = base_url()
    urls = {"join_url": f"{base}/t/{table_id}", "qr_url": f"{base}/t/{table_id}/qr.svg"}
    if token is not None:
        urls["dealer_url"] = f"{base}/t/{table_id}/dealer#token={token}"
    return urls


def find_table(table_id: str) -> dict[str, Any]:
    """The table's row, or a 404."""
    row = get_store().row(get_db(), table_id)
    if row is None:
        raise ApiError(404, no_table(table_id))
    return row


def dealer_token(row: dict[str, Any]) -> auth.DealerToken | None:
    """The request's dealer token of this table (None without an Authorization header); a
    wrong one is a 401 and counts towards the throttle, a signed-out one (R75) a 401 that
    says so."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    throttle, address = get_throttle(), request.remote_addr or "unknown"
    wait = throttle.retry_after(address)
    if wait:  # checked before the token: a guesser learns nothing while it waits
        raise ApiError(429, throttled_sentence(wait), retry_after=wait)
    found = auth.find_dealer_token(get_db(), row["id"], bearer_token(header))
    if found is None:
        throttle.fail(address, row["id"])
        raise ApiError(401, "That is not this table's dealer token: open the dealer link again.")
    if found.signed_out:  # a real token, not a guess: not counted
        raise ApiError(401, auth.SIGNED_OUT_SENTENCE)
    note_dealer()  # this address keeps room among the connections (web/guest_caps.py)
    return found


def is_dealer(row: dict[str, Any]) -> bool:
    """Whether the request carries a dealer token of this table (:func:`dealer_token`)."""
    return dealer_token(row) is not None


# --------------------------------------------------------------------------- tables
@bp.post("/tables")
@off_loop.view
def create_table() -> ResponseReturnValue:
    require_host()
    body = json_object(request.get_data())
    unknown = sorted(set(body) - TABLE_FIELDS)
    if unknown:
        raise ApiError(400, f"A new table has no field {unknown[0][:40]!r}: give "
                            "name, variant, players and rules.")
    try:
        setup = new_setup(body.get("variant"), body.get("players"), body.get("rules"),
                          body.get("name", ""))
    except DealerAssistError as err:
        raise ApiError(400, str(err)) from None
    table_id, token = new_table_id(), new_token()
    try:
        tables.insert_table(get_db(), table_id, setup, hash_token(token))
    except storage.StorageFull:
        raise ApiError(507, full_sentence()) from None
    table = Table.from_setup(setup)
    out = {"id": table_id, "dealer_token": token, **table_urls(table_id, token),
           "state": state_for(table_id, table, dealer=True)}
    return created_answer(out, f"/api/tables/{table_id}")


@bp.delete("/tables/<table_id>")
def delete_table(table_id: str) -> ResponseReturnValue:
    """The host's delete: the table and all its rows, off the loop; then, on the loop (off
    it nothing emits), its screens are told it is gone."""
    require_host()
    with connection() as db:
        playing = storage.tournaments.tournament_of_table(db, table_id[:64])
        if playing is not None:  # its tournament numbers its tables: one gone breaks it
            row = storage.tournaments.tournament_row(db, playing[0])
            name = (row or {}).get("name") or "a tournament"
            refuse(409, f"This table plays in {name} (its table {playing[1] + 1}): it is "
                        "kept with the tournament, which the host deletes whole.")
        deleted = off_loop.run(host_service.delete_table, db, table_id[:64])
    if not deleted:
        refuse(404, f"There is no table {table_id[:40]!r} on this server.")
    get_store().forget(table_id)
    send_deleted(table_id, "The host deleted this table: it is no longer on this server.")
    return jsonify({"deleted": table_id})


def created_answer(out: dict[str, Any], location: str) -> ResponseReturnValue:
    """A ``201`` with what was made (its tokens: never cached) and where it lives."""
    response = jsonify(out)
    response.status_code = 201
    response.headers["Location"] = location
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tables")
@reads.view
def list_tables() -> ResponseReturnValue:
    damaged = damaged_tables()
    return jsonify([{**row, "damaged": damage.to_json()}
                    if (damage := damaged.get(row["id"])) else row
                    for row in storage.list_tables(get_db())])


@bp.get("/tables/<table_id>")
@reads.view
def get_table(table_id: str) -> ResponseReturnValue:
    row = find_table(table_id)
    dealer = is_dealer(row)
    response = jsonify(state_for(table_id, load(table_id), dealer=dealer))
    response.headers["Cache-Control"] = "no-store"
    return response


# --------------------------------------------------------------------------- actions
@bp.post("/tables/<table_id>/actions")
def post_action(table_id: str) -> ResponseReturnValue:
    row = find_table(table_id)
    if not is_dealer(row):
        raise ApiError(401, "Only the dealer acts: send the dealer token "
                            "(Authorization: Bearer <token>).")
    body = json_object(request.get_data())
    table = take_action(table_id, body)
    answer = answer_after(table_id, table)
    tournament_after_table(table_id)
    return jsonify(answer)


# --------------------------------------------------------------------------- dealer devices
# R75: a pairing code lets another device in with a token of its own; any dealer device can
# sign the others out. Codes appear only in the answer to the dealer who asked for one.
def no_store(body: dict[str, Any], status: int) -> ResponseReturnValue:
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def signed_in_dealer(row: dict[str, Any], doing: str) -> auth.DealerToken:
    found = dealer_token(row)
    if found is None:
        raise ApiError(401, f"Only a dealer device can {doing}: send the dealer token "
                            "(Authorization: Bearer <token>).")
    return found


@bp.post("/tables/<table_id>/pairing")
@off_loop.view
def new_pairing_code(table_id: str) -> ResponseReturnValue:
    signed_in_dealer(find_table(table_id), "add a dealer device")
    code = auth.new_pairing_code(get_db(), table_id)
    return no_store({"code": code.code, "expires_in": code.expires_in}, 201)


@bp.post("/tables/<table_id>/pair")
@off_loop.view
def pair_device(table_id: str) -> ResponseReturnValue:
    find_table(table_id)
    throttle, address = get_throttle(), request.remote_addr or "unknown"
    wait = throttle.retry_after(address)
    if wait:  # wrong codes and wrong tokens share one count per address
        raise ApiError(429, auth.throttled_code_sentence(wait), retry_after=wait)
    body = json_object(request.get_data())
    try:
        paired = auth.redeem_pairing_code(get_db(), table_id, body.get("code"))
    except auth.PairingRefused as err:
        throttle.fail(address, table_id, "pairing code")
        raise ApiError(400, str(err)) from None
    return no_store({"dealer_token": paired.token, **table_urls(table_id, paired.token)}, 201)


@bp.post("/tables/<table_id>/sign_out_others")
def sign_out_others(table_id: str) -> ResponseReturnValue:
    keep = signed_in_dealer(find_table(table_id), "sign out the other devices")
    count = off_loop.run(auth.sign_out_others, get_db(), table_id, keep.id)  # a COMMIT
    demote_signed_out(table_id, keep.id)
    return no_store({"signed_out": count}, 200)


# --------------------------------------------------------------------------- history
@bp.get("/tables/<table_id>/deals")
@reads.view
def list_deals(table_id: str) -> ResponseReturnValue:
    find_table(table_id)
    db = get_db()

    def write(out: IO[str]) -> None:
        out.write(current_app.json.dumps([carried.with_pot_fields(deal)
                                          for deal in storage.list_deals(db, table_id)]))

    # the same list until the next action: a guest asking again is served the kept answer
    return reads.cached(("deals", table_id, storage.last_seq(db, table_id)), write,
                        "application/json")


@bp.get("/tables/<table_id>/deals/<int(max=999999999):number>")
@reads.view
def get_deal(table_id: str, number: int) -> ResponseReturnValue:
    row = find_table(table_id)
    dealer = is_dealer(row)
    found = storage.get_deal(get_db(), table_id, number)
    if found is None:
        raise ApiError(404, f"Table {table_id} has no deal {number}.")
    deal = carried.with_pot_fields(found)
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
