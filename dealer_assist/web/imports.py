"""Making a table from a file (the JSON export, or PHH): what every import shares. The body is
read within its size, an empty one refused with a sentence; replaying the file is the one
heavy request, so one import runs at a time, of either kind; the new table gets a dealer
token of its own."""

from __future__ import annotations

import threading
from collections.abc import Callable

from flask import Response, jsonify, request

from dealer_assist.core.errors import ImportRefusedError
from dealer_assist.services import history, storage
from dealer_assist.services.auth import hash_token, new_table_id, new_token
from dealer_assist.web.api import table_urls
from dealer_assist.web.errors import ApiError
from dealer_assist.web.extensions import get_db
from dealer_assist.web.host import full_sentence

MAX_IMPORT_BYTES = 4 * 1024 * 1024  # ~25,000 records, dozens of nights; the rest of the API: 64 KB
IMPORTS_AT_ONCE = threading.BoundedSemaphore(1)  # replaying a file is the one heavy request


def import_body(export_name: str) -> bytes:
    """The request's body, at most :data:`MAX_IMPORT_BYTES`; ``export_name`` ("export.json")
    names the file the refusal of an empty body asks for."""
    size = request.content_length
    if size is not None and size > MAX_IMPORT_BYTES:
        raise ApiError(413, f"The file is too large: an import has at most "
                            f"{MAX_IMPORT_BYTES // (1024 * 1024)} MB.")
    request.max_content_length = MAX_IMPORT_BYTES
    raw = request.get_data()
    if not raw.strip():
        raise ApiError(400, f"The body is empty: send the file that {export_name} gave.")
    return raw


def store_import(rebuild: Callable[[], history.Rebuilt]) -> Response:
    """Replay the file (``rebuild``, one import at a time) and store it as a new table: a
    ``201`` with the table's id, dealer token and links, or a sentence."""
    if not IMPORTS_AT_ONCE.acquire(blocking=False):
        raise ApiError(503, "Another import is running: try again in a moment.",
                       retry_after=2)
    try:
        rebuilt = rebuild()
    except ImportRefusedError as err:
        raise ApiError(400, str(err)) from None
    finally:
        IMPORTS_AT_ONCE.release()
    table_id, token = new_table_id(), new_token()
    try:
        history.import_table(get_db(), table_id, hash_token(token), rebuilt)
    except storage.StorageFull:
        raise ApiError(507, full_sentence()) from None
    response = jsonify({"id": table_id, "dealer_token": token, **table_urls(table_id, token),
                        "deals": len(rebuilt.deals), "actions": len(rebuilt.actions)})
    response.status_code = 201
    response.headers["Location"] = f"/api/tables/{table_id}"
    response.headers["Cache-Control"] = "no-store"
    return response
