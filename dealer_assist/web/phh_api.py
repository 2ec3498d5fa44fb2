"""Hand histories in PHH (API.md "History"): one deal, every deal of a table, and the import
of a table exported so.

Reading is public, as the deals are: without a token a hand history shows only what the
public saw (a card never shown is ``??``). The dealer token or the host key adds every card
the dealer entered, which is also what an import needs to replay the deals.
"""

from __future__ import annotations

from typing import IO

from flask import Blueprint, Response, current_app, request
from flask.typing import ResponseReturnValue

from dealer_assist.services import history, phh, storage
from dealer_assist.services import host as host_service
from dealer_assist.services.auth import (
    bearer_token,
    throttled_sentence,
)
from dealer_assist.web import off_loop, reads
from dealer_assist.web.api import find_table, is_dealer
from dealer_assist.web.errors import ApiError
from dealer_assist.web.extensions import get_db, get_throttle
from dealer_assist.web.history_api import download_name
from dealer_assist.web.host import SIMPLE_BODY_TYPES, current_key, require_host
from dealer_assist.web.imports import import_body, store_import

bp = Blueprint("phh", __name__)

MEDIA_TYPE = "application/toml"  # PHH is TOML
IMPORT_PATH = "/api/tables/import.phhs"


def sees_every_card(row: dict[str, object]) -> bool:
    """Whether the request carries the host key or a dealer token of this table; a wrong one
    is a 401, counted towards the throttle like any wrong token."""
    header = request.headers.get("Authorization")
    if header is None:
        return False
    wait = get_throttle().retry_after(request.remote_addr or "unknown")
    if wait:  # before any comparison: a guesser learns nothing while it waits
        raise ApiError(429, throttled_sentence(wait), retry_after=wait)
    if host_service.key_matches(bearer_token(header), current_key()):
        return True
    return is_dealer(row)


def stored_table(table_id: str) -> tuple[history.Stored, bool]:
    row = find_table(table_id)  # the 404 sentence of the rest of the API
    full = sees_every_card(row)
    stored = history.read_table(get_db(), table_id)
    if stored is None:
        raise ApiError(404, f"There is no table {table_id[:40]!r} on this server.")
    return stored, full


def attachment(text: str, stored: history.Stored, suffix: str) -> Response:
    return with_file_name(Response(text, mimetype=MEDIA_TYPE), stored.setup.name,
                          stored.table_id, suffix)


def with_file_name(response: Response, name: str, table_id: str, suffix: str) -> Response:
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{download_name(name, table_id, suffix)}"')
    return response


@bp.get("/api/tables/<table_id>/deals/<int(max=999999999):number>.phh")
@reads.view
def deal_phh(table_id: str, number: int) -> Response:
    stored, full = stored_table(table_id)
    text = phh.deal_phh(stored, number, full=full)
    if text is None:
        raise ApiError(404, f"Table {table_id} has no deal {number}.")
    return attachment(text, stored, f"-deal-{number}.phh")


@bp.get("/api/tables/<table_id>/export.phhs")
@reads.view
def table_phhs(table_id: str) -> Response:
    row = find_table(table_id)  # the 404 sentence of the rest of the API
    full = sees_every_card(row)
    db = get_db()
    sections: phh.Sections = current_app.extensions[reads.SECTIONS]

    def write(out: IO[str]) -> None:
        stored = history.read_table(db, table_id)
        if stored is None:
            raise ApiError(404, f"There is no table {table_id[:40]!r} on this server.")
        for part in phh.table_phhs_parts(stored, full=full, kept=sections):
            out.write(part)

    # kept by the seq, on disk, and streamed: a guest asking again costs a file's read
    response = reads.cached(("phhs", table_id, storage.last_seq(db, table_id), full), write,
                            MEDIA_TYPE)
    return with_file_name(response, row["name"], table_id, ".phhs")


@bp.post(IMPORT_PATH)
@off_loop.view
def import_phhs() -> ResponseReturnValue:
    """A table exported as PHH with every card (the dealer's export.phhs), made anew here:
    the host only, as every import. The body is the file itself, sent as application/toml
    (a web page cannot send that type to another site without asking it first)."""
    if request.mimetype in SIMPLE_BODY_TYPES:
        raise ApiError(415, f"Send the file as {MEDIA_TYPE} (Content-Type: {MEDIA_TYPE}).")
    require_host()
    try:
        text = import_body("export.phhs").decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, "The file is not UTF-8 text: send the export.phhs as it "
                            "came.") from None
    return store_import(lambda: phh.rebuild(text))
