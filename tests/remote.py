"""A table on a real server, driven over HTTP with random legal play, beside a local mirror.

The mirror is the rules core's :class:`Table` fed the same records the server stored, so a
test can say what the server must show after every acknowledged action, and which cards are
still face down (``dealer_assist.web.state.hidden_cards``).
"""

from __future__ import annotations

import random
import time
from typing import Any

import requests

from dealer_assist.core.actions import Action
from dealer_assist.core.autoplay import legal_actions
from dealer_assist.core.table import Table
from dealer_assist.games.registry import CATALOGUE, new_setup
from dealer_assist.web.state import table_state

VARIANT_PLAYERS: dict[str, list[str]] = {
    "kings_pot": ["Ann", "Bob", "Cy"],
    "kings_pot_optional": ["Ann", "Bob", "Cy", "Di"],
    "texas_dozen": ["Ann", "Bob", "Cy"],
    "off_road_stud": ["Ann", "Bob", "Cy"],
    "twenty_one_hand_holdem": ["Ann", "Bob", "Cy"],
    "texas_holdem": ["Ann", "Bob", "Cy"],
}


class RemoteTable:
    def __init__(self, url: str, variant: str, players: list[str] | None = None,
                 rules: dict[str, Any] | None = None, name: str = "") -> None:
        self.url = url
        players = players or VARIANT_PLAYERS[variant]
        body = {"name": name or variant, "variant": variant, "players": players,
                "rules": rules or {}}
        response = requests.post(url + "/api/tables", json=body, timeout=10)
        assert response.status_code == 201, response.text
        made = response.json()
        self.id: str = made["id"]
        self.token: str = made["dealer_token"]
        self.headers = {"Authorization": f"Bearer {self.token}"}
        self.setup = new_setup(variant, players, rules or {}, body["name"])
        self.mirror = Table.from_setup(self.setup)
        self.chips = self.mirror.chips()

    # ------------------------------------------------------------------ acting
    def next_record(self, rng: random.Random, undo_rate: float = 0.0,
                    table: Table | None = None) -> Action | None:
        """A random legal record for ``table`` (the mirror by default), random draws made
        here so the mirror knows them; None when the game is over."""
        table = table or self.mirror
        if undo_rate and table.can_undo and rng.random() < undo_rate:
            return Action(type="undo")
        options = legal_actions(table, rng)
        if not options:
            return None
        return table.prepare(rng.choice(options))

    def post(self, record: Action | dict[str, Any], expect_seq: int | None = None,
             timeout: float = 10.0, session: Any = requests) -> requests.Response:
        body = record.to_json() if isinstance(record, Action) else dict(record)
        if expect_seq is not None:
            body["expect_seq"] = expect_seq
        return session.post(f"{self.url}/api/tables/{self.id}/actions", json=body,
                            headers=self.headers, timeout=timeout)

    def state(self, *, dealer: bool = True, url: str | None = None) -> dict[str, Any]:
        response = requests.get(f"{url or self.url}/api/tables/{self.id}",
                                headers=self.headers if dealer else {}, timeout=10)
        assert response.status_code == 200, response.text
        return response.json()

    def expected(self, table: Table | None = None, *, dealer: bool = True) -> dict[str, Any]:
        """The state the server must serve for ``table`` (the mirror by default)."""
        return {"id": self.id, **table_state(table or self.mirror, dealer=dealer)}

    # ------------------------------------------------------------------ reading back
    def records(self, url: str | None = None) -> list[dict[str, Any]]:
        """Every stored record, in seq order, as the dealer's history gives them."""
        base = f"{url or self.url}/api/tables/{self.id}/deals"
        deals = requests.get(base, timeout=10).json()
        out: list[dict[str, Any]] = []
        for deal in deals:
            answer = requests.get(f"{base}/{deal['number']}", headers=self.headers, timeout=10)
            assert answer.status_code == 200, answer.text
            out += answer.json()["actions"]
        # a start undone (R74) keeps its two records with its deal's number, while what
        # follows between deals goes with the deal before: in seq order, not deal order
        return sorted(out, key=lambda entry: entry["seq"])

    def replay(self, records: list[dict[str, Any]]) -> list[Table]:
        """The table at every seq: ``[table at 0, table at 1, ...]``, from the setup and the
        records alone (each must be legal on the table before it)."""
        assert [r["seq"] for r in records] == list(range(1, len(records) + 1))
        tables = [Table.from_setup(self.setup)]
        for entry in records:
            action = Action.from_json(entry["action"], CATALOGUE.place_fields)
            tables.append(tables[-1].apply(action))
        return tables


def sync(t: RemoteTable, table: Table, url: str, session: Any = requests) -> Table:
    """``table`` brought up to the server's last seq with the records stored after it.

    The deals list and each deal's records are separate requests: another client's record
    can land between them under a deal the list did not have yet (a start, or an undo that
    goes with a start, R74), so a read that leaves a gap in the seqs is read again."""
    for _ in range(20):
        entries = stored_after(t, table, url, session)
        if [e["seq"] for e in entries] == list(range(table.seq + 1, table.seq + 1 + len(entries))):
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"the stored records after seq {table.seq} have a gap: "
                             f"{[e['seq'] for e in entries]}")
    for entry in entries:
        table = table.apply(Action.from_json(entry["action"], CATALOGUE.place_fields))
    return table


def stored_after(t: RemoteTable, table: Table, url: str, session: Any) -> list[dict[str, Any]]:
    """The records the server has after ``table``'s seq, from the deals it knows, in order."""
    base = f"{url}/api/tables/{t.id}/deals"
    deals = session.get(base, timeout=10).json()
    current = table.totals.deal_number if table.deal is None else table.deal.totals.deal_number
    entries = []
    for deal in deals:
        # from the deal before: records after an undone start (R74) go with it
        if deal["number"] < current - 1:
            continue
        answer = session.get(f"{base}/{deal['number']}", headers=t.headers, timeout=10)
        assert answer.status_code == 200, answer.text
        entries += [e for e in answer.json()["actions"] if e["seq"] > table.seq]
    return sorted(entries, key=lambda e: e["seq"])
