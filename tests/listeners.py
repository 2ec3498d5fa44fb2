"""A phone or tablet as the tests see it: a python-socketio client on a real server that joins
one table on every connect, as the pages do, and queues every ``state`` and ``error`` it gets.
The ``listeners`` fixture (conftest.py) closes every one a test made."""

from __future__ import annotations

import queue
import time
from typing import Any

import socketio as socketio_client


class Listener:
    def __init__(self, url: str, table: str, token: str | None = None, *,
                 transports: list[str] | None = None, headers: dict[str, str] | None = None,
                 reconnect: bool = True) -> None:
        """``reconnect``: come back (within half a second) when the server goes away, and
        join again, as the pages do; off where a test counts every state of one connection."""
        self.states: queue.Queue[dict[str, Any]] = queue.Queue()
        self.errors: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[int] = []  # the seq of every state, in the order they came
        self.arrivals: list[tuple[int, int]] = []  # (which connection: 1, 2..., seq) of each
        self.connects = 0
        self.sio = socketio_client.Client(reconnection=reconnect, reconnection_delay=0.2,
                                          reconnection_delay_max=0.5, randomization_factor=0)
        join = {"table": table} | ({"token": token} if token else {})

        @self.sio.event
        def connect() -> None:
            self.connects += 1
            self.sio.emit("join", join)

        def on_state(state: dict[str, Any]) -> None:
            self.seen.append(state["seq"])
            self.arrivals.append((self.connects, state["seq"]))
            self.states.put(state)

        self.sio.on("state", on_state)
        self.sio.on("error", self.errors.put)
        self.sio.connect(url, transports=transports or ["websocket"], wait_timeout=10,
                         headers=headers or {})

    def next_state(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.states.get(timeout=timeout)

    def states_until(self, seq: int, timeout: float = 15.0) -> list[dict[str, Any]]:
        """Every state received up to the one at ``seq`` (bounded by ``timeout``)."""
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while not got or got[-1]["seq"] < seq:
            got.append(self.states.get(timeout=max(0.01, deadline - time.monotonic())))
        return got

    def quiet(self, wait: float = 0.5) -> list[dict[str, Any]]:
        """What else arrives within ``wait`` seconds (nothing, in a correct server)."""
        time.sleep(wait)
        extra = []
        while not self.states.empty():
            extra.append(self.states.get_nowait())
        return extra

    def close(self) -> None:
        self.sio.disconnect()
