"""2-7 Triple Draw, 2-7 Single Draw and Badugi against PokerKit
(``FixedLimitDeuceToSevenLowballTripleDraw``, ``NoLimitDeuceToSevenLowballSingleDraw``,
``FixedLimitBadugi``): random deals (2 to 6 players, short stacks and all-ins, antes or none,
blinds of any size) played through both engines action for action. After every action both
agree on who acts, who draws and what is legal (fold, check or the call's amount, the bet or
raise's size); at the end every stack is equal chip for chip.

The cards are dealt into PokerKit as a deck shuffled here deals them: five cards (Badugi four)
to each player, and at each draw the discards PokerKit is told of (the count the app records,
which cards chosen here) replaced from the deck, the discards shuffled into a new deck when it
runs out (R85; PokerKit is told each card, so its own reshuffle is never asked for). At the
showdown the app is given each hand still in whole.

PokerKit is set up as tests/test_pokerkit.py sets it up (cash-game mode, no burning, antes
layered as bets) and shares its allowances for R5 (short all-ins), with one more of R5's
readings played along: before the first draw the big blind is the round's bet, so a round
allows the blind and three raises (PokerKit's class allows four raises over the blind: its
count starts at one) and the smallest raise is the big blind or ``min_bet``, whichever is
larger. At the showdown PokerKit's pots (read once the betting is over, every layer with its
players) are shared as R6 and R7 say by PokerKit's own hand types (``StandardLowHand``,
``BadugiHand``).
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
    BadugiHand,
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    Mode,
    NoLimitDeuceToSevenLowballSingleDraw,
    StandardLowHand,
    State,
)
from table_helpers import act
from test_phh import SAME, SHORT_RAISE, check_deal_in_pokerkit
from test_pokerkit import (
    AUTOMATIONS,
    Differences,
    RandomDeal,
    bet,
    compare_legal,
    idle_check,
    pokerkit_order,
    seat_of,
)

from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.draws import deck_now
from dealer_assist.core.table import Table
from dealer_assist.games.registry import new_table

# each game: PokerKit's state for a deal, its hand type, the cards in a hand
GAMES: dict[str, tuple[Callable[[RandomDeal], State], Any, int]] = {}


def fixed_limit(kind: Any) -> Callable[[RandomDeal], State]:
    def create(d: RandomDeal) -> State:
        r = d.rules
        return kind.create_state(  # type: ignore[no-any-return]
            AUTOMATIONS, True, r["ante"], (r["small_blind"], r["big_blind"]), r["small_bet"],
            r["big_bet"], tuple(pokerkit_order(d, d.stacks)), d.n, mode=Mode.CASH_GAME)
    return create


def no_limit(d: RandomDeal) -> State:
    r = d.rules
    return NoLimitDeuceToSevenLowballSingleDraw.create_state(
        AUTOMATIONS, True, r["ante"], (r["small_blind"], r["big_blind"]), r["min_bet"],
        tuple(pokerkit_order(d, d.stacks)), d.n, mode=Mode.CASH_GAME)


GAMES.update({
    "deuce_to_seven_triple_draw": (fixed_limit(FixedLimitDeuceToSevenLowballTripleDraw),
                                   StandardLowHand, 5),
    "deuce_to_seven_single_draw": (no_limit, StandardLowHand, 5),
    "badugi": (fixed_limit(FixedLimitBadugi), BadugiHand, 4),
})
VARIANTS = list(GAMES)


def random_draw_deal(rng: random.Random, seed: int, variant: str) -> RandomDeal:
    n = rng.randint(2, 6)
    small_blind = rng.choice([0, 1, 1, 2, 5])
    big_blind = max(small_blind, 1) * rng.choice([2, 2, 3]) if small_blind else rng.choice([1, 2])
    rules: dict[str, Any] = {
        "small_blind": small_blind, "big_blind": big_blind, "ante": rng.choice([0, 0, 0, 1, 2]),
        "odd_chip": rng.choice(["left_of_dealer", "carry"]),
    }
    if variant == "deuce_to_seven_single_draw":
        rules["min_bet"] = rng.choice([1, big_blind, big_blind, 2 * big_blind + 1])
    else:  # the big blind is one small bet, as fixed limit plays
        rules.update(small_bet=big_blind, big_bet=2 * big_blind)
    deep = rng.random() < 0.3
    stacks = [rng.randint(1, 400 if deep else 40) for _ in range(n)]
    # a big blind posted short is tests/test_pokerkit.py's documented difference
    big_seat = (1 + (0 if n == 2 else 1)) % n
    stacks[big_seat] = max(stacks[big_seat], rules["ante"] + big_blind)
    return RandomDeal(stacks, rules, seed, variant)


@dataclass
class Cards:
    """The cards as the table deals them: each seat's hand, the deck, the discards, and the
    cards each seat was dealt at its draw that PokerKit has not been given yet (it deals a
    draw's cards once everyone has discarded)."""

    rng: random.Random
    hands: list[list[str]]
    deck: list[str]
    discards: list[str] = field(default_factory=list)
    waiting: dict[int, list[str]] = field(default_factory=dict)
    reshuffled: int = 0

    def next_card(self) -> str:
        if not self.deck:  # R85: the discards (not the drawing player's) into a new deck
            self.deck, self.discards = self.discards, []
            self.rng.shuffle(self.deck)
            self.reshuffled += 1
        return self.deck.pop()

    def replace(self, seat: int, thrown: list[str]) -> None:
        """``thrown`` out of the seat's hand, as many dealt from the deck, then the thrown
        cards on the discards."""
        for card in thrown:
            self.hands[seat].remove(card)
        self.waiting[seat] = [self.next_card() for _ in thrown]
        self.hands[seat] += self.waiting[seat]
        self.discards += thrown


def deal_holes(state: State, d: RandomDeal, cards: Cards) -> None:
    """Every card PokerKit deals now: the hands at first, the draws' cards after each draw."""
    while state.can_deal_hole():
        index = state.hole_dealee_index
        assert index is not None
        seat = seat_of(d, index)
        waiting = cards.waiting.get(seat)
        if waiting:
            state.deal_hole(waiting.pop(0))
        else:
            state.deal_hole(cards.hands[seat][len(state.hole_cards[index])])


def pokerkit_state(d: RandomDeal, cards: Cards) -> State:
    create, _, _ = GAMES[d.variant]
    state = create(d)
    deal_holes(state, d, cards)
    r = d.rules
    # R5: before the first draw the big blind is the round's bet: in fixed limit it counts
    # as the first of four, and the raise that reopens is the blind or min_bet
    if "small_bet" in r:
        state.completion_betting_or_raising_count = 1
    else:
        state.completion_betting_or_raising_amount = max(r["big_blind"], r["min_bet"])
    return state


def draw(t: Table, state: State, d: RandomDeal, cards: Cards, step: dict[str, Any],
         rng: random.Random, differences: Differences) -> Table:
    """One player's draw through both engines: the same player, the same count (R85)."""
    index = state.stand_patter_or_discarder_index
    assert index is not None, (d, step)
    seat = seat_of(d, index)
    assert step["player"] == f"P{seat}", (d, step)
    size = GAMES[d.variant][2]
    assert step["max"] == size, (d, step)
    count = rng.choice([0, 0, 1, 1, 2, 3, size])
    thrown = rng.sample(cards.hands[seat], count)
    state.stand_pat_or_discard("".join(thrown))
    reshuffled = cards.reshuffled
    cards.replace(seat, thrown)
    differences.played["stands pat" if not count else "draws"] += 1
    t = act(t, type="discard", player=step["player"], count=count)
    deal_holes(state, d, cards)
    # R85: the app counts the deck as it is dealt, and says when the discards are shuffled
    assert t.deal is not None
    assert deck_now(t.deal, size).left == len(cards.deck), d
    if cards.reshuffled > reshuffled:
        assert t.deal.log[-1].endswith("shuffled into a new deck)."), d
        differences.played["discards shuffled"] += 1
    return t


def play(d: RandomDeal, differences: Differences,
         dealt: Callable[[Cards], object] = lambda cards: None) -> Table:
    """One random deal through both engines; ``dealt`` is told the cards it deals."""
    rng = random.Random(d.seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    size = GAMES[d.variant][2]
    cards = Cards(rng, [[deck.pop() for _ in range(size)] for _ in range(d.n)], deck)
    dealt(cards)
    names = [f"P{i}" for i in range(d.n)]
    t = new_table(d.variant, [{"name": n, "stack": s} for n, s in
                              zip(names, d.stacks, strict=True)], d.rules)
    t = act(t, type="start_deal")
    state = pokerkit_state(d, cards)
    fixed = "small_bet" in d.rules
    while not t.deal_over:
        step = t.step()
        kind = step["kind"]
        if kind in ("discard", "showdown"):
            idle_check(state, d, differences)
        if kind == "next":
            t = act(t, type="next")
        elif kind == "discard":
            t = draw(t, state, d, cards, step, rng, differences)
        elif kind == "showdown":
            t = act(t, type="showdown", hands={name: cards.hands[names.index(name)]
                                               for name in step["players"]})
        else:
            may_raise = compare_legal(t, state, d, differences)
            t = bet(t, state, step, rng, may_raise=may_raise, fixed=fixed,
                    differences=differences)
    idle_check(state, d, differences)
    compare_stacks(t, state, d, cards, differences)
    return t


def compare_stacks(t: Table, state: State, d: RandomDeal, cards: Cards,
                   differences: Differences) -> None:
    """Every stack equal chip for chip, and the chips carried: uncontested, PokerKit pays
    the pot itself; at a showdown its pots are shared as R6 and R7 say by its hand type."""
    deal = t.deal
    assert deal is not None
    if sum(state.statuses) == 1:
        while state.can_push_chips():
            state.push_chips()
        theirs, carried = list(state.stacks), 0
    else:
        differences.played["showdown"] += 1
        theirs, carried = shared_as_r7(state, d, cards)
    assert sum(theirs) + carried == sum(d.stacks), d
    ours = pokerkit_order(d, [p.stack for p in deal.players])
    assert ours == theirs, (d, ours, theirs)
    assert deal.carry == carried, d


def shared_as_r7(state: State, d: RandomDeal, cards: Cards) -> tuple[list[int], int]:
    _, hand_type, _ = GAMES[d.variant]
    theirs = list(state.stacks)
    carried = 0
    pots = list(state.pots)
    players = {i for pot in pots for i in pot.player_indices}
    hands = {i: hand_type.from_game("".join(cards.hands[seat_of(d, i)])) for i in players}
    for pot in pots:
        best = max(hands[i] for i in pot.player_indices)
        winners = [i for i in pot.player_indices if hands[i] == best]  # dealer's left first
        share, odd = divmod(pot.amount, len(winners))
        for position, i in enumerate(winners):
            extra = 1 if d.rules["odd_chip"] == "left_of_dealer" and position < odd else 0
            theirs[i] += share + extra
        carried += odd if d.rules["odd_chip"] == "carry" else 0
    return theirs, carried


def run(count: int, seed: int, variant: str) -> Differences:
    differences = Differences()
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns of a fold where a check is free
        for i in range(count):
            play(random_draw_deal(rng, seed * 100_000 + i, variant), differences)
    return differences


PLAYED = {"stands pat", "draws", "showdown"}


def played(variant: str) -> set[str]:
    """What the deals must have met: with one draw the deck seldom runs out."""
    return PLAYED | ({"discards shuffled"} if variant != "deuce_to_seven_single_draw" else set())


@pytest.mark.parametrize("variant", VARIANTS)
def test_r85_r86_each_draw_game_matches_pokerkit_action_for_action(variant: str) -> None:
    differences = run(80, seed=21 + VARIANTS.index(variant), variant=variant)
    assert set(differences.played) >= played(variant), differences.played


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_r85_r86_a_thousand_deals_of_each_draw_game_match_pokerkit(variant: str) -> None:
    differences = run(1000, seed=31 + VARIANTS.index(variant), variant=variant)
    assert set(differences.played) >= played(variant), differences.played
    assert "no betting with one seat able to bet" in differences.seen, differences.seen


# ------------------------------------------------------------------------- PHH
def run_phh(count: int, seed: int, variant: str) -> tuple[Counter[str], Differences]:
    """``count`` random deals, each exported under its PHH code (F2L3D, N2L1D, FB) and
    replayed in PokerKit's ``HandHistory`` (tests/test_phh.py's check): the cards dealt and
    drawn are ``??`` but where the hand shown says them (docs/hand-histories.md)."""
    differences = Differences()
    seen: Counter[str] = Counter()
    rng = random.Random(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in range(count):
            d = random_draw_deal(rng, seed * 100_000 + i, variant)
            before = differences.uncounted_raises
            rng_cards: list[Cards] = []
            t = play(d, differences, rng_cards.append)
            check_deal_in_pokerkit(t, differences.uncounted_raises - before, seen,
                                   functools.partial(shared_as_r7, d=d, cards=rng_cards[0]))
    return seen, differences


@pytest.mark.parametrize("variant", VARIANTS)
def test_r85_r86_every_exported_draw_deal_replays_in_pokerkit(variant: str) -> None:
    seen, differences = run_phh(40, seed=51 + VARIANTS.index(variant), variant=variant)
    assert seen[SAME] > 60 and differences.played["showdown"] > 5, (seen, differences.played)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_r85_r86_hundreds_of_exported_draw_deals_replay_in_pokerkit(variant: str) -> None:
    seen, differences = run_phh(600, seed=61 + VARIANTS.index(variant), variant=variant)
    assert differences.played["showdown"] > 300, differences.played
    assert seen[SHORT_RAISE] < seen[SAME] / 50, seen  # the allowance stays the exception
