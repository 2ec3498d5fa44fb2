"""A lock of the operating system's, for the few dicts and lists that both the event loop's
greenlets and native threads (the readers' pool, gevent's pool for commits) touch.

Under gevent, ``threading.Lock`` is patched into a greenlet's lock. A native thread that waits
on one starts a gevent loop of its own to wait in, and it can miss the release made from
another thread: a reader thread was seen parked there for good (gdb: ``epoll_wait`` in a hub
of its own), and its guest's read never answered. Every section these locks guard is a few
dict or list operations that never yield, so a greenlet holding the real lock never switches
away with it, and a greenlet that finds it taken waits microseconds.
"""

from __future__ import annotations

import sys
import threading
from typing import cast


def green() -> bool:
    """Whether this process runs under gevent (``serve`` monkey-patches it at start)."""
    monkey = sys.modules.get("gevent.monkey")
    return monkey is not None and bool(monkey.is_module_patched("threading"))


def native_lock() -> threading.Lock:
    """A lock of the operating system's, whether or not gevent has patched ``threading``."""
    if green():
        from gevent import monkey

        return cast(threading.Lock, monkey.get_original("threading", "Lock")())
    return threading.Lock()
