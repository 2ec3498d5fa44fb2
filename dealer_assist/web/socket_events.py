"""Live updates (API.md "Live updates"): Socket.IO on the default namespace.

A client emits ``join`` with ``{"table": id}`` (and ``"token"`` for the dealer's view). It is
put in the table's public room, or with a valid token in its dealer room, and gets a ``state``
event at once; after every accepted action each room gets the state it may see. A wrong token
gets an ``error`` event with a sentence and the public room only.

A public client that joins with ``"patches": true`` (the phone page) gets the whole state at
the join, then ``state_patch`` events: only what changed since the state before
(``base_seq``), a seventh of the bytes on a full table; a client whose seq is not the
patch's ``base_seq`` missed a state and joins again for the whole one.

A tournament's big-screen clock emits ``join_tournament`` with ``{"tournament": id}``: no
token (its state is public), the state at once as a ``tournament`` event, then every one
(web/tournament_live.py). A table's screens get that event too, after the table's state at
each join.

A dealer client may also emit ``action`` with ``{"table": id, "action": {...}}`` (the body of
``POST /api/tables/<id>/actions``, ``expect_seq`` included); the acknowledgement is the HTTP
answer's body with its ``status`` added.

The rooms and their order are web/rooms.py's, the broadcast web/broadcast.py's, the dealer's
connections web/dealer_sockets.py's, several processes web/redis_queue.py's.
"""

from __future__ import annotations

import logging
import re
from functools import partial
from typing import Any

from flask import Flask, current_app, request
from flask_socketio import SocketIO, disconnect, emit, join_room, leave_room, rooms

from dealer_assist.services import auth
from dealer_assist.services.auth import throttled_sentence
from dealer_assist.web import guest_caps, off_loop
from dealer_assist.web.acting import ApiError, no_table, state_for, take_action
from dealer_assist.web.broadcast import answer_after
from dealer_assist.web.damaged import damage_of
from dealer_assist.web.dealer_sockets import (
    demote,
    demote_others_here,
    forget_socket,
    remember_token,
    remembered_token,
)
from dealer_assist.web.extensions import (
    get_db,
    get_socketio,
    get_store,
    get_throttle,
    get_tournaments,
)
from dealer_assist.web.guest_caps import join_wait, note_dealer, too_many_joins
from dealer_assist.web.redis_queue import listen_to_queue
from dealer_assist.web.rooms import (
    dealer_room,
    deliver,
    patch_room,
    public_room,
    rooms_of,
    rooms_of_app,
    table_rooms,
)
from dealer_assist.web.tournament_live import (
    clock_room,
    no_tournament,
    public_state,
    tournament_after_table,
    tournament_to_joiner,
)

log = logging.getLogger("dealer_assist.live")


TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what auth.new_table_id makes, and more
HOLD_OFF_SECONDS = 10  # an address over its join rate connects again after this, at least


def table_of(data: Any) -> str | None:
    """The table an event names (``{"table": "<id>", ...}``), if it could be a table's id."""
    if isinstance(data, dict):
        value = data.get("table")
        if isinstance(value, str) and TABLE_ID.fullmatch(value):
            return value
    return None


def refuse_join(sentence: str, **more: Any) -> dict[str, Any]:
    """A join refused: the ``error`` event with the sentence (what the pages listen to), and
    the same as the acknowledgement, for a client that asked for one."""
    emit("error", {"error": sentence, **more})
    return {"status": 400, "error": sentence, **more}


def held_off(sid: str) -> tuple[bool, dict[str, Any] | None]:
    """Whether this connection joins too often, and the refusal to acknowledge with.

    A client re-joining in a loop (each join would build and send a whole state): one
    sentence, then it is disconnected, and its address may not connect again for a while, so
    that each further try costs a refused socket, not an answer."""
    spam = join_wait()
    if not spam:
        return False, None
    wait = max(spam, HOLD_OFF_SECONDS)
    if not guest_caps.dismiss(sid):
        return True, None
    refused = refuse_join(too_many_joins(wait), retry_after=wait)
    guest_caps.connections(current_app).hold_off(guest_caps.address(), wait)
    disconnect()
    return True, refused


def on_join(data: Any = None, *_more: Any) -> dict[str, Any] | None:
    sid = request.sid  # type: ignore[attr-defined]
    if guest_caps.dismissed(sid):  # being disconnected for its joins: nothing more to say
        return None
    if not isinstance(data, dict) or not isinstance(data.get("table"), str):
        return refuse_join('Join a table with {"table": "<id>"}.')
    held, refused = held_off(sid)
    if held:
        return refused
    table_id = table_of(data)
    db = get_db()
    row = get_store().row(db, table_id) if table_id is not None else None
    if table_id is None or row is None:
        return refuse_join(no_table(str(data["table"])), no_table=True)  # deleted: the page stops
    damage = damage_of(table_id)
    if damage is not None:
        return refuse_join(damage.sentence, damaged=damage.to_json())
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
        # a broadcast of this seq may be on its way (none is of seq 0: a new table's state)
        if table.seq > tracker.sent.get(room, 0):
            tracker.ahead.setdefault(room, {})[request.sid] = table.seq  # type: ignore[attr-defined]
    tournament_to_joiner(table_id)  # never raises
    return None


def on_join_tournament(data: Any = None, *_more: Any) -> dict[str, Any] | None:
    """The big-screen clock page (``/c/<id>``) joins its tournament's room, read-only: the
    public state at once, then every ``tournament`` event (API.md "Tournaments")."""
    sid = request.sid  # type: ignore[attr-defined]
    if guest_caps.dismissed(sid):
        return None
    wanted = data.get("tournament") if isinstance(data, dict) else None
    if not isinstance(wanted, str):
        return refuse_join('Join a tournament\'s clock with {"tournament": "<id>"}.')
    held, refused = held_off(sid)
    if held:
        return refused
    if not TABLE_ID.fullmatch(wanted) or not get_tournaments().table_ids(get_db(), wanted):
        return refuse_join(no_tournament(wanted))
    for room in rooms():
        if room.startswith(clock_room("")):
            leave_room(room)
    join_room(clock_room(wanted))
    emit("tournament", public_state(wanted))
    # out now, before the next join's state is built: a screen counts down from the moment
    # it receives the figures, which are as of the moment they were read (benchmarks.md)
    off_loop.let_others_run()
    return None


NOTHING_CHANGED = "Something went wrong on the server; nothing was changed. Try again."


def on_action(data: Any = None, *_more: Any) -> dict[str, Any]:
    """The acknowledgement: ``{"status": 200, "seq", "state"}`` or ``{"status", "error"}``."""
    if not isinstance(data, dict) or not isinstance(data.get("table"), str):
        return {"status": 400, "error": 'Send {"table": "<id>", "action": {"type": ...}}.'}
    table_id = table_of(data)
    if table_id is None:
        return {"status": 400, "error": no_table(data["table"])}
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
    answer = answer_after(table_id, table)  # never raises
    tournament_after_table(table_id)  # never raises
    return {"status": 200, **answer}


def on_leave(data: Any = None, *_more: Any) -> dict[str, Any] | None:
    """Nothing to acknowledge when it is done; a sentence when it cannot be."""
    table_id = table_of(data)
    if table_id is None:
        return {"status": 400, "error": 'Leave a table with {"table": "<id>"}.'}
    remember_token(table_id, None)
    for room in table_rooms(table_id):
        leave_room(room)
    return None


def on_event_error(err: Exception) -> dict[str, Any]:
    """Any event whose handler failed: logged (once a minute for repeats: web/log_guard.py),
    and the acknowledgement says nothing was changed (an action is acknowledged always)."""
    log.exception("A Socket.IO event failed: %s", type(err).__name__)
    return {"status": 500, "error": NOTHING_CHANGED}


def register_events(socketio: SocketIO) -> None:
    socketio.on_event("join", on_join)
    socketio.on_event("join_tournament", on_join_tournament)
    socketio.on_event("action", on_action)
    socketio.on_event("leave", on_leave)
    socketio.on_event("disconnect", on_disconnect)
    socketio.on_error_default(on_event_error)


def on_disconnect(*_reason: Any) -> None:
    forget_socket()
    guest_caps.forget(request.sid)  # type: ignore[attr-defined]


def follow_queue(app: Flask) -> None:
    """With a message queue: its states go to this process's rooms in seq order, and its
    sign-outs demote this process's connections (web/redis_queue.py)."""
    listen_to_queue(app, partial(deliver, get_socketio(app), rooms_of(app)),
                    partial(demote_others_here, app))
