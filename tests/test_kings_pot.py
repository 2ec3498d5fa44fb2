"""King's Pot and King's Pot Optional Play, exactly as RULES.md says (R20-R29), with the
common rules as they apply to them (R3, R5-R9).

Showdowns are built from explicit grid cards (:func:`make_grid`), so every test knows which
line wins and asserts exact chips, winners, lines and cells. The property test at the end plays
random legal deals (and random illegal actions) of both variants.
"""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.core.autoplay import legal_actions, unused_cards
from dealer_assist.core.cards import FULL_DECK, RANKS
from dealer_assist.core.errors import DealerAssistError, IllegalActionError, SetupError
from dealer_assist.core.hands import rank_five
from dealer_assist.core.layouts import CELLS_5, LINES_5, REVEAL_SETS_5
from dealer_assist.core.table import Table
from dealer_assist.games import registry
from dealer_assist.games.kings_pot import LINE_OF_RANK, max_cards_per_player
from dealer_assist.web.state import hidden_cards, table_state

VARIANTS = ("kings_pot", "kings_pot_optional")
NAMES = (
    "Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max",
    "Ned", "Oz", "Pam", "Quin", "Rex", "Sue", "Tom", "Uma", "Vic",
)
WEAK = {"high_card", "pair"}  # what every line a test does not design may hold
WEAK_KINGS = "2h 8d Jd 4c Qd"  # a king's hand of queen high
STEP_KINDS = {"start_deal", "buy", "deal_cards", "reveal", "bet", "showdown"}

# R10's diagram, copied here from RULES.md so that the layout is checked against the text and
# not against the code under test.
R10_DIAGRAM = """
1 4 2 5 3
2 5 3 1 4
3 1 4 2 5
4 2 5 3 1
5 3 1 4 2
"""


def r10_set(n: int) -> list[str]:
    rows = [line.split() for line in R10_DIAGRAM.strip().splitlines()]
    # the cells of a set row by row, left to right: the order the app names them in
    return [f"r{r + 1}c{c + 1}" for r in range(5) for c in range(5) if rows[r][c] == str(n)]


# ------------------------------------------------------------------------------ helpers
def new_table(n: int = 3, variant: str = "kings_pot", stacks: dict[str, int] | None = None,
              **rules: Any) -> Table:
    stacks = stacks or {}
    players: list[Any] = [
        {"name": name, "stack": stacks[name]} if name in stacks else name for name in NAMES[:n]
    ]
    return registry.new_table(variant, players, rules)


def act(t: Table, **body: Any) -> Table:
    """Apply ``body`` and check that no chip appeared or vanished (R3)."""
    after = t.apply(t.prepare(body))
    assert after.chips() == t.chips(), body
    return after


def refuse(t: Table, **body: Any) -> str:
    """Check that ``body`` is refused and changes nothing (R9); return the sentence."""
    before = copy.deepcopy(table_state(t, dealer=True))
    chips = t.chips()
    with pytest.raises(DealerAssistError) as info:  # malformed, or against the rules
        t.apply(t.prepare(body))
    message = str(info.value)
    assert len(message) > 15 and message.endswith("."), message
    assert table_state(t, dealer=True) == before
    assert t.chips() == chips
    return message


def stacks(t: Table) -> dict[str, int]:
    return {p["name"]: p["stack"] for p in table_state(t)["players"]}


def player(t: Table, name: str, *, dealer: bool = False) -> dict[str, Any]:
    return next(p for p in table_state(t, dealer=dealer)["players"] if p["name"] == name)


def buy(t: Table, counts: dict[str, int]) -> Table:
    """Buy in turn order; every player not named buys none."""
    if t.deal_over:
        t = act(t, type="start_deal")
    while t.step()["kind"] == "buy":
        who = t.step()["player"]
        t = act(t, type="buy", player=who, count=counts.get(who, 0))
    return t


def deal_cards(t: Table, hands: dict[str, list[str]]) -> Table:
    while t.step()["kind"] == "deal_cards":
        who = t.step()["player"]
        t = act(t, type="deal_cards", player=who, cards=hands[who])
    return t


def ready(hands: dict[str, list[str]], n: int = 3, variant: str = "kings_pot",
          stacks: dict[str, int] | None = None, **rules: Any) -> Table:
    """A table whose first deal is bought and dealt: each named player buys their cards."""
    t = new_table(n, variant, stacks, **rules)
    t = buy(t, {name: len(cards) for name, cards in hands.items()})
    return deal_cards(t, hands)


def checks(t: Table) -> Table:
    """Everyone to act checks until the betting round is over."""
    while t.step()["kind"] == "bet":
        t = act(t, type="check", player=t.step()["player"])
    return t


def to_showdown(t: Table) -> Table:
    """Turn and check through until the showdown."""
    while t.step()["kind"] in ("reveal", "bet"):
        t = act(t, type="reveal") if t.step()["kind"] == "reveal" else checks(t)
    assert t.step()["kind"] == "showdown"
    return t


def make_grid(lines: dict[str, str], *, kings: str = WEAK_KINGS, held: str = "",
              seed: int = 0) -> dict[str, str]:
    """The 25 cells: each designed line holds its cards (in LINES_5's order), and every other
    line gets filler cards that make at most one pair, so the designed lines are the strong
    ones. ``held`` are the players' cards (full or rank only), kept out of the filler, and no
    rank appears more than four times in all."""
    cells: dict[str, str] = {}
    for line, text in lines.items():
        for cell_name, card in zip(LINES_5[line], text.split(), strict=True):
            assert cells.get(cell_name, card) == card, f"{line} disagrees at {cell_name}"
            cells[cell_name] = card
    used = [*cells.values(), *kings.split()]
    assert len(set(used)) == len(used), "a card is designed twice"
    pool = [c for c in FULL_DECK if c not in used and c not in held.split()]
    for text in held.split():
        if len(text) == 1:  # a rank alone: one card of that rank is out of the deck
            pool.remove(next(c for c in pool if c[0] == text))
    free = [c for c in CELLS_5 if c not in cells]
    rng = random.Random(seed)
    for _ in range(20000):
        rng.shuffle(pool)
        grid = {**cells, **dict(zip(free, pool, strict=False))}
        if all(rank_five([grid[c] for c in LINES_5[name]]).category in WEAK
               for name in LINES_5 if name not in lines):
            return grid
    raise AssertionError("no filler found")


def showdown(t: Table, grid: dict[str, str], kings: str = WEAK_KINGS) -> Table:
    return act(t, type="showdown", cells=grid, kings_hand=kings.split())


def strings(value: Any) -> list[str]:
    """Every string inside a state (keys included)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings(v)]
    return []


def cards_in(state: dict[str, Any]) -> set[str]:
    """Every full card written anywhere in a state, log lines included."""
    return {m for s in strings(state) for m in re.findall(r"\b[2-9TJQKA][cdhs]\b", s)}


def without_seq(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("seq", "undone")}


# Straight flushes and other hands to design lines with.
SF_9 = "5c 6c 7c 8c 9c"


# ------------------------------------------------------------------------------ R20
@pytest.mark.parametrize("variant", VARIANTS)
def test_r20_three_to_twenty_two_players(variant: str) -> None:
    for n in (2, 23):
        with pytest.raises(SetupError, match=rf"is for 3 to 22 players, not {n}\."):
            registry.new_table(variant, [f"P{i}" for i in range(n)])
    for n in (3, 22):
        assert len(table_state(registry.new_table(variant, list(NAMES[:n])))["players"]) == n


@pytest.mark.parametrize("variant", VARIANTS)
def test_r20_grid_and_kings_hand_start_face_down(variant: str) -> None:
    t = act(new_table(4, variant), type="start_deal")
    for state in (table_state(t), table_state(t, dealer=True)):
        assert state["grid"]["cells"] == dict.fromkeys(CELLS_5)
        assert state["kings_hand"] == []
        assert state["kings_pot"] == 0


@pytest.mark.parametrize("n", range(3, 23))
def test_r20_the_22_cards_left_cover_every_full_buy(n: int) -> None:
    # 52 - 25 grid cards - 5 king's cards = 22 for the players: R22's maxima never need more.
    assert n * max_cards_per_player(n) <= 52 - 25 - 5


def test_r20_three_players_can_all_buy_seven() -> None:
    hands = {"Bob": list("A234567"), "Cy": list("89TJQKA"), "Ann": list("2345678")}
    t = ready(hands)
    assert t.step()["kind"] == "reveal"
    assert table_state(t)["kings_pot"] == 21
    assert stacks(t) == {"Ann": 93, "Bob": 93, "Cy": 93}


# ------------------------------------------------------------------------------ R21
def test_r21_rank_to_line_table() -> None:
    assert LINE_OF_RANK == {
        "A": "row1", "2": "row2", "3": "row3", "4": "row4", "5": "row5",
        "6": "col1", "7": "col2", "8": "col3", "9": "col4", "T": "col5",
        "J": "diag", "Q": "anti", "K": "king",
    }
    assert LINES_5["diag"] == ("r1c1", "r2c2", "r3c3", "r4c4", "r5c5")
    assert LINES_5["anti"] == ("r5c1", "r4c2", "r3c3", "r2c4", "r1c5")  # bottom left up
    assert LINES_5["col4"] == ("r1c4", "r2c4", "r3c4", "r4c4", "r5c4")


def test_r21_dealer_sees_the_line_each_card_backs() -> None:
    t = ready({"Bob": list("A234567"), "Cy": list("89TJQK")})
    assert player(t, "Bob", dealer=True)["lines"] == [
        "row1", "row2", "row3", "row4", "row5", "col1", "col2"]
    assert player(t, "Cy", dealer=True)["lines"] == [
        "col3", "col4", "col5", "diag", "anti", "king"]


@pytest.mark.parametrize("rank", list(RANKS))
def test_r21_each_rank_wins_with_its_line(rank: str) -> None:
    line = LINE_OF_RANK[rank]
    other = "A" if rank != "A" else "2"  # backs a line of at most one pair
    t = ready({"Bob": [rank], "Cy": [other]})
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=1)
    t = act(t, type="call", player="Cy")
    t = to_showdown(t)
    sf = "9h Th Jh Qh Kh"
    if line == "king":
        grid, kings = make_grid({}, kings=sf, held=f"{rank} {other}"), sf
    else:
        grid, kings = make_grid({line: sf}, held=f"{rank} {other}"), WEAK_KINGS
    t = showdown(t, grid, kings)
    result = table_state(t)["result"]
    assert result["winning_lines"] == [line]
    assert result["lines"][line]["hand"] == "Straight flush, king high"
    # the pot of 2, and with the king's hand the king's pot of 2 antes as well (R28)
    assert result["payouts"] == {"Bob": 4 if line == "king" else 2}


# ------------------------------------------------------------------------------ R22
@pytest.mark.parametrize(
    ("n", "most"),
    [(3, 7), (4, 5), (5, 4), (6, 3), (7, 3), (8, 2), (9, 2), (10, 2), (11, 2), (12, 1),
     (16, 1), (22, 1)],
)
def test_r22_buying_maximum_by_players_seated(n: int, most: int) -> None:
    t = act(new_table(n), type="start_deal")
    step = t.step()
    assert (step["kind"], step["player"], step["max"]) == ("buy", "Bob", most)
    message = refuse(t, type="buy", player="Bob", count=most + 1)
    assert message == (
        f"Bob cannot buy {most + 1} cards: with {n} players the most is {most}."
    )
    t = act(t, type="buy", player="Bob", count=most)
    assert table_state(t)["kings_pot"] == most
    assert player(t, "Bob")["stack"] == 100 - most


def test_r22_four_players_buy_at_most_five() -> None:
    t = act(new_table(4), type="start_deal")
    assert refuse(t, type="buy", player="Bob", count=6) == (
        "Bob cannot buy 6 cards: with 4 players the most is 5.")
    t = act(t, type="buy", player="Bob", count=5)
    assert t.step()["player"] == "Cy"


def test_r22_buying_goes_round_from_the_dealers_left() -> None:
    t = new_table(4)
    for dealer, order in (("Ann", ["Bob", "Cy", "Dee", "Ann"]),
                          ("Bob", ["Cy", "Dee", "Ann", "Bob"])):
        t = act(t, type="start_deal")
        assert table_state(t)["dealer"] == dealer
        seen = []
        while t.step()["kind"] == "buy":
            seen.append(t.step()["player"])
            t = act(t, type="buy", player=seen[-1], count=0)
        assert seen == order


def test_r22_each_card_costs_the_ante_into_the_kings_pot() -> None:
    t = act(new_table(4, ante=3), type="start_deal")
    assert t.step()["instruction"] == "Bob: how many cards? 0 to 5, 3 each to the king's pot."
    t = act(t, type="buy", player="Bob", count=2)
    t = act(t, type="buy", player="Cy", count=1)
    assert table_state(t)["kings_pot"] == 9
    assert stacks(t) == {"Ann": 100, "Bob": 94, "Cy": 97, "Dee": 100}
    assert table_state(t)["pot_total"] == 0  # antes are not in the betting pot


def test_r22_a_player_who_buys_none_sits_the_deal_out() -> None:
    t = buy(new_table(4), {"Bob": 1, "Cy": 0, "Dee": 2, "Ann": 1})
    assert player(t, "Cy")["status"] == "out"
    assert player(t, "Cy")["cards"] == 0
    assert t.step()["waiting"] == ["Bob", "Dee", "Ann"]
    t = deal_cards(t, {"Bob": ["A"], "Dee": ["2", "3"], "Ann": ["4"]})
    t = act(t, type="reveal")
    order = []
    while t.step()["kind"] == "bet":
        order.append(t.step()["player"])
        t = act(t, type="check", player=order[-1])
    assert order == ["Bob", "Dee", "Ann"]  # Cy is never asked


def test_r22_a_short_stack_buys_only_what_it_can_pay() -> None:
    t = act(new_table(3, stacks={"Bob": 5}, ante=2), type="start_deal")
    assert t.step()["max"] == 2
    assert refuse(t, type="buy", player="Bob", count=3) == (
        "Bob cannot buy 3 cards: that costs 6 and Bob has 5.")


def test_r22_a_player_without_chips_for_a_card_sits_out() -> None:
    t = act(new_table(5, stacks={"Cy": 0}), type="start_deal")
    assert t.step()["max"] == 5  # R70: Cy has no chips and is not dealt in: four players
    t = act(t, type="buy", player="Bob", count=1)
    assert t.step()["player"] == "Dee"  # Cy is not asked
    assert player(t, "Cy")["status"] == "out"
    assert refuse(t, type="buy", player="Cy", count=1) == (
        "Cy is not in this deal: they are sitting out or have no chips.")


# ------------------------------------------------------------------------------ R23
def test_r23_only_the_dealer_sees_the_players_cards_before_the_showdown() -> None:
    t = ready({"Bob": ["9h", "Ks"], "Cy": ["9c"], "Ann": ["K"]})
    for step in ("reveal", "bet"):
        if step == "bet":
            t = act(t, type="reveal")
        assert t.step()["kind"] == step
        public, dealer = table_state(t), table_state(t, dealer=True)
        assert {"9h", "Ks", "9c"}.isdisjoint(cards_in(public))
        assert [(p["name"], p["cards"]) for p in public["players"]] == [
            ("Ann", 1), ("Bob", 2), ("Cy", 1)]
        assert all("hand" not in p and "lines" not in p for p in public["players"])
        assert player(t, "Bob", dealer=True)["hand"] == ["9h", "Ks"]
        assert player(t, "Ann", dealer=True)["hand"] == ["K"]  # the rank alone is enough
        assert {"9h", "Ks", "9c"} <= cards_in(dealer)


def test_r23_everyone_sees_live_cards_at_the_showdown() -> None:
    t = to_showdown(ready({"Bob": ["9h", "Ts"], "Cy": ["9c"]}))
    t = showdown(t, make_grid({}, held="9h Ts 9c"))
    assert player(t, "Bob")["live_cards"] == ["9h", "Ts"]
    assert player(t, "Cy")["live_cards"] == ["9c"]


def test_r23_a_card_entered_twice_is_caught_with_its_suit() -> None:
    t = buy(new_table(), {"Bob": 2, "Cy": 1})
    t = act(t, type="deal_cards", player="Bob", cards=["9h", "K"])
    assert refuse(t, type="deal_cards", player="Cy", cards=["9h"]) == (
        "9♥ is entered twice: Bob's hand and Cy's hand.")
    assert refuse(t, type="deal_cards", player="Cy", cards=["Zz"]).startswith(
        '"Zz" is not a card')
    t = act(t, type="deal_cards", player="Cy", cards=["9"])  # the rank alone is never caught
    assert player(t, "Cy", dealer=True)["hand"] == ["9"]


def test_r23_a_rank_can_be_dealt_at_most_four_times() -> None:
    t = buy(new_table(), {"Bob": 3, "Cy": 2})
    t = act(t, type="deal_cards", player="Bob", cards=["K", "Kh", "K"])
    assert refuse(t, type="deal_cards", player="Cy", cards=["K", "K"]) == (
        "A deck has only four cards of rank K.")


def test_r23_folding_one_card_does_not_show_it_to_the_players() -> None:
    t = act(ready({"Bob": ["9h", "Ks"], "Cy": ["9c"]}), type="reveal")
    t = act(t, type="fold", player="Bob", card="Ks")
    assert table_state(t)["log"][-1] == "Bob folds one card."
    assert "Ks" not in cards_in(table_state(t))
    assert player(t, "Bob")["cards"] == 1


def test_r23_undoing_a_fold_does_not_show_the_card_to_the_players() -> None:
    t = act(ready({"Bob": ["9h", "Ks"], "Cy": ["9c"]}), type="reveal")
    t = act(act(t, type="fold", player="Bob", card="Ks"), type="undo")
    assert table_state(t)["undone"] == "Bob: fold one card"
    assert "Ks" not in cards_in(table_state(t))


def test_r23_no_cards_are_shown_when_everyone_else_folds() -> None:
    t = act(ready({"Bob": ["9h", "Ks"], "Cy": ["9c"]}), type="reveal")
    t = act(t, type="bet", player="Bob", amount=2)
    t = act(t, type="fold", player="Cy")
    assert table_state(t)["result"]["uncontested"] is True
    assert {"9h", "Ks", "9c"}.isdisjoint(cards_in(table_state(t)))


def test_r23_folded_cards_stay_hidden_at_the_showdown() -> None:
    t = act(ready({"Bob": ["9h", "Ks"], "Cy": ["9c"]}), type="reveal")
    t = act(t, type="fold", player="Bob", card="Ks")
    t = to_showdown(t)
    t = showdown(t, make_grid({}, held="9h Ks 9c"))
    assert "Ks" not in cards_in(table_state(t))


# ------------------------------------------------------------------------------ R24
def test_r24_each_amount_is_per_card() -> None:
    t = act(ready({"Bob": ["A", "2"], "Cy": ["3"], "Ann": ["4"]}), type="reveal")
    t = act(t, type="check", player="Bob")
    t = act(t, type="bet", player="Cy", amount=5)
    t = act(t, type="call", player="Ann")
    step = t.step()
    assert (step["player"], step["to_call"], step["to_call_total"]) == ("Bob", 5, 10)
    assert step["instruction"] == "Round 1: Bob: 5 per card, 2 cards = 10 to call."
    t = act(t, type="call", player="Bob")  # a player with two live cards who calls 5 puts in 10
    assert stacks(t) == {"Ann": 94, "Bob": 88, "Cy": 94}
    assert table_state(t)["pot_total"] == 20
    assert player(t, "Bob")["in_pot"] == 10


def test_r24_per_card_cost_in_the_step() -> None:
    t = act(ready({"Bob": ["9h", "9"], "Cy": ["9c"], "Ann": ["K", "A"]}), type="reveal")
    t = act(t, type="bet", player="Bob", amount=2)
    assert t.step()["instruction"] == "Round 1: Cy: 2 per card, 1 card = 2 to call."
    t = act(t, type="call", player="Cy")
    assert t.step()["instruction"] == "Round 1: Ann: 2 per card, 2 cards = 4 to call."
    assert t.step()["per_card"] is True and t.step()["cards"] == 2


def test_r24_fold_one_card_and_go_on_acting() -> None:
    t = act(ready({"Bob": ["A", "2"], "Cy": ["3"], "Ann": ["4"]}), type="reveal")
    t = act(t, type="check", player="Bob")
    t = act(t, type="bet", player="Cy", amount=5)
    t = act(t, type="call", player="Ann")
    t = act(t, type="fold", player="Bob", card="2")
    step = t.step()
    assert step["player"] == "Bob"
    assert step["instruction"] == "Round 1: Bob: 5 per card, 1 card = 5 to call."
    assert player(t, "Bob")["cards"] == 1 and player(t, "Bob")["status"] == "in"
    assert player(t, "Bob", dealer=True)["live_cards"] == ["A"]
    t = act(t, type="call", player="Bob")
    assert stacks(t)["Bob"] == 93  # 2 antes and 5 for one card
    assert t.step()["kind"] == "reveal"


def test_r24_folding_the_last_card_folds_the_player() -> None:
    t = act(ready({"Bob": ["A"], "Cy": ["3"], "Ann": ["4"]}), type="reveal")
    t = act(t, type="fold", player="Bob", card="A")
    assert player(t, "Bob")["status"] == "folded"
    assert player(t, "Bob")["cards"] == 0
    assert t.step()["player"] == "Cy"


def test_r24_fold_names_a_card_the_player_holds() -> None:
    t = act(ready({"Bob": ["A", "2"], "Cy": ["3"]}), type="reveal")
    assert refuse(t, type="fold", player="Bob", card="K") == (
        "Bob holds no live K: their live cards are A 2.")


def test_r24_all_in_stakes_the_same_on_every_card() -> None:
    # Bob has 13: 2 antes leave 11, which makes 5 a card with 1 left in the stack.
    t = ready({"Bob": ["A", "2"], "Cy": ["3"], "Ann": ["4"]}, stacks={"Bob": 13})
    t = act(t, type="reveal")
    t = act(t, type="check", player="Bob")
    t = act(t, type="bet", player="Cy", amount=10)
    t = act(t, type="call", player="Ann")
    t = act(t, type="all_in", player="Bob")
    bob = player(t, "Bob")
    assert (bob["stack"], bob["status"], bob["in_pot"]) == (1, "all_in", 10)
    # Bob's cards matched 5 of the 10: the main pot is 5 from each of the four cards
    assert table_state(t)["pots"] == [
        {"amount": 20, "eligible": ["Ann", "Bob", "Cy"]},
        {"amount": 10, "eligible": ["Ann", "Cy"]},
    ]


def test_r24_a_call_that_cannot_be_covered_goes_all_in() -> None:
    t = ready({"Bob": ["A", "2"], "Cy": ["3"]}, stacks={"Bob": 9})  # 7 after antes
    t = act(t, type="reveal")
    t = act(t, type="check", player="Bob")
    t = act(t, type="bet", player="Cy", amount=10)
    t = act(t, type="call", player="Bob")
    assert (player(t, "Bob")["stack"], player(t, "Bob")["status"]) == (1, "all_in")
    # Cy's 7 not matched goes back (R5); the betting is over for good
    assert stacks(t)["Cy"] == 96
    assert t.step()["kind"] == "reveal"


def test_r24_a_player_who_cannot_stake_one_a_card_folds_cards_first() -> None:
    t = ready({"Bob": ["A", "2"], "Cy": ["3"]}, stacks={"Bob": 3})  # 1 chip after antes
    t = act(t, type="reveal")
    t = act(t, type="check", player="Bob")
    t = act(t, type="bet", player="Cy", amount=1)
    assert t.step()["options"] == ["fold"]
    message = refuse(t, type="call", player="Bob")
    assert message.startswith("Bob cannot call:") and message.endswith("fold cards first.")
    assert refuse(t, type="all_in", player="Bob").startswith("Bob cannot go all in:")
    t = act(t, type="fold", player="Bob", card="2")
    assert t.step()["options"] == ["fold", "call", "all_in"]
    t = act(t, type="call", player="Bob")
    bob = player(t, "Bob")
    assert (bob["stack"], bob["status"], bob["cards"], bob["in_pot"]) == (0, "all_in", 1, 1)
    assert t.step()["kind"] == "reveal"


def test_r24_betting_starts_left_of_the_dealer_every_round() -> None:
    t = new_table(4)
    for first in ("Bob", "Cy"):  # the dealer is Ann, then Bob
        t = buy(t, {name: 1 for name in NAMES[:4]})
        t = deal_cards(t, {"Ann": ["A"], "Bob": ["2"], "Cy": ["3"], "Dee": ["4"]})
        for _ in range(3):
            t = act(t, type="reveal")
            assert t.step()["player"] == first
            t = act(t, type="bet", player=first, amount=1)
            while t.step()["kind"] == "bet":
                t = act(t, type="call", player=t.step()["player"])
        t = showdown(to_showdown(t), make_grid({}, held="A 2 3 4"))


def test_r24_after_the_first_seat_folds_the_next_one_opens() -> None:
    t = act(ready({"Bob": ["A"], "Cy": ["3"], "Ann": ["4"]}), type="reveal")
    t = act(t, type="fold", player="Bob")
    assert t.step()["player"] == "Cy"
    t = checks(t)
    for _ in range(2):  # Bob is out: Cy opens rounds 2 and 3
        t = act(t, type="reveal")
        assert t.step()["player"] == "Cy"
        t = checks(t)


# ------------------------------------------------------------------------------ R25
def test_r25_layout_sets_match_the_diagram() -> None:
    # R10: "The order of sets 1, 2 and 3 follows row 1 from left to right"
    assert [c for n in (1, 2, 3) for c in REVEAL_SETS_5[n] if c.startswith("r1")] == [
        "r1c1", "r1c3", "r1c5"]
    for n in range(1, 6):
        assert list(REVEAL_SETS_5[n]) == r10_set(n)
        for line in LINES_5.values():  # one card of every line
            assert len(set(line) & set(REVEAL_SETS_5[n])) == 1


def reveal_cells(variant: str) -> list[list[str]]:
    t = ready({"Bob": ["A"], "Cy": ["2"]}, variant=variant)
    turned = []
    kinds = []
    while t.step()["kind"] != "showdown":
        step = t.step()
        kinds.append(step["kind"])
        if step["kind"] == "reveal":
            turned.append(step["cells"])
            assert table_state(t)["grid"]["highlight"] == step["cells"]
            t = act(t, type="reveal")
        else:
            t = checks(t)
    assert kinds == ["reveal", "bet"] * 3
    assert table_state(t, dealer=True)["kings_hand"] == []  # nothing of the king's hand before
    return turned


def test_r25_kings_pot_turns_sets_1_2_3() -> None:
    assert reveal_cells("kings_pot") == [
        ["r1c1", "r2c4", "r3c2", "r4c5", "r5c3"],
        ["r1c3", "r2c1", "r3c4", "r4c2", "r5c5"],
        ["r1c5", "r2c3", "r3c1", "r4c4", "r5c2"],
    ]


def test_r25_optional_play_turns_sets_1_and_2_then_3_then_4() -> None:
    assert reveal_cells("kings_pot_optional") == [
        ["r1c1", "r2c4", "r3c2", "r4c5", "r5c3", "r1c3", "r2c1", "r3c4", "r4c2", "r5c5"],
        ["r1c5", "r2c3", "r3c1", "r4c4", "r5c2"],
        ["r1c2", "r2c5", "r3c3", "r4c1", "r5c4"],  # the seed's fourth set, exactly
    ]


def test_r25_turned_cards_show_on_the_public_grid() -> None:
    t = ready({"Bob": ["A"], "Cy": ["2"]})
    t = act(t, type="reveal", cards={"r1c1": "Kh", "r2c4": "3c"})
    cells = table_state(t)["grid"]["cells"]
    assert (cells["r1c1"], cells["r2c4"], cells["r3c2"], cells["r1c3"]) == ("Kh", "3c", "up", None)
    assert refuse(t, type="reveal").startswith("Cannot reveal now")
    t = checks(t)
    assert refuse(t, type="reveal", cards={"r1c1": "Qh"}) == (
        "r1c1 is not turned now: the cards to turn are r1c3 r2c1 r3c4 r4c2 r5c5 "
        "(the cards marked 2).")


def test_r25_the_last_cards_stay_down_until_the_showdown() -> None:
    for variant, down in (("kings_pot", 10), ("kings_pot_optional", 5)):
        t = to_showdown(ready({"Bob": ["A"], "Cy": ["2"]}, variant=variant))
        assert [v for v in table_state(t)["grid"]["cells"].values()].count(None) == down


# ------------------------------------------------------------------------------ R26
@pytest.mark.parametrize("variant", VARIANTS)
def test_r26_two_nines_take_two_thirds(variant: str) -> None:
    # Seed 4.3(a): Bob keeps both nines and shares with Cy's one nine: two shares of three.
    t = ready({"Bob": ["9h", "9d"], "Cy": ["9c"], "Ann": ["A"]}, variant=variant)
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=3)
    t = act(t, type="call", player="Cy")
    t = act(t, type="call", player="Ann")
    assert table_state(t)["pot_total"] == 12
    t = to_showdown(t)
    t = showdown(t, make_grid({"col4": "4s 5s 6s 7s 8s"}, held="9h 9d 9c A"))
    result = table_state(t)["result"]
    assert result["winning_lines"] == ["col4"]
    assert result["payouts"] == {"Bob": 8, "Cy": 4}
    assert result["winners"] == ["Bob", "Cy"]
    assert stacks(t) == {"Ann": 96, "Bob": 100, "Cy": 100}
    assert table_state(t)["kings_pot"] == 4
    assert t.step()["kind"] == "start_deal"


@pytest.mark.parametrize("variant", VARIANTS)
def test_r26_unbacked_better_line_does_not_win(variant: str) -> None:
    t = act(ready({"Bob": ["A"], "Cy": ["9"]}, variant=variant), type="reveal")
    t = act(t, type="bet", player="Bob", amount=4)
    t = act(t, type="call", player="Cy")
    t = to_showdown(t)
    grid = make_grid({"anti": "Ts Js Qs Ks As", "col4": "2c Ks 2d 3h 3s"}, held="A 9")
    t = showdown(t, grid)
    result = table_state(t)["result"]
    assert result["lines"]["anti"] == {
        "cards": ["As", "Ks", "Qs", "Js", "Ts"], "hand": "Royal flush",
        "backed": False, "held_by": []}
    assert result["lines"]["col4"]["hand"] == "Two pair, threes and twos"
    assert (result["lines"]["col4"]["held_by"], result["lines"]["row1"]["held_by"]) == (
        ["Cy"], ["Bob"])
    assert result["lines"]["row1"]["backed"] is True
    assert result["winning_lines"] == ["col4"]
    assert result["payouts"] == {"Cy": 8}
    assert stacks(t) == {"Ann": 100, "Bob": 95, "Cy": 103}


def test_r26_thirteen_hands_are_ranked_and_reported() -> None:
    t = to_showdown(ready({"Bob": ["A"], "Cy": ["K"]}))
    t = showdown(t, make_grid({}, held="A K"))
    lines = table_state(t)["result"]["lines"]
    assert sorted(lines) == sorted([*LINES_5, "king"])
    assert lines["king"]["cards"] == ["Qd", "Jd", "8d", "4c", "2h"]
    assert lines["king"]["hand"] == "High card, queen"
    assert table_state(t)["kings_hand"] == WEAK_KINGS.split()


def test_r26_showdown_needs_every_card() -> None:
    t = to_showdown(ready({"Bob": ["A"], "Cy": ["K"]}))
    grid = make_grid({}, held="A K")
    assert refuse(t, type="showdown", cells=grid, kings_hand=["2c", "7d", "9s", "Jd"]) == (
        "Enter the king's hand: five cards, not 4.")
    partial = {c: v for c, v in grid.items() if c not in ("r1c1", "r5c5")}
    assert refuse(t, type="showdown", cells=partial, kings_hand=WEAK_KINGS.split()) == (
        "Enter every grid card: r1c1 r5c5 are missing.")


def test_r26_turned_cards_need_not_be_entered_again() -> None:
    t = ready({"Bob": ["A"], "Cy": ["9"]})
    grid = make_grid({"col4": SF_9}, held="A 9")
    first = {c: grid[c] for c in REVEAL_SETS_5[1]}
    t = to_showdown(act(t, type="reveal", cards=first))
    assert t.step()["cells"] == [c for c in CELLS_5 if c not in first]
    assert refuse(t, type="showdown", cells={"r1c1": "2s" if grid["r1c1"] != "2s" else "3s"},
                  kings_hand=WEAK_KINGS.split()).startswith("r1c1 is already entered as")
    rest = {c: v for c, v in grid.items() if c not in first}
    t = showdown(t, rest)
    assert table_state(t)["result"]["winning_lines"] == ["col4"]


def test_r26_a_side_pot_goes_to_the_best_line_among_its_cards() -> None:
    # see also R6 below; here the best line is not eligible for the side pot
    t = ready({"Bob": ["A"], "Cy": ["9"], "Ann": ["2"]}, stacks={"Bob": 3})
    t = act(t, type="reveal")
    t = act(t, type="all_in", player="Bob")  # a bet of 2
    t = act(t, type="raise", player="Cy", amount=6)
    t = act(t, type="call", player="Ann")
    t = to_showdown(t)
    grid = make_grid({"row1": "Ts Js Qs Ks As", "col4": "Ks 2c 2d 3h 3s"}, held="A 9 2")
    t = showdown(t, grid)
    result = table_state(t)["result"]
    assert result["winning_lines"] == ["row1"]
    assert result["payouts"] == {"Bob": 6, "Cy": 8}
    assert table_state(t)["result_sentences"] == [
        "Main pot 6: Bob, a royal flush on row 1.",
        "Side pot 8: Cy, two pair, threes and twos on column 4.",
        "The king's pot of 3 carries to the next deal."]


# ------------------------------------------------------------------------------ R27
@pytest.mark.parametrize("variant", VARIANTS)
def test_r27_tie_between_two_backed_lines(variant: str) -> None:
    t = act(ready({"Bob": ["A"], "Cy": ["2"], "Ann": ["4"]}, variant=variant), type="reveal")
    t = act(t, type="bet", player="Bob", amount=4)
    t = act(t, type="call", player="Cy")
    t = act(t, type="call", player="Ann")
    t = to_showdown(t)
    grid = make_grid({"row2": "5c 6d 7h 8s 9c", "row4": "5d 6h 7s 8c 9d"}, held="A 2 4")
    t = showdown(t, grid)
    result = table_state(t)["result"]
    assert result["winning_lines"] == ["row2", "row4"]
    assert result["lines"]["row2"]["hand"] == result["lines"]["row4"]["hand"] == (
        "Straight, nine high")
    assert result["payouts"] == {"Ann": 6, "Cy": 6}
    assert stacks(t) == {"Ann": 101, "Bob": 95, "Cy": 101}


def test_r27_tied_lines_share_one_share_a_card() -> None:
    # Bob keeps two twos; the shares are Bob, Bob, Ann: a pot of 9 pays 6 and 3.
    t = act(ready({"Bob": ["2", "2"], "Ann": ["4"]}), type="reveal")
    t = act(t, type="bet", player="Bob", amount=3)
    t = act(t, type="call", player="Ann")
    t = to_showdown(t)
    grid = make_grid({"row2": "5c 6d 7h 8s 9c", "row4": "5d 6h 7s 8c 9d"}, held="2 2 4")
    t = showdown(t, grid)
    assert table_state(t)["result"]["payouts"] == {"Ann": 3, "Bob": 6}
    assert table_state(t)["result_sentences"] == [
        "Pot 9: Bob (2 shares) and Ann split it, a nine-high straight on row 2 and row 4.",
        "The king's pot of 3 carries to the next deal."]


# ------------------------------------------------------------------------------ R28
@pytest.mark.parametrize("variant", VARIANTS)
def test_r28_kings_pot_carries_to_the_next_deal_and_the_kings_share_it(variant: str) -> None:
    t = act(ready({"Bob": ["9"], "Cy": ["K"], "Ann": ["A"]}, variant=variant), type="reveal")
    t = to_showdown(t)
    t = showdown(t, make_grid({"col4": "9s Ts Js Qs Ks"}, kings="7c 7d 7h 7s 2c", held="9 K A"),
                 kings="7c 7d 7h 7s 2c")  # four sevens lose to the straight flush
    assert table_state(t)["result"]["winning_lines"] == ["col4"]
    assert "kings_pot_won" not in table_state(t)["result"]
    assert t.totals.carried.get("kings_pot", 0) == 3
    assert table_state(t)["result_sentences"] == [
        "Nothing was bet: Bob, a king-high straight flush on column 4.",
        "The king's pot of 3 carries to the next deal."]
    # deal 2: Bob deals, Cy buys first; Bob's king is folded and does not share
    t = buy(t, {"Cy": 2, "Ann": 1, "Bob": 2})
    assert table_state(t)["kings_pot"] == 8
    t = deal_cards(t, {"Cy": ["K", "K"], "Ann": ["K"], "Bob": ["K", "9"]})
    t = act(t, type="reveal")
    t = act(t, type="check", player="Cy")
    t = act(t, type="check", player="Ann")
    t = act(t, type="fold", player="Bob", card="K")
    t = to_showdown(act(t, type="check", player="Bob"))
    t = showdown(t, make_grid({}, kings="7c 7d 7h 7s 2c", held="K K K K 9"),
                 kings="7c 7d 7h 7s 2c")
    result = table_state(t)["result"]
    assert result["winning_lines"] == ["king"]
    assert result["kings_pot_won"] == 8
    # three shares of 8: 2 each and 2 odd chips, one at a time from the dealer's left
    # (Cy's two cards come first): Cy 3 + 3, Ann 2
    assert result["payouts"] == {"Cy": 6, "Ann": 2}
    assert table_state(t)["result_sentences"] == [
        "Nothing was bet: Cy and Ann, four sevens in the king's hand.",
        "King's pot 8: Cy (2 shares) and Ann split it, a share a king.",
        "Cy gets the 2 odd chips of the king's pot: the first of its winners from the "
        "dealer's left (R7)."]
    assert table_state(t)["kings_pot"] == 0 and t.totals.carried.get("kings_pot", 0) == 0
    assert stacks(t) == {"Ann": 99 - 1 + 2, "Bob": 99 - 2, "Cy": 99 - 2 + 6}


def test_r28_kings_pot_carries_across_deals_until_won() -> None:
    t = new_table(3, ante=2)
    for deal_number, pot in ((1, 4), (2, 8), (3, 12)):
        t = buy(t, {"Ann": 1, "Bob": 1, "Cy": 0})
        t = deal_cards(t, {"Ann": ["A"], "Bob": ["2"]})
        t = to_showdown(t)
        t = showdown(t, make_grid({"row2": "Tc Jc Qc Kc Ac"}, held="A 2", seed=deal_number))
        assert table_state(t)["deal_number"] == deal_number
        assert t.totals.carried.get("kings_pot", 0) == pot
        assert table_state(t)["kings_pot"] == pot
    assert t.chips() == 300


def test_r28_king_tied_with_a_line_shares_the_betting_pot_and_takes_the_kings_pot() -> None:
    t = act(ready({"Bob": ["K"], "Cy": ["9"], "Ann": ["A"]}), type="reveal")
    t = act(t, type="bet", player="Bob", amount=2)
    t = act(t, type="call", player="Cy")
    t = act(t, type="call", player="Ann")
    t = to_showdown(t)
    kings = "5c 6d 7h 8s 9c"
    t = showdown(t, make_grid({"col4": "5d 6h 7s 8c 9d"}, kings=kings, held="K 9 A"), kings)
    result = table_state(t)["result"]
    assert result["winning_lines"] == ["col4", "king"]
    assert result["kings_pot_won"] == 3
    assert result["payouts"] == {"Bob": 3 + 3, "Cy": 3}
    assert table_state(t)["kings_pot"] == 0


def test_r28_kings_hand_without_a_live_king_cannot_win() -> None:
    t = act(ready({"Bob": ["K", "A"], "Cy": ["9"]}), type="reveal")
    t = act(t, type="fold", player="Bob", card="K")
    t = to_showdown(act(t, type="check", player="Bob"))
    kings = "Ts Js Qs Ks As"
    t = showdown(t, make_grid({"col4": "2c 2d 3h 3s 8c"}, kings=kings, held="K A 9"), kings)
    result = table_state(t)["result"]
    assert result["lines"]["king"]["backed"] is False
    assert result["winning_lines"] == ["col4"]
    assert table_state(t)["kings_pot"] == 3


# ------------------------------------------------------------------------------ R29
def test_r29_fewer_than_two_buyers_end_the_deal_at_once() -> None:
    t = buy(new_table(3), {"Bob": 3})
    state = table_state(t)
    assert state["step"]["kind"] == "start_deal"
    assert state["result"]["payouts"] == {} and state["result"]["no_play"] is True
    assert state["kings_pot"] == 3 and t.totals.carried.get("kings_pot", 0) == 3
    assert stacks(t) == {"Ann": 100, "Bob": 97, "Cy": 100}
    assert player(t, "Bob")["status"] == "out"
    t = buy(t, {})  # nobody buys: the deal ends at once too, and the king's pot stays
    assert table_state(t)["result"]["no_play"] is True
    assert table_state(t)["deal_number"] == 2
    t = act(t, type="start_deal")
    assert table_state(t)["kings_pot"] == 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_r29_last_player_takes_the_betting_pot_and_the_kings_pot_carries(variant: str) -> None:
    t = ready({"Bob": ["A", "2"], "Cy": ["K"], "Ann": ["3"]}, variant=variant)
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=2)
    t = act(t, type="call", player="Cy")
    t = act(t, type="fold", player="Ann")
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=5)  # 10 for two cards, never called
    t = act(t, type="fold", player="Cy")
    state = table_state(t)
    assert state["result"]["uncontested"] is True
    assert state["result"]["winners"] == ["Bob"]
    assert state["result"]["payouts"] == {"Bob": 6}  # 4 of Bob's, 2 of Cy's
    assert state["step"]["kind"] == "start_deal"
    assert stacks(t) == {"Ann": 99, "Bob": 100, "Cy": 97}
    assert state["kings_pot"] == 4 and t.totals.carried.get("kings_pot", 0) == 4
    t = buy(t, {"Cy": 1, "Ann": 1})  # the next deal adds its antes to the carried 4
    assert table_state(t)["kings_pot"] == 6


# ------------------------------------------------------------------------------ R5
def test_r5_no_limit_minimum_raise_per_card() -> None:
    t = act(ready({"Bob": ["A", "2"], "Cy": ["3"], "Ann": ["4"]}, min_bet=2), type="reveal")
    assert refuse(t, type="bet", player="Bob", amount=1) == (
        "Bob cannot bet to 1 per card: the smallest bet is to 2 per card.")
    t = act(t, type="bet", player="Bob", amount=3)
    assert t.step()["min_raise_to"] == 6
    assert refuse(t, type="raise", player="Cy", amount=5) == (
        "Cy cannot raise to 5 per card: the smallest raise is to 6 per card.")
    t = act(t, type="raise", player="Cy", amount=7)  # a raise of 4
    assert t.step()["min_raise_to"] == 11
    assert refuse(t, type="raise", player="Ann", amount=10) == (
        "Ann cannot raise to 10 per card: the smallest raise is to 11 per card.")
    t = act(t, type="raise", player="Ann", amount=11)
    t = act(t, type="call", player="Bob")
    t = act(t, type="call", player="Cy")
    assert stacks(t) == {"Ann": 88, "Bob": 76, "Cy": 88}
    assert table_state(t)["pot_total"] == 44


def test_r5_fixed_limit_bet_sizes_and_four_bets_a_round() -> None:
    t = ready({"Bob": ["A"], "Cy": ["3"], "Ann": ["4", "5"]}, betting="fixed_limit", small_bet=2)
    t = act(t, type="reveal")  # round 1: small bets of 2
    assert refuse(t, type="bet", player="Bob", amount=4) == (
        "Bob cannot bet to 4: in fixed limit this round it is bet to 2 per card.")
    t = act(t, type="bet", player="Bob", amount=2)
    t = act(t, type="raise", player="Cy", amount=4)
    t = act(t, type="raise", player="Ann", amount=6)
    t = act(t, type="raise", player="Bob", amount=8)  # one bet and three raises
    assert "raise" not in t.step()["options"]
    assert refuse(t, type="raise", player="Cy", amount=10) == (
        "Cy cannot raise: a round allows one bet and three raises.")
    t = act(t, type="call", player="Cy")
    t = act(t, type="call", player="Ann")
    assert stacks(t) == {"Ann": 98 - 16, "Bob": 99 - 8, "Cy": 99 - 8}
    for round_number in (2, 3):  # big bets of 4 (twice the small bet)
        t = act(t, type="reveal")
        assert refuse(t, type="bet", player="Bob", amount=2) == (
            "Bob cannot bet to 2: in fixed limit this round it is bet to 4 per card.")
        t = act(t, type="bet", player="Bob", amount=4)
        assert t.step()["min_raise_to"] == t.step()["max_raise_to"] == 8, round_number
        t = act(t, type="raise", player="Cy", amount=8)
        t = act(t, type="call", player="Ann")
        t = act(t, type="call", player="Bob")
    assert stacks(t) == {"Ann": 82 - 32, "Bob": 91 - 16, "Cy": 91 - 16}


def test_r5_short_all_in_does_not_reopen_the_betting() -> None:
    t = ready({"Bob": ["A"], "Cy": ["3"], "Ann": ["4"]}, stacks={"Ann": 16})
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=10)
    t = act(t, type="call", player="Cy")
    t = act(t, type="all_in", player="Ann")  # 15: a raise of 5, less than the bet of 10
    assert player(t, "Ann")["status"] == "all_in"
    step = t.step()
    assert (step["player"], step["to_call"], step["options"]) == ("Bob", 5, ["fold", "call"])
    assert refuse(t, type="raise", player="Bob", amount=30) == (
        "Bob cannot raise: the all-in for less than a full raise did not reopen the betting; "
        "call or fold.")
    t = act(t, type="call", player="Bob")
    assert refuse(t, type="raise", player="Cy", amount=30).startswith("Cy cannot raise: the all")
    t = act(t, type="call", player="Cy")
    assert table_state(t)["pots"] == [{"amount": 45, "eligible": ["Ann", "Bob", "Cy"]}]
    assert t.step()["kind"] == "reveal"


def test_r5_a_full_raise_reopens_for_a_seat_that_acted_before_it() -> None:
    t = ready({"Bob": ["A"], "Cy": ["3"], "Ann": ["4"]}, stacks={"Ann": 26})
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=10)
    t = act(t, type="raise", player="Cy", amount=20)  # a full raise: Bob may raise again
    t = act(t, type="all_in", player="Ann")  # 25: short, it closes only Cy
    assert "raise" in t.step()["options"]
    t = act(t, type="raise", player="Bob", amount=40)
    t = act(t, type="call", player="Cy")
    assert table_state(t)["pots"] == [
        {"amount": 75, "eligible": ["Ann", "Bob", "Cy"]},
        {"amount": 30, "eligible": ["Bob", "Cy"]},
    ]


def test_r5_uncalled_bet_goes_back() -> None:
    t = ready({"Bob": ["A", "2"], "Cy": ["3"], "Ann": ["4"]}, stacks={"Cy": 5})
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=10)  # 20 for two cards
    t = act(t, type="call", player="Cy")  # all in for 4
    t = act(t, type="fold", player="Ann")
    # only 4 a card was matched: 6 a card, 12 in all, goes back to Bob
    assert stacks(t) == {"Ann": 99, "Bob": 98 - 8, "Cy": 0}
    assert table_state(t)["pots"] == [{"amount": 12, "eligible": ["Bob", "Cy"]}]
    assert "Bob takes back 12 uncalled." in table_state(t)["log"]
    # nobody can bet any more: the cards are turned with no betting (R5)
    kinds = []
    while t.step()["kind"] != "showdown":
        kinds.append(t.step()["kind"])
        t = act(t, type="reveal")
    assert kinds == ["reveal", "reveal"]


# ------------------------------------------------------------------------------ R6
def side_pot_table() -> Table:
    t = ready({"Bob": ["9", "T"], "Cy": ["J"], "Dee": ["2"], "Ann": ["A"]}, n=4,
              stacks={"Ann": 4})
    t = act(t, type="reveal")
    t = act(t, type="bet", player="Bob", amount=10)
    t = act(t, type="call", player="Cy")
    t = act(t, type="fold", player="Dee")
    return act(t, type="call", player="Ann")  # all in for 3


def test_r6_side_pots_by_per_card_layers() -> None:
    t = side_pot_table()
    assert player(t, "Ann")["status"] == "all_in"
    assert table_state(t)["pots"] == [
        {"amount": 12, "eligible": ["Ann", "Bob", "Cy"]},  # 3 from each of four cards
        {"amount": 21, "eligible": ["Bob", "Cy"]},  # 7 from each of three cards
    ]


def test_r6_no_side_pot_while_nobody_is_all_in() -> None:
    t = act(ready({"Bob": ["A"], "Cy": ["3"], "Ann": ["4"]}), type="reveal")
    t = act(t, type="bet", player="Bob", amount=5)
    t = act(t, type="raise", player="Cy", amount=10)
    # nobody is all in: one pot, which every player still in can win
    assert table_state(t)["pots"] == [{"amount": 15, "eligible": ["Ann", "Bob", "Cy"]}]


def test_r6_a_card_all_in_wins_only_what_it_matched() -> None:
    t = to_showdown(side_pot_table())
    grid = make_grid({"row1": "Ts Js Qs Ks As", "col4": "Ks Kd 3c 3d 3h"}, held="9 T J 2 A")
    t = showdown(t, grid)
    result = table_state(t)["result"]
    assert result["lines"]["col4"]["hand"] == "Full house, threes full of kings"
    assert result["winning_lines"] == ["row1"]
    assert result["payouts"] == {"Ann": 12, "Bob": 21}
    assert stacks(t) == {"Ann": 12, "Bob": 99, "Cy": 89, "Dee": 99}
    assert table_state(t)["kings_pot"] == 5


def test_r6_a_card_all_in_at_the_buy_wins_only_the_kings_pot() -> None:
    # Bob's last chip buys a king: he is all in for nothing in the betting (R6), so the king's
    # hand wins him the king's pot (R28) and the betting pot goes to the best line that paid.
    t = ready({"Bob": ["K"], "Cy": ["9"], "Ann": ["A"]}, stacks={"Bob": 1})
    assert (player(t, "Bob")["stack"], player(t, "Bob")["status"]) == (0, "all_in")
    t = act(t, type="reveal")
    assert t.step()["player"] == "Cy"  # Bob is never asked to bet
    t = act(t, type="bet", player="Cy", amount=5)
    t = act(t, type="call", player="Ann")
    t = to_showdown(t)
    kings = "7c 7d 7h 7s 2c"
    t = showdown(t, make_grid({"col4": "Ks Kd 3c 3d 3h"}, kings=kings, held="K 9 A"), kings)
    result = table_state(t)["result"]
    assert result["winning_lines"] == ["king"]
    assert result["payouts"] == {"Bob": 3, "Cy": 10}
    assert stacks(t) == {"Ann": 94, "Bob": 3, "Cy": 104}
    assert table_state(t)["kings_pot"] == 0


def test_r6_folded_card_chips_stay_in_their_layers() -> None:
    t = side_pot_table()
    t = act(t, type="reveal")
    t = act(t, type="fold", player="Bob", card="T")
    assert table_state(t)["pots"] == [
        {"amount": 12, "eligible": ["Ann", "Bob", "Cy"]},
        {"amount": 21, "eligible": ["Bob", "Cy"]},
    ]
    t = to_showdown(act(t, type="check", player="Bob"))
    # the ten's royal flush would have won both pots; it is folded, so Cy's jacks take both
    grid = make_grid({"col5": "Ts Js Qs Ks As", "diag": "7c 7d 7h 2s As"}, held="9 T J 2 A")
    t = showdown(t, grid)
    result = table_state(t)["result"]
    assert result["winning_lines"] == ["diag"]
    assert result["payouts"] == {"Cy": 33}


# ------------------------------------------------------------------------------ R7
def tie_table(**rules: Any) -> Table:
    """Cy (row2) and Ann (row4) tie for a pot of 9; Ann deals, so Bob is left of the dealer."""
    t = act(ready({"Bob": ["A"], "Cy": ["2"], "Ann": ["4"]}, **rules), type="reveal")
    t = act(t, type="bet", player="Bob", amount=3)
    t = act(t, type="call", player="Cy")
    t = act(t, type="call", player="Ann")
    t = to_showdown(t)
    grid = make_grid({"row2": "5c 6d 7h 8s 9c", "row4": "5d 6h 7s 8c 9d"}, held="A 2 4")
    return showdown(t, grid)


def test_r7_odd_chip_goes_left_of_dealer_first() -> None:
    t = tie_table()
    # from Bob's seat clockwise: Cy before Ann, so Cy takes the odd chip
    assert table_state(t)["result"]["payouts"] == {"Ann": 4, "Cy": 5}
    assert table_state(t)["kings_pot"] == 3


def test_r7_odd_chips_go_to_the_card_seats_in_order() -> None:
    # Every live card is a betting seat (R24), so Bob's two nines are two sharing seats at
    # Bob's place, the first from the dealer's left: a pot of 8 in three shares is 2 each, and
    # the 2 odd chips go one at a time to Bob's first and second nine.
    t = act(ready({"Bob": ["9", "9"], "Cy": ["9"], "Ann": ["A"]}), type="reveal")
    t = act(t, type="bet", player="Bob", amount=2)
    t = act(t, type="call", player="Cy")
    t = act(t, type="call", player="Ann")
    t = to_showdown(t)
    assert table_state(t)["pot_total"] == 8
    t = showdown(t, make_grid({"col4": "4s 5s 6s 7s 8s"}, held="9 9 9 A"))
    assert table_state(t)["result"]["payouts"] == {"Bob": 6, "Cy": 2}


def test_r7_carry_leaves_the_odd_chip_in_the_kings_pot() -> None:
    t = tie_table(odd_chip="carry")
    assert table_state(t)["result"]["payouts"] == {"Ann": 4, "Cy": 4}
    assert table_state(t)["kings_pot"] == 4 and t.totals.carried.get("kings_pot", 0) == 4
    t = buy(t, {"Cy": 1, "Ann": 1})
    assert table_state(t)["kings_pot"] == 6


def test_r7_carry_of_the_kings_pot_split() -> None:
    t = act(ready({"Bob": ["K"], "Cy": ["K"], "Ann": ["A"]}, odd_chip="carry"), type="reveal")
    t = to_showdown(t)
    kings = "7c 7d 7h 7s 2c"
    t = showdown(t, make_grid({}, kings=kings, held="K K A"), kings)
    assert table_state(t)["result"]["payouts"] == {"Bob": 1, "Cy": 1}
    assert table_state(t)["kings_pot"] == 1  # 3 in two shares: the odd chip stays


def test_r7_carry_odd_chip_is_for_the_next_deal_not_the_kings_pot_won_now() -> None:
    # Bob's king ties with Cy's nine for a pot of 9: 4 each, 1 odd chip into the king's pot,
    # "for the next deal" (R7); the king's pot won now is the 3 antes.
    t = act(ready({"Bob": ["K"], "Cy": ["9"], "Ann": ["A"]}, odd_chip="carry"), type="reveal")
    t = act(t, type="bet", player="Bob", amount=3)
    t = act(t, type="call", player="Cy")
    t = act(t, type="call", player="Ann")
    t = to_showdown(t)
    kings = "5c 6d 7h 8s 9c"
    t = showdown(t, make_grid({"col4": "5d 6h 7s 8c 9d"}, kings=kings, held="K 9 A"), kings)
    result = table_state(t)["result"]
    assert result["winning_lines"] == ["col4", "king"]
    assert result["kings_pot_won"] == 3
    assert result["payouts"] == {"Bob": 4 + 3, "Cy": 4}
    assert t.totals.carried.get("kings_pot", 0) == 1


# ------------------------------------------------------------------------------ R8
def test_r8_undo_refused_at_deal_start() -> None:
    t = new_table()
    assert refuse(t, type="undo") == "Nothing to undo: no deal has started."
    started = act(t, type="start_deal")
    back = act(started, type="undo")  # R74: a lone start_deal is taken back
    assert without_seq(table_state(back, dealer=True)) == without_seq(
        table_state(t, dealer=True))


def undo_back(t: Table, **body: Any) -> Table:
    """Apply ``body``, undo it, and check the table is as it was."""
    before = table_state(t, dealer=True)
    after = act(t, **body)
    back = act(after, type="undo")
    assert without_seq(table_state(back, dealer=True)) == without_seq(before)
    assert table_state(back)["seq"] == table_state(t)["seq"] + 2
    assert back.chips() == t.chips()
    return back


def test_r8_undo_a_buy() -> None:
    t = act(new_table(), type="start_deal")
    t = act(t, type="buy", player="Bob", count=2)
    back = undo_back(t, type="buy", player="Cy", count=3)
    assert table_state(back)["undone"] == "Cy: buy 3"
    assert table_state(back)["kings_pot"] == 2 and back.step()["player"] == "Cy"


def test_r8_undo_the_buy_that_ended_the_deal() -> None:
    t = act(act(new_table(), type="start_deal"), type="buy", player="Bob", count=2)
    t = act(t, type="buy", player="Cy", count=0)
    back = undo_back(t, type="buy", player="Ann", count=0)
    assert back.step()["kind"] == "buy" and table_state(back)["result"] is None


def test_r8_undo_a_fold_of_one_card() -> None:
    t = act(ready({"Bob": ["A", "2"], "Cy": ["3"]}), type="reveal")
    back = undo_back(t, type="fold", player="Bob", card="2")
    assert player(back, "Bob")["cards"] == 2


def test_r8_undo_a_reveal() -> None:
    t = ready({"Bob": ["A", "2"], "Cy": ["3"]})
    back = undo_back(t, type="reveal", cards={"r1c1": "Ah"})
    assert table_state(back)["undone"] == "reveal"
    assert table_state(back)["grid"]["cells"]["r1c1"] is None


def test_r8_undo_the_showdown_and_the_next_deal_start() -> None:
    t = act(ready({"Bob": ["9h", "9d"], "Cy": ["9c"], "Ann": ["A"]}), type="reveal")
    t = act(t, type="bet", player="Bob", amount=3)
    t = act(t, type="call", player="Cy")
    t = to_showdown(act(t, type="call", player="Ann"))
    grid = make_grid({"col4": "4s 5s 6s 7s 8s"}, held="9h 9d 9c A")
    back = undo_back(t, type="showdown", cells=grid, kings_hand=WEAK_KINGS.split())
    assert back.step()["kind"] == "showdown" and table_state(back)["pot_total"] == 12
    done = showdown(back, grid)
    assert stacks(done) == {"Ann": 96, "Bob": 100, "Cy": 100}
    # the next deal has started: undo takes back only that start (R74), never the last deal
    nxt = act(done, type="start_deal")
    assert table_state(nxt)["kings_pot"] == 4
    back = act(nxt, type="undo")
    assert table_state(back)["result"] == table_state(done)["result"]
    assert stacks(back) == stacks(done)


def test_r8_undo_everything_back_to_the_start() -> None:
    t = act(ready({"Bob": ["A", "2"], "Cy": ["3"], "Ann": ["K"]}), type="reveal")
    t = act(t, type="bet", player="Bob", amount=4)
    t = act(t, type="call", player="Cy")
    while table_state(t)["can_undo"]:  # R74: the start_deal too, back to the new table
        t = act(t, type="undo")
    assert without_seq(table_state(t, dealer=True)) == without_seq(
        table_state(new_table(), dealer=True))
    assert stacks(t) == {"Ann": 100, "Bob": 100, "Cy": 100}


# ------------------------------------------------------------------------------ R9
def test_r9_out_of_turn_is_refused() -> None:
    t = act(new_table(), type="start_deal")
    assert refuse(t, type="buy", player="Ann", count=2) == (
        "It is not Ann's turn to buy: it is Bob's.")
    t = act(ready({"Bob": ["A"], "Cy": ["3"]}), type="reveal")
    assert refuse(t, type="check", player="Cy") == "It is not Cy's turn to check: it is Bob's."
    assert refuse(t, type="fold", player="Cy", card="3") == (
        "It is not Cy's turn to fold: it is Bob's.")


def test_r9_too_many_cards_is_refused() -> None:
    t = act(new_table(), type="start_deal")
    assert refuse(t, type="buy", player="Bob", count=8) == (
        "Bob cannot buy 8 cards: with 3 players the most is 7.")
    t = buy(t, {"Bob": 2, "Cy": 1})
    assert refuse(t, type="deal_cards", player="Bob", cards=["A", "2", "3"]) == (
        "Bob bought 2 cards: enter 2, not 3.")
    assert refuse(t, type="deal_cards", player="Ann", cards=["A"]) == (
        "Ann bought no cards this deal.")
    t = deal_cards(t, {"Bob": ["A", "2"], "Cy": ["3"]})
    assert refuse(t, type="reveal", cards=["2h", "3h", "4h", "5h", "6h", "7h"]) == (
        "Only 5 cards are turned now (the cards marked 1), not 6.")


def test_r9_card_already_on_the_table_is_refused() -> None:
    t = buy(new_table(), {"Bob": 2, "Cy": 1})
    t = act(t, type="deal_cards", player="Bob", cards=["9h", "Ks"])
    assert refuse(t, type="deal_cards", player="Cy", cards=["Ks"]) == (
        "K♠ is entered twice: Bob's hand and Cy's hand.")
    t = act(t, type="deal_cards", player="Cy", cards=["9c"])
    assert refuse(t, type="reveal", cards={"r1c1": "9h"}) == (
        "9♥ is entered twice: Bob's hand and r1c1.")
    assert refuse(t, type="reveal", cards={"r1c1": "Ah", "r2c4": "Ah"}) == (
        "A♥ is entered twice: r1c1 and r2c4.")
    t = to_showdown(act(t, type="reveal", cards={"r1c1": "Ah"}))
    grid = make_grid({}, held="9h Ks 9c Ah")
    grid["r1c1"] = "Ah"
    assert refuse(t, type="showdown", cells=grid, kings_hand=["Ks", "2c", "3c", "4c", "5c"])\
         == "K♠ is entered twice: Bob's hand and the king's hand."
    assert refuse(t, type="showdown", cells={**grid, "r2c2": "Ah"},
                  kings_hand=WEAK_KINGS.split()) == "A♥ is entered twice: r1c1 and r2c2."


@pytest.mark.parametrize("variant", VARIANTS)
def test_r9_a_card_both_a_new_grid_cell_and_the_kings_hand_is_refused(variant: str) -> None:
    # the defect of issue 13: the new grid cells and the king's hand were checked apart, so a
    # card in both was let through and the deal paid out on impossible cards
    t = to_showdown(ready({"Bob": ["A"], "Cy": ["2"]}, variant=variant))
    grid = make_grid({}, held="A 2")
    assert "8d" in WEAK_KINGS.split() and "8d" not in grid.values()
    assert refuse(t, type="showdown", cells=grid, kings_hand=["8d", "8d", "Jd", "4c", "Qd"]) == (
        "8♦ is entered twice in the king's hand.")
    grid["r1c5"] = "8d"
    assert refuse(t, type="showdown", cells=grid, kings_hand=WEAK_KINGS.split()) == (
        "8♦ is entered twice: r1c5 and the king's hand.")


@pytest.mark.parametrize("variant", VARIANTS)
def test_r9_a_card_entered_twice_is_named_in_both_places_whatever_the_order(
        variant: str) -> None:
    # the same card at a reveal and then in the king's hand, or a player's card (with its
    # suit) and then a grid cell: one sentence naming both places, whichever came first
    t = ready({"Bob": ["Ah"], "Cy": ["2"]}, variant=variant)
    cell = "r1c2" if variant == "kings_pot" else "r1c4"  # marked 4: its last reveal
    t = act(t, type="reveal", cards={REVEAL_SETS_5[1][0]: "8d"})
    while t.step()["kind"] != "reveal":
        t = checks(t)
    first = t.step()["cells"][0]
    assert refuse(t, type="reveal", cards={first: "Ah"}) == (
        f"A♥ is entered twice: Bob's hand and {first}.")
    t = to_showdown(t)
    grid = make_grid({}, held="Ah 2")
    grid[REVEAL_SETS_5[1][0]] = "8d"
    assert "8d" not in [v for c, v in grid.items() if c != REVEAL_SETS_5[1][0]]
    assert refuse(t, type="showdown", cells=grid, kings_hand=WEAK_KINGS.split()) == (
        f"8♦ is entered twice: {REVEAL_SETS_5[1][0]} and the king's hand.")
    grid[cell] = "Ah"
    assert refuse(t, type="showdown", cells=grid, kings_hand=["Kd", "Kh", "2c", "3c", "4c"]) == (
        f"A♥ is entered twice: Bob's hand and {cell}.")


def test_r9_a_fifth_card_of_a_rank_is_refused_at_the_showdown() -> None:
    # Ann's king was entered by rank alone; a grid and king's hand holding all four kings
    # would make five: one of them is entered wrong.
    t = to_showdown(ready({"Bob": ["A"], "Ann": ["K"]}))
    grid = make_grid({}, kings="Kc Kd Kh 2c 3d", held="A Ks")
    grid[next(c for c in CELLS_5 if grid[c][0] not in "K")] = "Ks"
    assert refuse(t, type="showdown", cells=grid, kings_hand=["Kc", "Kd", "Kh", "2c", "3d"]) == (
        "A deck has only four cards of rank K: check the cards entered.")


def test_r9_a_fifth_card_of_a_rank_is_refused_at_a_reveal() -> None:
    t = ready({"Bob": ["K", "K"], "Cy": ["K"], "Ann": ["K"]})
    assert refuse(t, type="reveal", cards={"r2c4": "Kh"}) == (
        "A deck has only four cards of rank K: check the cards entered.")
    t = act(t, type="reveal", cards={"r2c4": "Qh"})
    assert table_state(t)["grid"]["cells"]["r2c4"] == "Qh"


def test_r9_unknown_player_is_refused() -> None:
    t = act(new_table(), type="start_deal")
    assert refuse(t, type="buy", player="Zed", count=1) == (
        "There is no player called Zed at this table.")
    t = act(ready({"Bob": ["A"], "Cy": ["3"]}), type="reveal")
    assert refuse(t, type="bet", player="Zed", amount=2) == (
        "There is no player called Zed at this table.")


def test_r9_wrong_action_for_the_step_is_refused() -> None:
    t = act(new_table(), type="start_deal")
    assert refuse(t, type="check", player="Bob") == (
        "Cannot check now: Bob: how many cards? 0 to 7, 1 each to the king's pot.")
    assert refuse(t, type="start_deal") == "A deal is in play: finish it, or undo, first."
    assert refuse(t, type="buy", player="Bob") == "Say how many cards Bob buys (count)."
    assert refuse(t, type="buy", player="Bob", count=-1) == (
        "count must be from 0 to 1,000,000,000, not -1.")
    t = buy(new_table(), {"Bob": 2})  # the deal ended at once (R29)
    assert refuse(t, type="buy", player="Bob", count=1) == (
        "This deal is over: start the next deal, or undo to correct it.")


# ------------------------------------------------------------------------------ R3: property
def step_ok(t: Table) -> None:
    """Exactly one next step, and it names the player where a player acts."""
    step = t.step()
    assert step["kind"] in STEP_KINDS, step
    assert isinstance(step["instruction"], str) and step["instruction"]
    if step["kind"] in ("buy", "bet"):
        assert step["player"] in NAMES
        p = player(t, step["player"])
        assert p["status"] == "in" if step["kind"] == "bet" else True
    elif step["kind"] == "deal_cards":
        assert step["player"] == step["waiting"][0]
    else:
        assert step["player"] is None
    assert (step["kind"] == "start_deal") == t.deal_over


def illegal_actions(t: Table, rng: random.Random) -> list[dict[str, Any]]:
    """Actions that the rules cannot allow now."""
    step = t.step()
    kind, who = step["kind"], step.get("player")
    names = [p["name"] for p in table_state(t)["players"]]
    bad: list[dict[str, Any]] = [{"type": "buy", "player": "Nobody", "count": 1},
                                 {"type": "check", "player": "Nobody"}]
    if kind != "start_deal":
        bad.append({"type": "start_deal"})
    if kind != "buy":
        bad.append({"type": "buy", "player": rng.choice(names), "count": 1})
    if kind != "bet":
        bad += [{"type": "bet", "player": rng.choice(names), "amount": 1},
                {"type": "fold", "player": rng.choice(names)}]
    if kind != "showdown":
        bad.append({"type": "showdown", "cells": {}, "kings_hand": []})
    if kind == "buy":
        bad.append({"type": "buy", "player": who, "count": step["max"] + 1 + rng.randrange(5)})
        others = [n for n in names if n != who]
        bad.append({"type": "buy", "player": rng.choice(others), "count": 0})
    if kind == "deal_cards":
        known = sorted(t.deal.known_cards()) if t.deal else []
        bad.append({"type": "deal_cards", "player": who, "cards": ["A"] * (step["count"] + 1)})
        bad.append({"type": "deal_cards", "player": who, "cards": ["Zz"] * step["count"]})
        if known:
            bad.append({"type": "deal_cards", "player": who,
                        "cards": [rng.choice(known)] * step["count"]})
    if kind == "bet":
        others = [n for n in names if n != who]
        bad.append({"type": rng.choice(["check", "call", "fold"]), "player": rng.choice(others)})
        bad.append({"type": "raise" if step["current_bet"] else "bet", "player": who,
                    "amount": player(t, who)["stack"] * 2 + step["current_bet"] + 1})
        bad.append({"type": "fold", "player": who, "card": "Zz"})
    if kind == "reveal":
        known = sorted(t.deal.known_cards()) if t.deal else []
        if known:
            bad.append({"type": "reveal", "cards": {step["cells"][0]: rng.choice(known)}})
        bad.append({"type": "reveal", "cards": {"r9c9": "Ah"}})
    if kind == "showdown":
        bad.append({"type": "showdown", "cells": {}, "kings_hand": unused_cards(t)[:5]})
    return bad


def check_refused(t: Table, body: dict[str, Any]) -> None:
    before = table_state(t, dealer=True)
    try:
        action = t.prepare(body)
        t.apply(action)
    except DealerAssistError as err:  # a malformed body or a rule's refusal
        assert str(err).endswith("."), err
    else:
        raise AssertionError(f"accepted {body} at {t.step()}")
    assert table_state(t, dealer=True) == before


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    n=st.integers(3, 22),
    seed=st.integers(0, 2**32 - 1),
    stack_list=st.lists(st.integers(0, 60), min_size=22, max_size=22),
    ante=st.integers(1, 3),
    betting=st.sampled_from(["no_limit", "fixed_limit"]),
    odd_chip=st.sampled_from(["left_of_dealer", "carry"]),
)
def test_r3_random_play_conserves_chips_and_refuses_illegal_actions(
    variant: str, n: int, seed: int, stack_list: list[int], ante: int, betting: str,
    odd_chip: str,
) -> None:
    rng = random.Random(seed)
    t = registry.new_table(
        variant, [{"name": NAMES[i], "stack": stack_list[i]} for i in range(n)],
        {"ante": ante, "betting": betting, "odd_chip": odd_chip},
    )
    total = t.chips()
    assert total == sum(stack_list[:n])
    for _deal in range(3):
        try:
            t = act(t, type="start_deal")
        except IllegalActionError as err:  # R70: players without chips are not dealt in
            assert "players dealt in" in str(err)
            break
        trail = [t]  # the tables of this deal, to check that undo gives the one before (R8)
        for _ in range(1000):
            assert t.chips() == total
            step_ok(t)
            # R23: no card still face down at the table is in the public state
            assert hidden_cards(t).isdisjoint(cards_in(table_state(t)))
            if t.deal_over:
                break
            if rng.random() < 0.15:
                check_refused(t, rng.choice(illegal_actions(t, rng)))
            if len(t.actions) > 1 and rng.random() < 0.08:  # this deal's (R74: not its start)
                back = act(t, type="undo")
                assert back.chips() == total
                assert without_seq(table_state(back, dealer=True)) == without_seq(
                    table_state(trail[-2], dealer=True))
                step_ok(back)
                if rng.random() < 0.5:
                    t = back
                    trail.pop()
                    continue
            t = act(t, **rng.choice(legal_actions(t, rng)))
            trail.append(t)
        else:
            raise AssertionError("a deal did not end")
        state = table_state(t)
        assert state["kings_pot"] == t.totals.carried.get("kings_pot", 0) >= 0
        assert sum(p["stack"] for p in state["players"]) + state["kings_pot"] == total
        assert all(p["stack"] >= 0 for p in state["players"])
        if table_state(t)["can_undo"]:  # the ended deal can still be undone until the next starts
            assert act(t, type="undo").chips() == total
