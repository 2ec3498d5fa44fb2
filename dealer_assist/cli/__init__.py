"""``dealer-assist``: serve the app on the local network, and the commands beside it.

``dealer-assist`` alone is ``dealer-assist serve`` with the defaults: every address of this
machine, port 5000, and the database in the user's data folder. On start it prints a short
banner (cli/banner.py: the address phones open, ``dealer-assist.local`` beside it when mDNS
works, a QR code of it, where the database is, how the dealer gets back in) and then nothing
more: no line per request unless ``--access-log``. It serves on gevent (cli/serve.py,
web/server.py).

Beside it, on the same database, while the server runs: ``dealer-assist tables`` lists the
tables, ``dealer-assist pair TABLE`` prints a pairing code that lets a device in as TABLE's
dealer (R75), ``dealer-assist backup FILE`` writes a consistent copy of the database, and
``dealer-assist check`` reads every table back as ``serve`` does at start
(cli/database_commands.py).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from dealer_assist.cli import database_commands
from dealer_assist.cli import serve as serve_command
from dealer_assist.cli.database_arg import database_arg, default_db

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 5000


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
    check = commands.add_parser(
        "check", help="read every table back as serve does at start, and say which are "
                      "damaged (exit 1) or whether the database cannot be used (exit 3)")
    check.add_argument("--db", type=database_arg, default=None, metavar="FILE|URL",
                       help=db_help)
    return parser


COMMANDS = ("serve", "tables", "pair", "backup", "check")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """``dealer-assist [--host H ...]`` is ``dealer-assist serve [--host H ...]``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in (*COMMANDS, "-h", "--help"):
        args.insert(0, "serve")
    if args[0] == "pair":
        args = ["pair", *_table_last(args[1:])]
    return build_parser().parse_args(args)


PAIR_OPTIONS = ("-h", "--help", "--db")


def _table_last(args: list[str]) -> list[str]:
    """Tables made before ids stopped starting with ``-`` keep such ids: ``pair -XOre1KC``
    must name that table, not an unknown option. Anything that is none of pair's options
    (nor --db's value) goes after ``--``, where argparse reads it as TABLE."""
    options: list[str] = []
    table: list[str] = []
    after_db = False
    for arg in args:
        if after_db or arg in PAIR_OPTIONS or arg.startswith("--db="):
            options.append(arg)
            after_db = arg == "--db"
        elif arg != "--":
            table.append(arg)
    return [*options, "--", *table] if table else options


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.command == "serve":
        return serve_command.run(args)
    if args.command == "check":
        return database_commands.check(args.db)
    return database_commands.run_beside(args)


if __name__ == "__main__":
    sys.exit(main())
