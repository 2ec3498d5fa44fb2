"""Tournaments through the JSON API (R89-R93), on both engines: each table's deals linked to
the clock, busts placed and taken back, refusals, and a whole 18-player tournament at 3
tables played to its end."""

from __future__ import annotations

import random
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from test_tournament_storage import START, body

from dealer_assist.core.autoplay import showdown_action
from dealer_assist.core.step import StepKind
from dealer_assist.core.table import Table

pytestmark = [pytest.mark.timeout(300), pytest.mark.both_engines]


class Clock:
    """The server's clock in a test: it moves when the test says."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(app: Flask) -> Clock:
    fake = Clock()
    app.extensions["dealer_assist.tournaments"].now = fake
    app.extensions["dealer_assist.tournaments"].rng = random.Random(31)
    return fake


class Director:
    """A tournament driven through the API: the host's actions, and each table's dealer
    playing deals whose winner and loser the test chooses."""

    def __init__(self, app: Flask, client: FlaskClient, created: dict[str, Any]) -> None:
        self.app, self.client, self.created = app, client, created
        self.id = created["id"]
        self.tokens = {t["id"]: t["dealer_token"] for t in created["tables"]}

    def act(self, status: int = 200, **action: Any) -> dict[str, Any]:
        response = self.client.post(f"/api/tournaments/{self.id}/actions", json=action)
        assert response.status_code == status, (action, response.get_json())
        return response.get_json()

    def state(self) -> dict[str, Any]:
        response = self.client.get(f"/api/tournaments/{self.id}")
        assert response.status_code == 200
        return response.get_json()

    def table(self, table_id: str) -> Table:
        with self.app.app_context():
            from dealer_assist.web.extensions import get_db, get_store
            table = get_store().load(get_db(), table_id)
        assert table is not None
        return table

    def table_act(self, table_id: str, action: dict[str, Any], status: int = 200
                  ) -> dict[str, Any]:
        response = self.client.post(f"/api/tables/{table_id}/actions", json=action,
                                    headers={"Authorization": f"Bearer {self.tokens[table_id]}"})
        assert response.status_code == status, (action, response.get_json())
        return response.get_json()

    def deal(self, table_id: str, winner: str, loser: str) -> Table:
        """A deal where ``winner`` and ``loser`` go all in before the flop and everyone
        else folds; the showdown gives the winner aces."""
        self.table_act(table_id, {"type": "start_deal"})
        rng = random.Random(0)
        while True:
            table = self.table(table_id)
            if table.deal_over:
                return table
            step = table.next_step()
            options = step.options or ()
            if step.kind is StepKind.BET:
                who = step.player
                if who in (winner, loser):
                    kind = next(k for k in ("all_in", "call", "check") if k in options)
                else:
                    kind = "check" if "check" in options else "fold"
                action: dict[str, Any] = {"type": kind, "player": who}
            elif step.kind is StepKind.SHOWDOWN:
                action = showdown_action(table, step, rng)
                action["board"] = ["Kd", "Qs", "9h", "5c", "3s"]
                action["hands"] = {winner: ["As", "Ah"], loser: ["7c", "2d"]}
            else:
                action = {"type": "next" if step.kind is StepKind.NEXT else "reveal"}
            self.table_act(table_id, action)


def make(client: FlaskClient, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/tournaments", json=body(**changes))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


# --------------------------------------------------------------------------- the tables

def test_r90_a_level_applies_from_each_tables_next_deal_never_in_one(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    d = Director(app, client, make(client))
    d.act(type="resume")
    first = d.created["tables"][0]["id"]
    d.table_act(first, {"type": "start_deal"})
    posted = {kind: amount for _, kind, amount in d.table(first).deal.posted}  # type: ignore
    assert (posted["small"], posted["big"]) == (25, 50)
    clock.now += 16 * 60  # level 1 now, while the deal is in play: it keeps its blinds
    assert d.state()["clock"]["level"] == 1
    assert d.table(first).deal.rules.big_blind == 50  # type: ignore[union-attr]
    second = d.created["tables"][1]["id"]
    d.table_act(second, {"type": "start_deal"})
    deal = d.table(second).deal
    assert deal is not None and {k for _, k, _ in deal.posted} >= {"ante", "small", "big"}
    assert {a for _, k, a in deal.posted if k == "ante"} == {10}
    answer = d.table_act(second, {"type": "start_deal", "blinds": {"big_blind": 1}}, 400)
    assert "blinds come from" in answer["error"]
    clock.now += 15 * 60  # the break
    answer = d.table_act(d.created["tables"][2]["id"], {"type": "start_deal"}, 400)
    assert answer["error"] == "No deal starts during a break: play resumes in 9:00."
    answer = d.table_act(first, {"type": "rebuy", "player": "Player 1", "amount": 5}, 400)
    assert "goes through the tournament" in answer["error"]


def test_r89_tournament_actions_are_refused_with_a_sentence_and_change_nothing(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    d = Director(app, client, make(client))
    before = d.state()
    for action, words in [({"type": "resume", "to": 3}, "has no field 'to'"),
                          ({"type": "explode"}, "Unknown tournament action"),
                          ({"type": "pause"}, "already paused"),
                          ({"type": "rebuy", "player": "Nobody"}, "no player called Nobody"),
                          ({"type": "move", "player": "Player 1", "to_table": 1},
                           "tables are balanced"),
                          ({"type": "add_on", "player": "Player 2"}, "first break"),
                          ({"type": "undo"}, "Nothing to undo")]:
        answer = d.act(400, **action)
        assert words in answer["error"] and answer["error"].endswith("."), answer
    assert d.state() == before
    other = client.post(f"/api/tournaments/{d.id}/actions", json={"type": "pause"},
                        headers={"Authorization": "Bearer wrong", "X-Forwarded-For": "1.2.3.4"})
    assert other.status_code == 401
    assert client.get("/api/tournaments/nothing").status_code == 404
    token = d.created["tables"][1]["dealer_token"]  # a dealer of one of its tables may
    resumed = client.post(f"/api/tournaments/{d.id}/actions", json={"type": "resume"},
                          headers={"Authorization": f"Bearer {token}"})
    assert resumed.status_code == 200 and resumed.get_json()["state"]["clock"]["running"]


# --------------------------------------------------------------------------- a whole night

def test_r91_r92_r93_an_18_player_tournament_at_3_tables_plays_to_a_chop(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    """Rebuys, an add-on, a late entry, balancing moves, a table broken and a chop, all
    through the API; chips and money conserved all along."""
    d = Director(app, client, make(client))
    d.act(type="resume")
    tables = [t["id"] for t in d.created["tables"]]
    done = {"rebuys": 0, "declined": 0, "moves": 0, "breaks": 0}

    def carry_out_moves() -> None:
        """The moves the state names, until it names none: a table that breaks (every one
        of its players drawn a seat), or a balancing move."""
        while moves := d.state()["moves"]:
            tables_before = sum(1 for t in d.state()["tables"] if t["in_play"])
            for move in moves:
                d.act(type="move", player=move["player"], to_table=move["to_table"])
            broke = sum(1 for t in d.state()["tables"] if t["in_play"]) < tables_before
            done["breaks" if broke else "moves"] += 1

    def bust_at(number: int) -> None:
        """One deal at table ``number``: its shortest stack all in against its tallest."""
        seated = {p["name"]: p["stack"] for p in d.state()["tables"][number]["players"]
                  if p["stack"] > 0}
        loser = min(seated, key=lambda n: (seated[n], n))
        winner = max(seated, key=lambda n: (seated[n], n))
        d.deal(tables[number], winner, loser)

    # level 0: busts while rebuys are open; two take a rebuy, one declines
    bust_at(0)
    bust_at(0)
    bust_at(1)
    state = d.state()
    waiting = state["waiting_on_rebuy"]
    assert len(waiting) == 3 and state["players_left"] == 18
    d.act(type="rebuy", player=waiting[0])
    d.act(type="rebuy", player=waiting[1])
    d.act(type="decline", player=waiting[2])
    done["rebuys"], done["declined"] = 2, 1
    d.act(type="enter", player="Late Lou")  # a late entry, seated by the server
    state = d.state()
    assert state["entries"] == 19 and state["players_left"] == 18 and state["rebuys"] == 2
    assert any(p["name"] == "Late Lou" and p["stack"] == 5000
               for t in state["tables"] for p in t["players"])
    # the first break: an add-on; then the rebuys are over
    d.act(type="level", to=2)
    d.act(type="add_on", player="Late Lou")
    d.act(type="level", to=3)
    assert d.state()["rebuys_open"] is False
    pool = 19 * 18 + 2 * 20 + 20
    assert d.state()["prize_pool"] == pool
    chips = (19 + 2 + 1) * 5000

    rng = random.Random(5)
    for _ in range(40):
        carry_out_moves()
        state = d.state()
        assert sum(p["stack"] for t in state["tables"] for p in t["players"]) == chips
        if state["players_left"] <= 3:
            break
        playing = [t["number"] for t in state["tables"] if t["in_play"]
                   and sum(1 for p in t["players"] if p["stack"] > 0) >= 2]
        bust_at(rng.choice(playing))
    state = d.state()
    assert state["players_left"] == 3
    assert done["moves"] >= 2 and done["breaks"] >= 1, done
    assert sum(1 for t in state["tables"] if t["in_play"]) == 1

    # the chop: both methods side by side, then ICM agreed
    shown = d.act(type="chop", method="icm")["chop"]
    left = {p["name"]: p["stack"] for t in state["tables"] for p in t["players"]}
    assert shown["stacks"] == left
    prizes = state["payouts"][:3]
    assert sum(shown["icm"].values()) == sum(shown["chips"].values()) == sum(prizes)
    assert not d.state()["finished"]
    final = d.act(type="chop", method="icm", agree=True)["state"]
    assert final["finished"] and final["chop"] == [
        {"name": n, "amount": a} for n, a in shown["icm"].items()]
    paid = sum(pl["payout"] for place in final["places"] for pl in place["players"])
    assert paid == pool and final["places"][-1]["place"] == 19
    assert final["places"][0]["place"] == 1 and len(final["places"][0]["players"]) == 3
    answer = d.table_act(tables[0], {"type": "start_deal"}, 400)
    assert "over" in answer["error"]


def test_r91_undo_at_the_table_takes_a_bust_back_and_undo_takes_a_rebuy_off_the_table(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    d = Director(app, client, make(client, rebuy_until_level=0))
    d.act(type="resume")
    table_id = d.created["tables"][0]["id"]
    seated = d.table(table_id).totals.names
    d.deal(table_id, seated[0], seated[1])
    assert d.state()["waiting_on_rebuy"] == [seated[1]]
    d.table_act(table_id, {"type": "undo"})  # the showdown taken back: no bust
    assert d.state()["waiting_on_rebuy"] == []
    table = d.table(table_id)
    step = table.next_step()
    action = showdown_action(table, step, random.Random(0))
    action["board"] = ["Kd", "Qs", "9h", "5c", "3s"]
    action["hands"] = {seated[0]: ["As", "Ah"], seated[1]: ["7c", "2d"]}
    d.table_act(table_id, action)
    assert d.state()["waiting_on_rebuy"] == [seated[1]]
    d.act(type="rebuy", player=seated[1])
    assert d.table(table_id).totals.stacks[1] == 5000
    d.act(type="undo")  # the rebuy, at the tournament and at the table
    assert d.table(table_id).totals.stacks[1] == 0
    assert d.state()["rebuys"] == 0 and d.state()["waiting_on_rebuy"] == [seated[1]]
    clock.now += 16 * 60  # rebuys end with level 0: the bust is placed
    state = d.state()
    assert state["players_left"] == 17
    assert state["places"] == [{"place": 18, "last_place": 18,
                                "players": [{"name": seated[1], "payout": 0}]}]


def test_r90_every_screen_of_its_tables_gets_the_tournament_event(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    """The live ``tournament`` event: after a tournament action, to the phones and tablets
    of every one of its tables; after a table's action, to its screens too."""
    from dealer_assist.web.extensions import get_socketio

    socketio = get_socketio(app)
    d = Director(app, client, make(client))
    phone, tablet = socketio.test_client(app), socketio.test_client(app)
    first, last = d.created["tables"][0], d.created["tables"][2]
    phone.emit("join", {"table": first["id"]})
    tablet.emit("join", {"table": last["id"], "token": last["dealer_token"]})
    phone.get_received()
    tablet.get_received()

    def events(screen: Any) -> list[dict[str, Any]]:
        return [e["args"][0] for e in screen.get_received() if e["name"] == "tournament"]

    answer = d.act(type="resume")
    (on_phone,) = events(phone)
    (on_tablet,) = events(tablet)
    assert on_phone == on_tablet == answer["state"] == d.state()
    assert on_phone["clock"]["running"] and on_phone["clock"]["next_break"]["index"] == 2
    assert "dealer_token" not in str(on_phone)
    d.table_act(last["id"], {"type": "start_deal"})
    (after_deal,) = events(phone)
    assert after_deal["tables"][2]["players"] == d.state()["tables"][2]["players"]


def test_r94_a_tournaments_money_goes_into_its_books_and_the_season_apart_from_cash(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    """Entries, rebuys and prizes per person in money, settled with the fewest payments;
    the season lists tournaments apart, and the tournament's chips are no one's money."""
    d = Director(app, client, make(client, players=["Ann", "Bob", "Cy"], tables=1,
                                   add_on=None, payouts=[70, 30], seats=10))
    d.act(type="resume")
    table_id = d.created["tables"][0]["id"]
    d.deal(table_id, "Ann", "Cy")
    d.act(type="rebuy", player="Cy")  # Cy pays 20 more
    d.act(type="level", to=3)
    d.deal(table_id, "Ann", "Cy")  # Cy out for good
    stacks = dict(zip(*[d.table(table_id).totals.names, d.table(table_id).totals.stacks],
                      strict=True))
    d.deal(table_id, *sorted(("Ann", "Bob"), key=lambda n: -stacks[n]))
    state = d.state()
    assert state["finished"] and state["prize_pool"] == 3 * 18 + 20
    people = {p["name"]: p for p in state["books"]["people"]}
    winner = state["places"][0]["players"][0]["name"]
    assert people[winner]["won"] == 52 and people["Cy"] == {
        "name": "Cy", "paid_in": 40, "won": 0, "net": -40}
    assert state["books"]["house"] == 6 and state["books"]["held"] == 0
    owed = {p["name"]: p["net"] for p in state["books"]["people"]} | {"The house": 6}
    for payment in state["books"]["settle_up"]:
        owed[payment["from"]] += payment["amount"]
        owed[payment["to"]] -= payment["amount"]
    assert set(owed.values()) == {0}
    league = client.get("/api/league").get_json()
    assert league["people"] == []  # the tables' chips are not cash
    assert {r["name"]: (r["tournaments"], r["paid_in"], r["won"], r["net"])
            for r in league["tournaments"]} == {
        n: (1, p["paid_in"], p["won"], p["net"]) for n, p in people.items()}


def test_r90_the_clock_page_joins_its_tournaments_room_and_every_screen_hears_the_clock(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    """The big-screen clock joins ``tournament:<id>`` with no token and gets the public state
    at once and after each action; a table's screen gets it right after the table's state at
    each join; a table's state names its tournament, a cash table's does not."""
    from dealer_assist.web.extensions import get_socketio

    socketio = get_socketio(app)
    d = Director(app, client, make(client))
    screen, phone = socketio.test_client(app), socketio.test_client(app)
    screen.emit("join_tournament", {"tournament": d.id})
    (joined,) = [e["args"][0] for e in screen.get_received() if e["name"] == "tournament"]
    assert joined == d.state() and joined["clock"]["number"] == 1
    table = d.created["tables"][1]
    phone.emit("join", {"table": table["id"]})
    names = [e["name"] for e in phone.get_received()]
    assert names == ["state", "tournament"]
    clock.now += 30
    answer = d.act(type="resume")
    clock.now += 90
    moved = d.act(type="level", to=1)
    heard = [e["args"][0] for e in screen.get_received() if e["name"] == "tournament"]
    assert heard == [answer["state"], moved["state"]]
    assert heard[1]["clock"]["number"] == 2 and heard[1]["clock"]["running"]
    assert heard[1]["clock"]["next_level"]["number"] == 3  # the break between is not counted
    assert client.get(f"/api/tables/{table['id']}").get_json()["tournament"] == {
        "id": d.id, "table": 1, "clock_path": f"/c/{d.id}"}
    cash = client.post("/api/tables", json={"variant": "texas_holdem",
                                            "players": ["Ann", "Bob"]}).get_json()
    assert "tournament" not in client.get(f"/api/tables/{cash['id']}").get_json()


@pytest.mark.parametrize("wanted", [None, 7, "nope", "../x", "x" * 500, "a\x00b", "' OR 1=1"])
def test_r90_a_clock_page_for_no_tournament_is_refused_with_a_sentence(
        app: Flask, client: FlaskClient, wanted: Any) -> None:
    from dealer_assist.web.extensions import get_socketio

    screen = get_socketio(app).test_client(app)
    screen.emit("join_tournament", {"tournament": wanted})
    (error,) = [e["args"][0] for e in screen.get_received() if e["name"] == "error"]
    assert error["error"].startswith(("There is no tournament", "Join a tournament's clock"))
    if isinstance(wanted, str):  # nor the page, nor the state, nor an action: a 404
        path = quote(wanted, safe="")
        assert client.get(f"/c/{path}").status_code == 404
        assert client.get(f"/api/tournaments/{path}").status_code == 404
        assert client.post(f"/api/tournaments/{path}/actions",
                           json={"type": "pause"}).status_code == 404
        assert client.delete(f"/api/tournaments/{path}").status_code == 404
        assert client.get(f"/api/tournaments/{path}/preview").status_code == 404


def test_r90_the_clock_page_is_served_for_a_tournament(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    d = Director(app, client, make(client, name="Friday & co"))
    page = client.get(f"/c/{d.id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Friday &amp; co" in html and f'data-tournament-id="{d.id}"' in html
    tablet = client.get(f"/t/{d.created['tables'][0]['id']}/dealer").get_data(as_text=True)
    assert 'id="tournament-bar"' in tablet and f'data-tournament-id="{d.id}"' in tablet


# --------------------------------------------------------------------------- new payouts

def test_r93_the_host_changes_the_payouts_through_the_api_and_the_books_follow(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    """The payouts action: the host's only, creation's sentences, undone by undo, read back
    after a restart, and the books and the season paying the new table."""
    from dealer_assist.services.tournaments import replay
    from dealer_assist.web.extensions import get_db

    d = Director(app, client, make(client, players=["Ann", "Bob", "Cy"], tables=1,
                                   add_on=None, payouts=[70, 30], seats=10,
                                   rebuy_until_level=None))
    d.act(type="resume")
    assert d.state()["payouts"] == [38, 16]  # a pool of 3 x 18: 37.8 and 16.2 down
    token = d.created["tables"][0]["dealer_token"]
    refused = client.post(f"/api/tournaments/{d.id}/actions",
                          json={"type": "payouts", "payouts": [100]},
                          headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 403 and refused.get_json()["error"] == (
        "Only the host changes the money: a dealer's device cannot change the payouts.")
    for payouts in ([60, 30], [30, 70], "nope", {"up_to": 3}):
        made = client.post("/api/tournaments", json=body(payouts=payouts)).get_json()
        answer = d.act(400, type="payouts", payouts=payouts)
        assert answer["error"] == made["error"], payouts  # creation's sentence
    assert d.act(400, type="payouts")["error"] == (
        "Say the new payouts (payouts): \"default\", or each place's percentage such as "
        "[65, 35].")
    assert d.act(400, type="payouts", payouts=[70, 30])["error"] == (
        "Those are the payouts already.")
    state = d.state()
    assert (state["payouts"], state["payout_percents"], state["payouts_open"]) == (
        [38, 16], [70, 30], True)
    # the host's page previews a table with the pool so far before sending it
    assert client.get(f"/api/tournaments/{d.id}/preview?payouts=80,20").get_json() == {
        "entries": 3, "pool": 54, "payouts": [44, 10], "percents": [80, 20], "tables": 1}
    wrong = client.get(f"/api/tournaments/{d.id}/preview?payouts=80,30")
    assert wrong.status_code == 400 and wrong.get_json()["error"] == (
        "payouts: the percentages add up to 110, not 100.")
    assert client.get("/api/tournaments/nothing/preview").status_code == 404
    assert d.act(type="payouts", payouts=[80, 20])["state"]["payouts"] == [44, 10]
    undone = client.post(f"/api/tournaments/{d.id}/actions", json={"type": "undo"},
                         headers={"Authorization": f"Bearer {token}"})
    assert undone.status_code == 403 and undone.get_json()["error"] == (
        "Only the host changes the money: a dealer's device cannot undo the payouts.")
    assert d.act(type="undo")["state"]["payouts"] == [38, 16]
    assert d.act(type="payouts", payouts="default")["state"]["payouts"] == [54]
    with app.app_context():
        again = replay(get_db(), d.id)  # another process, or after a restart
    assert again is not None and again.payouts() == (54,)
    table_id = d.created["tables"][0]["id"]
    d.deal(table_id, "Ann", "Cy")  # Cy out: 3rd, not paid by either table
    stacks = dict(zip(*[d.table(table_id).totals.names, d.table(table_id).totals.stacks],
                      strict=True))
    assert d.act(type="payouts", payouts=[60, 40])["state"]["payouts"] == [33, 21]
    d.act(type="undo")
    d.deal(table_id, *sorted(("Ann", "Bob"), key=lambda n: -stacks[n]))
    state = d.state()
    winner = state["places"][0]["players"][0]["name"]
    assert state["finished"] and state["places"][0]["players"][0]["payout"] == 54
    assert state["payouts_open"] is False
    assert d.act(400, type="payouts", payouts=[60, 40])["error"] == (
        f"The payouts stay as they are: {winner} has finished in a paid place (1st).")
    people = {p["name"]: p for p in state["books"]["people"]}
    assert people[winner]["won"] == 54 and people[winner]["net"] == 34
    league = {r["name"]: r["won"] for r in client.get("/api/league").get_json()["tournaments"]}
    assert league == {"Ann": 0, "Bob": 0, "Cy": 0, winner: 54}


# --------------------------------------------------------------------------- deleting one

def test_r94_the_host_deletes_a_tournament_with_its_tables_and_it_leaves_the_season(
        app: Flask, client: FlaskClient, clock: Clock) -> None:
    """A mistaken or test tournament cleared: the host's only (as deleting a table), its
    tables, records and rows gone, its screens told, its pages and API a 404, the season
    without it; another tournament untouched."""
    from dealer_assist.web.extensions import get_db, get_socketio

    d = Director(app, client, make(client))
    kept = Director(app, client, make(client, name="Saturday"))
    d.act(type="resume")
    table_ids = [t["id"] for t in d.created["tables"]]
    d.deal(table_ids[0], *d.table(table_ids[0]).totals.names[:2])
    d.act(type="rebuy", player=d.state()["waiting_on_rebuy"][0])
    season = client.get("/api/league").get_json()["tournaments"]
    assert {(r["tournaments"], r["paid_in"]) for r in season} == {(2, 40), (2, 60)}
    url = f"/api/tournaments/{d.id}"
    guest = client.delete(url, headers={"X-Forwarded-For": "1.2.3.4"})
    assert guest.status_code == 401 and guest.get_json()["error"].startswith("Only the host")
    other_site = client.delete(url, headers={"Origin": "http://elsewhere.example"})
    assert other_site.status_code == 403
    dealer = client.delete(url, headers={"Authorization": f"Bearer {d.tokens[table_ids[0]]}",
                                         "X-Forwarded-For": "1.2.3.4"})
    assert dealer.status_code == 401
    assert d.state()["rebuys"] == 1  # nothing changed

    # the screens open on it: its clock, a phone of each of its tables, one of the other's
    socketio = get_socketio(app)
    screen, other = socketio.test_client(app), socketio.test_client(app)
    screen.emit("join_tournament", {"tournament": d.id})
    other.emit("join", {"table": kept.created["tables"][0]["id"]})
    phones = [socketio.test_client(app) for _ in table_ids]
    for phone, table_id in zip(phones, table_ids, strict=True):
        phone.emit("join", {"table": table_id})
    for each in (screen, other, *phones):
        each.get_received()

    assert client.delete(url).get_json() == {"deleted": d.id, "tables": table_ids}
    said = "The host deleted Friday: it is no longer on this server."
    assert screen.get_received() == [{"name": "tournament_deleted", "namespace": "/",
                                      "args": [{"tournament": d.id, "error": said}]}]
    for phone, table_id in zip(phones, table_ids, strict=True):
        assert phone.get_received() == [{"name": "table_deleted", "namespace": "/",
                                         "args": [{"table": table_id, "error": said}]}]
    assert other.get_received() == []
    assert [t["id"] for t in client.get("/api/tournaments").get_json()["tournaments"]] == [
        kept.id]
    assert client.get(url).status_code == 404
    assert client.get(f"/c/{d.id}").status_code == 404
    assert client.get(f"/tournaments/{d.id}").status_code == 404
    assert client.post(f"{url}/actions", json={"type": "pause"}).status_code == 404
    listed = {t["id"] for t in client.get("/api/tables").get_json()}
    for table_id in table_ids:
        assert client.get(f"/api/tables/{table_id}").status_code == 404
        assert client.get(f"/t/{table_id}").status_code == 404
        assert table_id not in listed
        answer = client.post(f"/api/tables/{table_id}/actions", json={"type": "start_deal"},
                             headers={"Authorization": f"Bearer {d.tokens[table_id]}"})
        assert answer.status_code == 404
    with app.app_context():
        db = get_db()
        for name in db.table_names():
            columns = db.columns(name)
            for column, value in (("table_id", table_ids), ("tournament_id", [d.id])):
                if column in columns:
                    marks = ", ".join("?" * len(value))
                    (count,) = db.execute(f'SELECT COUNT(*) FROM "{name}" WHERE {column} '
                                          f"IN ({marks})", value).fetchone()
                    assert count == 0, name
    # the season has the other tournament only: each player's one buy-in, the rebuy gone
    season = client.get("/api/league").get_json()["tournaments"]
    assert len(season) == 18 and {(r["tournaments"], r["paid_in"]) for r in season} == {(1, 20)}
    again = client.delete(url)
    assert again.status_code == 404 and again.get_json()["error"] == (
        f"There is no tournament {d.id!r} on this server.")
    assert kept.act(type="resume")["state"]["clock"]["running"]
    assert all(client.get(f"/api/tables/{t['id']}").status_code == 200
               for t in kept.created["tables"])
