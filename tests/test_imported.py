"""An imported table is what it is (issue 14, finding 6): a guest rebuilt a table from its
records, set ``created`` to 2099 and imported it, and the home page listed the forgery first
under the same name. Now an import is marked "imported" in the API and on every page, its
``created`` is the time of the import, and the time the file claimed is kept beside it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import new_table
from flask.testing import FlaskClient

CLAIMED = "2099-01-01T00:00:00+00:00"

pytestmark = pytest.mark.both_engines


def forged(client: FlaskClient) -> tuple[str, str]:
    d = new_table(client, "texas_dozen", ["Ann", "Bob"], name="Friday")
    d.run({"type": "start_deal"}, {"type": "next"}, {"type": "fold", "player": "Ann"})
    data: dict[str, Any] = client.get(f"/api/tables/{d.id}/export.json",
                                      headers=d.headers).get_json()
    data["table"]["created"] = CLAIMED
    answer = client.post("/api/tables/import", json=data)
    assert answer.status_code == 201, answer.get_json()
    return d.id, answer.get_json()["id"]


def test_an_import_is_marked_and_dated_by_its_import(client: FlaskClient) -> None:
    real, copy = forged(client)
    listed = {t["id"]: t for t in client.get("/api/tables").get_json()}
    assert listed[real]["imported"] is False and listed[real]["original_created"] is None
    assert listed[copy]["imported"] is True
    assert listed[copy]["original_created"] == CLAIMED
    created = datetime.fromisoformat(listed[copy]["created"])
    assert abs(created - datetime.now(UTC)) < timedelta(minutes=5)
    history = client.get(f"/api/tables/{copy}/history").get_json()
    assert history["imported"]["original_created"] == CLAIMED
    assert history["imported"]["imported_at"] == listed[copy]["created"]
    assert client.get(f"/api/tables/{real}/history").get_json()["imported"] == {
        "imported_at": None, "original_created": None}


def test_every_page_of_an_import_says_so(client: FlaskClient) -> None:
    real, copy = forged(client)
    for path in ("/t/{}", "/t/{}/dealer", "/t/{}/history", "/t/{}/history/1"):
        page = client.get(path.format(copy)).get_data(as_text=True)
        assert "Imported from a file on" in page, path
        assert "not played on this server (the file says it was made 2099-01-01)" in page
        assert "Imported from a file" not in client.get(path.format(real)).get_data(
            as_text=True), path
    home = client.get("/").get_data(as_text=True)
    assert home.count('<span class="badge imported">imported</span>') == 1
