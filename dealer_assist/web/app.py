"""The Flask application: ``create_app`` wires storage, the API, the pages and Socket.IO.

>>> app = create_app(db_path="tables.db", testing=True)  # doctest: +SKIP
>>> socketio = get_socketio(app)  # doctest: +SKIP

The blueprints never import this module: what they share (the database connection, the
store, SocketIO) they reach through :mod:`dealer_assist.web.extensions`.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import Flask, request
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wrappers import Response

from dealer_assist.services import storage
from dealer_assist.services.auth import FAILURE_WINDOW_SECONDS, MAX_FAILURES
from dealer_assist.web.api import bp as api_bp
from dealer_assist.web.broadcast import send_same_seq
from dealer_assist.web.compress import install as install_compression
from dealer_assist.web.damaged import install as install_damaged
from dealer_assist.web.equity_later import install as install_equity
from dealer_assist.web.errors import ApiError, error_answer
from dealer_assist.web.extensions import (
    MAX_BODY_BYTES,
    get_db,
    get_socketio,
    get_tournaments,
    init_extensions,
    init_socketio,
)
from dealer_assist.web.guest_caps import install as install_guest_caps
from dealer_assist.web.history_api import bp as history_bp
from dealer_assist.web.host import install as install_host
from dealer_assist.web.json_codec import FastJSONProvider
from dealer_assist.web.pages import bp as pages_bp
from dealer_assist.web.phh_api import bp as phh_bp
from dealer_assist.web.reads import install as install_reads
from dealer_assist.web.redis_queue import QueueManager
from dealer_assist.web.socket_events import follow_queue, register_events
from dealer_assist.web.tournament_host import bp as tournament_host_bp
from dealer_assist.web.tournaments import bp as tournaments_bp

# the factory only wires; what the blueprints share is in extensions (re-exported for callers)
__all__ = ["MAX_BODY_BYTES", "create_app", "get_db", "get_socketio"]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    # the tablet's keep-awake video (static/js/awake.js) is NoSleep.js's data: URI
    "media-src data:; connect-src 'self' ws: wss:; frame-ancestors 'none'"
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
        raise ValueError("create_app needs db_path: the SQLite file (or postgresql:// URL) that "
                         "keeps the tables.")
    app.json = FastJSONProvider(app)  # orjson: the state's own key order, compact
    storage.init_db(app.config["DATABASE"])
    init_extensions(app)
    install_compression(app)  # gzip, to a browser that asks; the last hook to run
    install_damaged(app)  # every table read back: a damaged one is said, never a 500
    app.register_blueprint(api_bp)
    app.register_blueprint(tournaments_bp)
    app.register_blueprint(tournament_host_bp)  # the editor's reads, the host's page
    app.register_blueprint(pages_bp)
    app.register_blueprint(history_bp)
    app.register_blueprint(phh_bp)
    install_host(app)
    install_reads(app)  # issue 32: what anyone reads, in a pool of its own, bounded
    install_equity(app, send_same_seq)  # issue 32: costly R67 chances follow in a later state
    app.after_request(security_headers)
    app.register_error_handler(ApiError, error_answer)
    app.register_error_handler(HTTPException, error_answer)
    app.register_error_handler(storage.StorageUnavailable, error_answer)

    options: dict[str, Any] = {}
    if message_queue:
        options["client_manager"] = QueueManager(message_queue)
    socketio = init_socketio(app, **options)
    install_guest_caps(app, socketio)  # issue 14: caps on connections and send queues
    trust_proxies(app, int(app.config["PROXY_HOPS"]))
    register_events(socketio)
    if message_queue:
        follow_queue(app)
    keep_tournament_clocks(app)
    return app


def keep_tournament_clocks(app: Flask) -> None:
    """R90: at start, every running tournament clock takes the time the server was down as
    paused; then, with ``TOURNAMENT_HEARTBEAT`` (seconds; ``dealer-assist serve`` sets it),
    the server notes that it is up that often, so the next start knows when it went down."""
    try:
        with app.app_context():
            get_tournaments().recover(get_db())
    except Exception:  # a damaged database is said on its pages (web/damaged.py), not here
        logging.getLogger("dealer_assist.tournaments").exception(
            "The tournaments' clocks could not be brought back.")
    beat = app.config.get("TOURNAMENT_HEARTBEAT")
    if not beat:
        return

    def heartbeat() -> None:
        socketio = get_socketio(app)
        while True:
            socketio.sleep(float(beat))
            try:
                with app.app_context():
                    get_tournaments().mark_alive(get_db())
            except Exception:  # a database away for a moment: the next beat tries again
                continue

    get_socketio(app).start_background_task(heartbeat)


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


def security_headers(response: Response) -> Response:
    if "Authorization" in request.headers:  # a dealer's (or the host's) view: never cached
        response.headers["Cache-Control"] = "no-store"
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    if response.mimetype in ("text/html", "image/svg+xml"):
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    return response
