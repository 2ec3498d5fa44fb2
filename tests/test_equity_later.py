"""R67's costly chances are worked out off the event loop and follow in a later state
(issue 32): the dealer's answer never waits for them.

A real ``dealer-assist serve`` (gevent); ten players of Omaha all in pre-flop table their
hands over Socket.IO. The acknowledgement says the chances are being worked out; a later
``state`` of the same seq, to the dealer and to a phone, carries them, and they are
``core/equity.py``'s own figures for those cards.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
import socketio
from conftest import Server

from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.equity import EXACT_EVALUATIONS, HandRule, equity, evaluations
from dealer_assist.web.equity_later import INLINE_EVALUATIONS
from dealer_assist.web.state import PENDING_NOTE

pytestmark = pytest.mark.timeout(120)

NAMES = [f"P{i}" for i in range(10)]


class Client:
    """A python-socketio client that joins a table and keeps every state it hears, with
    the moment it heard it."""

    def __init__(self, url: str, table: str, token: str | None = None) -> None:
        self.states: list[tuple[float, dict[str, Any]]] = []
        self.heard = threading.Condition()
        self.sio = socketio.Client(reconnection=False)
        self.sio.on("state", self._state)
        self.sio.connect(url, transports=["websocket"], wait_timeout=10)
        self.sio.emit("join", {"table": table, **({"token": token} if token else {})})
        self.wait_for(lambda s: True)

    def _state(self, state: dict[str, Any]) -> None:
        with self.heard:
            self.states.append((time.perf_counter(), state))
            self.heard.notify_all()

    def wait_for(self, wanted: Any, timeout: float = 60) -> tuple[float, dict[str, Any]]:
        with self.heard:
            assert self.heard.wait_for(
                lambda: any(wanted(s) for _, s in self.states), timeout), self.states[-1:]
            return next((at, s) for at, s in self.states if wanted(s))


def all_in_pre_flop(server: Server) -> dict[str, Any]:
    made = server.create_table("omaha", NAMES, rules={"betting": "no_limit"})
    status, answer = server.api("POST", f"/api/tables/{made['id']}/actions",
                                {"type": "start_deal"}, token=made["dealer_token"])
    while status == 200 and answer["state"]["step"]["kind"] != "reveal":
        step = answer["state"]["step"]
        body = ({"type": "all_in" if "all_in" in step["options"] else "call",
                 "player": step["player"]} if step["kind"] == "bet" else {"type": step["kind"]})
        status, answer = server.api("POST", f"/api/tables/{made['id']}/actions", body,
                                    token=made["dealer_token"])
    assert status == 200 and answer["state"]["step"]["options"] == ["run_twice", "show"]
    return made


def test_r67_ten_way_omaha_all_in_pre_flop_is_acknowledged_before_its_chances(
    tmp_path: Path, servers: list[Server]
) -> None:
    server = Server(tmp_path / "equity.db", tmp_path / "server.log")
    servers.append(server.start())
    made = all_in_pre_flop(server)
    hands = {name: list(FULL_DECK[4 * i:4 * i + 4]) for i, name in enumerate(NAMES)}
    # what the server must not work out on its loop: beyond counting, and beyond the inline
    cost = evaluations(hands, [[]], rule=HandRule.TWO_PLUS_THREE)
    assert cost > EXACT_EVALUATIONS and cost > 10 * INLINE_EVALUATIONS, cost
    tablet = Client(server.url, made["id"], made["dealer_token"])
    phone = Client(server.url, made["id"])
    try:
        sent = time.perf_counter()
        ack = tablet.sio.call("action", {"table": made["id"], "action": {
            "type": "show", "hands": hands}}, timeout=30)
        acked = time.perf_counter()
        assert ack["status"] == 200, ack
        seq = ack["seq"]
        assert ack["state"]["equity"] is None and ack["state"]["equity_pending"] is True
        assert ack["state"]["equity_note"] == PENDING_NOTE
        assert all(p["tabled"] for p in ack["state"]["players"])

        def with_figures(state: dict[str, Any]) -> bool:
            return state["seq"] == seq and state.get("equity") is not None

        later, state = tablet.wait_for(with_figures)
        _, public = phone.wait_for(with_figures)
    finally:
        tablet.sio.disconnect()
        phone.sio.disconnect()
    assert sent < acked < later, (sent, acked, later)  # the answer came first
    # the phones heard the state at this seq without the figures first, as the dealer did
    assert any(s["seq"] == seq and s.get("equity_pending") for _, s in phone.states)
    direct = equity(hands, [[]], rule=HandRule.TWO_PLUS_THREE)
    for shown in (state, public):
        assert shown["equity"] == {name: round(share, 4)
                                   for name, share in direct.shares.items()}
        assert (shown["equity_exact"], shown["equity_margin"], shown["equity_samples"]) == (
            direct.exact, direct.margin, direct.samples)
        assert "equity_pending" not in shown
    # a state asked for now has them at once, and so has the next reader's join
    status, now = server.api("GET", f"/api/tables/{made['id']}")
    assert status == 200 and now["equity"] == state["equity"] and now["seq"] == seq
    print(f"[figures] equity later: ack {1000 * (acked - sent):.0f} ms, figures "
          f"{1000 * (later - sent):.0f} ms after the tap, {cost:,} evaluations")


def test_r67_a_flop_all_in_is_cheap_and_in_the_answer_itself(
    tmp_path: Path, servers: list[Server]
) -> None:
    """Three Hold'em hands on the flop: a few thousand rankings, counted exactly at once."""
    server = Server(tmp_path / "flop.db", tmp_path / "server.log")
    servers.append(server.start())
    made = server.create_table("texas_holdem", ["Ann", "Bob", "Cat"])
    token = made["dealer_token"]

    def act(body: dict[str, Any]) -> dict[str, Any]:
        status, answer = server.api("POST", f"/api/tables/{made['id']}/actions", body,
                                    token=token)
        assert status == 200, answer
        return dict(answer["state"])

    state = act({"type": "start_deal"})
    while "show" not in state["step"].get("options", []):
        step = state["step"]
        flop = any(state["grid"]["board"])
        if step["kind"] == "bet":  # everyone in to the flop, then all in on it
            kind = next(k for k in (("all_in", "call") if flop else ("call", "check"))
                        if k in step["options"])
            state = act({"type": kind, "player": step["player"]})
        elif step["kind"] == "reveal":
            state = act({"type": "reveal", "cards": ["2c", "7d", "Jh"]})
        else:
            state = act({"type": step["kind"]})
    hands = {"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"], "Cat": ["Qs", "Qd"]}
    board = [c for c in state["grid"]["board"] if c]
    assert evaluations(hands, [board]) <= INLINE_EVALUATIONS
    shown = act({"type": "show", "hands": hands})
    direct = equity(hands, [board])
    assert shown["equity"] == {n: round(s, 4) for n, s in direct.shares.items()}
    assert shown["equity_exact"] is True and "equity_pending" not in shown
