"""What the home page's tournament editor reads from the server (issue 31): the presets, each
a structure the server takes as it is; R93's payouts previewed for a player count; the
tournaments on this server; the host's page of one. Refusals are sentences."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.core.errors import SetupError
from dealer_assist.core.tournament.money import PayoutTable
from dealer_assist.core.tournament.presets import PRESETS, preview


def names(count: int) -> list[str]:
    return [f"Player {i + 1}" for i in range(count)]


def make(client: FlaskClient, fields: dict[str, Any], players: int, tables: int) -> Any:
    return client.post("/api/tournaments", json={**fields, "name": "Friday",
                                                 "players": names(players), "tables": tables})


def test_r89_every_preset_makes_a_tournament_as_the_editor_sends_it(
        client: FlaskClient) -> None:
    answer = client.get("/api/tournaments/presets")
    assert answer.status_code == 200
    presets = answer.get_json()["presets"]
    assert [p["key"] for p in presets] == ["home", "turbo"]
    home = presets[0]["fields"]
    # two hours of play and a break, the add-on during it, rebuys and late entry before it
    levels = home["levels"]
    assert sum(s.get("minutes", 0) for s in levels[:7]) == 120
    assert levels[3] == {"break": 10, "color_up": 25}
    assert (home["rebuy_until_level"], home["late_until_level"]) == (2, 2)
    assert home["add_on"] == {"chips": 5000, "cost": 20}
    assert presets[1]["fields"]["add_on"] is None
    assert all(s["minutes"] == 10 for s in presets[1]["fields"]["levels"])
    for preset in presets:
        made = make(client, preset["fields"], 18, 3)
        assert made.status_code == 201, made.get_json()
        state = made.get_json()["state"]
        assert state["entries"] == 18
        assert state["clock"]["stage"] == preset["fields"]["levels"][0]
        assert sorted(len(t["players"]) for t in state["tables"]) == [6, 6, 6]


def test_r93_the_preview_pays_the_places_the_tournament_would_pay(
        client: FlaskClient) -> None:
    def shown(query: str) -> dict[str, Any]:
        answer = client.get(f"/api/tournaments/preview?{query}")
        assert answer.status_code == 200, answer.get_json()
        return dict(answer.get_json())

    # 7 entries: one place, the whole pool of 7 x (20 - 2)
    assert shown("entries=7&buy_in=20&fee=2&seats=8") == {
        "entries": 7, "pool": 126, "payouts": [126], "percents": [100], "tables": 1}
    # 8: 65/35 of 144 is 93.6 and 50.4, rounded down, the unit left over to first place
    assert shown("entries=8&buy_in=20&fee=2&seats=8")["payouts"] == [94, 50]
    # 18: 50/30/20 of 324; three tables of 8 seats
    eighteen = shown("entries=18&buy_in=20&fee=2&seats=8")
    assert eighteen["payouts"] == [163, 97, 64] and eighteen["tables"] == 3
    assert sum(eighteen["payouts"]) == eighteen["pool"] == 324
    # in fives: 360 at 50/30/20 is 180, 108 -> 105, 72 -> 70, the 5 left to first
    assert shown("entries=18&buy_in=20&seats=10&unit=5")["payouts"] == [185, 105, 70]
    assert shown("entries=0&buy_in=20") == {"entries": 0, "pool": 0, "payouts": [],
                                            "percents": [], "tables": 0}
    # the same as the tournament made with those players pays
    made = make(client, {"buy_in": 20, "fee": 2, "chips": 1000, "seats": 8,
                         "levels": [{"minutes": 10, "small_blind": 5, "big_blind": 10}]}, 18, 3)
    assert made.get_json()["state"]["payouts"] == eighteen["payouts"]


@pytest.mark.parametrize(("query", "sentence"), [
    ("buy_in=20", "entries must be a whole number, such as entries=20."),
    ("entries=ten&buy_in=20", "entries must be a whole number, such as entries=20."),
    ("entries=-3&buy_in=20", "entries must be a whole number, such as entries=20."),
    ("entries=5&buy_in=20&fee=25", "The fee comes out of each buy-in: it cannot be more "
                                   "than it."),
    ("entries=5000&buy_in=20", "entries must be a whole number from 0 to 1000."),
    ("entries=5&buy_in=20&seats=1", "A table seats at least 2 players, and prizes are "
                                    "rounded to a unit of at least 1."),
])
def test_r93_a_bad_preview_is_a_sentence(client: FlaskClient, query: str,
                                         sentence: str) -> None:
    answer = client.get(f"/api/tournaments/preview?{query}")
    assert answer.status_code == 400
    assert answer.get_json() == {"error": sentence}


@settings(max_examples=200, deadline=None)
@given(entries=st.integers(0, 1000), buy_in=st.integers(0, 500), fee_part=st.integers(0, 100),
       seats=st.integers(2, 12), unit=st.sampled_from([1, 2, 5, 10, 25]))
def test_r93_the_preview_pays_out_the_pool_exactly(entries: int, buy_in: int, fee_part: int,
                                                   seats: int, unit: int) -> None:
    fee = buy_in * fee_part // 100
    shown = preview(entries, buy_in, fee, seats, unit)
    assert shown.pool == entries * (buy_in - fee)
    assert sum(shown.payouts) == shown.pool  # nothing kept back, nothing made up
    assert all(a >= 0 and a % unit == 0 for a in shown.payouts[1:])
    assert list(shown.payouts) == sorted(shown.payouts, reverse=True)
    if entries == 0:
        assert (shown.payouts, shown.tables) == ((), 0)
        return
    assert 1 <= len(shown.payouts) <= entries
    # the fewest tables that seat everyone
    assert shown.tables * seats >= entries > (shown.tables - 1) * seats


def test_r93_a_fee_above_the_buy_in_is_refused() -> None:
    with pytest.raises(SetupError, match="cannot be more than it"):
        preview(3, 10, 11, 9)
    assert {p.key for p in PRESETS} == {"home", "turbo"}


def test_r89_the_tournaments_are_listed_and_each_has_the_hosts_page(
        client: FlaskClient) -> None:
    assert client.get("/api/tournaments").get_json() == {"tournaments": []}
    fields = {"buy_in": 10, "chips": 1000,
              "levels": [{"minutes": 10, "small_blind": 5, "big_blind": 10}]}
    first = make(client, fields, 4, 1).get_json()["id"]
    second = make(client, fields, 6, 2).get_json()["id"]
    listed = client.get("/api/tournaments").get_json()["tournaments"]
    assert [(t["id"], t["entries"], t["players_left"], t["finished"]) for t in listed] == [
        (second, 6, 6, False), (first, 4, 4, False)]
    page = client.get(f"/tournaments/{second}")
    assert page.status_code == 200
    assert f'data-tournament-id="{second}"' in page.get_data(as_text=True)
    assert client.get("/tournaments/nothing-here").status_code == 404


def test_r89_the_add_on_is_open_during_the_first_break_only(client: FlaskClient) -> None:
    home = client.get("/api/tournaments/presets").get_json()["presets"][0]["fields"]
    made = make(client, home, 8, 1).get_json()
    assert made["state"]["add_on_open"] is False
    url = f"/api/tournaments/{made['id']}/actions"
    assert client.post(url, json={"type": "level", "to": 3}).get_json()["state"][
        "add_on_open"] is True
    assert client.post(url, json={"type": "level", "to": 4}).get_json()["state"][
        "add_on_open"] is False


def test_r89_a_tournaments_table_is_not_deleted_from_under_it(client: FlaskClient) -> None:
    fields = {"buy_in": 10, "chips": 1000,
              "levels": [{"minutes": 10, "small_blind": 5, "big_blind": 10}]}
    made = make(client, fields, 6, 2).get_json()
    second = made["tables"][1]["id"]
    answer = client.delete(f"/api/tables/{second}")
    assert answer.status_code == 409
    assert answer.get_json() == {"error": "This table plays in Friday (its table 2): it is "
                                          "kept with the tournament, which the host deletes "
                                          "whole."}
    assert client.get(f"/api/tables/{second}").status_code == 200
    state = client.get(f"/api/tournaments/{made['id']}").get_json()
    assert [t["id"] for t in state["tables"]] == [t["id"] for t in made["tables"]]


LEVELS = [{"minutes": 10, "small_blind": 5, "big_blind": 10}]


def test_r93_the_presets_carry_the_default_payout_table(client: FlaskClient) -> None:
    table = client.get("/api/tournaments/presets").get_json()["payouts"]
    assert table == {
        "rows": [{"up_to": 7, "percents": [100]}, {"up_to": 15, "percents": [65, 35]},
                 {"up_to": 25, "percents": [50, 30, 20]},
                 {"up_to": 40, "percents": [40, 30, 20, 10]}],
        "beyond": "41 or more players: one place paid for every 10 players, each place's "
                  "share in proportion to 1/place."}


@pytest.mark.parametrize("payouts", ["50,30,20", "[50, 30, 20]",
                                     '[{"up_to": 10, "percents": [100]}, '
                                     '{"percents": [50, 30, 20]}]'])
def test_r93_the_preview_pays_the_hosts_own_payouts_as_the_tournament_does(
        client: FlaskClient, payouts: str) -> None:
    answer = client.get("/api/tournaments/preview", query_string={
        "entries": 18, "buy_in": 20, "fee": 2, "seats": 8, "unit": 1, "payouts": payouts})
    assert answer.status_code == 200, answer.get_json()
    shown = answer.get_json()
    # 18 x 18 = 324: 162, 97.2 -> 97, 64.8 -> 64, the 1 left to first place
    assert (shown["pool"], shown["payouts"], shown["percents"]) == (
        324, [163, 97, 64], [50, 30, 20])
    made = make(client, {"buy_in": 20, "fee": 2, "chips": 1000, "seats": 8, "unit": 1,
                         "levels": LEVELS, "payouts": [50, 30, 20]}, 18, 3)
    assert made.status_code == 201, made.get_json()
    assert made.get_json()["state"]["payouts"] == shown["payouts"]


def test_r93_the_hosts_payouts_and_unit_change_the_preview(client: FlaskClient) -> None:
    def shown(payouts: str, unit: int) -> list[int]:
        answer = client.get("/api/tournaments/preview", query_string={
            "entries": 12, "buy_in": 25, "payouts": payouts, "unit": unit})
        assert answer.status_code == 200, answer.get_json()
        return list(answer.get_json()["payouts"])

    # 300: 65/35 by default with 12 players; 60/25/15 the host's; in tens, 45 -> 40
    assert shown("default", 1) == [195, 105]
    assert shown("60,25,15", 1) == [180, 75, 45]
    assert shown("60,25,15", 10) == [190, 70, 40]
    assert shown("33.4,33.3,33.3", 1) == [102, 99, 99]  # 100.2, 99.9, 99.9
    # more places than players: those past the entries go to first place
    answer = client.get("/api/tournaments/preview?entries=2&buy_in=10&payouts=50,30,20")
    assert answer.get_json()["payouts"] == [14, 6]


NOT_A_PERCENTAGE = ("payouts: each place's percentage, a number above 0, first place first, "
                    "such as [65, 35].")


@pytest.mark.parametrize(("query", "body", "sentence"), [
    ("50,30", "[50, 30]", "payouts: the percentages add up to 80, not 100."),
    ("30,50,20", "[30, 50, 20]", "payouts: no place is paid more than the place above it."),
    ("50,,50", '[50, "", 50]', NOT_A_PERCENTAGE),
    ("fifty,50", '["fifty", 50]', NOT_A_PERCENTAGE),
    ("100,0", "[100, 0]", NOT_A_PERCENTAGE),
    ("[1e400]", "[1e400]", NOT_A_PERCENTAGE),  # infinity, once a 500
    ("[[[[", '"[[[["', NOT_A_PERCENTAGE),
    ('[{"percents": [100]}, {"percents": [100]}]', '[{"percents": [100]}, {"percents": [100]}]',
     "Only the last payout row may leave out up_to."),
])
def test_r93_bad_payouts_are_refused_in_the_cores_words_by_preview_and_creation(
        client: FlaskClient, query: str, body: str, sentence: str) -> None:
    answer = client.get("/api/tournaments/preview", query_string={
        "entries": 9, "buy_in": 20, "payouts": query})
    assert (answer.status_code, answer.get_json()) == (400, {"error": sentence})
    before = client.get("/api/tournaments").get_json()
    made = client.post("/api/tournaments", data=(
        '{"name": "F", "buy_in": 20, "chips": 1000, "players": ["A", "B", "C"], '
        '"levels": [{"minutes": 10, "small_blind": 5, "big_blind": 10}], '
        f'"payouts": {body}}}'), content_type="application/json")
    assert (made.status_code, made.get_json()) == (400, {"error": sentence})
    assert client.get("/api/tournaments").get_json() == before


def descending_percents() -> st.SearchStrategy[list[int | float]]:
    """Percentages adding up to exactly 100, in tenths, largest first."""
    def split(cuts: list[int]) -> list[int | float]:
        edges = [0, *sorted(cuts), 1000]
        parts = sorted((b - a for a, b in itertools.pairwise(edges)), reverse=True)
        return [p // 10 if p % 10 == 0 else p / 10 for p in parts]
    return st.lists(st.integers(1, 999), max_size=12, unique=True).map(split)


@settings(max_examples=200, deadline=None)
@given(percents=st.one_of(descending_percents(),
                          st.lists(st.integers(0, 100) | st.floats(0, 100), max_size=5)),
       entries=st.integers(1, 300), buy_in=st.integers(1, 500), fee=st.integers(0, 5),
       unit=st.sampled_from([1, 2, 5, 10, 25]))
def test_r93_any_accepted_payouts_pay_out_the_whole_pool_in_whole_units(
        percents: list[int | float], entries: int, buy_in: int, fee: int, unit: int) -> None:
    try:
        table = PayoutTable.from_json(percents)
    except SetupError:
        return  # refused: nothing to pay
    shown = preview(entries, buy_in, min(fee, buy_in), 9, unit, table)
    assert sum(shown.payouts) == shown.pool == entries * (buy_in - min(fee, buy_in))
    assert len(shown.payouts) == min(entries, len(percents))
    assert all(a >= 0 and a % unit == 0 for a in shown.payouts[1:])
    assert list(shown.payouts) == sorted(shown.payouts, reverse=True)
    # each place below first has its share of the pool, rounded down to the unit
    for share, amount in zip(shown.shares[1:], shown.payouts[1:], strict=True):
        assert amount <= shown.pool * share < amount + unit


def test_r93_a_hostile_payouts_argument_is_a_sentence(client: FlaskClient) -> None:
    for hostile in ("0.5," * 5000 + "1", "[" * 100000, "9" * 5000, "-50,150", "1e2,0"):
        answer = client.get("/api/tournaments/preview", query_string={
            "entries": 9, "buy_in": 20, "payouts": hostile})
        assert (answer.status_code, answer.get_json()) == (400, {"error": NOT_A_PERCENTAGE})
