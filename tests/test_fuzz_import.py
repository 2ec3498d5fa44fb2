"""Hypothesis fuzzing of the import body (issue 14): a real export with one place changed to
anything (a field removed, replaced by any JSON value, a record duplicated or dropped, a
string made odd: a lone surrogate, a time at the calendar's edge, a huge number). Every answer
is a 201 or a refusal with a sentence, never a 5xx; a refusal stores nothing; an accepted file
is a table whose stored records replay to its served state."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

from conftest import new_table
from figures import record
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz_api import FUZZ, assert_refusal, json_values

from dealer_assist.web.app import create_app

ODD = st.sampled_from([
    "\ud800", "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", 2**63, -1, 10**400,
    "x" * 70_000, [], {}, None, True, "A\u200bnn", "undo", "showdown", 1.5,
])


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: dict keys and list indexes, the root included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:12]):  # the first records are enough places
            found += paths(item, (*prefix, index))
    return found


def changed(data: Any, path: tuple[Any, ...], how: str, new: Any) -> Any:
    if not path:
        return new
    out = copy.deepcopy(data)
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if how == "drop":
        del parent[last]
    elif how == "twice" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    else:
        parent[last] = new
    return out


def test_fuzz_the_import_body(tmp_path: Any) -> None:
    app: Flask = create_app(db_path=tmp_path / "fuzz.db", testing=True,
                            config={"CREATE_BURST": 10**6})
    client: FlaskClient = app.test_client()
    d = new_table(client, "kings_pot", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 1},
          {"type": "buy", "player": "Cy", "count": 0}, {"type": "buy", "player": "Ann",
                                                        "count": 1})
    export = client.get(f"/api/tables/{d.id}/export.json", headers=d.headers).get_json()
    places = paths(export)
    seen: Counter[int] = Counter()

    @FUZZ
    @given(place=st.sampled_from(places), how=st.sampled_from(["set", "drop", "twice"]),
           new=st.one_of(json_values, ODD))
    def check(place: tuple[Any, ...], how: str, new: Any) -> None:
        try:
            body = changed(export, place, how, new)
        except (KeyError, IndexError, TypeError):
            return
        raw = json.dumps(body).encode("utf-8", "surrogatepass")
        before = client.get("/api/tables").get_json()
        response = client.post("/api/tables/import", data=raw,
                               content_type="application/json")
        seen[response.status_code] += 1
        answer = response.get_json()
        if response.status_code == 201:
            made = client.get(f"/api/tables/{answer['id']}").get_json()
            assert made["seq"] == answer["actions"]
            return
        assert response.status_code != 503, answer
        assert_refusal(response.status_code, answer)
        assert client.get("/api/tables").get_json() == before

    check()
    assert seen[201] > 0 and sum(n for code, n in seen.items() if code >= 400) > 0, seen
    record("fuzz_import", cases=sum(seen.values()),
           **{f"status_{k}": v for k, v in sorted(seen.items())})
