"""The options of a home Hold'em night (issue 23), rule by rule, with figures worked out by
hand: the straddle (R63) and the big-blind ante (R64). PokerKit plays them too, at random
(tests/test_pokerkit.py), and the WSOP's recorded hands with a big-blind ante replay through
the API (tests/test_wsop_big_blind_ante.py)."""

from __future__ import annotations

import pytest
from conftest import new_table as api_table
from flask.testing import FlaskClient
from table_helpers import act, refuse, stacks

from dealer_assist.core.errors import IllegalActionError, SetupError
from dealer_assist.core.rules import rules_vocabulary
from dealer_assist.core.table import Table
from dealer_assist.games.registry import all_games, new_table

BBA_RULES = {"small_blind": 1, "big_blind": 2, "big_blind_ante": 3}


def started(variant: str = "texas_holdem", players: list[object] | None = None,
            rules: dict[str, object] | None = None) -> Table:
    t = new_table(variant, players or ["Ann", "Bob", "Cy", "Dee"], rules or BBA_RULES)
    t = act(t, type="start_deal")
    return act(t, type="next") if t.step()["kind"] == "next" else t


@pytest.mark.parametrize("variant", ["texas_holdem", "omaha", "texas_dozen"])
def test_r64_the_big_blind_posts_one_dead_ante_for_the_table_before_the_blind(
        variant: str) -> None:
    """Ann deals, Bob posts 1, Cy the ante of 3 and the blind of 2: the pot holds 6, but the
    bet to call is the blind's 2. Everyone folds to Cy: Cy takes the 6, the ante included."""
    t = started(variant)
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 95, "Dee": 100}
    assert t.deal is not None and t.deal.pot_total() == 6
    step = t.step()
    assert (step["player"], step["to_call"], step["min_raise_to"]) == ("Dee", 2, 4)
    assert "Cy posts the big-blind ante of 3." in t.deal.log
    for who in ("Dee", "Ann", "Bob"):
        t = act(t, type="fold", player=who)
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 101, "Dee": 100}


def test_r64_the_ante_is_dead_a_raise_nobody_calls_wins_it() -> None:
    """Dee raises to 10 and everyone folds: her 8 unmatched come back, and she wins the
    blinds and the big blind's ante, which is never a layer of Cy's own (R6)."""
    t = started()
    t = act(t, type="raise", player="Dee", amount=10)
    for who in ("Ann", "Bob", "Cy"):
        t = act(t, type="fold", player=who)
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 95, "Dee": 106}


def test_r64_a_short_big_blind_posts_the_ante_first_then_what_is_left() -> None:
    """Cy has 4: the ante of 3, then 1 of the blind, all in. Dee still calls the full blind
    (R5); Cy can win the main pot (the ante, 1 from each caller and his 1) and no more."""
    t = started(players=["Ann", "Bob", {"name": "Cy", "stack": 4}, "Dee"])
    assert stacks(t)["Cy"] == 0
    assert t.step()["to_call"] == 2
    t = act(t, type="call", player="Dee")
    t = act(t, type="fold", player="Ann")
    t = act(t, type="fold", player="Bob")
    while t.step()["kind"] == "reveal":
        t = act(t, type="reveal")
    t = act(t, type="showdown", board=["2c", "3d", "8h", "9s", "Jd"],
            hands={"Cy": ["As", "Ah"], "Dee": ["Ks", "Kh"]})
    # main pot: the ante 3 + 1 from Bob, Cy and Dee = 6 to Cy; Dee's other 1 comes back
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 6, "Dee": 99}


def test_r64_heads_up_the_big_blind_is_the_other_player() -> None:
    t = started(players=["Ann", "Bob"])
    assert stacks(t) == {"Ann": 99, "Bob": 95}  # Ann deals and posts the small blind (R60)
    assert t.step()["player"] == "Ann"


def test_r64_an_ante_and_a_big_blind_ante_together_are_refused(client: FlaskClient) -> None:
    with pytest.raises(SetupError, match="an ante or a big-blind ante, not both"):
        new_table("texas_holdem", ["Ann", "Bob"], {"ante": 1, "big_blind_ante": 2})
    answer = client.post("/api/tables", json={"variant": "texas_holdem", "players": ["A", "B"],
                                              "rules": {"ante": 1, "big_blind_ante": 2}})
    assert answer.status_code == 400 and "not both" in answer.get_json()["error"]
    dealer = api_table(client, "texas_holdem", ["Ann", "Bob", "Cy"], BBA_RULES)
    assert dealer.state()["rules"]["big_blind_ante"] == 3


def test_r63_r64_the_three_games_read_them_and_the_vocabulary_has_their_words() -> None:
    """The three games read both rules, and the home page offers them (it draws every rule
    from the served vocabulary)."""
    for rule in ("straddle", "big_blind_ante"):
        reading = {g.variant for g in all_games() if rule in g.house_rules}
        assert reading == {"texas_holdem", "omaha", "texas_dozen"}
        assert rule in {spec["name"] for spec in rules_vocabulary()}
    game = next(g for g in all_games() if g.variant == "texas_holdem")
    assert game.metadata()["rules"]["defaults"]["big_blind_ante"] == 0


STRADDLE = {"small_blind": 1, "big_blind": 2, "straddle": True}
FIVE = ["Ann", "Bob", "Cy", "Dee", "Eve"]


@pytest.mark.parametrize("variant", ["texas_holdem", "omaha", "texas_dozen"])
def test_r63_left_of_the_big_blind_straddles_and_acts_last_pre_flop(variant: str) -> None:
    """Ann deals; Bob posts 1, Cy 2, Dee straddles 4. Eve acts first, facing 4 (a raise is
    to 8 at least); when everyone has called, Dee still has the option."""
    t = started(variant, FIVE, STRADDLE)
    assert stacks(t) == {"Ann": 100, "Bob": 99, "Cy": 98, "Dee": 96, "Eve": 100}
    step = t.step()
    assert (step["player"], step["to_call"], step["min_raise_to"]) == ("Eve", 4, 8)
    for who in ("Eve", "Ann", "Bob", "Cy"):
        t = act(t, type="call", player=who)
    step = t.step()
    assert step["player"] == "Dee" and step["to_call"] == 0
    assert {"check", "raise"} <= set(step["options"])
    t = act(t, type="raise", player="Dee", amount=12)
    assert t.step()["player"] == "Eve"


def test_r63_start_deal_straddles_one_deal_whatever_the_rule() -> None:
    t = new_table("texas_holdem", FIVE, {"small_blind": 1, "big_blind": 2})
    t = act(t, type="start_deal", straddle=True)
    assert "Dee straddles for 4." in t.deal.log  # type: ignore[union-attr]
    for who in ("Eve", "Ann", "Bob", "Cy"):
        if t.step()["kind"] == "next":
            t = act(t, type="next")
        t = act(t, type="fold", player=who)
    assert stacks(t)["Dee"] == 103  # the straddle back and the blinds won
    t = act(t, type="start_deal")  # the next deal: the table's rule, no straddle
    assert not any("straddles" in line for line in t.deal.log)  # type: ignore[union-attr]
    t = new_table("texas_holdem", FIVE, STRADDLE)
    t = act(t, type="start_deal", straddle=False)
    assert stacks(t)["Dee"] == 100


def test_r63_no_straddle_heads_up_nor_in_fixed_limit() -> None:
    assert stacks(started(players=["Ann", "Bob"], rules=STRADDLE)) == {"Ann": 99, "Bob": 98}
    fixed = started(players=FIVE, rules={**STRADDLE, "betting": "fixed_limit"})
    assert stacks(fixed)["Dee"] == 100 and fixed.step()["player"] == "Dee"


def test_r63_a_short_straddle_is_all_in_and_the_others_still_call_it_in_full() -> None:
    t = started(players=["Ann", "Bob", "Cy", {"name": "Dee", "stack": 3}, "Eve"],
                rules=STRADDLE)
    assert stacks(t)["Dee"] == 0
    assert (t.step()["player"], t.step()["to_call"]) == ("Eve", 4)


def test_r63_r9_a_straddle_where_the_game_has_none_is_refused(client: FlaskClient) -> None:
    t = new_table("kings_pot", ["Ann", "Bob", "Cy"])
    with pytest.raises(IllegalActionError, match="has no straddle"):
        t.apply(t.prepare({"type": "start_deal", "straddle": True}))
    dealer = api_table(client, "texas_holdem", FIVE, {"small_blind": 1, "big_blind": 2})
    dealer.refuse({"type": "start_deal", "straddle": "yes"}, "straddle must be true or false")
    state = dealer.run({"type": "start_deal", "straddle": True})
    assert {p["name"]: p["stack"] for p in state["players"]}["Dee"] == 96


# --------------------------------------------------------------------------- R65 bomb pots
BLINDS = {"small_blind": 1, "big_blind": 2}


@pytest.mark.parametrize("variant", ["texas_holdem", "omaha", "texas_dozen"])
def test_r65_everyone_antes_the_bomb_pot_no_blind_and_the_flop_comes_first(variant: str) -> None:
    """Ann deals a bomb pot of 5 at a table that straddles and has a big-blind ante: each of
    the five antes 5 and nothing else is posted; after the hole cards the flop is turned with
    no betting, and Bob, left of the dealer, opens the flop's round."""
    t = new_table(variant, FIVE, {**BLINDS, "straddle": True, "big_blind_ante": 3})
    t = act(t, type="start_deal", bomb_pot=5)
    assert stacks(t) == dict.fromkeys(FIVE, 95)
    assert t.deal is not None and t.deal.pot_total() == 25 and t.deal.blinds == ()
    assert "Bomb pot: everyone antes 5." in t.deal.log
    t = act(t, type="next")
    step = t.step()
    assert step["kind"] == "reveal" and "flop" in step["instruction"]
    assert "options" not in step  # betting is possible: no running twice, no tabling
    t = act(t, type="reveal")
    step = t.step()
    assert (step["kind"], step["player"], step["to_call"]) == ("bet", "Bob", 0)
    assert step["round"] == "Flop" and {"check", "bet"} <= set(step["options"])
    assert step["min_raise_to"] == 1  # the minimum bet: no blind is the round's bet


def test_r65_a_short_stack_antes_all_it_has_and_wins_only_the_main_pot() -> None:
    """Cy has 3: he antes 3, all in. The main pot is 3 from each (12), the side pot 2 from
    each of the others (6). Everyone checks to the river; Cy's aces take the main pot, Dee's
    kings the side pot."""
    t = new_table("texas_holdem", ["Ann", "Bob", {"name": "Cy", "stack": 3}, "Dee"], BLINDS)
    t = act(act(t, type="start_deal", bomb_pot=5), type="next")
    assert stacks(t) == {"Ann": 95, "Bob": 95, "Cy": 0, "Dee": 95}
    assert [p.amount for p in t.deal.pots()] == [12, 6]  # type: ignore[union-attr]
    while t.step()["kind"] != "showdown":
        t = act(t, type="reveal") if t.step()["kind"] == "reveal" else act(
            t, type="check", player=t.step()["player"])
    t = act(t, type="showdown", board=["2c", "7d", "9h", "Js", "3c"], hands={
        "Ann": ["4d", "5d"], "Bob": ["Qd", "8s"], "Cy": ["As", "Ah"], "Dee": ["Ks", "Kh"]})
    assert stacks(t) == {"Ann": 95, "Bob": 95, "Cy": 12, "Dee": 101}


def test_r65_heads_up_in_fixed_limit_the_flop_is_a_small_bet_from_the_non_dealer() -> None:
    t = new_table("texas_holdem", ["Ann", "Bob"], {**BLINDS, "betting": "fixed_limit"})
    t = act(act(act(t, type="start_deal", bomb_pot=2), type="next"), type="reveal")
    step = t.step()
    assert (step["player"], step["min_raise_to"], step["max_raise_to"]) == ("Bob", 1, 1)


def test_r65_the_button_moves_on_and_the_next_deal_has_its_blinds_again() -> None:
    t = new_table("texas_holdem", ["Ann", "Bob", "Cy"], BLINDS)
    t = act(act(t, type="start_deal", bomb_pot=4), type="next")
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=10)
    t = act(act(t, type="fold", player="Cy"), type="fold", player="Ann")
    assert stacks(t) == {"Ann": 96, "Bob": 108, "Cy": 96}  # the 12 anted, and his 10 back
    t = act(t, type="start_deal")
    assert t.deal is not None and t.deal.players[t.deal.dealer].name == "Bob"
    assert stacks(t) == {"Ann": 94, "Bob": 108, "Cy": 95}  # Cy the small blind, Ann the big
    assert t.totals.bomb_pot == 4  # offered again between deals (web/state.py)


def test_r65_r9_a_bomb_pot_is_refused_where_it_cannot_be(client: FlaskClient) -> None:
    t = new_table("kings_pot", ["Ann", "Bob", "Cy"])
    refuse(t, "King's Pot has no bomb pot", type="start_deal", bomb_pot=5)
    t = new_table("off_road_stud", ["Ann", "Bob", "Cy"])
    refuse(t, "has no bomb pot", type="start_deal", bomb_pot=5)
    t = new_table("texas_holdem", FIVE, BLINDS)
    refuse(t, "A bomb pot has no straddle", type="start_deal", bomb_pot=5, straddle=True)
    refuse(t, "bomb_pot must be a whole number", type="start_deal", bomb_pot="lots")
    refuse(t, "bomb_pot must be from 0", type="start_deal", bomb_pot=-5)
    refuse(t, "A bet record has no field 'bomb_pot'", type="bet", player="Ann", amount=2,
           bomb_pot=5)
    assert stacks(act(t, type="start_deal", bomb_pot=0))["Cy"] == 98  # 0: no bomb pot
    dealer = api_table(client, "omaha", FIVE, BLINDS)
    state = dealer.run({"type": "start_deal", "bomb_pot": 3})
    assert [p["stack"] for p in state["players"]] == [97] * 5
    assert state["bomb_pot"] == 3
    assert [(p["player"], p["kind"], p["amount"]) for p in state["posted"]] == [
        (name, "bomb_pot", 3) for name in ("Bob", "Cy", "Dee", "Eve", "Ann")]
    assert not any("blind" in p for p in state["players"])


def test_r63_r65_between_deals_the_screen_offers_the_straddle_and_a_bomb_pot(
        client: FlaskClient) -> None:
    """The next deal's options, as the between-deals screen offers them: the straddle where
    it can be posted (the table's rule as the default), and a bomb pot of the rule's ante,
    twice the big blind without one, or the last bomb pot's."""
    dealer = api_table(client, "texas_holdem", FIVE, {**BLINDS, "straddle": True})
    games = {g["variant"]: g for g in dealer.state()["next_games"]}
    assert games["texas_holdem"]["deal_options"] == {"straddle": True, "bomb_pot": 4}
    assert games["omaha"]["deal_options"] == {"straddle": True, "bomb_pot": 4}
    assert "deal_options" not in games["kings_pot"] or games["kings_pot"]["deal_options"] == {}
    fixed = api_table(client, "texas_holdem", FIVE,
                      {**BLINDS, "betting": "fixed_limit", "bomb_pot_ante": 6})
    games = {g["variant"]: g for g in fixed.state()["next_games"]}
    assert games["texas_holdem"]["deal_options"] == {"bomb_pot": 6}
    state = dealer.run({"type": "start_deal", "bomb_pot": 7}, {"type": "next"},
                       {"type": "reveal"}, {"type": "bet", "player": "Bob", "amount": 1},
                       *({"type": "fold", "player": n} for n in ("Cy", "Dee", "Eve", "Ann")))
    games = {g["variant"]: g for g in state["next_games"]}
    assert games["texas_dozen"]["deal_options"]["bomb_pot"] == 7
