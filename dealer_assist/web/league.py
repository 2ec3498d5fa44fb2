"""The host's books across tables (R77, R78): the season, its page and CSV, aliases and
payment handles. All of it is the host's (the host key, or the server's own machine): the
season names everyone's money across every table, which a player's link never shows.

Registered inside the history blueprint (``history_api.bp``), so the app factory needs no
line for it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from dealer_assist.core.errors import SetupError
from dealer_assist.services import league, people, storage
from dealer_assist.web import charts, off_loop, reads
from dealer_assist.web.api import json_object
from dealer_assist.web.errors import ApiError
from dealer_assist.web.extensions import get_db
from dealer_assist.web.host import full_sentence, host_status, refuse, same_origin

bp = Blueprint("league", __name__)

NOT_HOST = ("Only the host reads and keeps the season: open the host's link (the QR code "
            "dealer-assist prints at start) on this device, or send the host key "
            "(Authorization: Bearer <host key>).")


def require_host(*, writes: bool = False) -> None:
    """The host, or a 401 (403, 415) with a sentence; a change comes as JSON from this
    server's own pages."""
    if writes and not same_origin():
        refuse(403, "A page of another site cannot change the host's books.")
    if writes and request.mimetype != "application/json":
        refuse(415, "Send the change as JSON (Content-Type: application/json).")
    if not host_status():
        refuse(401, NOT_HOST)


def body() -> Any:
    """The request's JSON object, or a 400 with a sentence (deep nesting and lone surrogates
    included: the API's own checks)."""
    return json_object(request.get_data())


def refused(err: SetupError) -> ApiError:
    return ApiError(400, str(err))


def host_answer(answer: Any) -> Response:
    response = jsonify(answer)
    response.headers["Cache-Control"] = "no-store"
    return response


def season_asked() -> dict[str, Any]:
    require_host()
    try:
        first, last = league.date_range(request.args.get("from"), request.args.get("to"))
    except league.RangeRefused as err:
        raise refused(err) from None
    return league.season(get_db(), first, last)


# --------------------------------------------------------------------------- the season
# every route here reads every table's deals, or writes: off the event loop (web/off_loop.py;
# the reads in the readers' own pool, web/reads.py)
@bp.get("/league")
@reads.view
def league_page() -> str:
    """The page; its script asks for the season with the host's key (or as this machine)."""
    return render_template("league.html")


@bp.get("/api/league")
@reads.view
def season_json() -> ResponseReturnValue:
    return host_answer(season_asked())


@bp.get("/api/league.csv")
@reads.view
def season_csv() -> Response:
    answer = season_asked()
    span = "-".join(part for part in (answer["from"], answer["to"]) if part) or "all"
    response = Response(league.season_csv(answer), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="season-{span}.csv"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/league/chart.svg")
@reads.view
def season_chart() -> Response:
    answer = season_asked()
    width = charts.NARROW if request.args.get("width") == "narrow" else charts.WIDTH
    response = Response(charts.league_chart(answer, width), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


# --------------------------------------------------------------------------- people
@bp.get("/api/people")
@reads.view
def people_json() -> ResponseReturnValue:
    """Every payment handle and alias the host keeps."""
    require_host()
    found = people.read_people(get_db())
    return host_answer({
        "people": [{"name": r["name"], "pay_to": r["pay_to"],
                    "pay_link": people.pay_link(r["pay_to"])}
                   for r in storage.people.people(get_db())],
        **found.to_json()})


@bp.put("/api/people/<name>")
@off_loop.view
def set_pay_to(name: str) -> ResponseReturnValue:
    require_host(writes=True)
    try:
        return host_answer(people.set_pay_to(get_db(), name, body()))
    except SetupError as err:  # a refused handle, or a name with an invisible character
        raise refused(err) from None
    except storage.StorageFull:
        raise ApiError(507, full_sentence()) from None


def change_alias(add: bool) -> ResponseReturnValue:
    require_host(writes=True)
    try:
        found = (people.add_alias if add else people.remove_alias)(get_db(), body())
    except SetupError as err:
        raise refused(err) from None
    except storage.StorageFull:
        raise ApiError(507, full_sentence()) from None
    response = host_answer(found.to_json())
    response.status_code = 201 if add else 200
    return response


@bp.post("/api/people/aliases")
@off_loop.view
def add_alias() -> ResponseReturnValue:
    return change_alias(True)


@bp.delete("/api/people/aliases")
@off_loop.view
def remove_alias() -> ResponseReturnValue:
    return change_alias(False)
