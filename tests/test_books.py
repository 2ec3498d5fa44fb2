"""Issue 24, the host's books (R76-R78), through the API on both engines: the banker and
transfers only between people, each night's own settle-up, the season with aliases and a date
range, payment handles, and the charts' lines drawn as the night went. The season is
``books_scenario``'s: two Fridays of King's Pot (with a Texas Dozen deal, a newcomer, a rebuy, a
correction and a cash-out) and a Saturday of Hold'em, with figures worked out there.
"""

from __future__ import annotations

import csv
import io
import random
from typing import Any

import pytest
from books_scenario import SEASON, fold_to_the_blind, play_season
from conftest import Dealer, host_headers, new_table
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_history import play_kings_pot_night

from dealer_assist.services import people as people_service
from dealer_assist.services import storage
from dealer_assist.services.history.books import settle_up
from dealer_assist.services.people import People

pytestmark = [pytest.mark.timeout(180), pytest.mark.both_engines]


class FlaskHost:
    """books_scenario's Host over Flask's test client (the client is the server's own
    machine: the host)."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def table(self, variant: str, players: list[str], rules: dict[str, Any],
              name: str) -> Dealer:
        return new_table(self.client, variant, players, rules, name)

    def export(self, d: Dealer) -> dict[str, Any]:
        return self.client.get(f"/api/tables/{d.id}/export.json", headers=d.headers).get_json()

    def copy(self, exported: dict[str, Any]) -> str:
        response = self.client.post("/api/tables/import", json=exported)
        assert response.status_code == 201, response.get_json()
        return str(response.get_json()["id"])

    def delete(self, d: Dealer) -> None:
        assert self.client.delete(f"/api/tables/{d.id}").status_code == 200


@pytest.fixture
def season(client: FlaskClient) -> dict[str, str]:
    ids = play_season(FlaskHost(client))
    alias(client, "POST", {"name": "Bobby", "is": "Bob"}, 201)
    return ids


def get(client: FlaskClient, path: str, status: int = 200, **kw: Any) -> Any:
    response = client.get(path, **kw)
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    return response.get_json()


def alias(client: FlaskClient, method: str, body: Any, status: int) -> Any:
    response = client.open("/api/people/aliases", method=method, json=body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def rows(league: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(p["name"], p["nights"], p["deals"], p["bought_in"], p["cashed_out"], p["stack"],
             p["net"], p["biggest_pot"]) for p in league["people"]]


# --------------------------------------------------------------------------- R76
def test_r76_a_seated_banker_holds_the_kings_pot_and_is_paid_it(client: FlaskClient) -> None:
    """The three deals of test_history with Ann as the banker: nets Ann -3, Bob -12, Cy +10,
    the king's pot 5. Ann is owed 5 - 3 = 2, and holds the 5 in cash."""
    d = new_table(client, "kings_pot", ["Ann", "Bob", "Cy"], {"banker": "ann"})
    play_kings_pot_night(d)
    assert d.state()["rules"]["banker"] == "Ann"  # as the table spells her
    ledger = get(client, f"/api/tables/{d.id}/ledger")
    assert [(t["from"], t["to"], t["amount"]) for t in ledger["transfers"]] == [
        ("Bob", "Cy", 10), ("Bob", "Ann", 2)]
    assert ledger["banker"]["name"] == "Ann" and ledger["banker"]["holds"] == 5
    assert ledger["banker"]["words"] == "Ann holds 5 for the king's pot."
    page = client.get(f"/t/{d.id}/history").get_data(as_text=True)
    assert "pays the table" not in page and "the table pays" not in page.lower()
    assert 'id="banker">Ann holds 5 for the king&#39;s pot.<' in page


def test_r76_the_banker_must_sit_at_the_table(client: FlaskClient) -> None:
    for banker, sentence in (("Zed", "The banker must be one of the players: Zed is not at "
                                     "the table."),
                             (7, "banker must be the name of a player at the table.")):
        response = client.post("/api/tables", json={
            "variant": "texas_dozen", "players": ["Ann", "Bob"], "rules": {"banker": banker}})
        assert (response.status_code, response.get_json()) == (400, {"error": sentence})
    assert get(client, "/api/tables") == []


@settings(max_examples=200, deadline=None)
@given(nets=st.lists(st.integers(-500, 500), min_size=1, max_size=9),
       held=st.dictionaries(st.sampled_from(["kings_pot", "carry", "bank"]),
                            st.integers(0, 60), max_size=3),
       start=st.integers(0, 40), banker=st.integers(-1, 8))
def test_r76_settle_up_is_exact_and_only_between_people(
    nets: list[int], held: dict[str, int], start: int, banker: int,
) -> None:
    """Any nets, whatever the table holds and held: the chips balance (R3), every party ends
    square, nobody pays "the table", and a named banker is a party like any other."""
    held = {k: v for k, v in held.items() if v}
    names = [f"P{i}" for i in range(len(nets))]
    balance = dict(zip(names, nets, strict=True))
    # the nets and the table's change always sum to zero: the last player makes it so
    balance[names[-1]] -= sum(nets) + sum(held.values()) - start
    who = names[banker] if 0 <= banker < len(names) else None
    books = settle_up(balance, who, held, start, People(), title="t")
    owed = {**balance}
    owed[who] = owed.get(who, 0) + sum(held.values()) - start  # type: ignore[index]
    for t in books["transfers"]:
        assert t["amount"] > 0 and t["from"] != t["to"]
        assert {t["from"], t["to"]} <= {*names, None} and (None not in (t["from"], t["to"])
                                                           or who is None)
        owed[t["from"]] += t["amount"]
        owed[t["to"]] -= t["amount"]
    assert set(owed.values()) <= {0}
    assert len(books["transfers"]) <= max(0, sum(1 for v in balance.values() if v))  + 1
    assert books["banker"]["holds"] == sum(held.values())


# --------------------------------------------------------------------------- one night
def test_r76_each_night_settles_on_its_own_and_the_nights_add_up(
    client: FlaskClient, season: dict[str, str],
) -> None:
    friday = season["friday"]
    one = get(client, f"/api/tables/{friday}/nights/1")
    assert [(p["name"], p["net"], p["bought_in"], p["cashed_out"]) for p in one["people"]] == [
        ("Cy", 10, 100, 0), ("Ann", -3, 100, 0), ("Bob", -12, 150, 0)]
    assert [t["words"] for t in one["transfers"]] == ["Bob pays Cy 10", "Bob pays Ann 2"]
    assert one["banker"]["words"] == "Ann holds 5 for the king's pot."
    assert [(p["number"], p["pot"], p["payouts"]) for p in one["biggest_pots"]] == [
        (1, 14, {"Cy": 14}), (3, 9, {"Cy": 9})]
    two = get(client, f"/api/tables/{friday}/nights/2")
    # Di sat down for night 2: her line, and her night, start there
    assert [(p["name"], p["net"], p["bought_in"], p["cashed_out"]) for p in two["people"]] == [
        ("Di", 1, 100, 0), ("Ann", 0, 97, 0), ("Cy", 0, 110, 110), ("Bob", -1, 138, 0)]
    assert [t["words"] for t in two["transfers"]] == ["Bob pays Di 1"]
    assert two["banker"]["words"] == "Ann still holds 5 for the king's pot."
    assert two["deals"] == [4] and two["games"] == ["Texas Dozen"]
    # the two nights' payments are the whole table's
    whole = get(client, f"/api/tables/{friday}/ledger")
    assert sorted((t["from"], t["to"], t["amount"]) for t in whole["transfers"]) == [
        ("Bob", "Ann", 2), ("Bob", "Cy", 10), ("Bob", "Di", 1)]
    assert get(client, f"/api/tables/{friday}/nights/3", status=404) == {
        "error": f"Table {friday} has no night 3."}
    page = client.get(f"/t/{friday}/nights/2").get_data(as_text=True)
    assert 'data-player="Di"' in page and "Bob pays Di 1" in page.replace(
        '<span class="who">', "").replace("</span>", "").replace(
        '<strong class="amount">', "").replace("</strong>", "")


# --------------------------------------------------------------------------- R72 waiting
def test_r72_the_csv_and_the_cards_say_what_waited(client: FlaskClient,
                                                  season: dict[str, str]) -> None:
    friday = season["friday"]
    text = client.get(f"/api/tables/{friday}/export.csv").get_data(as_text=True)
    table = list(csv.DictReader(io.StringIO(text)))
    assert [(r["number"], r["game"], r["kings_pot_after"], r["waiting"]) for r in table] == [
        ("1", "King's Pot", "0", ""), ("2", "King's Pot", "2", ""),
        ("3", "King's Pot", "5", ""), ("4", "Texas Dozen", "5", "King's pot waiting: 5")]
    h = get(client, f"/api/tables/{friday}/history")
    assert h["deals"][3]["carried_after"] == [
        {"key": "kings_pot", "title": "King's pot", "amount": 5, "waiting": True}]
    page = client.get(f"/t/{friday}/history").get_data(as_text=True)
    assert "King&#39;s pot waiting <strong>5</strong>" in page
    svg = client.get(f"/t/{friday}/charts/kings-pot.svg").get_data(as_text=True)
    assert "waiting through a Texas Dozen deal" in svg


# --------------------------------------------------------------------------- the charts
def test_charts_draw_a_line_from_the_seat_to_leaving_with_entries_marked(
    client: FlaskClient, season: dict[str, str],
) -> None:
    lines = get(client, f"/api/tables/{season['friday']}/history")["lines"]

    def shape(name: str) -> list[tuple[int, int, int, str | None]]:
        return [(p["x"], p["stack"], p["net"], p["mark"]) for p in lines[name]]

    assert shape("Di") == [(3, 100, 0, "seat"), (4, 101, 1, None)]
    assert shape("Bob") == [(0, 100, 0, "start"), (1, 92, -8, None), (1, 142, -8, "rebuy"),
                            (2, 142, -8, None), (3, 138, -12, None), (4, 137, -13, None)]
    assert shape("Cy")[-2:] == [(4, 110, 10, None), (4, 110, 10, "cash_out")]
    assert shape("Ann")[1:3] == [(1, 99, -1, None), (1, 102, 2, "adjust")]
    stacks = client.get(f"/t/{season['friday']}/charts/stacks.svg").get_data(as_text=True)
    assert 'data-series="Di" data-first-x="3" data-last-x="4"' in stacks
    assert 'data-series="Cy" data-first-x="0" data-last-x="4"' in stacks
    assert stacks.count('data-mark="rebuy"') == 2  # Bob's, and the legend's
    assert 'data-entry="rebuy"' in stacks
    net = client.get(f"/t/{season['friday']}/charts/net.svg").get_data(as_text=True)
    assert "Net after each deal" in net and 'data-series="Bob"' in net


# --------------------------------------------------------------------------- R77, R78
def test_r78_the_season_per_person_across_tables_and_nights(
    client: FlaskClient, season: dict[str, str],
) -> None:
    league = get(client, "/api/league")
    assert rows(league) == SEASON
    assert league["bank"] == 5  # Friday's king's pot: not shared out
    assert sum(p["net"] for p in league["people"]) + league["bank"] == 0
    assert league["nights"] == ["2026-11-20", "2026-11-21", "2026-11-27"]
    assert {c["name"]: [(p["night"], p["net"]) for p in c["points"]]
            for c in league["chart"]} == {
        "Cy": [("2026-11-20", 10), ("2026-11-21", 10), ("2026-11-27", 10)],
        "Di": [("2026-11-27", 1)],
        "Eve": [("2026-11-21", -1), ("2026-11-27", -1)],
        "Ann": [("2026-11-20", -3), ("2026-11-21", -3), ("2026-11-27", -3)],
        "Bob": [("2026-11-20", -12), ("2026-11-21", -11), ("2026-11-27", -12)]}
    saturday = get(client, "/api/league?from=2026-11-21&to=2026-11-21")
    assert rows(saturday) == [("Bob", 1, 2, 100, 0, 101, 1, 2), ("Ann", 1, 2, 100, 0, 100, 0, 2),
                              ("Eve", 1, 2, 100, 0, 99, -1, 0)]
    assert saturday["bank"] == 0
    # a range that starts while a table is under way counts the chips brought to it
    later = get(client, "/api/league?from=2026-11-27")
    assert rows(later) == [("Di", 1, 1, 100, 0, 101, 1, 2), ("Ann", 1, 1, 97, 0, 97, 0, 0),
                           ("Cy", 1, 1, 110, 110, 0, 0, 0), ("Bob", 1, 1, 138, 0, 137, -1, 0)]
    assert get(client, "/api/league?from=2027-01-01")["people"] == []
    text = client.get("/api/league.csv?to=2026-11-21").get_data(as_text=True)
    assert list(csv.reader(io.StringIO(text)))[:2] == [
        ["name", "nights", "deals", "bought_in", "cashed_out", "stack", "net", "biggest_pot"],
        ["Cy", "1", "3", "100", "0", "110", "10", "14"]]
    svg = client.get("/league/chart.svg").get_data(as_text=True)
    assert 'data-series="Di" data-first-x="3" data-last-x="3"' in svg


@pytest.mark.parametrize(("query", "sentence"), [
    ("from=yesterday", "from must be a date such as 2026-11-27, not 'yesterday'."),
    ("to=2026-13-01", "to must be a date such as 2026-11-27, not '2026-13-01'."),
    ("from=2026-11-28&to=2026-11-27", "from (2026-11-28) is after to (2026-11-27): nothing is "
                                      "in between."),
])
def test_r78_a_bad_range_is_a_sentence(client: FlaskClient, query: str, sentence: str) -> None:
    assert get(client, f"/api/league?{query}", status=400) == {"error": sentence}


def test_r77_an_alias_joins_two_names_and_is_undone(client: FlaskClient,
                                                    season: dict[str, str]) -> None:
    assert [p["name"] for p in get(client, "/api/league")["people"]].count("Bob") == 1
    assert alias(client, "DELETE", {"name": "bobby", "is": "BOB"}, 200) == {"aliases": []}
    apart = {p["name"]: p["net"] for p in get(client, "/api/league")["people"]}
    assert (apart["Bob"], apart["Bobby"]) == (-13, 1)  # nothing recorded was rewritten
    for body, sentence in (
        ({"name": "Bob", "is": "bob"}, "Bob and bob are already one person: names are compared "
                                       "as at a table."),
        ({"name": "Bobby"}, 'Send {"name": "Bobby", "is": "Bob"}: the name, and the person it '
                            "is."),
        ({"name": "Bob\u200b", "is": "Rob"}, "name holds an invisible or direction character "
                                             "(U+200B): type it again with letters, digits and "
                                             "spaces only."),
    ):
        assert alias(client, "POST", body, 400) == {"error": sentence}
    alias(client, "POST", {"name": "Bobby", "is": "Bob"}, 201)
    assert alias(client, "POST", {"name": "BOBBY", "is": "Rob"}, 400) == {
        "error": "Bobby is already Bob: take that back first."}
    assert alias(client, "POST", {"name": "Bob", "is": "Bobby"}, 400) == {
        "error": "Bobby is already Bob: the two are one person."}
    assert alias(client, "DELETE", {"name": "Eve", "is": "Bob"}, 400) == {
        "error": "Eve is not an alias of Bob: nothing was changed."}
    # a chain follows through: Robert is Bobby, who is Bob
    alias(client, "POST", {"name": "Robert", "is": "Bobby"}, 201)
    assert people_service.People(
        [people_service.Alias("Robert", "Bobby"), people_service.Alias("Bobby", "Bob")]
    ).person("robert") == (people_service.person_key("Bob"), "Bob")


def test_r77_the_books_are_the_hosts(app: Flask, client: FlaskClient) -> None:
    """From another machine the season and the people need the host key; a page of another
    site may not change them, and a change comes as JSON."""
    remote = {"REMOTE_ADDR": "192.0.2.7"}
    for path in ("/api/league", "/api/league.csv", "/league/chart.svg", "/api/people"):
        response = client.get(path, environ_base=remote)
        assert response.status_code == 401 and "Only the host" in response.get_json()["error"]
        assert client.get(path, environ_base=remote, headers=host_headers(app)).status_code == 200
    wrong = client.get("/api/league", environ_base=remote,
                       headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    body = {"name": "Bobby", "is": "Bob"}
    assert client.post("/api/people/aliases", json=body, environ_base=remote
                       ).status_code == 401
    assert client.post("/api/people/aliases", json=body,
                       headers={"Origin": "http://evil.example"}).status_code == 403
    assert client.post("/api/people/aliases", data='{"name": "Bobby", "is": "Bob"}',
                       content_type="text/plain").status_code == 415
    assert client.get("/league").status_code == 200  # the page: its script asks as the host


def test_payment_handles_show_with_the_transfers_that_pay_them(client: FlaskClient,
                                                              season: dict[str, str]) -> None:
    def put(name: str, handle: Any, status: int = 200) -> Any:
        response = client.put(f"/api/people/{name}", json={"pay_to": handle})
        assert response.status_code == status, response.get_json()
        return response.get_json()

    assert put("cy", "venmo @cy-g") == {"name": "cy", "pay_to": "venmo @cy-g",
                                        "pay_link": "https://venmo.com/u/cy-g"}
    assert put("Bobby", "$bobcash")["name"] == "Bob"  # kept for the person Bobby is
    assert put("Ann", "IBAN DE02 1203 0000 0000 2020 51")["pay_link"] is None
    assert put("Di", "x" * 101, 400) == {"error": "pay_to must be text of at most 100 "
                                                  "characters, such as \"venmo @ann\" or "
                                                  "\"paypal.me/ann\"."}
    ledger = get(client, f"/api/tables/{season['friday']}/ledger")
    assert [(t["words"], t.get("pay_to"), t.get("pay_link")) for t in ledger["transfers"]] == [
        ("Bob pays Cy 10", "venmo @cy-g", "https://venmo.com/u/cy-g"),
        ("Bob pays Ann 2", "IBAN DE02 1203 0000 0000 2020 51", None),
        ("Bob pays Di 1", None, None)]
    assert ledger["text"].splitlines() == [
        "Friday: settle-up after deal 4", "Bob pays Cy 10 (Cy: venmo @cy-g)",
        "Bob pays Ann 2 (Ann: IBAN DE02 1203 0000 0000 2020 51)", "Bob pays Di 1",
        "Ann holds 5 for the king's pot."]
    page = client.get(f"/t/{season['friday']}/history").get_data(as_text=True)
    assert ('<a href="https://venmo.com/u/cy-g" rel="noopener noreferrer nofollow" '
            'target="_blank">venmo @cy-g</a>') in page
    put("cy", "")  # removed
    assert "pay_to" not in get(client, f"/api/tables/{season['friday']}/ledger")["transfers"][0]
    assert get(client, "/api/people")["people"] == [
        {"name": "Ann", "pay_to": "IBAN DE02 1203 0000 0000 2020 51", "pay_link": None},
        {"name": "Bob", "pay_to": "$bobcash", "pay_link": "https://cash.app/$bobcash"}]


def test_pay_links_only_for_the_services_public_link_forms() -> None:
    link = people_service.pay_link
    assert link("paypal.me/Ann") == link("https://www.paypal.me/Ann") == "https://paypal.me/Ann"
    assert link("revolut.me/ann") == "https://revolut.me/ann"
    assert link("monzo.me/ann/5") == "https://monzo.me/ann/5"
    assert link("venmo:ann") == link("Venmo @ann") == "https://venmo.com/u/ann"
    assert link("https://example.org/pay?u=1") == "https://example.org/pay?u=1"
    for plain in ("javascript:alert(1)", "http://paypal.me.evil/x", "ann@example.com",
                  "$1bad", "paypal.me/<script>"):
        assert link(plain) is None, plain


# --------------------------------------------------------------------------- schema step 4
def test_rows_from_before_step_4_give_the_same_season(app: Flask, client: FlaskClient,
                                                      season: dict[str, str]) -> None:
    """A database stored before the deal rows kept what a season reads: step 4 fills them
    from the bases and results, and a table's last deal is replayed."""
    before = get(client, "/api/league")
    db = storage.connect(app.config["DATABASE"])
    try:
        with storage.write_transaction(db):
            db.execute("UPDATE deals SET after_json = NULL, people_json = NULL")
            storage.schema.fill_books(db)
        nulls = db.execute("SELECT COUNT(*) FROM deals WHERE after_json IS NULL").fetchone()[0]
        assert nulls == 2  # each table's last deal
    finally:
        db.close()
    after = get(client, "/api/league")
    # the one thing old rows cannot tell: Bob bought no card in deal 2 (King's Pot), so was
    # not dealt in; his seat at the table counts it
    bob = next(p for p in before["people"] if p["name"] == "Bob")
    bob["deals"] += 1
    assert after == before


# --------------------------------------------------------------------------- arithmetic
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_r78_random_nights_add_up(client: FlaskClient, seed: int) -> None:
    """Random deals with seats, rebuys, corrections and cash-outs between them: every night's
    nets and its banker's change sum to zero, the nights add up to the ledger, and the
    season's nets and bank sum to zero (chips conserved, R3)."""
    d = new_table(client, "texas_dozen", ["Ann", "Bob", "Cy"])
    try:  # the season is every table's: each example deletes its own
        random_night_adds_up(client, d, random.Random(seed))
    finally:
        client.delete(f"/api/tables/{d.id}")


def random_night_adds_up(client: FlaskClient, d: Dealer, rng: random.Random) -> None:
    for deal in range(rng.randint(2, 6)):
        seated = [p["name"] for p in d.state()["players"]]
        move = rng.random()
        if move < 0.25:
            d.run({"type": "rebuy", "player": rng.choice(seated), "amount": rng.randint(1, 50)})
        elif move < 0.4 and len(seated) > 2:
            d.run({"type": "leave", "player": rng.choice(seated)})
        elif move < 0.55:
            d.run({"type": "seat", "player": f"New{deal}", "stack": rng.randint(20, 90)})
        elif move < 0.7:
            giver, taker = rng.sample(seated, 2)
            d.run({"type": "adjust", "player": giver, "to": taker, "amount": 1})
        fold_to_the_blind(d)
    ledger = get(client, f"/api/tables/{d.id}/ledger")
    assert sum(p["net"] for p in ledger["players"]) + ledger["banker"]["net"] == 0
    history = get(client, f"/api/tables/{d.id}/history")
    whole: dict[str, int] = {}
    for night in history["nights"]:
        summary = get(client, f"/api/tables/{d.id}/nights/{night['number']}")
        assert sum(p["net"] for p in summary["people"]) + summary["banker"]["net"] == 0
        for p in summary["people"]:
            whole[p["name"]] = whole.get(p["name"], 0) + p["net"]
    assert {k: v for k, v in whole.items() if v} == {
        p["name"]: p["net"] for p in ledger["players"] if p["net"]}
    league = get(client, "/api/league")
    assert sum(p["net"] for p in league["people"]) + league["bank"] == 0
    assert {p["name"]: p["net"] for p in league["people"] if p["net"]} == {
        p["name"]: p["net"] for p in ledger["players"] if p["net"]}
    for name, line in history["lines"].items():  # each line ends at the ledger's figures
        player = next(p for p in ledger["players"] if p["name"] == name)
        assert line[-1]["net"] == player["net"]
        # a leaver's line ends at the cash-out, marked, with the chips they took
        assert (line[-1]["stack"], line[-1]["mark"] == "cash_out") == (
            (player["cashed_out"], True) if player["left"] else (player["stack"], False))


# --------------------------------------------------------------------------- schema step 5
def test_step_5_folds_the_per_pot_column_into_carried_after(
    database: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A database from before step 5 keeps the king's pot after each deal in a column of its
    own; step 5 moves it into the general ``carried_after`` by key, and the API's
    ``kings_pot_after`` reads the same as before (API.md: names never change)."""
    with monkeypatch.context() as before:
        before.setattr(storage.schema, "MIGRATIONS", storage.MIGRATIONS[:4])
        storage.init_db(database)
    db = storage.connect(database)
    try:
        with storage.write_transaction(db):
            # the column step 1 made before a deal's pots were data (issue 21)
            db.execute("ALTER TABLE deals ADD COLUMN kings_pot_after INTEGER")
            db.execute("INSERT INTO tables (id, name, variant, setup_json, token_hash, created)"
                       " VALUES ('t1', 'Old', 'kings_pot', '{}', 'x', '2026-11-20T12:00:00+00:00')")
            for number, pot in ((1, 4), (2, None)):
                db.execute("INSERT INTO deals (table_id, number, start_seq, base_json, started,"
                           " variant, kings_pot_after) VALUES ('t1', ?, ?, '{}', ?, ?, ?)",
                           [number, number, "2026-11-20T12:00:00+00:00",
                            "kings_pot" if pot is not None else "texas_dozen", pot])
    finally:
        db.close()
    storage.init_db(database)
    db = storage.connect(database)
    try:
        assert storage.schema_version(db) == len(storage.MIGRATIONS) >= 5
        assert [row[0] for row in db.execute(
            "SELECT carried_after FROM deals ORDER BY number")] == ['{"kings_pot": 4}', None]
        deals = storage.list_deals(db, "t1")
        assert deals[0]["kings_pot_after"] == 4 and "kings_pot_after" not in deals[1]
    finally:
        db.close()


def test_the_deals_list_keeps_each_pot_field(client: FlaskClient, season: dict[str, str]) -> None:
    """Every deal of ``GET .../deals`` has ``kings_pot_after`` as before (None where its game
    keeps no king's pot) and, added, the other games' pots' fields."""
    deals = get(client, f"/api/tables/{season['friday']}/deals")
    assert [(d["kings_pot_after"], d["bank_after"]) for d in deals] == [
        (0, None), (2, None), (5, None), (None, None)]
