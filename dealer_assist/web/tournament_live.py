"""A tournament's live state (R90): its public state as the API gives it, and the
``tournament`` event to every screen of its tables and to its clock page's room, after a
tournament action and after an action at one of its tables."""

from __future__ import annotations

import logging
from typing import Any

from flask import current_app
from flask_socketio import emit

from dealer_assist.web import off_loop
from dealer_assist.web.broadcast import send_deleted
from dealer_assist.web.errors import ApiError
from dealer_assist.web.extensions import base_url, get_db, get_socketio, get_tournaments
from dealer_assist.web.rooms import table_rooms

log = logging.getLogger("dealer_assist.tournaments")


def clock_room(tournament_id: str) -> str:
    """The room of the big-screen clock page ``/c/<id>``."""
    return f"tournament:{tournament_id}"


def no_tournament(tournament_id: str) -> str:
    return f"There is no tournament {tournament_id[:40]!r} on this server."


def public_state(tournament_id: str) -> dict[str, Any]:
    state = get_tournaments().public(get_db(), tournament_id)
    if state is None:
        raise ApiError(404, no_tournament(tournament_id))
    return {**state, "clock_url": f"{base_url()}/c/{tournament_id}"}


def send_tournament(tournament_id: str, state: dict[str, Any]) -> None:
    """The ``tournament`` event to every screen of its tables and to its clock page."""
    socketio = get_socketio(current_app._get_current_object())  # type: ignore[attr-defined]
    socketio.emit("tournament", state, to=clock_room(tournament_id))
    for table in state["tables"]:
        for room in table_rooms(table["id"]):
            socketio.emit("tournament", state, to=room)


def send_tournament_deleted(tournament_id: str, table_ids: tuple[str, ...], name: str) -> None:
    """The host deleted the tournament: ``tournament_deleted`` to its clock page's room and
    ``table_deleted`` to every screen of its tables, each with the sentence to show, so that
    no screen goes on counting a clock or showing a table that are gone."""
    sentence = f"The host deleted {name}: it is no longer on this server."
    try:
        socketio = get_socketio(current_app._get_current_object())  # type: ignore[attr-defined]
        socketio.emit("tournament_deleted", {"tournament": tournament_id, "error": sentence},
                      to=clock_room(tournament_id))
    except Exception:
        log.exception("Tournament %s: its clock pages were not told it is deleted.",
                      tournament_id)
    for table_id in table_ids:
        send_deleted(table_id, sentence)


def tournament_after_table(table_id: str) -> None:
    """After a table's action: its tournament's state to every screen, if it has one. The
    action is stored already: a failure here is logged, never the dealer's refusal."""
    try:
        link = get_tournaments().tournament_of(get_db(), table_id)
        if link is not None:
            send_tournament(link[0], public_state(link[0]))
    except Exception:
        log.exception("Table %s: its tournament's state did not go out.", table_id)


def tournament_to_joiner(table_id: str) -> None:
    """A screen joining one of a tournament's tables: the tournament's state to it alone,
    after the table's (its bar shows the clock from the start and after each reconnect). A
    failure is logged, never the join's."""
    try:
        link = get_tournaments().tournament_of(get_db(), table_id)
        if link is not None:
            emit("tournament", public_state(link[0]))
            off_loop.let_others_run()  # out now, as on_join_tournament's
    except Exception:
        log.exception("Table %s: its tournament's state did not go to a joining screen.",
                      table_id)
