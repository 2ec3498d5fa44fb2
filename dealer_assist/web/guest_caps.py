"""The app's caps (issues 14, 25 and 32), wired: send queues that drop to the newest state,
rate limits on joins and on table creation, a budget of Socket.IO events per connection
(a connection over it is cut), the connections dismissed for their joins, and the
open-connection counts that ``dealer-assist serve`` checks as it accepts a connection
(web/server.py).

Like web/host.py this imports nothing of the app factory or the API: what it needs of the app
it takes from ``current_app``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, request
from flask_socketio import SocketIO

from dealer_assist.services.connection_caps import ConnectionCaps, is_loopback
from dealer_assist.services.rate_limit import RateLimit
from dealer_assist.services.send_queue import NewestStateQueue
from dealer_assist.web.websocket import SEVER

log = logging.getLogger("dealer_assist.live")

DEFAULTS: dict[str, Any] = {
    # packets waiting for one client before older states are dropped: far more than a phone
    # that reads ever has waiting, even on a loaded machine; a few hundred KB at most
    "SEND_QUEUE_LIMIT": 64,
    "JOIN_BURST": 30, "JOIN_RATE": 5.0,  # joins per client address: at once, then per second
    "CREATE_BURST": 20, "CREATE_RATE": 0.5,  # tables made or imported per client address
    # Socket.IO packets per connection (events, acks, its connect): at once, then per second.
    # A dealer tapping as fast as a hand can, or a phone joining again, stays far below;
    # a guest's flood (10,000 a second held every tap 1.5-2.2 s) is cut within its burst
    "EVENT_BURST": 60, "EVENT_RATE": 20.0,
    "MAX_CONNECTIONS_PER_ADDRESS": 32,
    "MAX_CONNECTIONS": 800,
    "DEALER_RESERVE": 32,  # of MAX_CONNECTIONS, kept for addresses that showed a dealer token
}


def install(app: Flask, socketio: SocketIO) -> None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    limit = int(app.config["SEND_QUEUE_LIMIT"])
    # Engine.IO makes each client's send queue through this (threading mode: a queue.Queue)
    socketio.server.eio.create_queue = lambda *args, **kwargs: NewestStateQueue(limit)
    app.extensions["dealer_assist.join_limit"] = RateLimit(
        int(app.config["JOIN_BURST"]), float(app.config["JOIN_RATE"]))
    app.extensions["dealer_assist.create_limit"] = RateLimit(
        int(app.config["CREATE_BURST"]), float(app.config["CREATE_RATE"]))
    app.extensions["dealer_assist.connections"] = ConnectionCaps(
        per_address=int(app.config["MAX_CONNECTIONS_PER_ADDRESS"]),
        total=int(app.config["MAX_CONNECTIONS"]),
        reserve=int(app.config["DEALER_RESERVE"]))
    limit_events(app, socketio)


def limit_events(app: Flask, socketio: SocketIO) -> None:
    """Every Socket.IO packet a connection sends is counted in its own bucket before
    Socket.IO decodes it or starts a handler for it; over the budget the connection is cut
    (and its address held off a while, as for joins), with one line in the log. The server's
    own machine is never cut, as it never waits for a join."""
    server = socketio.server
    eio = server.eio
    handle: Callable[[str, Any], None] = eio.handlers["message"]
    budget = RateLimit(int(app.config["EVENT_BURST"]), float(app.config["EVENT_RATE"]))
    cut: dict[str, None] = {}  # connections cut: packets still in hand are dropped
    exempt: dict[str, bool] = {}

    def counted(eio_sid: str, data: Any) -> None:
        if eio_sid in cut:
            return
        environ = server.environ.get(eio_sid) or {}
        own = exempt.get(eio_sid)
        if own is None:
            own = exempt[eio_sid] = is_loopback(environ.get("REMOTE_ADDR") or "")
        if own or not budget.take(eio_sid):
            handle(eio_sid, data)
            return
        cut[eio_sid] = None
        while len(cut) > MAX_DISMISSED:  # the oldest first: long closed by now
            cut.pop(next(iter(cut)))
        where = environ.get("REMOTE_ADDR") or "unknown"
        log.warning("A connection from %s sent more than %s Socket.IO events at once (%s a "
                    "second after): cut, and its address held off %s s.",
                    where, budget.burst, budget.rate, EVENT_HOLD_OFF_SECONDS)
        connections(app).hold_off(where, EVENT_HOLD_OFF_SECONDS)
        sock = eio.sockets.get(eio_sid)
        if sock is not None:  # Socket.IO's disconnect handlers run now
            sock.close(wait=False, abort=True, reason=eio.reason.SERVER_DISCONNECT)
        sever = environ.get(SEVER)
        if sever is not None:  # the websocket itself, at once (web/websocket.py)
            sever()

    def closed(eio_sid: str, *reason: Any) -> None:
        budget.forget(eio_sid)
        exempt.pop(eio_sid, None)
        leave(eio_sid, *reason)

    leave: Callable[..., None] = eio.handlers["disconnect"]
    eio.on("message", counted)
    eio.on("disconnect", closed)


EVENT_HOLD_OFF_SECONDS = 10


def connections(app: Flask) -> ConnectionCaps:
    limits: ConnectionCaps = app.extensions["dealer_assist.connections"]
    return limits


def address() -> str:
    return request.remote_addr or "unknown"


def note_dealer() -> None:
    """This request showed a valid dealer token: its address keeps room among the
    connections however many a guest holds."""
    connections(current_app).mark_dealer(address())


def wait_for(name: str) -> int:
    """0 if this client address may go on now, else the seconds it must wait; the server's
    own machine and the addresses that showed a dealer token never wait."""
    here = address()
    if is_loopback(here) or connections(current_app).is_dealer(here):
        return 0
    limit: RateLimit = current_app.extensions[name]
    return limit.take(here)


def join_wait() -> int:
    return wait_for("dealer_assist.join_limit")


def create_wait() -> int:
    return wait_for("dealer_assist.create_limit")


DISMISSED = "dealer_assist.dismissed"


def dismiss(sid: str) -> bool:
    """Note that this connection is being disconnected for its joins: True the first time.
    Its events still on their way are dropped unanswered (one sentence was enough)."""
    dismissed: dict[str, None] = current_app.extensions.setdefault(DISMISSED, {})
    if sid in dismissed:
        return False
    dismissed[sid] = None
    while len(dismissed) > MAX_DISMISSED:  # the oldest first: dicts keep their order
        dismissed.pop(next(iter(dismissed)))
    return True


def dismissed(sid: str) -> bool:
    return sid in current_app.extensions.get(DISMISSED, {})


def forget(sid: str) -> None:
    current_app.extensions.get(DISMISSED, {}).pop(sid, None)


MAX_DISMISSED = 10_000


def too_many_joins(seconds: int) -> str:
    return f"Too many joins from this device: wait {seconds} seconds, then reload the page."


def too_many_tables(seconds: int) -> str:
    return f"Too many new tables from this device: wait {seconds} seconds, then try again."
