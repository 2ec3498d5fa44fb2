"""The server's log keeps repeats to a line a minute, with a count (web/log_guard.py)."""

from __future__ import annotations

import io
import logging

from dealer_assist.web.log_guard import RepeatFilter


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def logger_with(guard: RepeatFilter, name: str = "dealer_assist.test") -> tuple[
        logging.Logger, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(message)s"))
    handler.addFilter(guard)
    logger = logging.getLogger(name)
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger, out


def fail(logger: logging.Logger, table: str) -> None:
    try:
        {}["x"]  # a KeyError raised on this very line each time
    except KeyError:
        logger.exception("Table %s failed", table)


def test_a_repeat_is_written_once_a_minute_with_a_count() -> None:
    clock = Clock()
    logger, out = logger_with(RepeatFilter(clock=clock))
    for i in range(500):  # the same failure, each with its own table id
        fail(logger, f"t{i}")
    first = out.getvalue()
    assert first.count("Table t0 failed") == 1 and "Traceback" in first
    assert first.count("\n") < 15  # one record: its line and its traceback
    clock.now += 61
    fail(logger, "again")
    later = out.getvalue()[len(first):]
    assert later == ("Table again failed: KeyError: 'x' (499 more like this in the last "
                     "minute, not written)\n")


def test_at_most_the_budget_of_lines_a_minute_however_many_kinds() -> None:
    clock = Clock()
    logger, out = logger_with(RepeatFilter(budget=5, clock=clock))
    for i in range(100):
        logger.warning(f"kind {i}")  # a message with no template: a kind each
    assert out.getvalue().count("\n") == 5
    clock.now += 61
    logger.warning("next minute")
    assert out.getvalue().splitlines()[-1] == (
        "next minute (95 other lines not written: too many a minute)")


def test_a_guests_garbage_never_writes_a_traceback() -> None:
    logger, out = logger_with(RepeatFilter(), name="dealer_assist.engineio")
    fail(logger, "junk")
    assert out.getvalue() == "Table junk failed: KeyError: 'x'\n"
