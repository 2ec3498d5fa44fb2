"""An undone showdown's cards are face down again (issue 14, finding 7): the public records of
the deal and its public replay show that a showdown was entered and undone, never the
players' cards it named; the dealer still sees them."""

from __future__ import annotations

import json
import random
from typing import Any

from conftest import Dealer, new_table
from flask.testing import FlaskClient

from dealer_assist.core.actions import Action
from dealer_assist.core.autoplay import legal_actions
from dealer_assist.games import registry
from dealer_assist.web.records import undone_seqs

QUIET = ("start_deal", "next", "check", "call", "showdown")


def get(d: Dealer, path: str, dealer: bool = False) -> Any:
    response = d.client.get(f"/api/tables/{d.id}{path}", headers=d.headers if dealer else {})
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def play_to_an_undone_showdown(client: FlaskClient) -> tuple[Dealer, list[str]]:
    """A Texas Dozen deal checked down to its showdown, the showdown entered, then undone:
    the dealer and the hole cards it named."""
    d = new_table(client, "texas_dozen", ["Ann", "Bob"])
    table = registry.new_table("texas_dozen", ["Ann", "Bob"])
    rng = random.Random(14)
    for _ in range(60):
        options = [a for a in legal_actions(table, rng) if a["type"] in QUIET
                   or (a["type"] == "reveal" and a.get("cards"))]
        body = options[-1] if options else {"type": "reveal"}
        answer = d.act(body)
        record = get(d, f"/deals/{answer['state']['deal_number']}", dealer=True)["actions"][-1]
        table = table.apply(Action.from_json(record["action"], registry.CATALOGUE.place_fields))
        if body["type"] == "showdown":
            hands = [card for cards in record["action"]["hands"].values() for card in cards]
            d.act({"type": "undo"})
            return d, hands
    raise AssertionError("no showdown reached")


def test_an_undone_showdowns_hole_cards_stay_hidden_in_public_records_and_replays(
    client: FlaskClient,
) -> None:
    d, hands = play_to_an_undone_showdown(client)
    assert len(hands) == 4
    public_deal = json.dumps(get(d, "/deals/1"))
    public_replay = json.dumps(get(d, "/deals/1/replay"))
    public_state = json.dumps(d.state())
    for card in hands:
        for text in (public_deal, public_replay, public_state):
            assert f'"{card}"' not in text, card
    steps = get(d, "/deals/1/replay")["steps"]
    undone = [s for s in steps if s["action"]["type"] == "showdown"]
    assert len(undone) == 1 and undone[0]["label"] == "Showdown (undone after)."
    assert all(card == "?" for cards in undone[0]["action"]["hands"].values() for card in cards)
    # the dealer still sees what was entered
    dealer_deal = json.dumps(get(d, "/deals/1", dealer=True))
    assert all(f'"{card}"' in dealer_deal for card in hands)


def test_undone_seqs_follow_the_undo_stack() -> None:
    records = [(1, "start_deal"), (2, "next"), (3, "reveal"), (4, "undo"), (5, "undo"),
               (6, "next"), (7, "showdown"), (8, "undo")]
    assert undone_seqs(records) == {3, 2, 7}
    assert undone_seqs([(1, "undo")]) == set()


