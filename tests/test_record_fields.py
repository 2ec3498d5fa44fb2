"""Records hold only the fields their type uses (API.md "Actions"): a field the type does not
read is refused with a sentence naming it, on the way in and on import, so no stored or
published record carries what it should not (a ``check`` with the player's cards)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import new_table
from flask.testing import FlaskClient

from dealer_assist.core.actions import ACTION_TYPES, FIELDS_OF, Action
from dealer_assist.core.errors import InvalidActionError
from dealer_assist.games.registry import CATALOGUE
from dealer_assist.services import history


def test_every_action_type_lists_the_fields_it_takes() -> None:
    assert set(ACTION_TYPES) <= set(FIELDS_OF)


@pytest.mark.parametrize(("body", "field"), [
    ({"type": "check", "player": "Bob", "cards": ["Kh", "7c"]}, "cards"),
    ({"type": "call", "player": "Bob", "kings_hand": ["Kh"]}, "kings_hand"),
    ({"type": "next", "player": "Bob"}, "player"),
    ({"type": "undo", "amount": 3}, "amount"),
    ({"type": "bet", "player": "Bob", "amount": 4, "card": "Ah"}, "card"),
    ({"type": "reveal", "hands": {"Bob": ["Ah", "Kd"]}}, "hands"),
    ({"type": "draw", "player": "Bob", "cards": ["Ah"]}, "cards"),
])
def test_r9_a_field_the_type_does_not_use_is_refused_by_name(body: dict[str, Any],
                                                              field: str) -> None:
    with pytest.raises(InvalidActionError, match=rf"A {body['type']} record has no field "
                                                 rf"'{field}': it takes ") as err:
        Action.from_json(body, CATALOGUE.place_fields)
    assert str(err.value).endswith(".")


def test_the_fields_a_type_uses_are_still_taken() -> None:
    assert Action.from_json({"type": "fold", "player": "Bob", "card": "Kh"}).card == "Kh"
    assert Action.from_json({"type": "reveal", "cards": {"r1c1": "Kh"}}).cells == (
        ("r1c1", "Kh"),)
    assert Action.from_json({"type": "reveal", "cards": ["Kh", "7c"]}).cards == ("Kh", "7c")
    assert Action.from_json({"type": "check", "player": "Bob", "cards": None}).cards is None
    assert Action.from_json({"type": "next", "expect_seq": 3}).type == "next"


def test_a_check_with_cards_is_refused_and_nothing_is_stored(client: FlaskClient) -> None:
    d = new_table(client, "texas_dozen", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"}, {"type": "next"})
    player = d.state()["step"]["player"]
    answer = d.refuse({"type": "call", "player": player, "cards": ["Kh", "7c"]},
                      "A call record has no field 'cards'")
    assert answer["error"] == "A call record has no field 'cards': it takes only player."
    deal = client.get(f"/api/tables/{d.id}/deals/1").get_json()
    assert "Kh" not in json.dumps(deal)


def test_an_import_with_a_card_on_a_check_is_refused(client: FlaskClient) -> None:
    d = new_table(client, "texas_dozen", ["Ann", "Bob", "Cy"])
    d.run({"type": "start_deal"}, {"type": "next"})
    exported = client.get(f"/api/tables/{d.id}/export.json", headers=d.headers).get_json()
    player = d.state()["step"]["player"]
    exported["actions"].append({"seq": 3, "time": exported["actions"][-1]["time"],
                                "action": {"type": "call", "player": player,
                                           "cards": ["Kh", "7c"]}})
    with pytest.raises(history.ImportRefused, match=r"Record 3 \(call\) cannot be replayed: "
                                                    r"A call record has no field 'cards'"):
        history.rebuild(exported)
    answer = client.post("/api/tables/import", json=exported)
    assert answer.status_code == 400
    assert "has no field 'cards'" in answer.get_json()["error"]
