"""How often one guest may do a thing (issue 14): a token bucket per client address, for
joining a table and for making tables, and one per connection for its Socket.IO events
(issue 32). In memory and per process; nothing here knows Flask."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

MAX_KEYS = 10_000  # addresses (or clients) remembered at most; the oldest are forgotten first


class RateLimit:
    """A token bucket per key: ``burst`` at once, then ``rate`` per second. ``retry_after``
    says whether (and how long) a key must wait; ``take`` spends one."""

    def __init__(self, burst: int, rate: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, key: str) -> int:
        """Spend one for ``key``: 0 if it may go on, else the whole seconds to wait."""
        with self._lock:
            now = self.clock()
            tokens, then = self._buckets.pop(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) * self.rate)
            if tokens >= 1:
                tokens -= 1
                wait = 0
            else:
                wait = max(1, math.ceil((1 - tokens) / self.rate))
            self._buckets[key] = (tokens, now)
            while len(self._buckets) > MAX_KEYS:
                self._buckets.popitem(last=False)
            return wait

    def forget(self, key: str) -> None:
        """``key`` is gone (a connection closed): its bucket with it."""
        with self._lock:
            self._buckets.pop(key, None)
