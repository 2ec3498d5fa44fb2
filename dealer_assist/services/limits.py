"""Caps on what one guest can push at the server (issue 14): rate limits, open connections
per client address and in all, and send queues that drop to the newest state.

Everything here is in memory and per process; nothing here knows Flask.
"""

from __future__ import annotations

import ipaddress
import math
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MAX_KEYS = 10_000  # addresses (or clients) remembered at most; the oldest are forgotten first


def is_loopback(address: str) -> bool:
    """The server's own machine: the host (web/host.py), never counted against a guest's
    per-address caps (behind an undeclared proxy every client is loopback: see
    docs/reliability.md on --proxy-hops)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


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


@dataclass
class ConnectionLimits:
    """Open connections per client address (``per_address``) and in all (``total``), with
    ``reserve`` of the total kept for the addresses that showed a dealer token (a tablet can
    always get in, however many sockets a guest holds). ``admit`` before serving a
    connection, ``release`` after it closes."""

    per_address: int = 32
    total: int = 800
    reserve: int = 32
    dealer_seconds: float = 12 * 3600  # a dealer's address keeps its room this long
    clock: Callable[[], float] = time.monotonic
    _open: dict[str, int] = field(default_factory=dict)
    _dealers: OrderedDict[str, float] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    refused: int = 0

    @property
    def open_total(self) -> int:
        with self._lock:
            return sum(self._open.values())

    def mark_dealer(self, address: str) -> None:
        """``address`` just showed a valid dealer token."""
        with self._lock:
            self._dealers.pop(address, None)
            self._dealers[address] = self.clock() + self.dealer_seconds
            while len(self._dealers) > MAX_KEYS:
                self._dealers.popitem(last=False)

    def is_dealer(self, address: str) -> bool:
        with self._lock:
            return self._dealers.get(address, 0.0) > self.clock()

    def admit(self, address: str) -> bool:
        dealer = self.is_dealer(address)
        own = is_loopback(address)
        with self._lock:
            mine = self._open.get(address, 0)
            everyone = sum(self._open.values())
            if dealer:
                allowed = everyone < self.total and (
                    own or mine < self.per_address + self.reserve)
            else:
                allowed = everyone < self.total - self.reserve and (own or mine < self.per_address)
            if not allowed:
                self.refused += 1
                return False
            self._open[address] = mine + 1
            return True

    def release(self, address: str) -> None:
        with self._lock:
            left = self._open.get(address, 0) - 1
            if left > 0:
                self._open[address] = left
            else:
                self._open.pop(address, None)


def total_for_descriptors(soft_limit: int) -> int:
    """How many connections to allow under a descriptor limit: each costs one descriptor
    (and a thread or four); the database, the log and Python keep about 200 for themselves."""
    return max(64, min(2000, soft_limit - 200))


# --------------------------------------------------------------------------- send queues
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
