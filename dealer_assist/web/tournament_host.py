"""The host's tournament pages and what the structure editor reads (issue 31): the presets,
the payouts previewed for a player count (R93, worked out by the core), the tournaments on
this server, and the host's page of a running tournament (``/tournaments/<id>``), whose
one-tap controls post to ``/api/tournaments/<id>/actions``."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, abort, jsonify, render_template, request
from flask.typing import ResponseReturnValue

from dealer_assist.core.errors import SetupError
from dealer_assist.core.tournament.money import DEFAULT_PAYOUTS, PayoutTable
from dealer_assist.core.tournament.presets import PRESETS, preview
from dealer_assist.services import storage
from dealer_assist.web import reads
from dealer_assist.web.errors import ApiError
from dealer_assist.web.extensions import get_db, get_tournaments
from dealer_assist.web.tournament_live import no_tournament

bp = Blueprint("tournament_host", __name__)

WHOLE = re.compile(r"[0-9]{1,9}")


def whole_arg(name: str, default: int | None = None) -> int:
    """A query argument as a whole number, or a 400 with a sentence."""
    raw = request.args.get(name)
    if raw is None and default is not None:
        return default
    if raw is None or not WHOLE.fullmatch(raw.strip()):
        raise ApiError(400, f"{name} must be a whole number, such as {name}=20.")
    return int(raw)


NUMBER = re.compile(r"[0-9]{1,9}(\.[0-9]{1,9})?")


def payouts_arg() -> PayoutTable:
    """The ``payouts`` query argument as a ``POST /api/tournaments`` body has it: absent or
    ``default``, percentages separated by commas (``65,35``), or that body's JSON (rows).
    The core checks it and says what is wrong."""
    raw = request.args.get("payouts", "default").strip()
    data: Any = raw
    if raw.startswith("["):
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError):
            data = raw  # not JSON: the core's sentence says what payouts are
    elif raw != "default":
        data = [(float(p) if "." in p else int(p)) if NUMBER.fullmatch(p.strip()) else p
                for p in raw.split(",")]
    return PayoutTable.from_json(data)


@bp.get("/api/tournaments/presets")
@reads.view
def presets() -> ResponseReturnValue:
    return jsonify({"presets": [p.to_json() for p in PRESETS],
                    "payouts": DEFAULT_PAYOUTS.describe()})


@bp.get("/api/tournaments/preview")
@reads.view
def payout_preview() -> ResponseReturnValue:
    """R93's payouts (the default table, or ``payouts`` as a new tournament's body gives
    them) for ``entries`` players at ``buy_in`` less ``fee`` each, rounded to ``unit``, and
    the tables of ``seats`` they need: what the editor shows as names are added."""
    try:
        shown = preview(whole_arg("entries"), whole_arg("buy_in"), whole_arg("fee", 0),
                        whole_arg("seats", 10), whole_arg("unit", 1), payouts_arg())
    except SetupError as err:
        raise ApiError(400, str(err)) from None
    return jsonify(shown.to_json())


@bp.get("/api/tournaments/<tournament_id>/preview")
@reads.view
def running_payout_preview(tournament_id: str) -> ResponseReturnValue:
    """What ``payouts`` would pay now in a running tournament, with its entries, rebuys and
    add-ons so far and its unit: what the host's page shows before the payouts action."""
    tournament = get_tournaments().load(get_db(), tournament_id)
    if tournament is None:
        raise ApiError(404, no_tournament(tournament_id))
    try:
        shown = tournament.payout_preview(payouts_arg())
    except SetupError as err:
        raise ApiError(400, str(err)) from None
    return jsonify(shown.to_json())


@bp.get("/api/tournaments")
@reads.view
def list_tournaments() -> ResponseReturnValue:
    """Every tournament on this server, the newest first: its name, players left and
    whether it is over (the public state has the rest)."""
    db, store = get_db(), get_tournaments()
    found = []
    for tournament_id in reversed(storage.tournaments.tournament_ids(db)):
        tournament = store.load(db, tournament_id)
        if tournament is None:
            continue
        found.append({"id": tournament_id, "name": tournament.setup.name,
                      "entries": len(tournament.standing.entries),
                      "players_left": len(tournament.players_left()),
                      "finished": tournament.finished()})
    response = jsonify({"tournaments": found})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tournaments/<tournament_id>")
@reads.view
def host_page(tournament_id: str) -> str:
    """The host's page of a tournament: the clock's controls, the tables, the moves, the
    rebuys, add-ons and late entries, the chop; its script reads the public state."""
    tournament = get_tournaments().load(get_db(), tournament_id)
    if tournament is None:
        abort(404)
    return render_template("tournament.html", tournament_id=tournament_id)
