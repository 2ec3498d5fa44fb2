"""Issue 4, the host's history: every route with exact figures from deals played through the API
with explicit cards, the replay against the states the dealer saw, the ledger and settle-up,
the CSV, the charts, and export then import round-tripping a table exactly.

The three King's Pot deals of ``kings_pot_night`` (figures worked out by hand from RULES.md):

1. Ann deals. Bob buys 2 (Ah 7c), Cy 1 (Kd), Ann 1 (2s): the king's pot is 4. Bob bets 2 a
   card, Cy raises to 4, Ann folds, Bob folds his 7 and calls: the pot is 10. The king's hand
   (a royal flush) wins: Cy's king takes the pot and the king's pot, 14 (R26, R28).
   Stacks Ann 99, Bob 92, Cy 109. Then Bob rebuys 50 and Cy gives Ann 3 back (R8): Ann 102,
   Bob 142, Cy 106.
2. Bob deals. Cy and Ann buy 1 (the king's pot is 2), Bob none. Cy bets 5, Ann folds: Cy takes
   back his uncalled 5; the king's pot carries (R29). Ann 101, Bob 142, Cy 105.
3. Cy deals. Everyone buys 1 (Ann A, Bob K, Cy 2; the king's pot is 5). Ann bets 3, Bob and Cy
   call (the pot is 9), then checks. Row 2 (queen high, Cy's deuce) beats row 1 (jack high,
   Ann's ace) and the king's hand (eight high, Bob's king): Cy takes 9, the king's pot of 5
   carries. Ann 97, Bob 138, Cy 110.

Ledger after deal 3: Ann bought in 100, net -3; Bob 150, net -12; Cy 100, net +10; the king's
pot holds 5 (+5 for the table). Only all four together sum to zero, so three payments.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from conftest import Dealer, new_table
from flask.testing import FlaskClient

from dealer_assist.core.layouts import CELLS_5
from dealer_assist.services.history import NIGHT_GAP, group_nights

pytestmark = [pytest.mark.timeout(120), pytest.mark.both_engines]

GRID_5 = ["2c", "5d", "9h", "Jc", "3d", "4c", "8d", "Th", "Qc", "6d", "6c", "9d", "2h", "3h",
          "8c", "Tc", "Jd", "4h", "5h", "9c", "Qd", "6h", "8h", "3c", "5c"]
ROYAL_SPADES = ["As", "Ks", "Qs", "Js", "Ts"]
EIGHT_HIGH_KING = ["8s", "7d", "4s", "3s", "2d"]  # the king's hand of deal 3: eight high


class Recorder(Dealer):
    """A dealer that keeps every answer, to hold the replay against what the dealer saw."""

    def __init__(self, client: FlaskClient, created: dict[str, Any]) -> None:
        super().__init__(client, created)
        self.answers: list[dict[str, Any]] = []

    def act(self, body: Any, status: int = 200) -> dict[str, Any]:
        answer = super().act(body, status)
        if status == 200:
            self.answers.append(answer)
        return answer


def new_recorder(client: FlaskClient, variant: str, players: list[Any],
                 rules: dict[str, Any] | None = None, name: str = "Friday") -> Recorder:
    return new_table(client, variant, players, rules, name, kind=Recorder)


def checks(*names: str) -> list[dict[str, Any]]:
    return [{"type": "check", "player": n} for n in names]


def play_kings_pot_night(d: Dealer) -> None:
    """The three deals of the module's docstring, with the rebuy and the adjustment."""
    d.run({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 2},
          {"type": "buy", "player": "Cy", "count": 1}, {"type": "buy", "player": "Ann", "count": 1},
          {"type": "deal_cards", "player": "Bob", "cards": ["Ah", "7c"]},
          {"type": "deal_cards", "player": "Cy", "cards": ["Kd"]},
          {"type": "deal_cards", "player": "Ann", "cards": ["2s"]},
          {"type": "reveal"}, {"type": "bet", "player": "Bob", "amount": 2},
          {"type": "raise", "player": "Cy", "amount": 4}, {"type": "fold", "player": "Ann"},
          {"type": "fold", "player": "Bob", "card": "7"}, {"type": "call", "player": "Bob"},
          {"type": "reveal"}, *checks("Bob", "Cy"), {"type": "reveal"}, *checks("Bob", "Cy"))
    state = d.run({"type": "showdown", "cells": dict(zip(CELLS_5, GRID_5, strict=True)),
                   "kings_hand": ROYAL_SPADES})
    assert state["result"]["payouts"] == {"Cy": 14}
    d.run({"type": "rebuy", "player": "Bob", "amount": 50},
          {"type": "adjust", "player": "Cy", "to": "Ann", "amount": 3,
           "note": "Ann's ante was counted twice"})
    state = d.run({"type": "start_deal"}, {"type": "buy", "player": "Cy", "count": 1},
                  {"type": "buy", "player": "Ann", "count": 1},
                  {"type": "buy", "player": "Bob", "count": 0},
                  {"type": "deal_cards", "player": "Cy", "cards": ["Jh"]},
                  {"type": "deal_cards", "player": "Ann", "cards": ["Kh"]},
                  {"type": "reveal"}, {"type": "bet", "player": "Cy", "amount": 5},
                  {"type": "fold", "player": "Ann"})
    assert state["result"]["uncontested"] is True and state["kings_pot"] == 2
    d.run({"type": "start_deal"}, {"type": "buy", "player": "Ann", "count": 1},
          {"type": "buy", "player": "Bob", "count": 1}, {"type": "buy", "player": "Cy", "count": 1},
          {"type": "deal_cards", "player": "Ann", "cards": ["A"]},
          {"type": "deal_cards", "player": "Bob", "cards": ["K"]},
          {"type": "deal_cards", "player": "Cy", "cards": ["2"]},
          {"type": "reveal"}, {"type": "bet", "player": "Ann", "amount": 3},
          {"type": "call", "player": "Bob"}, {"type": "call", "player": "Cy"},
          {"type": "reveal"}, *checks("Ann", "Bob", "Cy"), {"type": "reveal"},
          *checks("Ann", "Bob", "Cy"))
    state = d.run({"type": "showdown", "cells": dict(zip(CELLS_5, GRID_5, strict=True)),
                   "kings_hand": EIGHT_HIGH_KING})
    assert state["result"]["winning_lines"] == ["row2"]


@pytest.fixture
def night(client: FlaskClient) -> Recorder:
    d = new_recorder(client, "kings_pot", ["Ann", "Bob", "Cy"])
    play_kings_pot_night(d)
    return d


def get(d: Dealer, path: str, *, dealer: bool = False, status: int = 200) -> Any:
    response = d.client.get(f"/api/tables/{d.id}{path}", headers=d.headers if dealer else {})
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    return response.get_json()


# --------------------------------------------------------------------------- history
def test_history_lists_every_deal_with_result_and_kings_pot_after(night: Recorder) -> None:
    h = get(night, "/history")
    assert (h["id"], h["name"], h["variant"], h["players"]) == (
        night.id, "Friday", "kings_pot", ["Ann", "Bob", "Cy"])
    deals = h["deals"]
    assert [(d["number"], d["dealer"], d["kings_pot_after"], d["in_play"]) for d in deals] == [
        (1, "Ann", 0, False), (2, "Bob", 2, False), (3, "Cy", 5, False)]
    assert [d["result"]["payouts"] for d in deals] == [{"Cy": 14}, {"Cy": 0}, {"Cy": 9}]
    assert [d["result"].get("winning_lines") for d in deals] == [["king"], [], ["row2"]]
    assert [d["words"] for d in deals] == [
        "Pot 10: Cy, a royal flush in the king's hand. King's pot 4: Cy, who holds the king.",
        "Everyone else folded: Cy wins. The king's pot of 2 carries to the next deal.",
        "Pot 9: Cy, queen high on row 2. The king's pot of 5 carries to the next deal.",
    ]
    assert [d["stacks_after"] for d in deals] == [
        {"Ann": 102, "Bob": 142, "Cy": 106}, {"Ann": 101, "Bob": 142, "Cy": 105},
        {"Ann": 97, "Bob": 138, "Cy": 110}]
    assert deals[0]["stacks_before"] == {"Ann": 100, "Bob": 100, "Cy": 100}
    # R8: the rebuy and the correction are entries of their own after deal 1, never rewrites
    assert [{k: e[k] for k in ("type", "player", "amount", "deal")} | {
        "to": e.get("to"), "note": e.get("note")} for e in deals[0]["entries"]] == [
        {"type": "rebuy", "player": "Bob", "amount": 50, "deal": 1, "to": None, "note": None},
        {"type": "adjust", "player": "Cy", "amount": 3, "deal": 1, "to": "Ann",
         "note": "Ann's ante was counted twice"}]
    assert deals[0]["result"]["payouts"] == {"Cy": 14}  # the deal itself is untouched
    assert deals[1]["entries"] == deals[2]["entries"] == []
    assert h["kings_pot"] == 5
    assert [n["deals"] for n in h["nights"]] == [[1, 2, 3]]  # played minutes apart: one night


def test_history_is_public_and_never_shows_a_face_down_card(night: Recorder) -> None:
    """Ann's 2s and Bob's 7c were folded, Cy's Jh and Ann's Kh never shown (R26): no public
    answer holds them; the dealer's replay does."""
    public = json.dumps([get(night, "/history"), get(night, "/ledger")]
                        + [get(night, f"/deals/{n}/replay") for n in (1, 2, 3)])
    for card in ("2s", "7c", "Jh", "Kh"):
        assert f'"{card}"' not in public
    dealer = json.dumps(get(night, "/deals/1/replay", dealer=True))
    assert '"7c"' in dealer and '"2s"' in dealer
    page = night.client.get(f"/t/{night.id}/history").get_data(as_text=True)
    for card in ("2s", "7c", "Jh", "Kh"):
        assert card not in page


def test_nights_start_after_a_gap_of_six_hours() -> None:
    def deal(number: int, started: str) -> dict[str, Any]:
        return {"number": number, "started": started}

    deals = [deal(1, "2026-11-27T19:00:00+00:00"), deal(2, "2026-11-28T00:59:59+00:00"),
             deal(3, "2026-11-28T06:59:58+00:00"), deal(4, "2026-12-04T20:00:00+00:00"),
             deal(5, "2026-12-05T01:59:59+00:00"), deal(6, "2026-12-05T07:59:59+00:00")]
    assert NIGHT_GAP.total_seconds() == 6 * 3600
    nights = group_nights(deals)
    # 5:59:59 apart stays in the night (2, 3 and 5), 6:00:00 or more opens a new one (4, 6)
    assert [(n["number"], n["deals"]) for n in nights] == [(1, [1, 2, 3]), (2, [4, 5]),
                                                            (3, [6])]
    assert nights[1]["started"] == "2026-12-04T20:00:00+00:00"


# --------------------------------------------------------------------------- replay
def test_replay_gives_the_dealer_every_state_he_saw(night: Recorder) -> None:
    starts = [d["start_seq"] for d in get(night, "/deals")]
    assert starts == [1, 23, 32]
    answers = {a["seq"]: a["state"] for a in night.answers}
    for number in (1, 2, 3):
        replay = get(night, f"/deals/{number}/replay", dealer=True)
        assert replay["number"] == number
        for step in replay["steps"]:
            assert step["state"] == answers[step["seq"]], (number, step["seq"])
    one = get(night, "/deals/1/replay", dealer=True)["steps"]
    assert [s["seq"] for s in one] == list(range(1, 23))  # 20 deal records, rebuy, adjust
    assert [s["label"] for s in one[-2:]] == [
        "Bob buys in for 50 more.", "Adjustment: Cy gives 3 to Ann (Ann's ante was counted "
                                    "twice)."]


def test_public_replay_steps_through_with_the_grid_as_it_was(night: Recorder) -> None:
    steps = get(night, "/deals/1/replay")["steps"]
    assert len(steps) == 22
    kinds = [s["action"]["type"] for s in steps]
    assert kinds[:7] == ["start_deal", "buy", "buy", "buy", "deal_cards", "deal_cards",
                         "deal_cards"]
    # the cards dealt are "?" for the public, as in GET /deals/<n> (how many, not which)
    assert steps[4]["action"] == {"type": "deal_cards", "player": "Bob", "cards": ["?", "?"]}
    assert steps[4]["label"] == "Bob is dealt 2 cards."
    assert steps[11]["action"] == {"type": "fold", "player": "Bob", "card": "?"}

    def turned(state: dict[str, Any]) -> int:
        return sum(v is not None for v in state["grid"]["cells"].values())

    # the grid as it was: nothing, then the 5 cards marked 1, then 10, 15, then all 25
    assert [turned(s["state"]) for s in steps] == (
        [0] * 7 + [5] * 6 + [10] * 3 + [15] * 3 + [25] * 3)
    assert [s["state"]["kings_pot"] for s in steps][:4] == [0, 2, 3, 4]
    final = steps[19]["state"]
    assert final["result"]["payouts"] == {"Cy": 14}
    assert {p["name"]: p["stack"] for p in final["players"]} == {"Ann": 99, "Bob": 92,
                                                                 "Cy": 109}
    assert get(night, "/deals/4/replay", status=404) == {"error": f"Table {night.id} has no "
                                                                  "deal 4."}


def test_replay_follows_undo_records(client: FlaskClient) -> None:
    d = new_recorder(client, "texas_dozen", ["Ann", "Bob"])
    d.run({"type": "start_deal"}, {"type": "next"}, {"type": "raise", "player": "Ann",
                                                     "amount": 10}, {"type": "undo"})
    steps = get(d, "/deals/1/replay")["steps"]
    assert [s["action"]["type"] for s in steps] == ["start_deal", "next", "raise", "undo"]
    assert steps[3]["label"] == "Undo: Ann: raise 10."
    assert steps[3]["state"]["players"] == steps[1]["state"]["players"]


# --------------------------------------------------------------------------- ledger
def test_r76_ledger_buy_ins_stacks_nets_and_transfers_between_people(night: Recorder) -> None:
    ledger = get(night, "/ledger")
    assert [(p["name"], p["bought_in"], p["stack"], p["net"]) for p in ledger["players"]] == [
        ("Ann", 100, 97, -3), ("Bob", 150, 138, -12), ("Cy", 100, 110, 10)]
    bob = ledger["players"][1]
    assert [(b["type"], b["amount"], b["deal"]) for b in bob["buy_ins"]] == [
        ("start", 100, None), ("rebuy", 50, 1)]
    assert [(a["amount"], a["with"], a["deal"]) for a in ledger["players"][0]["adjustments"]] == [
        (3, "Cy", 1)]
    assert [(a["amount"], a["with"]) for a in ledger["players"][2]["adjustments"]] == [
        (-3, "Ann")]
    assert ledger["on_table"] == {"kings_pot": 5, "bank": 0, "carried": 0, "off_table": 0,
                                  "total": 5, "started_with": 0, "net": 5}
    # the king's pot belongs to the table (R28): its 5 chips are held in cash by the banker,
    # here the host (null), to whom they are paid (R76)
    assert ledger["transfers"] == [
        {"from": "Bob", "to": "Cy", "amount": 10, "words": "Bob pays Cy 10"},
        {"from": "Ann", "to": None, "amount": 3, "words": "Ann pays the host 3"},
        {"from": "Bob", "to": None, "amount": 2, "words": "Bob pays the host 2"}]
    assert ledger["banker"] == {
        "name": None, "host": True, "holds": 5, "start": 0, "net": 5,
        "held": [{"key": "kings_pot", "title": "King's pot", "amount": 5,
                  "held_for": "for the king's pot"}],
        "words": "The host holds 5 for the king's pot."}
    assert ledger["text"].splitlines() == [
        "Friday: settle-up after deal 3", "Bob pays Cy 10", "Ann pays the host 3",
        "Bob pays the host 2", "The host holds 5 for the king's pot."]
    assert ledger["fewest"] is True
    assert (ledger["as_of_deal"], ledger["deal_in_play"]) == (3, None)


def test_ledger_while_a_deal_is_in_play_is_as_before_it(night: Recorder) -> None:
    before = get(night, "/ledger")
    night.run({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 3})
    during = get(night, "/ledger")
    assert (during["as_of_deal"], during["deal_in_play"]) == (3, 4)
    assert during["players"] == before["players"] and during["transfers"] == before["transfers"]
    assert get(night, "/history")["deals"][3]["in_play"] is True


def test_r76_ledger_of_twenty_one_hand_holdem_the_banker_pays_out_the_bank(
        client: FlaskClient) -> None:
    """Heads up, the blind always sits out: Bob takes 11 bank chips and Ann 10 (R50, R55);
    the bank's 21 chips were the table's, so the table pays them out."""
    d = new_recorder(client, "twenty_one_hand_holdem", ["Ann", "Bob"], name="21")
    for hand in range(1, 22):
        blind = "Ann" if hand % 2 else "Bob"
        d.run({"type": "start_deal"}, {"type": "fold", "player": blind})
    ledger = get(d, "/ledger")
    assert [(p["name"], p["bought_in"], p["stack"], p["net"]) for p in ledger["players"]] == [
        ("Ann", 4, 14, 10), ("Bob", 4, 15, 11)]
    assert ledger["on_table"] | {} == {"kings_pot": 0, "bank": 0, "carried": 0, "off_table": 0,
                                       "total": 0, "started_with": 21, "net": -21}
    assert ledger["transfers"] == [
        {"from": None, "to": "Bob", "amount": 11, "words": "The host pays Bob 11"},
        {"from": None, "to": "Ann", "amount": 10, "words": "The host pays Ann 10"}]
    assert ledger["banker"]["words"] == ("The host stands for the 21 chips the table started "
                                         "with and holds nothing now: the host pays out 21.")
    h = get(d, "/history")
    assert h["game"] == {"game_winner": "Bob", "standings": [{"name": "Bob", "chips": 15},
                                                             {"name": "Ann", "chips": 14}],
                         "tiebreak_draws": []}
    assert [x["bank_after"] for x in h["deals"]][:3] == [20, 19, 18]
    svg = client.get(f"/t/{d.id}/charts/standings.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    text = svg.get_data(as_text=True)
    assert "Final standing: Bob wins" in text and ">15</text>" in text and ">14</text>" in text


def test_twenty_one_tie_break_draw_is_on_the_standings_chart(client: FlaskClient) -> None:
    """Three players, the blind holder wins every hand at the showdown: 11 chips each after
    hand 21, then the high-card draw (R56): Ann Qh, Bob Qs, Cy 9d; Ann 3c, Bob 5c: Bob."""
    d = new_recorder(client, "twenty_one_hand_holdem", ["Ann", "Bob", "Cy"], name="21")
    board = ["Kc", "Qd", "7h", "4s", "2c"]
    junk = iter(["3h 5d", "6c 8d"] * 21)
    for _hand in range(21):
        state = d.run({"type": "start_deal"})
        blind = state["blind"]
        while state["step"]["kind"] != "showdown":
            step = state["step"]
            body = {"type": step["kind"]} | ({"player": step["player"]}
                                             if step["kind"] == "pay" else {})
            state = d.run(body)
        hands = {n: ("As Ad" if n == blind else next(junk)).split()
                 for n in state["step"]["players"]}
        d.run({"type": "showdown", "board": board, "hands": hands})
    d.run({"type": "draw", "player": "Ann", "card": "Qh"},
          {"type": "draw", "player": "Bob", "card": "Qs"},
          {"type": "draw", "player": "Cy", "card": "9d"},
          {"type": "draw", "player": "Ann", "card": "3c"},
          {"type": "draw", "player": "Bob", "card": "5c"})
    h = get(d, "/history")
    assert h["game"]["game_winner"] == "Bob"
    assert h["game"]["tiebreak_draws"] == [{"Ann": "Qh", "Bob": "Qs", "Cy": "9d"},
                                           {"Ann": "3c", "Bob": "5c"}]
    assert [p["stack"] for p in get(d, "/ledger")["players"]] == [11, 11, 11]
    page = client.get(f"/t/{d.id}/history").get_data(as_text=True)
    assert "Tie-break draw: Ann Qh; Bob Qs; Cy 9d<" in page and "then: Ann 3c; Bob 5c<" in page
    assert 'id="chart-standings"' in page and 'id="chart-stacks"' in page
    assert "Chips after each hand" in page


# --------------------------------------------------------------------------- CSV
def test_export_csv_one_row_per_deal(night: Recorder) -> None:
    response = night.client.get(f"/api/tables/{night.id}/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="friday-{night.id}-deals.csv"')
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["number", "started", "finished", "dealer", "winners", "winning_lines",
                       "payout Ann", "payout Bob", "payout Cy", "kings_pot_after",
                       "waiting", "between_deals", "game"]
    assert [[r[0], r[3], r[4], r[5], *r[6:]] for r in rows[1:]] == [
        ["1", "Ann", "Cy", "king", "0", "0", "14", "0", "",
         "Bob buys in for 50 more; Adjustment: Cy gives 3 to Ann (Ann's ante was counted "
         "twice)", "King's Pot"],
        ["2", "Bob", "Cy", "", "0", "0", "0", "2", "", "", "King's Pot"],
        ["3", "Cy", "Cy", "row2", "0", "0", "9", "5", "", "", "King's Pot"],
    ]
    deals = get(night, "/deals")
    assert [(r[1], r[2]) for r in rows[1:]] == [(d["started"], d["finished"]) for d in deals]


def test_csv_cells_never_start_a_spreadsheet_formula(client: FlaskClient) -> None:
    d = new_recorder(client, "texas_dozen", ["=SUM(A1)", "Bob"])
    d.run({"type": "start_deal"}, {"type": "next"}, {"type": "fold", "player": "=SUM(A1)"})
    text = client.get(f"/api/tables/{d.id}/export.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][6] == "payout =SUM(A1)"  # starts with "p": harmless
    assert rows[1][3] == "'=SUM(A1)"  # the dealer's name, defused


# --------------------------------------------------------------------------- export, import
def test_export_needs_the_dealer_token(night: Recorder) -> None:
    body = get(night, "/export.json", status=401)
    assert body == {"error": "The export holds every card the dealer entered: send the dealer "
                             "token (Authorization: Bearer <token>)."}


def test_export_then_import_gives_the_same_history(night: Recorder) -> None:
    exported = get(night, "/export.json", dealer=True)
    assert exported["format"] == "dealer-assist table" and exported["version"] == 1
    assert [a["seq"] for a in exported["actions"]] == list(range(1, 52))
    response = night.client.post("/api/tables/import", json=exported)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    assert (created["deals"], created["actions"]) == (3, 51)
    copy = Dealer(night.client, created)
    assert copy.id != night.id and copy.token != night.token
    assert get(copy, "/deals") == get(night, "/deals")
    for n in (1, 2, 3):
        for dealer in (False, True):
            mine = get(night, f"/deals/{n}/replay", dealer=dealer)["steps"]
            theirs = get(copy, f"/deals/{n}/replay", dealer=dealer)["steps"]
            for a in mine + theirs:
                a["state"].pop("id")
            assert theirs == mine
    assert get(copy, "/ledger") == get(night, "/ledger")
    history = get(copy, "/history")
    original = get(night, "/history")
    assert history.pop("id") == copy.id and original.pop("id") == night.id
    # the copy says it is one: made when imported, the original's time kept (issue 14)
    assert history.pop("imported") == {"imported_at": history["created"],
                                       "original_created": original["created"]}
    assert original.pop("imported") == {"imported_at": None, "original_created": None}
    history.pop("created")
    original.pop("created")
    assert history == original
    assert copy.state(dealer=True) | {"id": ""} == night.state(dealer=True) | {"id": ""}
    # the copy is a table like any other: the new dealer token acts on it, the old one not
    copy.run({"type": "start_deal"})
    assert get(night, "/history")["deals"][-1]["number"] == 3
    old = night.client.post(f"/api/tables/{copy.id}/actions", json={"type": "undo"},
                            headers=night.headers)
    assert old.status_code == 401


def test_an_imported_table_keeps_its_nights_and_its_kings_pot(night: Recorder) -> None:
    """The same three deals played a week apart: three nights, and the king's pot carries."""
    exported = get(night, "/export.json", dealer=True)
    days = {1: "2026-11-20T20:00:00+00:00", 2: "2026-11-27T20:00:00+00:00",
            3: "2026-12-04T20:00:00+00:00"}
    for record in exported["actions"]:
        record["time"] = days[record["deal"]]
    created = night.client.post("/api/tables/import", json=exported).get_json()
    copy = Dealer(night.client, created)
    h = get(copy, "/history")
    assert [(n["number"], n["deals"], n["started"]) for n in h["nights"]] == [
        (1, [1], days[1]), (2, [2], days[2]), (3, [3], days[3])]
    assert [d["kings_pot_after"] for d in h["deals"]] == [0, 2, 5]
    page = night.client.get(f"/t/{copy.id}/history").get_data(as_text=True)
    assert page.count('class="night"') == 3


def tampered(exported: dict[str, Any], change: str) -> Any:
    data = json.loads(json.dumps(exported))
    if change == "not a table":
        return {"hello": 1}
    if change == "format":
        data["format"] = "something else"
    elif change == "setup":
        data["setup"]["variant"] = "bridge"
    elif change == "seq gap":
        del data["actions"][5]
    elif change == "illegal":
        data["actions"][8]["action"] = {"type": "bet", "player": "Ann", "amount": 2}
    elif change == "result":
        data["deals"][2]["kings_pot_after"] = 0
    elif change == "time":
        data["actions"][3]["time"] = "yesterday"
    elif change == "list":
        data["actions"] = "everything"
    elif change == "action":
        data["actions"][2]["action"] = ["buy"]
    elif change == "bool seq":
        data["actions"][0]["seq"] = True
    return data


@pytest.mark.parametrize(("change", "sentence"), [
    ("not a table", "The file has no 'actions'."),
    ("format", "This is not a dealer-assist table export (its format should be "
               "'dealer-assist table')."),
    ("setup", "The file's setup is refused: Unknown game 'bridge'"),
    ("seq gap", "Record 6 has seq 7: the records must be numbered 1, 2, 3... in order."),
    ("illegal", "Record 9 (bet) cannot be replayed: "),
    ("result", "The file's deal 3 does not match its records (kings_pot_after differs): the "
               "file has been changed."),
    ("time", "Record 4 has a time that is not ISO 8601: 'yesterday'."),
    ("list", "actions must be a list of at most 200,000 records."),
    ("action", "Record 3 (None) cannot be replayed: An action is an object such as "
               '{"type": "check"}.'),
    ("bool seq", "Record 1 has seq True: the records must be numbered 1, 2, 3... in order."),
])
def test_a_bad_import_is_a_400_with_a_sentence_and_changes_nothing(
    night: Recorder, change: str, sentence: str,
) -> None:
    exported = get(night, "/export.json", dealer=True)
    before = night.client.get("/api/tables").get_json()
    response = night.client.post("/api/tables/import", json=tampered(exported, change))
    assert response.status_code == 400
    body = response.get_json()
    assert set(body) == {"error"} and body["error"].startswith(sentence), body
    assert body["error"].endswith(".")
    assert night.client.get("/api/tables").get_json() == before


@pytest.mark.parametrize(("raw", "sentence"), [
    (b"", "The body is empty: send the file that export.json gave."),
    (b"{not json", "The file is not valid JSON."),
    (b"[1, 2]", "The file must be a JSON object."),
])
def test_import_refuses_unreadable_bodies(client: FlaskClient, raw: bytes,
                                          sentence: str) -> None:
    response = client.post("/api/tables/import", data=raw)
    assert (response.status_code, response.get_json()) == (400, {"error": sentence})
    assert client.get("/api/tables").get_json() == []


def test_import_takes_more_than_the_usual_64_kb(client: FlaskClient) -> None:
    """A long table's export is bigger than an action's body may be: 120 deals here."""
    d = new_recorder(client, "texas_dozen", ["Ann", "Bob"])
    for _ in range(120):
        state = d.run({"type": "start_deal"}, {"type": "next"})
        d.run({"type": "fold", "player": state["step"]["player"]})
    exported = get(d, "/export.json", dealer=True)
    raw = json.dumps(exported).encode()
    assert len(raw) > 64 * 1024
    response = client.post("/api/tables/import", data=raw)
    assert response.status_code == 201, response.get_json()
    assert get(Dealer(client, response.get_json()), "/deals") == get(d, "/deals")


# --------------------------------------------------------------------------- pages and charts
def test_history_page_shows_figures_and_inline_charts(night: Recorder) -> None:
    response = night.client.get(f"/t/{night.id}/history")
    assert response.status_code == 200
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    page = response.get_data(as_text=True)
    assert "<style" not in page and " style=" not in page  # CSP: no inline styles
    assert 'id="chart-kings-pot"' in page and 'id="chart-stacks"' in page
    assert ("Pot 9: Cy, queen high on row 2. The king&#39;s pot of 5 carries to the next "
            "deal.") in page
    assert 'data-from="Bob" data-to="Cy" data-amount="10"' in page
    assert "3 payments, the fewest that square everyone." in page
    replay = night.client.get(f"/t/{night.id}/history/2")
    assert replay.status_code == 200 and 'data-deal="2"' in replay.get_data(as_text=True)
    assert night.client.get(f"/t/{night.id}/history/9").status_code == 404
    assert night.client.get("/t/nothing/history").status_code == 404


def test_charts_are_svg_with_every_text_escaped(client: FlaskClient) -> None:
    name = "<b>&\"Al'"
    d = new_recorder(client, "kings_pot", [name, "Bob", "Cy"], name="<script>x</script>")
    d.run({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 2},
          {"type": "buy", "player": "Cy", "count": 0}, {"type": "buy", "player": name,
                                                        "count": 0})
    for chart in ("stacks", "kings-pot"):
        response = client.get(f"/t/{d.id}/charts/{chart}.svg")
        assert response.status_code == 200 and response.mimetype == "image/svg+xml"
        assert "Content-Security-Policy" in response.headers
        svg = response.get_data(as_text=True)
        assert "<b>" not in svg and "<script" not in svg and "style" not in svg
    svg = client.get(f"/t/{d.id}/charts/stacks.svg").get_data(as_text=True)
    assert "&lt;b&gt;&amp;&quot;Al&#x27;" in svg
    # a deal with one buyer ends at once (R29): Bob's 2 antes are the king's pot after deal 1
    assert get(d, "/history")["deals"][0]["kings_pot_after"] == 2
    page = client.get(f"/t/{d.id}/history").get_data(as_text=True)
    assert "<b>&" not in page and "<script>x" not in page
    assert client.get(f"/t/{d.id}/charts/standings.svg").status_code == 404
    assert client.get(f"/t/{d.id}/charts/pie.svg").status_code == 404


def test_unknown_table_is_a_404_sentence_on_every_route(client: FlaskClient) -> None:
    for path in ("history", "ledger", "deals/1/replay", "export.csv", "export.json"):
        response = client.get(f"/api/tables/nope/{path}")
        assert (response.status_code, response.get_json()) == (
            404, {"error": "There is no table 'nope' on this server."}), path
