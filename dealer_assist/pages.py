"""The HTML pages: home, the dealer's tablet, the players' phone page, and the QR code."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template

from dealer_assist import storage
from dealer_assist.api import table_urls
from dealer_assist.app import get_db, get_store
from dealer_assist.qr import qr_svg
from dealer_assist.rules import VARIANT_NAMES

bp = Blueprint("pages", __name__)


def table_context(table_id: str) -> dict[str, str]:
    """What the table pages get: ``table_id``, ``table_name``, ``variant``,
    ``variant_name`` and ``join_url``; a 404 for an unknown table."""
    row = get_store().row(get_db(), table_id)
    if row is None:
        abort(404)
    return {
        "table_id": table_id, "table_name": row["name"], "variant": row["variant"],
        "variant_name": VARIANT_NAMES.get(row["variant"], row["variant"]),
        "join_url": table_urls(table_id)["join_url"],
    }


@bp.get("/")
def index() -> str:
    return render_template(
        "index.html", variants=list(VARIANT_NAMES.items()),
        tables=storage.list_tables(get_db()),
    )


@bp.get("/t/<table_id>")
def phone(table_id: str) -> str:
    return render_template("phone.html", **table_context(table_id))


@bp.get("/t/<table_id>/dealer")
def tablet(table_id: str) -> str:
    return render_template("tablet.html", **table_context(table_id))


@bp.get("/t/<table_id>/qr.svg")
def qr(table_id: str) -> Response:
    context = table_context(table_id)
    response = Response(qr_svg(context["join_url"]), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response
