"""``dealer-assist serve`` (and ``dealer-assist`` alone): the app on gevent's server
(web/server.py), the banner, mDNS.

gevent first: :func:`run` monkey-patches the standard library (sockets, locks, ``time.sleep``,
``select``) before anything else is imported, so that Redis's, PostgreSQL's and zeroconf's
waits, and the app's own locks, yield to the other connections instead of blocking them;
what cannot yield (SQLite, the warm-up) runs in gevent's native threads (web/off_loop.py).
This module imports nothing heavy at its top for that reason.
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from dealer_assist.web.mdns import Advert

EXIT_DATABASE = 3  # the database cannot be read, written or trusted (storage.database_problem)


def argument_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with ``serve``'s arguments as given (a sentence), or None."""
    if not 0 < args.port < 65536:
        return f"the port must be from 1 to 65535, not {args.port}."
    if args.proxy_hops < 0:
        return f"--proxy-hops counts proxies: 0 or more, not {args.proxy_hops}."
    if args.message_queue and not args.message_queue.startswith(("redis://", "rediss://")):
        return (f"--message-queue takes a Redis address such as redis://127.0.0.1:6379, not "
                f"{args.message_queue!r}.")
    return None


def message_queue_problem(url: str) -> str | None:
    """Why ``--message-queue url`` cannot be used (a sentence), or None: the ``redis``
    package must be installed and the Redis at ``url`` must answer."""
    try:
        import redis
    except ImportError:
        return "--message-queue needs the redis package: pip install 'dealer-assist[redis]'."
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except (redis.RedisError, ValueError) as err:
        return f"the message queue at {url} does not answer: {err}"
    return None


def start_mdns(host: str, shown_host: str, port: int, no_mdns: bool) -> tuple[Advert, str | None]:
    """Announce dealer-assist.local where it helps: listening beyond loopback, asked for."""
    from dealer_assist.cli.banner import url_for_host
    from dealer_assist.web.mdns import Advert, advertise

    if no_mdns:
        return Advert(), None
    try:
        loopback = ipaddress.ip_address(shown_host).is_loopback
    except ValueError:  # a host name given to --host: phones already have a name
        return Advert(), None
    if loopback or ":" in shown_host:
        return Advert(), None
    advert = advertise(shown_host, port)
    return advert, (url_for_host(advert.name, port) if advert.name else None)


def serve(host: str, port: int, db_path: Path | str | None, out: TextIO = sys.stdout,
          message_queue: str | None = None, public_url: str | None = None,
          proxy_hops: int = 0, access_log: bool = False, no_mdns: bool = False,
          max_per_address: int | None = None) -> None:
    """Serve until stopped (under gevent: :func:`run` patched the process first)."""
    import logging

    from dealer_assist.cli.banner import announce, public_host, url_for_host
    from dealer_assist.cli.database_arg import database_target
    from dealer_assist.core import evaluator
    from dealer_assist.services import integrity, storage
    from dealer_assist.services.connection_caps import total_for_descriptors
    from dealer_assist.web import log_guard, off_loop, phh_api
    from dealer_assist.web.app import create_app
    from dealer_assist.web.damaged import damaged_tables
    from dealer_assist.web.extensions import MAX_BODY_BYTES, get_socketio
    from dealer_assist.web.guest_caps import connections
    from dealer_assist.web.history_api import IMPORT_PATH
    from dealer_assist.web.host import may_be_host
    from dealer_assist.web.imports import MAX_IMPORT_BYTES
    from dealer_assist.web.mdns import Advert
    from dealer_assist.web.server import GuardedServer, raise_descriptor_limit
    from dealer_assist.web.websocket import use_green_websockets

    log_guard.install()
    if off_loop.green():
        log_guard.guard_the_hub(logging.getLogger("dealer_assist.server"))
    db_path = database_target(db_path)
    problem = storage.database_problem(db_path) or integrity.refusal(db_path)
    if problem:
        raise storage.DatabaseUnusable(problem)
    shown_host = public_host(host)
    url = url_for_host(shown_host, port)
    config: dict[str, str | int] = (
        {"LAN_URL": url} if host in ("0.0.0.0", "::", "") else {"PUBLIC_URL": url})
    if public_url:
        url = public_url.rstrip("/")
        config = {"PUBLIC_URL": url}
    config["PROXY_HOPS"] = proxy_hops
    total = total_for_descriptors(raise_descriptor_limit())
    config["MAX_CONNECTIONS"] = total
    if max_per_address is not None:
        config["MAX_CONNECTIONS_PER_ADDRESS"] = max_per_address
    if proxy_hops:  # every connection comes from the proxy: only the total is counted here
        config["MAX_CONNECTIONS_PER_ADDRESS"] = total
    config["ASYNC_MODE"] = "gevent" if off_loop.green() else "threading"
    config["TOURNAMENT_HEARTBEAT"] = 5  # seconds: a restart's lost time is at most this (R90)
    app = create_app(db_path=db_path, config=config, message_queue=message_queue)
    if off_loop.green():
        use_green_websockets(get_socketio(app).server.eio)
    # The hand evaluator's tables fill while the dealer sets up, not at the first showdown;
    # then the start's objects leave the collector's full passes (freeze_start)
    off_loop.start(lambda: freeze_start(evaluator.warm_up), name="warm-up")

    imports = {IMPORT_PATH, phh_api.IMPORT_PATH}

    def largest_body(path: str, headers: Any, address: str) -> int:
        """What the server reads of a body before the app: 64 KB, an import's 4 MB when it
        may be the host's (web/host.py)."""
        if path in imports and may_be_host(app, address, headers.get("Authorization")):
            return MAX_IMPORT_BYTES
        return MAX_BODY_BYTES

    server = GuardedServer((host, port), app, connections(app), largest_body=largest_body,
                           access_log=access_log)
    server.init_socket()  # the port is taken now, or OSError before the banner
    advert, mdns_url = (Advert(), None) if public_url else start_mdns(
        host, shown_host, port, no_mdns)
    if advert.name:  # phones may open dealer-assist.local: one of this server's own names
        app.config["OWN_HOSTS"] = [advert.name]
    # every table was read back (web/damaged.py): a damaged one is said here, and on its pages
    extra = [f"Damaged: {damage.sentence}" for damage in damaged_tables(app).all()]
    if message_queue:
        shown = urlsplit(message_queue)
        if "@" in shown.netloc:  # never print a password
            shown = shown._replace(netloc="***@" + shown.netloc.rsplit("@", 1)[1])
        extra.append(f"Message queue: {urlunsplit(shown)}")
    announce(url, db_path, out, mdns_url, advert.problem, extra,
             host_key=app.extensions["dealer_assist.host_key"])
    try:
        server.serve_forever()
    finally:
        server.stop(timeout=1)
        advert.close()


SWITCH_INTERVAL = 0.0005  # seconds


def freeze_start(warm_up: Callable[[], object]) -> None:
    """``warm_up()``, then every object the server's start made (the app, its modules, the
    evaluator's tables) moved out of the cyclic collector's sight (``gc.freeze``). A full
    collection otherwise walks them all, 100-250 ms with the loop stopped on a busy machine,
    now and then in the middle of a fan-out to every phone: the app's p99 beyond the floor's
    (issue 32, docs/benchmarks.md). They live as long as the server anyway."""
    import gc

    warm_up()
    # no gc.collect() first: a full pass is what this avoids (250 ms of the loop's time,
    # maybe with phones already in); the start's few cycles of garbage stay
    gc.freeze()


def run(args: argparse.Namespace) -> int:
    """``serve``'s exit code: 0 when stopped, 2 for arguments it cannot use, 3 for a
    database it cannot use, 1 for the rest (a port taken...)."""
    problem = argument_problem(args)
    if problem:
        print(f"dealer-assist: {problem}", file=sys.stderr)
        return 2
    import gevent  # before anything imports what it patches (module docstring)
    from gevent import monkey

    monkey.patch_all()
    # where each greenlet was spawned from, kept for debuggers: 2-3 KiB a phone (issue 25)
    gevent.config.track_greenlet_tree = False
    # a native thread busy in Python (a guest's export, the equity) gives the interpreter's
    # lock back to the loop within this, not Python's 5 ms: the loop waits on it at every
    # hop of every request (issue 32, docs/benchmarks.md)
    sys.setswitchinterval(SWITCH_INTERVAL)
    from dealer_assist.services import storage

    if args.message_queue:
        problem = message_queue_problem(args.message_queue)
        if problem:
            print(f"dealer-assist: {problem}", file=sys.stderr)
            return 2
    try:
        serve(args.host, args.port, args.db, message_queue=args.message_queue,
              public_url=args.public_url, proxy_hops=args.proxy_hops,
              access_log=args.access_log, no_mdns=args.no_mdns,
              max_per_address=args.max_connections_per_address)
    except KeyboardInterrupt:
        return 0
    except storage.DatabaseUnusable as err:
        print(f"dealer-assist: {err}", file=sys.stderr)
        return EXIT_DATABASE
    except storage.StorageError as err:  # e.g. a read-only file system the checks missed
        print(f"dealer-assist: the database cannot be used: {err}. Give another --db.",
              file=sys.stderr)
        return EXIT_DATABASE
    except OSError as err:  # the port is taken, the database folder cannot be made...
        print(f"dealer-assist: {err}", file=sys.stderr)
        return 1
    return 0
