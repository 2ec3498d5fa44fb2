"""Short-deck Hold'em (R87): Texas Hold'em with the 36 cards of six to ace and the short deck's
values (R79), no limit, 2 to 9 players, and a table of antes with the dealer's button blind as
PokerKit's short-deck game plays it; run twice and tabled hands with equity over the 36 cards
(R88); on the dealer's-choice menu (R88). Exact chips, refusals in words."""

from __future__ import annotations

import re

import pytest
from table_helpers import act, check_round, refuse, stacks, to_showdown
from test_equity import brute_force

from dealer_assist.core.equity import HandRule
from dealer_assist.core.errors import SetupError
from dealer_assist.core.table import Table
from dealer_assist.games.registry import game_class, new_table
from dealer_assist.services.dealers_choice import next_game_choices
from dealer_assist.web.state import table_state

SHORT = "short_deck_holdem"
BUTTON_BLIND = {"small_blind": 0, "big_blind": 2, "ante": 1}


def checked_down(players: list[str], rules: dict[str, object] | None = None) -> Table:
    t = act(act(new_table(SHORT, players, rules), type="start_deal"), type="next")
    return to_showdown(t)


def test_r87_two_to_nine_players_no_limit_only() -> None:
    assert game_class(SHORT).players == (2, 9)
    assert new_table(SHORT, ["Ann", "Bob"]).setup.rules.betting == "no_limit"
    with pytest.raises(SetupError, match="fixed_limit"):
        new_table(SHORT, ["Ann", "Bob"], {"betting": "fixed_limit"})
    with pytest.raises(SetupError, match="Short-deck Hold'em is for 2 to 9 players, not 10"):
        new_table(SHORT, [f"P{i}" for i in range(10)])


def test_r87_the_deck_is_36_cards_and_a_card_below_six_is_refused_with_a_sentence() -> None:
    assert game_class(SHORT).metadata()["deck_ranks"] == ["6", "7", "8", "9", "T", "J", "Q",
                                                          "K", "A"]
    assert len(game_class(SHORT).deck) == 36
    t = act(act(new_table(SHORT, ["Ann", "Bob"]), type="start_deal"), type="next")
    t = check_round(t)
    refuse(t, re.escape("5♦ is not in the deck of Short-deck Hold'em: its 36 cards run from "
                        "six to ace."), type="reveal", cards=["As", "5d", "9c"])
    t = to_showdown(t)
    refuse(t, re.escape("2♣ is not in the deck of Short-deck Hold'em"), type="showdown",
           board=["As", "Kd", "9c", "8h", "7s"], hands={"Ann": ["2c", "Ac"], "Bob": ["Qs", "Qd"]})
    # the same card in Texas Hold'em is a card like any other
    hold = to_showdown(act(act(new_table("texas_holdem", ["Ann", "Bob"]), type="start_deal"),
                           type="next"))
    act(hold, type="showdown", board=["As", "Kd", "9c", "8h", "7s"],
        hands={"Ann": ["2c", "Ac"], "Bob": ["Qs", "Qd"]})


def test_r87_r79_a_flush_beats_a_full_house() -> None:
    """Ann's flush beats Bob's full house (R79's short deck; in Texas Hold'em it would lose)."""
    t = checked_down(["Ann", "Bob"])
    t = act(t, type="showdown", board=["Qh", "7h", "7c", "Th", "6s"],
            hands={"Ann": ["Ah", "Kh"], "Bob": ["Qs", "Qd"]})
    result = table_state(t)["result"]
    assert result["hands"]["Ann"]["hand"] == "Flush, ace high"
    assert result["hands"]["Bob"]["hand"] == "Full house, queens full of sevens"
    assert result["winners"] == ["Ann"] and stacks(t) == {"Ann": 102, "Bob": 98}


def test_r87_r79_ace_six_to_nine_is_the_lowest_straight() -> None:
    """A-6-7-8-9 is a straight, nine high, and loses to Bob's 6-7-8-9-T."""
    t = checked_down(["Ann", "Bob"])
    t = act(t, type="showdown", board=["6h", "7d", "8c", "9s", "Kd"],
            hands={"Ann": ["Ac", "Qd"], "Bob": ["Tc", "Jh"]})
    hands = table_state(t)["result"]["hands"]
    assert hands["Ann"]["hand"] == "Straight, nine high"
    assert hands["Ann"]["cards"] == ["9s", "8c", "7d", "6h", "Ac"]
    assert hands["Bob"]["hand"] == "Straight, jack high"
    assert stacks(t) == {"Ann": 98, "Bob": 102}


def test_r87_antes_only_the_dealer_posts_the_button_blind_and_acts_last_pre_flop() -> None:
    """Small blind 0: everyone antes 1 and the dealer (Ann) posts the big blind of 2 on the
    button; pre-flop Bob, left of the dealer, acts first and Ann last, with her option; from
    the flop Bob first again."""
    t = act(new_table(SHORT, ["Ann", "Bob", "Cy"], BUTTON_BLIND), type="start_deal")
    assert stacks(t) == {"Ann": 97, "Bob": 99, "Cy": 99}
    assert t.deal is not None and t.deal.log[-2:] == ["Everyone antes 1.",
                                                      "Ann posts the big blind of 2."]
    marks = {p["name"]: p.get("blind") for p in table_state(t)["players"]}
    assert marks == {"Ann": "blind", "Bob": None, "Cy": None}
    t = act(t, type="next")
    assert (t.step()["player"], t.step()["to_call"]) == ("Bob", 2)
    t = act(act(t, type="call", player="Bob"), type="call", player="Cy")
    step = t.step()
    assert step["player"] == "Ann" and "check" in step["options"] and "raise" in step["options"]
    t = act(t, type="check", player="Ann")
    t = act(t, type="reveal")
    assert t.step()["player"] == "Bob"


def test_r87_heads_up_the_button_blind_is_the_other_players_as_pokerkit_posts_it() -> None:
    """Heads up (R60, and PokerKit's short deck reverses its blinds there): Bob, not the
    dealer, posts the blind; Ann (the dealer) acts first pre-flop, Bob first after."""
    t = act(new_table(SHORT, ["Ann", "Bob"], BUTTON_BLIND), type="start_deal")
    assert stacks(t) == {"Ann": 99, "Bob": 97}
    t = act(t, type="next")
    assert (t.step()["player"], t.step()["to_call"]) == ("Ann", 2)
    t = act(act(t, type="call", player="Ann"), type="check", player="Bob")
    t = act(t, type="reveal")
    assert t.step()["player"] == "Bob"


def test_r88_r66_r67_run_twice_and_tabled_hands_over_the_36_cards() -> None:
    """All in on the flop, the hands tabled: the equity counts the 36-card deck's turns and
    rivers (as PokerKit's short-deck hands rank them); run twice, each half on its own board:
    Ann's flush comes on the first run only."""
    t = new_table(SHORT, [{"name": "Ann", "stack": 20}, {"name": "Bob", "stack": 20}])
    t = act(act(t, type="start_deal"), type="next")
    t = check_round(t)
    t = act(t, type="reveal", cards=["Qh", "7h", "7c"])
    t = act(act(t, type="all_in", player="Bob"), type="all_in", player="Ann")
    hands = {"Ann": ["Ah", "Kh"], "Bob": ["Qs", "Qd"]}
    t = act(t, type="show", hands=hands)
    expected = brute_force(hands, ["Qh", "7h", "7c"], HandRule.SHORT_DECK)
    state = table_state(t)
    assert state["equity"] == {name: round(float(share), 4) for name, share in expected.items()}
    assert state["equity_exact"] is True
    t = act(t, type="run_twice")
    while t.step()["kind"] == "reveal":
        t = act(t, type="reveal")
    t = act(t, type="showdown", board=["Qh", "7h", "7c", "6h", "8s", "Js", "Tc"])
    assert stacks(t) == {"Ann": 20, "Bob": 20}  # 40 halved: 20 each way
    words = t.game.result_sentences(t.deal.result)  # type: ignore[union-attr]
    assert words == ["Pot 40, first run's half 20: Ann, an ace-high flush.",
                     "Pot 40, second run's half 20: Bob, a full house, queens full of sevens."]


def test_r88_no_straddle_bomb_pot_or_big_blind_ante_in_short_deck() -> None:
    t = new_table("texas_holdem", ["Ann", "Bob", "Cy"])
    refuse(t, re.escape("Short-deck Hold'em has no straddle (R63)."), type="start_deal",
           variant=SHORT, straddle=True)
    refuse(t, re.escape("Short-deck Hold'em has no bomb pot (R65)."), type="start_deal",
           variant=SHORT, bomb_pot=4)
    with pytest.raises(SetupError, match=re.escape(
            "Short-deck Hold'em has no big-blind ante or straddle (R88)")):
        new_table(SHORT, ["Ann", "Bob"], {"big_blind_ante": 2})


def test_r88_short_deck_is_on_the_dealers_choice_menu_for_2_to_9_players() -> None:
    menu = {e["variant"]: e for e in next_game_choices(new_table("omaha", ["A", "B"]))}
    assert "refusal" not in menu[SHORT]
    ten = {e["variant"]: e for e in next_game_choices(
        new_table("texas_holdem", [f"P{i}" for i in range(10)]))}
    assert ten[SHORT]["refusal"] == "Short-deck Hold'em is for 2 to 9 players dealt in, not 10."
    t = act(new_table("omaha", ["Ann", "Bob", "Cy"]), type="start_deal", variant=SHORT)
    assert t.deal is not None and t.deal.rules.betting == "no_limit"  # its own default
    assert "two hole cards" in t.step()["instruction"]
