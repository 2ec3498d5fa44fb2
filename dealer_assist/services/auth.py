"""Dealer tokens: random, shown once, kept only as a hash, compared in constant time; and
the throttle that slows anyone guessing them."""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable

TOKEN_BYTES = 24  # 192 bits: nobody guesses it
TABLE_ID_BYTES = 6  # 8 URL-safe characters: short enough to type, long enough not to collide


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    return secrets.token_urlsafe(TABLE_ID_BYTES)


def hash_token(token: str) -> str:
    """A random 192-bit token needs no slow hash: sha256 of it cannot be reversed."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, token_hash: str) -> bool:
    if not token or not isinstance(token, str) or len(token) > 200:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


# --------------------------------------------------------------------------- guessing
log = logging.getLogger("dealer_assist.auth")

MAX_FAILURES = 10  # wrong tokens from one address ...
FAILURE_WINDOW_SECONDS = 60.0  # ... within this many seconds, and it must wait
MAX_ADDRESSES = 10_000  # addresses remembered at most; the oldest are forgotten first


class FailureThrottle:
    """Wrong dealer tokens per client address, in memory, per process (each server process
    counts its own; a restart forgets). An address with ``limit`` failures within the last
    ``window`` seconds is refused (429) until the oldest of them is ``window`` seconds old;
    other addresses are not touched. ``clock`` is ``time.monotonic`` unless a test gives its
    own."""

    def __init__(self, limit: int = MAX_FAILURES, window: float = FAILURE_WINDOW_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, address: str, now: float) -> deque[float]:
        times = self._failures.get(address, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def retry_after(self, address: str) -> int:
        """0 if ``address`` may try a token now, else the whole seconds it must wait."""
        with self._lock:
            now = self.clock()
            times = self._recent(address, now)
            if not times:
                self._failures.pop(address, None)
            if len(times) < self.limit:
                return 0
            return max(1, math.ceil(times[-self.limit] + self.window - now))

    def fail(self, address: str, table_id: str) -> None:
        """Count a wrong token from ``address`` and log it (never the token itself)."""
        with self._lock:
            now = self.clock()
            times = self._recent(address, now)
            times.append(now)
            self._failures.pop(address, None)
            self._failures[address] = times  # most recent last: the oldest go first
            while len(self._failures) > MAX_ADDRESSES:
                del self._failures[next(iter(self._failures))]
            count = len(times)
        log.warning("Wrong dealer token for table %s from %s (%d in %gs).",
                    table_id[:64], address, count, self.window)


def throttled_sentence(seconds: int) -> str:
    return (f"Too many wrong dealer tokens from this device: wait {seconds} seconds, then open "
            "the dealer link again.")
