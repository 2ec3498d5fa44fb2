"""The CPU one dealer's action costs the server before the phones' emit, and after it: the
deterministic part of the live fan-out's latency (issue 32), this code beside another's.

Run: ``python bench/bench_action_path.py [--actions 300] [--phones 100] [--rounds 5]
[--before DIR]``

An app in one process (Flask's test client: no network, the commit inline rather than in
gevent's thread), a 10-player King's Pot table, random legal play (the same bodies as
bench/fanout_floor.py), ``--phones`` Socket.IO test clients joined with ``"patches": true``
as the phone page does, and a dealer's tablet in the dealer room. Their Engine.IO send is
swapped for a list's append (what a real phone costs is its queue's put, the same for the
app and the floor: bench/fanout_floor.py). Per action, ``time.process_time`` (CPU, not the
wall clock a shared machine moves): from the request's start to the start of the phones'
``state_patch`` emit (``before emit``: the token check, the commit, the state and the
patch), the emit itself (``emit``: encoding once, then a put per phone), and from its end
to the answer's (``after emit``: the fsync's call, the dealer's state and emit, the answer).

``--before DIR`` runs the same in a checkout of other code (e.g. ``git archive`` of the
commit before, unpacked), a child process of each in turn per round; medians of the
per-round medians, and the ratios this/before.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PLAYERS = [f"P{i}" for i in range(1, 11)]
PHASES = ("before emit", "emit", "after emit", "whole request")


def measure(actions: int, phones: int) -> dict[str, float]:
    """In this process (with the checkout on sys.path that runs it): median CPU ms a phase."""
    import flask
    from flask_socketio import SocketIO

    from dealer_assist.web.app import create_app, get_socketio

    sys.path.insert(0, str(HERE))
    from _common import action_script

    marks: list[tuple[str, float]] = []
    clock = time.process_time
    real_wsgi, real_emit = flask.Flask.wsgi_app, SocketIO.emit

    def wsgi_app(self: Any, environ: dict[str, Any], start_response: Any) -> Any:
        marks.append(("request", clock()))
        result = real_wsgi(self, environ, start_response)
        marks.append(("answer", clock()))
        return result

    def emit(self: Any, event: str, *args: Any, **kwargs: Any) -> Any:
        phones_emit = event == "state_patch"
        if phones_emit:
            marks.append(("emit", clock()))
        result = real_emit(self, event, *args, **kwargs)
        if phones_emit:
            marks.append(("emitted", clock()))
        return result

    flask.Flask.wsgi_app = wsgi_app  # type: ignore[method-assign]
    SocketIO.emit = emit
    with tempfile.TemporaryDirectory() as folder:
        # the phones share the test client's address: its caps lifted for them
        app = create_app(db_path=str(Path(folder) / "path.db"), testing=True, config={
            "JOIN_BURST": 10 * phones + 10, "MAX_CONNECTIONS_PER_ADDRESS": 10 * phones + 10,
            "MAX_CONNECTIONS": 10 * phones + 10})
        client = app.test_client()
        made = client.post("/api/tables", json={"name": "Path", "variant": "kings_pot",
                                                "players": PLAYERS}).get_json()
        socketio = get_socketio(app)
        for join in [{"table": made["id"], "patches": True}] * phones + [
                {"table": made["id"], "token": made["dealer_token"]}]:
            socketio.test_client(app).emit("join", join)
        sent: list[Any] = []
        socketio.server._send_eio_packet = lambda eio_sid, packet: sent.append(packet)
        headers = {"Authorization": f"Bearer {made['dealer_token']}"}
        url = f"/api/tables/{made['id']}/actions"
        script = action_script("kings_pot", PLAYERS, actions + 20)
        phases: dict[str, list[float]] = {name: [] for name in PHASES}
        for number, body in enumerate(script):
            marks.clear()
            response = client.post(url, json=body, headers=headers)
            if response.status_code != 200:
                raise RuntimeError(f"{response.status_code} {response.get_json()}")
            if number < 20:  # warming up: caches, the evaluator's tables
                continue
            at = dict(marks)
            phases["before emit"].append(at["emit"] - at["request"])
            phases["emit"].append(at["emitted"] - at["emit"])
            phases["after emit"].append(at["answer"] - at["emitted"])
            phases["whole request"].append(at["answer"] - at["request"])
        if len(sent) < phones * actions:
            raise RuntimeError(f"the phones got {len(sent)} packets, not {phones * actions}")
    return {name: round(statistics.median(values) * 1000, 4) for name, values in phases.items()}


def child(code: Path, actions: int, phones: int) -> dict[str, float]:
    """:func:`measure` in a process of ``code``'s checkout."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child",
                          "--actions", str(actions), "--phones", str(phones)],
                         cwd=code, env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=300)
    parser.add_argument("--phones", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path, default=None, metavar="DIR",
                        help="also the code of this checkout (e.g. git archive, unpacked)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.actions, args.phones)))
        return
    sys.path.insert(0, str(HERE))
    from _common import machine

    print(machine(), f"load average {os.getloadavg()[0]:.1f}", flush=True)
    codes = {"this": HERE.parent} | ({"before": args.before} if args.before else {})
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in codes}
    for number in range(1, args.rounds + 1):
        for name, code in codes.items():
            runs[name].append(child(code, args.actions, args.phones))
            print(f"round {number} {name}: {json.dumps(runs[name][-1])}", flush=True)
    print(f"{args.phones} phones, {args.actions} actions, CPU ms a phase, median of "
          f"{args.rounds} rounds' medians (load average now {os.getloadavg()[0]:.1f})")
    print(f"{'phase':<15}" + "".join(f"{name:>10}" for name in codes)
          + ("     ratio" if args.before else ""))
    for phase in PHASES:
        medians = {name: statistics.median(run[phase] for run in runs[name]) for name in codes}
        line = f"{phase:<15}" + "".join(f"{value:>10.3f}" for value in medians.values())
        if args.before:
            line += f"{medians['this'] / medians['before']:>9.2f}x"
        print(line)


if __name__ == "__main__":
    main()
