"""The floor of our stack: a bare Flask-SocketIO server that only re-broadcasts a counter.

Same stack as ``dealer-assist serve`` (Flask, Flask-SocketIO, gevent, the app's own server
and websocket: web/server.py, web/websocket.py), and nothing else: no storage, no rules, no
state to build. ``--async-mode threading`` is the stack before issue 25 (Werkzeug's threaded
server, simple-websocket).

- Socket.IO ``join`` with ``{"table": room}``: the client joins ``room`` and gets
  ``state`` = ``{"seq": n}`` at once.
- ``POST /bump/<room>``: the room's counter goes up by one, ``state`` = ``{"seq": n}`` is
  emitted to the room, and the answer is ``{"seq": n}``. With ``--pad K`` the state also
  carries K bytes of filler, to separate the cost of a state's size from the app's work.
  With a body ``{"event": "state_patch", "data": {"seq": n, ...}}`` (an event the app sent,
  bench/fanout_floor.py) that very event goes to the room instead, and the counter becomes n.

Run: ``python bench/bare_server.py --port P [--async-mode threading|gevent]`` (loopback only).
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any


def build(async_mode: str, pad: int = 0) -> tuple[Any, Any]:
    from flask import Flask, jsonify, request
    from flask_socketio import SocketIO, emit, join_room

    app = Flask(__name__)
    socketio = SocketIO(app, async_mode=async_mode, max_http_buffer_size=64 * 1024)
    counters: dict[str, int] = {}
    lock = threading.Lock()
    filler = {"pad": "x" * pad} if pad else {}

    @app.get("/")
    def index() -> Any:
        return jsonify(rooms=len(counters))

    @app.post("/bump/<room>")
    def bump(room: str) -> Any:
        body = request.get_json(silent=True)
        with lock:
            if isinstance(body, dict) and body.get("event") in ("state", "state_patch"):
                # an event the app sent, as it sent it: the very same frames
                counters[room] = seq = int(body["data"]["seq"])
                socketio.emit(body["event"], body["data"], to=room)
            else:
                counters[room] = seq = counters.get(room, 0) + 1
                socketio.emit("state", {"seq": seq, **filler}, to=room)
        return jsonify(seq=seq)

    @socketio.on("join")
    def on_join(data: Any) -> None:
        room = str(data.get("table", ""))[:64] if isinstance(data, dict) else ""
        with lock:
            join_room(room)
            emit("state", {"seq": counters.get(room, 0)})

    return app, socketio


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--async-mode", choices=("threading", "gevent"), default="gevent")
    parser.add_argument("--pad", type=int, default=0,
                        help="add this many bytes to each state (to match a real state's size)")
    args = parser.parse_args(argv)
    if args.async_mode == "gevent":
        import gevent
        from gevent import monkey

        monkey.patch_all()
        gevent.config.track_greenlet_tree = False
    app, socketio = build(args.async_mode, args.pad)
    if args.async_mode == "gevent":  # as dealer_assist.cli.serve runs the app
        from dealer_assist.services.connection_caps import ConnectionCaps
        from dealer_assist.web.server import GuardedServer
        from dealer_assist.web.websocket import use_green_websockets

        use_green_websockets(socketio.server.eio)
        caps = ConnectionCaps(per_address=100_000, total=100_000)
        GuardedServer(("127.0.0.1", args.port), app, caps,
                      largest_body=lambda *request: 64 * 1024).serve_forever()
        return
    socketio.run(app, host="127.0.0.1", port=args.port, allow_unsafe_werkzeug=True,
                 use_reloader=False, log_output=True)


if __name__ == "__main__":
    main(sys.argv[1:])
