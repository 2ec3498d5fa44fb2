"""What the blueprints and the socket events share, reached through ``current_app`` (flaskr's
``db.py`` pattern): the app's SocketIO, the store, the database connection of this request,
the token throttle, and the base URL phones reach. The factory (:mod:`dealer_assist.web.app`)
fills them in; nothing here imports the factory or a blueprint, so no blueprint does either.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any, cast
from urllib.parse import urlsplit

from flask import Flask, current_app, g, request
from flask_socketio import SocketIO

from dealer_assist.services import storage, tables, tournaments
from dealer_assist.services.auth import FailureThrottle
from dealer_assist.web import off_loop
from dealer_assist.web.host import is_own_host
from dealer_assist.web.json_codec import JSONPacket, SocketJSON

MAX_BODY_BYTES = 64 * 1024

SOCKETIO = "dealer_assist.socketio"
STORE = "dealer_assist.store"
POOL = "dealer_assist.pool"
THROTTLE = "dealer_assist.throttle"
TOURNAMENTS = "dealer_assist.tournaments"


def init_extensions(app: Flask) -> None:
    """The store, the connection pool and the throttle of a new app (its config is set)."""
    app.extensions[STORE] = tables.TableStore(run_blocking=off_loop.run)
    app.extensions[TOURNAMENTS] = tournaments.TournamentStore(app.extensions[STORE])
    app.extensions[POOL] = storage.ConnectionPool(
        app.config["DATABASE"], max_bytes=app.config.get("MAX_DB_BYTES"))
    app.extensions[THROTTLE] = FailureThrottle(
        app.config["TOKEN_FAILURES"], app.config["TOKEN_FAILURE_WINDOW"])
    app.teardown_appcontext(close_db)


def init_socketio(app: Flask, **options: Any) -> SocketIO:
    """The app's own SocketIO (``SocketIO(app)`` is ``init_app``). One per app rather than one
    per module: a test process runs many apps, each with its own clients and rooms."""
    # gevent under ``dealer-assist serve`` (cli/serve.py), threads for the tests' apps; the
    # two libraries log through the app's loggers, whose handler keeps repeats to a line a
    # minute (web/log_guard.py)
    socketio = SocketIO(app, async_mode=app.config.get("ASYNC_MODE", "threading"),
                        max_http_buffer_size=MAX_BODY_BYTES, json=SocketJSON,
                        serializer=JSONPacket,
                        manage_session=False,  # no Flask session: no copy of it per phone
                        logger=quiet_logger("dealer_assist.socketio"),
                        engineio_logger=quiet_logger("dealer_assist.engineio"), **options)
    app.extensions[SOCKETIO] = socketio
    return socketio


def quiet_logger(name: str) -> logging.Logger:
    """A logger for Socket.IO or Engine.IO that writes their errors, not their chatter (one
    line per packet at INFO)."""
    logger = logging.getLogger(name)
    logger.setLevel(logging.WARNING)
    return logger


def get_socketio(app: Flask | None = None) -> SocketIO:
    """``app``'s SocketIO, or the current app's."""
    found = (app if app is not None else current_app).extensions[SOCKETIO]
    return cast(SocketIO, found)


def get_store() -> tables.TableStore:
    return cast(tables.TableStore, current_app.extensions[STORE])


def get_throttle() -> FailureThrottle:
    """This process's count of wrong dealer tokens per client address."""
    return cast(FailureThrottle, current_app.extensions[THROTTLE])


def get_tournaments() -> tournaments.TournamentStore:
    return cast(tournaments.TournamentStore, current_app.extensions[TOURNAMENTS])


def get_db() -> storage.Connection:
    """This request's (or Socket.IO event's) connection, from the app's pool, given back at
    teardown (:class:`storage.ConnectionPool`: not closed, which would cost a checkpoint)."""
    if "db" not in g:
        g.db = current_app.extensions[POOL].get()
    return cast(storage.Connection, g.db)


def pay_owed_sync() -> None:
    """Run the fsync that an action's commit left owed (``acting.take_action``), once.

    ``broadcast.broadcast`` calls it right after the phones' emit: the request thread then waits
    on the disk with the GIL released, so the engine.io writer threads send the phones'
    frames at once, instead of waiting for the dealer's state and answer to be built
    (docs/benchmarks.md, "Live fan-out"). Teardown calls it too, for a request that
    broadcast nothing."""
    if g.pop("sync_owed", False):
        try:  # off the event loop: the disk may take a while (web/off_loop.py)
            off_loop.run(storage.sync_log, current_app.config["DATABASE"])
        except OSError as err:  # e.g. EMFILE: the COMMIT returned, so the action stands
            logging.getLogger("dealer_assist.storage").warning(
                "The log's fsync after a commit failed (%s): the action is stored, and on disk "
                "once the system writes it out.", err)


def close_db(_exc: BaseException | None = None) -> None:
    """Teardown: first any fsync still owed (:func:`pay_owed_sync`), then the connection
    back to the pool. Teardown runs after the handler and before Werkzeug writes the answer
    or Socket.IO sends the acknowledgement, so an answered action is on disk."""
    pay_owed_sync()
    db = g.pop("db", None)
    if db is not None:
        current_app.extensions[POOL].put(db)


def base_url() -> str:
    """Where phones reach this server: ``PUBLIC_URL`` if set, else the address this request
    came to if it is one of this server's own (web/host.py ``is_own_host``), except that a
    loopback address (the host's own browser) is swapped for the LAN address the CLI found,
    which phones can reach."""
    public = current_app.config.get("PUBLIC_URL")
    if public:
        return str(public).rstrip("/")
    base = request.host_url.rstrip("/")
    lan = current_app.config.get("LAN_URL")
    if lan and (is_loopback(request.host) or not is_own_host(request.host)):
        # a Host this server does not answer as (a DNS-rebinding page's name) never makes a
        # join link, a dealer link or a QR code: the server's own address does
        return str(lan).rstrip("/")
    return base


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a Host header: name or address, maybe a port) is this machine."""
    name = urlsplit(f"//{host}").hostname or ""
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
