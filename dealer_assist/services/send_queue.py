"""Each client's send queue (issue 14): a client that does not read never holds more than a
few states, since a new state replaces the states still waiting for it."""

from __future__ import annotations

import queue
from typing import Any

# Socket.IO EVENT packets named "state" and "state_patch" on the default namespace: a patch
# that is dropped leaves a gap the client sees (its seq is not the next patch's base_seq), and
# it joins again for the whole state
STATE_PREFIXES = ('2["state",', '2["state_patch",')


def is_state(item: Any) -> bool:
    data = getattr(item, "data", None)
    return isinstance(data, str) and data.startswith(STATE_PREFIXES)


class NewestStateQueue(queue.Queue):  # type: ignore[type-arg]
    """An Engine.IO client's send queue. A client that does not read (a phone that never
    reads, or one spamming joins) would grow it without end, a full state per entry; here,
    once ``limit`` packets wait, a new state replaces every state still waiting (each state
    is whole and carries its ``seq``, so the newest is all the client needs; a ``state_patch``
    likewise replaces every state and patch waiting, and the client, seeing the gap, joins
    again for the whole state), and any other packet beyond ``4 * limit`` is dropped."""

    def __init__(self, limit: int = 64) -> None:
        super().__init__()
        self.limit = limit
        self.dropped = 0

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
                self.unfinished_tasks -= 1  # put() counts it after _put
                return
        waiting.append(item)
