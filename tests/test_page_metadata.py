"""What the pages read from the server instead of knowing it (issue 21, issue 22): every
game's extra card places and carried pots, one vocabulary of house rules, the pay step's
buttons, and what each player won or lost in a deal (not what they took back)."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.core.autoplay import play_deal
from dealer_assist.core.rules import RULE_SPEC, HouseRules, rules_line, rules_vocabulary
from dealer_assist.games.registry import all_games, game_class, games_json, new_table, variants
from dealer_assist.web.state import table_state
from tests.table_helpers import act


def test_every_house_rule_is_declared_once_and_every_offered_rule_is_in_it() -> None:
    """One vocabulary: every field of ``HouseRules`` the pages may set has one entry, and
    every rule a game offers on the home page is described there."""
    names = [entry["name"] for entry in rules_vocabulary()]
    assert len(names) == len(set(names))
    assert set(names) == {f.name for f in dataclasses.fields(HouseRules)}
    for game in all_games():
        assert set(game.house_rules) <= set(names), game.variant
    betting = RULE_SPEC["betting"].to_json()
    assert [c["value"] for c in betting["choices"]] == ["no_limit", "fixed_limit", "pot_limit"]
    assert RULE_SPEC["small_bet"].to_json()["betting"] == ["fixed_limit"]
    assert RULE_SPEC["min_bet"].to_json()["betting"] == ["no_limit", "pot_limit"]


def test_r76_the_banker_is_the_table_s_rule_offered_with_every_game() -> None:
    """The home page offers the banker with whichever game the table is made for, as a choice
    of the players typed, unset meaning the host; no game lists it as a rule it reads."""
    table_rules = [e for e in rules_vocabulary() if e["every_game"]]
    assert table_rules == [{"name": "banker", "label": "Banker", "kind": "player",
                            "help": RULE_SPEC["banker"].help, "betting": None,
                            "every_game": True, "nobody": "The host"}]
    assert not any("banker" in game.house_rules for game in all_games())


def test_r5_a_line_of_rules_says_only_what_the_structure_reads() -> None:
    """R5: fixed limit reads the small and big bet, not the minimum bet; the others the
    reverse; an ante of 0 and rules left at their plain choice are not said."""
    base = {"ante": 0, "min_bet": 2, "small_bet": 3, "big_bet": 6, "small_blind": 1,
            "big_blind": 2, "odd_chip": "left_of_dealer"}
    assert rules_line({**base, "betting": "no_limit"}) == "No limit · blinds 1/2 · min bet 2"
    assert rules_line({**base, "betting": "fixed_limit", "ante": 1, "odd_chip": "carry"}) == (
        "Fixed limit · blinds 1/2 · ante 1 · small bet 3 · big bet 6 · odd chips carry")
    assert rules_line({"river_raise": True, "wilds": "deuces", "draw_for_blind": False}) == (
        "river raise · deuces wild")


def test_r71_the_between_deals_choices_carry_their_rules_in_a_line() -> None:
    t = new_table(variants()[0], ["Ann", "Bob", "Cy"])
    choices = {c["variant"]: c for c in table_state(t, dealer=True)["next_games"]}
    for variant, choice in choices.items():
        if "rules" in choice:
            assert choice["rules_line"] == rules_line(choice["rules"]), variant


def test_every_page_can_draw_every_game_from_the_metadata() -> None:
    """A game's extra places and carried pots are data the pages draw (issue 21): a place
    names the record's field that fills it and the line a result names when it wins."""
    for meta in games_json():
        game = game_class(meta["variant"])
        assert meta["places"] == [p.to_json() for p in game.places]
        assert meta["carried"] == [{"key": p.key, "title": p.title} for p in game.carried_pots]
        assert meta["stake_word"] == ("card" if game.stakes_per_card else None)
        for place in meta["places"]:
            assert place["cards"] > 0 and place["field"] and place["line"]


def _first_with_place() -> str:
    return next(g.variant for g in all_games() if g.places)


def test_r28_r72_a_carried_pot_is_shown_and_waits_through_another_game() -> None:
    """R28: the game that keeps a pot shows it; R72: dealt another game, the pot is shown as
    waiting, with its amount, and nowhere else changed."""
    variant = _first_with_place()
    game = game_class(variant)
    key = game.carried_pots[0].key
    t = new_table(variant, ["Ann", "Bob", "Cy"])
    t = act(t, type="start_deal")
    for name, count in (("Bob", 2), ("Cy", 0), ("Ann", 0)):  # one buyer: no play (R29)
        t = act(t, type="buy", player=name, count=count)
    pots = table_state(t)["carried_pots"]
    assert pots[0]["key"] == key and pots[0]["waiting"] is False
    assert pots[0]["amount"] == 2 == table_state(t)[key]
    other = next(g for g in all_games() if not g.carried_pots and not g.whole_game)
    t = act(t, type="start_deal", variant=other.variant)
    waiting = table_state(t)["carried_pots"]
    assert waiting == [{"key": key, "title": game.carried_pots[0].title, "amount": 2,
                        "waiting": True, "words": f"{game.carried_pots[0].title} waiting: 2"}]


def test_r52_the_pay_step_names_its_buttons() -> None:
    """R52: the blind's first payment may sit the hand out, later ones fold; the pages take
    the buttons' words from the step."""
    whole = next(g for g in all_games() if g.whole_game)
    t = act(new_table(whole.variant, ["Ann", "Bob"]), type="start_deal")
    step = t.step()
    assert step["kind"] == "pay"
    assert (step["fold_label"], step["pay_label"]) == ("Sit out", f"{step['player']} pays 1")


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(variants()), seed=st.integers(0, 10**6))
def test_r3_a_deals_net_is_each_stack_change_and_balances_the_table(variant: str,
                                                                    seed: int) -> None:
    """R3: ``result.net`` is each dealt-in player's stack after the deal less before it, so
    a winner's own chips back are not counted as won; with the chips the table still holds
    outside the stacks, the nets add up to nothing."""
    rng = random.Random(seed)
    low, high = game_class(variant).players
    t = new_table(variant, [f"P{i}" for i in range(rng.randint(low, min(high, 6)))])
    before = dict(zip(t.totals.names, t.totals.stacks, strict=True))
    outside_before = t.chips() - sum(t.totals.stacks)
    t = play_deal(t, rng)
    assert t.deal is not None and t.deal.result is not None
    net = t.deal.result.net
    assert net is not None
    after = dict(zip(t.totals.names, t.totals.stacks, strict=True))
    assert net == {p.name: after[p.name] - before[p.name] for p in t.deal.players}
    outside_after = t.chips() - sum(t.totals.stacks)
    assert sum(net.values()) + (outside_after - outside_before) == 0
    assert table_state(t)["result"]["net"] == net
