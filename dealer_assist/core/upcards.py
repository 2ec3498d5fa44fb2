"""Cards dealt face up to each player, as parts a game is made with (R81, R82): the street
whose new up cards the dealer enters (:class:`UpCardStreet`), the last card (down, or turned
in the middle for all when too few are left), the antes and the opener chosen by the up cards
(:class:`UpCardOpening`: a bring-in by the lowest or highest card, then the best or lowest
hand showing), and the showdown of each hand's down cards (:class:`UpCardShowdown`), ranked
by one hand type or split between two (R80).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from dealer_assist.core.actions import Action
from dealer_assist.core.blinds import Antes, OpeningRound
from dealer_assist.core.cards import FULL_DECK, RANK_NAMES, RANK_PLURALS, RANKS, card_name
from dealer_assist.core.deal import Deal, Player, PlayerStatus, up_place
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game
from dealer_assist.core.hands import best_five
from dealer_assist.core.lowhands import LowRule, best_low
from dealer_assist.core.phases import Phase
from dealer_assist.core.result import ShownHand
from dealer_assist.core.showdown import (
    LowRanked,
    Ranked,
    ShowdownPhase,
    high_low_words,
    muckable,
    pay_high_low,
    ranked_name,
    seat_pots,
    settle_pots,
)
from dealer_assist.core.step import Step, StepKind
from dealer_assist.core.words import and_words, hand_phrase, number_word

COMMUNITY = "c1"  # R81: the one card turned in the middle when too few are left
SUIT_ORDER = "cdhs"  # R81: ties of the bring-in card by suit, clubs lowest


@dataclass(frozen=True)
class UpCardOpening(Antes):
    """Everyone dealt in antes (R81); the first round is opened by the up card that is lowest
    (``low_hands`` False: aces high) or highest (True: aces low, kings highest), which owes
    the bring-in; every later round by the best hand showing in the up cards, or the lowest
    (``low_hands``). Pairs and more count in a hand showing, straights and flushes do not
    (as PokerKit ranks them); ties go to the first from the dealer's left."""

    low_hands: bool = False

    def rank_value(self, card: str) -> int:
        """A rank's order: 2 lowest and ace highest, or ace lowest and king highest."""
        if self.low_hands:
            return 0 if card[0] == "A" else RANKS.index(card[0]) + 1
        return RANKS.index(card[0])

    def card_key(self, card: str) -> tuple[int, int]:
        """The bring-in's order: rank, then suit (clubs lowest, spades highest)."""
        key = (self.rank_value(card), SUIT_ORDER.index(card[1]))
        return (-key[0], -key[1]) if self.low_hands else key

    def showing_key(self, cards: Sequence[str]) -> tuple[int, ...]:
        """The order of a hand showing, larger first to act: what it makes (nothing, a pair,
        two pair, three, four of a kind), then its ranks, the largest groups first; for low
        hands the order is turned round (the lowest showing acts first)."""
        counts = Counter(self.rank_value(c) for c in cards)
        groups = sorted(counts.items(), key=lambda item: (-item[1], -item[0]))
        shape = sorted(counts.values(), reverse=True)
        made = {(1,): 0, (2,): 1, (2, 2): 2, (3,): 3, (4,): 4}[tuple(n for n in shape if n > 1)
                                                                or (1,)]
        key = (made, len(cards), *(value for value, _ in groups))
        return tuple(-k for k in key) if self.low_hands else key

    def showing(self, deal: Deal) -> list[Player]:
        """The players still in, from the dealer's left (where ties go first)."""
        return [p for p in deal.seats_from(deal.left_of_dealer) if p.live and p.up]

    def first_by_cards(self, deal: Deal, phase: OpeningRound) -> Player:
        players = self.showing(deal)
        if phase.index == 0:
            return min(players, key=lambda p: self.card_key(p.up[0]))
        return max(players, key=lambda p: self.showing_key(p.up))

    def opener(self, deal: Deal, phase: OpeningRound) -> int:
        return self.first_by_cards(deal, phase).seat

    def bring_in(self, deal: Deal, phase: OpeningRound) -> int:
        return deal.rules.bring_in_chips if phase.index == 0 else 0

    def opening_words(self, deal: Deal, phase: OpeningRound) -> str | None:
        """"Bob brings in: 2 of clubs, the lowest up card"; "Ann acts first: a pair of kings,
        the best hand showing"; with the seat the cards name all in, the next seat acts."""
        first = self.first_by_cards(deal, phase)
        if phase.index == 0:
            what = f"{card_name(first.up[0])}, the {'highest' if self.low_hands else 'lowest'}" \
                   " up card"
            verb = "brings in" if deal.rules.bring_in_chips else "acts first"
        else:
            what = (f"{self.showing_words(first.up)}, the "
                    f"{'lowest' if self.low_hands else 'best'} hand showing")
            verb = "acts first"
        if deal.turn is None or deal.turn == first.seat:
            return f"{first.name} {verb}: {what}."
        return (f"{deal.players[deal.turn].name} {verb}: {first.name} ({what}) is all in.")

    def showing_words(self, cards: Sequence[str]) -> str:
        """A hand showing in words: "a pair of kings", "two pair, kings and fours", "three
        sevens", "king-nine-four" (no pair: its ranks, highest first)."""
        counts = Counter(c[0] for c in cards)
        by_size = sorted(counts.items(), key=lambda item: (-item[1], -self.rank_value(item[0]
                                                                                     + "c")))
        pairs = [rank for rank, n in by_size if n == 2]
        top_rank, top = by_size[0]
        if top == 4:
            return f"four {RANK_PLURALS[top_rank]}"
        if top == 3:
            return f"three {RANK_PLURALS[top_rank]}"
        if len(pairs) == 2:
            return f"two pair, {RANK_PLURALS[pairs[0]]} and {RANK_PLURALS[pairs[1]]}"
        if pairs:
            return f"a pair of {RANK_PLURALS[pairs[0]]}"
        return "-".join(RANK_NAMES[rank] for rank, _ in by_size)


def dealt_in(deal: Deal) -> list[Player]:
    return [p for p in deal.players if p.status != PlayerStatus.OUT]


def cards_left(deal: Deal, down: int) -> int:
    """The cards still in the deck: 52, less ``down`` down cards and the up cards of every
    player dealt in (a folded hand's cards are not dealt again)."""
    return len(FULL_DECK) - sum(down + len(p.up) for p in dealt_in(deal))


class UpCardStreet(Phase):
    """A street that deals each player still in a card face up (the first street also
    ``down`` cards down first): the dealer deals, then enters every new up card, by player
    (R81: the bring-in and who acts first depend on them all)."""

    def __init__(self, label: str, down: int = 0) -> None:
        self.label = label
        self.down = down

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("reveal",)

    def dealing(self) -> str:
        if self.down:
            return f"deal {number_word(self.down)} cards down and one up to each player"
        return "deal one card up to each player still in"

    def step(self, game: Game, deal: Deal) -> Step:
        names = tuple(p.name for p in deal.still_in())
        return Step(StepKind.REVEAL, f"{self.label}: {self.dealing()}, then enter each up card.",
                    players=names,
                    public=f"{self.label}: the dealer is dealing an up card to each player.")

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        entered = up_cards_given(deal, action, self.label)
        deal.check_new_cards((up_place(deal.players[seat].name), card)
                             for seat, card in entered.items())
        for seat, card in sorted(entered.items()):
            deal.players[seat].up.append(card)
        deal.log.append(f"{self.label}: " + ", ".join(
            f"{deal.players[seat].name} {card}" for seat, card in entered.items()) + ".")
        self.mark_done(deal)


def up_cards_given(deal: Deal, action: Action, label: str) -> dict[int, str]:
    """A reveal's new up cards, by seat: one for each player still in, and no other."""
    if action.cards is not None:
        raise IllegalActionError(
            'Give each player\'s up card by name, such as {"cards": {"Ann": "Kd"}}.')
    given: dict[int, str] = {}
    for name, text in action.cells or ():
        if name.lower() == COMMUNITY:
            raise IllegalActionError(f"No card is turned in the middle on {label.lower()}.")
        p = deal.player(name)
        if not p.live:
            raise IllegalActionError(f"{p.name} is not in the hand: no up card for them.")
        given[p.seat] = deal.parse(text)
    missing = [p.name for p in deal.still_in() if p.seat not in given]
    if missing:
        raise IllegalActionError(f"Enter every new up card ({label.lower()}): "
                                 f"{and_words(missing)}'s {'is' if len(missing) == 1 else 'are'}"
                                 " missing.")
    return given


class LastCard(Phase):
    """The last street (R81): a card down to each player still in, or, when the deck has too
    few left for them all, one card turned face up in the middle for all (``c1``)."""

    def __init__(self, label: str, down: int) -> None:
        self.label = label
        self.down = down  # the down cards dealt before

    def community(self, deal: Deal) -> bool:
        return cards_left(deal, self.down) < len(deal.still_in())

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("reveal",) if self.community(deal) else ("next",)

    def step(self, game: Game, deal: Deal) -> Step:
        if self.community(deal):
            return Step(StepKind.REVEAL, cells=(COMMUNITY,),
                        instruction=f"{self.label}: too few cards are left for everyone: turn "
                                    "one face up in the middle for all, then enter it.",
                        public=f"{self.label}: one card is turned in the middle for all.")
        return Step(StepKind.NEXT, f"{self.label}: deal one card down to each player still "
                                   "in, then tap Next.",
                    public=f"{self.label}: the dealer is dealing the last card down.")

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        if action.type == "next":
            deal.log.append(f"{self.label}: one card down to each player.")
        else:
            cells = dict(action.cells or ())
            texts = list(action.cards) if action.cards is not None else (
                [cells.pop(COMMUNITY)] if COMMUNITY in cells else [])
            if cells or len(texts) > 1:
                raise IllegalActionError(f"{self.label}: enter the one card in the middle, as "
                                         f'{{"cards": {{"{COMMUNITY}": "7h"}}}}.')
            # the card may be entered now, or at the showdown
            card = deal.parse(texts[0]) if texts else None
            if card is not None:
                deal.check_new_cards([(COMMUNITY, card)])
            deal.grid[COMMUNITY] = card
            deal.revealed.append(COMMUNITY)
            deal.log.append(f"{self.label}: {card or 'a card'} in the middle for all.")
        self.mark_done(deal)


class HandType(Protocol):
    """One way to rank a hand of up to seven cards (R79): the best high hand, or a low that
    may not qualify (None)."""

    def best(self, cards: Sequence[str]) -> Ranked | None: ...


@dataclass(frozen=True)
class HighHand:
    """The best high five of the cards (R2, R81)."""

    def best(self, cards: Sequence[str]) -> Ranked | None:
        return best_five(cards)


@dataclass(frozen=True)
class LowHand:
    """The best low of the cards by ``rule`` (R79), or None where none qualifies."""

    rule: LowRule

    def best(self, cards: Sequence[str]) -> Ranked | None:
        value = best_low(cards, self.rule)
        return None if value is None else LowRanked(value.score, value.cards, value.words)


class UpCardShowdown(ShowdownPhase):
    """Every player still in shows their down cards (``down``, one fewer when a card was
    turned in the middle); a hand is the best five of their down and up cards (and the card
    in the middle) by each of ``hand_types``: one ranks every pot; two (high, then a low that
    may not qualify) split each pot between them (R80)."""

    def __init__(self, down: int, hand_types: tuple[HandType, ...]) -> None:
        self.down = down
        self.hand_types = hand_types

    cells_name = "card in the middle"

    def down_count(self, deal: Deal) -> int:
        return self.down - (1 if COMMUNITY in deal.grid else 0)

    def all_cells(self, deal: Deal) -> tuple[str, ...]:
        """The card in the middle, where one was turned (R81)."""
        return (COMMUNITY,) if COMMUNITY in deal.grid else ()

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        if action.board or (action.cells and COMMUNITY not in deal.grid):
            raise IllegalActionError("At this showdown only the players' down cards are "
                                     "entered (hands).")
        given = self.given_cells(deal, {cell: deal.parse(t) for cell, t in action.cells or ()})
        mucked = self.muck_hands(deal, action)  # R6: a losing hand may be given up unseen
        holes = self.hole_cards(deal, action, self.down_count(deal))
        self.lay_down(deal, given, holes)
        self.settle(game, deal)
        self.note_mucked(deal, mucked)
        self.mark_done(deal)

    def whole_hand(self, deal: Deal, p: Player) -> list[str]:
        middle = deal.grid.get(COMMUNITY)
        return [*p.cards, *p.up, *([middle] if middle else [])]

    def settle(self, game: Game, deal: Deal) -> None:
        ranked = [{p.seat: kind.best(self.whole_hand(deal, p)) for p in deal.still_in()}
                  for kind in self.hand_types]
        high = ranked[0]
        lows = ranked[1] if len(ranked) > 1 else {}
        result = deal.result = game.result_type(hands={
            deal.players[seat].name: ShownHand(
                list(value.cards), value.name,
                low=ShownHand(list(low.cards), low.name) if (low := lows.get(seat)) else None)
            for seat, value in high.items() if value is not None})
        if lows:
            self.settle_high_low(deal, high, lows)
            return
        scores = {i: value.score for i, s in enumerate(deal.stakes)
                  if (value := high.get(s.owner)) is not None}
        won, deal.carry = settle_pots(deal, scores)
        for share, stakes in zip(result.pots or (), won, strict=True):
            if stakes:
                share.hand = ranked_name(high, deal.stakes[stakes[0]].owner)
        top = max(scores.values())
        winners = sorted({deal.stakes[i].owner for i, v in scores.items() if v == top})
        result.winners = [deal.players[s].name for s in winners]
        deal.log.append(f"{and_words(result.winners)} win{'s' if len(winners) == 1 else ''} "
                        f"with {hand_phrase(ranked_name(high, winners[0]))}.")

    def settle_high_low(self, deal: Deal, high: Mapping[int, Ranked | None],
                        lows: Mapping[int, Ranked | None]) -> None:
        """R80: each pot split between the best high hand and the best qualifying low
        (``pay_high_low``)."""
        result = deal.settled()
        left, shares = pay_high_low(deal, seat_pots(deal), high, lows)
        deal.clear_pots()
        deal.carry = left  # R7 carry: odd chips wait a deal
        winners = {s for share in shares for s in (*share.high_winners, *share.low_winners)}
        result.winners = [deal.players[s].name for s in sorted(winners)]
        for share in shares[:1]:
            deal.log.append(high_low_words(deal, share, high, lows) + ".")

    def step(self, game: Game, deal: Deal) -> Step:
        names = [p.name for p in deal.still_in()]
        count = self.down_count(deal)
        missing = self.missing(deal)
        middle = " and the card in the middle" if missing else ""
        return Step(StepKind.SHOWDOWN, cells=tuple(missing), players=tuple(names),
                    hole_cards=count, muckable=muckable(deal, deal.still_in()),
                    instruction=f"Showdown: enter the {number_word(count)} down cards of "
                                f"{and_words(names)}{middle}.",
                    public="Showdown: " + and_words(names) + " show their down cards.")
