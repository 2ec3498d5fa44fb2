"""Fan-out to N phones, the app beside the floor of its own stack (issue 25).

    python bench/fanout_floor.py [--phones 100] [--actions 120] [--every 0.05] [--runs 2]

Two servers side by side, each on gevent with the app's own server and websocket: ``app``
(``dealer-assist serve``; a 10-player King's Pot table, random legal play; its phones join
with ``"patches": true`` as the phone page does and get ``state_patch`` events) and ``bare``
(bench/bare_server.py: Flask-SocketIO re-broadcasting a counter, nothing else). N phones on
each (bench/raw_phones.py, one process of its own); the actions alternate between the two
servers, ``every`` seconds apart, so that a stall of the shared machine falls on both alike.
Latency per (action, phone): the phone's receipt of the action's seq minus the moment its
POST was sent (CLOCK_MONOTONIC, one clock for every process). Prints p50, p99 and max per
server and the ratios app/bare, over the whole run and by rounds (thirds of the actions);
the issue's target is p99 at most 1.5x the floor.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import Poster, action_script, machine, percentile
from guest_attacks import start_server

HERE = Path(__file__).resolve().parent

PLAYERS = [f"P{i}" for i in range(1, 11)]


def listen(targets: list[str], phones: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, str(HERE / "raw_phones.py"), "listen", "--count", str(phones),
         *(arg for target in targets for arg in ("--target", target))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    assert proc.stdout is not None
    ready = proc.stdout.readline()
    if ready.strip() != "ready":
        proc.kill()
        raise RuntimeError(f"the phones did not connect: {ready} {proc.stderr.read()}")
    return proc


def compare(folder: Path, phones: int = 100, actions: int = 120, every: float = 0.05,
            rounds: int = 3) -> dict[str, Any]:
    app = start_server(folder)
    bare = start_server(folder, ready="/", command=lambda port: [
        sys.executable, str(HERE / "bare_server.py"), "--port", str(port),
        "--async-mode", "gevent"])
    listener: subprocess.Popen[str] | None = None
    try:
        made = app.table("kings_pot", tuple(PLAYERS))
        room = "room1"
        targets = {"app": f"127.0.0.1:{app.port}:{made['id']}",
                   "bare": f"127.0.0.1:{bare.port}:{room}"}
        listener = listen(list(targets.values()), phones)
        script = action_script("kings_pot", PLAYERS, actions)
        dealer = Poster(app.url, made["dealer_token"])
        bumper = Poster(bare.url)
        sent: dict[str, dict[int, float]] = {"app": {}, "bare": {}}
        answers: dict[str, list[float]] = {"app": [], "bare": []}
        time.sleep(1)
        for body in script:
            for name in ("app", "bare"):
                began = time.perf_counter()
                status, answer = (dealer.post(f"/api/tables/{made['id']}/actions", body)
                                  if name == "app" else bumper.post(f"/bump/{room}", {}))
                answers[name].append(time.perf_counter() - began)
                if status != 200:
                    raise RuntimeError(f"{name}: {status} {answer}")
                sent[name][int(answer["seq"])] = began
                time.sleep(every)
        time.sleep(1)
        assert listener.stdin is not None and listener.stdout is not None
        listener.stdin.write("stop\n")
        listener.stdin.flush()
        receipts = json.loads(listener.stdout.readline())
    finally:
        if listener is not None and listener.poll() is None:
            listener.kill()
        app.stop()
        bare.stop()
    out: dict[str, Any] = {"phones": phones, "actions": len(script)}
    latencies = {name: {seq: [when - sent[name][int(seq)] for when in times]
                        for seq, times in receipts[target].items() if int(seq) in sent[name]}
                 for name, target in targets.items()}
    for name in targets:
        every_one = [t for times in latencies[name].values() for t in times]
        out[name] = {"updates": len(every_one),
                     "missing": len(sent[name]) * phones - len(every_one),
                     "p50_ms": round(statistics.median(every_one) * 1000, 2),
                     "p99_ms": round(percentile(every_one, 99) * 1000, 2),
                     "max_ms": round(max(every_one) * 1000, 2),
                     "post_p50_ms": round(statistics.median(answers[name]) * 1000, 2)}
    out["p50_ratio"] = round(out["app"]["p50_ms"] / out["bare"]["p50_ms"], 2)
    out["p99_ratio"] = round(out["app"]["p99_ms"] / out["bare"]["p99_ms"], 2)
    # the same by rounds (the actions in ``rounds`` runs of consecutive seqs), to see how much
    # a stall of the shared machine moves a third of the run's p99 (a lot: docs/benchmarks.md)
    ratios = []
    for part in range(rounds):
        p99 = {}
        for name in targets:
            seqs = sorted(sent[name])
            chunk = seqs[part * len(seqs) // rounds:(part + 1) * len(seqs) // rounds]
            p99[name] = percentile([t for seq in chunk for t in latencies[name][str(seq)]], 99)
        ratios.append(round(p99["app"] / p99["bare"], 2))
    out["p99_ratio_by_round"] = ratios
    out["p99_ratio_median_of_rounds"] = statistics.median(ratios)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--phones", type=int, default=100)
    parser.add_argument("--actions", type=int, default=120)
    parser.add_argument("--every", type=float, default=0.05)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    print(machine(), flush=True)
    for run in range(1, args.runs + 1):
        with tempfile.TemporaryDirectory() as folder:
            print(f"run {run}: " + json.dumps(compare(Path(folder), args.phones, args.actions,
                                                      args.every)), flush=True)


if __name__ == "__main__":
    main()
