"""The host: the server's owner, who alone makes, imports and deletes tables (API.md "Tables").

A request is the host's when it carries ``Authorization: Bearer <host key>``, or when it comes
from the server's own machine (:func:`implied_host`). Everyone else gets a ``401`` with a
sentence on those three routes; reading and following tables stays open to anyone with a link.
The trust model is in docs/reliability.md ("Who may make a table").

Nothing here imports the app factory or the API's modules (they import this one): what it
needs of the app it takes from ``current_app``, and it answers its refusals itself.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, abort, current_app, jsonify, request
from flask.typing import ResponseReturnValue

from dealer_assist.services import host as host_service
from dealer_assist.services import storage
from dealer_assist.services.auth import FailureThrottle, bearer_token, throttled_sentence
from dealer_assist.web.guest_caps import create_wait, too_many_tables

bp = Blueprint("host", __name__)

# headers a reverse proxy adds: a loopback request carrying one came through a proxy that
# --proxy-hops does not know about, and the proxy's 127.0.0.1 is not the host
FORWARDING_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP")
# the body types a web page may POST to any server without asking it first (CORS "simple"
# requests): never accepted where a table is made, so no page a guest opens can make one
SIMPLE_BODY_TYPES = ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data")

NOT_HOST = ("Only the host makes, imports and deletes tables: open the host's link (the QR "
            "code dealer-assist prints at start) on this device, or send the host key "
            "(Authorization: Bearer <host key>).")
WRONG_KEY = "That is not this server's host key: scan the host's QR code again."


def install(app: Flask) -> None:
    """Keep the database's host key (or the one ``HOST_KEY`` gives) and serve the routes."""
    key = app.config.get("HOST_KEY")
    if not key:
        db = storage.connect(app.config["DATABASE"])
        try:
            key = host_service.host_key(db)
        finally:
            db.close()
    app.extensions["dealer_assist.host_key"] = key
    app.register_blueprint(bp)


def current_key() -> str:
    return str(current_app.extensions["dealer_assist.host_key"])


def may_be_host(app: Flask, address: str, authorization: str | None) -> bool:
    """Before a request reaches the app (web/server.py, deciding how much of a body to read
    first): whether it could be the host's, from this machine or with the host key. The app
    still decides (:func:`require_host`)."""
    key = str(app.extensions["dealer_assist.host_key"])
    return is_loopback_address(address) or host_service.key_matches(
        bearer_token(authorization), key)


def refuse(status: int, sentence: str, retry_after: int | None = None) -> None:
    """Stop the request with ``{"error": sentence}``, as every refusal of the API."""
    response = jsonify({"error": sentence})
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="dealer-assist"'
    abort(response)


@contextmanager
def connection() -> Iterator[storage.Connection]:
    """A connection of the app's pool for the host's few requests."""
    pool: storage.ConnectionPool = current_app.extensions["dealer_assist.pool"]
    db = pool.get()
    try:
        yield db
    finally:
        pool.put(db)


def is_loopback_address(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False


def own_host_names() -> set[str]:
    """The names and addresses this server answers as: loopback, ``OWN_HOSTS`` (the mDNS
    name), and the hosts of ``PUBLIC_URL`` and ``LAN_URL`` (what the CLI found or was given)."""
    names = {"localhost", "127.0.0.1", "::1",
             *(str(n).lower() for n in current_app.config.get("OWN_HOSTS") or ())}
    for key in ("PUBLIC_URL", "LAN_URL"):
        url = current_app.config.get(key)
        if url:
            names.add((urlsplit(str(url)).hostname or "").lower())
    return names


def is_own_host(host: str) -> bool:
    """Whether a Host header (name or address, maybe a port) names this server: a page of
    another site that a DNS trick points at this machine sends its own name, not one of ours."""
    name = (urlsplit(f"//{host}").hostname or "").lower()
    return name in own_host_names() or is_loopback_address(name)


def same_origin() -> bool:
    """No ``Origin`` (not a browser's cross-site request), or the very origin of this server."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == request.host.lower()


def implied_host() -> bool:
    """The server's own machine is the host without a key: a loopback client, straight to
    this process, naming this server. Behind ``--proxy-hops N`` proxies it is the address
    they forward that counts (the proxy's own loopback connection never does): a request
    whose forwarded chain is shorter than N came from the proxy's machine, not through it."""
    if not is_loopback_address(request.remote_addr):
        return False
    hops = int(current_app.config.get("PROXY_HOPS") or 0)
    if hops == 0:
        if any(name in request.headers for name in FORWARDING_HEADERS):
            return False
    else:
        # ProxyFix leaves the address the proxy connected from when the chain is short
        chain = [part for part in request.headers.get("X-Forwarded-For", "").split(",")
                 if part.strip()]
        if len(chain) < hops:
            return False
    return is_own_host(request.host) and same_origin()


def host_status() -> bool:
    """Whether this request is the host's; a wrong key from elsewhere is a 401 (throttled
    like a wrong dealer token)."""
    header = request.headers.get("Authorization")
    if implied_host():
        return True
    if header is None:
        return False
    throttle: FailureThrottle = current_app.extensions["dealer_assist.throttle"]
    address = request.remote_addr or "unknown"
    wait = throttle.retry_after(address)
    if wait:
        refuse(429, throttled_sentence(wait), retry_after=wait)
    if not host_service.key_matches(bearer_token(header), current_key()):
        throttle.fail(address, "(host key)")
        refuse(401, WRONG_KEY)
    return True


def require_host() -> None:
    """For the routes that make, import or delete a table: the host, asking in JSON from this
    server's own pages, or a 401 (403, 415) with a sentence."""
    if not same_origin():
        refuse(403, "A page of another site cannot make or change tables here.")
    if request.method == "POST" and request.mimetype in SIMPLE_BODY_TYPES:
        refuse(415, "Send the table as JSON (Content-Type: application/json).")
    if not host_status():
        refuse(401, NOT_HOST)
    if request.method == "POST":
        wait = create_wait()
        if wait:
            refuse(429, too_many_tables(wait), retry_after=wait)
        problem = room_problem()
        if problem:
            refuse(507, problem)


MIN_FREE_DISK_BYTES = 64 * 1024 * 1024  # new tables stop here: the tables in play keep room


def full_sentence() -> str:
    return ("The server's database is full: nothing was changed. The host deletes old tables "
            "on the home page to make room.")


def room_problem() -> str | None:
    """Why no new table fits (a sentence), or None: the database near its cap
    (``MAX_DB_BYTES`` x ``NEW_TABLE_ROOM``) or the disk nearly full. A SQLite file's: a
    PostgreSQL server's room is its own administrator's to watch."""
    if storage.is_url(current_app.config["DATABASE"]):
        return None
    cap = current_app.config.get("MAX_DB_BYTES")
    if cap:
        with connection() as db:
            size = storage.size_bytes(db)
        if size >= cap * float(current_app.config.get("NEW_TABLE_ROOM", 0.9)):
            return (f"The server's database is full ({size // 2**20} MB of {cap // 2**20} MB"
                    "): the host deletes old tables on the home page to make room.")
    folder = os.path.dirname(os.path.abspath(current_app.config["DATABASE"]))
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return None
    if free < MIN_FREE_DISK_BYTES:
        return (f"The server's disk is nearly full ({free // 2**20} MB free): the host deletes "
                "old tables on the home page, or frees space on the disk.")
    return None


@bp.get("/api/host")
def host_info() -> ResponseReturnValue:
    """``{"host": bool, "implied": bool}``, and for the host every table's size."""
    host = host_status()
    out: dict[str, Any] = {"host": host, "implied": host and implied_host()}
    if host:
        with connection() as db:
            out["sizes"] = host_service.table_sizes(db)
    response = jsonify(out)
    response.headers["Cache-Control"] = "no-store"
    return response

