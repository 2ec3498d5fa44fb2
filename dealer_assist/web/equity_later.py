"""R67's chances worked out off the event loop, and sent in a later state (issue 32).

Ten hands of four hole cards tabled pre-flop cost hundreds of thousands of hand rankings:
on the loop that stalled every phone and the dealer's own answer for nearly a second. Here
a state asks :func:`figures` for them. Cheap ones (at most :data:`INLINE_EVALUATIONS`
rankings, counted by ``core.equity.evaluations``: a flop all-in's few thousand) are worked
out at once; the
others are worked out in a thread of their own (not gevent's pool, which the dealer's
commit and fsync use), and meanwhile the state says so (``equity_pending``, and
``equity_note``'s sentence, web/state.py). Once they are known, the table's rooms get its
state again, at the same seq, with the figures, which are ``core.equity``'s own.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app

from dealer_assist.core.equity import Equity
from dealer_assist.core.runout import EquityQuestion, equity_question
from dealer_assist.core.table import Table
from dealer_assist.web import off_loop
from dealer_assist.web.extensions import get_db, get_store

log = logging.getLogger("dealer_assist.equity")

#: worked out while the state is built: about 10 ms on the pure evaluator
INLINE_EVALUATIONS = 10_000
KEPT = 256  # questions answered, kept (a state is built again for every reader)

KNOWN = "dealer_assist.equity_known"


class Figures:
    """The answers known and the questions being worked out, of one app; shared by the
    loop and the readers' threads."""

    def __init__(self) -> None:
        self.known: OrderedDict[EquityQuestion, Equity] = OrderedDict()
        self.asked: set[EquityQuestion] = set()
        self.lock = off_loop.native_lock()
        self.pool = off_loop.Pool(1)  # one: the work is Python's, the loop has the other core
        self.hub: Any = None  # the loop's, to come back to from any thread
        self.send: Callable[[str, Table], None] = lambda _table_id, _table: None

    def get(self, question: EquityQuestion) -> Equity | None:
        with self.lock:
            return self.known.get(question)

    def keep(self, question: EquityQuestion, found: Equity) -> None:
        with self.lock:
            self.known[question] = found
            while len(self.known) > KEPT:
                self.known.popitem(last=False)

    def ask(self, question: EquityQuestion) -> bool:
        """True if nobody is working ``question`` out yet (the caller now is)."""
        with self.lock:
            if question in self.asked:
                return False
            self.asked.add(question)
            return True

    def done(self, question: EquityQuestion) -> None:
        with self.lock:
            self.asked.discard(question)


def install(app: Flask, send: Callable[[str, Table], None]) -> None:
    """``send``: how a table's state goes out again at its seq (``broadcast.send_same_seq``;
    given here, since the broadcast builds its states through this module)."""
    figures = Figures()
    figures.send = send
    if off_loop.green():
        from gevent import get_hub

        figures.hub = get_hub()  # the app is made on the loop's thread
    app.extensions[KNOWN] = figures


def figures_of(app: Flask) -> Figures:
    found: Figures = app.extensions[KNOWN]
    return found


def figures(table_id: str, question: EquityQuestion) -> Equity | None:
    """The chances for ``question``: known, or cheap enough to work out now; else None, and
    they are being worked out for the table ``table_id``, whose rooms get them later."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    kept = figures_of(app)
    found = kept.get(question)
    if found is not None:
        return found
    if question.evaluations() <= INLINE_EVALUATIONS:
        found = question.answer()
        kept.keep(question, found)
        return found
    if kept.ask(question):
        work_out(app, table_id, question)
    return None


def work_out(app: Flask, table_id: str, question: EquityQuestion) -> None:
    """Work ``question`` out in the background, then send the table's state again."""
    kept = figures_of(app)

    def task() -> None:
        try:
            kept.keep(question, kept.pool.run(question.answer))
        except Exception:  # the cards were checked when the question was made: a bug
            log.exception("Table %s: the chances could not be worked out.", table_id)
            return
        finally:
            kept.done(question)
        with app.app_context():
            send_again(table_id, question)

    if kept.hub is None:  # outside gevent (the tests' apps): a thread may emit
        threading.Thread(target=task, name="equity", daemon=True).start()
        return
    import gevent

    # from the loop or a reader's thread alike: the task's greenlet starts on the loop
    kept.hub.loop.run_callback_threadsafe(gevent.spawn, task)


def send_again(table_id: str, question: EquityQuestion) -> None:
    """The table's state again, at its seq, now with the figures: to its rooms that were
    sent that seq, if the deal still asks ``question`` (else a newer state went out, or
    will, with its own)."""
    table = get_store().load(get_db(), table_id)
    if table is None or table.deal is None or equity_question(table.game, table.deal) != question:
        return
    figures_of(current_app._get_current_object()).send(table_id, table)  # type: ignore[attr-defined]


__all__ = ["INLINE_EVALUATIONS", "figures", "install", "work_out"]
