"""Live fan-out: from the dealer's action to every phone's new state, against the floor of the
stack, side by side in one run.

Run: ``python bench/bench_fanout.py [--rounds 2] [--sizes 23 200] [--procs 4]``

For each size N: N python-socketio clients (websocket transport) join one table of a real
``dealer-assist serve`` process on loopback, and N more join a room of
``bench/bare_server.py`` (the same stack, re-broadcasting a counter: the floor), all at once.
The dealer (this process) then posts, over kept-alive HTTP, the actions of random legal King's
Pot play (22 players) to the app and a bump to the bare server, in turn, one post every
``--gap`` seconds, so that a stall of this shared machine falls on both alike; every client
stamps each ``state`` it receives. For every (action, client): receipt of the action's seq
minus the moment the POST was sent, all stamped with ``time.perf_counter`` (CLOCK_MONOTONIC,
one clock for every process of the host). The clients are spread over ``--procs``
processes, an asyncio loop each, so that one client's work does not queue behind all the
others' in one interpreter. Rounds repeat with new tables and new clients.

``--before`` adds the app as it was before issue 6's fixes (``app-0``: a connection opened
and closed per request, the fsync inside COMMIT); ``--padded`` adds the bare server sending
states padded to the app's public state size (``bare+pad``: what the size costs on its own);
``--patches`` has the clients join with ``"patches": true`` as the phone page does, so the
app sends each change as a ``state_patch`` (with ``--baseline main``: whole states, side by
side).
Targets: p99 <= 25 ms at N=23, and p99 at most 1.5 x the bare server's at each N, nothing
missed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    ClientFleet,
    Poster,
    ServerProcess,
    action_script,
    app_server,
    bare_server,
    baseline_server,
    create_table,
    latencies,
    machine,
    median,
    percentile,
    servers,
    target_code,
)

from dealer_assist.games.registry import new_table
from dealer_assist.web.state import table_state

PLAYERS = [f"P{i:02d}" for i in range(1, 23)]  # a full King's Pot table (R20)


def run_round(kinds: list[tuple[str, ServerProcess]], clients: int,
              bodies: list[dict[str, Any]], gap: float, procs: int,
              patches: bool = False) -> list[dict[str, Any]]:
    """N clients on each server at once; the actions go to the servers in turn (app, bare,
    app, bare...; ``gap`` apart), so a stall of this shared machine falls on all alike."""
    targets = []
    for kind, server in kinds:
        if kind.startswith("app"):
            created = create_table(server.url, "kings_pot", PLAYERS, name=f"fanout {clients}")
            table_id, token = created["id"], created["dealer_token"]
            path, mine = f"/api/tables/{table_id}/actions", bodies
        else:
            table_id, token = f"room-{clients}-{time.monotonic_ns()}", None
            path, mine = f"/bump/{table_id}", [{} for _ in bodies]
        targets.append({"kind": kind, "table": table_id, "path": path, "bodies": mine,
                        "poster": Poster(server.url, token), "sent": {}, "answers": []})
    urls = {t["table"]: server.url for t, (_, server) in zip(targets, kinds, strict=True)}
    fleet = ClientFleet(urls, [(t["table"], clients) for t in targets], procs,
                        run_limit=len(bodies) * len(kinds) * gap + 120, patches=patches)
    fleet.start()
    try:
        time.sleep(0.5)  # let the joins settle
        due = time.perf_counter()
        for i in range(len(bodies)):
            for t in targets:
                t0 = time.perf_counter()
                status, answer = t["poster"].post(t["path"], t["bodies"][i])
                t["answers"].append(time.perf_counter() - t0)
                if status != 200:
                    raise RuntimeError(f"{t['kind']}: {status} {answer} for {t['bodies'][i]}")
                t["sent"][answer["seq"]] = t0
                due += gap
                time.sleep(max(0.0, due - time.perf_counter()))
        time.sleep(1.0)  # the last updates
    finally:
        for t in targets:
            t["poster"].close()
        stamps = fleet.finish()
    rows = []
    for t in targets:
        lat, expected, missing = latencies({t["table"]: t["sent"]}, stamps)
        rows.append({"kind": t["kind"], "clients": clients, "actions": len(bodies),
                     "lat": lat, "expected": expected, "missing": missing,
                     "answers": t["answers"]})
    return rows


def public_state_bytes(bodies: list[dict[str, Any]]) -> int:
    """The mean size of the public state (as JSON) over the script's actions."""
    return tap_bytes(bodies)[0]


def tap_bytes(bodies: list[dict[str, Any]]) -> tuple[int, int]:
    """The mean size (JSON) over the script's actions of the public state and of the
    ``state_patch`` event's payload that carries the same change, per phone."""
    import json

    from dealer_assist.web.patch import state_patch

    table = new_table("kings_pot", PLAYERS)
    before = {"id": "x" * 8, **table_state(table)}
    full, patch = [], []
    for body in bodies:
        table = table.apply(table.prepare(body))
        state = {"id": "x" * 8, **table_state(table)}
        full.append(len(json.dumps(state, separators=(",", ":"))))
        event = {"id": "x" * 8, "seq": state["seq"], "base_seq": before["seq"],
                 "ops": state_patch(before, state)}
        patch.append(len(json.dumps(event, separators=(",", ":"))))
        before = state
    return sum(full) // len(full), sum(patch) // len(patch)


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    lat = [x for r in rows for x in r["lat"]]
    return {"updates": sum(r["expected"] for r in rows),
            "missing": sum(r["missing"] for r in rows),
            "p50": percentile(lat, 50), "p90": percentile(lat, 90), "p99": percentile(lat, 99),
            "max": max(lat) if lat else float("nan"),
            "answer": median([a for r in rows for a in r["answers"]]),
            "round_p99": [percentile(r["lat"], 99) for r in rows]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[23, 200])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--actions", type=int, default=120, help="actions per case")
    parser.add_argument("--gap", type=float, default=0.1,
                        help="seconds between two actions (to any server)")
    parser.add_argument("--procs", type=int, default=4, help="client processes")
    parser.add_argument("--async-mode", choices=("threading", "gevent"), default=None,
                        help="the floor's stack (default: gevent, the app's own); the app "
                             "before issue 25 (threading) is --baseline 2df6c89")
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL"), default=None,
                        help="the app's PRAGMA synchronous (default: as shipped, FULL)")
    parser.add_argument("--padded", action="store_true",
                        help="also run the bare server with states padded to the app's "
                             "public state size (what the state's size costs on its own)")
    parser.add_argument("--switch-interval", type=float, default=None,
                        help="also run the app with this sys.setswitchinterval ('app-si')")
    parser.add_argument("--sync-at-teardown", action="store_true",
                        help="also run the app with the commit's fsync at the request's "
                             "teardown, after the dealer's state ('app-td'), as before it "
                             "moved to right after the phones' emit")
    parser.add_argument("--baseline", metavar="REF", default=None,
                        help="also run the app as it was at git commit REF ('app@REF'), "
                             "to measure a change side by side with the code before it")
    parser.add_argument("--patches", action="store_true",
                        help="the clients join with \"patches\": true, as the phone page "
                             "does: the app sends state_patch events, a server that does not "
                             "(--baseline, the bare floors) whole states")
    parser.add_argument("--before", action="store_true",
                        help="also run the app as it was before issue 6's fixes ('app-0')")
    args = parser.parse_args(argv)
    servers_run = 2 + sum(map(bool, (args.before, args.switch_interval, args.sync_at_teardown,
                                     args.baseline, args.padded)))
    if args.rounds * len(args.sizes) * servers_run * args.actions * args.gap > 600:
        parser.error("that run would take over 10 minutes: fewer rounds, actions or sizes")
    bodies = action_script("kings_pot", PLAYERS, args.actions, seed=6)
    pad, patch_size = tap_bytes(bodies)
    print(machine())
    print(f"bytes per tap and phone (JSON): public state {pad}, state_patch {patch_size} "
          f"({pad / patch_size:.1f}x fewer); clients join for patches: {args.patches}")
    print(f"{args.actions} actions per server and size, the servers in turn, one action every "
          f"{args.gap * 1000:.0f} ms; clients over "
          f"{args.procs} processes, {args.rounds} rounds, async mode "
          f"{args.async_mode or 'gevent (as shipped)'} for the floor, synchronous "
          f"{args.synchronous or 'FULL (as shipped)'}")
    results: dict[tuple[str, int], list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-fanout-") as tmp:
        app = app_server(Path(tmp) / "fanout.db", Path(tmp) / "app.log",
                         async_mode=args.async_mode, synchronous=args.synchronous)
        bare = bare_server(Path(tmp) / "bare.log", async_mode=args.async_mode or "gevent")
        kinds = [("app", app), ("bare", bare)]
        if args.before:
            kinds.insert(1, ("app-0", app_server(Path(tmp) / "before.db",
                                                 Path(tmp) / "before.log", before=True,
                                                 async_mode=args.async_mode)))
        if args.switch_interval:
            kinds.insert(1, ("app-si", app_server(Path(tmp) / "si.db", Path(tmp) / "si.log",
                                                  switch_interval=args.switch_interval,
                                                  async_mode=args.async_mode)))
        if args.sync_at_teardown:
            kinds.insert(1, ("app-td", app_server(Path(tmp) / "td.db", Path(tmp) / "td.log",
                                                  sync_at_teardown=True,
                                                  async_mode=args.async_mode)))
        if args.baseline:
            kinds.insert(1, (f"app@{args.baseline}", baseline_server(
                args.baseline, Path(tmp) / "baseline", Path(tmp) / "baseline.log")))
        if args.padded:
            print(f"bare+pad: states padded to {pad} bytes, the app's mean public state")
            kinds.append(("bare+pad", bare_server(Path(tmp) / "pad.log", pad=pad,
                                                  async_mode=args.async_mode or "gevent")))
        with servers(*(server for _, server in kinds)):
            for rnd in range(args.rounds):
                for n in args.sizes:
                    for row in run_round(kinds, n, bodies, args.gap, args.procs,
                                         args.patches):
                        kind = row["kind"]
                        results.setdefault((kind, n), []).append(row)
                        print(f"  round {rnd + 1} {kind:<12} N={n:<4} p50 "
                              f"{percentile(row['lat'], 50) * 1000:6.2f} ms  p99 "
                              f"{percentile(row['lat'], 99) * 1000:6.2f} ms  missing "
                              f"{row['missing']}/{row['expected']}", flush=True)
    print()
    print(f"{'server':<12} {'N':>4} {'updates':>8} {'missing':>8} {'p50':>9} {'p90':>9} "
          f"{'p99':>9} {'max':>9} {'POST answer p50':>16}")
    ok = True
    # the app, the other app servers in the order they ran, then the floors
    names = sorted((kind for kind, _ in kinds), key=lambda kind: kind.startswith("bare"))
    for n in args.sizes:
        s = {kind: summary(results[(kind, n)]) for kind in names}
        for kind in names:
            r = s[kind]
            print(f"{kind:<12} {n:>4} {r['updates']:>8} {r['missing']:>8} "
                  f"{r['p50'] * 1000:>6.2f} ms {r['p90'] * 1000:>6.2f} ms "
                  f"{r['p99'] * 1000:>6.2f} ms {r['max'] * 1000:>6.2f} ms "
                  f"{r['answer'] * 1000:>13.2f} ms")
        ratio99 = s["app"]["p99"] / s["bare"]["p99"]
        ratio50 = s["app"]["p50"] / s["bare"]["p50"]
        rounds = ", ".join(f"{a * 1000:.1f}/{b * 1000:.1f}" for a, b in
                           zip(s["app"]["round_p99"], s["bare"]["round_p99"], strict=True))
        print(f"       N={n}: app/bare p50 {ratio50:.2f}x, p99 {ratio99:.2f}x "
              f"(per round app/bare p99 ms: {rounds})")
        for kind in names:
            if kind.startswith("app") and kind != "app":
                print(f"       N={n}: {kind}/bare p50 {s[kind]['p50'] / s['bare']['p50']:.2f}x, "
                      f"p99 {s[kind]['p99'] / s['bare']['p99']:.2f}x")
        if "bare+pad" in s:
            print(f"       N={n}: app/bare+pad p50 {s['app']['p50'] / s['bare+pad']['p50']:.2f}x,"
                  f" p99 {s['app']['p99'] / s['bare+pad']['p99']:.2f}x")
        ok &= ratio99 <= 1.5 and s["app"]["missing"] == 0
        if n == 23:
            ok &= s["app"]["p99"] <= 0.025
    print("targets met" if ok else "a target is missed")
    return target_code(ok)


if __name__ == "__main__":
    sys.exit(main())
