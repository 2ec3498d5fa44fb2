"""A table's new state to everyone following it: the phones first, then the commit's owed
fsync, then the dealer (docs/benchmarks.md, "Live fan-out"); through the message queue when
there are several processes."""

from __future__ import annotations

import logging
from typing import Any

from flask import current_app

from dealer_assist.core.table import Table
from dealer_assist.web import off_loop
from dealer_assist.web.acting import state_for
from dealer_assist.web.extensions import get_socketio, pay_owed_sync
from dealer_assist.web.redis_queue import is_queued
from dealer_assist.web.rooms import (
    dealer_room,
    deliver,
    patch_room,
    public_room,
    rooms_of,
    table_rooms,
)

log = logging.getLogger("dealer_assist.live")


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
    queued = is_queued(socketio)
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
                off_loop.let_others_run()  # the phones' frames go out before the fsync's hop
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


def send_same_seq(table_id: str, table: Table) -> None:
    """The table's state at a seq the rooms may have had already, sent whole again with what
    was worked out since (R67's chances: web/equity_later.py), to each room of this process
    that has had no newer one. The pages take a state of the seq they show.

    With a message queue only this process's rooms get it (the queue's listeners keep one
    state a seq); the other processes' phones see the figures at their next state."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    socketio = get_socketio(app)
    tracker = rooms_of(app)
    with tracker.lock(table_id):
        for room, dealer in ((public_room(table_id), False), (patch_room(table_id), False),
                             (dealer_room(table_id), True)):
            if tracker.sent.get(room, -1) > table.seq:
                continue  # a newer state went there: the figures are no longer its
            tracker.sent[room] = table.seq
            state = state_for(table_id, table, dealer=dealer)
            if room == patch_room(table_id):
                tracker.last_public[table_id] = state  # the next patch's base
            socketio.emit("state", state, to=room, ignore_queue=True)


def send_deleted(table_id: str, sentence: str) -> None:
    """``table_deleted`` with ``sentence`` to every screen of a table the host deleted (its
    dealer devices, its phones): they stop following it and say why, rather than show its
    last state as live. This process forgets what it sent the table's rooms. The rows are
    gone already: a failure here is logged, never the delete's."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    try:
        socketio = get_socketio(app)
        for room in table_rooms(table_id):
            socketio.emit("table_deleted", {"table": table_id, "error": sentence}, to=room)
    except Exception:
        log.exception("Table %s: its screens were not told it is deleted.", table_id)
    rooms_of(app).forget(table_id)
