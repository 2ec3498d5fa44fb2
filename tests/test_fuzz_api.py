"""Hostile input (issue 5): hypothesis throws random and malformed bodies at the actions
endpoint, at table creation and at every other POST route of the API (an import, when one is
added, is walked too): wrong types, huge numbers, unknown players and cards, huge strings,
deep nesting, invalid JSON and wrong content types.

Never a 5xx; a refusal is ``{"error": <a sentence>}`` (plus ``seq`` and ``state`` for a 409)
and changes nothing: the dealer's and the public state, the seq and the list of tables are
exactly as before. A body the rules happen to accept is a ``200`` at the next seq.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import Dealer, new_table
from figures import record
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.core.actions import ACTION_TYPES
from dealer_assist.web.app import MAX_BODY_BYTES, create_app
from dealer_assist.web.host import SIMPLE_BODY_TYPES

EXAMPLES = int(os.environ.get("DEALER_ASSIST_FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.data_too_large])
CONTENT_TYPES = ["application/json", "text/plain", "application/x-www-form-urlencoded",
                 "multipart/form-data; boundary=x", "application/xml", "", "image/png",
                 "application/json; charset=latin-1"]

huge_ints = st.one_of(st.integers(), st.integers(min_value=-(10**30), max_value=10**30),
                      st.sampled_from([2**63, -(2**63) - 1, 10**9 + 1, 10**400, -1, 0]))
texts = st.one_of(st.text(max_size=30), st.sampled_from(
    ["Ann", "Bob", "Cy", "Zed", "ann", "", " ", "<script>x=1</script>", "Ah", "10♥", "zz",
     "r1c1", "b9", "X" * 5000, "\x00", "ÿ" * 70, "' OR 1=1 --", "{{7*7}}", "../../etc"]))
scalars = st.one_of(st.none(), st.booleans(), huge_ints, st.floats(), texts)
json_values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(texts, inner, max_size=4)), max_leaves=12)
cards = st.one_of(st.sampled_from(["Ah", "Kd", "7c", "2s", "Ts", "10h", "K", "A", "X1", "Ah",
                                   "JK", "Zz", "", "AhKd"]), texts, huge_ints)
action_bodies = st.fixed_dictionaries({}, optional={
    "type": st.one_of(st.sampled_from(ACTION_TYPES), texts, huge_ints, st.none()),
    "player": st.one_of(texts, huge_ints, st.lists(texts, max_size=2)),
    "count": st.one_of(huge_ints, texts, st.floats()),
    "amount": st.one_of(huge_ints, texts, st.floats()),
    "card": cards,
    "cards": st.one_of(st.lists(cards, max_size=9), texts, st.dictionaries(texts, cards)),
    "cells": st.one_of(st.dictionaries(st.one_of(st.sampled_from(["r1c1", "r5c5", "b1"]),
                                                 texts), cards, max_size=4),
                       st.lists(cards, max_size=4), texts),
    "hands": st.one_of(st.dictionaries(texts, st.lists(cards, max_size=3), max_size=3),
                       json_values),
    "board": st.one_of(st.lists(cards, max_size=6), json_values),
    "kings_hand": st.one_of(st.lists(cards, max_size=6), json_values),
    "to": texts, "note": texts,
    "expect_seq": st.one_of(huge_ints, texts, st.none(), st.floats()),
    "extra": json_values,
})
deep = st.integers(min_value=1, max_value=60_000).map(
    lambda n: ("[" * n + "]" * n if n % 2 else '{"a":' * n + "1" + "}" * n))
raw_bodies = st.one_of(
    st.binary(max_size=300),
    st.text(max_size=300).map(str.encode),
    deep.map(str.encode),
    st.sampled_from([b"", b" ", b"null", b"[]", b"7", b'"next"', b"{", b'{"type": }',
                     b'{"type": "next"', b"NaN", b'{"amount": NaN}', b'{"amount": Infinity}',
                     b"\xff\xfe{}", b'{"type": "next"}\x00', b'{"type":"next","type":"undo"}',
                     b"1" * 5000, b'{"n": ' + b"9" * 5000 + b"}"]),
    st.integers(min_value=MAX_BODY_BYTES - 20, max_value=MAX_BODY_BYTES + 20).map(
        lambda n: b'{"type": "' + b"x" * max(0, n - 12) + b'"}'),
)


@pytest.fixture
def fuzz_app(tmp_path: Path) -> Flask:
    # hostile input is not the token guessing the throttle is for (tests/test_access.py)
    return create_app(db_path=tmp_path / "fuzz.db", testing=True,
                      config={"TOKEN_FAILURES": 10**9})


def snapshot(client: FlaskClient, dealer: Dealer) -> tuple[Any, ...]:
    return (dealer.state(dealer=True), dealer.state(), client.get("/api/tables").get_json())


def assert_refusal(status: int, answer: Any, *, extra: set[str] | None = None) -> None:
    assert 400 <= status < 500, (status, answer)
    assert isinstance(answer, dict) and set(answer) == {"error"} | (extra or set()), answer
    sentence = answer["error"]
    assert isinstance(sentence, str) and 10 <= len(sentence) <= 400, sentence
    # a sentence (it may open with a field's name: "players must be a list ...")
    assert " " in sentence and sentence.endswith((".", "?", "!")), sentence


def mid_deal(client: FlaskClient) -> Dealer:
    """A King's Pot deal in its betting: every kind of field means something here."""
    d = new_table(client, "kings_pot", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 2},
          {"type": "buy", "player": "Cy", "count": 1}, {"type": "buy", "player": "Ann", "count": 1},
          {"type": "deal_cards", "player": "Bob", "cards": ["Ah", "7c"]},
          {"type": "deal_cards", "player": "Cy", "cards": ["Kd"]},
          {"type": "deal_cards", "player": "Ann", "cards": ["2s"]}, {"type": "reveal"})
    return d


def post(client: FlaskClient, path: str, data: bytes, content_type: str,
         headers: dict[str, str]) -> tuple[int, Any]:
    response = client.post(path, data=data, content_type=content_type or None, headers=headers)
    assert response.status_code < 500, (data[:200], response.data[:300])
    assert response.mimetype == "application/json", response.data[:300]
    return response.status_code, response.get_json()


def test_fuzz_actions(fuzz_app: Flask) -> None:
    client = fuzz_app.test_client()
    dealer = mid_deal(client)
    seen: Counter[int] = Counter()

    @FUZZ
    @given(body=st.one_of(action_bodies, json_values), raw=st.one_of(st.none(), raw_bodies),
           content_type=st.sampled_from(CONTENT_TYPES),
           auth=st.sampled_from(["dealer"] * 6 + ["none", "wrong", "junk"]))
    def check(body: Any, raw: bytes | None, content_type: str, auth: str) -> None:
        headers = {"dealer": dealer.headers, "none": {},
                   "wrong": {"Authorization": "Bearer " + "A" * 32},
                   "junk": {"Authorization": "Basic \x7f" + "x" * 300}}[auth]
        data = raw if raw is not None else json.dumps(body).encode()
        before = snapshot(client, dealer)
        status, answer = post(client, f"/api/tables/{dealer.id}/actions", data, content_type,
                              headers)
        seen[status] += 1
        if status == 200:
            assert answer["seq"] == before[0]["seq"] + 1
            assert answer["state"] == dealer.state(dealer=True)
            return
        assert_refusal(status, answer, extra={"seq", "state"} if status == 409 else set())
        assert status in (400, 401, 409, 413)
        if status == 401:
            assert auth != "dealer"
        if status == 409:
            assert isinstance(body, dict) and body.get("expect_seq") != before[0]["seq"]
            assert answer["state"] == before[0]
        assert snapshot(client, dealer) == before

    check()
    assert seen[400] > EXAMPLES // 4  # the refusals were the point
    record("fuzz_actions", cases=sum(seen.values()), **{f"status_{k}": v for k, v in
                                                          sorted(seen.items())})


def test_fuzz_table_creation(fuzz_app: Flask) -> None:
    client = fuzz_app.test_client()
    dealer = mid_deal(client)
    seen: Counter[int] = Counter()
    players = st.lists(st.one_of(texts, huge_ints, json_values, st.fixed_dictionaries(
        {"name": texts}, optional={"stack": st.one_of(huge_ints, texts, st.floats())})),
        max_size=15)
    rules = st.one_of(json_values, st.dictionaries(st.sampled_from(
        ["ante", "betting", "min_bet", "small_bet", "big_bet", "small_blind", "big_blind",
         "odd_chip", "river_raise", "wilds", "buy_in", "draw_for_blind", "nope"]),
        st.one_of(huge_ints, texts, st.booleans(), st.none(), st.floats()), max_size=5))
    bodies = st.fixed_dictionaries({}, optional={
        "name": st.one_of(texts, huge_ints, json_values),
        "variant": st.one_of(st.sampled_from(["kings_pot", "kings_pot_optional", "texas_dozen",
                                              "off_road_stud", "twenty_one_hand_holdem"]),
                             texts, huge_ints),
        "players": st.one_of(players, json_values), "rules": rules, "junk": json_values})

    @FUZZ
    @given(body=st.one_of(bodies, json_values), raw=st.one_of(st.none(), raw_bodies),
           content_type=st.sampled_from(CONTENT_TYPES))
    def check(body: Any, raw: bytes | None, content_type: str) -> None:
        data = raw if raw is not None else json.dumps(body).encode()
        before = snapshot(client, dealer)
        status, answer = post(client, "/api/tables", data, content_type, {})
        seen[status] += 1
        if content_type.split(";")[0] in SIMPLE_BODY_TYPES:  # what any web page may send
            assert status == 415, (status, answer)
        if status == 201:
            tables = client.get("/api/tables").get_json()
            assert len(tables) == len(before[2]) + 1 and tables[0]["id"] == answer["id"]
            assert before[:2] == snapshot(client, dealer)[:2]
            return
        assert status in (400, 413, 415)
        assert_refusal(status, answer)
        assert snapshot(client, dealer) == before

    check()
    record("fuzz_table_creation", cases=sum(seen.values()),
           **{f"status_{k}": v for k, v in sorted(seen.items())})


def other_post_routes(app: Flask) -> list[str]:
    """Every POST route under /api but table creation and actions (an import, for one)."""
    return sorted(str(rule.rule) for rule in app.url_map.iter_rules()
                  if "POST" in (rule.methods or set()) and str(rule.rule).startswith("/api/")
                  and str(rule.rule) not in ("/api/tables", "/api/tables/<table_id>/actions"))


def test_fuzz_every_other_post_route(fuzz_app: Flask) -> None:
    client = fuzz_app.test_client()
    dealer = mid_deal(client)
    routes = other_post_routes(fuzz_app)
    seen: Counter[int] = Counter()
    if not routes:
        record("fuzz_other_post_routes", routes=0, cases=0)
        return

    @FUZZ
    @given(route=st.sampled_from(routes), body=json_values, raw=st.one_of(st.none(), raw_bodies),
           content_type=st.sampled_from(CONTENT_TYPES), with_token=st.booleans())
    def check(route: str, body: Any, raw: bytes | None, content_type: str,
              with_token: bool) -> None:
        path = route.replace("<table_id>", dealer.id).replace("<int:number>", "1")
        data = raw if raw is not None else json.dumps(body).encode()
        before = snapshot(client, dealer)
        status, answer = post(client, path, data, content_type,
                              dealer.headers if with_token else {})
        seen[status] += 1
        if status >= 400:
            assert_refusal(status, answer, extra=set(answer) - {"error"})
            assert snapshot(client, dealer) == before

    check()
    record("fuzz_other_post_routes", routes=len(routes), cases=sum(seen.values()))


# --------------------------------------------------------------------------- size limits
def test_body_size_limit(fuzz_app: Flask) -> None:
    client = fuzz_app.test_client()
    dealer = mid_deal(client)
    before = snapshot(client, dealer)
    for path in ("/api/tables", f"/api/tables/{dealer.id}/actions"):
        body = b'{"type": "' + b"x" * MAX_BODY_BYTES + b'"}'
        status, answer = post(client, path, body, "application/json", dealer.headers)
        assert (status, answer) == (413, {
            "error": "The request is too large: a body has at most 64 KB."})
        # one byte under the limit is read, and refused for what it says
        body = b'{"type": "' + b"x" * (MAX_BODY_BYTES - 12) + b'"}'
        assert len(body) == MAX_BODY_BYTES
        status, answer = post(client, path, body, "application/json", dealer.headers)
        assert status == 400
        assert_refusal(status, answer)
    assert snapshot(client, dealer) == before


def test_name_limits(fuzz_app: Flask) -> None:
    client = fuzz_app.test_client()

    def create(name: str, players: list[str]) -> tuple[int, Any]:
        response = client.post("/api/tables", json={
            "name": name, "variant": "texas_dozen", "players": players})
        return response.status_code, response.get_json()

    assert create("T" * 80, ["A" * 40, "Bob"])[0] == 201
    assert create("T" * 81, ["Ann", "Bob"]) == (400, {
        "error": "The table's name must be text of at most 80 characters."})
    assert create("T", ["A" * 41, "Bob"]) == (400, {
        "error": "A player's name has at most 40 characters."})
    assert len(client.get("/api/tables").get_json()) == 1
    dealer = mid_deal(client)
    before = snapshot(client, dealer)
    status, answer = post(client, f"/api/tables/{dealer.id}/actions", json.dumps(
        {"type": "fold", "player": "B" * 10_000}).encode(), "application/json", dealer.headers)
    assert status == 400
    assert_refusal(status, answer)
    assert len(answer["error"]) < 200  # a long name is not echoed back whole
    assert snapshot(client, dealer) == before
