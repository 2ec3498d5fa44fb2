"""kill -9 at random moments while random legal play streams in over HTTP (issue 5).

tests/test_crash_restart.py kills once at a chosen point; this test kills the server at least
20 times at random moments while a dealer plays every game as fast as the server answers,
restarts it on the same file each time, and checks, for every table:

- every acknowledged action survived: the state served after the restart is the state the
  last ``200`` said, or
- the kill fell after the commit but before the answer: the seq is one more, and the extra
  record is exactly the action that was in flight;
- nothing half-applied is visible: the state served equals replaying the stored records from
  the table's setup, and the stored seqs run 1, 2, 3, ... without a gap;
- chips are conserved (R3).
"""

from __future__ import annotations

import os
import random
import threading
import time
from typing import Any

import pytest
import requests
from conftest import Server
from figures import record
from remote import VARIANT_PLAYERS, RemoteTable

from dealer_assist.core.actions import Action

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300),
              pytest.mark.both_engines]

KILLS = 40
BUDGET_SECONDS = 400.0  # a hang guard (restarts included), generous: the machines are shared



def as_served(expected: dict[str, Any], served: dict[str, Any]) -> dict[str, Any]:
    """R67's chances may come in a later state (web/equity_later.py): where the server says
    they are still being worked out, the state expected says so too; everything else, and
    figures the server did send, must be exactly as expected."""
    if not served.get("equity_pending"):
        return expected
    return ({k: v for k, v in expected.items() if not k.startswith("equity")}
            | {k: v for k, v in served.items() if k.startswith("equity")})

def check_after_restart(t: RemoteTable, inflight: Action | None) -> str:
    """Compare the restarted server with what was acknowledged; bring the mirror up to the
    server. Returns ``"same"`` or ``"extra"`` (the in-flight action was committed)."""
    served = t.state()
    outcome = "same"
    if served["seq"] == t.mirror.seq + 1:
        assert inflight is not None, f"table {t.id}: a record nobody sent"
        t.mirror = t.mirror.apply(inflight)
        outcome = "extra"
    assert served["seq"] == t.mirror.seq, (served["seq"], t.mirror.seq)
    assert served == as_served(t.expected(), served)
    stored = t.records()
    if outcome == "extra":
        assert stored[-1]["action"] == inflight.to_json()  # type: ignore[union-attr]
    assert as_served(t.expected(t.replay(stored)[-1]), served) == served  # the file alone
    assert served["chips"] == t.chips
    public = t.state(dealer=False)
    assert public == as_served(t.expected(dealer=False), public)
    return outcome


def test_sigkill_at_random_moments_loses_no_acknowledged_action(
    start_server: Any, database: str
) -> None:
    seed = int(os.environ.get("DEALER_ASSIST_SEED", time.time_ns() % 1_000_000))
    rng = random.Random(seed)
    server: Server = start_server(database)
    tables = [RemoteTable(server.url, variant) for variant in VARIANT_PLAYERS]
    started = time.monotonic()
    kills = extra = acknowledged = 0
    while kills < KILLS:
        assert time.monotonic() - started < BUDGET_SECONDS, f"only {kills} kills (seed {seed})"
        killer = threading.Timer(rng.uniform(0.02, 0.5), server.kill)
        killer.start()
        inflight: dict[str, Action] = {}
        for _ in range(10_000):  # bounded; a kill ends the round long before
            t = rng.choice(tables)
            action = t.next_record(rng, undo_rate=0.05)
            if action is None or not t.mirror.can(action):  # the game is over: a new table
                try:
                    tables[tables.index(t)] = RemoteTable(server.url, t.setup.variant)
                except requests.RequestException:
                    break  # killed while making it: a table nobody holds a token for
                continue
            try:
                response = t.post(action, expect_seq=t.mirror.seq, timeout=10)
            except requests.RequestException:
                inflight[t.id] = action
                break
            assert response.status_code == 200, (action, response.text)
            t.mirror = t.mirror.apply(action)
            answer = response.json()
            assert answer == {"seq": t.mirror.seq,
                              "state": as_served(t.expected(), answer["state"])}
            acknowledged += 1
        killer.join(10)
        assert server.proc is not None and server.proc.poll() is not None
        kills += 1
        server.start()
        for t in tables:
            extra += check_after_restart(t, inflight.get(t.id)) == "extra"
    record("crash_stream", kills=kills, acknowledged=acknowledged, committed_unanswered=extra,
           seconds=round(time.monotonic() - started, 1), seed=seed)
