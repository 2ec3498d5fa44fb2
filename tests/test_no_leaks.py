"""No public payload holds the dealer token or a card still face down at the table (issue 5).

Full deals of every game are played with random legal play (autoplay) through the HTTP API of
a real server process, while a phone (a python-socketio client over a real websocket) follows
in the public room. After every action the public state (GET), the deal list, the deal with
its records and every ``state`` event the phone received are scanned; every few actions and
at each deal's end, so is every public GET route of the url_map (walked, so the history,
ledger, exports, charts and pages added later are scanned too). Each deal is played at a table
of its own, so that every payload of the table is about that one deal.

"Face down" is ``dealer_assist.web.state.hidden_cards`` on the rules core's table, which the test
keeps in step with the server (King's Pot players' cards before the showdown, folded cards,
an uncontested winner's cards). A card is looked for as its code (``Ah``, as a word), as the
pages draw it (``A♥``) and in words (``ace of hearts``).
"""

from __future__ import annotations

import json
import queue
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
import requests
import socketio as socketio_client
from conftest import Server
from figures import record
from remote import VARIANT_PLAYERS, RemoteTable

from dealer_assist.core.cards import card_name, pretty
from dealer_assist.web.app import create_app
from dealer_assist.web.state import hidden_cards

pytestmark = pytest.mark.timeout(300)

DEALS_PER_GAME = 3
WALK_EVERY = 6  # actions between two walks of every public route


def leaks(text: str, token: str, hidden: set[str]) -> list[str]:
    found = [f"the dealer token {token[:6]}..."] if token in text else []
    lowered = text.lower()
    for card in sorted(hidden):
        if re.search(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])", text):
            found.append(card)
        elif pretty(card) in text or card_name(card) in lowered:
            found.append(f"{card} (as {pretty(card)} or {card_name(card)!r})")
    return found


def public_routes(tmp_path: Path) -> list[str]:
    """Every GET route that names a table (built once from an app of this code)."""
    app = create_app(db_path=tmp_path / "routes.db", testing=True)
    return sorted({str(rule.rule) for rule in app.url_map.iter_rules()
                   if "GET" in (rule.methods or set()) and "<table_id>" in str(rule.rule)})


def route_paths(rule: str, table_id: str) -> list[str]:
    path = rule.replace("<table_id>", table_id).replace("<int:number>", "1")
    if "<name>" in path:  # the charts: every name the history page draws
        return [path.replace("<name>", n) for n in ("stacks", "kings_pot", "standings")]
    return [re.sub(r"<[^>]+>", "x", path)]


class Phone:
    """One phone following every table of the test in its public room (a join per table;
    one connection, since closing a websocket client takes a while)."""

    def __init__(self, url: str) -> None:
        self.states: queue.Queue[dict[str, Any]] = queue.Queue()
        self.tables: list[str] = []
        self.sio = socketio_client.Client(reconnection_delay=0.2, reconnection_delay_max=0.5)
        self.sio.on("connect", lambda: [self.sio.emit("join", {"table": t})
                                        for t in self.tables])
        self.sio.on("state", self.states.put)
        self.sio.connect(url, transports=["websocket"], wait_timeout=10)

    def follow(self, table_id: str) -> None:
        self.tables.append(table_id)
        self.sio.emit("join", {"table": table_id})

    def heard(self, table_id: str, seq: int, timeout: float = 10.0) -> list[dict[str, Any]]:
        """The states of ``table_id`` received until one at ``seq``."""
        out: list[dict[str, Any]] = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and (not out or out[-1]["seq"] < seq):
            try:
                state = self.states.get(timeout=0.5)
            except queue.Empty:
                continue
            assert state["id"] == table_id  # the tables before are over: they say nothing
            out.append(state)
        return out


def test_no_public_payload_leaks_the_token_or_a_face_down_card(
    start_server: Any, tmp_path: Path
) -> None:
    server: Server = start_server(tmp_path / "leaks.db")
    routes = public_routes(tmp_path)
    rng = random.Random(5)
    scanned = {"states": 0, "events": 0, "history": 0, "routes": 0}
    deals = actions = 0
    session = requests.Session()

    def check(what: str, text: str, t: RemoteTable, hidden: set[str]) -> None:
        found = leaks(text, t.token, hidden)
        assert not found, f"{what} at seq {t.mirror.seq} shows {found}:\n{text[:2000]}"

    def walk(t: RemoteTable, hidden: set[str]) -> None:
        for rule in routes:
            for path in route_paths(rule, t.id):
                response = session.get(server.url + path, timeout=20)
                assert response.status_code < 500, (path, response.text[:300])
                check(path, response.text, t, hidden)
                scanned["routes"] += 1

    phone = Phone(server.url)
    controls = 0
    try:
        for variant in VARIANT_PLAYERS:
            for _ in range(DEALS_PER_GAME):
                t = RemoteTable(server.url, variant)
                phone.follow(t.id)
                hidden_at: dict[int, set[str]] = {0: set()}
                for _ in range(2000):  # a deal ends long before
                    action = t.next_record(rng, undo_rate=0.05)
                    assert action is not None
                    response = t.post(action, session=session)
                    assert response.status_code == 200, (action, response.text)
                    t.mirror = t.mirror.apply(action)
                    actions += 1
                    hidden = hidden_cards(t.mirror)
                    hidden_at[t.mirror.seq] = hidden
                    public = session.get(f"{server.url}/api/tables/{t.id}", timeout=10)
                    assert public.json() == t.expected(dealer=False)
                    check("GET state", public.text, t, hidden)
                    # the control: the dealer's own state does show what the phones may not
                    controls += bool(hidden and leaks(response.text, "-" * 40, hidden))
                    for path in ("/deals", "/deals/1"):
                        text = session.get(f"{server.url}/api/tables/{t.id}{path}",
                                           timeout=10).text
                        check(path, text, t, hidden)
                        scanned["history"] += 1
                    scanned["states"] += 1
                    if t.mirror.deal_over or t.mirror.seq % WALK_EVERY == 0:
                        walk(t, hidden)
                    if t.mirror.deal_over:
                        break
                deals += 1
                # every state the phone heard, against the cards face down at its seq
                heard = phone.heard(t.id, t.mirror.seq)
                assert heard and heard[-1] == t.expected(dealer=False)
                for state in heard:
                    check("socket state", json.dumps(state, ensure_ascii=False), t,
                          hidden_at[state["seq"]])
                scanned["events"] += len(heard)
    finally:
        phone.sio.disconnect()
    assert controls > 0  # the scan finds face-down cards where they may be shown
    assert deals == DEALS_PER_GAME * len(VARIANT_PLAYERS)
    record("no_leaks", games=len(VARIANT_PLAYERS), deals=deals, actions=actions,
           public_states=scanned["states"], socket_states=scanned["events"],
           history_payloads=scanned["history"], route_payloads=scanned["routes"],
           dealer_states_with_hidden_cards=controls)
