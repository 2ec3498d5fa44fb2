"""A hand mucked at the showdown (R6, issue 32): the dealer marks it mucked instead of entering
its cards; it loses, every pot keeps a hand that is shown, and the result says who mucked. In
every game, through undo and replay, the API and the PHH export.

Every chip count below is worked out by hand from the rules, not read back from the app.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Dealer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_helpers import act, check_round, refuse, stacks, to_showdown
from test_kings_pot import make_grid
from test_phh import pokerkit_replay

from dealer_assist.core.actions import Action
from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.layouts import CELLS_4, CELLS_5
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table
from dealer_assist.services import phh
from dealer_assist.web.state import table_state

STARTED = "2026-12-05T21:05:00+00:00"
NO_HELP = ["2c", "7d", "9s", "Jc", "3h"]  # a board that pairs nobody and makes nothing


def start(variant: str, players: list[Any], **rules: Any) -> Table:
    t = act(new_table(variant, players, rules), type="start_deal")
    return act(t, type="next") if t.step()["kind"] == "next" else t


def three_with_a_side_pot(variant: str = "texas_holdem", ann: int = 20, bet: int = 30,
                          **rules: Any) -> Table:
    """Ann (20) all in pre-flop, Bob and Cy call; Bob bets 30 on the flop, Cy calls, then
    checks to the river: a main pot of 60 (all three) and a side pot of 60 (Bob, Cy)."""
    t = start(variant, [{"name": "Ann", "stack": ann}, "Bob", "Cy"], **rules)
    t = act(t, type="all_in", player="Ann")
    t = act(t, type="call", player="Bob")
    t = act(t, type="call", player="Cy")
    t = act(t, type="reveal", cards=NO_HELP[:3])
    t = act(t, type="bet", player="Bob", amount=bet)
    t = act(t, type="call", player="Cy")
    for card in NO_HELP[3:]:
        t = check_round(act(t, type="reveal", cards=[card]))
    assert t.step()["kind"] == "showdown"
    return t


def result(t: Table) -> dict[str, Any]:
    out: dict[str, Any] = table_state(t)["result"]
    return out


# ----------------------------------------------------------------------- Texas Hold'em


def test_r6_a_mucked_hand_loses_and_the_result_says_who_mucked() -> None:
    """Cy mucks; Ann's aces take the main pot (60), Bob's kings the side pot (60)."""
    t = three_with_a_side_pot()
    assert t.step()["muckable"] == ["Ann", "Bob", "Cy"]
    t = act(t, type="showdown", muck=["Cy"], hands={"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"]})
    assert stacks(t) == {"Ann": 60, "Bob": 110, "Cy": 50}
    res = result(t)
    assert res["mucked"] == ["Cy"] and "Cy" not in res["hands"]
    assert [(p["amount"], p["winners"]) for p in res["pots"]] == [(60, ["Ann"]), (60, ["Bob"])]
    state = table_state(t)
    assert state["result_sentences"] == ["Main pot 60: Ann, a pair of aces.",
                                         "Side pot 60: Bob, a pair of kings.", "Cy mucked."]
    assert "Cy mucks." in state["log"]
    assert {p["name"]: p["status"] for p in state["players"]}["Cy"] == "mucked"


def test_r6_the_last_hand_of_a_pot_cannot_be_mucked() -> None:
    t = three_with_a_side_pot()
    refuse(t, "Cy's hand is needed: no other hand is left in the side pot.",
           type="showdown", muck=["Bob", "Cy"], hands={"Ann": ["As", "Ad"]})
    refuse(t, "Bob's hand is needed: no other hand is left in the side pot.",
           type="showdown", muck=["Cy", "Bob"], hands={"Ann": ["As", "Ad"]})
    refuse(t, "Cy's hand is needed: no other hand is left in the main pot.",
           type="showdown", muck=["Ann", "Bob", "Cy"])


def test_r6_a_mucked_main_pot_player_leaves_both_pots_to_the_others() -> None:
    """Ann mucks her all-in hand: the main pot goes to the best of Bob and Cy, who also take
    the side pot: Cy's queens beat Bob's fours for all 120."""
    t = three_with_a_side_pot()
    t = act(t, type="showdown", muck=["Ann"], hands={"Bob": ["4s", "4d"], "Cy": ["Qs", "Qd"]})
    assert stacks(t) == {"Ann": 0, "Bob": 50, "Cy": 170}
    assert result(t)["mucked"] == ["Ann"]


def test_r6_a_pot_with_one_hand_needs_it_and_the_step_says_so() -> None:
    """Ann all in for 20, Bob raises to 50, Cy calls, Bob bets 10 on the flop and Cy folds:
    the side pot (60, Cy's folded 30 in it) is Bob's alone, so his hand is needed; Ann may
    muck, and then Bob takes both pots (120) without a contest."""
    t = start("texas_holdem", [{"name": "Ann", "stack": 20}, "Bob", "Cy"])
    t = act(t, type="all_in", player="Ann")
    t = act(t, type="raise", player="Bob", amount=50)
    t = act(t, type="call", player="Cy")
    t = act(t, type="reveal", cards=NO_HELP[:3])
    t = act(t, type="bet", player="Bob", amount=10)
    t = act(t, type="fold", player="Cy")
    t = to_showdown(t)
    assert (t.step()["players"], t.step()["muckable"]) == (["Ann", "Bob"], ["Ann"])
    refuse(t, "Bob's hand is needed: no other hand is left in the side pot.",
           type="showdown", board=NO_HELP[3:], muck=["Bob"], hands={"Ann": ["As", "Ad"]})
    t = act(t, type="showdown", board=NO_HELP[3:], muck=["Ann"], hands={"Bob": ["4s", "5d"]})
    assert stacks(t) == {"Ann": 0, "Bob": 170, "Cy": 50}


def test_r6_r9_what_cannot_be_mucked_is_refused_with_a_sentence() -> None:
    t = start("texas_holdem", ["Ann", "Bob", "Cy"])
    t = act(t, type="fold", player="Ann")
    t = to_showdown(t)
    board = {"board": NO_HELP}
    refuse(t, "Ann has no hand to muck: only a hand still in is mucked.",
           type="showdown", muck=["Ann"], hands={"Bob": ["As", "Ad"], "Cy": ["Ks", "Kd"]},
           **board)
    refuse(t, "There is no player called Zed at this table.", type="showdown", muck=["Zed"],
           hands={"Bob": ["As", "Ad"], "Cy": ["Ks", "Kd"]}, **board)
    refuse(t, "Cy's hand is both given and mucked: give its cards or muck it.",
           type="showdown", muck=["Cy"], hands={"Bob": ["As", "Ad"], "Cy": ["Ks", "Kd"]},
           **board)
    refuse(t, "Enter Cy's 2 hole cards, or muck Cy's hand.", type="showdown",
           hands={"Bob": ["As", "Ad"], "Cy": []}, **board)
    refuse(t, 'muck must be a list of players, such as \\["Cat"\\].', type="showdown",
           muck="Cy", **board)
    refuse(t, "A check record has no field 'muck'", type="check", player="Bob", muck=["Cy"])


def test_r67_a_tabled_hand_plays_and_the_other_may_muck() -> None:
    """Heads up all in pre-flop, Ann's hand tabled: hers cannot be mucked, Bob's can; Bob
    mucks and Ann takes all 200 without Bob's cards."""
    t = start("texas_holdem", ["Ann", "Bob"])
    t = act(t, type="all_in", player="Ann")
    t = act(t, type="call", player="Bob")
    t = act(t, type="show", hands={"Ann": ["2s", "7h"]})
    while t.step()["kind"] == "reveal":
        t = act(t, type="reveal")
    assert (t.step()["players"], t.step()["muckable"]) == (["Bob"], ["Bob"])
    refuse(t, "Ann's cards are tabled \\(R67\\): a tabled hand plays; undo the show to muck it.",
           type="showdown", board=NO_HELP, muck=["Ann"], hands={"Bob": ["As", "Ad"]})
    t = act(t, type="showdown", board=NO_HELP, muck=["Bob"])
    assert stacks(t) == {"Ann": 200, "Bob": 0}
    assert result(t)["mucked"] == ["Bob"]


def test_r66_a_board_run_twice_with_a_hand_mucked() -> None:
    """Run twice, Bob mucks: Ann takes both halves (200)."""
    t = start("texas_holdem", ["Ann", "Bob"])
    t = act(t, type="all_in", player="Ann")
    t = act(t, type="call", player="Bob")
    t = act(t, type="run_twice")
    while t.step()["kind"] == "reveal":
        t = act(t, type="reveal")
    board = [*NO_HELP, "Qc", "Qd", "8h", "4h", "5s"]
    t = act(t, type="showdown", board=board, muck=["Bob"], hands={"Ann": ["2d", "6h"]})
    assert stacks(t) == {"Ann": 200, "Bob": 0}
    assert [p["winners"] for p in result(t)["pots"]] == [["Ann"], ["Ann"]]


def test_r8_undo_a_showdown_with_a_muck_and_replay_it() -> None:
    t = three_with_a_side_pot()
    before = table_state(t, dealer=True)
    after = act(t, type="showdown", muck=["Cy"], hands={"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"]})
    undone = act(after, type="undo")
    assert table_state(undone, dealer=True)["step"] == before["step"]
    assert {p["name"]: p["status"] for p in table_state(undone)["players"]}["Cy"] == "in"
    assert stacks(undone) == stacks(t)
    replayed = Table.replay(after.setup, after.base, list(after.actions),
                            seq=after.seq - len(after.actions))
    assert table_state(replayed)["result"] == result(after)
    record = after.actions[-1]
    assert record.to_json()["muck"] == ["Cy"]
    assert Action.from_json(record.to_json()) == record


# ----------------------------------------------------------------------- every other game


def heads_up_to_showdown(variant: str) -> Table:
    t = act(new_table(variant, ["Ann", "Bob"], {}), type="start_deal")
    while (kind := t.step()["kind"]) != "showdown":
        t = check_round(t) if kind == "bet" else act(t, type=kind)
    assert t.step()["muckable"] == ["Ann", "Bob"]
    return t


def deck_without(*cards: str) -> list[str]:
    return [c for c in FULL_DECK if c not in cards]


def test_r6_r62_omaha_a_hand_mucked() -> None:
    """Omaha heads up, blinds called and checked down: 4 in the pot; Ann mucks, Bob's four
    cards take it."""
    t = heads_up_to_showdown("omaha")
    refuse(t, "Bob's hand is needed: no other hand is left in the pot.", type="showdown",
           board=NO_HELP, muck=["Ann", "Bob"])
    t = act(t, type="showdown", board=NO_HELP, muck=["Ann"],
            hands={"Bob": ["4s", "5d", "8c", "Th"]})
    assert stacks(t) == {"Ann": 98, "Bob": 102}
    assert result(t)["mucked"] == ["Ann"] and list(result(t)["hands"]) == ["Bob"]


@pytest.mark.parametrize(("variant", "cells", "hole", "pot"), [
    ("texas_dozen", CELLS_5, 2, 4), ("off_road_stud", CELLS_4, 3, 2)])
def test_r6_r32_r42_a_grid_game_hand_mucked(variant: str, cells: tuple[str, ...], hole: int,
                                            pot: int) -> None:
    """Heads up, checked down (Texas Dozen's blinds 1 and 2 called: 4; Off-Road Stud's antes:
    2); Bob mucks and Ann takes the pot with her cards whatever they make."""
    t = heads_up_to_showdown(variant)
    ann = deck_without()[:hole]
    grid = dict(zip(cells, deck_without(*ann), strict=False))
    t = act(t, type="showdown", cells=grid, muck=["Bob"], hands={"Ann": ann})
    assert stacks(t) == {"Ann": 100 + pot // 2, "Bob": 100 - pot // 2}
    res = result(t)
    assert res["mucked"] == ["Bob"] and res["winners"] == ["Ann"]
    assert table_state(t)["result_sentences"][-1] == "Bob mucked."


def test_r55_twenty_one_hand_holdem_a_hand_mucked() -> None:
    """Hand 1, everyone pays every step: the blind (Ann) pays 4, Bob and Cy 1 each; Ann mucks
    and Bob's cards beat Cy's: Bob takes the 6 and the bank's chip."""
    t = act(new_table("twenty_one_hand_holdem", ["Ann", "Bob", "Cy"], {}), type="start_deal")
    while t.step()["kind"] != "showdown":
        step = t.step()
        t = act(t, type="pay", player=step["player"]) if step["kind"] == "pay" else act(
            t, type=step["kind"])
    assert stacks(t) == {"Ann": 0, "Bob": 3, "Cy": 3}
    refuse(t, "Cy's hand is needed: no other hand is left in the pot.", type="showdown",
           board=["Kc", "Qd", "7h", "4s", "2c"], muck=["Ann", "Bob", "Cy"])
    t = act(t, type="showdown", board=["Kc", "Qd", "7h", "4s", "2c"], muck=["Ann"],
            hands={"Bob": ["Ks", "Kd"], "Cy": ["3h", "5d"]})
    assert stacks(t) == {"Ann": 0, "Bob": 10, "Cy": 3}
    assert table_state(t)["bank"] == 20
    assert result(t)["mucked"] == ["Ann"]


@pytest.mark.parametrize("variant", ["kings_pot", "kings_pot_optional"])
def test_r26_r28_kings_pot_a_mucked_players_cards_back_no_line(variant: str) -> None:
    """Cy's 9 backs column 4, a straight flush, the best line; Bob's king backs four sevens,
    Ann's ace a weak row 1. Bob bets 2, both call: 6 in the pot, 3 in the king's pot. Cy mucks:
    column 4 is no longer backed, the king's hand wins: Bob takes the pot and the king's pot."""
    t = new_table(variant, ["Ann", "Bob", "Cy"], {"ante": 1})
    t = act(t, type="start_deal")
    for name in ("Bob", "Cy", "Ann"):
        t = act(t, type="buy", player=name, count=1)
    for name, card in (("Bob", "K"), ("Cy", "9"), ("Ann", "A")):
        t = act(t, type="deal_cards", player=name, cards=[card])
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=2)
    t = act(t, type="call", player="Cy")
    t = act(t, type="call", player="Ann")
    while t.step()["kind"] != "showdown":
        t = check_round(t) if t.step()["kind"] == "bet" else act(t, type="reveal")
    assert t.step()["muckable"] == ["Ann", "Bob", "Cy"]
    kings = "7c 7d 7h 7s 2c"
    grid = make_grid({"col4": "9s Ts Js Qs Ks"}, kings=kings, held="9 K A")
    body = {"type": "showdown", "cells": grid, "kings_hand": kings.split()}
    refuse(t, "Bob's hand is needed: no other hand is left in the pot.",
           **body, muck=["Ann", "Cy", "Bob"])
    t = act(t, **body, muck=["Cy"])
    assert stacks(t) == {"Ann": 97, "Bob": 106, "Cy": 97}
    res = result(t)
    assert res["winning_lines"] == ["king"] and res["kings_pot_won"] == 3
    assert res["mucked"] == ["Cy"] and res["lines"]["col4"]["backed"] is False
    assert table_state(t)["result_sentences"][1] == "Cy mucked."
    assert "9" not in [c for p in table_state(t)["players"] for c in p.get("live_cards", [])]


# ----------------------------------------------------------------------- chips, the API


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(short=st.lists(st.integers(1, 120), min_size=4, max_size=4),
       mucks=st.lists(st.booleans(), min_size=4, max_size=4))
def test_r3_r6_chips_are_conserved_and_only_shown_hands_win(short: list[int],
                                                           mucks: list[bool]) -> None:
    """Four players of any stacks all in pre-flop; any of them mucked: either the showdown is
    refused with a sentence, or every chip is paid, and only to hands shown."""
    names = ["Ann", "Bob", "Cy", "Dee"]
    t = start("texas_holdem", [{"name": n, "stack": s} for n, s in zip(names, short,
                                                                       strict=True)])
    while t.step()["kind"] == "bet":
        t = act(t, type="all_in" if "all_in" in t.step()["options"] else "call",
                player=t.step()["player"])
    while t.step()["kind"] == "reveal":
        t = act(t, type="reveal")
    if t.step()["kind"] != "showdown":
        return  # one player left: no showdown
    players = t.step()["players"]
    muck = [n for n, m in zip(names, mucks, strict=True) if m and n in players]
    deck = iter(deck_without(*NO_HELP))
    body = {"type": "showdown", "board": NO_HELP, "muck": muck,
            "hands": {n: [next(deck), next(deck)] for n in players if n not in muck}}
    try:
        after = t.apply(t.prepare(body))
    except ValueError as err:
        assert str(err).endswith("pot.") and "hand is needed" in str(err)
        assert muck
        return
    assert after.chips() == t.chips() == sum(short)
    paid = result(after)["payouts"]
    assert sum(paid.values()) == sum(short) - sum(p.stack for p in t.deal.players)  # type: ignore[union-attr]
    assert not set(paid) & set(muck)


def test_the_api_takes_a_muck_and_the_history_says_it(make_table: Any) -> None:
    dealer: Dealer = make_table("texas_holdem", ["Ann", "Bob", "Cy"])
    dealer.run({"type": "start_deal"}, {"type": "next"})
    while (step := dealer.state()["step"])["kind"] != "showdown":
        if step["kind"] == "bet":
            dealer.run({"type": "call" if step["to_call"] else "check",
                        "player": step["player"]})
        else:
            dealer.run({"type": "reveal"})
    assert dealer.state()["step"]["muckable"] == ["Ann", "Bob", "Cy"]
    dealer.refuse({"type": "showdown", "board": NO_HELP, "muck": ["Ann", "Bob", "Cy"]},
                  "Cy's hand is needed: no other hand is left in the pot.")
    state = dealer.run({"type": "showdown", "board": NO_HELP, "muck": ["Ann", "Cy"],
                        "hands": {"Bob": ["4s", "5d"]}})
    assert state["result"]["mucked"] == ["Ann", "Cy"]
    assert state["result_sentences"][-1] == "Ann and Cy mucked."
    assert dealer.stacks() == {"Ann": 98, "Bob": 104, "Cy": 98}
    deals = dealer.client.get(f"/api/tables/{dealer.id}/deals").get_json()
    assert deals[0]["result"]["mucked"] == ["Ann", "Cy"]
    deal = dealer.client.get(f"/api/tables/{dealer.id}/deals/1").get_json()
    assert deal["actions"][-1]["action"]["muck"] == ["Ann", "Cy"]


# ----------------------------------------------------------------------- PHH


@pytest.mark.parametrize(("variant", "ann", "bob", "after"), [
    # no limit: Ann's 20 all in, Bob bets 30: pots of 60 and 60
    ("texas_holdem", ["As", "Ad"], ["Ks", "Kd"], {"Ann": 60, "Bob": 110, "Cy": 50}),
    # pot limit (PHH's Omaha): Ann's 6 all in, Bob bets the pot, 18: pots of 18 and 36
    ("omaha", ["As", "Ad", "4c", "6d"], ["Ks", "Kd", "8h", "8d"],
     {"Ann": 18, "Bob": 112, "Cy": 76})])
def test_r6_a_mucked_hand_is_written_as_phh_writes_a_muck_and_pokerkit_agrees(
        variant: str, ann: list[str], bob: list[str], after: dict[str, int]) -> None:
    """PHH's ``sm`` with no cards is a muck: PokerKit replays the export to our stacks (Ann's
    aces take the main pot, Bob's kings the side pot, Cy's hand mucked), and the app's import
    reads it back as the same showdown."""
    t = (three_with_a_side_pot() if variant == "texas_holdem" else
         three_with_a_side_pot(variant, ann=6, bet=18))
    base = Table.from_setup(t.setup).totals
    t = act(t, type="showdown", muck=["Cy"], hands={"Ann": ann, "Bob": bob})
    assert stacks(t) == after
    records = [a.to_json() for a in t.actions]
    for full in (True, False):
        fields = phh.deal_fields(t.setup, base, records, number=1, started=STARTED,
                                 full=full, first=[])
        names = fields["players"]
        cy = f"p{names.index('Cy') + 1}"
        assert f"{cy} sm" in fields["actions"]
        assert fields["finishing_stacks"] == [stacks(t)[n] for n in names]
        assert pokerkit_replay(phh.dumps(fields))[0] == fields["finishing_stacks"]
    back = phh.read_table(phh.dumps({**fields, "_setup": t.setup.to_json()}))
    showdown = back["actions"][-1]["action"]
    assert (showdown["type"], showdown["muck"]) == ("showdown", ["Cy"])


def test_a_grid_game_muck_exports_and_imports_back() -> None:
    t = heads_up_to_showdown("texas_dozen")
    base = Table.from_setup(t.setup).totals
    grid = dict(zip(CELLS_5, deck_without("As", "Ad"), strict=False))
    t = act(t, type="showdown", cells=grid, muck=["Bob"], hands={"Ann": ["As", "Ad"]})
    records = [a.to_json() for a in t.actions]
    fields = phh.deal_fields(t.setup, base, records, number=1, started=STARTED, full=True,
                             first=[])
    back = phh.read_table(phh.dumps({**fields, "_setup": t.setup.to_json()}))
    assert back["actions"][-1]["action"] == records[-1]
