"""Only the host makes, imports and deletes tables (issue 14, finding 6; API.md "Tables").

The host is the server's own machine (a loopback client naming this server), or whoever sends
the host key that ``dealer-assist`` prints at start. A guest on the Wi-Fi gets a 401 with a
sentence and the database is left as it was; a web page a guest opens cannot make a table
through the host's own browser (cross-origin or ``text/plain``); behind ``--proxy-hops`` the
proxy's own connection is never the host.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import host_headers, new_table
from flask import Flask
from flask.testing import FlaskClient
from test_access import dump

from dealer_assist.cli import banner
from dealer_assist.web.app import create_app
from dealer_assist.web.qr import qr_text

GUEST = "192.168.1.77"
BODY = {"name": "Friday", "variant": "texas_dozen", "players": ["Ann", "Bob"]}


def guest(app: Flask, address: str = GUEST) -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


@pytest.fixture
def exported(client: FlaskClient) -> dict[str, Any]:
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    d.run({"type": "start_deal"}, {"type": "next"}, {"type": "fold", "player": "Ann"})
    answer = client.get(f"/api/tables/{d.id}/export.json", headers=d.headers)
    data: dict[str, Any] = answer.get_json()
    return data


def test_a_guest_cannot_make_import_or_delete_a_table(
    app: Flask, client: FlaskClient, db_path: Path, exported: dict[str, Any]
) -> None:
    table_id = client.get("/api/tables").get_json()[0]["id"]
    before = dump(db_path)
    g = guest(app)
    for method, path, body in (("POST", "/api/tables", BODY),
                               ("POST", "/api/tables/import", exported),
                               ("DELETE", f"/api/tables/{table_id}", None)):
        for headers in ({}, {"Authorization": "Bearer not-the-key"}):
            response = g.open(path, method=method, json=body, headers=headers)
            assert response.status_code == 401, (method, path, response.get_json())
            sentence = response.get_json()["error"]
            assert ("Only the host" in sentence if not headers
                    else "not this server's host key" in sentence)
            assert dump(db_path) == before
    assert g.get("/api/host").get_json() == {"host": False, "implied": False}


def test_the_host_key_makes_imports_and_deletes_from_any_address(
    app: Flask, client: FlaskClient, exported: dict[str, Any]
) -> None:
    g = guest(app)
    key = host_headers(app)
    made = g.post("/api/tables", json=BODY, headers=key)
    assert made.status_code == 201, made.get_json()
    imported = g.post("/api/tables/import", json=exported, headers=key)
    assert imported.status_code == 201, imported.get_json()
    info = g.get("/api/host", headers=key).get_json()
    assert (info["host"], info["implied"]) == (True, False)
    original = next(t for t in g.get("/api/tables").get_json()
                    if t["id"] not in (made.get_json()["id"], imported.get_json()["id"]))
    assert info["sizes"][original["id"]]["records"] == 3  # start_deal, next, fold
    # the host deletes a table: its rows go, its pages and API answer 404, live joins too
    gone = imported.get_json()["id"]
    assert g.delete(f"/api/tables/{gone}", headers=key).get_json() == {"deleted": gone}
    assert gone not in [t["id"] for t in g.get("/api/tables").get_json()]
    assert g.get(f"/api/tables/{gone}").status_code == 404
    assert g.get(f"/api/tables/{gone}/deals").status_code == 404
    assert g.get(f"/t/{gone}").status_code == 404
    assert g.delete(f"/api/tables/{gone}", headers=key).status_code == 404
    # the other tables are untouched
    assert g.get(f"/api/tables/{original['id']}/deals").get_json()[0]["number"] == 1


def test_a_deleted_table_takes_no_more_actions(app: Flask, client: FlaskClient) -> None:
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    d.run({"type": "start_deal"})
    assert client.delete(f"/api/tables/{d.id}").status_code == 200  # loopback: the host
    response = client.post(f"/api/tables/{d.id}/actions", json={"type": "next"},
                           headers=d.headers)
    assert response.status_code == 404
    assert "There is no table" in response.get_json()["error"]


def test_the_host_key_survives_a_restart_and_is_per_database(tmp_path: Path) -> None:
    first = create_app(db_path=tmp_path / "a.db", testing=True)
    again = create_app(db_path=tmp_path / "a.db", testing=True)
    other = create_app(db_path=tmp_path / "b.db", testing=True)
    key = first.extensions["dealer_assist.host_key"]
    assert len(key) >= 32
    assert again.extensions["dealer_assist.host_key"] == key
    assert other.extensions["dealer_assist.host_key"] != key


def test_a_web_page_cannot_make_a_table_through_the_hosts_browser(
    client: FlaskClient,
) -> None:
    """A page of another site, opened on the server's own machine, posts to 127.0.0.1: the
    browser sends its Origin, and a text/plain body needs no permission from the server."""
    raw = json.dumps(BODY)
    cases = [
        ({"Origin": "http://evil.example"}, "text/plain", 403),
        ({"Origin": "http://evil.example"}, "application/json", 403),
        ({"Origin": "null"}, "application/json", 403),
        ({}, "text/plain", 415),
        ({}, "application/x-www-form-urlencoded", 415),
        ({}, "multipart/form-data; boundary=x", 415),
        # DNS rebinding: evil.example now points at 127.0.0.1, and its page is same-origin
        ({"Origin": "http://evil.example:5000"}, "application/json", 401),
    ]
    for headers, content_type, status in cases:
        base = "http://evil.example:5000" if status == 401 else "http://localhost"
        for path in ("/api/tables", "/api/tables/import"):
            response = client.post(path, data=raw, content_type=content_type,
                                   headers=headers, base_url=base)
            assert response.status_code == status, (path, headers, response.get_json())
            assert response.get_json()["error"]
    assert client.get("/api/tables").get_json() == []
    # the host's own page: same origin, JSON
    made = client.post("/api/tables", data=raw, content_type="application/json",
                       headers={"Origin": "http://localhost"})
    assert made.status_code == 201, made.get_json()


def test_behind_a_proxy_only_the_forwarded_address_decides(db_path: Path) -> None:
    """With --proxy-hops 1 every request comes from the proxy's 127.0.0.1: the address it
    forwards decides, and a request without one (the proxy's machine, not through it) is no
    host. Without --proxy-hops, a loopback request that carries forwarding headers came
    through a proxy nobody declared: not the host either."""
    app = create_app(db_path=db_path, testing=True, config={"PROXY_HOPS": 1})
    client = app.test_client()

    def post(headers: dict[str, str]) -> int:
        return client.post("/api/tables", json=BODY, headers=headers).status_code

    assert post({"X-Forwarded-For": GUEST}) == 401
    assert post({}) == 401
    assert post({"X-Forwarded-For": "127.0.0.1"}) == 201
    assert post({"X-Forwarded-For": GUEST} | host_headers(app)) == 201
    plain = create_app(db_path=db_path.with_name("plain.db"), testing=True).test_client()
    for header in ("X-Forwarded-For", "X-Real-IP", "Forwarded"):
        value = "for=192.168.1.77" if header == "Forwarded" else GUEST
        response = plain.post("/api/tables", json=BODY, headers={header: value})
        assert response.status_code == 401, header


def test_the_home_page_is_the_hosts_on_this_machine_and_a_guests_elsewhere(
    app: Flask, client: FlaskClient
) -> None:
    new_table(client, "texas_dozen", ["Ann", "Bob"])
    host_page = client.get("/").get_data(as_text=True)
    guest_page = guest(app).get("/").get_data(as_text=True)
    assert '<section class="panel setup" id="host-setup" aria-labelledby="setup-title">' in (
        host_page)
    assert 'id="guest-note" aria-labelledby="guest-title" hidden>' in host_page
    assert 'id="host-setup" aria-labelledby="setup-title" hidden>' in guest_page
    assert "Only the host makes tables on this server." in guest_page
    assert 'id="guest-note" aria-labelledby="guest-title">' in guest_page


def test_dealer_assist_prints_the_host_key_and_its_qr() -> None:
    out = io.StringIO()
    banner.announce("http://192.168.1.9:5000", Path("/tmp/x.db"), out, host_key="KEY123")
    text = out.getvalue()
    assert "Host key: KEY123 (http://192.168.1.9:5000/#host=KEY123)\n" in text
    assert qr_text("http://192.168.1.9:5000/#host=KEY123") in text
    assert text.rstrip().endswith("Stop with Ctrl+C.")


def test_a_real_server_prints_its_databases_host_key(start_server: Any, tmp_path: Path) -> None:
    server = start_server(tmp_path / "keyed.db")
    key = create_app(db_path=tmp_path / "keyed.db", testing=True).extensions[
        "dealer_assist.host_key"]
    assert f"Host key: {key} (" in server.output()
    status, body = server.api("POST", "/api/tables", BODY)  # from this machine: no key
    assert status == 201, body
