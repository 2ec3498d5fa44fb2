"""Each player's chance to win the main pot, from the cards everyone can see (R67).

Cards tabled at an all-in are public; so are the board cards turned. From those alone, every
way the cards still to come (and the hole cards of a player who has not shown yet) can fall is
equally likely, and a player's equity is the share of the main pot they win over all of them:
a tie counts as the share it wins (a two-way tie is half a win). With two runs (R66), each run
is its own board, and a player's equity is the average of their equity on each run.

Exact where the count is small: every way the cards can fall is ranked once. Otherwise a fixed
number of them is drawn at random (with a seed made from the cards, so the same cards always
give the same figures, in every process), and the result says how far it may be off: the 95%
margin of the largest share's standard error.

>>> e = equity({"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"]}, [["Ac", "Kc", "2h", "2d"]])
>>> e.exact, e.shares["Ann"] == 43 / 44, round(e.shares["Bob"], 4)
(True, True, 0.0227)
>>> equity({"Ann": ["As", "Ad"], "Bob": ["Ks", "Kd"]}, [[]]).exact  # 1.7 million boards
False

:attr:`HandRule.BEST_FIVE` ranks the best five of a player's cards and the board's (R61);
:attr:`HandRule.TWO_PLUS_THREE` exactly two of the hole cards with exactly three of the
board's (R62); :attr:`HandRule.SHORT_DECK` the best five by the short deck's values, over its
36 cards (R79). The scores come from :mod:`dealer_assist.core.evaluator`, so both backends (pure
and eval7) give the very same figures. :class:`HandTypes` adds a low that splits the pot (R80):
a player's equity is then their expected share of the pot, half of it for the best high hand
and half for the best low where any hand has one, the whole to the high hands where none does.

>>> e = equity({"Ann": ["As", "2s", "Kd", "Kc"], "Bob": ["Qs", "Qd", "Jc", "Th"]},
...            [["3h", "4d", "Qh", "9c", "5s"]],
...            rule=HandTypes(HandRule.TWO_PLUS_THREE, LowRule.EIGHT_OR_BETTER))
>>> e.shares["Ann"], e.shares["Bob"]  # Bob's set of queens high, Ann's wheel low
(0.5, 0.5)
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import combinations

from dealer_assist.core import evaluator
from dealer_assist.core.cards import FULL_DECK, SHORT_DECK
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.hands import best_five_short_deck
from dealer_assist.core.lowhands import LowRule, best_low, best_low_two_plus_three

__all__ = ["BOARD_SIZE", "Equity", "HandRule", "HandTypes", "equity", "evaluations"]

BOARD_SIZE = 5
#: Rank every way the cards can fall when that takes at most this many five-to-seven-card
#: evaluations (about a tenth of a second on the pure evaluator), else sample.
EXACT_EVALUATIONS = 150_000
#: How many ways to draw when sampling, at most, and the evaluations that may cost: two
#: players of two hole cards draw 12,000 boards (a margin of about one point), two of four
#: hole cards 1,000 (each board costs 60 evaluations a player; about three points).
MOST_SAMPLES = 12_000
SAMPLE_EVALUATIONS = 120_000
FEWEST_SAMPLES = 1_000
Z_95 = 1.96


class HandRule(Enum):
    """How a player's hand is made from the hole cards and the board."""

    BEST_FIVE = "best_five"  # the best five of two hole cards and the board (R61)
    TWO_PLUS_THREE = "two_plus_three"  # exactly two of four hole cards, three of the board (R62)
    SHORT_DECK = "short_deck"  # the best five of two hole cards and the board, 36 cards (R79)

    @property
    def hole(self) -> int:
        return 4 if self is HandRule.TWO_PLUS_THREE else 2

    @property
    def deck(self) -> tuple[str, ...]:
        return SHORT_DECK if self is HandRule.SHORT_DECK else FULL_DECK


@dataclass(frozen=True)
class HandTypes:
    """The hands a pot is played for: the high hand by ``high``, and where ``low`` is given,
    a low by that rule that takes half of the pot when any hand has one (R80)."""

    high: HandRule
    low: LowRule | None = None


def hand_types(rule: HandRule | HandTypes) -> HandTypes:
    return rule if isinstance(rule, HandTypes) else HandTypes(rule)


@dataclass(frozen=True)
class Equity:
    """``shares``: each player's chance to win the main pot, 0 to 1 (they add up to 1).

    ``exact``: every way the cards can fall was ranked; else ``samples`` of them were drawn
    per run and ``margin`` is the 95% margin of error of the least certain share (0 when
    exact). ``runs`` is each run's own shares, in the order of the boards given."""

    shares: Mapping[str, float]
    exact: bool
    samples: int
    margin: float
    runs: tuple[Mapping[str, float], ...]

    def to_json(self) -> dict[str, object]:
        return {"shares": dict(self.shares), "exact": self.exact, "samples": self.samples,
                "margin": self.margin}


Evaluate = Callable[[Sequence[str]], int]
Score = Callable[[tuple[str, ...], tuple[str, ...]], int]  # a hand's score with a full board


def equity(
    hands: Mapping[str, Sequence[str] | None],
    boards: Sequence[Sequence[str]],
    *,
    rule: HandRule | HandTypes = HandRule.BEST_FIVE,
    dead: Sequence[str] = (),
    backend: str | None = None,
) -> Equity:
    """The main pot's equity of every player in ``hands`` (their hole cards, or None for a
    player whose cards nobody has seen), over ``boards``: one board's cards turned so far, or
    two for two runs (R66: each run's cards, the ones both share included). ``dead``: other
    cards everyone has seen that are in nobody's hand. ``backend``: the evaluator
    (:func:`evaluator.load`'s names; None: as the environment says).

    Raises :class:`IllegalActionError` with a sentence for cards that cannot be: a card twice,
    a hand of the wrong size, a board of more than five."""
    types = hand_types(rule)
    names = tuple(hands)
    given = tuple(None if cards is None else tuple(cards) for cards in hands.values())
    runs = tuple(tuple(board) for board in boards)
    _check(names, given, runs, tuple(dead), types.high)
    return _equity(names, given, runs, tuple(dead), types, evaluator.load(backend).backend)


def evaluations(
    hands: Mapping[str, Sequence[str] | None],
    boards: Sequence[Sequence[str]],
    *,
    rule: HandRule | HandTypes = HandRule.BEST_FIVE,
    dead: Sequence[str] = (),
) -> int:
    """How many hand evaluations :func:`equity` spends on these cards (checked as it checks
    them): each run's every way where that costs at most :data:`EXACT_EVALUATIONS`, else its
    samples'. A caller may work the costly ones out elsewhere (web/equity_later.py)."""
    types = hand_types(rule)
    names = tuple(hands)
    given = tuple(None if cards is None else tuple(cards) for cards in hands.values())
    runs = tuple(tuple(board) for board in boards)
    _check(names, given, runs, tuple(dead), types.high)
    unseen = _unseen(given, runs, tuple(dead), types.high.deck)
    total = 0
    for run in dict.fromkeys(runs):  # two runs with the same cards so far: counted once
        plan = _Plan(given, run, unseen, types.high.hole, types, _never)
        exact = plan.cost(plan.ways())
        total += exact if exact <= EXACT_EVALUATIONS else plan.cost(plan.samples())
    return total


def _never(_cards: Sequence[str]) -> int:
    raise AssertionError("a cost is counted, no hand ranked")


def _unseen(hands: tuple[tuple[str, ...] | None, ...], runs: tuple[tuple[str, ...], ...],
            dead: tuple[str, ...], deck: tuple[str, ...]) -> tuple[str, ...]:
    """The deck's cards nobody has seen, in the deck's order."""
    known = {c for cards in hands if cards is not None for c in cards}
    known |= {c for run in runs for c in run} | set(dead)
    return tuple(c for c in deck if c not in known)


def _check(names: tuple[str, ...], hands: tuple[tuple[str, ...] | None, ...],
           runs: tuple[tuple[str, ...], ...], dead: tuple[str, ...], rule: HandRule) -> None:
    hole = rule.hole
    deck = frozenset(rule.deck)
    if len(names) < 2:
        raise IllegalActionError("Equity needs two players or more.")
    if not 1 <= len(runs) <= 2:
        raise IllegalActionError("The cards run once or twice (R66).")
    seen: dict[str, str] = {}
    for name, cards in zip(names, hands, strict=True):
        if cards is not None and len(cards) != hole:
            raise IllegalActionError(f"{name} holds {hole} cards, not {len(cards)}.")
    places = [(f"{name}'s hand", cards) for name, cards in zip(names, hands, strict=True)
              if cards is not None]
    shared = _shared(runs)
    places += [("the board", shared)]
    places += [(f"run {i + 1}", run[len(shared):]) for i, run in enumerate(runs)]
    places += [("the dead cards", dead)]
    for place, cards in places:
        for card in cards:
            if card not in deck:
                raise IllegalActionError(f"{card!r} is not a card of the deck.")
            if card in seen:
                raise IllegalActionError(f"{card} is both in {seen[card]} and in {place}.")
            seen[card] = place
    if any(len(run) > BOARD_SIZE for run in runs):
        raise IllegalActionError(f"A board has {BOARD_SIZE} cards at most.")


def _shared(runs: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """The cards every run starts with (turned before the runs parted)."""
    first = runs[0]
    length = 0
    while length < len(first) and all(len(r) > length and r[length] == first[length]
                                      for r in runs):
        length += 1
    return first[:length]


@lru_cache(maxsize=512)
def _equity(names: tuple[str, ...], hands: tuple[tuple[str, ...] | None, ...],
            runs: tuple[tuple[str, ...], ...], dead: tuple[str, ...], rule: HandTypes,
            backend: evaluator.Backend) -> Equity:
    """:func:`equity` of checked cards, kept: a state is built again for every reader, and
    its cards do not change between reveals."""
    evaluate = evaluator.load(backend.value).evaluate
    hole = rule.high.hole
    unseen = _unseen(hands, runs, dead, rule.high.deck)
    counted: dict[tuple[str, ...], _Tally] = {}
    for run in runs:
        # two runs with the same cards so far have the same equity (each run's cards to come
        # are as likely as the other's): counted once
        if run not in counted:
            plan = _Plan(hands, run, unseen, hole, rule, evaluate)
            counted[run] = (plan.exact() if plan.cost(plan.ways()) <= EXACT_EVALUATIONS
                            else plan.sampled(_seed(names, hands, runs, dead, run)))
    per_run = list(counted.values())
    shares = {name: sum(t.mean(i) for t in per_run) / len(per_run)
              for i, name in enumerate(names)}
    exact = all(t.exact for t in per_run)
    # the runs are drawn independently: the error of their average adds in quadrature
    # (a run counted exactly adds no error)
    margin = 0.0 if exact else Z_95 * max(
        math.sqrt(sum(t.variance(i) / t.count for t in per_run if not t.exact))
        / len(per_run) for i in range(len(names)))
    return Equity(shares, exact, 0 if exact else max(t.count for t in per_run),
                  round(margin, 4),
                  tuple({name: counted[run].mean(i) for i, name in enumerate(names)}
                        for run in runs))


def _seed(*parts: object) -> int:
    """A seed from the cards: the same cards are sampled the same way in every process."""
    return int.from_bytes(hashlib.blake2b(repr(parts).encode(), digest_size=8).digest(), "big")


@dataclass
class _Tally:
    """Each player's share won, summed (and squared) over the ways counted."""

    won: list[float]
    squares: list[float]
    count: int
    exact: bool

    def mean(self, i: int) -> float:
        return self.won[i] / self.count

    def variance(self, i: int) -> float:
        mean = self.mean(i)
        return max(self.squares[i] / self.count - mean * mean, 0.0) * self.count / max(
            self.count - 1, 1)


class _Plan:
    """One run: the hands (some unknown), the board so far, and the cards that may come."""

    def __init__(self, hands: tuple[tuple[str, ...] | None, ...], board: tuple[str, ...],
                 unseen: tuple[str, ...], hole: int, rule: HandTypes,
                 evaluate: Evaluate) -> None:
        self.hands = hands
        self.board = board
        self.unseen = unseen
        self.hole = hole
        self.need = BOARD_SIZE - len(board)
        self.unknown = [i for i, cards in enumerate(hands) if cards is None]
        self.rule = rule
        self.evaluate = evaluate
        # the evaluations a hand costs on a full board: 60 ways of two plus three; the short
        # deck's 21 fives ranked in Python; a low, worked out from ranks alone, about a sixth
        # of two plus three's cost again
        self.per_hand = {HandRule.BEST_FIVE: 1, HandRule.TWO_PLUS_THREE: 60,
                         HandRule.SHORT_DECK: 21}[rule.high] + (10 if rule.low else 0)
        self.low = _low_scorer(rule)

    def ways(self) -> int:
        """How many ways the unknown hole cards and the board's missing cards can fall."""
        left, total = len(self.unseen), 1
        for _ in self.unknown:
            total *= math.comb(left, self.hole)
            left -= self.hole
        return total * math.comb(left, self.need)

    def cost(self, ways: int) -> int:
        return ways * len(self.hands) * self.per_hand

    def samples(self) -> int:
        """How many ways are drawn when sampling: the budget's share, within its bounds."""
        per_way = len(self.hands) * self.per_hand
        return max(FEWEST_SAMPLES, min(MOST_SAMPLES, SAMPLE_EVALUATIONS // per_way))

    def exact(self) -> _Tally:
        score = _scorer(self.rule, self.evaluate, remember=True)
        tally = _Tally([0.0] * len(self.hands), [0.0] * len(self.hands), 0, True)
        for holes, extra in self._every_way():
            self._count(tally, holes, self.board + extra, score, self.low)
        return tally

    def sampled(self, seed: int) -> _Tally:
        score = _scorer(self.rule, self.evaluate, remember=False)
        rng = random.Random(seed)
        count = self.samples()
        drawn = len(self.unknown) * self.hole + self.need
        tally = _Tally([0.0] * len(self.hands), [0.0] * len(self.hands), 0, False)
        pool = list(self.unseen)
        size = len(pool)
        uniform = rng.random
        holes = list(self.hands)
        for _ in range(count):
            # the first ``drawn`` places of a partial Fisher-Yates shuffle: a uniform draw
            # without replacement, at a third of random.sample's cost
            for i in range(drawn):
                j = i + int(uniform() * (size - i))
                pool[i], pool[j] = pool[j], pool[i]
            for k, seat in enumerate(self.unknown):
                holes[seat] = tuple(pool[k * self.hole:(k + 1) * self.hole])
            self._count(tally, holes, self.board + tuple(pool[drawn - self.need:drawn]), score,
                        self.low)
        return tally

    def _every_way(self) -> Iterator[tuple[list[tuple[str, ...] | None], tuple[str, ...]]]:
        def deal(k: int, left: tuple[str, ...], holes: list[tuple[str, ...] | None]
                 ) -> Iterator[tuple[list[tuple[str, ...] | None], tuple[str, ...]]]:
            if k == len(self.unknown):
                for extra in combinations(left, self.need):
                    yield holes, extra
                return
            for cards in combinations(left, self.hole):
                rest = tuple(c for c in left if c not in cards)
                holes[self.unknown[k]] = cards
                yield from deal(k + 1, rest, holes)

        yield from deal(0, self.unseen, list(self.hands))

    @staticmethod
    def _count(tally: _Tally, holes: Sequence[tuple[str, ...] | None], board: tuple[str, ...],
               score: Score, low: LowScore | None) -> None:
        scores = [score(cards or (), board) for cards in holes]
        if low is not None:
            lows = [low(cards or (), board) for cards in holes]
            if any(value is not None for value in lows):  # R80: the pot is halved
                shares = [0.0] * len(scores)
                for half in (scores, lows):
                    top_half = max(v for v in half if v is not None)
                    winners = [i for i, v in enumerate(half) if v == top_half]
                    for i in winners:
                        shares[i] += 0.5 / len(winners)
                for i, share in enumerate(shares):
                    tally.won[i] += share
                    tally.squares[i] += share * share
                tally.count += 1
                return
        top = max(scores)
        ties = scores.count(top)
        if ties == 1:  # most boards have one winner
            i = scores.index(top)
            tally.won[i] += 1.0
            tally.squares[i] += 1.0
        else:
            share = 1.0 / ties
            for i, s in enumerate(scores):
                if s == top:
                    tally.won[i] += share
                    tally.squares[i] += share * share
        tally.count += 1


_TRIPLES = tuple(combinations(range(BOARD_SIZE), 3))
_PAIRS = tuple(combinations(range(4), 2))


LowScore = Callable[[tuple[str, ...], tuple[str, ...]], int | None]
_EIGHT_LOW_RANKS = {rank: value for value, rank in enumerate("A2345678", start=1)}


def _eight_low_two_plus_three(hole: tuple[str, ...], board: tuple[str, ...]) -> int | None:
    """The eight-or-better low of two hole cards with three board cards as a score (higher
    better; None: no low), worked out from the ranks alone: with two hole ranks chosen, the
    best three of the board are its three lowest other ranks (R79)."""
    held = sorted({_EIGHT_LOW_RANKS[c[0]] for c in hole if c[0] in _EIGHT_LOW_RANKS})
    shown = sorted({_EIGHT_LOW_RANKS[c[0]] for c in board if c[0] in _EIGHT_LOW_RANKS})
    best: int | None = None
    for two in combinations(held, 2):
        rest = [r for r in shown if r not in two][:3]
        if len(rest) < 3:
            continue
        a, b, c, d, e = sorted((*two, *rest), reverse=True)
        key = a << 16 | b << 12 | c << 8 | d << 4 | e
        if best is None or key < best:
            best = key
    return None if best is None else -best


def _low_scorer(rule: HandTypes) -> LowScore | None:
    """A low's score from the hole cards and a full board (None: no low), by ``rule.low``."""
    low = rule.low
    if low is None:
        return None
    if rule.high is HandRule.TWO_PLUS_THREE:
        if low is LowRule.EIGHT_OR_BETTER:
            return _eight_low_two_plus_three

        def two_plus_three(hole: tuple[str, ...], board: tuple[str, ...]) -> int | None:
            value = best_low_two_plus_three(hole, board, low)
            return None if value is None else value.score
        return two_plus_three

    def any_five(hole: tuple[str, ...], board: tuple[str, ...]) -> int | None:
        value = best_low(hole + board, low)
        return None if value is None else value.score
    return any_five


def _scorer(rule: HandTypes, evaluate: Evaluate, *, remember: bool) -> Score:
    if rule.high is HandRule.BEST_FIVE:
        return lambda hole, board: evaluate(hole + board)
    if rule.high is HandRule.SHORT_DECK:
        return lambda hole, board: best_five_short_deck(hole + board).score
    if not remember:  # random boards share few triples: nothing worth keeping
        return lambda hole, board: max(
            evaluate((hole[i], hole[j], board[a], board[b], board[c]))
            for a, b, c in _TRIPLES for i, j in _PAIRS)
    # Two plus three counted exactly: the best of 6 hole pairs with each of the board's 10
    # triples. A run's boards share most triples (after the flop, 7 of the 10 hold at most one
    # card to come, in the same order), so each hand's best with a triple is kept: a third of
    # the evaluations
    best_with: dict[tuple[str, ...], int] = {}

    def two_plus_three(hole: tuple[str, ...], board: tuple[str, ...]) -> int:
        top = 0
        for a, b, c in _TRIPLES:
            key = (*hole, board[a], board[b], board[c])
            score = best_with.get(key)
            if score is None:
                triple = key[4:]
                score = best_with[key] = max(evaluate((hole[i], hole[j], *triple))
                                             for i, j in _PAIRS)
            if score > top:
                top = score
        return top

    return two_plus_three
