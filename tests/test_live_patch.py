"""``state_patch`` (docs/api.md): a phone that joins with ``"patches": true`` gets the whole
state at the join, then only what changed; one that misses a patch joins again and is whole.
In-process first, then a real server with python-socketio clients that do what the phone page
does (static/js/phone.js)."""

from __future__ import annotations

import queue
import time
from typing import Any

import pytest
import requests
import socketio as socketio_client
from conftest import Dealer, Server
from engineio import packet
from flask import Flask
from flask_socketio import SocketIO, SocketIOTestClient
from patching import apply_patch

from dealer_assist.services.send_queue import NewestStateQueue
from dealer_assist.web.patch import state_patch

pytestmark = pytest.mark.timeout(120)

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]
PLAY = [{"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 1},
        {"type": "buy", "player": "Cy", "count": 2}, {"type": "buy", "player": "Dee", "count": 1},
        {"type": "buy", "player": "Eve", "count": 1}, {"type": "buy", "player": "Fay", "count": 1},
        {"type": "buy", "player": "Ann", "count": 1}]


def received(client: SocketIOTestClient, name: str) -> list[Any]:
    return [event["args"][0] for event in client.get_received() if event["name"] == name]


# --------------------------------------------------------------------------- the patch itself
def test_a_patch_turns_the_old_state_into_the_new_exactly() -> None:
    old = {"seq": 4, "players": [{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 90}],
           "log": ["a", "b", "c"], "result": None, "can_undo": 1, "gone": {"x": 1}}
    new = {"seq": 5, "players": [{"name": "Ann", "stack": 100}, {"name": "Bob", "stack": 80}],
           "log": ["b", "c", "d"], "result": {"winner": "Bob"}, "can_undo": True,
           "added": [1, 2]}
    ops = state_patch(old, new)
    assert ops == [[["seq"], 5], [["players", 1, "stack"], 80], [["log"], ["b", "c", "d"]],
                   [["result"], {"winner": "Bob"}], [["can_undo"], True],
                   [["added"], [1, 2]], [["gone"]]]
    assert apply_patch(old, ops) == new
    assert old["seq"] == 4  # applied to a copy
    assert state_patch(new, new) == []


def test_patches_replay_a_whole_deal(make_table: Any) -> None:
    d: Dealer = make_table("kings_pot", PLAYERS)
    before = d.state()
    for body in PLAY:
        d.act(body)
        after = d.state()
        ops = state_patch(before, after)
        assert apply_patch(before, ops) == after
        if body["type"] == "buy":  # one player's fields, not the whole list
            assert ["players"] not in [op[0] for op in ops]
        before = after


def test_a_full_send_queue_drops_patches_too() -> None:
    """A reader too far behind gets only the newest patch; its base is not the reader's seq,
    so the reader joins again for the whole state."""
    q = NewestStateQueue(limit=4)
    for seq in range(1, 101):
        q.put(packet.Packet(packet.MESSAGE, f'2["state_patch",{{"seq":{seq}}}]'))
    waiting = [q.get_nowait().data for _ in range(q.qsize())]
    assert len(waiting) <= 5 and waiting[-1] == '2["state_patch",{"seq":100}]'


# --------------------------------------------------------------------------- in-process
def test_a_patch_phone_gets_the_whole_state_then_what_changed(
    app: Flask, socketio: SocketIO, make_table: Any
) -> None:
    d: Dealer = make_table("kings_pot", PLAYERS)
    d.act(PLAY[0])
    phone = socketio.test_client(app)
    plain = socketio.test_client(app)
    phone.emit("join", {"table": d.id, "patches": True})
    plain.emit("join", {"table": d.id})
    (shown,) = received(phone, "state")
    assert shown == d.state() and shown["seq"] == 1
    plain.get_received()
    for seq, body in enumerate(PLAY[1:], start=2):
        d.act(body)
        events = phone.get_received()
        assert [e["name"] for e in events] == ["state_patch"]
        patch = events[0]["args"][0]
        assert (patch["id"], patch["seq"], patch["base_seq"]) == (d.id, seq, seq - 1)
        shown = apply_patch(shown, patch["ops"])
        assert shown == d.state()
        assert received(plain, "state") == [d.state()]  # the `state` event as it always was
    tablet = socketio.test_client(app)  # the dealer's view: whole states, never patches
    tablet.emit("join", {"table": d.id, "token": d.token, "patches": True})
    tablet.get_received()
    phone.get_received()
    answer = d.act({"type": "undo"})
    assert [e["name"] for e in tablet.get_received()] == ["state"]
    assert received(phone, "state_patch")[0]["seq"] == answer["seq"]


# --------------------------------------------------------------------------- a real server
class PatchPhone:
    """What static/js/phone.js does with the socket: the whole state on joining, patches
    applied while their base is the state shown, and a join again on any gap. ``miss``: seqs
    whose patch this phone loses (as a dropped packet would), to show it gets whole again."""

    def __init__(self, url: str, table: str, miss: set[int] | None = None) -> None:
        self.shown: dict[str, Any] | None = None
        self.seen: list[int] = []  # the seq of every state shown, in order
        self.wholes: list[int] = []  # the seq of every whole state received
        self.miss = miss or set()
        self.awaiting_whole = False
        self.changes: queue.Queue[int] = queue.Queue()
        self.sio = socketio_client.Client(reconnection=False)
        self.table = table

        @self.sio.event
        def connect() -> None:
            self.join()

        self.sio.on("state", self.on_state)
        self.sio.on("state_patch", self.on_patch)
        self.sio.connect(url, transports=["websocket"], wait_timeout=10)

    def join(self) -> None:
        self.sio.emit("join", {"table": self.table, "patches": True})

    def show(self, state: dict[str, Any]) -> None:
        self.shown = state
        self.seen.append(state["seq"])
        self.changes.put(state["seq"])

    def on_state(self, state: dict[str, Any]) -> None:
        self.awaiting_whole = False
        self.wholes.append(state["seq"])
        if self.shown is None or state["seq"] >= self.shown["seq"]:
            self.show(state)

    def on_patch(self, patch: dict[str, Any]) -> None:
        if patch["seq"] in self.miss:
            self.miss.discard(patch["seq"])
            return
        if self.awaiting_whole or self.shown is None or patch["seq"] <= self.shown["seq"]:
            return
        if patch["base_seq"] != self.shown["seq"]:
            self.awaiting_whole = True
            self.join()
            return
        self.show(apply_patch(self.shown, patch["ops"]))

    def wait_for(self, seq: int, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while self.shown is None or self.shown["seq"] < seq:
            self.changes.get(timeout=max(0.01, deadline - time.monotonic()))


def post(url: str, made: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    response = requests.post(f"{url}/api/tables/{made['id']}/actions", json=body, timeout=10,
                             headers={"Authorization": f"Bearer {made['dealer_token']}"})
    assert response.status_code == 200, response.text
    return response.json()


def test_real_server_a_phone_that_misses_a_patch_is_whole_again(start_server: Any) -> None:
    server: Server = start_server()
    made = server.create_table("kings_pot", PLAYERS)
    post(server.url, made, PLAY[0])
    steady, lossy = PatchPhone(server.url, made["id"]), PatchPhone(server.url, made["id"],
                                                                    miss={3})
    try:
        for phone in (steady, lossy):
            phone.wait_for(1)
        for body in PLAY[1:]:
            post(server.url, made, body)
        last = len(PLAY)
        public = requests.get(f"{server.url}/api/tables/{made['id']}", timeout=10).json()
        for phone in (steady, lossy):
            phone.wait_for(last)
            assert phone.shown == public  # exactly the state everyone else sees
            assert phone.seen == sorted(phone.seen)  # never backwards
        assert steady.seen == list(range(1, last + 1)) and steady.wholes == [1]
        # seq 3's patch was lost: seq 4's did not fit, the phone joined again and got the
        # whole state (of seq 4 or later), then patches on from there
        assert 3 not in lossy.seen and lossy.wholes[0] == 1 and len(lossy.wholes) == 2
        assert lossy.wholes[1] >= 4 and lossy.seen[-1] == last
    finally:
        for phone in (steady, lossy):
            phone.sio.disconnect()
