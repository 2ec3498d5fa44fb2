"""Backpressure (issue 16): one phone that never reads its socket slows neither the other
phones' updates nor the dealer's answers. A real ``dealer-assist serve``, real python-socketio
phones, and one raw websocket client that joins, then stops reading with a tiny receive
buffer, so that the server's sends to it back up at once."""

from __future__ import annotations

import json
import socket
import statistics
import time
from typing import Any

import pytest
import requests
import websocket
from conftest import Server
from listeners import Listener

pytestmark = pytest.mark.timeout(180)

# 22 players of 40 characters: a big public state (several KB), as at a full King's Pot table
PLAYERS = [f"Player {i:02d} " + "x" * 30 for i in range(22)]
# a buy and its undo each: 500 states of ~6 KB, past what the kernel's buffers hold and the
# send queue's 64 packets
ROUNDS = 250
SANITY_SECONDS = 5.0  # no answer waits this long, with or without the slow reader


class SlowReader:
    """Engine.IO 4 and Socket.IO 5 by hand over one websocket: open, connect, join; then this
    client reads nothing more until :meth:`drain`."""

    def __init__(self, url: str, table: str) -> None:
        address = url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket"
        self.ws = websocket.create_connection(
            address, timeout=10, sockopt=((socket.SOL_SOCKET, socket.SO_RCVBUF, 2048),))
        assert self.ws.recv().startswith("0{")  # Engine.IO open
        self.ws.send("40")  # Socket.IO connect to the default namespace
        assert self.ws.recv().startswith("40")
        self.ws.send(json.dumps(["join", {"table": table}], separators=(",", ":")).join(
            ("42", "")))

    def drain(self, last: int, timeout: float = 30.0) -> list[int]:
        """Read again: the seq of every state that comes, up to ``last``."""
        seqs: list[int] = []
        deadline = time.monotonic() + timeout
        while (not seqs or seqs[-1] < last) and time.monotonic() < deadline:
            frame = self.ws.recv()
            if frame == "2":  # Engine.IO ping
                self.ws.send("3")
            elif isinstance(frame, str) and frame.startswith('42["state",'):
                seqs.append(json.loads(frame[2:])[1]["seq"])
        return seqs

    def close(self) -> None:
        self.ws.close(timeout=1)


def play(url: str, made: dict[str, Any],
         phones: list[Listener]) -> tuple[list[float], list[float], dict[int, list[int]]]:
    """start_deal, then ROUNDS of a buy and its undo. Each action waits for its answer and
    for every reading phone to show it, as a dealer glances at the table before the next
    tap; so a phone that reads can never fall the send queue's 64 states behind, and any
    state it misses is the server's fault, whatever the machine's load. Returns each
    answer's time, each time until every phone had it, and each phone's seqs in order."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {made['dealer_token']}"
    bodies = [{"type": "buy", "player": PLAYERS[1], "count": 1}, {"type": "undo"}] * ROUNDS
    answers, arrivals = [], []
    seen: dict[int, list[int]] = {index: [] for index in range(len(phones))}
    for body in bodies:
        t0 = time.monotonic()
        response = session.post(f"{url}/api/tables/{made['id']}/actions", json=body, timeout=30)
        answers.append(time.monotonic() - t0)
        assert response.status_code == 200, response.text
        seq = response.json()["seq"]
        for index, phone in enumerate(phones):
            seen[index].extend(s["seq"] for s in phone.states_until(seq, timeout=30))
        arrivals.append(time.monotonic() - t0)
    session.close()
    return answers, arrivals, seen


def test_a_phone_that_never_reads_slows_nobody(start_server: Any,
                                               listeners: list[Listener]) -> None:
    server: Server = start_server()
    runs: dict[str, tuple[list[float], list[float]]] = {}
    last = 1 + 2 * ROUNDS
    for case in ("without", "with"):  # side by side: the same play, then with a slow reader
        made = server.create_table("kings_pot", PLAYERS)
        requests.post(f"{server.url}/api/tables/{made['id']}/actions",
                      json={"type": "start_deal"}, timeout=10,
                      headers={"Authorization": f"Bearer {made['dealer_token']}"})
        phones = [Listener(server.url, made["id"], reconnect=False) for _ in range(3)]
        listeners.extend(phones)
        for phone in phones:
            assert phone.next_state()["seq"] == 1
        slow = SlowReader(server.url, made["id"]) if case == "with" else None
        try:
            if slow is not None:
                time.sleep(0.3)  # its join is in: it is in the room from here on
            answers, arrivals, seen = play(server.url, made, phones)
            for seqs in seen.values():
                assert seqs == list(range(2, last + 1))  # every seq, in order, on every phone
            runs[case] = answers, arrivals
            if slow is not None:
                # it reads again: the newest state came at the end, older ones were dropped
                # while it did not read (the send queue keeps the newest, never grows without end)
                drained = slow.drain(last)
                assert drained[-1] == last and drained == sorted(drained)
                assert len(drained) < last, "nothing was dropped: the reader never fell behind"
        finally:
            if slow is not None:
                slow.close()
    for case, (answers, arrivals) in runs.items():
        assert max(answers) < SANITY_SECONDS, (case, max(answers))
        assert max(arrivals) < SANITY_SECONDS, (case, max(arrivals))
    print("answer / on every phone, median without vs with a slow reader: "
          f"{statistics.median(runs['without'][0]) * 1000:.1f} / "
          f"{statistics.median(runs['without'][1]) * 1000:.1f} vs "
          f"{statistics.median(runs['with'][0]) * 1000:.1f} / "
          f"{statistics.median(runs['with'][1]) * 1000:.1f} ms")
