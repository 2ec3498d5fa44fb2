"""Live updates (API.md "Live updates"): Socket.IO on the default namespace.

A client emits ``join`` with ``{"table": id}`` (and ``"token"`` for the dealer's view). It is
put in the table's public room, or with a valid token in its dealer room, and gets a ``state``
event at once; after every accepted action each room gets the state it may see. A wrong token
gets an ``error`` event with a sentence and the public room only.

A dealer client may also emit ``action`` with ``{"table": id, "action": {...}}`` (the body of
``POST /api/tables/<id>/actions``, ``expect_seq`` included); the acknowledgement is the HTTP
answer's body with its ``status`` added.
"""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask_socketio import SocketIO, emit, join_room, leave_room, rooms

from dealer_assist import storage
from dealer_assist.api import ApiError, public_state, take_action
from dealer_assist.app import get_db, get_socketio, get_store
from dealer_assist.auth import token_matches
from dealer_assist.table import Table


def public_room(table_id: str) -> str:
    return f"table:{table_id}:public"


def dealer_room(table_id: str) -> str:
    return f"table:{table_id}:dealer"


def broadcast(table_id: str, table: Table) -> None:
    """Send the new state to everyone following the table: the dealer's state to the dealer
    room, the public state (no face-down card, no token) to the public room."""
    socketio = get_socketio(current_app._get_current_object())  # type: ignore[attr-defined]
    socketio.emit("state", public_state(table_id, table, dealer=True), to=dealer_room(table_id))
    socketio.emit("state", public_state(table_id, table), to=public_room(table_id))


def on_join(data: Any) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("table"), str):
        emit("error", {"error": 'Join a table with {"table": "<id>"}.'})
        return
    table_id = data["table"][:64]
    db = get_db()
    row = storage.table_row(db, table_id)
    table = get_store().load(db, table_id) if row is not None else None
    if row is None or table is None:
        emit("error", {"error": f"There is no table {table_id!r} on this server."})
        return
    token = data.get("token")
    dealer = token is not None and token_matches(token, row["token_hash"])
    if token is not None and not dealer:
        emit("error", {"error": "That is not this table's dealer token: you see the "
                                "players' view."})
    leave_room(dealer_room(table_id))
    leave_room(public_room(table_id))
    join_room(dealer_room(table_id) if dealer else public_room(table_id))
    emit("state", public_state(table_id, table, dealer=dealer))


def on_action(data: Any) -> dict[str, Any]:
    """The acknowledgement: ``{"status": 200, "seq", "state"}`` or ``{"status", "error"}``."""
    if not isinstance(data, dict) or not isinstance(data.get("table"), str):
        return {"status": 400, "error": 'Send {"table": "<id>", "action": {"type": ...}}.'}
    table_id = data["table"][:64]
    if dealer_room(table_id) not in rooms():
        return {"status": 401, "error": "Only the dealer acts: join this table with the "
                                        "dealer token first."}
    body = data.get("action")
    if not isinstance(body, dict):
        return {"status": 400, "error": 'The action must be an object such as '
                                        '{"type": "next"}.'}
    try:
        answer, table = take_action(table_id, body)
    except ApiError as err:
        return {"status": err.status, "error": err.sentence, **err.extra}
    broadcast(table_id, table)
    return {"status": 200, **answer}


def on_leave(data: Any) -> None:
    if isinstance(data, dict) and isinstance(data.get("table"), str):
        leave_room(dealer_room(data["table"]))
        leave_room(public_room(data["table"]))


def register_events(socketio: SocketIO) -> None:
    socketio.on_event("join", on_join)
    socketio.on_event("action", on_action)
    socketio.on_event("leave", on_leave)


__all__ = ["broadcast", "dealer_room", "public_room", "register_events"]
