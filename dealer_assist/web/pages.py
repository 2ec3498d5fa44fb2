"""The HTML pages: home, the dealer's tablet, the players' phone page, the QR code, and a
tournament's big-screen clock."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, render_template

from dealer_assist.core.cards import grammar
from dealer_assist.core.rules import rules_vocabulary
from dealer_assist.games.registry import all_games, game_class, games_json
from dealer_assist.services import storage
from dealer_assist.web import reads
from dealer_assist.web.api import table_urls
from dealer_assist.web.damaged import LOCKED, damage_of, damaged_tables, page, with_sentences
from dealer_assist.web.extensions import get_db, get_store, get_tournaments
from dealer_assist.web.host import implied_host
from dealer_assist.web.qr import qr_svg

bp = Blueprint("pages", __name__)


@bp.app_context_processor
def card_grammar() -> dict[str, Any]:
    """Every page that reads typed cards reads them by the core's grammar (``cards.grammar``),
    and every page offering house rules reads them from the one vocabulary
    (``rules.RULE_SPECS``), both embedded beside the games' metadata."""
    return {"card_grammar": CARD_GRAMMAR, "rules_vocabulary": RULES_VOCABULARY}


CARD_GRAMMAR = grammar()
RULES_VOCABULARY = rules_vocabulary()


def table_context(table_id: str) -> dict[str, Any]:
    """What the table pages get: ``table_id``, ``table_name``, ``variant``,
    ``variant_name``, ``join_url`` and every game's metadata (``games_json``, embedded in the
    page: a deal of any game may be dealt at the table, R71), the table's first game first;
    a 404 for an unknown table."""
    row = get_store().row(get_db(), table_id)
    if row is None:
        abort(404)
    damage = damage_of(table_id)
    if damage is not None:  # its pages say so instead (web/damaged.py)
        abort(Response(page(damage), LOCKED))
    game = game_class(row["variant"])
    return {
        "table_id": table_id, "table_name": row["name"], "variant": row["variant"],
        "variant_name": game.name, "join_url": table_urls(table_id)["join_url"],
        "games_json": [game.metadata(),
                       *(g for g in games_json() if g["variant"] != game.variant)],
        **imported_context(row),
        # a tournament's table: its pages draw the clock's bar (static/js/tournament.js)
        "tournament_id": (get_tournaments().tournament_of(get_db(), table_id) or (None,))[0],
    }


def imported_context(row: dict[str, Any]) -> dict[str, Any]:
    """What base.html needs to mark an imported table on every page it has."""
    return {"imported_at": row.get("imported_at"), "original_created": row.get("original_created")}


@bp.get("/")
@reads.view
def index() -> str:
    return with_sentences(  # a damaged table's sentence above the page (web/damaged.py)
        "index.html", damaged_tables().all(), games=all_games(), games_json=games_json(),
        names={game.variant: game.name for game in all_games()},
        tables=storage.list_tables(get_db()),
        host=implied_host(),  # a host on another device is shown its view by home.js
    )


@bp.get("/t/<table_id>")
@reads.view
def phone(table_id: str) -> str:
    return render_template("phone.html", **table_context(table_id))


@bp.get("/t/<table_id>/dealer")
@reads.view
def tablet(table_id: str) -> str:
    return render_template("tablet.html", **table_context(table_id))


@bp.get("/t/<table_id>/qr.svg")
@reads.view
def qr(table_id: str) -> Response:
    context = table_context(table_id)
    response = Response(qr_svg(context["join_url"]), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/c/<tournament_id>")
@reads.view
def clock(tournament_id: str) -> str:
    """A tournament's big-screen clock (R90), for a TV: public, read-only, live."""
    tournament = get_tournaments().load(get_db(), tournament_id)
    if tournament is None:
        abort(404)
    return render_template("clock.html", tournament_id=tournament_id,
                           tournament_name=tournament.setup.name)
