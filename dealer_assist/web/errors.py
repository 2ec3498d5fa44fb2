"""The web's one error handler: every refusal answers JSON with a sentence.

An :class:`ApiError` carries its status and sentence (and maybe more fields for the body);
a Werkzeug ``HTTPException`` (404, 405, 413, ...) under ``/api/``, or any body too large,
gets the sentence of its status. Other pages keep Werkzeug's own error page.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from dealer_assist.services.storage import StorageUnavailable
from dealer_assist.web.extensions import MAX_BODY_BYTES


class ApiError(Exception):
    """A refusal: its sentence and HTTP status, and maybe more fields for the body."""

    def __init__(self, status: int, sentence: str, **extra: Any) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence
        self.extra = extra


ERROR_SENTENCES = {
    400: "The request could not be read.",
    404: "There is nothing at this address.",
    405: "This address does not take that method.",
    413: f"The request is too large: a body has at most {MAX_BODY_BYTES // 1024} KB.",
    500: "Something went wrong on the server; nothing was changed. Try again.",
}
UNAVAILABLE_SENTENCE = ("The server's database cannot be reached just now: nothing was "
                        "changed. Try again in a moment.")


def error_answer(err: Exception) -> ResponseReturnValue:
    """The answer to an :class:`ApiError`, an ``HTTPException`` or a database that cannot be
    reached (``StorageUnavailable``: a 503; registered for the three)."""
    if isinstance(err, StorageUnavailable):
        response = jsonify(error=UNAVAILABLE_SENTENCE)
        response.status_code = 503
        response.headers["Retry-After"] = "2"
        return response
    if isinstance(err, HTTPException):
        code = err.code or 500
        if request.path.startswith("/api/") or code == 413:
            return jsonify(error=ERROR_SENTENCES.get(code, err.description or "Error.")), code
        return err
    if not isinstance(err, ApiError):  # only registered for the three
        raise err
    extra = dict(err.extra)
    retry_after = extra.pop("retry_after", None)  # a header, not a field
    response = jsonify({"error": err.sentence, **extra})
    response.status_code = err.status
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    if err.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="dealer-assist"'
    return response
