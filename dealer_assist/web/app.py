"""The Flask application: ``create_app`` wires storage, the API, the pages and Socket.IO.

>>> app = create_app(db_path="tables.db", testing=True)  # doctest: +SKIP
>>> socketio = get_socketio(app)  # doctest: +SKIP
"""

from __future__ import annotations

import ipaddress
import logging
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, g, jsonify, request
from flask.typing import ResponseReturnValue
from flask_socketio import SocketIO
from sqlite_utils import Database
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from dealer_assist.services import storage
from dealer_assist.services.auth import FAILURE_WINDOW_SECONDS, MAX_FAILURES, FailureThrottle
from dealer_assist.web.host import is_own_host
from dealer_assist.web.json_codec import FastJSONProvider, SocketJSON

MAX_BODY_BYTES = 64 * 1024

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'"
)

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # dealer_assist/


def asset_dir(name: str) -> Path:
    """``templates`` or ``static``: inside the package in an installed wheel, beside it (the
    repository's top-level folders) in a source checkout or an editable install."""
    for candidate in (PACKAGE_DIR / name, PACKAGE_DIR.parent / name):
        if candidate.is_dir():
            return candidate
    return PACKAGE_DIR / name


def create_app(
    db_path: str | Path | None = None, *, testing: bool = False,
    config: dict[str, Any] | None = None, message_queue: str | None = None,
) -> Flask:
    """The app, its database at ``db_path`` (made and migrated here) and its SocketIO
    instance (:func:`get_socketio`). ``message_queue`` (``redis://HOST:PORT``) makes this one
    of several processes on one database: Flask-SocketIO's Redis message queue carries every
    state to the clients of every process (docs/deployment.md)."""
    app = Flask(
        __name__,
        template_folder=str(asset_dir("templates")),
        static_folder=str(asset_dir("static")),
        static_url_path="/static",
    )
    app.config.update(
        DATABASE=str(db_path) if db_path is not None else None,
        TESTING=testing,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        PUBLIC_URL=None,  # e.g. "http://192.168.1.20:5000": the base of join and dealer URLs
        LAN_URL=None,  # used instead of a loopback address the page was opened on
        TOKEN_FAILURES=MAX_FAILURES,  # wrong dealer tokens from one address ...
        TOKEN_FAILURE_WINDOW=FAILURE_WINDOW_SECONDS,  # ... in this many seconds: then 429
        PROXY_HOPS=0,  # reverse proxies in front whose X-Forwarded-For/-Proto are trusted
        HOST_KEY=None,  # who makes tables (web/host.py); None: the database's own key
        MAX_DB_BYTES=2 * 1024**3,  # the database file grows no further (a sentence when full)
        NEW_TABLE_ROOM=0.9,  # new tables and imports stop at this share of it: room to play on
    )
    if config:
        app.config.update(config)
    if not app.config["DATABASE"]:
        raise ValueError("create_app needs db_path: the SQLite file that keeps the tables.")
    app.json = FastJSONProvider(app)  # orjson: the state's own key order, compact
    storage.init_db(app.config["DATABASE"])
    app.extensions["dealer_assist.store"] = storage.TableStore()
    app.extensions["dealer_assist.pool"] = storage.ConnectionPool(
        app.config["DATABASE"], max_bytes=app.config.get("MAX_DB_BYTES"))
    app.extensions["dealer_assist.throttle"] = FailureThrottle(
        app.config["TOKEN_FAILURES"], app.config["TOKEN_FAILURE_WINDOW"])

    from dealer_assist.web.api import bp as api_bp
    from dealer_assist.web.live import register_events
    from dealer_assist.web.pages import bp as pages_bp

    app.register_blueprint(api_bp)
    app.register_blueprint(pages_bp)
    from dealer_assist.web.history_api import bp as history_bp  # issue 4: history, ledger, export

    app.register_blueprint(history_bp)
    from dealer_assist.web.host import install as install_host  # issue 14: the host key

    install_host(app)
    app.teardown_appcontext(close_db)
    app.after_request(security_headers)
    app.register_error_handler(HTTPException, http_error)

    options: dict[str, Any] = {}
    if message_queue:
        from dealer_assist.web.live import QueueManager

        options["client_manager"] = QueueManager(message_queue)
    socketio = SocketIO(app, async_mode="threading", max_http_buffer_size=MAX_BODY_BYTES,
                        json=SocketJSON, **options)
    app.extensions["dealer_assist.socketio"] = socketio
    from dealer_assist.web.limits import install as install_limits  # issue 14: caps

    install_limits(app, socketio)
    trust_proxies(app, int(app.config["PROXY_HOPS"]))
    register_events(socketio)
    if message_queue:
        from dealer_assist.web.live import listen_to_queue

        listen_to_queue(app)
    return app


def trust_proxies(app: Flask, hops: int) -> None:
    """Behind ``hops`` reverse proxies (nginx in docs/deployment.md), take the client's
    address and scheme from their X-Forwarded-For and X-Forwarded-Proto: otherwise every
    phone and tablet is the proxy's 127.0.0.1, and a few wrong tokens from anyone would lock
    the real dealer out (auth.FailureThrottle counts per address). Wrapped outside the
    Socket.IO middleware, so a ``join`` sees the same address as an HTTP request. Never set
    without a proxy: a client could then write its own address."""
    if hops < 0:
        raise ValueError(f"PROXY_HOPS must be 0 or more, not {hops}.")
    if hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops)


def get_socketio(app: Flask) -> SocketIO:
    return app.extensions["dealer_assist.socketio"]


def get_store() -> storage.TableStore:
    return current_app.extensions["dealer_assist.store"]


def get_throttle() -> FailureThrottle:
    """This process's count of wrong dealer tokens per client address."""
    return current_app.extensions["dealer_assist.throttle"]


def get_db() -> Database:
    """This request's (or Socket.IO event's) connection, from the app's pool, given back at
    teardown (:class:`storage.ConnectionPool`: not closed, which would cost a checkpoint)."""
    if "db" not in g:
        g.db = current_app.extensions["dealer_assist.pool"].get()
    return g.db


def pay_owed_sync() -> None:
    """Run the fsync that an action's commit left owed (``api.take_action``), once.

    ``live.broadcast`` calls it right after the phones' emit: the request thread then waits
    on the disk with the GIL released, so the engine.io writer threads send the phones'
    frames at once, instead of waiting for the dealer's state and answer to be built
    (docs/benchmarks.md, "Live fan-out"). Teardown calls it too, for a request that
    broadcast nothing."""
    if g.pop("sync_owed", False):
        try:
            storage.sync_log(current_app.config["DATABASE"])
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
        current_app.extensions["dealer_assist.pool"].put(db)


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


def security_headers(response: Response) -> Response:
    if "Authorization" in request.headers:  # a dealer's (or the host's) view: never cached
        response.headers["Cache-Control"] = "no-store"
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if response.mimetype in ("text/html", "image/svg+xml"):
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    return response


ERROR_SENTENCES = {
    400: "The request could not be read.",
    404: "There is nothing at this address.",
    405: "This address does not take that method.",
    413: f"The request is too large: a body has at most {MAX_BODY_BYTES // 1024} KB.",
    500: "Something went wrong on the server; nothing was changed. Try again.",
}


def http_error(err: HTTPException) -> ResponseReturnValue:
    """Errors under /api, and every body-too-large, answer JSON with a sentence."""
    code = err.code or 500
    if request.path.startswith("/api/") or code == 413:
        return jsonify(error=ERROR_SENTENCES.get(code, err.description or "Error.")), code
    return err
