"""Each client's send queue (issue 14): a client that does not read never holds more than a
few states, since a new state replaces the states still waiting for it."""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
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
    ``queue.Queue`` has them, on ``threading``'s locks (gevent's under gevent)."""

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self.dropped = 0
        self.queue: deque[Any] = deque()
        self.unfinished_tasks = 0
        self._mutex = threading.Lock()
        self._not_empty = threading.Condition(self._mutex)
        self._all_done = threading.Condition(self._mutex)

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        """Never waits: the queue drops old states instead of filling up."""
        with self._mutex:
            self._put(item)
            self._not_empty.notify()

    def put_nowait(self, item: Any) -> None:
        self.put(item, block=False)

    def _put(self, item: Any) -> None:
        waiting = self.queue
        if len(waiting) >= self.limit:
            if is_state(item):
                kept = [old for old in waiting if not is_state(old)]
                gone = len(waiting) - len(kept)
                if gone:
                    waiting.clear()
                    waiting.extend(kept)
                    self.unfinished_tasks -= gone
                    self.dropped += gone
            elif item is not None and len(waiting) >= 4 * self.limit:
                self.dropped += 1
                return
        waiting.append(item)
        self.unfinished_tasks += 1

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        with self._not_empty:
            if not block:
                if not self.queue:
                    raise queue.Empty
            elif timeout is None:
                while not self.queue:
                    self._not_empty.wait()
            else:
                ends = time.monotonic() + timeout
                while not self.queue:
                    left = ends - time.monotonic()
                    if left <= 0:
                        raise queue.Empty
                    self._not_empty.wait(left)
            return self.queue.popleft()

    def get_nowait(self) -> Any:
        return self.get(block=False)

    def task_done(self) -> None:
        with self._all_done:
            if self.unfinished_tasks <= 0:
                raise ValueError("task_done() called too many times")
            self.unfinished_tasks -= 1
            if self.unfinished_tasks == 0:
                self._all_done.notify_all()

    def join(self) -> None:
        with self._all_done:
            while self.unfinished_tasks:
                self._all_done.wait()

    def qsize(self) -> int:
        with self._mutex:
            return len(self.queue)

    def empty(self) -> bool:
        return self.qsize() == 0
