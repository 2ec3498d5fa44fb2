"""Live updates (API.md "Live updates"): Socket.IO on the default namespace.

A client emits ``join`` with ``{"table": id}`` (and ``"token"`` for the dealer's view). It is
put in the table's public room, or with a valid token in its dealer room, and gets a ``state``
event at once; after every accepted action each room gets the state it may see. A wrong token
gets an ``error`` event with a sentence and the public room only.

A public client that joins with ``"patches": true`` (the phone page) gets the whole state at
the join, then ``state_patch`` events: only what changed since the state before
(``base_seq``), a seventh of the bytes on a full table; a client whose seq is not the
patch's ``base_seq`` missed a state and joins again for the whole one.

A dealer client may also emit ``action`` with ``{"table": id, "action": {...}}`` (the body of
``POST /api/tables/<id>/actions``, ``expect_seq`` included); the acknowledgement is the HTTP
answer's body with its ``status`` added.

With several server processes (``create_app(message_queue="redis://...")``), Flask-SocketIO's
Redis message queue carries every table's states to every process: the acting process emits
to the table's rooms, and each process, its own included, hands the states it gets to
:func:`deliver`, which keeps that process's clients in seq order (:class:`QueueManager`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import socketio as socketio_server
from flask import Flask, current_app, request
from flask_socketio import SocketIO, emit, join_room, leave_room, rooms

from dealer_assist.core.table import Table
from dealer_assist.services import auth
from dealer_assist.services.auth import throttled_sentence
from dealer_assist.web.acting import ApiError, no_table, state_for, take_action
from dealer_assist.web.extensions import (
    get_db,
    get_socketio,
    get_store,
    get_throttle,
    pay_owed_sync,
)
from dealer_assist.web.guest_caps import join_wait, note_dealer, too_many_joins
from dealer_assist.web.json_codec import SocketJSON
from dealer_assist.web.patch import state_patch

log = logging.getLogger("dealer_assist.live")


def public_room(table_id: str) -> str:
    return f"table:{table_id}:public"


def dealer_room(table_id: str) -> str:
    return f"table:{table_id}:dealer"


def patch_room(table_id: str) -> str:
    """The public room of the clients that joined with ``"patches": true``: they get each
    public state as a ``state_patch`` against the one before (docs/api.md)."""
    return f"table:{table_id}:patches"


def table_rooms(table_id: str) -> tuple[str, str, str]:
    return dealer_room(table_id), public_room(table_id), patch_room(table_id)


def table_of_room(room: str) -> str | None:
    """The table id of a room :func:`public_room` or :func:`dealer_room` named, else None."""
    if not room.startswith("table:") or room.count(":") < 2:
        return None
    return room[len("table:"):].rsplit(":", 1)[0]


class Rooms:
    """This process's record of the states it sent: per table a lock; per room the last seq
    sent to the room, and the clients whose join sent them a newer state than that.

    Two actions at one table may finish in either order, and with a message queue a state may
    come from another process after a join here read a newer one from the database. Holding
    the table's lock, a state goes to a room only if it is newer than the last one sent there,
    and never to a client whose join sent it one as new; a join reads the state and sends it
    under the same lock. So no client ever receives an older state after a newer one."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.RLock] = {}
        self.sent: dict[str, int] = {}  # room -> the last seq sent to it
        self.ahead: dict[str, dict[str, int]] = {}  # room -> {sid: seq its join sent}
        # table -> the last public state sent to its patch room: the next patch's base
        self.last_public: dict[str, dict[str, Any]] = {}

    def lock(self, table_id: str) -> threading.RLock:
        """Re-entrant: a broadcast holds it while the queue's manager delivers its states."""
        with self._guard:
            return self._locks.setdefault(table_id, threading.RLock())


def rooms_of(app: Flask) -> Rooms:
    tracker: Rooms = app.extensions.setdefault("dealer_assist.rooms", Rooms())
    return tracker


def rooms_of_app() -> Rooms:
    return rooms_of(current_app._get_current_object())  # type: ignore[attr-defined]


def deliver(socketio: SocketIO, tracker: Rooms, room: str, state: dict[str, Any]) -> bool:
    """Send ``state`` to this process's clients in ``room`` (``table:<id>:public`` or
    ``...:dealer``) unless a state as new went there already; skip the clients whose join sent
    them one as new. A public state also goes to the table's patch room (:func:`patch_room`)
    as a ``state_patch`` against the last one sent there. Returns whether it was sent."""
    table_id = table_of_room(room)
    seq = state.get("seq")
    if table_id is None or not isinstance(seq, int):
        return False
    with tracker.lock(table_id):
        skip = note_sent(tracker, room, seq)
        if skip is None:
            return False  # a newer state has gone out already
        socketio.emit("state", state, to=room, skip_sid=skip or None, ignore_queue=True)
        if room == public_room(table_id):
            deliver_patch(socketio, tracker, table_id, state)
        return True


def note_sent(tracker: Rooms, room: str, seq: int) -> list[str] | None:
    """Under the table's lock: record that ``seq`` goes to ``room``; the clients to skip (their
    join sent them a state as new), or None if a state as new went there already."""
    if seq <= tracker.sent.get(room, -1):
        return None
    tracker.sent[room] = seq
    ahead = tracker.ahead.pop(room, {})
    still = {sid: joined for sid, joined in ahead.items() if joined > seq}
    if still:
        tracker.ahead[room] = still
    return [sid for sid, joined in ahead.items() if joined >= seq]


def deliver_patch(socketio: SocketIO, tracker: Rooms, table_id: str,
                  state: dict[str, Any]) -> None:
    """Under the table's lock: the public ``state`` to the patch room, as what changed since
    the last state sent there (``base_seq``), or whole if this process sent none before.
    A client whose seq is not ``base_seq`` missed one and joins again for the whole state."""
    room = patch_room(table_id)
    base = tracker.last_public.get(table_id)
    skip = note_sent(tracker, room, state["seq"])
    if skip is None:
        return
    tracker.last_public[table_id] = state
    if base is None:
        socketio.emit("state", state, to=room, skip_sid=skip or None, ignore_queue=True)
        return
    socketio.emit("state_patch", {"id": table_id, "seq": state["seq"], "base_seq": base["seq"],
                                  "ops": state_patch(base, state)},
                  to=room, skip_sid=skip or None, ignore_queue=True)


def broadcast(table_id: str, table: Table) -> dict[str, Any]:
    """Send the new state to everyone following the table: the public state (no face-down
    card, no token) to the public room first, since the phones are the many, then the commit's
    owed fsync (:func:`extensions.pay_owed_sync`, during which the phones' frames go
    out), then the dealer's state to the dealer room. With a message queue the states go out
    through it, to this process's clients and every other's. Returns the dealer's state, for
    the answer."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    socketio = get_socketio(app)
    tracker = rooms_of(app)
    queued = isinstance(socketio.server.manager, QueueManager)
    with tracker.lock(table_id):
        if table.seq <= min(tracker.sent.get(dealer_room(table_id), -1),
                            tracker.sent.get(public_room(table_id), -1)):
            # a newer state has gone out already (and, queued, went out first)
            return state_for(table_id, table, dealer=True)
        dealer_state: dict[str, Any] = {}
        for room, dealer in ((public_room(table_id), False), (dealer_room(table_id), True)):
            state = state_for(table_id, table, dealer=dealer)
            if dealer:
                dealer_state = state
            if queued:  # under the lock: this process publishes its states in seq order
                socketio.emit("state", state, to=room)
            else:
                deliver(socketio, tracker, room, state)
            if not dealer:
                pay_owed_sync()
        return dealer_state


def answer_after(table_id: str, table: Table) -> dict[str, Any]:
    """The dealer's answer to an accepted action: the live broadcast, phones first, then
    ``{"seq", "state"}`` with the dealer's state the broadcast built.

    The action is stored (its COMMIT returned) before this runs, so it is acknowledged
    whatever fails here: a broadcast that fails is logged, the dealer still gets the ``200``
    (phones catch up at their next state or reconnect), never a "nothing was changed"."""
    try:
        state = broadcast(table_id, table)
    except Exception:
        log.exception("Table %s: seq %d is stored, but its broadcast failed.", table_id,
                      table.seq)
        state = state_for(table_id, table, dealer=True)
    return {"seq": table.seq, "state": state}


def on_join(data: Any) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("table"), str):
        emit("error", {"error": 'Join a table with {"table": "<id>"}.'})
        return
    table_id = data["table"][:64]
    spam = join_wait()
    if spam:  # a client re-joining in a loop: each join would build and queue a full state
        emit("error", {"error": too_many_joins(spam), "retry_after": spam})
        return
    db = get_db()
    row = get_store().row(db, table_id)
    if row is None:
        emit("error", {"error": no_table(table_id)})
        return
    token = data.get("token")
    throttle, address = get_throttle(), request.remote_addr or "unknown"
    wait = throttle.retry_after(address) if token is not None else 0
    found = None if wait or token is None else auth.find_dealer_token(db, table_id, token)
    dealer = found is not None and not found.signed_out
    if wait:  # checked before the token, as over HTTP
        emit("error", {"error": throttled_sentence(wait), "retry_after": wait})
    elif found is not None and found.signed_out:  # a real token, not a guess: not counted
        emit("error", {"error": auth.SIGNED_OUT_SENTENCE, "signed_out": True})
    elif token is not None and not dealer:
        throttle.fail(address, table_id)
        emit("error", {"error": "That is not this table's dealer token: you see the "
                                "players' view."})
    remember_token(table_id, found.id if dealer and found is not None else None)
    if dealer:
        note_dealer()
    tracker = rooms_of_app()
    if dealer:
        room = dealer_room(table_id)
    else:
        room = patch_room(table_id) if data.get("patches") is True else public_room(table_id)
    with tracker.lock(table_id):
        for other in table_rooms(table_id):
            leave_room(other)
        join_room(room)
        table = get_store().load(db, table_id)
        assert table is not None
        emit("state", state_for(table_id, table, dealer=dealer))
        if table.seq > tracker.sent.get(room, -1):  # a broadcast of this seq may be on its way
            tracker.ahead.setdefault(room, {})[request.sid] = table.seq  # type: ignore[attr-defined]


NOTHING_CHANGED = "Something went wrong on the server; nothing was changed. Try again."


def on_action(data: Any) -> dict[str, Any]:
    """The acknowledgement: ``{"status": 200, "seq", "state"}`` or ``{"status", "error"}``."""
    if not isinstance(data, dict) or not isinstance(data.get("table"), str):
        return {"status": 400, "error": 'Send {"table": "<id>", "action": {"type": ...}}.'}
    table_id = data["table"][:64]
    if dealer_room(table_id) not in rooms():
        if remembered_token(request.sid, table_id) is not None:  # type: ignore[attr-defined]
            return {"status": 401, "error": auth.SIGNED_OUT_SENTENCE}  # moved out by R75
        return {"status": 401, "error": "Only the dealer acts: join this table with the "
                                        "dealer token first."}
    token_id = remembered_token(request.sid, table_id)  # type: ignore[attr-defined]
    if token_id is None or not auth.token_id_valid(get_db(), token_id):
        # signed out by another dealer device (R75), maybe through another process
        demote(current_app._get_current_object(), table_id,  # type: ignore[attr-defined]
               request.sid)  # type: ignore[attr-defined]
        return {"status": 401, "error": auth.SIGNED_OUT_SENTENCE}
    body = data.get("action")
    if not isinstance(body, dict):
        return {"status": 400, "error": 'The action must be an object such as '
                                        '{"type": "next"}.'}
    try:
        table = take_action(table_id, body)
    except ApiError as err:
        return {"status": err.status, "error": err.sentence, **err.extra}
    except Exception:  # before COMMIT returned: nothing was stored, and the dealer hears so
        log.exception("Table %s: an action over Socket.IO failed before it was stored.",
                      table_id)
        return {"status": 500, "error": NOTHING_CHANGED}
    return {"status": 200, **answer_after(table_id, table)}  # answer_after never raises


# --------------------------------------------------------------------------- dealer devices
# This process remembers the id of the token each dealer connection joined with, so that
# signing the other devices out (R75) can take the dealer's view from exactly those
# connections, and an ``action`` re-checks that the token still works.
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


def on_disconnect(*_reason: Any) -> None:
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


SIGNED_OUT_EVENT = "dealer_signed_out"  # between processes only: never sent to a client


def demote_signed_out(table_id: str, keep: int) -> None:
    """After :func:`auth.sign_out_others`: the signed-out devices' live connections lose the
    dealer's view at once, in this process and, through the message queue, in every other
    (:class:`QueueManager` hands the event to :func:`demote_others_here`)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    socketio = get_socketio(app)
    if isinstance(socketio.server.manager, QueueManager):
        socketio.emit(SIGNED_OUT_EVENT, {"table": table_id, "keep": keep},
                      to=dealer_room(table_id))
    else:
        demote_others_here(app, table_id, keep)


def on_leave(data: Any) -> None:
    if isinstance(data, dict) and isinstance(data.get("table"), str):
        remember_token(data["table"][:64], None)
        for room in table_rooms(data["table"]):
            leave_room(room)


def register_events(socketio: SocketIO) -> None:
    socketio.on_event("join", on_join)
    socketio.on_event("action", on_action)
    socketio.on_event("leave", on_leave)
    socketio.on_event("disconnect", on_disconnect)


# --------------------------------------------------------------------------- several processes
class QueueManager(socketio_server.RedisManager):  # type: ignore[misc]  # no type hints
    """Flask-SocketIO's Redis message queue: ``socketio.RedisManager``, what Flask-SocketIO
    builds for ``message_queue="redis://..."``, on the same channel, with one addition. A
    table's ``state`` events, the ones this process emits and the ones the queue brings from
    the others, go to ``deliver_state`` (:func:`deliver`), which sends them to this process's
    clients in seq order; every other message is handled by the manager as usual."""

    def __init__(self, url: str, channel: str = "flask-socketio") -> None:
        # a Redis that is down is seen within 5 s, not at the TCP timeout; states published
        # in JSON through orjson, as they are sent to the clients
        super().__init__(url, channel=channel, redis_options={"socket_connect_timeout": 5},
                         json=SocketJSON)
        self.deliver_state: Callable[[str, dict[str, Any]], object] | None = None
        self.sign_out: Callable[[str, int], object] | None = None

    def _handle_emit(self, message: dict[str, Any]) -> None:
        # python-socketio's PubSubManager calls this for every emit: this process's own (from
        # emit, before publishing) and each one the listener thread reads from Redis
        room, data = message.get("room"), message.get("data")
        if (self.deliver_state is not None and message.get("event") == "state"
                and isinstance(room, str) and table_of_room(room) is not None
                and isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict)):
            self.deliver_state(room, data[0])
            return
        if message.get("event") == SIGNED_OUT_EVENT:  # never passed on to clients
            signed_out = data[0] if isinstance(data, list) and data else None
            if (self.sign_out is not None and isinstance(signed_out, dict)
                    and isinstance(signed_out.get("table"), str)
                    and isinstance(signed_out.get("keep"), int)):
                self.sign_out(signed_out["table"], signed_out["keep"])
            return
        super()._handle_emit(message)


def listen_to_queue(app: Flask) -> None:
    """Hand the queue's table states to :func:`deliver`, and subscribe to the queue now rather
    than at the first client's connection (Socket.IO's default), so that this process hears
    every state from the moment it serves."""
    socketio = get_socketio(app)
    server = socketio.server
    manager = server.manager
    if not isinstance(manager, QueueManager):
        return
    manager.deliver_state = partial(deliver, socketio, rooms_of(app))
    manager.sign_out = partial(demote_others_here, app)
    if not server.manager_initialized:
        server.manager_initialized = True
        manager.initialize()


__all__ = ["QueueManager", "answer_after", "broadcast", "dealer_room", "deliver", "listen_to_queue",
           "patch_room", "public_room", "register_events"]
