"""Blocking work kept off the server's event loop (issue 25).

``dealer-assist serve`` runs under gevent (web/server.py): every connection is a greenlet,
and all of them share one native thread and its event loop. A call that blocks in C without
yielding (SQLite's ``COMMIT`` and its fsync, ``BEGIN IMMEDIATE`` waiting for another
process's write lock, a replay of thousands of records, the hand evaluator's warm-up) would
stall every phone and the dealer for as long as it takes. :func:`run` hands such a call to
gevent's pool of native threads and lets the calling greenlet wait for it without blocking
the others; :func:`start` runs one in the background. Outside gevent (the tests' apps in
``threading`` mode) both simply call.

What runs off the loop: ``TableStore.act`` and a table's replay (services/tables.py is given
:func:`run`), the fsync after an action (extensions.pay_owed_sync), the rare writes and the
history's replays (the views marked :func:`view`), the warm-up. What cooperates instead:
Redis and PostgreSQL's sockets and zeroconf's, which gevent's monkey-patching makes yield
(tests/test_off_loop.py measures all of them).

Nothing run here may emit to Socket.IO: the rooms and queues belong to the loop's thread.
"""

from __future__ import annotations

import contextvars
import functools
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, cast

from dealer_assist.services.locks import green, native_lock

P = ParamSpec("P")
T = TypeVar("T")


def run(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` in a native thread of gevent's pool, the calling greenlet
    waiting for it (its exception raised here); called directly outside gevent, or from a
    thread of the pool itself."""
    if not green():
        return fn(*args, **kwargs)
    from gevent import get_hub

    return _apply(get_hub().threadpool, fn, *args, **kwargs)


def _apply(pool: Any, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    def call() -> tuple[bool, Any]:
        # the exception comes back as a value: gevent's pool would also print it, traceback
        # and all, for a refusal (an ApiError) that the caller answers as usual
        try:
            return True, fn(*args, **kwargs)
        except Exception as err:
            return False, err

    done, value = pool.apply(call)
    if done:
        return cast(T, value)
    raise value


class Pool:
    """Native threads of its own, apart from gevent's pool (which the dealer's commit and
    fsync use): what waits here never delays those (web/reads.py, web/equity_later.py).
    Made on the loop's thread at its first use; outside gevent, :meth:`run` simply calls."""

    def __init__(self, threads: int) -> None:
        self.threads = threads
        self._pool: Any = None

    def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """As :func:`run`, in this pool's threads: the calling greenlet waits its turn."""
        if not green():
            return fn(*args, **kwargs)
        if self._pool is None:
            from gevent.threadpool import ThreadPool

            self._pool = ThreadPool(self.threads)
        return _apply(self._pool, fn, *args, **kwargs)


def start(fn: Callable[[], object], name: str) -> None:
    """``fn()`` in the background, in a native thread (gevent's pool under gevent)."""
    if green():
        from gevent import get_hub

        get_hub().threadpool.spawn(fn)
        return
    threading.Thread(target=fn, name=name, daemon=True).start()


def let_others_run() -> None:
    """Under gevent, let every greenlet that is ready run once (e.g. the phones' writers
    after a broadcast) before this one goes on; nothing outside gevent."""
    if green():
        import gevent

        gevent.sleep(0)


def view(fn: Callable[P, T]) -> Callable[P, T]:
    """A Flask view that runs whole in a native thread, with the request's context (a copy
    of the greenlet's context variables, which point at the same request and ``g``). Only
    for views that emit nothing to Socket.IO: history pages and the rare writes."""
    @functools.wraps(fn)
    def in_a_thread(*args: P.args, **kwargs: P.kwargs) -> T:
        if not green():
            return fn(*args, **kwargs)
        context = contextvars.copy_context()
        return run(lambda: context.run(fn, *args, **kwargs))

    return in_a_thread


__all__ = ["Pool", "green", "native_lock", "run", "start", "view"]
