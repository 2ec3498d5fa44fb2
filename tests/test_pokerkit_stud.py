"""Seven-Card Stud, Razz and Stud Hi-Lo against PokerKit (``FixedLimitSevenCardStud``,
``FixedLimitRazz``, ``FixedLimitSevenCardStudHighLowSplitEightOrBetter``): random deals (2 to
7 players, so that the deck never runs short; short stacks and all-ins, antes or none, any
bring-in below the small bet) played through both engines action for action. After every
action both agree on who acts and what is legal (the bring-in or its completion, fold, check
or the call's amount, the completion, bet or raise's size); at the end every stack is equal
chip for chip.

The cards are dealt into PokerKit as the dealer enters them here: on each street every player
still in gets their card (third street two down and one up), the up cards are the ones entered
at the reveal, the down cards the ones shown at the showdown. PokerKit's seat 0 is the dealer's
left (its ties for the first to act go to the lowest index, R81's to the first from the
dealer's left). PokerKit is set up as tests/test_pokerkit.py sets it up (cash-game mode, no
burning, antes layered as bets), and shares its allowances for R5 (short all-ins).

At the showdown PokerKit's pots (read once the betting is over, every layer with its players)
are shared as R6, R7 and R80 say, by PokerKit's own hand types (``StandardHighHand``,
``RegularLowHand``, ``EightOrBetterLowHand``). R80 differs from PokerKit on purpose in one
point: where a pot is split high and low (a low qualified at the showdown) but none of that
pot's players has a low, R80 gives that half to the pot's best high hand; PokerKit 0.7.7 shares
it equally among all of the pot's players (its ``push_chips`` takes every missing low as tied).
The deals that meet it are counted.
"""

from __future__ import annotations

import functools
import random
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from pokerkit import (
    EightOrBetterLowHand,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Mode,
    RegularLowHand,
    StandardHighHand,
    State,
)
from table_helpers import act
from test_phh import SAME, check_deal_in_pokerkit
from test_pokerkit import (
    AUTOMATIONS,
    Differences,
    RandomDeal,
    bet,
    compare_legal,
    idle_check,
    pokerkit_order,
    shared_as_r7,
)

from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table

HandTypes = tuple[Any, ...]
GAMES: dict[str, tuple[Callable[..., State], HandTypes]] = {
    "seven_card_stud": (FixedLimitSevenCardStud.create_state, (StandardHighHand,)),
    "razz": (FixedLimitRazz.create_state, (RegularLowHand,)),
    "seven_card_stud_hi_lo": (FixedLimitSevenCardStudHighLowSplitEightOrBetter.create_state,
                              (StandardHighHand, EightOrBetterLowHand)),
}


@dataclass
class StudDeal:
    deal: RandomDeal
    cards: list[list[str]] = field(default_factory=list)  # by seat: d1 d2 u1 u2 u3 u4 d3


def random_stud_deal(rng: random.Random, seed: int, variant: str) -> StudDeal:
    n = rng.randint(2, 7)
    small = rng.choice([2, 2, 4, 10])
    rules: dict[str, Any] = {
        "small_bet": small, "big_bet": 2 * small, "ante": rng.choice([0, 1, 1, 2, 5]),
        "bring_in": rng.choice([0, 0, 1, small - 1]),
        "odd_chip": rng.choice(["left_of_dealer", "carry"]),
    }
    deep = rng.random() < 0.3
    stacks = [rng.randint(1, 400 if deep else 60) for _ in range(n)]
    return StudDeal(RandomDeal(stacks, rules, seed, variant))


def pokerkit_state(sd: StudDeal, bring_in: int) -> State:
    d = sd.deal
    create, _ = GAMES[d.variant]
    return create(AUTOMATIONS, True, d.rules["ante"], bring_in, d.rules["small_bet"],
                  d.rules["big_bet"], tuple(pokerkit_order(d, d.stacks)), d.n,
                  mode=Mode.CASH_GAME)


def deal_street(state: State, sd: StudDeal) -> None:
    """Every card PokerKit deals now, each player's next card of ours."""
    while state.can_deal_hole():
        index = state.hole_dealee_index
        assert index is not None
        seat = (1 + index) % sd.deal.n
        state.deal_hole(sd.cards[seat][len(state.hole_cards[index])])


def play(sd: StudDeal, differences: Differences) -> Table:
    d = sd.deal
    rng = random.Random(d.seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    sd.cards = [[deck.pop() for _ in range(7)] for _ in range(d.n)]
    names = [f"P{i}" for i in range(d.n)]
    t = new_table(d.variant, [{"name": n, "stack": s} for n, s in
                              zip(names, d.stacks, strict=True)], d.rules)
    t = act(t, type="start_deal")
    state = pokerkit_state(sd, t.game.rules.bring_in_chips)
    street = 0
    while not t.deal_over:
        step = t.step()
        kind = step["kind"]
        if kind in ("reveal", "next", "showdown"):
            idle_check(state, d, differences)
        if kind == "reveal":
            deal_street(state, sd)
            t = act(t, type="reveal", cards={name: sd.cards[names.index(name)][2 + street]
                                             for name in step["players"]})
            street += 1
        elif kind == "next":
            deal_street(state, sd)
            t = act(t, type="next")
        elif kind == "showdown":
            t = act(t, type="showdown", hands={
                name: [sd.cards[seat][i] for i in (0, 1, 6)]
                for seat, name in enumerate(names) if name in step["players"]})
        else:
            t = stud_bet(t, state, sd, step, rng, differences)
    idle_check(state, d, differences)
    compare_stacks(t, state, sd, differences)
    return t


def stud_bet(t: Table, state: State, sd: StudDeal, step: dict[str, Any], rng: random.Random,
             differences: Differences) -> Table:
    """One betting action through both engines: the bring-in or its completion where one is
    due (R81), else as tests/test_pokerkit.py bets."""
    d = sd.deal
    who = step["player"]
    if "bring_in" in step["options"]:
        assert state.can_post_bring_in(), (d, step)
        assert state.actor_index is not None
        assert who == f"P{(1 + state.actor_index) % d.n}", (d, step)
        assert step["min_raise_to"] == state.min_completion_betting_or_raising_to_amount, (
            d, step)
        if rng.random() < 0.6 or "bet" not in step["options"]:
            state.post_bring_in()
            differences.played["bring-in"] += 1
            return act(t, type="bring_in", player=who)
        amount = step["min_raise_to"]
        state.complete_bet_or_raise_to(amount)
        differences.played["completed at once"] += 1
        return act(t, type="bet", player=who, amount=amount)
    assert not state.can_post_bring_in(), (d, step)
    may_raise = compare_legal(t, state, d, differences)
    completing = step["options"][2:3] == ["bet"] and step["current_bet"]
    uncounted = differences.uncounted_raises
    t = bet(t, state, step, rng, may_raise=may_raise, fixed=True, differences=differences)
    if completing and t.deal is not None and t.deal.round is not None \
            and t.deal.round.current == step["min_raise_to"]:
        differences.played["bring-in completed"] += 1
        if differences.uncounted_raises > uncounted:  # a whole completion all in is counted
            differences.uncounted_raises -= 1
            state.completion_betting_or_raising_count += 1
    return t


def compare_stacks(t: Table, state: State, sd: StudDeal, differences: Differences) -> None:
    """Every stack equal chip for chip, and the chips carried: uncontested, PokerKit pays
    the pot itself; at a showdown its pots are shared as R6, R7 and R80 say."""
    d = sd.deal
    deal = t.deal
    assert deal is not None
    if sum(state.statuses) == 1:
        while state.can_push_chips():
            state.push_chips()
        theirs, carried = list(state.stacks), 0
    else:
        theirs, carried = shared_as_r80(state, sd, differences)
    assert sum(theirs) + carried == sum(d.stacks), d
    ours = pokerkit_order(d, [p.stack for p in deal.players])
    assert ours == theirs, (d, ours, theirs)
    assert deal.carry == carried, d


def shared_as_r80(state: State, sd: StudDeal, differences: Differences
                  ) -> tuple[list[int], int]:
    """PokerKit's pots shared as R6, R7 and R80 say: tests/test_pokerkit.py's sharing, each
    player's seven cards with no board."""
    d = sd.deal
    _, kinds = GAMES[d.variant]
    holes = [sd.cards[(1 + i) % d.n] for i in range(d.n)]
    low = kinds[1] if len(kinds) > 1 else None
    theirs, carried, _ = shared_as_r7(state, holes, [[]], d.rules["odd_chip"], kinds[0], low,
                                      differences)
    return theirs, carried


def run(count: int, seed: int, variant: str) -> Differences:
    differences = Differences()
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns of a fold where a check is free
        for i in range(count):
            play(random_stud_deal(rng, seed * 100_000 + i, variant), differences)
    return differences


PLAYED = {"bring-in", "completed at once", "bring-in completed"}
VARIANTS = ["seven_card_stud", "razz", "seven_card_stud_hi_lo"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_r80_r81_r82_r83_each_stud_game_matches_pokerkit_action_for_action(variant: str) -> None:
    differences = run(100, seed=11 + VARIANTS.index(variant), variant=variant)
    assert set(differences.played) >= PLAYED, differences.played


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_r80_r81_r82_r83_thousands_of_deals_of_each_stud_game_match_pokerkit(variant: str) -> None:
    differences = run(1500, seed=21 + VARIANTS.index(variant), variant=variant)
    assert set(differences.played) >= PLAYED, differences.played


# ------------------------------------------------------------------------- PHH
@pytest.mark.parametrize("variant", VARIANTS)
def test_r81_r82_r83_every_exported_stud_deal_replays_in_pokerkit(variant: str) -> None:
    """The deal exported under its PHH code (F7S, FR, F7S/8), the dealer's view and the
    public one, loads in PokerKit's ``HandHistory`` and replays to our stacks; where R7 or
    R80 share odd chips otherwise, PokerKit's pots shared as they say give our stacks."""
    differences = Differences()
    seen: Counter[str] = Counter()
    rng = random.Random(41)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(40):
            sd = random_stud_deal(rng, 4_100_000 + i, variant)
            before = differences.uncounted_raises
            t = play(sd, differences)
            check_deal_in_pokerkit(t, differences.uncounted_raises - before, seen,
                                   functools.partial(shared_as_r80, sd=sd,
                                                     differences=differences))
    assert seen[SAME] > 60, seen
