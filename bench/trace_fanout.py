"""Where the time of one live update goes, inside the server: the app and the floor, traced
phase by phase in one run.

Run: ``python bench/trace_fanout.py [--clients 23] [--actions 100] [--procs 4]``

Both servers (``dealer-assist serve`` and ``bench/bare_server.py``) start under a tracing
launcher (this script, ``trace-serve``) that stamps, with ``time.perf_counter`` (one clock
for every process of the host): each POST's start and end in Flask's ``wsgi_app``, each
``SocketIO.emit`` (start, end, room), and each websocket frame a writer sends
(web/websocket.py's ``GreenWebSocket.send``, which both servers use on gevent). The clients
(as in ``bench_fanout.py``) stamp each state they receive. Per action, from the dealer's send:

- ``send -> request``: to the start of Flask's request (Werkzeug's parse and thread);
- ``request -> emit``: the server's work before the phones' emit starts;
- ``emit``: the emit to the room (encoding once, then a queue put per client);
- ``emit -> 1st frame``, ``emit -> last frame``: when the writer threads send;
- ``emit -> receipt p50 / last``: the clients' receipts;
- ``request after emit``: the rest of the request (for the app: the fsync, the dealer's
  state, the answer);
- ``send -> receipt p50``: the latency bench_fanout.py measures.

Medians over the actions. The tracing costs a few µs a stamp, alike for both servers.
"""

from __future__ import annotations

import argparse
import json
import runpy
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    HOST,
    ClientFleet,
    Poster,
    ServerProcess,
    action_script,
    create_table,
    free_port,
    machine,
    servers,
)

PLAYERS = [f"P{i:02d}" for i in range(1, 23)]
PHASES = ["send -> request", "request -> emit", "emit", "emit -> 1st frame",
          "emit -> last frame", "emit -> receipt p50", "emit -> receipt last",
          "request after emit", "send -> receipt p50"]


def trace_serve(out: str, command: list[str]) -> None:
    """Run ``command`` (``-m module args`` or ``script args``) in this process with the
    stamps in place; write them to ``out`` as JSON on SIGTERM."""
    stamps: dict[str, list[Any]] = {"request": [], "emit": [], "frame": []}
    clock = time.perf_counter

    import flask
    import flask_socketio

    from dealer_assist.web.websocket import GreenWebSocket

    real_send = GreenWebSocket.send

    def send(self: Any, data: Any) -> Any:
        start = clock()
        result = real_send(self, data)
        stamps["frame"].append((start, clock()))
        return result

    real_emit = flask_socketio.SocketIO.emit

    def emit(self: Any, event: str, *args: Any, **kwargs: Any) -> Any:
        start = clock()
        result = real_emit(self, event, *args, **kwargs)
        stamps["emit"].append((start, clock(), str(kwargs.get("to"))))
        return result

    real_wsgi = flask.Flask.wsgi_app

    def wsgi_app(self: Any, environ: dict[str, Any], start_response: Any) -> Any:
        start = clock()
        result = real_wsgi(self, environ, start_response)
        if environ.get("REQUEST_METHOD") == "POST":
            stamps["request"].append((start, clock()))
        return result

    GreenWebSocket.send = send  # type: ignore[method-assign]
    flask_socketio.SocketIO.emit = emit  # type: ignore[method-assign]
    flask.Flask.wsgi_app = wsgi_app  # type: ignore[method-assign]

    def dump(*_: Any) -> None:
        Path(out).write_text(json.dumps(stamps))
        sys.exit(0)

    signal.signal(signal.SIGTERM, dump)
    if command[0] == "-m":
        sys.argv = [command[1], *command[2:]]
        runpy.run_module(command[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = command
        runpy.run_path(command[0], run_name="__main__")


def phases(sent: dict[int, float], receipts: list[list[tuple[int, float]]],
           stamps: dict[str, list[Any]], room: str) -> dict[str, list[float]]:
    """Per action: the phases above, in seconds."""
    out: dict[str, list[float]] = {name: [] for name in PHASES}
    emits = [e for e in stamps["emit"] if e[2] == room]
    frames = sorted(f[0] for f in stamps["frame"])
    for seq, t_sent in sorted(sent.items()):
        request = next(r for r in stamps["request"] if r[0] >= t_sent)
        emit = next(e for e in emits if e[0] >= request[0])
        window = [f for f in frames if emit[0] <= f <= emit[0] + 0.05][:len(receipts)]
        got = sorted(next(t for s, t in box if s == seq) for box in receipts
                     if any(s == seq for s, _ in box))
        if not window or not got:
            continue
        for name, value in (
                ("send -> request", request[0] - t_sent), ("request -> emit", emit[0] - request[0]),
                ("emit", emit[1] - emit[0]), ("emit -> 1st frame", window[0] - emit[0]),
                ("emit -> last frame", window[-1] - emit[0]),
                ("emit -> receipt p50", statistics.median(got) - emit[0]),
                ("emit -> receipt last", got[-1] - emit[0]),
                ("request after emit", request[1] - emit[1]),
                ("send -> receipt p50", statistics.median(got) - t_sent)):
            out[name].append(value)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=23)
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--gap", type=float, default=0.1)
    parser.add_argument("--procs", type=int, default=4)
    args = parser.parse_args(argv)
    me = str(Path(__file__).resolve())
    bodies = action_script("kings_pot", PLAYERS, args.actions, seed=6)
    with tempfile.TemporaryDirectory(prefix="trace-fanout-") as folder:
        tmp = Path(folder)
        app_port, bare_port = free_port(), free_port()
        app = ServerProcess([sys.executable, me, "trace-serve", str(tmp / "app.json"), "-m",
                             "dealer_assist", "serve", "--host", HOST, "--port", str(app_port),
                             "--db", str(tmp / "app.db")], tmp / "app.log", app_port)
        bare = ServerProcess([sys.executable, me, "trace-serve", str(tmp / "bare.json"),
                              str(Path(me).parent / "bare_server.py"), "--port",
                              str(bare_port)], tmp / "bare.log", bare_port)
        with servers(app, bare):
            made = create_table(app.url, "kings_pot", PLAYERS, name="trace")
            table, room = made["id"], f"trace-{time.monotonic_ns()}"
            fleet = ClientFleet({table: app.url, room: bare.url},
                                [(table, args.clients), (room, args.clients)], args.procs,
                                run_limit=len(bodies) * 2 * args.gap + 120)
            fleet.start()
            time.sleep(0.5)
            to_app, to_bare = Poster(app.url, made["dealer_token"]), Poster(bare.url)
            sent_app: dict[int, float] = {}
            sent_bare: dict[int, float] = {}
            try:
                for body in bodies:
                    for poster, path, data, sent in (
                            (to_app, f"/api/tables/{table}/actions", body, sent_app),
                            (to_bare, f"/bump/{room}", {}, sent_bare)):
                        start = time.perf_counter()
                        status, answer = poster.post(path, data)
                        if status != 200:
                            raise RuntimeError(f"{status} {answer}")
                        sent[answer["seq"]] = start
                        time.sleep(args.gap)
                time.sleep(1.0)
            finally:
                to_app.close()
                to_bare.close()
                receipts = fleet.finish()
        found = {name: phases(sent, receipts[key], json.loads((tmp / f"{name}.json")
                                                             .read_text()), target)
                 for name, sent, key, target in (
                     ("app", sent_app, table, f"table:{table}:public"),
                     ("bare", sent_bare, room, room))}
    print(machine())
    print(f"{args.clients} clients on each server, {args.actions} actions each, medians in ms")
    print(f"{'phase':<22} {'app':>8} {'bare':>8} {'app - bare':>11}")
    for name in PHASES:
        a = statistics.median(found["app"][name]) * 1000
        b = statistics.median(found["bare"][name]) * 1000
        print(f"{name:<22} {a:>8.2f} {b:>8.2f} {a - b:>+11.2f}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "trace-serve":
        trace_serve(sys.argv[2], sys.argv[3:])
    else:
        sys.exit(main())
