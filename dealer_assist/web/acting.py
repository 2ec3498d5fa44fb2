"""Acting on a table over the web, shared by the JSON API and the socket's ``action`` event:
the body checked, applied and stored, and the state every answer and event carries."""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import g

from dealer_assist.core.errors import DealerAssistError, StaleTableError
from dealer_assist.core.table import Table
from dealer_assist.services import storage
from dealer_assist.web import equity_later
from dealer_assist.web.damaged import refuse_if_damaged
from dealer_assist.web.errors import ApiError
from dealer_assist.web.extensions import get_db, get_store, get_tournaments
from dealer_assist.web.host import full_sentence
from dealer_assist.web.state import table_state

__all__ = ["ApiError", "expected_seq", "load", "no_table", "state_for", "take_action"]


def state_for(table_id: str, table: Table, *, dealer: bool = False) -> dict[str, Any]:
    """The core's state with the table's id, as every answer and event carries it; R67's
    costly chances follow in a later state (web/equity_later.py). A tournament's table says
    which tournament (R90: its screens show the clock)."""
    state = {"id": table_id, **table_state(table, dealer=dealer,
                                           equity_of=partial(equity_later.figures, table_id))}
    link = get_tournaments().tournament_of(get_db(), table_id)
    if link is not None:
        state["tournament"] = tournament_summary(*link)
    return state


def tournament_summary(tournament_id: str, number: int) -> dict[str, Any]:
    """What a tournament's table's state says of it: the same for every screen and every
    state (its clock comes in the ``tournament`` event), so a patch never carries it."""
    return {"id": tournament_id, "table": number, "clock_path": f"/c/{tournament_id}"}


def no_table(table_id: str) -> str:
    return f"There is no table {table_id[:40]!r} on this server."


def load(table_id: str) -> Table:
    refuse_if_damaged(table_id)
    table = get_store().load(get_db(), table_id)
    if table is None:
        raise ApiError(404, no_table(table_id))
    return table


def expected_seq(body: dict[str, Any]) -> int | None:
    value = body.get("expect_seq")
    if value is None:
        return None
    # no table gets near 2**53 actions; a larger number is a typing slip, not a seq
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise ApiError(400, f"expect_seq must be the whole number seq you saw, not "
                            f"{repr(value)[:40]}.")
    return value


def take_action(table_id: str, body: dict[str, Any]) -> Table:
    """Apply and store ``body``; returns the table after it, or raises ApiError. The caller
    sends the live events, then answers with :func:`broadcast.answer_after`."""
    expect = expected_seq(body)
    refuse_if_damaged(table_id)
    linked = get_tournaments()
    try:
        # a tournament's table: the level's blinds from its clock (R90)
        body = linked.table_body(get_db(), table_id, body)
        # the commit's fsync runs after the phones' emit (extensions.pay_owed_sync), before
        # the answer leaves (docs/benchmarks.md, "Live fan-out")
        accepted = get_store().act(get_db(), table_id, body, expect_seq=expect,
                                   defer_sync=True)
    except StaleTableError as err:  # a DealerAssistError too: caught first
        table = load(table_id)
        sentence = str(err) if expect is not None else (
            "Another device acted on this table at the same moment: look again and retry.")
        raise ApiError(409, sentence, seq=table.seq,
                       state=state_for(table_id, table, dealer=True)) from None
    except DealerAssistError as err:  # a malformed body or a rule's refusal
        raise ApiError(400, str(err)) from None
    except storage.StorageFull:  # before COMMIT returned: nothing was stored
        raise ApiError(507, full_sentence()) from None
    if accepted.sync_owed:
        g.sync_owed = True
    # a bust (R91) or a table to break (R92); the record is stored whatever follows
    linked.after_table_action(get_db(), table_id, accepted.table, accepted.action.type)
    return accepted.table
