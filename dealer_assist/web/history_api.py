"""The host's routes: history, replay, ledger, exports and import (JSON), and the history pages.

Reading is public, as the deals are (``GET /api/tables/<id>/deals``): nothing here shows a card
that is still face down, because the states are the public ones and the records go through
``api.hide_cards``. The dealer token adds the dealer's view to a replay, and is needed for the
JSON export, whose records carry every card (an import must replay them).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from dealer_assist.games.registry import game_class
from dealer_assist.services import history, storage
from dealer_assist.services.integrity import readable_history
from dealer_assist.services.people import pay_link
from dealer_assist.web import charts, league, off_loop, reads
from dealer_assist.web.api import (
    find_table,
    hide_cards,
    is_dealer,
    refuse_lone_surrogates,
)
from dealer_assist.web.damaged import LOCKED, damage_of, locked, page, with_sentences
from dealer_assist.web.errors import ApiError
from dealer_assist.web.extensions import get_db
from dealer_assist.web.host import require_host
from dealer_assist.web.imports import import_body, store_import
from dealer_assist.web.pages import imported_context
from dealer_assist.web.records import public_steps
from dealer_assist.web.state import table_state

bp = Blueprint("history", __name__)
bp.register_blueprint(league.bp)  # the host's books across tables (R77, R78)

IMPORT_PATH = "/api/tables/import"
MAX_IMPORT_DEALS = 5_000
MAX_DEAL_RECORDS = 2_000  # records in one deal (a real deal has tens)


def import_size_problem(data: Any) -> str | None:
    """A sentence if the file has more deals, or a deal more records, than a table ever
    needs, counted before anything is replayed; else None (the rest is history.rebuild's)."""
    records = data.get("actions") if isinstance(data, dict) else None
    if not isinstance(records, list):
        return None
    deals = in_deal = 0
    for record in records:
        action = record.get("action") if isinstance(record, dict) else None
        if isinstance(action, dict) and action.get("type") == "start_deal":
            deals, in_deal = deals + 1, 0
        in_deal += 1
        if deals > MAX_IMPORT_DEALS:
            return (f"The file has more than {MAX_IMPORT_DEALS:,} deals: an import takes at "
                    "most that.")
        if in_deal > MAX_DEAL_RECORDS:
            return (f"Deal {deals} of the file has more than {MAX_DEAL_RECORDS:,} records: no "
                    "deal needs that many.")
    return None


def stored_table(table_id: str) -> history.Stored:
    find_table(table_id)  # the 404 sentence of the rest of the API
    damage = damage_of(table_id)
    if damage is not None:  # what it still holds, up to the damage (web/damaged.py)
        readable = readable_history(get_db(), damage)
        if readable is None:
            raise locked(damage)
        return readable
    stored = history.read_table(get_db(), table_id)
    if stored is None:
        raise ApiError(404, f"There is no table {table_id[:40]!r} on this server.")
    return stored


# --------------------------------------------------------------------------- JSON
@bp.get("/api/tables/<table_id>/history")
@reads.view
def table_history(table_id: str) -> ResponseReturnValue:
    stored = stored_table(table_id)
    damage = damage_of(table_id)
    return jsonify({**history.table_history(stored), "imported": imported_context(stored.row),
                    **({"damaged": damage.to_json()} if damage is not None else {})})


@bp.get("/api/tables/<table_id>/ledger")
@reads.view
def ledger(table_id: str) -> ResponseReturnValue:
    return jsonify(history.table_ledger(stored_table(table_id)))


@bp.get("/api/tables/<table_id>/deals/<int(max=999999999):number>/replay")
@reads.view
def replay(table_id: str, number: int) -> ResponseReturnValue:
    row = find_table(table_id)
    dealer = is_dealer(row)
    replayed = history.replay_deal(stored_table(table_id), number, dealer=dealer,
                                   view=partial(table_state, dealer=dealer),
                                   mask=partial(hide_cards, game=game_class(row["variant"])))
    if replayed is None:
        raise ApiError(404, f"Table {table_id} has no deal {number}.")
    if not dealer:  # an undone showdown's cards are face down again (web/records.py)
        replayed["steps"] = public_steps(replayed["steps"])
    response = jsonify(replayed)
    if dealer:
        response.headers["Cache-Control"] = "no-store"
    return response


def download_name(name: str, table_id: str, suffix: str) -> str:
    """A file name from the table's name: letters, digits and dashes only."""
    words = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()
    return f"{words or 'table'}-{table_id}{suffix}"


@bp.get("/api/tables/<table_id>/export.csv")
@reads.view
def export_csv(table_id: str) -> Response:
    row = find_table(table_id)
    # kept by the seq, on disk, and streamed (web/reads.py)
    response = reads.cached(
        ("csv", table_id, storage.last_seq(get_db(), table_id)),
        lambda out: out.write(history.deals_csv(stored_table(table_id))), "text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{download_name(row["name"], table_id, "-deals.csv")}"')
    return response


@bp.get("/api/tables/<table_id>/export.json")
@reads.view
def export_json(table_id: str) -> ResponseReturnValue:
    if not is_dealer(find_table(table_id)):
        raise ApiError(401, "The export holds every card the dealer entered: send the dealer "
                            "token (Authorization: Bearer <token>).")
    stored = stored_table(table_id)
    response = jsonify(history.export_table(stored))
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{download_name(stored.setup.name, table_id, ".json")}"')
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post(IMPORT_PATH)
@off_loop.view
def import_table() -> ResponseReturnValue:
    require_host()
    raw = import_body("export.json")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: deep nesting
        raise ApiError(400, "The file is not valid JSON.") from None
    refuse_lone_surrogates(data)
    problem = import_size_problem(data)
    if problem:
        raise ApiError(400, problem)
    return store_import(lambda: history.rebuild(data))


# --------------------------------------------------------------------------- pages
def page_table(table_id: str) -> history.Stored:
    damage = damage_of(table_id)
    if damage is not None:  # what it still holds, up to the damage (web/damaged.py)
        readable = readable_history(get_db(), damage)
        if readable is None:
            abort(Response(page(damage), LOCKED))
        return readable
    stored = history.read_table(get_db(), table_id)
    if stored is None:
        abort(404)
    return stored


def line_words(line: str, variant: str) -> str:
    return game_class(variant).layout.line_label(line)


@bp.get("/t/<table_id>/history")
@reads.view
def history_page(table_id: str) -> str:
    stored = page_table(table_id)
    data = history.table_history(stored)
    # each chart twice, wide and narrow; the stylesheet shows the one that fits the screen
    game = game_class(data["variant"])
    shown: dict[str, tuple[Markup, Markup]] = {}
    for name, chart in page_charts(data).items():
        wide, narrow = chart(data), chart(data, width=charts.NARROW)
        if wide is not None and narrow is not None:
            shown[name] = (Markup(wide), Markup(narrow))
    deals = {d["number"]: d for d in data["deals"]}
    damage = damage_of(table_id)
    return with_sentences("history.html", [damage] if damage else [],
                          h=data, charts=shown, deals=deals,
                           **imported_context(stored.row),
                           games_json=[game.metadata()],
                           # every game the table's deals played (R71), not only its first
                           game_names=[game_class(v).name for v in data["games"]] or [game.name],
                           table_id=table_id, line_words=line_words,
                           game=game.metadata(), pay_link=pay_link)


@bp.get("/t/<table_id>/history/<int(max=999999999):number>")
@reads.view
def replay_page(table_id: str, number: int) -> str:
    stored = page_table(table_id)
    deal = next((d for d in stored.deals if d["number"] == number), None)
    if deal is None:
        abort(404)
    game = game_class(stored.setup.variant)
    return render_template("replay.html", table_id=table_id, table_name=stored.setup.name,
                           **imported_context(stored.row),
                           variant=stored.setup.variant, number=number,
                           last=stored.deals[-1]["number"],
                           variant_name=game.name, deal_word=game.deal_word,
                           games_json=[game.metadata()])


def page_charts(data: dict[str, Any]) -> dict[str, Callable[..., str | None]]:
    """The history page's charts by their names in URLs, in the page's order."""
    return {"standings": charts.standings_chart, "stacks": charts.stacks_chart,
            "net": charts.net_chart, **charts.carried_charts(data)}


@bp.get("/t/<table_id>/charts/<name>.svg")
@reads.view
def chart_svg(table_id: str, name: str) -> Response:
    data = history.table_history(page_table(table_id))
    draw = page_charts(data).get(name)
    if draw is None:
        abort(404)
    svg = draw(data, width=charts.NARROW if request.args.get("width") == "narrow"
               else charts.WIDTH)
    if svg is None:
        abort(404)
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


# --------------------------------------------------------------------------- one night
def stored_night(table_id: str, number: int) -> dict[str, Any]:
    summary = history.night_summary(stored_table(table_id), number)
    if summary is None:
        raise ApiError(404, f"Table {table_id[:40]} has no night {number}.")
    return summary


@bp.get("/api/tables/<table_id>/nights/<int(max=999999):number>")
@reads.view
def night_json(table_id: str, number: int) -> ResponseReturnValue:
    return jsonify(stored_night(table_id, number))


@bp.get("/t/<table_id>/nights/<int(max=999999):number>")
@reads.view
def night_page(table_id: str, number: int) -> str:
    stored = page_table(table_id)
    summary = history.night_summary(stored, number)
    if summary is None:
        abort(404)
    return render_template("night.html", n=summary, table_id=table_id,
                           **imported_context(stored.row))
