"""The JSON API (docs/api.md) driven with Flask's test client: every game's actions with exact
chips and winners, every kind of refusal (and that it changes nothing), 401, 404, 409, 413,
the history routes, the pages and their headers."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import Dealer, host_headers, new_table
from flask import Flask
from flask.testing import FlaskClient

from dealer_assist.core.layouts import CELLS_4, CELLS_5, REVEAL_SETS_5
from dealer_assist.web.app import CONTENT_SECURITY_POLICY, create_app
from dealer_assist.web.qr import qr_svg

pytestmark = [pytest.mark.timeout(120), pytest.mark.both_engines]

def cards(text: str) -> list[str]:
    return text.split()


# A 5x5 grid of 25 different cards with no ace, king, queen of spades, jack or ten of spades,
# in reading order (r1c1, r1c2, ... r5c5).
GRID_5 = cards("2c 5d 9h Jc 3d 4c 8d Th Qc 6d 6c 9d 2h 3h 8c Tc Jd 4h 5h 9c Qd 6h 8h 3c 5c")
ROYAL_SPADES = ["As", "Ks", "Qs", "Js", "Ts"]


def payouts(state: dict[str, Any]) -> dict[str, int]:
    return {k: v for k, v in state["result"]["payouts"].items() if v}


def stacks(state: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["stack"] for p in state["players"]}


def chips(state: dict[str, Any]) -> int:
    """R3: every chip at the table, as the state shows it."""
    return (sum(p["stack"] for p in state["players"]) + state["pot_total"]
            + state.get("kings_pot", 0) + state.get("bank", 0)
            + (state["carried"] if state["result"] is not None else 0))


# --------------------------------------------------------------------------- tables
def test_create_table_answers_id_token_and_urls(client: FlaskClient) -> None:
    response = client.post("/api/tables", json={
        "name": "Friday", "variant": "texas_dozen", "players": ["Ann", "Bob", {"name": "Cy",
                                                                                "stack": 50}],
        "rules": {"big_blind": 4}})
    assert response.status_code == 201
    body = response.get_json()
    table_id, token = body["id"], body["dealer_token"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{8}", table_id)
    assert re.fullmatch(r"[A-Za-z0-9_-]{32}", token)  # 24 random bytes: 192 bits
    assert body["join_url"] == f"http://localhost/t/{table_id}"
    assert body["dealer_url"] == f"http://localhost/t/{table_id}/dealer#token={token}"
    assert body["qr_url"] == f"http://localhost/t/{table_id}/qr.svg"
    assert response.headers["Location"] == f"/api/tables/{table_id}"
    state = client.get(f"/api/tables/{table_id}").get_json()
    assert state["id"] == table_id
    assert (state["name"], state["variant"], state["seq"], state["deal_number"]) == (
        "Friday", "texas_dozen", 0, 0)
    assert [(p["name"], p["stack"], p["status"]) for p in state["players"]] == [
        ("Ann", 100, "out"), ("Bob", 100, "out"), ("Cy", 50, "out")]
    assert state["rules"]["big_blind"] == 4
    assert state["step"]["kind"] == "start_deal"
    assert body["state"] == client.get(
        f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}).get_json()


def test_two_tables_get_different_ids_and_tokens(make_table: Any) -> None:
    a = make_table("texas_dozen", ["Ann", "Bob"])
    b = make_table("texas_dozen", ["Ann", "Bob"])
    assert a.id != b.id and a.token != b.token


@pytest.mark.sqlite_only  # reads the file's bytes
def test_token_is_never_in_a_state_and_only_its_hash_is_stored(
    make_table: Any, db_path: Path
) -> None:
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"})
    for state in (d.state(), d.state(dealer=True)):
        assert d.token not in json.dumps(state)
    with sqlite3.connect(db_path) as conn:
        (stored,) = conn.execute("SELECT token_hash FROM tables WHERE id = ?", [d.id]).fetchone()
    assert stored == hashlib.sha256(d.token.encode()).hexdigest()
    for path in db_path.parent.glob(db_path.name + "*"):  # the file and its WAL
        assert d.token.encode() not in path.read_bytes()


def test_list_tables(client: FlaskClient, make_table: Any) -> None:
    assert client.get("/api/tables").get_json() == []
    a = make_table("kings_pot", ["Ann", "Bob", "Cy"], name="Kings")
    b = make_table("off_road_stud", ["Ann", "Bob"], name="Stud")
    b.run({"type": "start_deal"})
    listed = client.get("/api/tables").get_json()
    assert {t["id"]: (t["name"], t["variant"], t["deals"]) for t in listed} == {
        a.id: ("Kings", "kings_pot", 0), b.id: ("Stud", "off_road_stud", 1)}
    assert all(set(t) == {"id", "name", "variant", "created", "deals", "imported",
                          "original_created"} for t in listed)
    assert not any(t["imported"] for t in listed)
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", t["created"])
               for t in listed)


@pytest.mark.parametrize(("body", "sentence"), [
    ({"variant": "poker", "players": ["Ann", "Bob"]}, "Unknown game 'poker'"),
    ({"variant": "kings_pot", "players": ["Ann", "Bob"]},
     "King's Pot is for 3 to 22 players, not 2"),
    ({"variant": "texas_dozen", "players": ["Ann", "ann"]}, "Two players are called ann"),
    ({"variant": "texas_dozen", "players": ["Ann", ""]}, "Every player needs a name"),
    ({"variant": "texas_dozen", "players": "Ann, Bob"}, "players must be a list"),
    ({"variant": "texas_dozen", "players": ["Ann", "Bob"], "rules": {"blinds": 2}},
     "Unknown house rule 'blinds'"),
    ({"variant": "kings_pot", "players": ["A", "B", "C"], "rules": {"betting": "pot_limit"}},
     "King's Pot is played no_limit or fixed_limit, not pot_limit"),
    ({"variant": "texas_dozen", "players": ["Ann", "Bob"], "seats": 2},
     "A new table has no field 'seats'"),
    ([1, 2], "The body must be a JSON object"),
])
def test_create_table_refusals(client: FlaskClient, body: Any, sentence: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert sentence in response.get_json()["error"]
    assert client.get("/api/tables").get_json() == []  # nothing made


def test_create_table_refuses_bad_json(client: FlaskClient) -> None:
    response = client.post("/api/tables", data="{name: Friday",
                           content_type="application/json")
    assert response.status_code == 400
    assert response.get_json() == {"error": "The body is not valid JSON."}


# --------------------------------------------------------------------------- King's Pot
def play_kings_pot_deal_1(d: Dealer) -> dict[str, Any]:
    """Bob buys 2, Cy 1, Ann 1; Bob bets, Cy raises, Ann folds, Bob folds one card and calls;
    checks to the showdown, where the king's hand (a royal flush) wins."""
    state = d.run({"type": "start_deal"})
    assert (state["deal_number"], state["dealer"]) == (1, "Ann")
    # R22: buying goes from the dealer's left; with 3 players the most is 7 cards
    assert state["step"] | {"instruction": ""} == {
        "kind": "buy", "player": "Bob", "max": 7, "ante": 1, "instruction": ""}
    state = d.run({"type": "buy", "player": "Bob", "count": 2},
                  {"type": "buy", "player": "Cy", "count": 1},
                  {"type": "buy", "player": "Ann", "count": 1})
    assert state["kings_pot"] == 4 and stacks(state) == {"Ann": 99, "Bob": 98, "Cy": 99}
    assert {p["name"]: p["cards"] for p in state["players"]} == {"Ann": 1, "Bob": 2, "Cy": 1}
    assert state["step"]["kind"] == "deal_cards"
    state = d.run({"type": "deal_cards", "player": "Bob", "cards": ["Ah", "7c"]},
                  {"type": "deal_cards", "player": "Cy", "cards": ["Kd"]},
                  {"type": "deal_cards", "player": "Ann", "cards": ["2s"]})
    # R25: the cards marked 1 are turned first
    assert state["step"]["kind"] == "reveal"
    assert state["step"]["cells"] == list(REVEAL_SETS_5[1])
    state = d.run({"type": "reveal"})
    assert state["step"]["player"] == "Bob"
    # R24: amounts are per card; Bob's 2 per card on 2 cards is 4
    state = d.run({"type": "bet", "player": "Bob", "amount": 2},
                  {"type": "raise", "player": "Cy", "amount": 4},
                  {"type": "fold", "player": "Ann"})
    assert stacks(state) == {"Ann": 99, "Bob": 94, "Cy": 95}
    assert (state["step"]["player"], state["step"]["to_call"], state["step"]["to_call_total"]) == (
        "Bob", 2, 4)
    # R24: Bob folds his 7 (it backs col2) and goes on acting with the ace
    state = d.run({"type": "fold", "player": "Bob", "card": "7"})
    assert (state["step"]["player"], state["step"]["to_call_total"]) == ("Bob", 2)
    assert d.player("Bob")["cards"] == 1
    state = d.run({"type": "call", "player": "Bob"})
    assert stacks(state) == {"Ann": 99, "Bob": 92, "Cy": 95}
    assert state["pots"] == [{"amount": 10, "eligible": ["Bob", "Cy"]}]
    assert state["step"]["cells"] == list(REVEAL_SETS_5[2])
    state = d.run({"type": "reveal"}, {"type": "check", "player": "Bob"},
                  {"type": "check", "player": "Cy"}, {"type": "reveal"},
                  {"type": "check", "player": "Bob"}, {"type": "check", "player": "Cy"})
    assert state["step"]["kind"] == "showdown" and len(state["step"]["cells"]) == 25
    return d.run({"type": "showdown", "cells": dict(zip(CELLS_5, GRID_5, strict=True)),
                  "kings_hand": ROYAL_SPADES})


def test_kings_pot_deal_buy_deal_cards_bet_fold_a_card_showdown_r22_r24_r26_r28(
    make_table: Any,
) -> None:
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    state = play_kings_pot_deal_1(d)
    # R26/R28: the king's hand (royal flush) beats row1 (Bob's ace): Cy's king takes the
    # betting pot of 10 and the king's pot of 4
    assert state["result"]["winning_lines"] == ["king"]
    assert payouts(state) == {"Cy": 14}
    assert state["result"]["kings_pot_won"] == 4
    assert state["kings_pot"] == 0
    assert stacks(state) == {"Ann": 99, "Bob": 92, "Cy": 109}
    assert state["kings_hand"] == ROYAL_SPADES
    assert chips(state) == 300  # R3
    assert state["step"]["kind"] == "start_deal"
    assert state["seq"] == 20  # 20 records: 1 start, 3 buys, 3 deals, 3 reveals, 9 bets, 1 showdown


def test_kings_pot_carries_when_everyone_else_folds_r29(make_table: Any) -> None:
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    play_kings_pot_deal_1(d)
    state = d.run({"type": "start_deal"})
    assert (state["deal_number"], state["dealer"], state["step"]["player"]) == (2, "Bob", "Cy")
    state = d.run({"type": "buy", "player": "Cy", "count": 1},
                  {"type": "buy", "player": "Ann", "count": 1},
                  {"type": "buy", "player": "Bob", "count": 0})
    assert d.player("Bob")["status"] == "out"
    state = d.run({"type": "deal_cards", "player": "Cy", "cards": ["3h"]},
                  {"type": "deal_cards", "player": "Ann", "cards": ["4d"]},
                  {"type": "reveal", "cards": {"r1c1": "Ah", "r2c4": "Kc"}})
    assert state["grid"]["cells"]["r1c1"] == "Ah" and state["grid"]["cells"]["r3c2"] == "up"
    state = d.run({"type": "bet", "player": "Cy", "amount": 5}, {"type": "fold", "player": "Ann"})
    # the uncalled 5 goes back; the antes (2) stay in the king's pot
    assert state["result"]["uncontested"] is True and state["result"]["winners"] == ["Cy"]
    assert state["kings_pot"] == 2
    assert stacks(state) == {"Ann": 98, "Bob": 92, "Cy": 108}
    assert chips(state) == 300


def test_kings_pot_deal_with_fewer_than_two_buyers_ends_at_once_r29(make_table: Any) -> None:
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"], {"ante": 3})
    state = d.run({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 2},
                  {"type": "buy", "player": "Cy", "count": 0},
                  {"type": "buy", "player": "Ann", "count": 0})
    assert state["result"]["no_play"] is True
    assert state["kings_pot"] == 6 and stacks(state) == {"Ann": 100, "Bob": 94, "Cy": 100}
    assert state["step"]["kind"] == "start_deal"


def test_kings_pot_optional_turns_sets_1_and_2_together_r25(make_table: Any) -> None:
    d: Dealer = make_table("kings_pot_optional", ["Ann", "Bob", "Cy"])
    state = d.run({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 1},
                  {"type": "buy", "player": "Cy", "count": 1},
                  {"type": "buy", "player": "Ann", "count": 1},
                  {"type": "deal_cards", "player": "Bob", "cards": ["A"]},
                  {"type": "deal_cards", "player": "Cy", "cards": ["K"]},
                  {"type": "deal_cards", "player": "Ann", "cards": ["Q"]})
    assert state["step"]["cells"] == list(REVEAL_SETS_5[1] + REVEAL_SETS_5[2])
    state = d.run({"type": "reveal"}, {"type": "check", "player": "Bob"},
                  {"type": "check", "player": "Cy"}, {"type": "check", "player": "Ann"})
    assert state["step"]["cells"] == list(REVEAL_SETS_5[3])
    state = d.run({"type": "reveal"}, {"type": "check", "player": "Bob"},
                  {"type": "check", "player": "Cy"}, {"type": "check", "player": "Ann"})
    assert state["step"]["cells"] == list(REVEAL_SETS_5[4])


def test_public_state_never_shows_face_down_cards(make_table: Any) -> None:
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 2},
          {"type": "buy", "player": "Cy", "count": 1}, {"type": "buy", "player": "Ann", "count": 1},
          {"type": "deal_cards", "player": "Bob", "cards": ["Ah", "7c"]},
          {"type": "deal_cards", "player": "Cy", "cards": ["Kd"]},
          {"type": "deal_cards", "player": "Ann", "cards": ["2s"]})
    public = json.dumps(d.state())
    for card in ("Ah", "7c", "Kd", "2s"):
        assert f'"{card}"' not in public
    assert d.player("Bob", dealer=True)["hand"] == ["Ah", "7c"]  # R23: the dealer sees them
    assert "hand" not in d.player("Bob")
    # Bob folds his 7; Cy's bet takes the pot uncontested: nobody shows a card
    d.run({"type": "reveal"}, {"type": "fold", "player": "Bob", "card": "7"},
          {"type": "bet", "player": "Bob", "amount": 1}, {"type": "raise", "player": "Cy",
                                                          "amount": 5},
          {"type": "fold", "player": "Ann"}, {"type": "fold", "player": "Bob"})
    assert d.state()["result"]["winners"] == ["Cy"]
    # the public history shows how many cards, not which, even after the deal
    public = d.client.get(f"/api/tables/{d.id}/deals/1").get_json()["actions"]
    private = d.client.get(f"/api/tables/{d.id}/deals/1", headers=d.headers).get_json()[
        "actions"]
    hidden = [(a["action"], b["action"]) for a, b in zip(public, private, strict=True)
              if a != b]
    assert hidden == [
        ({"type": "deal_cards", "player": "Bob", "cards": ["?", "?"]},
         {"type": "deal_cards", "player": "Bob", "cards": ["Ah", "7c"]}),
        ({"type": "deal_cards", "player": "Cy", "cards": ["?"]},
         {"type": "deal_cards", "player": "Cy", "cards": ["Kd"]}),
        ({"type": "deal_cards", "player": "Ann", "cards": ["?"]},
         {"type": "deal_cards", "player": "Ann", "cards": ["2s"]}),
        ({"type": "fold", "player": "Bob", "card": "?"},
         {"type": "fold", "player": "Bob", "card": "7"}),
    ]
    for card in ("Ah", "7c", "Kd", "2s"):
        assert f'"{card}"' not in json.dumps(public)


# --------------------------------------------------------------------------- Texas Dozen
TEXAS_GRID = cards("Ah 2d 9h Jc 3d 4c 8d Th Qc 6d 6c 9d 2h 3h 8c Tc Jd 4h 5h 9c Qd 6h 8h 3c 5c")


def test_texas_dozen_blinds_to_showdown_r30_r31_r32(make_table: Any) -> None:
    d: Dealer = make_table("texas_dozen", ["Ann", "Bob", "Cy"])
    state = d.run({"type": "start_deal"})
    # R30: Ann deals, Bob posts the small blind (1), Cy the big blind (2)
    assert stacks(state) == {"Ann": 100, "Bob": 99, "Cy": 98}
    assert state["step"]["kind"] == "next"
    state = d.run({"type": "next"})
    assert (state["step"]["player"], state["step"]["to_call"]) == ("Ann", 2)  # left of the BB
    state = d.run({"type": "call", "player": "Ann"}, {"type": "call", "player": "Bob"},
                  {"type": "check", "player": "Cy"})
    assert state["pots"] == [{"amount": 6, "eligible": ["Ann", "Bob", "Cy"]}]
    # R31: the flop is the 15 cards marked 1, 2 and 3
    assert state["step"]["cells"] == list(REVEAL_SETS_5[1] + REVEAL_SETS_5[2] + REVEAL_SETS_5[3])
    state = d.run({"type": "reveal"})
    assert state["step"]["player"] == "Bob"  # after the flop: left of the dealer
    state = d.run({"type": "check", "player": "Bob"}, {"type": "bet", "player": "Cy", "amount": 4},
                  {"type": "fold", "player": "Ann"}, {"type": "call", "player": "Bob"})
    assert state["step"]["cells"] == list(REVEAL_SETS_5[4])
    state = d.run({"type": "reveal"}, {"type": "check", "player": "Bob"},
                  {"type": "check", "player": "Cy"})
    assert state["step"]["cells"] == list(REVEAL_SETS_5[5])
    state = d.run({"type": "reveal"}, {"type": "check", "player": "Bob"},
                  {"type": "check", "player": "Cy"})
    assert state["step"]["kind"] == "showdown" and state["step"]["players"] == ["Bob", "Cy"]
    state = d.run({"type": "showdown", "cells": dict(zip(CELLS_5, TEXAS_GRID, strict=True)),
                   "hands": {"Bob": ["As", "Ad"], "Cy": ["Kh", "Kd"]}})
    # R32: Bob's aces with the diagonal (Ah 8d 2h 5h 5c) make aces full of fives; Cy's best is
    # a king-high flush with col2 (2d 8d 9d Jd and Kd); Bob takes the pot of 14
    assert state["result"]["winners"] == ["Bob"]
    assert state["result"]["hands"]["Bob"]["hand"] == "Full house, aces full of fives"
    assert state["result"]["hands"]["Bob"]["lines"] == ["diag"]
    assert state["result"]["winning_lines"] == ["diag"]
    assert payouts(state) == {"Bob": 14}
    assert stacks(state) == {"Ann": 98, "Bob": 108, "Cy": 94}
    # the hole cards are public once shown
    assert {p["name"]: p.get("hand") for p in d.state()["players"]} == {
        "Ann": None, "Bob": ["As", "Ad"], "Cy": ["Kh", "Kd"]}


def test_texas_dozen_uncontested_pot_and_button_moves_r4(make_table: Any) -> None:
    d: Dealer = make_table("texas_dozen", ["Ann", "Bob", "Cy"])
    state = d.run({"type": "start_deal"}, {"type": "next"},
                  {"type": "raise", "player": "Ann", "amount": 6},
                  {"type": "fold", "player": "Bob"}, {"type": "fold", "player": "Cy"})
    # 4 of Ann's 6 come back uncalled; she takes the pot of 5 (her 2, the blinds 1 and 2)
    assert payouts(state) == {"Ann": 5}
    assert stacks(state) == {"Ann": 103, "Bob": 99, "Cy": 98}
    state = d.run({"type": "start_deal"})
    assert state["dealer"] == "Bob"  # R4: the button moves one seat clockwise
    assert stacks(state) == {"Ann": 101, "Bob": 99, "Cy": 97}  # Cy small, Ann big blind


# --------------------------------------------------------------------------- Off-Road Stud
OFF_ROAD_GRID = cards("2c 7d 9h Jc 3d 4c 8d Th Qc 6d 6c 9d 2h 3h 8c Tc")


def test_off_road_stud_deal_to_showdown_r40_r41_r42(make_table: Any) -> None:
    d: Dealer = make_table("off_road_stud", ["Ann", "Bob"])
    state = d.run({"type": "start_deal"})
    assert stacks(state) == {"Ann": 99, "Bob": 99}  # R40: an ante of 1 each
    assert state["step"]["kind"] == "reveal" and len(state["step"]["cells"]) == 12
    up = {c: OFF_ROAD_GRID[CELLS_4.index(c)] for c in state["step"]["cells"]}
    state = d.run({"type": "reveal", "cards": up})
    assert state["grid"]["cells"]["r1c1"] is None  # a D card stays down
    assert state["grid"]["cells"]["r1c2"] == "7d"
    state = d.run({"type": "next"})  # two hole cards each
    assert state["step"]["player"] == "Bob"
    state = d.run({"type": "bet", "player": "Bob", "amount": 5},
                  {"type": "raise", "player": "Ann", "amount": 10},
                  {"type": "call", "player": "Bob"})
    assert state["pots"] == [{"amount": 22, "eligible": ["Ann", "Bob"]}]
    state = d.run({"type": "next"}, {"type": "check", "player": "Bob"},
                  {"type": "check", "player": "Ann"})
    assert state["step"]["cells"] == ["r1c1", "r2c3", "r3c4", "r4c2"]  # R11's D cards
    state = d.run({"type": "reveal"}, {"type": "check", "player": "Bob"},
                  {"type": "check", "player": "Ann"})
    assert state["step"]["cells"] == ["r1c1", "r2c3", "r3c4", "r4c2"]  # still to be entered
    down = {c: OFF_ROAD_GRID[CELLS_4.index(c)] for c in state["step"]["cells"]}
    state = d.run({"type": "showdown", "cells": down,
                   "hands": {"Ann": ["Ks", "Kd", "Kh"], "Bob": ["As", "Ad", "5s"]}})
    # R42: Ann's kings with col4 (Jc Th 9d Tc) are kings full of tens; Bob's best is a
    # seven-high straight with col2 (7d 4c 6d 3h)
    assert state["result"]["hands"]["Ann"]["hand"] == "Full house, kings full of tens"
    assert state["result"]["hands"]["Bob"]["hand"] == "Straight, seven high"
    assert state["result"]["winners"] == ["Ann"] and state["result"]["winning_lines"] == ["col4"]
    assert payouts(state) == {"Ann": 22}
    assert stacks(state) == {"Ann": 111, "Bob": 89}


# --------------------------------------------------------------------------- 21 Hand Hold'em
def test_twenty_one_hand_holdem_pay_fold_river_raise_showdown_r52_r53_r55(
    make_table: Any,
) -> None:
    d: Dealer = make_table("twenty_one_hand_holdem", ["Ann", "Bob", "Cy"], {"river_raise": True})
    state = d.run({"type": "start_deal"})
    # R50/R51: 4 chips each, a bank of 21; the first player listed holds the first blind
    assert (stacks(state), state["bank"], state["blind"], state["dealer"]) == (
        {"Ann": 4, "Bob": 4, "Cy": 4}, 21, "Ann", "Cy")
    assert (state["step"]["kind"], state["step"]["player"]) == ("pay", "Ann")
    state = d.run({"type": "pay", "player": "Ann"}, {"type": "next"}, {"type": "next"},
                  {"type": "pay", "player": "Ann"}, {"type": "reveal"}, {"type": "next"},
                  {"type": "pay", "player": "Ann"}, {"type": "reveal"}, {"type": "next"})
    # R52: the others pay from the blind holder's left, then the blind holder
    assert (state["step"]["kind"], state["step"]["player"]) == ("pay", "Bob")
    state = d.run({"type": "pay", "player": "Bob"}, {"type": "fold", "player": "Cy"})
    assert (state["step"]["kind"], state["step"]["player"]) == ("pay", "Ann")
    state = d.run({"type": "pay", "player": "Ann"})
    assert stacks(state) == {"Ann": 0, "Bob": 3, "Cy": 4}
    assert state["step"]["options"] == ["raise", "next"]
    # R52 river_raise: Bob raises by 1; R53: Ann has no chips and plays on for free
    state = d.run({"type": "raise", "player": "Bob"})
    assert state["step"]["kind"] == "reveal" and state["step"]["cells"] == ["b5"]
    assert stacks(state) == {"Ann": 0, "Bob": 2, "Cy": 4} and state["pot_total"] == 6
    state = d.run({"type": "reveal"}, {
        "type": "showdown", "board": ["Ah", "Kh", "Qh", "2c", "7d"],
        "hands": {"Ann": ["3s", "4d"], "Bob": ["Jh", "Th"]}})
    # R55: Bob's royal flush takes the 6 bet and 1 chip from the bank
    assert state["result"]["winners"] == ["Bob"] and state["result"]["bank_chip"] == 1
    assert payouts(state) == {"Bob": 7}
    assert stacks(state) == {"Ann": 0, "Bob": 9, "Cy": 4} and state["bank"] == 20
    assert chips(state) == 33
    state = d.run({"type": "start_deal"})
    assert (state["hand_number"], state["blind"], state["dealer"]) == (2, "Bob", "Ann")


def test_twenty_one_hand_holdem_blind_sits_out_and_last_player_wins(make_table: Any) -> None:
    d: Dealer = make_table("twenty_one_hand_holdem", ["Ann", "Bob"])
    state = d.run({"type": "start_deal"}, {"type": "fold", "player": "Ann"})
    assert d.player("Ann")["status"] == "folded"
    # R55: Bob is the last player left: he takes the (empty) pot and the bank's chip
    assert state["result"]["winners"] == ["Bob"]
    assert stacks(state) == {"Ann": 4, "Bob": 5} and state["bank"] == 20


RANKS = "23456789TJQKA"


def test_twenty_one_hand_holdem_draw_for_the_first_blind_r51(make_table: Any) -> None:
    d: Dealer = make_table("twenty_one_hand_holdem", ["Ann", "Bob", "Cy"],
                           {"draw_for_blind": True})
    state = d.run({"type": "start_deal"})
    assert (state["step"]["kind"], state["step"]["player"]) == ("draw", "Ann")
    d.refuse({"type": "draw", "player": "Ann", "card": "X1"}, "is a joker")
    d.run({"type": "draw", "player": "Ann", "card": "9c"},
          {"type": "draw", "player": "Bob", "card": "3c"})
    d.refuse({"type": "draw", "player": "Cy", "card": "3c"}, "3c is drawn already")
    answer = d.act({"type": "draw", "player": "Cy"})  # the app draws for Cy
    record = d.client.get(f"/api/tables/{d.id}/deals/1").get_json()["actions"][-1]
    assert record["seq"] == answer["seq"] == 4
    drawn = record["action"]["card"]
    assert re.fullmatch(r"[2-9TJQKA][cdhs]", drawn) and drawn not in ("9c", "3c")
    state = answer["state"]
    if RANKS.index(drawn[0]) < RANKS.index("3"):
        assert state["blind"] == "Cy"
    elif drawn[0] == "3":  # Bob and Cy tie on the lowest card and draw again
        assert (state["step"]["kind"], state["step"]["player"]) == ("draw", "Bob")
        state = d.run({"type": "draw", "player": "Bob", "card": "2d"},
                      {"type": "draw", "player": "Cy", "card": "Ad"})
        assert state["blind"] == "Bob"
    else:
        assert state["blind"] == "Bob"
    assert state["step"]["kind"] == "pay" and state["step"]["player"] == state["blind"]


# --------------------------------------------------------------------------- undo (R8)
def without_undo_marks(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("seq", "undone")}


def test_undo_takes_back_a_bet_and_a_showdown_r8(make_table: Any) -> None:
    d: Dealer = make_table("texas_dozen", ["Ann", "Bob"])
    d.run({"type": "start_deal"}, {"type": "next"})
    before = d.state(dealer=True)
    d.run({"type": "raise", "player": "Ann", "amount": 10})
    answer = d.act({"type": "undo"})
    assert answer["seq"] == before["seq"] + 2  # the undo is a record of its own
    assert answer["state"]["undone"] == "Ann: raise 10"
    assert without_undo_marks(answer["state"]) == without_undo_marks(before)
    # play to the showdown, then take the showdown back
    checks = ({"type": "check", "player": "Bob"}, {"type": "check", "player": "Ann"})
    d.run({"type": "call", "player": "Ann"}, {"type": "check", "player": "Bob"},
          {"type": "reveal"}, *checks, {"type": "reveal"}, *checks, {"type": "reveal"}, *checks)
    before = d.state(dealer=True)
    state = d.run({"type": "showdown", "cells": dict(zip(CELLS_5, TEXAS_GRID, strict=True)),
                   "hands": {"Ann": ["As", "Ad"], "Bob": ["Kh", "Kd"]}})
    # heads up Ann (the dealer) posted the small blind and called: a pot of 4, Ann's aces win
    assert stacks(state) == {"Ann": 102, "Bob": 98}
    deals = d.client.get(f"/api/tables/{d.id}/deals").get_json()
    assert deals[0]["finished"] is not None and deals[0]["result"]["winners"] == ["Ann"]
    state = d.run({"type": "undo"})
    assert without_undo_marks(state) == without_undo_marks(before)
    assert stacks(state) == {"Ann": 98, "Bob": 98} and state["result"] is None
    deals = d.client.get(f"/api/tables/{d.id}/deals").get_json()
    assert deals[0]["finished"] is None and deals[0]["result"] is None


def test_undo_refused_with_nothing_to_undo(make_table: Any) -> None:
    d: Dealer = make_table("texas_dozen", ["Ann", "Bob"])
    d.refuse({"type": "undo"}, "Nothing to undo: no deal has started.")
    d.run({"type": "start_deal"}, {"type": "undo"})  # R74: a lone start goes back
    d.refuse({"type": "undo"}, "Nothing to undo: no deal has started.")


# --------------------------------------------------------------------------- refusals (R9)
@pytest.fixture
def texas_in_betting(make_table: Any) -> Dealer:
    d: Dealer = make_table("texas_dozen", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"}, {"type": "next"})
    return d


@pytest.mark.parametrize(("body", "sentence"), [
    ({"type": "check", "player": "Bob"}, "It is not Bob's turn to check: it is Ann's."),
    ({"type": "check", "player": "Ann"}, "Ann cannot check: 2 to call."),
    ({"type": "raise", "player": "Ann", "amount": 3}, "the smallest raise is to 4"),
    ({"type": "raise", "player": "Ann", "amount": 500}, "that needs 500 and Ann has 100"),
    ({"type": "bet", "player": "Ann", "amount": 10}, "raise instead"),
    ({"type": "raise", "player": "Ann"}, "Say how much Ann raises to (amount)."),
    ({"type": "call", "player": "Zed"}, "There is no player called Zed at this table."),
    ({"type": "call"}, "Say which player acts."),
    ({"type": "start_deal"}, "A deal is in play: finish it, or undo, first."),
    ({"type": "reveal"}, "Cannot reveal now"),
    ({"type": "fold", "player": "Ann", "card": "7"},
     "Only a game of bought cards folds a single card (R24)."),
    ({"type": "shuffle"}, "Unknown action type 'shuffle'"),
    ({"type": "call", "player": "Ann", "colour": "red"}, "An action has no field 'colour'."),
    ({"type": "raise", "player": "Ann", "amount": "lots"},
     "amount must be a whole number of chips, not 'lots'."),
    ({"type": "raise", "player": "Ann", "amount": -4}, "amount must be from 0"),
    ({"player": "Ann"}, "Unknown action type None"),
    ({"type": "call", "player": "Ann", "expect_seq": "three"}, "expect_seq must be"),
])
def test_refusals_say_why_and_change_nothing(
    texas_in_betting: Dealer, body: dict[str, Any], sentence: str
) -> None:
    texas_in_betting.refuse(body, sentence)


def test_kings_pot_refusals(make_table: Any) -> None:
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"})
    d.refuse({"type": "buy", "player": "Bob", "count": 8},
             "Bob cannot buy 8 cards: with 3 players the most is 7.")
    d.refuse({"type": "buy", "player": "Cy", "count": 1}, "It is not Cy's turn")
    d.refuse({"type": "buy", "player": "Bob"}, "Say how many cards Bob buys (count).")
    d.run({"type": "buy", "player": "Bob", "count": 2}, {"type": "buy", "player": "Cy", "count": 1},
          {"type": "buy", "player": "Ann", "count": 1})
    d.refuse({"type": "deal_cards", "player": "Bob", "cards": ["Ah"]},
             "Bob bought 2 cards: enter 2, not 1.")
    d.refuse({"type": "deal_cards", "player": "Bob", "cards": ["Ah", "Zz"]}, "Zz")
    d.run({"type": "deal_cards", "player": "Bob", "cards": ["Ah", "7c"]})
    d.refuse({"type": "deal_cards", "player": "Cy", "cards": ["Ah"]},
             "A♥ is entered twice: Bob's hand and Cy's hand.")
    d.run({"type": "deal_cards", "player": "Cy", "cards": ["Kd"]},
          {"type": "deal_cards", "player": "Ann", "cards": ["2s"]})
    d.refuse({"type": "reveal", "cards": {"r5c5": "9d"}}, "r5c5 is not turned now")
    d.refuse({"type": "reveal", "cards": {"r1c1": "Kd"}},
             "K♦ is entered twice: Cy's hand and r1c1.")
    d.run({"type": "reveal"})
    d.refuse({"type": "fold", "player": "Bob", "card": "9"}, "Bob holds no live 9")
    d.refuse({"type": "bet", "player": "Bob", "amount": 50},
             "Bob cannot bet to 50 per card: that needs 100 and Bob has 98 "
             "(all in is 49 per card).")


@pytest.mark.parametrize(("data", "sentence"), [
    ("{not json", "The body is not valid JSON."),
    ("[1, 2]", 'The body must be a JSON object such as {"type": "next"}.'),
    ('"next"', 'The body must be a JSON object such as {"type": "next"}.'),
    ("", 'The body is empty: send a JSON object such as {"type": "next"}.'),
    ("\xff\xfe", "The body is not valid JSON."),
])
def test_unreadable_bodies_are_refused(
    texas_in_betting: Dealer, data: str, sentence: str
) -> None:
    d = texas_in_betting
    before = d.state(dealer=True)
    response = d.client.post(f"/api/tables/{d.id}/actions", data=data.encode("latin-1"),
                             headers={**d.headers, "Content-Type": "application/json"})
    assert response.status_code == 400
    assert response.get_json() == {"error": sentence}
    assert d.state(dealer=True) == before


def test_too_large_a_body_is_413_with_a_sentence(texas_in_betting: Dealer) -> None:
    d = texas_in_betting
    before = d.state(dealer=True)
    body = json.dumps({"type": "call", "player": "Ann", "padding": "x" * 70_000})
    response = d.client.post(f"/api/tables/{d.id}/actions", data=body, headers={
        **d.headers, "Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.get_json() == {"error": "The request is too large: a body has at most 64 KB."}
    assert d.state(dealer=True) == before


# --------------------------------------------------------------------------- 401 / 404 / 409
def test_actions_need_the_dealer_token_401(texas_in_betting: Dealer, make_table: Any) -> None:
    d = texas_in_betting
    other: Dealer = make_table("texas_dozen", ["Ann", "Bob"])
    before = d.state(dealer=True)
    url = f"/api/tables/{d.id}/actions"
    body = {"type": "call", "player": "Ann"}
    for headers in ({}, {"Authorization": "Bearer wrong"}, other.headers,
                    {"Authorization": d.token}, {"Authorization": f"Basic {d.token}"}):
        response = d.client.post(url, json=body, headers=headers)
        assert response.status_code == 401, headers
        assert response.get_json()["error"].endswith(".")
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert d.state(dealer=True) == before
    # a wrong token is refused on the state too, rather than quietly showing the public view
    assert d.client.get(f"/api/tables/{d.id}", headers=other.headers).status_code == 401


def test_unknown_table_or_deal_is_404(client: FlaskClient, texas_in_betting: Dealer) -> None:
    d = texas_in_betting
    for method, url in (("get", "/api/tables/nope"), ("post", "/api/tables/nope/actions"),
                        ("get", "/api/tables/nope/deals"), ("get", "/api/tables/nope/deals/1"),
                        ("get", f"/api/tables/{d.id}/deals/2"), ("get", "/api/nothing"),
                        ("get", "/api/tables/" + "x" * 300)):
        response = getattr(client, method)(url, json={"type": "next"}, headers=d.headers)
        assert response.status_code == 404, url
        assert response.get_json()["error"].endswith("."), url
    for url in ("/t/nope", "/t/nope/dealer", "/t/nope/qr.svg"):
        assert client.get(url).status_code == 404


def test_expect_seq_409_carries_the_fresh_state(texas_in_betting: Dealer) -> None:
    d = texas_in_betting
    seq = d.state()["seq"]
    assert seq == 2
    answer = d.act({"type": "call", "player": "Ann", "expect_seq": seq})
    assert answer["seq"] == 3
    # a second tablet that still shows seq 2 sends Bob's call: refused, nothing changed
    before = d.state(dealer=True)
    answer = d.act({"type": "call", "player": "Bob", "expect_seq": seq}, status=409)
    assert answer["seq"] == 3 and answer["state"] == before
    assert "seq 3, not 2" in answer["error"]
    assert d.state(dealer=True) == before
    assert d.act({"type": "call", "player": "Bob", "expect_seq": 3})["seq"] == 4


def test_a_server_fault_is_a_500_sentence_and_stores_nothing(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(db_path=database)  # not testing: errors are answered, not raised
    d = new_table(app.test_client(), "texas_dozen", ["Ann", "Bob"])
    before = d.state(dealer=True)

    def broken(self: Any, action: Any) -> Any:
        raise RuntimeError("a bug in the rules core")

    monkeypatch.setattr("dealer_assist.core.table.Table.apply", broken)
    answer = d.act({"type": "start_deal"}, status=500)
    assert answer == {"error": "Something went wrong on the server; nothing was changed. "
                               "Try again."}
    monkeypatch.undo()
    assert d.state(dealer=True) == before


def test_wrong_method_is_405_json(client: FlaskClient) -> None:
    response = client.delete("/api/tables")
    assert response.status_code == 405
    assert response.get_json() == {"error": "This address does not take that method."}


# --------------------------------------------------------------------------- history
def test_deals_list_and_one_deal_with_its_actions(make_table: Any) -> None:
    d: Dealer = make_table("kings_pot", ["Ann", "Bob", "Cy"])
    play_kings_pot_deal_1(d)
    d.run({"type": "start_deal"}, {"type": "buy", "player": "Cy", "count": 1})
    deals = d.client.get(f"/api/tables/{d.id}/deals").get_json()
    assert [(x["number"], x["dealer"], x["start_seq"], x["kings_pot_after"]) for x in deals] == [
        (1, "Ann", 1, 0), (2, "Bob", 21, 1)]
    assert deals[0]["result"]["payouts"] == {"Cy": 14}
    assert deals[0]["finished"] is not None and deals[1]["finished"] is None
    assert deals[1]["result"] is None
    one = d.client.get(f"/api/tables/{d.id}/deals/1").get_json()
    assert [a["seq"] for a in one["actions"]] == list(range(1, 21))
    assert one["actions"][0]["action"] == {"type": "start_deal"}
    assert one["actions"][1]["action"] == {"type": "buy", "player": "Bob", "count": 2}
    assert one["actions"][-1]["action"]["kings_hand"] == ROYAL_SPADES
    two = d.client.get(f"/api/tables/{d.id}/deals/2").get_json()
    assert [a["action"]["type"] for a in two["actions"]] == ["start_deal", "buy"]


# --------------------------------------------------------------------------- pages
def test_pages_render_with_security_headers(client: FlaskClient, make_table: Any) -> None:
    d: Dealer = make_table("texas_dozen", ["Ann", "Bob"], name="Friday")
    for url in ("/", f"/t/{d.id}", f"/t/{d.id}/dealer"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.mimetype == "text/html"
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert "<script>" not in response.get_data(as_text=True)  # no inline script
    assert CONTENT_SECURITY_POLICY == (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "media-src data:; connect-src 'self' ws: wss:; frame-ancestors 'none'")
    assert d.id in client.get(f"/t/{d.id}/dealer").get_data(as_text=True)
    assert d.token not in client.get(f"/t/{d.id}/dealer").get_data(as_text=True)
    assert d.id in client.get("/").get_data(as_text=True)  # the home page lists the table


def test_qr_svg_encodes_the_join_url(client: FlaskClient, make_table: Any) -> None:
    d: Dealer = make_table("texas_dozen", ["Ann", "Bob"])
    response = client.get(f"/t/{d.id}/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert response.data == qr_svg(d.created["join_url"])
    assert response.data.lstrip().startswith(b"<?xml") and b"<svg" in response.data
    assert b"<script" not in response.data


def test_static_files_are_served(client: FlaskClient) -> None:
    response = client.get("/static/vendor/socket.io/socket.io.min.js")
    assert response.status_code == 200
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_every_vendored_library_is_an_official_release_with_its_licence_and_version(
        client: FlaskClient) -> None:
    """static/vendor/<library>/: the release's files unchanged, its LICENSE, and a VERSION
    naming the package, its version and each file copied; each one is served."""
    vendor = Path(__file__).resolve().parent.parent / "static" / "vendor"
    libraries = sorted(p.name for p in vendor.iterdir() if p.is_dir())
    assert libraries == ["nosleep", "socket.io"]
    for library in libraries:
        folder = vendor / library
        version = (folder / "VERSION").read_text()
        assert (folder / "LICENSE").read_text().strip()
        assert re.match(r"[\w.-]+ \d+\.\d+\.\d+\n", version), version
        for script in folder.glob("*.min.js"):
            assert script.name in version
            response = client.get(f"/static/vendor/{library}/{script.name}")
            assert response.status_code == 200 and response.mimetype == "text/javascript"
            assert response.get_data() == script.read_bytes()
            response.close()
    assert "NoSleep.min.js v0.12.0" in (vendor / "nosleep" / "NoSleep.min.js").read_text()[:80]


def test_join_url_uses_the_lan_address_when_opened_on_loopback(database: str) -> None:
    app: Flask = create_app(db_path=database, testing=True,
                            config={"LAN_URL": "http://192.168.1.20:5000"})
    client = app.test_client()
    made = new_table(client, "texas_dozen", ["Ann", "Bob"]).created
    assert made["join_url"] == f"http://192.168.1.20:5000/t/{made['id']}"
    made = client.post("/api/tables", json={"variant": "texas_dozen", "players": ["A", "B"]},
                       base_url="http://192.168.1.20:5000", headers=host_headers(app)).get_json()
    assert made["join_url"] == f"http://192.168.1.20:5000/t/{made['id']}"
    assert made["dealer_url"] == f"http://192.168.1.20:5000/t/{made['id']}/dealer#token=" + (
        made["dealer_token"])
