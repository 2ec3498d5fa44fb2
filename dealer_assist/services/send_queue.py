"""Each client's send queue (issue 14): a client that does not read never holds more than a
few states, since a new state replaces the states still waiting for it."""

from __future__ import annotations

import queue
import threading
import time
from typing import Any

# Socket.IO EVENT packets named "state" and "state_patch" on the default namespace: a patch
# that is dropped leaves a gap the client sees (its seq is not the next patch's base_seq), and
# it joins again for the whole state
STATE_PREFIXES = ('2["state",', '2["state_patch",')


def is_state(item: Any) -> bool:
    data = getattr(item, "data", None)
    return isinstance(data, str) and data.startswith(STATE_PREFIXES)


class NewestStateQueue:
    """An Engine.IO client's send queue. A client that does not read (a phone that never
    reads, or one spamming joins) would grow it without end, a full state per entry; here,
    once ``limit`` packets wait, a new state replaces every state still waiting (each state
    is whole and carries its ``seq``, so the newest is all the client needs; a ``state_patch``
    likewise replaces every state and patch waiting, and the client, seeing the gap, joins
    again for the whole state), and any other packet beyond ``4 * limit`` is dropped.

    Written here rather than on ``queue.Queue``, whose insides gevent replaces when it
    patches the process: ``put``, ``get``, ``task_done``, ``join`` and ``qsize`` as
    ``queue.Queue`` has them, on a list, a lock and two events (gevent's under gevent: a
    ``threading.Condition`` would cost each phone two more deques, 1.2 KiB)."""

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self.dropped = 0
        self.queue: list[Any] = []
        self.unfinished_tasks = 0
        self._lock = threading.Lock()
        self._waiting = threading.Event()  # set while packets wait
        self._done = threading.Event()  # set while every packet taken was done with
        self._done.set()

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        """Never waits: the queue drops old states instead of filling up."""
        with self._lock:
            self._put(item)
            if self.queue:
                self._waiting.set()
            if self.unfinished_tasks:
                self._done.clear()

    def put_nowait(self, item: Any) -> None:
        self.put(item, block=False)

    def _put(self, item: Any) -> None:
        waiting = self.queue
        if len(waiting) >= self.limit:
            if is_state(item):
                kept = [old for old in waiting if not is_state(old)]
                gone = len(waiting) - len(kept)
                if gone:
                    waiting[:] = kept
                    self.unfinished_tasks -= gone
                    self.dropped += gone
            elif item is not None and len(waiting) >= 4 * self.limit:
                self.dropped += 1
                return
        waiting.append(item)
        self.unfinished_tasks += 1

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        ends = None if timeout is None else time.monotonic() + timeout
        while True:
            with self._lock:
                if self.queue:
                    item = self.queue.pop(0)
                    if not self.queue:
                        self._waiting.clear()
                    return item
            if not block:
                raise queue.Empty
            left = None if ends is None else ends - time.monotonic()
            if left is not None and left <= 0:
                raise queue.Empty
            self._waiting.wait(left)

    def get_nowait(self) -> Any:
        return self.get(block=False)

    def task_done(self) -> None:
        with self._lock:
            if self.unfinished_tasks <= 0:
                raise ValueError("task_done() called too many times")
            self.unfinished_tasks -= 1
            if self.unfinished_tasks == 0:
                self._done.set()

    def join(self) -> None:
        while True:
            with self._lock:
                if self.unfinished_tasks == 0:
                    return
            self._done.wait()

    def qsize(self) -> int:
        with self._lock:
            return len(self.queue)

    def empty(self) -> bool:
        return self.qsize() == 0
