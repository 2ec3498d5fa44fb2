"""The tournament clock on every screen (R90): do the screens agree with the server, and how
soon does a level change reach them all?

Run: ``python bench/bench_clock.py [--clocks 50] [--tables 5] [--phones 8] [--samples 40]
[--changes 10] [--procs 2]``

One real ``dealer-assist serve`` on loopback with a tournament of ``--tables`` tables, its
clock running. Socket.IO clients (websocket transport, spread over ``--procs`` processes, an
asyncio loop each) play the screens: ``--clocks`` big-screen clocks join the tournament's room
(``join_tournament``, as /c/<id> does), and at each table a tablet (with its dealer token) and
``--phones`` phones (``"patches": true``, as the phone page) join the table. Every screen
stamps each ``tournament`` event it receives with ``time.perf_counter`` (CLOCK_MONOTONIC, one
clock for every process of the host) and keeps its figures.

1. Agreement: at ``--samples`` random moments (0.1-0.6 s apart, the host pausing and
   resuming now and then, as a night goes; the moments the clock runs are kept) this process
   asks the server for the clock
   (``GET /api/tournaments/<id>``); at the request's midpoint each clock screen's time left is
   what static/js/tournament.js shows: the last figures it received, less the time since
   while the clock runs. The difference from the server's figure, per screen and moment.
2. A level change: the host posts ``{"type": "level"}`` to the next level ``--changes``
   times; for every screen (clocks, tablets, phones) the first event of that level minus the
   moment the POST was sent.

Targets: every screen within 1 s of the server at every moment, and every level change on
every screen within 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import (
    ClientFleet,
    Poster,
    app_server,
    machine,
    median,
    percentile,
    request,
    servers,
    target_code,
)

LEVELS = [{"minutes": 20, "small_blind": 25 * 2 ** i, "big_blind": 50 * 2 ** i}
          for i in range(20)]
# (kind, room, token): kind "clock" joins a tournament's room, "tablet" and "phone" a table
Screen = tuple[str, str, str | None]
# per screen: (perf_counter at receipt, level, seconds_left, running, at) of each event
Stamps = list[tuple[float, int, float, bool, float]]


def _screens_main(url: str, screens: list[Screen], ready: Any, stop: Any, out: Any) -> None:
    import socketio

    async def run() -> list[Stamps]:
        boxes: list[Stamps] = [[] for _ in screens]
        clients: list[Any] = []
        heard = [asyncio.Event() for _ in screens]

        async def one(i: int) -> None:
            kind, room, token = screens[i]
            sio = socketio.AsyncClient(reconnection=False, json=json)
            if kind == "clock":
                join: tuple[str, dict[str, Any]] = ("join_tournament", {"tournament": room})
            elif token:
                join = ("join", {"table": room, "token": token})
            else:
                join = ("join", {"table": room, "patches": True})

            @sio.on("tournament")
            async def on_tournament(data: dict[str, Any]) -> None:
                clock = data["clock"]
                boxes[i].append((time.perf_counter(), clock["level"], clock["seconds_left"],
                                 clock["running"], clock["at"]))
                heard[i].set()

            await sio.connect(url, transports=["websocket"], wait_timeout=30)
            clients.append(sio)
            joins.append(join)

        joins: list[tuple[str, dict[str, Any]]] = []
        for start in range(0, len(screens), 20):  # a few handshakes at a time
            await asyncio.gather(*(one(i) for i in range(start, min(len(screens),
                                                                    start + 20))))
        # every screen joins once all are connected: a join's state is then read at once,
        # not behind this process's next handshakes (a TV's page has nothing else to do)
        for sio, join in zip(clients, joins, strict=True):
            await sio.emit(*join)
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in heard)), timeout=60)
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        await asyncio.gather(*(c.disconnect() for c in clients), return_exceptions=True)
        return boxes

    try:
        offset = server_offset(url, next(s[1] for s in screens if s[0] == "clock"))
        out.put(("ok", screens, (offset, asyncio.run(run()))))
    except BaseException as err:  # report, never hang the parent
        out.put(("error", repr(err), (0.0, [])))
        ready.set()


def server_offset(url: str, tournament_id: str, tries: int = 3) -> float:
    """The server's clock less this process's, in seconds, as static/js/tournament.js
    learns it: from the answer with the shortest round trip."""
    best = (float("inf"), 0.0)
    for _ in range(tries):
        sent = time.time()
        _, state = request("GET", f"{url}/api/tournaments/{tournament_id}")
        back = time.time()
        best = min(best, (back - sent, state["clock"]["at"] - (sent + back) / 2))
    return best[1]


class Screens:
    """The screens over ``procs`` processes; :meth:`finish` gives each screen's stamps."""

    def __init__(self, url: str, screens: list[Screen], procs: int) -> None:
        ctx = mp.get_context("spawn")
        self.stop, self.out = ctx.Event(), ctx.Queue()
        self.readies = [ctx.Event() for _ in range(procs)]
        self.procs = [ctx.Process(target=_screens_main, daemon=True, args=(
            url, screens[p::procs], self.readies[p], self.stop, self.out))
            for p in range(procs)]
        for proc in self.procs:
            proc.start()
        for ready in self.readies:
            if not ready.wait(120):
                self.close()
                raise RuntimeError("the screens did not all join in time")

    def finish(self) -> list[tuple[Screen, float, Stamps]]:
        """Each screen, its process's offset from the server's clock, and its stamps."""
        self.stop.set()
        found: list[tuple[Screen, float, Stamps]] = []
        for _ in self.procs:
            kind, screens, (offset, boxes) = self.out.get(timeout=60)
            if kind != "ok":
                raise RuntimeError(f"a screen process failed: {screens}")
            found += [(screen, offset, box) for screen, box in zip(screens, boxes,
                                                                  strict=True)]
        self.close()
        return found

    close = ClientFleet.close  # the same stop, join and kill


def shown_left(stamps: Stamps, offset: float | None, moment: float, wall: float
               ) -> float | None:
    """What the screen shows at ``moment`` (perf_counter; ``wall`` the same on time.time()):
    its last figures, less the time since they were read on the server's clock if running
    (static/js/tournament.js); with ``offset`` None, less the time since they arrived (what
    the page does before it has the server's time)."""
    last = None
    for stamp in stamps:
        if stamp[0] > moment:
            break
        last = stamp
    if last is None:
        return None
    received, _, left, running, at = last
    since = moment - received if offset is None else wall + offset - at
    return max(0.0, left - max(0.0, since)) if running else left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clocks", type=int, default=50, help="big-screen clocks")
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--phones", type=int, default=8, help="phones at each table")
    parser.add_argument("--samples", type=int, default=40, help="moments compared")
    parser.add_argument("--changes", type=int, default=10, help="level changes")
    parser.add_argument("--procs", type=int, default=2, help="screen processes")
    args = parser.parse_args(argv)
    print(machine())
    rng = random.Random(90)
    with tempfile.TemporaryDirectory() as tmp:
        server = app_server(Path(tmp) / "clock.db", Path(tmp) / "server.log")
        with servers(server):
            players = [f"P{i:02d}" for i in range(1, 6 * args.tables + 1)]
            status, created = request("POST", server.url + "/api/tournaments", {
                "name": "bench", "buy_in": 20, "chips": 5000, "levels": LEVELS,
                "rebuy_until_level": None, "add_on": None, "late_until_level": None,
                "seats": 8, "tables": args.tables, "players": players})
            if status != 201:
                raise RuntimeError(f"create tournament: {status} {created}")
            tid = created["id"]
            host = Poster(server.url)
            path = f"/api/tournaments/{tid}/actions"
            host.post(path, {"type": "resume"})
            screens: list[Screen] = [("clock", tid, None)] * args.clocks
            for table in created["tables"]:
                screens.append(("tablet", table["id"], table["dealer_token"]))
                screens += [("phone", table["id"], None)] * args.phones
            fleet = Screens(server.url, screens, args.procs)
            try:
                running = True
                # (midpoint on perf_counter and on time.time(), the server's seconds left)
                moments: list[tuple[float, float, float]] = []
                for n in range(args.samples):
                    time.sleep(rng.uniform(0.1, 0.6))
                    if n % 10 == 9:  # the host pauses or resumes now and then
                        host.post(path, {"type": "pause" if running else "resume"})
                        running = not running
                        time.sleep(rng.uniform(0.1, 0.6))
                    before, wall_before = time.perf_counter(), time.time()
                    status, state = request("GET", f"{server.url}/api/tournaments/{tid}")
                    after, wall_after = time.perf_counter(), time.time()
                    if state["clock"]["running"]:  # a paused clock is the same on every screen
                        moments.append(((before + after) / 2, (wall_before + wall_after) / 2,
                                        state["clock"]["seconds_left"]))
                if not running:
                    host.post(path, {"type": "resume"})
                sent: list[tuple[int, float]] = []  # (level, the moment its POST was sent)
                level = state["clock"]["level"]
                for _ in range(args.changes):
                    level = (level + 1) % len(LEVELS)
                    time.sleep(rng.uniform(0.3, 0.6))
                    sent.append((level, time.perf_counter()))
                    status, _ = host.post(path, {"type": "level", "to": level})
                    assert status == 200
                time.sleep(1.5)
            finally:
                stamped = fleet.finish()
    gaps = [abs(shown - left) for (kind, _, _), offset, stamps in stamped if kind == "clock"
            for moment, wall, left in moments
            if (shown := shown_left(stamps, offset, moment, wall)) is not None]
    naive = [abs(shown - left) for (kind, _, _), _, stamps in stamped if kind == "clock"
             for moment, wall, left in moments
             if (shown := shown_left(stamps, None, moment, wall)) is not None]
    reached: dict[str, list[float]] = {"clock": [], "tablet": [], "phone": []}
    missing = 0
    for (kind, _, _), _, stamps in stamped:
        for level, at in sent:
            first = next((t for t, lv, *_ in stamps if t >= at and lv == level), None)
            if first is None:
                missing += 1
            else:
                reached[kind].append(first - at)
    every = [s for samples in reached.values() for s in samples]
    print(f"{args.clocks} clocks, {args.tables} tables of 1 tablet + {args.phones} phones "
          f"({len(screens)} screens in all), {args.procs} screen processes")
    print(f"agreement, {len(moments)} moments of a running clock x {args.clocks} clocks "
          f"({len(gaps)} readings): "
          f"median {median(gaps) * 1000:.1f} ms, p99 {percentile(gaps, 99) * 1000:.1f} ms, "
          f"max {max(gaps, default=0) * 1000:.1f} ms off the server")
    print(f"  counted from each state's arrival instead: median {median(naive) * 1000:.1f} ms, "
          f"p99 {percentile(naive, 99) * 1000:.1f} ms, max {max(naive, default=0) * 1000:.1f} ms")
    for kind, samples in reached.items():
        print(f"level change to {kind + 's':<8} ({len(samples):>4}): median "
              f"{median(samples) * 1000:.1f} ms, p99 {percentile(samples, 99) * 1000:.1f} ms, "
              f"max {max(samples, default=0) * 1000:.1f} ms")
    print(f"level change to every screen: {len(every)} receipts, {missing} missing, median "
          f"{median(every) * 1000:.1f} ms, max {max(every, default=0) * 1000:.1f} ms")
    ok = (not missing and len(gaps) == len(moments) * args.clocks
          and max(gaps, default=0) <= 1.0 and max(every, default=0) <= 1.0)
    print("targets met" if ok else "a target is missed")
    return target_code(ok)


if __name__ == "__main__":
    sys.exit(main())
