"""Issue 32: what the server sends is gzipped to a browser that asks (web/compress.py): each
static file the same bytes once unpacked, still revalidated with a 304; pages and JSON too;
never a streamed answer, a big one, a partial one, or to a client that does not ask."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Any

from conftest import Dealer
from flask import Flask, Response

from dealer_assist.web.app import create_app
from dealer_assist.web.compress import MAX_DYNAMIC_BYTES, accepts_gzip

STATIC = Path(__file__).resolve().parent.parent / "static"
GZIP = {"Accept-Encoding": "gzip, deflate"}


def test_accept_encoding_is_read_as_a_browser_writes_it() -> None:
    assert accepts_gzip("gzip, deflate, br, zstd")
    assert accepts_gzip("deflate;q=1.0, GZIP;q=0.5")
    assert accepts_gzip("*")
    assert not accepts_gzip("")
    assert not accepts_gzip("identity")
    assert not accepts_gzip("gzip;q=0")
    assert not accepts_gzip("gzip;q=zero")
    assert not accepts_gzip("deflate, br")


def test_a_static_file_is_sent_gzipped_and_revalidates(client: Any) -> None:
    script = STATIC / "vendor" / "socket.io" / "socket.io.min.js"
    url = "/static/vendor/socket.io/socket.io.min.js"
    packed = client.get(url, headers=GZIP)
    assert packed.status_code == 200 and packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == script.read_bytes()
    assert int(packed.headers["Content-Length"]) == len(packed.data) < 16_000  # of 47,295
    assert "Accept-Encoding" in packed.headers["Vary"]
    etag = packed.headers["ETag"]
    assert etag.startswith('W/"')  # the same file in another encoding: weakly equal
    assert client.get(url, headers={**GZIP, "If-None-Match": etag}).status_code == 304
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers and plain.data == script.read_bytes()
    assert client.get(url, headers={"Accept-Encoding": "gzip;q=0"}).data == plain.data
    part = client.get(url, headers={**GZIP, "Range": "bytes=0-99"})
    assert part.status_code == 206 and part.data == script.read_bytes()[:100]
    assert "Content-Encoding" not in part.headers
    for response in (packed, plain, part):
        response.close()


def test_pages_and_json_are_gzipped_to_the_same_content(client: Any, make_table: Any) -> None:
    d: Dealer = make_table("texas_dozen", ["Ann", "Bob"])
    for url in (f"/t/{d.id}", f"/api/tables/{d.id}", "/"):
        packed = client.get(url, headers=GZIP)
        assert packed.headers["Content-Encoding"] == "gzip", url
        assert gzip.decompress(packed.data) == client.get(url).data, url
    favicon = client.get("/static/img/favicon.svg", headers=GZIP)  # too small to gain
    assert "Content-Encoding" not in favicon.headers
    favicon.close()
    # the dealer's answers (POST) go out as they are: small, and never held for compression
    answer = client.post(f"/api/tables/{d.id}/actions", json={"type": "start_deal"},
                         headers={**GZIP, **d.headers})
    assert "Content-Encoding" not in answer.headers


def test_streamed_and_big_answers_are_sent_as_they_are(tmp_path: Path) -> None:
    app: Flask = create_app(db_path=tmp_path / "c.db", testing=True)
    big = b"[" + b"1," * MAX_DYNAMIC_BYTES + b"1]"
    app.add_url_rule("/streamed", "streamed",
                     lambda: Response(iter([b"a,b\n"] * 1000), mimetype="text/csv"))
    app.add_url_rule("/big", "big", lambda: Response(big, mimetype="application/json"))
    client = app.test_client()
    streamed = client.get("/streamed", headers=GZIP)
    assert "Content-Encoding" not in streamed.headers and streamed.data == b"a,b\n" * 1000
    large = client.get("/big", headers=GZIP)
    assert "Content-Encoding" not in large.headers and large.data == big
