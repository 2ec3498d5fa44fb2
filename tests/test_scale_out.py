"""Several server processes on one database (issue 7): Flask-SocketIO's Redis message queue
carries live updates between processes, the database orders the actions.

Every test here runs a real ``redis-server`` (Debian's binary, started by the test on a free
loopback port in a temporary folder, nothing saved, stopped after), real ``dealer-assist
serve --message-queue`` processes and real python-socketio clients. Without redis-server the
tests fail: ``.ci/install`` puts it in.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests
from conftest import Server, command, free_port
from listeners import Listener
from real_servers import RedisServer

CHANNEL = "flask-socketio"  # Flask-SocketIO's default channel, which the app keeps

pytestmark = [pytest.mark.timeout(180), pytest.mark.both_engines]


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path / "redis")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def start_queued(start_server: Any, redis_server: RedisServer,  # type: ignore[no-untyped-def]
                 database: str):
    """Start ``dealer-assist serve --message-queue`` on the test's Redis and shared database
    (a SQLite file, or a PostgreSQL database)."""
    def start(db: Path | str | None = None, queued: bool = True,
              more: Sequence[str] = ()) -> Server:
        port = free_port()
        args = ["serve", "--host", "127.0.0.1", "--port", str(port),
                "--db", str(db or database), *more]
        if queued:
            args += ["--message-queue", redis_server.url]
        return start_server(db or database, port=port, args=args)

    return start


def act(server: Server, made: dict[str, Any], body: dict[str, Any]) -> requests.Response:
    return requests.post(f"{server.url}/api/tables/{made['id']}/actions", json=body, timeout=10,
                         headers={"Authorization": f"Bearer {made['dealer_token']}"})


def ok(server: Server, made: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    response = act(server, made, body)
    assert response.status_code == 200, response.text
    return response.json()


def public(server: Server, made: dict[str, Any]) -> dict[str, Any]:
    response = requests.get(f"{server.url}/api/tables/{made['id']}", timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


KINGS_BODIES = [  # King's Pot, Ann deals: Bob, Cy, Ann buy, then the cards are recorded
    {"type": "buy", "player": "Bob", "count": 1},
    {"type": "buy", "player": "Cy", "count": 2},
    {"type": "buy", "player": "Ann", "count": 1},
    {"type": "deal_cards", "player": "Bob", "cards": ["Ah"]},
    {"type": "deal_cards", "player": "Cy", "cards": ["Kd", "7c"]},
]


# --------------------------------------------------------------------------- the tests
def test_an_action_on_one_process_reaches_phones_on_every_process(
    start_queued: Any, redis_server: RedisServer, listeners: list[Listener]
) -> None:
    one, two = start_queued(), start_queued()
    redis_server.wait_for_subscribers(2)
    made = one.create_table("kings_pot", ["Ann", "Bob", "Cy"])
    ok(one, made, {"type": "start_deal"})
    assert public(two, made)["seq"] == 1  # process two now holds the table at seq 1
    phone_two = Listener(two.url, made["id"], reconnect=False)
    tablet_two = Listener(two.url, made["id"], made["dealer_token"], reconnect=False)
    phone_one = Listener(one.url, made["id"], reconnect=False)
    listeners.extend([phone_two, tablet_two, phone_one])
    for phone in listeners:
        assert phone.next_state()["seq"] == 1  # at once on joining

    # one action on process one: the phones on process two get it, exact seq and state
    answer = ok(one, made, KINGS_BODIES[0])
    assert answer["seq"] == 2
    assert tablet_two.next_state() == answer["state"]
    got = phone_two.next_state()
    assert got["seq"] == 2 and got == public(two, made) == public(one, made)
    assert phone_one.next_state() == got

    # several in a row arrive in order, on both processes, and GET on either agrees
    answers = [ok(one, made, body) for body in KINGS_BODIES[1:]]
    last = answers[-1]["seq"]
    assert [s["seq"] for s in phone_two.states_until(last)] == [3, 4, 5, 6]
    assert [s["seq"] for s in phone_one.states_until(last)] == [3, 4, 5, 6]
    assert tablet_two.states_until(last) == [a["state"] for a in answers]
    assert public(two, made)["seq"] == last == 6
    assert '"Kd"' not in str(public(two, made))  # the public state holds no face-down card

    # an action on process two reaches process one's phone
    answer = ok(two, made, {"type": "deal_cards", "player": "Ann", "cards": ["2s"]})
    assert phone_one.next_state() == public(one, made)
    assert phone_two.next_state()["seq"] == answer["seq"] == 7
    assert tablet_two.next_state() == answer["state"]

    # process one dies (kill -9): process two carries on, for its phones and over HTTP
    one.kill()
    answer = ok(two, made, {"type": "reveal"})
    assert answer["seq"] == 8
    got = phone_two.next_state()
    assert got["seq"] == 8 and got == public(two, made)
    assert tablet_two.next_state() == answer["state"]
    assert phone_two.quiet() == [] and tablet_two.quiet() == []
    assert phone_one.quiet(0.1) == []  # its server is gone
    # and a process started again on the same database and queue joins in
    three = start_queued()
    redis_server.wait_for_subscribers(2)
    phone_three = Listener(three.url, made["id"], reconnect=False)
    listeners.append(phone_three)
    assert phone_three.next_state()["seq"] == 8
    step = public(three, made)["step"]
    assert step["kind"] == "bet", step
    answer = ok(three, made, {"type": "check", "player": step["player"]})
    assert phone_two.next_state()["seq"] == answer["seq"] == 9
    assert phone_three.next_state() == public(two, made)


def test_a_get_on_one_process_sees_what_another_wrote(start_queued: Any) -> None:
    """Each process caches tables; every read checks the cache against the database's seq,
    so a process never serves a state that another process has moved on. (Behind a proxy,
    ``--public-url`` makes the links phones open.)"""
    one = start_queued(more=["--public-url", "https://cards.example.org/"])
    two = start_queued()
    made = one.create_table("texas_dozen", ["Ann", "Bob", "Cy"])
    assert made["join_url"] == f"https://cards.example.org/t/{made['id']}"
    assert made["dealer_url"].startswith(f"https://cards.example.org/t/{made['id']}/dealer#")
    assert "Message queue: redis://127.0.0.1:" in one.output()
    headers = {"Authorization": f"Bearer {made['dealer_token']}"}
    url = f"{two.url}/api/tables/{made['id']}"
    bodies = [{"type": "start_deal"}, {"type": "next"}, {"type": "call", "player": "Ann"},
              {"type": "undo"}, {"type": "fold", "player": "Ann"}]
    for seq, body in enumerate(bodies, start=1):
        assert requests.get(url, timeout=10).json()["seq"] == seq - 1  # two holds seq - 1
        answer = ok(one, made, body)
        assert requests.get(url, timeout=10).json() == public(one, made)
        assert requests.get(url, headers=headers, timeout=10).json() == answer["state"]
        assert answer["seq"] == seq
    deals = requests.get(url + "/deals", timeout=10).json()
    assert [d["number"] for d in deals] == [1] and deals[0]["start_seq"] == 1
    assert [a["seq"] for a in requests.get(url + "/deals/1", timeout=10).json()["actions"]] == [
        1, 2, 3, 4, 5]


def test_a_race_between_processes_is_decided_by_the_seq_and_phones_see_it_in_order(
    start_queued: Any, redis_server: RedisServer, listeners: list[Listener]
) -> None:
    """Two tablets on two processes send the same action on the same seq at once: the
    (table, seq) constraint takes exactly one, the other is a 409; the phones on both
    processes get every accepted state once, in seq order."""
    one, two = start_queued(), start_queued()
    redis_server.wait_for_subscribers(2)
    made = one.create_table("kings_pot", ["Ann", "Bob", "Cy"])
    ok(one, made, {"type": "start_deal"})
    watchers = [Listener(server.url, made["id"], reconnect=False) for server in (one, two)]
    listeners.extend(watchers)
    for phone in watchers:
        assert phone.next_state()["seq"] == 1
    with ThreadPoolExecutor(max_workers=2) as pool:
        for seq, body in enumerate(KINGS_BODIES, start=1):
            sent = body | {"expect_seq": seq}
            answers = list(pool.map(lambda s, sent=sent: act(s, made, sent), (one, two)))
            codes = sorted(r.status_code for r in answers)
            assert codes == [200, 409], [r.text for r in answers]
            loser = next(r for r in answers if r.status_code == 409).json()
            assert loser["seq"] == seq + 1
    final = len(KINGS_BODIES) + 1
    for phone in watchers:
        got = phone.states_until(final)
        assert [s["seq"] for s in got] == list(range(2, final + 1))
        assert got[-1] == public(one, made) == public(two, made)
        assert phone.quiet() == []


def test_a_late_or_stale_state_from_the_queue_never_reaches_a_phone(
    start_queued: Any, redis_server: RedisServer, listeners: list[Listener], tmp_path: Path
) -> None:
    """States from other processes may come late: after a newer one, or after a join that
    read a newer one from the database. Another process is played here by Socket.IO's own
    external emitter (a write-only RedisManager on the app's channel) and by a process
    without the queue on the same database, whose actions nobody hears."""
    import socketio

    queued = start_queued()
    silent = start_queued(queued=False)  # acts on the database, tells nobody
    redis_server.wait_for_subscribers(1)
    made = queued.create_table("kings_pot", ["Ann", "Bob", "Cy"])
    ok(queued, made, {"type": "start_deal"})
    early = Listener(queued.url, made["id"], reconnect=False)
    listeners.append(early)
    assert early.next_state()["seq"] == 1
    ok(queued, made, KINGS_BODIES[0])
    assert early.next_state()["seq"] == 2  # the public room was last sent seq 2
    # two actions the queue never carried: a phone joining now reads seq 4 from the database
    ok(silent, made, KINGS_BODIES[1])
    ok(silent, made, KINGS_BODIES[2])
    late = Listener(queued.url, made["id"], reconnect=False)
    listeners.append(late)
    assert late.next_state()["seq"] == 4
    room = f"table:{made['id']}:public"
    emitter = socketio.RedisManager(redis_server.url, channel="flask-socketio", write_only=True)
    seen_before = public(queued, made)
    emitter.emit("state", {**seen_before, "seq": 3}, room=room)  # late: seq 3
    emitter.emit("state", seen_before, room=room)  # the broadcast of seq 4, late
    emitter.emit("state", {**seen_before, "seq": 1}, room=room)  # stale for everyone
    # the phone that joined at 4 gets nothing older nor again; the early one gets 3 and 4
    assert [s["seq"] for s in early.states_until(4)] == [3, 4]
    assert early.quiet() == [] and late.quiet(0.1) == []
    # and the next action reaches both, once
    answer = ok(queued, made, KINGS_BODIES[3])
    for phone in (early, late):
        assert phone.next_state() == public(queued, made)
        assert phone.quiet(0.2) == []
    assert answer["seq"] == 5
    assert late.seen == [4, 5] and early.seen == [1, 2, 3, 4, 5]


def test_cli_refuses_a_message_queue_it_cannot_use(tmp_path: Path) -> None:
    """The real command (in a process of its own: serve patches its process for gevent)."""
    def serve(queue: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*command(), "serve", "--port", str(free_port()), "--db", str(tmp_path / "q.db"),
             "--no-mdns", "--message-queue", queue],
            capture_output=True, text=True, timeout=60, check=False)

    refused = serve("http://127.0.0.1:1")
    assert refused.returncode == 2
    assert "takes a Redis address such as redis://" in refused.stderr
    nobody = free_port()  # nothing listens there
    refused = serve(f"redis://127.0.0.1:{nobody}")
    assert refused.returncode == 2, refused.stderr
    assert f"the message queue at redis://127.0.0.1:{nobody} does not answer" in refused.stderr
    assert "Traceback" not in refused.stderr and not (tmp_path / "q.db").exists()
