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

import threading
from typing import Any

from flask import current_app, request
from flask_socketio import SocketIO, emit, join_room, leave_room, rooms

from dealer_assist import storage
from dealer_assist.api import ApiError, no_table, state_for, take_action
from dealer_assist.app import get_db, get_socketio, get_store, get_throttle
from dealer_assist.auth import throttled_sentence, token_matches
from dealer_assist.table import Table


def public_room(table_id: str) -> str:
    return f"table:{table_id}:public"


def dealer_room(table_id: str) -> str:
    return f"table:{table_id}:dealer"


class Rooms:
    """Per table: a lock that orders the states sent, and the last seq broadcast.

    Two actions at one table may finish in either order; holding the lock, a broadcast sends
    only a seq newer than the last one sent, and a join reads the state and sends it, so no
    client ever receives an older state after a newer one."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self.sent: dict[str, int] = {}

    def lock(self, table_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(table_id, threading.Lock())


def rooms_of_app() -> Rooms:
    return current_app.extensions.setdefault("dealer_assist.rooms", Rooms())


def broadcast(table_id: str, table: Table) -> None:
    """Send the new state to everyone following the table: the dealer's state to the dealer
    room, the public state (no face-down card, no token) to the public room."""
    socketio = get_socketio(current_app._get_current_object())  # type: ignore[attr-defined]
    tracker = rooms_of_app()
    with tracker.lock(table_id):
        if table.seq <= tracker.sent.get(table_id, -1):
            return  # a newer state has gone out already
        tracker.sent[table_id] = table.seq
        socketio.emit("state", state_for(table_id, table, dealer=True),
                      to=dealer_room(table_id))
        socketio.emit("state", state_for(table_id, table), to=public_room(table_id))


def on_join(data: Any) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("table"), str):
        emit("error", {"error": 'Join a table with {"table": "<id>"}.'})
        return
    table_id = data["table"][:64]
    db = get_db()
    row = storage.table_row(db, table_id)
    if row is None:
        emit("error", {"error": no_table(table_id)})
        return
    token = data.get("token")
    throttle, address = get_throttle(), request.remote_addr or "unknown"
    wait = throttle.retry_after(address) if token is not None else 0
    dealer = not wait and token is not None and token_matches(token, row["token_hash"])
    if wait:  # checked before the token, as over HTTP
        emit("error", {"error": throttled_sentence(wait), "retry_after": wait})
    elif token is not None and not dealer:
        throttle.fail(address, table_id)
        emit("error", {"error": "That is not this table's dealer token: you see the "
                                "players' view."})
    with rooms_of_app().lock(table_id):
        leave_room(dealer_room(table_id))
        leave_room(public_room(table_id))
        join_room(dealer_room(table_id) if dealer else public_room(table_id))
        table = get_store().load(db, table_id)
        assert table is not None
        emit("state", state_for(table_id, table, dealer=dealer))


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
