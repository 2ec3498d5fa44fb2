"""Two tablets at once (issue 5): many clients, in threads, post to two server processes on
one database (a SQLite file, then a PostgreSQL database).

- With ``expect_seq``, every answer is a ``200`` at exactly the seq the client saw plus one,
  or a ``409`` carrying the table's fresh seq and state.
- Without it, the posts are taken one at a time: each is applied to the table as the file has
  it then (a ``200``), or refused with a sentence (a ``400``) if it no longer fits.
- In both: no seq is granted twice; every stored record is exactly what its client sent;
  replaying the stored records from the setup gives, at every acknowledged seq, the state that
  ``200`` carried, and at the end the state both processes serve.

The lock that makes this hold across processes is SQLite's (``BEGIN IMMEDIATE`` and
``UNIQUE (table_id, seq)``), not a lock in memory: the two processes share nothing else.
tests/test_storage.py::test_unique_table_seq_refuses_a_second_record_at_one_seq shows the
constraint itself refusing a second record at one seq.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from typing import Any

import pytest
import requests
from conftest import Server
from figures import record
from remote import RemoteTable, sync

from dealer_assist.core.table import Table

pytestmark = [pytest.mark.timeout(180), pytest.mark.both_engines]

CLIENTS = 8  # four on each process
POSTS = 25  # per client
BUDGET_SECONDS = 60.0


@pytest.mark.parametrize("expect", [True, False], ids=["expect_seq", "no_expect_seq"])
def test_many_tablets_on_two_processes_never_share_a_seq(
    start_server: Any, database: str, expect: bool
) -> None:
    db = database
    servers: list[Server] = [start_server(db), start_server(db)]
    t = RemoteTable(servers[0].url, "kings_pot", ["Ann", "Bob", "Cy", "Di"])
    answers: list[tuple[dict[str, Any], int, int, dict[str, Any]]] = []  # sent, seen, status
    lock = threading.Lock()
    barrier = threading.Barrier(CLIENTS)
    failures: list[BaseException] = []
    deadline = time.monotonic() + BUDGET_SECONDS

    def tablet(i: int) -> None:
        try:
            url = servers[i % 2].url
            rng = random.Random(i)
            mirror = Table.from_setup(t.setup)
            with requests.Session() as session:
                barrier.wait(30)
                for _ in range(POSTS):
                    if time.monotonic() > deadline:
                        return
                    mirror = sync(t, mirror, url, session)
                    action = t.next_record(rng, undo_rate=0.1, table=mirror)
                    if action is None or not mirror.can(action):
                        return
                    body = action.to_json() | ({"expect_seq": mirror.seq} if expect else {})
                    response = session.post(f"{url}/api/tables/{t.id}/actions", json=body,
                                            headers=t.headers, timeout=30)
                    with lock:
                        answers.append((action.to_json(), mirror.seq, response.status_code,
                                        response.json()))
        except BaseException as err:  # reported by the main thread
            failures.append(err)

    threads = [threading.Thread(target=tablet, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(BUDGET_SECONDS + 30)
    assert not failures, failures
    assert not any(thread.is_alive() for thread in threads)

    stored = t.records()
    tables = t.replay(stored)  # every stored record is legal on the table before it
    statuses = Counter(status for _, _, status, _ in answers)
    granted = [answer["seq"] for _, _, status, answer in answers if status == 200]
    assert len(granted) == len(set(granted)) == len(stored)  # no seq granted twice, none lost
    assert sorted(granted) == list(range(1, len(stored) + 1))
    for sent, seen, status, answer in answers:
        if status == 200:
            seq = answer["seq"]
            assert stored[seq - 1]["action"] == sent  # the record is exactly what was sent
            assert answer["state"] == t.expected(tables[seq])
            if expect:
                assert seq == seen + 1  # applied to the state this client saw, no other
            else:
                assert seq >= seen + 1
        elif status == 409:
            assert expect, answer  # without expect_seq the posts take turns: never a 409
            assert set(answer) == {"error", "seq", "state"}
            assert answer["seq"] > seen and answer["error"].endswith(".")
            assert answer["state"]["seq"] == answer["seq"]
            assert answer["state"] == t.expected(tables[answer["seq"]])  # a fresh state
        else:
            assert not expect and status == 400, (status, answer)
            assert set(answer) == {"error"} and answer["error"].endswith("."), answer
    final = t.expected(tables[-1])
    for server in servers:
        assert t.state(url=server.url) == final
    assert final["chips"] == t.chips
    assert statuses[200] >= CLIENTS  # the table moved on
    record(f"races_{'expect_seq' if expect else 'no_expect_seq'}", clients=CLIENTS,
           posts=len(answers), granted=statuses[200], stale_409=statuses[409],
           refused_400=statuses[400])
