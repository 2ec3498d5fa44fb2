"""Enums, not loose strings: action types and the house rules that are a choice of words are
StrEnums, so every JSON shape and stored record keeps the same strings."""

from __future__ import annotations

import json

import orjson
import pytest

from dealer_assist.core.actions import ACTION_TYPES, Action, ActionType
from dealer_assist.core.errors import SetupError
from dealer_assist.core.rules import Betting, OddChip, Wilds
from dealer_assist.games.registry import new_table
from dealer_assist.web.state import table_state


def test_a_record_reads_into_an_action_type_and_writes_the_same_string() -> None:
    action = Action.from_json({"type": "call", "player": "Bob"})
    assert action.type is ActionType.CALL and action.type == "call"
    assert json.dumps(action.to_json()) == '{"type": "call", "player": "Bob"}'
    assert type(action.to_json()["type"]) is str
    assert repr(action) == "Action(type='call', player='Bob')"
    assert "undo" in ACTION_TYPES and len(ACTION_TYPES) == len(set(ACTION_TYPES))


def test_the_rules_are_enums_inside_and_the_same_strings_in_the_state() -> None:
    t = new_table("texas_dozen", ["Ann", "Bob", "Cy"],
                     {"betting": "pot_limit", "odd_chip": "carry"})
    rules = t.setup.rules
    assert rules.betting is Betting.POT_LIMIT and rules.odd_chip is OddChip.CARRY
    assert rules.wilds is Wilds.NONE
    shown = table_state(t)["rules"]
    assert shown["betting"] == "pot_limit" and type(shown["betting"]) is str
    assert b'"betting":"pot_limit"' in orjson.dumps(table_state(t))


@pytest.mark.parametrize(("rules", "sentence"), [
    ({"betting": "x" * 60_000}, "betting must be no_limit, pot_limit or fixed_limit."),
    ({"betting": ["no_limit"]}, "betting must be no_limit, pot_limit or fixed_limit."),
    ({"odd_chip": "right"}, "odd_chip must be left_of_dealer or carry."),
    ({"wilds": {"jokers": 1}}, "wilds must be none, jokers or deuces."),
])
def test_a_word_that_is_no_choice_is_refused_even_where_a_game_has_no_betting_list(
        rules: dict[str, object], sentence: str) -> None:
    with pytest.raises(SetupError) as err:
        new_table("twenty_one_hand_holdem", ["Ann", "Bob", "Cy"], rules)
    assert str(err.value) == sentence
