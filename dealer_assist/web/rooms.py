"""Which state went to which room, in this process: a table's three rooms (the dealer's, the
public one, and the public one of the phones that take patches), and :func:`deliver`, which
sends a state to a room only if it is newer than the last one sent there, under the table's
lock, so that no client ever receives an older state after a newer one (:class:`Rooms`)."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask, current_app
from flask_socketio import SocketIO

from dealer_assist.web.patch import state_patch


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

    def forget(self, table_id: str) -> None:
        """A deleted table's entries: nothing more is sent to its rooms."""
        with self.lock(table_id):
            for room in table_rooms(table_id):
                self.sent.pop(room, None)
                self.ahead.pop(room, None)
            self.last_public.pop(table_id, None)
        with self._guard:
            self._locks.pop(table_id, None)


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
        if room == public_room(table_id):  # the phones (the patch room) first: the many
            deliver_patch(socketio, tracker, table_id, state)
        if has_clients(socketio, room):
            socketio.emit("state", state, to=room, skip_sid=skip or None, ignore_queue=True)
        return True


def has_clients(socketio: SocketIO, room: str) -> bool:
    """Whether any client of this process is in ``room``: an emit to an empty room still
    encodes its event whole (python-socketio's manager encodes before it looks who is in)."""
    return bool(socketio.server.manager.rooms.get("/", {}).get(room))


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
    if not has_clients(socketio, room):
        return  # the next patch is against this state: nobody is owed this one
    if base is None:
        socketio.emit("state", state, to=room, skip_sid=skip or None, ignore_queue=True)
        return
    socketio.emit("state_patch", {"id": table_id, "seq": state["seq"], "base_seq": base["seq"],
                                  "ops": state_patch(base, state)},
                  to=room, skip_sid=skip or None, ignore_queue=True)
