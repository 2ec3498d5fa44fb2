"""Each client's send queue (issue 14): a client that does not read never holds more than a
few states, since a new state replaces the states still waiting for it. Cheap per packet
(issue 32): at 500 phones a broadcast puts one packet in 500 of these, and each phone's
writer takes it out."""

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

    ``put``, ``get``, ``task_done``, ``join`` and ``qsize`` as ``queue.Queue`` has them, on
    a deque whose ``append`` and ``popleft`` are atomic: a packet costs no lock while fewer
    than ``limit`` wait (only the dropping takes one), and the writer is woken through one
    event (gevent's under gevent: a ``threading.Condition`` would cost each phone two more
    deques, 1.2 KiB). Packets not yet done with are those waiting plus those the one reader
    (Engine.IO's writer, or the long-poll) took and has not marked done: a count only that
    reader changes, so it needs no lock either."""

    def __init__(self, limit: int = 64) -> None:
        self.limit = limit
        self.dropped = 0
        self.queue: deque[Any] = deque()
        self._taken = 0  # got and not yet task_done: changed by the reader alone
        self._dropping = threading.Lock()  # producers over the limit, one at a time
        self._ready = threading.Event()  # set by a put: the reader, waiting, looks again

    @property
    def unfinished_tasks(self) -> int:
        return len(self.queue) + self._taken

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        """Never waits: the queue drops old states instead of filling up."""
        if len(self.queue) >= self.limit and not self._make_room(item):
            return
        self.queue.append(item)
        self._ready.set()

    def put_nowait(self, item: Any) -> None:
        self.put(item, block=False)

    def _make_room(self, item: Any) -> bool:
        """Over the limit: a state drops every state waiting; another packet is dropped
        itself beyond ``4 * limit``. Whether ``item`` is still to be queued."""
        with self._dropping:
            waiting = self.queue
            if is_state(item):
                # each packet waiting is taken from the left and the others put back on the
                # right, in their order, one atomic step each: the reader may go on taking
                for _ in range(len(waiting)):
                    try:
                        old = waiting.popleft()
                    except IndexError:  # the reader took the rest meanwhile
                        break
                    if is_state(old):
                        self.dropped += 1
                    else:
                        waiting.append(old)
                return True
            if item is not None and len(waiting) >= 4 * self.limit:
                self.dropped += 1
                return False
            return True

    def get(self, block: bool = True, timeout: float | None = None) -> Any:
        ends: float | None = None
        while True:
            try:
                item = self.queue.popleft()
            except IndexError:
                if not block:
                    raise queue.Empty from None
            else:
                self._taken += 1
                return item
            self._ready.clear()
            if self.queue:  # put before the clear: its set came before it too
                continue
            if timeout is None:
                self._ready.wait()
                continue
            ends = time.monotonic() + timeout if ends is None else ends
            left = ends - time.monotonic()
            if (left <= 0 or not self._ready.wait(left)) and not self.queue:
                raise queue.Empty

    def get_nowait(self) -> Any:
        return self.get(block=False)

    def task_done(self) -> None:
        if self._taken <= 0:
            raise ValueError("task_done() called too many times")
        self._taken -= 1

    def join(self) -> None:
        """Until every packet put was taken and done with (Engine.IO's close with ``wait``,
        rare): it looks every :data:`JOIN_LOOK_SECONDS`, so that no packet pays for it."""
        while self.unfinished_tasks:
            time.sleep(JOIN_LOOK_SECONDS)

    def qsize(self) -> int:
        return len(self.queue)

    def empty(self) -> bool:
        return not self.queue


JOIN_LOOK_SECONDS = 0.01
