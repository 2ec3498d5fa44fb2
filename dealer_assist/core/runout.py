"""A community board at an all-in: run twice (R66), and the hands tabled with each one's chance
to win (R67).

Once no more betting is possible (every player still in is all in, or all but one), the
board's reveals (:class:`BoardReveal`) also take ``run_twice``, before the first card turned
after that, and ``show``, the hands tabled. Run twice, every board cell still face down has a
twin named ``<cell>.2`` (after the flop ``b4.2`` and ``b5.2``), turned once the first run is
out, a reveal at a time as the first run's were (:class:`SecondRun`); the showdown then settles
each pot's halves on the two boards (``core/showdown.py``). The equity of the hands tabled is
:func:`deal_equity`'s, from the public cards alone.

>>> from dealer_assist.games.registry import all_games, new_table
>>> game = next(g for g in all_games() if g.board_equity is not None)
>>> t = new_table(game.variant, ["Ann", "Bob"], {"small_blind": 1, "big_blind": 2})
>>> for body in ({"type": "start_deal"}, {"type": "next"},
...              {"type": "all_in", "player": "Ann"}, {"type": "call", "player": "Bob"}):
...     t = t.apply(t.prepare(body))
>>> t.step()["options"]
['run_twice', 'show']
>>> t = t.apply(t.prepare({"type": "run_twice"}))
>>> [c for c in t.deal.second_run]
['b1', 'b2', 'b3', 'b4', 'b5']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from dealer_assist.core.actions import Action
from dealer_assist.core.deal import Deal, PlayerStatus, hand_place
from dealer_assist.core.equity import Equity, HandTypes, equity, evaluations
from dealer_assist.core.equity import HandRule as EquityRule
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game
from dealer_assist.core.phases import Phase, RevealPhase
from dealer_assist.core.showdown import CardsShowdown, second_cell
from dealer_assist.core.step import Step
from dealer_assist.core.words import and_words


def betting_over(deal: Deal) -> bool:
    """R5: no more betting is possible (every player still in is all in, or all but one),
    with two players or more still in."""
    live = deal.still_in()
    return len(live) > 1 and sum(p.status == PlayerStatus.IN for p in live) <= 1


def showdown_of(game: Game) -> CardsShowdown:
    return next(p for p in game.phases if isinstance(p, CardsShowdown))


def to_table(deal: Deal) -> list[str]:
    """The players still in whose cards are not tabled yet."""
    return [p.name for p in deal.still_in() if p.seat not in deal.tabled]


def all_in_options(deal: Deal) -> tuple[str, ...]:
    """What the dealer may record now beside the reveal: ``run_twice`` (R66), ``show`` (R67)."""
    if not betting_over(deal):
        return ()
    options: list[str] = []
    if not deal.second_run and not deal.run_out:
        options.append("run_twice")
    if to_table(deal):
        options.append("show")
    return tuple(options)


def with_options(game: Game, deal: Deal, step: Step) -> Step:
    """A reveal's step with what may be recorded beside it, and who may table their cards."""
    options = all_in_options(deal)
    if not options:
        return step
    players = to_table(deal)
    return replace(step, options=options, players=tuple(players) if players else None,
                   hole_cards=showdown_of(game).hole if players else None)


def run_label(label: str, run: int) -> str:
    """"the turn" as a run's: "the first run's turn", "the second run's turn"."""
    bare = label[4:] if label.startswith("the ") else label
    return f"the {('first', 'second')[run - 1]} run's {bare}"


class BoardReveal(RevealPhase):
    """The turn of a community board's cards (R61); at an all-in, also ``run_twice`` and
    ``show``."""

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("reveal", "run_twice", "show")

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        if action.type == "run_twice":
            run_twice(game, deal)
        elif action.type == "show":
            table_hands(game, deal, action)
        else:
            if betting_over(deal):
                deal.run_out = True  # a card of the run-out is out: no running twice now
            RevealPhase.handle(self.as_turned(deal), game, deal, action)

    def step(self, game: Game, deal: Deal) -> Step:
        return with_options(game, deal, RevealPhase.step(self.as_turned(deal), game, deal))

    def as_turned(self, deal: Deal) -> RevealPhase:
        """This reveal, named as the first run's where the board runs twice."""
        if deal.second_run and any(c in deal.second_run for c in self.cells):
            return RevealPhase(self.cells, run_label(self.label, 1))
        return self


class SecondRun(Phase):
    """R66: the second run's cells, turned once the first run is out, a reveal at a time as the
    first run's (``reveals``) were; nothing where the board runs once."""

    def __init__(self, reveals: Sequence[RevealPhase]) -> None:
        self.reveals = tuple(reveals)

    def current(self, deal: Deal) -> RevealPhase | None:
        """The reveal of the second run to turn now, or None when it is out (or not run)."""
        for reveal in self.reveals:
            cells = tuple(second_cell(c) for c in reveal.cells if c in deal.second_run)
            if cells and not all(c in deal.revealed for c in cells):
                return RevealPhase(cells, run_label(reveal.label, 2))
        return None

    def done(self, game: Game, deal: Deal) -> bool:
        return self.current(deal) is None

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("reveal", "show")

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        if action.type == "show":
            table_hands(game, deal, action)
            return
        reveal = self.current(deal)
        assert reveal is not None
        reveal.handle(game, deal, action)

    def step(self, game: Game, deal: Deal) -> Step:
        reveal = self.current(deal)
        assert reveal is not None
        return with_options(game, deal, reveal.step(game, deal))


def run_twice(game: Game, deal: Deal) -> None:
    """R66: every board cell still face down is turned twice."""
    if not betting_over(deal):
        raise IllegalActionError("Run it twice only when no more betting is possible: every "
                                 "player still in is all in, or all but one.")
    if deal.second_run:
        raise IllegalActionError("The board is already run twice.")
    if deal.run_out:
        raise IllegalActionError("Run it twice before the next card is turned: a card is "
                                 "already out since the all-in. Undo it to run twice.")
    cells = tuple(c for c in showdown_of(game).cells if c not in deal.revealed)
    deal.second_run = cells
    streets = [p.label for p in game.phases
               if isinstance(p, BoardReveal) and any(c in cells for c in p.cells)]
    deal.log.append(f"Run it twice: {and_words(streets)} "
                    f"{'is' if len(streets) == 1 else 'are'} turned twice.")


def table_hands(game: Game, deal: Deal, action: Action) -> None:
    """R67: the hands turned face up at an all-in, and the faces of board cards turned but not
    entered yet (``cells``)."""
    if not betting_over(deal):
        raise IllegalActionError("The hands are tabled only when no more betting is possible: "
                                 "every player still in is all in, or all but one.")
    if not action.hands:
        raise IllegalActionError('Say whose cards are tabled: hands, such as '
                                 '{"Ann": ["As", "Ad"]}.')
    hole = showdown_of(game).hole
    holes: dict[int, list[str]] = {}
    for name, texts in action.hands:
        p = deal.player(name)
        if not p.live:
            raise IllegalActionError(f"{p.name} is not in the hand: only players still in "
                                     "table their cards.")
        if p.seat in deal.tabled or p.seat in holes:
            raise IllegalActionError(f"{p.name}'s cards are tabled already.")
        cards = [deal.parse(t) for t in texts]
        if len(cards) != hole:
            raise IllegalActionError(f"{p.name} has {hole} hole cards, not {len(cards)}.")
        holes[p.seat] = cards
    cells: dict[str, str] = {}
    for cell, text in action.cells or ():
        if cell not in deal.revealed:
            raise IllegalActionError(f"{cell} is not turned yet: its card comes with its "
                                     "reveal.")
        if deal.grid.get(cell):
            raise IllegalActionError(f"{cell} is already entered as {deal.grid[cell]}; undo "
                                     "to change it.")
        cells[cell] = deal.parse(text)
    deal.check_new_cards([
        *cells.items(),
        *((hand_place(deal.players[seat].name), c) for seat, cards in holes.items()
          for c in cards)])
    deal.grid.update(cells)
    for seat, cards in holes.items():
        deal.players[seat].cards = cards
        deal.tabled += (seat,)
    if len(holes) == 1:
        [(seat, cards)] = holes.items()
        deal.log.append(f"{deal.players[seat].name} tables {' '.join(cards)}.")
    else:
        names = and_words([deal.players[seat].name for seat in holes])
        shown = ", ".join(f"{deal.players[seat].name} {' '.join(cards)}"
                          for seat, cards in holes.items())
        deal.log.append(f"{names} table their cards: {shown}.")


def run_boards(game: Game, deal: Deal) -> list[list[str | None]]:
    """Each run's board as turned so far (None for a card turned but not entered): the first
    run's, then the second's (the cards turned before the runs parted, and its own)."""
    cells = showdown_of(game).cells
    first = [deal.grid.get(c) for c in cells if c in deal.revealed]
    if not deal.second_run:
        return [first]
    shared = [deal.grid.get(c) for c in cells if c in deal.revealed and c not in deal.second_run]
    own = [deal.grid.get(second_cell(c)) for c in deal.second_run
           if second_cell(c) in deal.revealed]
    return [first, shared + own]


@dataclass(frozen=True)
class EquityQuestion:
    """R67's figures to work out: the hands of the players still in (None: not tabled), each
    run's board, and how a hand is made. Equal cards, equal questions: a key for a cache."""

    hands: tuple[tuple[str, tuple[str, ...] | None], ...]
    boards: tuple[tuple[str, ...], ...]
    rule: EquityRule | HandTypes

    def answer(self) -> Equity:
        return equity(dict(self.hands), self.boards, rule=self.rule)

    def evaluations(self) -> int:
        """What :meth:`answer` costs, in hand evaluations (``equity.evaluations``)."""
        return evaluations(dict(self.hands), self.boards, rule=self.rule)


def equity_question(game: Game, deal: Deal) -> EquityQuestion | str | None:
    """R67: what to work out for each player still in's chance to win the main pot from the
    public cards (the hands tabled, the board turned), once a hand is tabled and until the
    showdown; a sentence instead where a card turned is not entered (nobody can count what it
    is). None where there is nothing to show."""
    rule = game.board_equity
    if rule is None or not deal.tabled or deal.result is not None:
        return None
    boards = run_boards(game, deal)
    if any(card is None for board in boards for card in board):
        return "Enter the faces of the board cards turned to see each player's chances."
    return EquityQuestion(
        tuple((p.name, tuple(p.cards) if p.seat in deal.tabled else None)
              for p in deal.still_in()),
        tuple(tuple(c for c in board if c) for board in boards), rule)


def deal_equity(game: Game, deal: Deal) -> Equity | str | None:
    """:func:`equity_question`'s figures worked out here (or its sentence, or None)."""
    question = equity_question(game, deal)
    return question.answer() if isinstance(question, EquityQuestion) else question
