"""Dealer tokens: random, shown once, kept only as a hash, compared in constant time; the
throttle that slows anyone guessing them; and more than one dealer device (R75): pairing
codes that give another device a token of its own, and signing the other devices out.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from dealer_assist.services import storage
from dealer_assist.services.locks import native_lock
from dealer_assist.services.storage import Connection as Database

TOKEN_BYTES = 24  # 192 bits: nobody guesses it
TABLE_ID_BYTES = 6  # 8 URL-safe characters: short enough to type, long enough not to collide


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    """Never starting with ``-``: an id goes in URLs and on command lines, where
    ``dealer-assist pair -XOre1KC`` would read as an option (one id in 64 did)."""
    while True:
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        if not table_id.startswith("-"):
            return table_id


def hash_token(token: str) -> str:
    """A random 192-bit token needs no slow hash: sha256 of it cannot be reversed."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


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
        self._lock = native_lock()  # loop and native threads alike (services/locks.py)
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

    def fail(self, address: str, table_id: str, what: str = "dealer token") -> None:
        """Count a wrong token (or pairing code: ``what``) from ``address`` and log it,
        never the token or code itself."""
        with self._lock:
            now = self.clock()
            times = self._recent(address, now)
            times.append(now)
            self._failures.pop(address, None)
            self._failures[address] = times  # most recent last: the oldest go first
            while len(self._failures) > MAX_ADDRESSES:
                del self._failures[next(iter(self._failures))]
            count = len(times)
        log.warning("Wrong %s for table %s from %s (%d in %gs).",
                    what, table_id[:64], address, count, self.window)


def throttled_sentence(seconds: int) -> str:
    return (f"Too many wrong dealer tokens from this device: wait {seconds} seconds, then open "
            "the dealer link again.")


def throttled_code_sentence(seconds: int) -> str:
    return (f"Too many wrong pairing codes from this device: wait {seconds} seconds, then "
            "type the code again.")


# --------------------------------------------------------------------------- dealer devices
PAIRING_DIGITS = 6
PAIRING_SECONDS = 300  # a code is valid five minutes
CODE_TRIES = 20  # wrong tries at one code, from anywhere, before it stops working

WRONG_CODE_SENTENCE = ("That is not this table's pairing code (or it was used already): check "
                       "the six digits, or ask for a new code.")


SIGNED_OUT_SENTENCE = ("This device was signed out by another dealer device: to deal here "
                       "again, get a pairing code on the dealing device and tap \"I'm dealing: "
                       "enter code\".")


@dataclass(frozen=True)
class DealerToken:
    """A token's row: its id (which live connections remember) and whether it still works."""

    id: int
    signed_out: bool


@dataclass(frozen=True)
class PairingCode:
    code: str
    expires_in: int  # seconds


@dataclass(frozen=True)
class Paired:
    """A code accepted: the new device's token (shown once) and its id."""

    token: str
    token_id: int


class PairingRefused(ValueError):
    """A used, expired or wrong code: the sentence says which."""


def find_dealer_token(db: Database, table_id: str, token: str | None) -> DealerToken | None:
    """The row of ``token`` among the table's dealer tokens, or None. The lookup is by the
    token's sha256, so how long it takes tells nothing about the token."""
    if not token or not isinstance(token, str) or len(token) > 200:
        return None
    row = db.execute(
        "SELECT rowid, signed_out FROM dealer_tokens WHERE token_hash = ? AND table_id = ?",
        [hash_token(token), table_id]).fetchone()
    return DealerToken(int(row[0]), row[1] is not None) if row else None


def token_id_valid(db: Database, token_id: int) -> bool:
    """Whether the token with this id is still signed in (a live connection asks)."""
    row = db.execute("SELECT signed_out FROM dealer_tokens WHERE rowid = ?",
                     [token_id]).fetchone()
    return row is not None and row[0] is None


def code_hash(table_id: str, code: str) -> str:
    return hashlib.sha256(f"{table_id}:{code}".encode()).hexdigest()


def new_pairing_code(db: Database, table_id: str, now: float | None = None) -> PairingCode:
    """A fresh six-digit code for the table, valid :data:`PAIRING_SECONDS`; it replaces the
    table's earlier code if that was not used, so at most one code per table is open. Only
    its hash is stored."""
    code = f"{secrets.randbelow(10 ** PAIRING_DIGITS):0{PAIRING_DIGITS}d}"
    expires = (time.time() if now is None else now) + PAIRING_SECONDS
    with storage.write_transaction(db, key=table_id):
        db.execute("INSERT INTO pairing_codes (table_id, code_hash, expires, failures)"
                   " VALUES (?, ?, ?, 0) ON CONFLICT (table_id) DO UPDATE SET"
                   " code_hash = excluded.code_hash, expires = excluded.expires, failures = 0",
                   [table_id, code_hash(table_id, code), expires])
    return PairingCode(code, PAIRING_SECONDS)


def redeem_pairing_code(db: Database, table_id: str, code: object,
                        now: float | None = None) -> Paired:
    """Use the table's code: once, within its five minutes. Returns the new device's token;
    raises :class:`PairingRefused` with a sentence for anything else (the caller counts it
    as a wrong try)."""
    if not isinstance(code, str) or not code.strip():
        raise PairingRefused('Send the six-digit code as {"code": "123456"}.')
    code = code.strip().replace(" ", "")
    if len(code) != PAIRING_DIGITS or not code.isascii() or not code.isdigit():
        raise PairingRefused("A pairing code is six digits: look at the dealing device "
                             "again and type them.")
    at = time.time() if now is None else now
    refusal: str | None = None
    with storage.write_transaction(db, key=table_id):  # a refusal is raised after the commit
        row = db.execute("SELECT code_hash, expires, failures FROM pairing_codes"
                         " WHERE table_id = ?", [table_id]).fetchone()
        if row is None:
            refusal = WRONG_CODE_SENTENCE
        elif not hmac.compare_digest(row[0], code_hash(table_id, code)):
            # counted against the code itself, from every address and process: guessing with
            # many addresses gets at most CODE_TRIES tries at one code
            if row[2] + 1 >= CODE_TRIES:
                db.execute("DELETE FROM pairing_codes WHERE table_id = ?", [table_id])
            else:
                db.execute("UPDATE pairing_codes SET failures = failures + 1"
                           " WHERE table_id = ?", [table_id])
            refusal = WRONG_CODE_SENTENCE
        elif row[1] <= at:
            db.execute("DELETE FROM pairing_codes WHERE table_id = ?", [table_id])
            refusal = ("That pairing code has expired (a code lasts five minutes): ask for a "
                       "new one on the dealing device.")
        else:
            db.execute("DELETE FROM pairing_codes WHERE table_id = ?", [table_id])  # one use
            token = new_token()
            token_id = storage.insert_dealer_token(db, table_id, hash_token(token))
    if refusal is not None:
        raise PairingRefused(refusal)
    return Paired(token, int(token_id))


def sign_out_others(db: Database, table_id: str, keep: int) -> int:
    """Sign out every dealer token of the table but the one with id ``keep``, at once, and
    void any open pairing code. Returns how many were signed out."""
    with storage.write_transaction(db, key=table_id):
        cursor = db.execute(
            "UPDATE dealer_tokens SET signed_out = ? WHERE table_id = ? AND rowid != ?"
            " AND signed_out IS NULL", [storage.now(), table_id, keep])
        db.execute("DELETE FROM pairing_codes WHERE table_id = ?", [table_id])
    return int(cursor.rowcount)
