"""The dealer's live connections in this process: per connection, the id of the token it
joined each table with, so that signing the other devices out (R75) takes the dealer's view
from exactly those connections, at once, in this process and, through the message queue, in
every other; and an ``action`` re-checks that the token still works."""

from __future__ import annotations

import threading

from flask import Flask, current_app, request

from dealer_assist.services import auth
from dealer_assist.web.acting import state_for
from dealer_assist.web.extensions import get_db, get_socketio, get_store
from dealer_assist.web.redis_queue import SIGNED_OUT_EVENT, is_queued
from dealer_assist.web.rooms import dealer_room, public_room, rooms_of, table_rooms


class DealerSockets:
    """This process's dealer connections: per connection (sid), the id of the token it
    joined each table with. A connection is forgotten when it disconnects."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[str, dict[str, int]] = {}

    def remember(self, sid: str, table_id: str, token_id: int | None) -> None:
        with self._lock:
            if token_id is not None:
                self._tokens.setdefault(sid, {})[table_id] = token_id
            elif sid in self._tokens:
                self._tokens[sid].pop(table_id, None)

    def token(self, sid: str, table_id: str) -> int | None:
        with self._lock:
            return self._tokens.get(sid, {}).get(table_id)

    def forget(self, sid: str) -> None:
        with self._lock:
            self._tokens.pop(sid, None)


def dealer_sockets(app: Flask) -> DealerSockets:
    found: DealerSockets = app.extensions.setdefault("dealer_assist.dealer_sockets",
                                                     DealerSockets())
    return found


def remember_token(table_id: str, token_id: int | None) -> None:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    dealer_sockets(app).remember(request.sid, table_id, token_id)  # type: ignore[attr-defined]


def remembered_token(sid: str, table_id: str) -> int | None:
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    return dealer_sockets(app).token(sid, table_id)


def forget_socket() -> None:
    """This connection closed: forget the tokens it joined with."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    dealer_sockets(app).forget(request.sid)  # type: ignore[attr-defined]


def demote(app: Flask, table_id: str, sid: str) -> None:
    """Move one connection of this process from the table's dealer room to its public room,
    with a sentence saying why and the public state."""
    socketio = get_socketio(app)
    server = socketio.server
    with app.app_context():
        table = get_store().load(get_db(), table_id)
        if table is None:
            return
        tracker = rooms_of(app)
        with tracker.lock(table_id):
            server.leave_room(sid, dealer_room(table_id))
            server.enter_room(sid, public_room(table_id))
            for room in table_rooms(table_id):
                tracker.ahead.get(room, {}).pop(sid, None)
            socketio.emit("error", {"error": auth.SIGNED_OUT_SENTENCE, "signed_out": True},
                          to=sid, ignore_queue=True)
            socketio.emit("state", state_for(table_id, table), to=sid, ignore_queue=True)


def demote_others_here(app: Flask, table_id: str, keep: int) -> None:
    """Demote every connection of this process in the table's dealer room whose token is
    not ``keep``."""
    socketio = get_socketio(app)
    with app.app_context():
        sids = [sid for sid, _ in socketio.server.manager.get_participants(
            "/", dealer_room(table_id))]
        for sid in sids:
            if dealer_sockets(app).token(sid, table_id) != keep:
                demote(app, table_id, sid)


def demote_signed_out(table_id: str, keep: int) -> None:
    """After :func:`auth.sign_out_others`: the signed-out devices' live connections lose the
    dealer's view at once, in this process and, through the message queue, in every other
    (:class:`QueueManager` hands the event to :func:`demote_others_here`)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    socketio = get_socketio(app)
    if is_queued(socketio):
        socketio.emit(SIGNED_OUT_EVENT, {"table": table_id, "keep": keep},
                      to=dealer_room(table_id))
    else:
        demote_others_here(app, table_id, keep)
