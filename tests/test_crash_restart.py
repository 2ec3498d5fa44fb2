"""kill -9 the server mid-deal and start it again on the same file: every acknowledged action
is there, with the same seq, stacks, pots and king's pot as the last 200 answer said."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import requests
from conftest import Server

pytestmark = [pytest.mark.timeout(180), pytest.mark.both_engines]


class Remote:
    """A table on a real server, driven over HTTP."""

    def __init__(self, server: Server, variant: str, players: list[str],
                 rules: dict[str, Any] | None = None) -> None:
        self.server = server
        response = requests.post(server.url + "/api/tables", timeout=10, json={
            "name": variant, "variant": variant, "players": players, "rules": rules or {}})
        assert response.status_code == 201, response.text
        made = response.json()
        self.id = made["id"]
        self.headers = {"Authorization": f"Bearer {made['dealer_token']}"}
        self.last: dict[str, Any] = {}

    def act(self, *bodies: dict[str, Any]) -> dict[str, Any]:
        for body in bodies:
            response = requests.post(f"{self.server.url}/api/tables/{self.id}/actions",
                                     json=body, headers=self.headers, timeout=10)
            assert response.status_code == 200, (body, response.text)
            self.last = response.json()
        return self.last

    def state(self) -> dict[str, Any]:
        response = requests.get(f"{self.server.url}/api/tables/{self.id}", headers=self.headers,
                                timeout=10)
        assert response.status_code == 200
        return response.json()

    def deals(self) -> list[dict[str, Any]]:
        return requests.get(f"{self.server.url}/api/tables/{self.id}/deals", timeout=10).json()


def test_kill_9_mid_deal_loses_no_acknowledged_action(
    start_server: Any, database: str
) -> None:
    db = database
    server: Server = start_server(db)
    kings = Remote(server, "kings_pot", ["Ann", "Bob", "Cy"])
    # deal 1: Bob's bet takes it uncontested; the 4 antes stay in the king's pot (R29)
    kings.act({"type": "start_deal"}, {"type": "buy", "player": "Bob", "count": 2},
              {"type": "buy", "player": "Cy", "count": 1},
              {"type": "buy", "player": "Ann", "count": 1},
              {"type": "deal_cards", "player": "Bob", "cards": ["Ah", "7c"]},
              {"type": "deal_cards", "player": "Cy", "cards": ["Kd"]},
              {"type": "deal_cards", "player": "Ann", "cards": ["2s"]}, {"type": "reveal"},
              {"type": "bet", "player": "Bob", "amount": 3}, {"type": "fold", "player": "Cy"},
              {"type": "fold", "player": "Ann"})
    # deal 2, mid-deal: Cy bets, Ann raises
    kings.act({"type": "start_deal"}, {"type": "buy", "player": "Cy", "count": 2},
              {"type": "buy", "player": "Ann", "count": 1},
              {"type": "buy", "player": "Bob", "count": 1},
              {"type": "deal_cards", "player": "Cy", "cards": ["Qh", "Kc"]},
              {"type": "deal_cards", "player": "Ann", "cards": ["5d"]},
              {"type": "deal_cards", "player": "Bob", "cards": ["9s"]},
              {"type": "reveal", "cards": {"r1c1": "Ah"}},
              {"type": "bet", "player": "Cy", "amount": 2},
              {"type": "raise", "player": "Ann", "amount": 5})
    texas = Remote(server, "texas_dozen", ["Ann", "Bob", "Cy"])
    texas.act({"type": "start_deal"}, {"type": "next"}, {"type": "raise", "player": "Ann",
                                                        "amount": 8},
              {"type": "call", "player": "Bob"}, {"type": "undo"})
    twenty_one = Remote(server, "twenty_one_hand_holdem", ["Ann", "Bob"],
                        {"draw_for_blind": True})
    twenty_one.act({"type": "start_deal"}, {"type": "draw", "player": "Ann"})  # the app draws

    acknowledged = {r.id: r.last for r in (kings, texas, twenty_one)}
    k = acknowledged[kings.id]["state"]
    assert k["seq"] == 21 and k["deal_number"] == 2
    assert k["kings_pot"] == 4 + 4  # the carried 4 and deal 2's antes
    assert {p["name"]: p["stack"] for p in k["players"]} == {"Ann": 93, "Bob": 97, "Cy": 93}
    assert k["pot_total"] == 9

    server.kill()
    server.start()
    for remote in (kings, texas, twenty_one):
        assert remote.state() == acknowledged[remote.id]["state"]
    deals = kings.deals()
    assert [(d["number"], d["kings_pot_after"], d["finished"] is not None) for d in deals] == [
        (1, 4, True), (2, 8, False)]
    assert deals[0]["result"]["winners"] == ["Bob"]
    # play on from where it stopped
    answer = kings.act({"type": "call", "player": "Bob"})
    assert answer["seq"] == 22
    assert {p["name"]: p["stack"] for p in answer["state"]["players"]} == {
        "Ann": 93, "Bob": 92, "Cy": 93}


def test_kill_9_while_actions_stream_in(start_server: Any, database: str) -> None:
    """A dealer taps as fast as the server answers (a raise, its undo, again); the server is
    killed mid-stream. Every answered action is on the file at its seq; at most the one in
    flight is there unanswered."""
    db = database
    server: Server = start_server(db)
    texas = Remote(server, "texas_dozen", ["Ann", "Bob"])
    texas.act({"type": "start_deal"}, {"type": "next"})
    answered: list[tuple[int, dict[str, Any]]] = []
    enough = threading.Event()

    def tap() -> None:
        bodies: list[dict[str, Any]] = [{"type": "raise", "player": "Ann", "amount": 4},
                                        {"type": "undo"}]
        i = 0
        while True:
            try:
                response = requests.post(
                    f"{server.url}/api/tables/{texas.id}/actions", json=bodies[i % 2],
                    headers=texas.headers, timeout=5)
            except requests.RequestException:
                return  # the server is gone
            if response.status_code != 200:
                return
            answered.append((response.json()["seq"], response.json()["state"]))
            i += 1
            if len(answered) >= 30:
                enough.set()

    tapper = threading.Thread(target=tap)
    tapper.start()
    assert enough.wait(60)
    server.kill()
    tapper.join(30)
    last_seq, last_state = answered[-1]
    assert [seq for seq, _ in answered] == list(range(3, last_seq + 1))
    server.start()
    state = texas.state()
    assert state["seq"] in (last_seq, last_seq + 1)
    if state["seq"] == last_seq:
        assert state == last_state
    records = requests.get(f"{server.url}/api/tables/{texas.id}/deals/1",
                           timeout=10).json()["actions"]
    assert [r["seq"] for r in records] == list(range(1, state["seq"] + 1))
    assert [r["action"]["type"] for r in records[2:last_seq]] == [
        "raise" if i % 2 == 0 else "undo" for i in range(last_seq - 2)]
