"""How many connections the server holds open (issue 14): per client address and in all,
with room kept for the addresses that showed a dealer token, so that a guest holding
thousands of sockets neither runs the process out of descriptors nor locks out a tablet.
In memory and per process; nothing here knows Flask."""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from dealer_assist.services.rate_limit import MAX_KEYS


def is_loopback(address: str) -> bool:
    """The server's own machine: the host (web/host.py), never counted against a guest's
    per-address caps (behind an undeclared proxy every client is loopback: see
    docs/reliability.md on --proxy-hops)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


@dataclass
class ConnectionCaps:
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
    _held_off: OrderedDict[str, float] = field(default_factory=OrderedDict)
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

    def hold_off(self, address: str, seconds: float) -> None:
        """Refuse new connections from ``address`` for ``seconds`` (a guest over its rate:
        each refusal then costs a closed socket, not an answer). Never the server's own
        machine nor a dealer's address."""
        if is_loopback(address) or self.is_dealer(address):
            return
        with self._lock:
            self._held_off.pop(address, None)
            self._held_off[address] = self.clock() + seconds
            while len(self._held_off) > MAX_KEYS:
                self._held_off.popitem(last=False)

    def admit(self, address: str) -> bool:
        dealer = self.is_dealer(address)
        own = is_loopback(address)
        with self._lock:
            until = self._held_off.get(address)
            if until is not None:
                if until > self.clock():
                    self.refused += 1
                    return False
                del self._held_off[address]
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
    (and a few KiB: docs/benchmarks.md, "Capacity"); the database, the log and Python keep
    about 200 for themselves."""
    return max(64, soft_limit - 200)
