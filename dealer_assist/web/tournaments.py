"""The tournaments' JSON API (API.md "Tournaments", R89-R94): making one with its tables,
its public state, and the host's and dealers' actions."""

from __future__ import annotations

from enum import Enum

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from dealer_assist.core.errors import DealerAssistError, StaleTableError
from dealer_assist.services import auth, storage
from dealer_assist.services.auth import bearer_token
from dealer_assist.web import off_loop
from dealer_assist.web.acting import ApiError, load
from dealer_assist.web.api import created_answer, json_object, table_urls
from dealer_assist.web.broadcast import broadcast
from dealer_assist.web.extensions import base_url, get_db, get_tournaments
from dealer_assist.web.host import connection, full_sentence, host_status, require_host
from dealer_assist.web.tournament_live import (
    no_tournament,
    public_state,
    send_tournament,
    send_tournament_deleted,
)

bp = Blueprint("tournaments", __name__, url_prefix="/api/tournaments")


@bp.post("")
def create_tournament() -> ResponseReturnValue:
    require_host()
    body = json_object(request.get_data())
    try:
        created = get_tournaments().create(get_db(), body)
    except DealerAssistError as err:
        raise ApiError(400, str(err)) from None
    except storage.StorageFull:
        raise ApiError(507, full_sentence()) from None
    out = {"id": created.id, "clock_url": f"{base_url()}/c/{created.id}",
           "tables": [{"id": t.id, "dealer_token": t.token, **table_urls(t.id, t.token)}
                      for t in created.tables],
           "state": public_state(created.id)}
    return created_answer(out, f"/api/tournaments/{created.id}")


@bp.delete("/<tournament_id>")
def delete_tournament(tournament_id: str) -> ResponseReturnValue:
    """The host's delete (as ``DELETE /api/tables/<id>``): the tournament and its tables,
    all their rows, off the loop; then its screens are told, on it."""
    require_host()
    with connection() as db:
        deleted = off_loop.run(get_tournaments().delete, db, tournament_id[:64])
    if deleted is None:
        raise ApiError(404, no_tournament(tournament_id))
    send_tournament_deleted(tournament_id, deleted.tables, deleted.name or "the tournament")
    return jsonify({"deleted": tournament_id, "tables": list(deleted.tables)})


@bp.get("/<tournament_id>")
def get_tournament(tournament_id: str) -> ResponseReturnValue:
    response = jsonify(public_state(tournament_id))
    response.headers["Cache-Control"] = "no-store"
    return response


class Actor(Enum):
    HOST = "host"
    DEALER = "dealer"


def who_acts(table_ids: list[str]) -> Actor | None:
    """A dealer device of one of the tournament's tables (its token: a request that shows
    one is that dealer's, wherever it comes from), the host, or no one who may."""
    header = request.headers.get("Authorization")
    if header is not None:
        token = bearer_token(header)
        for table_id in table_ids:
            found = auth.find_dealer_token(get_db(), table_id, token)
            if found is not None and not found.signed_out:
                return Actor.DEALER
    return Actor.HOST if host_status() else None


@bp.post("/<tournament_id>/actions")
def post_tournament_action(tournament_id: str) -> ResponseReturnValue:
    store = get_tournaments()
    table_ids = store.table_ids(get_db(), tournament_id)
    if not table_ids:
        raise ApiError(404, no_tournament(tournament_id))
    actor = who_acts(table_ids)
    if actor is None:
        raise ApiError(401, "Only the host or a dealer of one of its tables acts on a "
                            "tournament: send the host key or a dealer token.")
    body = json_object(request.get_data())
    money = store.host_only(get_db(), tournament_id, body) if actor is Actor.DEALER else None
    if money is not None:
        verb = "undo" if body.get("type") == "undo" else "change"
        raise ApiError(403, "Only the host changes the money: a dealer's device cannot "
                            f"{verb} the {money}.")
    try:
        outcome = store.act(get_db(), tournament_id, body)
    except StaleTableError:
        raise ApiError(409, "Another device acted on the tournament at the same moment: "
                            "look again and retry.") from None
    except DealerAssistError as err:
        raise ApiError(400, str(err)) from None
    except storage.StorageFull:
        raise ApiError(507, full_sentence()) from None
    for table_id in outcome.tables:
        broadcast(table_id, load(table_id))
    state = public_state(tournament_id)
    send_tournament(tournament_id, state)
    return jsonify({"state": state, **({"chop": outcome.chop} if outcome.chop else {})})
