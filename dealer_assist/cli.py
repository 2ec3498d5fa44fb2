"""``dealer-assist``: serve the app on the local network.

``dealer-assist`` alone is ``dealer-assist serve`` with the defaults: every address of this
machine, port 5000, and the database in the user's data folder. On start it prints a short
banner (:func:`banner_lines`: the address phones open, ``dealer-assist.local`` beside it when
mDNS works, a QR code of it, where the database is, how the dealer gets back in) and then
nothing more: no development-server warning, and no line per request unless ``--access-log``.

Beside it, on the same database, while the server runs: ``dealer-assist tables`` lists the
tables, ``dealer-assist pair TABLE`` prints a pairing code that lets a device in as TABLE's
dealer (R75), and ``dealer-assist backup FILE`` writes a consistent copy of the database.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import socket
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

from platformdirs import user_data_dir
from werkzeug.serving import ThreadedWSGIServer, WSGIRequestHandler

from dealer_assist.core import evaluator
from dealer_assist.services import storage
from dealer_assist.services.connection_caps import ConnectionCaps, total_for_descriptors
from dealer_assist.web.mdns import Advert, advertise
from dealer_assist.web.qr import print_qr

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 5000
DB_NAME = "dealer-assist.db"
EXIT_DATABASE = 3  # the database cannot be read, written or trusted (storage.database_problem)


def default_db() -> Path:
    return Path(user_data_dir("dealer-assist", appauthor=False)) / DB_NAME


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dealer-assist",
        description="Run live poker-variant home games from a tablet; players follow on "
                    "their phones.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the app (the default command)")
    serve.add_argument("--host", default=DEFAULT_HOST,
                       help=f"address to listen on (default {DEFAULT_HOST}: every address)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT,
                       help=f"port (default {DEFAULT_PORT})")
    serve.add_argument("--db", type=database_arg, default=None, metavar="FILE|URL",
                       help=f"the SQLite file that keeps every table (default {default_db()}),"
                            " or a PostgreSQL database: postgresql://USER@HOST/DB "
                            "(pip install 'dealer-assist[postgres]'; docs/deployment.md)")
    serve.add_argument("--message-queue", metavar="redis://HOST:PORT", default=None,
                       help="run as one of several processes on one database: live updates "
                            "go through this Redis (docs/deployment.md)")
    serve.add_argument("--public-url", metavar="URL", default=None,
                       help="the address phones open, when it is not this process's own "
                            "(behind a proxy: e.g. https://cards.example.org)")
    serve.add_argument("--proxy-hops", type=int, default=0, metavar="N",
                       help="trust the client address and scheme that N reverse proxies in "
                            "front pass on (X-Forwarded-For/-Proto; 1 behind the nginx of "
                            "docs/deployment.md). Without a proxy leave it at 0: clients could "
                            "then write their own address")
    serve.add_argument("--max-connections-per-address", type=int, default=None, metavar="N",
                       help="open connections one client address may hold (default 32; "
                            "the total follows the open-file limit, with room kept for "
                            "dealers' tablets)")
    serve.add_argument("--access-log", action="store_true",
                       help="print a line for every request (off by default: the banner stays "
                            "on screen)")
    serve.add_argument("--no-mdns", action="store_true",
                       default=os.environ.get("DEALER_ASSIST_NO_MDNS", "") not in ("", "0"),
                       help="do not announce dealer-assist.local on the local network (mDNS; "
                            "also DEALER_ASSIST_NO_MDNS=1)")
    db_help = f"the database file or postgresql:// URL (default {default_db()}, as serve uses)"
    tables = commands.add_parser("tables", help="list the tables this database keeps, to "
                                               "find the TABLE that pair takes")
    tables.add_argument("--db", type=database_arg, default=None, metavar="FILE|URL",
                       help=db_help)
    pair = commands.add_parser(
        "pair", help="print a pairing code that lets a device in as a table's dealer (R75); "
                     "works while the server runs")
    pair.add_argument("table", metavar="TABLE",
                      help="the table's id or name (dealer-assist tables lists them)")
    pair.add_argument("--db", type=database_arg, default=None, metavar="FILE|URL",
                       help=db_help)
    backup = commands.add_parser(
        "backup", help="write a consistent copy of the database to FILE, while the server "
                       "runs (README: restoring it)")
    backup.add_argument("file", metavar="FILE", type=Path, help="where the copy goes")
    backup.add_argument("--db", type=database_arg, default=None, metavar="FILE|URL",
                       help=db_help)
    return parser


COMMANDS = ("serve", "tables", "pair", "backup")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """``dealer-assist [--host H ...]`` is ``dealer-assist serve [--host H ...]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in (*COMMANDS, "-h", "--help"):
        args.insert(0, "serve")
    return build_parser().parse_args(args)


def lan_address() -> str:
    """This machine's address on the local network, found without sending anything: a UDP
    socket's ``connect`` only picks the route (no packet leaves); failing that, the host
    name's address; failing that, loopback."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address: str = probe.getsockname()[0]
        if address and not ipaddress.ip_address(address).is_unspecified:
            return address
    except OSError:
        pass
    finally:
        probe.close()
    try:
        address = socket.gethostbyname(socket.gethostname())
        if address:
            return address
    except OSError:
        pass
    return "127.0.0.1"


def public_host(host: str) -> str:
    """The address to show for ``--host``: the LAN address when listening on every one."""
    if host in ("0.0.0.0", "::", ""):
        return lan_address()
    return host


def url_for_host(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def database_arg(text: str) -> Path | str:
    """``--db``: a ``postgresql://`` (or ``postgres://``) URL as given, anything else a file."""
    return text if storage.is_url(text) else Path(text)


def database_target(db: Path | str | None) -> Path | str:
    """Where the tables are: the URL, or the file (the default one if none is given)."""
    if isinstance(db, str):
        return db
    return (db or default_db()).expanduser().resolve()


def banner_lines(url: str, db_path: Path | str, mdns_url: str | None = None,
                 mdns_problem: str | None = None, extra: Sequence[str] = ()) -> list[str]:
    """The banner's lines after the QR code, one fact each (add new ones here; ``extra``
    comes after the database)."""
    also = f" (or {mdns_url}/)" if mdns_url else ""
    lines = [f"Address: {url}/{also}", f"Database: {storage.shown_target(db_path)}", *extra]
    if mdns_problem:
        lines.append(f"Name: {mdns_problem} Use the address above.")
    lines += [
        "Dealer: the tablet that made a table keeps its dealer key; on it, open the address "
        "above and pick the table's tablet link to get back in.",
        "Another dealer device, or a lost tablet: run 'dealer-assist pair TABLE' on this "
        "machine for a code ('dealer-assist tables' lists them).",
        "Stop with Ctrl+C.",
    ]
    return lines


def host_link(url: str, key: str) -> str:
    """The link that signs a browser in as the host: the key in the ``#fragment``, which
    browsers never send to a server (the page keeps it, as a dealer token)."""
    return f"{url}/#host={key}"


def announce(url: str, db_path: Path | str, out: TextIO, mdns_url: str | None = None,
             mdns_problem: str | None = None, extra: Sequence[str] = (),
             host_key: str | None = None) -> None:
    out.write(f"Dealer Assist is running. Open {url}/ on the tablet; players scan:\n")
    print_qr(url + "/", out)
    if host_key:
        out.write("Host: scan this on the tablet that makes and deletes tables (this machine "
                  "needs no key; never show it to the players):\n")
        print_qr(host_link(url, host_key), out)
        extra = [f"Host key: {host_key} ({host_link(url, host_key)})", *extra]
    for line in banner_lines(url, db_path, mdns_url, mdns_problem, extra):
        out.write(line + "\n")
    out.flush()


# a connection that sends nothing (nor reads what it is sent) for this long is closed: longer
# than Engine.IO's ping interval plus its timeout (25 + 20 s), so a live phone never is
CONNECTION_TIMEOUT_SECONDS = 60


class LimitedWSGIServer(ThreadedWSGIServer):
    """Werkzeug's threaded server, counting open connections per client address and in all
    (:class:`dealer_assist.services.connection_caps.ConnectionCaps`) before giving one a thread: a
    connection over the caps gets a ``503`` with a sentence and is closed at once, so a guest
    holding thousands of sockets neither runs the process out of descriptors nor locks out a
    tablet that showed its dealer token (it has room kept)."""

    def __init__(self, host: str, port: int, app: Any, limits: ConnectionCaps,
                 handler: type[WSGIRequestHandler]) -> None:
        super().__init__(host, port, app, handler=handler)
        self.limits = limits
        self._admitted: dict[int, str] = {}

    def process_request(self, request: Any, client_address: Any) -> None:
        address = str(client_address[0]) if client_address else "unknown"
        if not self.limits.admit(address):
            refuse_connection(request)
            return
        self._admitted[id(request)] = address
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        address = self._admitted.pop(id(request), None)
        try:
            super().shutdown_request(request)
        finally:
            if address is not None:
                self.limits.release(address)


FULL_SENTENCE = ("This server has too many connections open, from this device or in all: close "
                 "a few pages and try again.")


def refuse_connection(request: socket.socket) -> None:
    """A 503 with the sentence, best effort (the client may not read), then close."""
    body = ('{"error": "' + FULL_SENTENCE + '"}').encode()
    head = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n")
    try:
        request.settimeout(0.2)
        request.sendall(head.encode() + body)
        request.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        request.close()


def raise_descriptor_limit() -> int:
    """Lift this process's soft limit on open files to its hard limit (``ulimit -n`` is often
    1024 while the hard limit is far higher); returns the soft limit now in force."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return 8192
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft) if soft != resource.RLIM_INFINITY else 65536


class PlainRequestHandler(WSGIRequestHandler):
    """Werkzeug's line per request without its terminal colours, so the line reads the same
    on a terminal, in a pipe and in a log file."""

    timeout = CONNECTION_TIMEOUT_SECONDS

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        self.log("info", '"%s" %s %s', self.requestline, str(code), str(size))


class QuietRequestHandler(WSGIRequestHandler):
    """Werkzeug's handler, without its line per request (errors are still logged)."""

    timeout = CONNECTION_TIMEOUT_SECONDS

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


def start_mdns(host: str, shown_host: str, port: int, no_mdns: bool) -> tuple[Advert, str | None]:
    """Announce dealer-assist.local where it helps: listening beyond loopback, asked for."""
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


def message_queue_problem(url: str) -> str | None:
    """Why ``--message-queue url`` cannot be used (a sentence), or None: it must be a
    ``redis://`` (or ``rediss://``) address of a Redis that answers, with the ``redis``
    package installed."""
    if not url.startswith(("redis://", "rediss://")):
        return f"--message-queue takes a Redis address such as redis://127.0.0.1:6379, not {url!r}."
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


def serve(host: str, port: int, db_path: Path | str | None, out: TextIO = sys.stdout,
          message_queue: str | None = None, public_url: str | None = None,
          proxy_hops: int = 0, access_log: bool = False, no_mdns: bool = False,
          max_per_address: int | None = None) -> None:
    from dealer_assist.web.app import create_app
    from dealer_assist.web.guest_caps import connections

    db_path = database_target(db_path)
    problem = storage.database_problem(db_path)
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
    app = create_app(db_path=db_path, config=config, message_queue=message_queue)
    # The hand evaluator's tables fill while the dealer sets up, not at the first showdown.
    threading.Thread(target=evaluator.warm_up, name="warm-up", daemon=True).start()
    # Werkzeug's development server, made directly: it prints no warning and no start lines
    # (the banner says it all), and its per-request lines only with --access-log.
    server = LimitedWSGIServer(host, port, app, connections(app),
                               PlainRequestHandler if access_log else QuietRequestHandler)
    if access_log:
        logging.getLogger("werkzeug").setLevel(logging.INFO)
    advert, mdns_url = (Advert(), None) if public_url else start_mdns(
        host, shown_host, port, no_mdns)
    if advert.name:  # phones may open dealer-assist.local: one of this server's own names
        app.config["OWN_HOSTS"] = [advert.name]
    extra = []
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
        server.server_close()
        advert.close()


# --------------------------------------------------------------------------- beside the server
PG_BACKUP_SENTENCE = ("backup copies a SQLite file; a PostgreSQL database is backed up with "
                      "its own tool, pg_dump (docs/deployment.md, PostgreSQL).")


class CommandRefused(Exception):
    """A sentence for the person at the terminal; the command exits with 2."""


def existing_db(db_path: Path | str | None) -> Path | str:
    """The database that serve uses (or ``--db``), which must exist: tables, pair and backup
    never make a new, empty one by mistake (a PostgreSQL one must answer)."""
    path = database_target(db_path)
    if isinstance(path, str):
        problem = storage.database_problem(path)
        if problem:
            raise CommandRefused(problem)
        return path
    if not path.is_file():
        raise CommandRefused(f"There is no database at {path}: start dealer-assist once, or "
                             "name the file serve uses with --db.")
    return path


def open_db(db_path: Path | str | None) -> storage.Connection:
    path = existing_db(db_path)
    storage.init_db(path)  # a database of an older release gains its pairing tables
    return storage.connect(path)


def game_name(variant: str) -> str:
    from dealer_assist.games.registry import game_class

    try:
        return game_class(variant).name
    except (KeyError, ValueError):
        return variant


def print_tables(db_path: Path | str | None, out: TextIO) -> None:
    db = open_db(db_path)
    try:
        rows = storage.list_tables(db)
    finally:
        db.close()
    if not rows:
        out.write("No tables yet: make one on the home page.\n")
        return
    out.write(f"{'TABLE':<10} {'NAME':<20} {'GAME':<22} {'MADE (UTC)':<17} DEALS\n")
    for row in rows:
        made = str(row["created"])[:16].replace("T", " ")
        out.write(f"{row['id']:<10} {(row['name'] or '-')[:20]:<20} "
                  f"{game_name(row['variant'])[:22]:<22} {made:<17} {row['deals']}\n")


def find_table(rows: list[dict[str, Any]], wanted: str) -> dict[str, Any]:
    """The table whose id is ``wanted``, else the newest whose name is (any case)."""
    for row in rows:
        if row["id"] == wanted:
            return row
    named = [row for row in rows if (row["name"] or "").casefold() == wanted.casefold()]
    if named:
        return named[0]  # list_tables is newest first: last Friday's table, not a year's
    raise CommandRefused(f"There is no table {wanted[:40]!r} in this database: "
                         "'dealer-assist tables' lists them.")


def print_pairing_code(db_path: Path | str | None, wanted: str, out: TextIO) -> None:
    from dealer_assist.services import auth

    db = open_db(db_path)
    try:
        row = find_table(storage.list_tables(db), wanted)
        code = auth.new_pairing_code(db, row["id"])
    finally:
        db.close()
    name = f"{row['name']} ({row['id']})" if row["name"] else row["id"]
    out.write(f"Pairing code for table {name}: {code.code}\n")
    out.write("On the device, open the table's page and tap \"I'm dealing: enter code\". "
              f"The code works once, for {code.expires_in // 60} minutes.\n")


def write_backup(db_path: Path | str | None, target: Path, out: TextIO) -> None:
    from dealer_assist.services.backup import BackupRefused, backup

    source = database_target(db_path)
    if isinstance(source, str):
        raise CommandRefused(PG_BACKUP_SENTENCE)
    try:
        done = backup(Path(existing_db(source)), target.expanduser())
    except BackupRefused as err:
        raise CommandRefused(str(err)) from None
    out.write(f"Backed up {done.tables} tables ({done.actions} actions) to {done.path}.\n")
    out.write("To restore: stop dealer-assist, then start it with --db on this file "
              "(README: Backups).\n")


def run_beside(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """tables, pair and backup: they work on the database file, with or without a server
    running on it."""
    try:
        if args.command == "tables":
            print_tables(args.db, out)
        elif args.command == "pair":
            print_pairing_code(args.db, args.table, out)
        else:
            write_backup(args.db, args.file, out)
    except CommandRefused as err:
        print(f"dealer-assist: {err}", file=sys.stderr)
        return 2
    except (OSError, storage.StorageError) as err:  # a locked, unreadable or damaged file
        print(f"dealer-assist: {err}", file=sys.stderr)
        return 1
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.command != "serve":
        return run_beside(args)
    if not 0 < args.port < 65536:
        print(f"dealer-assist: the port must be from 1 to 65535, not {args.port}.",
              file=sys.stderr)
        return 2
    if args.proxy_hops < 0:
        print(f"dealer-assist: --proxy-hops counts proxies: 0 or more, not {args.proxy_hops}.",
              file=sys.stderr)
        return 2
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


if __name__ == "__main__":
    sys.exit(main())
