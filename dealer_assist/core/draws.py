"""Draw games, as parts a game is made with (R85): the draw after a betting round
(:class:`DrawPhase`: every player still in, from the dealer's left, one at a time, discards
none or some of their cards and is dealt as many; the ``discard`` record says how many), and
the showdown where each hand still in is entered whole (:class:`WholeHandShowdown`).

The dealer enters no card before the showdown: the app counts the cards each player drew
(``Player.draws``, public) and the cards left in the deck, and says when the discards are
shuffled into a new deck (R85).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.core.actions import Action
from dealer_assist.core.cards import FULL_DECK
from dealer_assist.core.deal import Deal, Player, PlayerStatus
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game
from dealer_assist.core.phases import Phase, check_turn
from dealer_assist.core.showdown import muckable
from dealer_assist.core.step import Step, StepKind
from dealer_assist.core.upcards import HandType, UpCardShowdown
from dealer_assist.core.words import and_words, number_word


def draw_words(name: str, count: int) -> str:
    """"Ann draws 2", "Ann draws 1", "Ann stands pat"."""
    return f"{name} stands pat" if count == 0 else f"{name} draws {count}"


@dataclass(frozen=True)
class Deck:
    """The cards in the deck and the discards waiting to be shuffled into a new one (R85),
    counted, never named."""

    left: int
    discards: int

    def after_draw(self, count: int) -> tuple[Deck, int]:
        """The deck once ``count`` cards are dealt for as many discarded, and how many of
        them come from a new deck of the discards shuffled (0 when the deck is enough): the
        drawing player's own discards are not in it."""
        if count <= self.left:
            return Deck(self.left - count, self.discards + count), 0
        short = count - self.left
        return Deck(self.discards - short, count), short


def dealt_in(deal: Deal) -> list[Player]:
    return [p for p in deal.players if p.status != PlayerStatus.OUT]


def deck_now(deal: Deal, hand_size: int) -> Deck:
    """The deck as the draws so far left it: 52 less a hand to each player dealt in, then
    each draw's cards in the order they were dealt (from the dealer's left, draw by draw)."""
    deck = Deck(len(FULL_DECK) - hand_size * len(dealt_in(deal)), 0)
    order = deal.seats_from(deal.left_of_dealer)
    for index in range(max((len(p.draws) for p in deal.players), default=0)):
        for p in order:
            if index < len(p.draws):
                deck, _ = deck.after_draw(p.draws[index])
    return deck


class DrawPhase(Phase):
    """A draw (R85): every player still in, from the dealer's left, discards ``0`` (stands
    pat) to ``hand_size`` cards and is dealt as many, one ``discard`` record each; a player
    all in draws too. ``index``: the draws before this one; ``label``: "First draw"."""

    def __init__(self, index: int, label: str, hand_size: int) -> None:
        self.index = index
        self.label = label
        self.hand_size = hand_size

    def enter(self, game: Game, deal: Deal) -> None:
        deal.turn = self.next_to_draw(deal, deal.left_of_dealer)
        if deal.turn is None:
            self.mark_done(deal)

    def next_to_draw(self, deal: Deal, start: int) -> int | None:
        """The first player still in from ``start`` who has not drawn in this draw."""
        return next((p.seat for p in deal.seats_from(start)
                     if p.live and len(p.draws) <= self.index), None)

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("discard",)

    def refusal(self, game: Game, deal: Deal, action: Action) -> str:
        return f"Cannot {action.type.replace('_', ' ')} now: {self.step(game, deal).instruction}"

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        if not deal.player(action.player).live:
            raise IllegalActionError(f"{deal.player(action.player).name} is not in the hand: "
                                     "only the players still in draw.")
        p = check_turn(deal, action)
        count = action.count
        if count is None:
            raise IllegalActionError(f"Say how many cards {p.name} draws (count): 0 stands "
                                     f"pat, up to {self.hand_size}.")
        if count > self.hand_size:
            raise IllegalActionError(f"{p.name} cannot draw {count}: a hand has "
                                     f"{self.hand_size} cards.")
        _, shuffled = deck_now(deal, self.hand_size).after_draw(count)
        p.draws.append(count)
        tail = (f" ({shuffled} from the discards, shuffled into a new deck)" if shuffled
                else "")
        deal.log.append(f"{self.label}: {draw_words(p.name, count)}{tail}.")
        deal.turn = self.next_to_draw(deal, p.seat)
        if deal.turn is None:
            self.mark_done(deal)

    def step(self, game: Game, deal: Deal) -> Step:
        if deal.turn is None:
            return Step(StepKind.DISCARD, f"{self.label} is over.")
        p = deal.players[deal.turn]
        deck = deck_now(deal, self.hand_size)
        words = f"{self.label}: how many does {p.name} draw? 0 stands pat, up to " \
                f"{self.hand_size}."
        if deck.left < self.hand_size:
            words += (f" {number_word(deck.left).capitalize()} left in the deck: past them, "
                      "shuffle the discards (not this player's) into a new deck.")
        return Step(StepKind.DISCARD, words, player=p.name, most_cards=self.hand_size,
                    public=f"{self.label}: {p.name} is drawing.")


class WholeHandShowdown(UpCardShowdown):
    """The showdown of a draw game (R85): each hand still in entered whole (``hand_size``
    cards), ranked by ``hand_types`` as :class:`UpCardShowdown` ranks a hand."""

    def __init__(self, hand_size: int, hand_types: tuple[HandType, ...]) -> None:
        super().__init__(hand_size, hand_types)

    def step(self, game: Game, deal: Deal) -> Step:
        names = [p.name for p in deal.still_in()]
        count = self.down_count(deal)
        return Step(StepKind.SHOWDOWN, cells=(), players=tuple(names), hole_cards=count,
                    muckable=muckable(deal, deal.still_in()),
                    instruction=f"Showdown: enter the {number_word(count)} cards of "
                                f"{and_words(names)}.",
                    public=f"Showdown: {and_words(names)} show their hands.")


def draw_phases(rounds: Sequence[Phase], hand_size: int, labels: Sequence[str]
                ) -> list[Phase]:
    """The betting ``rounds`` with a draw between each two (R85), labelled in order."""
    phases: list[Phase] = [rounds[0]]
    for index, (label, betting) in enumerate(zip(labels, rounds[1:], strict=True)):
        phases += [DrawPhase(index, label, hand_size), betting]
    return phases


__all__ = ["Deck", "DrawPhase", "WholeHandShowdown", "deck_now", "draw_phases", "draw_words"]
