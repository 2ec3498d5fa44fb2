"""What anyone may read, off the event loop in a pool of its own, bounded (issue 32).

A guest on the Wi-Fi may ask for a big table's deal list, its exports, the home page or a
state from many connections at once. Each such view (:func:`view`) runs whole in a native
thread of the readers' own pool (``READ_THREADS``), never on the loop and never in gevent's
pool, where the dealer's commit and fsync wait. Before it waits there, the loop counts it:
at most ``READS_PER_ADDRESS`` reads of one client address at once and ``READS_AT_ONCE`` in
all; a read over either waits up to ``READ_WAIT`` seconds for room, then is refused (a ``429``,
a ``503``) with a sentence and ``Retry-After``. Of one guest address's reads let in, one runs
at a time (``READ_TURNS``; its answer made and sent), the others wait their turn costing
nothing: a guest's eight connections then cost the loop one answer's work at a time, not
four, between the dealer's turns (docs/benchmarks.md, "A guest reading big tables"). The server's
own machine and the addresses that showed a dealer token are never refused (they still
count in the total a guest meets).

Turns bound how many of a guest's reads run at once, not how often: one address asking as
fast as answers come still kept a reader thread busy in Python, taking the interpreter's lock
from the loop between the dealer's hops. So each guest address also has a budget of reader
time (:class:`ReadBudget`): each read's cost (its thread's CPU time, the loop's share of a
request and of the bytes it sends) is owed by its address and paid back at a fixed rate;
an address owing more than its allowance waits, costing nothing, before its next read runs
(up to ``READ_WAIT``, then the ``429`` sentence). All guest addresses together owe to a
second, total budget. A phone's page costs milliseconds and never waits; a script's hammer
is paced to a share of a core.

Answers that depend on a table's seq alone (the deal list, the exports) are kept on disk by
that seq (:class:`SeqCache`): a guest asking again gets the same bytes, read from a file a
block at a time as the socket takes them, so memory does not grow with the answers' size.
"""

from __future__ import annotations

import atexit
import contextvars
import functools
import os
import shutil
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, ParamSpec, TypeVar

from flask import Flask, Response, current_app

from dealer_assist.services import phh
from dealer_assist.services.connection_caps import is_loopback
from dealer_assist.web import off_loop
from dealer_assist.web.errors import ApiError
from dealer_assist.web.guest_caps import address, connections

P = ParamSpec("P")
T = TypeVar("T")

DEFAULTS: dict[str, Any] = {
    # two: the work is Python's, and one core of two is the loop's; more threads would only
    # take the interpreter's lock from the loop more often
    "READ_THREADS": 2,
    "READS_PER_ADDRESS": 4,  # a page and its charts are let in at once; a script's hammer waits
    "READS_AT_ONCE": 16,
    "READ_WAIT": 2.0,  # seconds a read over a cap waits for room before its refusal
    # of a guest address's reads let in, one runs at a time, the others wait their turn (a
    # page's few reads take milliseconds each); False: all of them at once
    "READ_TURNS": True,
    "ANSWERS_KEPT": 32,  # answers cached on disk, by table and seq
    # deals' PHH sections kept (about 0.5 KB each): a tap in the current deal then makes a
    # big table's next export.phhs replay one deal, not all of them
    "PHH_SECTIONS_KEPT": 20_000,
    # the guests' budget of reader time (ReadBudget), in seconds of work per second: one
    # address a tenth of a core (a quarter still let the views attack take the dealer's ack
    # to 1.55-2.48x its quiet median, a tenth 0.95-1.36x: docs/benchmarks.md); all guests a
    # quarter, however many a script uses. A phone's page costs a few ms of work, a state
    # 1-2 ms with the loop's part: far inside either.
    "GUEST_READ_SHARE": 0.1,
    "GUEST_READS_SHARE": 0.25,
    # seconds of work owed that still let a read in at once (twice this for all guests): a
    # page and its charts, a 3,000-deal table's export.phhs made once (a second of work);
    # past it an address waits for its debt to drain
    "GUEST_READ_ALLOWANCE": 1.0,
}
CHUNK = 256 * 1024  # a few loop turns per megabyte sent
# what a read costs the loop's thread beyond the reader thread's CPU time, measured on this
# 2-core machine (docs/benchmarks.md): 0.7-1.5 ms a request (its parsing, dispatch, hops and
# gzip), 0.3 ms a megabyte sent on loopback; rounded up, as a slower client's socket takes
# more, smaller writes
LOOP_COST_PER_READ = 0.001
LOOP_COST_PER_MB = 0.001
TOTAL = "*"  # the total budget's key among the addresses'
KEPT_DEBTS = 256  # past this many addresses owing, the paid ones are forgotten

SLOTS = "dealer_assist.read_slots"
POOL = "dealer_assist.read_pool"
CACHE = "dealer_assist.answers"
BUDGET = "dealer_assist.read_budget"
SECTIONS = "dealer_assist.phh_sections"


def busy_device(limit: int) -> str:
    return (f"This device is already waiting for {limit} answers: wait for them, then try "
            "again.")


BUSY_SERVER = "The server is busy answering other devices: try again in a moment."


class ReadSlots:
    """The reads waiting or running, per client address and in all (counted on the loop's
    thread under gevent). A read over a cap first waits up to ``wait`` seconds for a slot,
    costing nothing meanwhile (a page's few reads at once are all answered, and a script's
    hammer is slowed to the answers' pace instead of spinning on refusals), then is
    refused."""

    def __init__(self, per_address: int, total: int, wait: float = 0.0) -> None:
        self.per_address = per_address
        self.total = total
        self.wait = wait
        self.running = 0
        self.by_address: dict[str, int] = {}
        self.serving: set[str] = set()  # the addresses whose turn it is (wait_turn)
        # never held across a wait but the condition's own: a greenlet's lock under gevent
        self._free = threading.Condition(threading.Lock())

    def take(self, here: str, exempt: bool) -> ApiError | None:
        """Count a read of ``here``, once there is room for it; the refusal instead if there
        is none within :attr:`wait`."""
        with self._free:
            if not exempt and not self._free.wait_for(lambda: self._room(here), self.wait):
                if self.by_address.get(here, 0) >= self.per_address:
                    return ApiError(429, busy_device(self.per_address), retry_after=1)
                return ApiError(503, BUSY_SERVER, retry_after=1)
            self.running += 1
            self.by_address[here] = self.by_address.get(here, 0) + 1
            return None

    def _room(self, here: str) -> bool:
        return self.by_address.get(here, 0) < self.per_address and self.running < self.total

    def wait_turn(self, here: str) -> ApiError | None:
        """Wait until no other read of ``here`` is running, then run; after :attr:`wait`
        seconds without a turn, the refusal instead (the address's reads stuck ahead)."""
        with self._free:
            if not self._free.wait_for(lambda: here not in self.serving, self.wait):
                return ApiError(429, busy_device(self.per_address), retry_after=1)
            self.serving.add(here)
            return None

    def release(self, here: str, turn: bool = False) -> None:
        """A read of ``here`` is done: its slot back, and its turn if it took one."""
        with self._free:
            if turn:
                self.serving.discard(here)
            self.running -= 1
            left = self.by_address[here] - 1
            if left:
                self.by_address[here] = left
            else:
                del self.by_address[here]
            self._free.notify_all()


@dataclass
class Debt:
    seconds: float = 0.0  # of work owed
    at: float = 0.0  # when it was last worked out (the clock's time)


class ReadBudget:
    """A leaky bucket of reader time per guest address and for all of them: each read's
    cost is added to its address's debt and to the total's; debts drain at ``share`` and
    ``total_share`` seconds a second. A read whose address owes more than ``allowance``
    (or the total more than twice that) waits until it does not. ``clock`` is for the
    tests."""

    def __init__(self, share: float, total_share: float, allowance: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.share = share
        self.total_share = total_share
        self.allowance = allowance
        self.clock = clock
        self.debts: dict[str, Debt] = {}
        # the threaded server's requests count at once (under gevent, the loop's thread
        # alone): a few dict operations, never held across a wait
        self._lock = off_loop.native_lock()

    def _owed(self, here: str, now: float) -> float:
        debt = self.debts.get(here)
        if debt is None:
            return 0.0
        rate = self.total_share if here == TOTAL else self.share
        left = max(0.0, debt.seconds - rate * (now - debt.at))
        if left == 0.0:
            del self.debts[here]  # paid: an address seen once is not kept
        else:
            debt.seconds, debt.at = left, now
        return left

    def delay(self, here: str) -> float:
        """Seconds before a read of ``here`` may run (0: at once)."""
        with self._lock:
            now = self.clock()
            mine = (self._owed(here, now) - self.allowance) / self.share
            everyone = (self._owed(TOTAL, now) - 2 * self.allowance) / self.total_share
            return max(0.0, mine, everyone)

    def charge(self, here: str, seconds: float) -> None:
        """A read of ``here`` cost ``seconds`` of work."""
        with self._lock:
            now = self.clock()
            if len(self.debts) > KEPT_DEBTS:  # forget the addresses that paid theirs
                for key in list(self.debts):
                    self._owed(key, now)
            for key in (here, TOTAL):
                owed = self._owed(key, now)
                self.debts[key] = Debt(owed + seconds, now)


def read_cost(thread_seconds: float, answer: object) -> float:
    """What a read cost: its thread's CPU time and the loop's part, the bytes it sends
    counted where the answer says how many (a kept answer, a made page)."""
    sent = answer.content_length if isinstance(answer, Response) else None
    return thread_seconds + LOOP_COST_PER_READ + (sent or 0) / 1e6 * LOOP_COST_PER_MB


def install(app: Flask) -> None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.extensions[SLOTS] = ReadSlots(int(app.config["READS_PER_ADDRESS"]),
                                      int(app.config["READS_AT_ONCE"]),
                                      float(app.config["READ_WAIT"]))
    app.extensions[BUDGET] = ReadBudget(float(app.config["GUEST_READ_SHARE"]),
                                        float(app.config["GUEST_READS_SHARE"]),
                                        float(app.config["GUEST_READ_ALLOWANCE"]))
    app.extensions[POOL] = off_loop.Pool(int(app.config["READ_THREADS"]))
    app.extensions[CACHE] = SeqCache(int(app.config["ANSWERS_KEPT"]))
    app.extensions[SECTIONS] = phh.Sections(int(app.config["PHH_SECTIONS_KEPT"]))


def view(fn: Callable[P, T]) -> Callable[P, T]:
    """A Flask view that anyone may call, run whole in the readers' pool with the request's
    context, once the caps let it in (a ``429`` or ``503`` sentence if not). Only for views
    that emit nothing to Socket.IO."""
    @functools.wraps(fn)
    def in_the_pool(*args: P.args, **kwargs: P.kwargs) -> T:
        app = current_app
        slots: ReadSlots = app.extensions[SLOTS]
        here = address()
        exempt = is_loopback(here) or connections(app).is_dealer(here)
        refused = slots.take(here, exempt)
        if refused is not None:
            raise refused
        turn = False  # whether this read holds its address's turn (to give back)
        held = True
        try:
            if not exempt and app.config["READ_TURNS"]:
                refused = slots.wait_turn(here)
                if refused is not None:
                    raise refused
                turn = True
            budget: ReadBudget = app.extensions[BUDGET]
            if not exempt:
                refused = pay_first(budget, here, slots)
                if refused is not None:
                    raise refused
            context = contextvars.copy_context()
            pool: off_loop.Pool = app.extensions[POOL]
            spent = [0.0]  # the reader thread's CPU time for the view
            made: list[T] = []
            try:
                made.append(pool.run(timed, spent, lambda: context.run(fn, *args, **kwargs)))
            finally:  # a refusal (a 404) costs its address too: never a free hammer
                if not exempt:
                    budget.charge(here, read_cost(spent[0], made[0] if made else None))
            answer = made[0]
            if isinstance(answer, Response) and not answer.is_sequence:
                # a streamed answer holds its slot until it is sent: a guest's hammer is
                # bounded by what its streams cost the loop, not only by their making
                answer.call_on_close(functools.partial(slots.release, here, turn))
                held = False
            return answer
        finally:
            if held:
                slots.release(here, turn)

    return in_the_pool


def pay_first(budget: ReadBudget, here: str, slots: ReadSlots) -> ApiError | None:
    """Wait while ``here`` owes more than its allowance (a sleep: nothing runs for it), up to
    the slots' wait; the address's refusal if that is not enough."""
    wait = budget.delay(here)
    if wait > slots.wait:
        time.sleep(slots.wait)  # a hammer is paced by its refusals too
        return ApiError(429, busy_device(slots.per_address), retry_after=1)
    if wait > 0:
        time.sleep(wait)
    return None


def timed(spent: list[float], fn: Callable[[], T]) -> T:
    """``fn()``, its thread's CPU time added to ``spent[0]``."""
    began = time.thread_time()
    try:
        return fn()
    finally:
        spent[0] += time.thread_time() - began


# --------------------------------------------------------------------------- cached answers
class SeqCache:
    """Answers kept as files in a folder of this process's, by a key that names the table's
    seq (so a new action makes a new key, never a stale answer), the ``entries`` used last.
    Used from the readers' native threads: one answer is made once however many ask for it
    at once (the others wait for it)."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._folder: Path | None = None
        self._files: OrderedDict[Hashable, Path] = OrderedDict()
        self._lock = off_loop.native_lock()
        self._making: dict[Hashable, Any] = {}
        self._count = 0

    def open(self, key: Hashable, write: Callable[[IO[str]], object]) -> IO[bytes]:
        """The answer for ``key``, open for reading from its start: the one kept, or the
        one ``write`` writes (text, UTF-8) now. Open, it stays readable when dropped."""
        with self._lock:
            making = self._making.setdefault(key, off_loop.native_lock())
        with making:
            with self._lock:
                path = self._files.get(key)
                if path is not None:
                    self._files.move_to_end(key)
                    return path.open("rb")
            path = self._new_path()
            try:
                with path.open("w", encoding="utf-8", newline="") as out:
                    write(out)
                answer = path.open("rb")
            except BaseException:
                path.unlink(missing_ok=True)
                raise
            with self._lock:
                self._files[key] = path
                self._making.pop(key, None)
                while len(self._files) > self.entries:
                    _, old = self._files.popitem(last=False)
                    old.unlink(missing_ok=True)
            return answer

    def _new_path(self) -> Path:
        with self._lock:
            if self._folder is None:
                self._folder = Path(tempfile.mkdtemp(prefix="dealer-assist-answers-"))
                atexit.register(shutil.rmtree, self._folder, True)
            self._count += 1
            return self._folder / f"{self._count}"


def cached(key: Hashable, write: Callable[[IO[str]], object], mimetype: str) -> Response:
    """A response streaming the answer kept for ``key`` (:meth:`SeqCache.open`), a block at
    a time."""
    cache: SeqCache = current_app.extensions[CACHE]
    answer = cache.open(key, write)
    response = Response(blocks(answer), mimetype=mimetype)
    response.headers["Content-Length"] = str(os.fstat(answer.fileno()).st_size)
    return response


def blocks(answer: IO[bytes]) -> Iterator[bytes]:
    with answer:
        while block := answer.read(CHUNK):
            yield block


__all__ = ["BUSY_SERVER", "DEFAULTS", "ReadBudget", "ReadSlots", "SeqCache", "busy_device",
           "cached", "install", "view"]
