"""What a guest can make the server write to its log: a few KB a minute at most (issue 25).

A guest sending the same bad event in a loop made the server write a traceback each time,
about 0.15 MB a second: half a gigabyte an hour on a Raspberry Pi's SD card. Here every
record of ``dealer-assist serve`` (the app's, Socket.IO's and Engine.IO's, gevent's server's
and its hub's) goes through one handler whose :class:`RepeatFilter` writes each kind of
record (its logger, level, message template, and the exception's type and where it was
raised) once a minute: the first in full, a repeat after the minute on one line (no
traceback) saying how many like it were held back. Over the whole log, at most
:data:`LINES_PER_MINUTE` records a minute are written, however many kinds a guest finds; the
next one written says how many others were dropped.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

WINDOW_SECONDS = 60.0
LINES_PER_MINUTE = 20
KINDS_KEPT = 1000  # kinds of record remembered; the oldest are forgotten first
LONGEST_LINE = 400  # characters of a message written; the rest is cut
# what a guest's garbage makes these libraries log is the guest's, not a bug of ours: one
# line with the error, never its traceback
WITHOUT_TRACEBACKS = ("dealer_assist.socketio", "dealer_assist.engineio")

Kind = tuple[str, int, str, str, str]


@dataclass
class Seen:
    since: float  # when one of this kind was last written
    held: int = 0  # how many like it were not written since


def kind_of(record: logging.LogRecord) -> Kind:
    """What makes two records "the same": the logger, level and message template (not its
    arguments: a guest's address or table id), and the exception's type and the last line
    that raised it."""
    error, where = "", ""
    if record.exc_info and record.exc_info[0] is not None:
        error = record.exc_info[0].__name__
        frames = traceback.extract_tb(record.exc_info[2]) if record.exc_info[2] else []
        if frames:
            where = f"{frames[-1].filename}:{frames[-1].lineno}"
    return record.name, record.levelno, str(record.msg)[:200], error, where


class RepeatFilter(logging.Filter):
    """Each kind of record once a window; at most ``budget`` records a window in all."""

    def __init__(self, window: float = WINDOW_SECONDS, budget: int = LINES_PER_MINUTE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.window = window
        self.budget = budget
        self.clock = clock
        self._lock = threading.Lock()
        self._seen: OrderedDict[Kind, Seen] = OrderedDict()
        self._window_start = clock()
        self._written = 0
        self._dropped = 0  # over the budget, since the last record written

    def filter(self, record: logging.LogRecord) -> bool:
        kind = kind_of(record)
        with self._lock:
            now = self.clock()
            seen = self._seen.get(kind)
            if seen is not None and now - seen.since < self.window:
                seen.held += 1
                return False
            if now - self._window_start >= self.window:
                self._window_start, self._written = now, 0
            if self._written >= self.budget:
                self._dropped += 1
                if seen is not None:
                    seen.held += 1
                return False
            self._written += 1
            notes = []
            if seen is not None and seen.held:
                notes.append(f"{seen.held} more like this in the last minute, not written")
            if self._dropped:
                notes.append(f"{self._dropped} other lines not written: too many a minute")
                self._dropped = 0
            self._seen.pop(kind, None)
            self._seen[kind] = Seen(since=now)
            while len(self._seen) > KINDS_KEPT:
                self._seen.popitem(last=False)
        message = record.getMessage()
        error = record.exc_info[1] if record.exc_info else None
        if seen is not None or record.name in WITHOUT_TRACEBACKS:
            # a repeat (its traceback was written the first time), or a guest's garbage
            record.exc_info, record.exc_text, record.stack_info = None, None, None
            if error is not None:
                message = f"{message}: {type(error).__name__}: {str(error)[:120]}"
        if notes:
            message = f"{message} ({'; '.join(notes)})"
        record.msg, record.args = message[:LONGEST_LINE], None
        return True


FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def install(stream: TextIO | None = None, level: int = logging.INFO) -> logging.Handler:
    """One guarded handler for the ``dealer_assist`` loggers (Socket.IO's and Engine.IO's are
    given theirs under it: web/extensions.py), on ``stream`` (stderr)."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(RepeatFilter())
    top = logging.getLogger("dealer_assist")
    top.handlers = [handler]
    top.setLevel(level)
    top.propagate = False
    return handler


def guard_the_hub(logger: logging.Logger) -> None:
    """gevent prints an exception no greenlet caught to stderr, traceback and all: hand it to
    ``logger`` instead (gevent's documented override, ``hub.handle_error``), keeping gevent's
    own handling for the errors that must stop the loop."""
    from gevent import get_hub

    hub = get_hub()
    original = hub.handle_error

    def handle_error(context: Any, kind: Any, value: Any, tb: Any) -> None:
        try:
            system = context is None or not isinstance(kind, type) or issubclass(
                kind, hub.SYSTEM_ERROR)
            if system:
                original(context, kind, value, tb)
            elif not issubclass(kind, hub.NOT_ERROR):
                logger.error("A background task failed: %s", kind.__name__,
                             exc_info=(kind, value, tb))
        except Exception:  # must never raise
            pass

    hub.handle_error = handle_error
