"""Responses gzipped for a browser that asks for it (issue 32): a phone on a crowded Wi-Fi
loads its page in a third of the bytes (docs/benchmarks.md, "Phone page").

Static files are compressed once per version of the file (its path, size and modification
time) at the best level, and kept: the whole static folder is a few hundred KB. Pages, JSON,
CSV and SVG made per request are compressed as they go out, only between
:data:`MIN_BYTES` (below, gzip's own header outweighs the gain) and :data:`MAX_DYNAMIC_BYTES`
(above, compressing would hold the event loop for milliseconds every phone waits through).
A streamed answer is left as it is, and so is one already encoded, a partial one (a Range
request) and anything not text. Socket.IO's own traffic never comes here (it is answered by
its middleware, before Flask).

The standard library's gzip rather than a package: nothing to install on any platform, and
each choice above is one line here.
"""

from __future__ import annotations

import gzip
import os
from functools import lru_cache

from flask import Flask, Response, current_app, request
from werkzeug.security import safe_join

MIN_BYTES = 512
MAX_DYNAMIC_BYTES = 256 * 1024
DYNAMIC_LEVEL = 6  # a 5 KB state in a fraction of a millisecond
STATIC_LEVEL = 9  # once per file version
COMPRESSIBLE = frozenset({
    "text/html", "text/css", "text/javascript", "application/javascript", "text/csv",
    "text/plain", "application/json", "application/manifest+json", "image/svg+xml",
})


def accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (``gzip;q=0`` refuses it)."""
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            quality = params.strip().lower().removeprefix("q=")
            try:
                return not params.strip() or float(quality) > 0
            except ValueError:
                return False
    return False


@lru_cache(maxsize=256)
def _static_gzip(path: str, size: int, mtime_ns: int) -> bytes:
    """One version of one static file, gzipped; ``size`` and ``mtime_ns`` key the version."""
    with open(path, "rb") as file:
        return gzip.compress(file.read(), STATIC_LEVEL, mtime=0)


def _static_body(response: Response) -> bytes | None:
    folder = current_app.static_folder
    filename = (request.view_args or {}).get("filename")
    path = safe_join(folder, filename) if folder and filename else None
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    if stat.st_size != response.content_length:  # changed between Flask's send and here
        return None
    return _static_gzip(path, stat.st_size, stat.st_mtime_ns)


def compress_response(response: Response) -> Response:
    if response.mimetype not in COMPRESSIBLE or request.method not in ("GET", "HEAD"):
        return response
    response.vary.add("Accept-Encoding")
    if (response.status_code != 200 or "Content-Encoding" in response.headers
            or "Content-Range" in response.headers
            or not accepts_gzip(request.headers.get("Accept-Encoding", ""))):
        return response
    if response.content_length is not None and response.content_length < MIN_BYTES:
        return response
    if request.endpoint == "static":
        body = _static_body(response)
        if body is None:
            return response
        response.close()  # the file Flask opened to send
        response.direct_passthrough = False
    else:
        if response.is_streamed:
            return response
        if (response.content_length or 0) > MAX_DYNAMIC_BYTES:
            return response
        body = gzip.compress(response.get_data(), DYNAMIC_LEVEL, mtime=0)
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    etag, _ = response.get_etag()
    if etag:  # the same file, another encoding: equal only weakly (a 304 still matches it)
        response.set_etag(etag, weak=True)
    return response


def install(app: Flask) -> None:
    app.after_request(compress_response)
