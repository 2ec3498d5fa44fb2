"""Showdowns, composed from parts: the cards still to enter, checked and laid down
(:class:`ShowdownPhase`); a hand rule (:class:`BestFive`, :class:`TwoFromHoleThreeFromBoard`);
one pot-settling function (:func:`settle_pots`) and its split twin (:func:`pay_high_low`, R80);
and the showdown most games use, :class:`CardsShowdown`, parametrised by the hole-card count,
the hand rule (and a low rule that splits each pot, R80) and the board (a row of community
cards, or the lines of a grid)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from dealer_assist.core.actions import Action
from dealer_assist.core.cards import Wilds
from dealer_assist.core.deal import Deal, Player, PlayerStatus, hand_place
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game
from dealer_assist.core.hands import (
    HandValue,
    best_five,
    best_five_short_deck,
    best_two_plus_three,
)
from dealer_assist.core.hilo import HighLowPot, split_high_low
from dealer_assist.core.lowhands import LowRule, best_low_two_plus_three
from dealer_assist.core.phases import Phase
from dealer_assist.core.pots import Pot
from dealer_assist.core.result import HalfShare, PotShare, ShownHand
from dealer_assist.core.step import Step, StepKind
from dealer_assist.core.words import and_words, hand_phrase, number_word, pot_label

SECOND_RUN = ".2"  # R66: a cell of the second run is its first run's cell and this: "b4.2"


def second_cell(cell: str) -> str:
    return cell + SECOND_RUN


class ShowdownPhase(Phase):
    """What every showdown shares: the cards still to enter, checked and then laid down."""

    cells: tuple[str, ...] = ()
    cells_name = "grid card"

    def all_cells(self, deal: Deal) -> tuple[str, ...]:
        """Every cell to enter: the layout's, and the second run's where the board is run
        twice (R66: ``b4.2``...)."""
        return self.cells + tuple(second_cell(c) for c in deal.second_run)

    def missing(self, deal: Deal) -> list[str]:
        return [c for c in self.all_cells(deal) if not deal.grid.get(c)]

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("showdown",)

    def given_cells(self, deal: Deal, given: dict[str, str]) -> dict[str, str]:
        """The cards given for cells not entered yet; every cell must then have its card."""
        cells = self.all_cells(deal)
        for cell_name, card in given.items():
            if cell_name not in cells:
                raise IllegalActionError(
                    f"{cell_name} is not a cell here: they are {cells[0]} to {cells[-1]}."
                )
            if deal.grid.get(cell_name) and deal.grid[cell_name] != card:
                raise IllegalActionError(
                    f"{cell_name} is already entered as {deal.grid[cell_name]}; undo to change it."
                )
        missing = [c for c in self.missing(deal) if c not in given]
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            raise IllegalActionError(
                f"Enter every {self.cells_name}: {' '.join(missing)} {verb} missing."
            )
        return {c: card for c, card in given.items() if not deal.grid.get(c)}

    def board_given(self, deal: Deal, action: Action) -> dict[str, str]:
        """The cards given, by cell: as ``cells``, or as ``board``, a list of every cell's card
        or of the ones not entered yet (a board laid in a row)."""
        given: dict[str, str] = {cell: deal.parse(t) for cell, t in action.cells or ()}
        if action.board is not None:
            cards = [deal.parse(t) for t in action.board]
            missing = self.missing(deal)
            cells = self.all_cells(deal)
            if len(cards) == len(cells):
                given.update(zip(cells, cards, strict=True))
            elif len(cards) == len(missing):
                given.update(zip(missing, cards, strict=True))
            else:
                runs = " (run twice)" if deal.second_run else ""
                raise IllegalActionError(
                    f"The board is {len(cells)} cards{runs}; {len(missing)} of them are not "
                    f"entered yet, and {len(cards)} were given."
                )
        return given

    def hole_cards(self, deal: Deal, action: Action, count: int) -> dict[int, list[str]]:
        """Every player still in shows ``count`` cards, but those whose cards are tabled
        already (R67: not asked again; given again, the same cards)."""
        hands = {deal.player(name).seat: cards for name, cards in action.hands or ()}
        holes: dict[int, list[str]] = {}
        for p in deal.still_in():
            if p.seat in deal.tabled:
                if p.seat in hands and [deal.parse(t) for t in hands[p.seat]] != p.cards:
                    raise IllegalActionError(
                        f"{p.name}'s cards are tabled already as {' '.join(p.cards)}; undo "
                        "the show to change them.")
                continue
            cards = [deal.parse(t) for t in hands.get(p.seat, ())]
            if not cards:
                raise IllegalActionError(
                    f"Enter {p.name}'s {count} hole cards, or muck {p.name}'s hand.")
            if len(cards) != count:
                raise IllegalActionError(
                    f"{p.name} has {count} hole cards, not {len(cards)}."
                )
            holes[p.seat] = cards
        return holes

    @staticmethod
    def muck_hands(deal: Deal, action: Action) -> list[Player]:
        """The hands the dealer marks as mucked (``muck``), checked, then out of every pot:
        a mucked hand loses, its cards never shown (R6)."""
        mucked = [deal.player(name) for name in action.muck or ()]
        given = {deal.player(name).seat for name, _ in action.hands or ()}
        for p in mucked:
            if not p.live:
                raise IllegalActionError(
                    f"{p.name} has no hand to muck: only a hand still in is mucked.")
            if p.seat in deal.tabled:
                raise IllegalActionError(
                    f"{p.name}'s cards are tabled (R67): a tabled hand plays; undo the show "
                    "to muck it.")
            if p.seat in given:
                raise IllegalActionError(
                    f"{p.name}'s hand is both given and mucked: give its cards or muck it.")
        check_pots_keep_a_hand(deal, mucked)
        for p in mucked:
            p.status = PlayerStatus.MUCKED
            deal.log.append(f"{p.name} mucks.")
        return sorted(mucked, key=lambda p: p.seat)

    @staticmethod
    def note_mucked(deal: Deal, mucked: list[Player]) -> None:
        """The result says who mucked (after the showdown has made it)."""
        if mucked and deal.result is not None:
            deal.result.mucked = [p.name for p in mucked]

    @staticmethod
    def lay_down(deal: Deal, cells: dict[str, str], holes: dict[int, list[str]]) -> None:
        """Check that no card is entered twice (R9), then put the cards on the table."""
        deal.check_new_cards([
            *cells.items(),
            *((hand_place(deal.players[seat].name), c) for seat, cards in holes.items()
              for c in cards),
        ])
        for cell_name, card in cells.items():
            deal.grid[cell_name] = card
            if cell_name not in deal.revealed:
                deal.revealed.append(cell_name)
        for seat, cards in holes.items():
            deal.players[seat].cards = cards


def check_pots_keep_a_hand(deal: Deal, mucked: list[Player]) -> None:
    """R6: no chips go to cards never shown, so every pot keeps a hand that is not mucked
    (one shown, or tabled): the last hand left in a pot cannot be mucked."""
    out = [p.seat for p in mucked]
    pots = hands_of_pots(deal)
    for index, hands in enumerate(pots):
        if hands and hands <= set(out):
            last = max(hands, key=out.index)  # the muck that left the pot without a hand
            label = pot_label(index, len(pots)).lower()
            raise IllegalActionError(f"{deal.players[last].name}'s hand is needed: no other "
                                     f"hand is left in the {label}.")


def hands_of_pots(deal: Deal) -> list[set[int]]:
    """The seats of the hands in each pot, main pot first; in a game whose winner takes every
    chip (R55), the one pot is every hand still in."""
    if deal.facts.one_pot:
        return [{p.seat for p in deal.still_in()}]
    return [{deal.stakes[i].owner for i in pot.eligible} for pot in deal.pots()]


def muckable(deal: Deal, players: list[Player]) -> tuple[str, ...]:
    """Which of ``players`` may be mucked, each alone: those who are never a pot's only
    hand (the step says them, so that the pages offer Muck only there)."""
    alone = {seat for hands in hands_of_pots(deal) if len(hands) == 1 for seat in hands}
    return tuple(p.name for p in players if p.seat not in alone)


class HandRule(Protocol):
    """How a player's hand is made from their hole cards and a board (R2)."""

    def best(self, hole: Sequence[str], board: Sequence[str]) -> HandValue: ...


@dataclass(frozen=True)
class BestFive:
    """The best five of the hole cards and the board together (R2, R32, R42, R61)."""

    def best(self, hole: Sequence[str], board: Sequence[str]) -> HandValue:
        return best_five([*hole, *board])


@dataclass(frozen=True)
class TwoFromHoleThreeFromBoard:
    """Exactly two of the hole cards with exactly three board cards (R54, R62), wild cards as
    the house rule says (R54)."""

    wilds: Wilds = Wilds.NONE

    def best(self, hole: Sequence[str], board: Sequence[str]) -> HandValue:
        return best_two_plus_three(hole, board, self.wilds)


@dataclass(frozen=True)
class ShortDeckBestFive:
    """The best five of the hole cards and the board by the short deck's values (R79: a
    flush beats a full house, A-6-7-8-9 the lowest straight)."""

    def best(self, hole: Sequence[str], board: Sequence[str]) -> HandValue:
        return best_five_short_deck([*hole, *board])


class Ranked(Protocol):
    """A hand as a hand type ranks it: higher ``score`` wins; its five cards and name."""

    @property
    def score(self) -> int: ...

    @property
    def cards(self) -> tuple[str, ...]: ...

    @property
    def name(self) -> str: ...


@dataclass(frozen=True)
class LowRanked:
    """A low hand (R79) as a hand type ranks it: its name is its words ("8-6-4-2-A low")."""

    score: int
    cards: tuple[str, ...]
    name: str


class BoardLow(Protocol):
    """A low made from hole cards and a board, or None where none qualifies (R79, R80)."""

    def best(self, hole: Sequence[str], board: Sequence[str]) -> Ranked | None: ...


@dataclass(frozen=True)
class LowTwoPlusThree:
    """The best low of exactly two hole cards with exactly three board cards by ``rule``
    (R79 with R62's two-plus-three), or None where none qualifies."""

    rule: LowRule

    def best(self, hole: Sequence[str], board: Sequence[str]) -> Ranked | None:
        value = best_low_two_plus_three(hole, board, self.rule)
        return None if value is None else LowRanked(value.score, value.cards, value.words)


def settle_pots(deal: Deal, scores: Mapping[int, int]) -> tuple[list[list[int]], int]:
    """R6, R7: every pot layer of the bets goes to the stakes eligible for it with the best
    score (``scores``: stake index to score), a share a stake (R26: a player holding two
    winning cards takes two shares), ties sharing it. Returns the winning stakes of each pot,
    in the order of ``Result.pots``, and the odd chips left over where they carry; the pots
    are emptied."""
    won: list[list[int]] = []
    left = 0
    for pot in deal.pots():
        stakes = best_stakes(pot, scores)
        left += deal.share_out(pot.amount, share_seats(deal, stakes))
        won.append(stakes)
    deal.clear_pots()
    return won, left


def best_stakes(pot: Pot, scores: Mapping[int, int]) -> list[int]:
    """The stakes eligible for ``pot`` with the best score (ties all of them)."""
    eligible = [i for i in pot.eligible if i in scores]
    top = max((scores[i] for i in eligible), default=None)
    return [i for i in eligible if scores[i] == top]


def share_seats(deal: Deal, stakes: list[int]) -> list[int]:
    """The winners of a pot as ``Deal.share_out`` takes them: an entry a share, by seat."""
    return sorted(deal.stakes[i].owner for i in stakes)


def settle_pots_twice(deal: Deal, scores: Sequence[Mapping[int, int]]
                      ) -> tuple[list[list[int]], int]:
    """R66: every pot layer is halved (the odd chip of the halving to the first run) and each
    half goes as :func:`settle_pots` says to the best score on its run (``scores``: one
    mapping of stake index to score a run). Returns the winning stakes of each half, in the
    order of ``Result.pots`` (a layer's first run, then its second), and the odd chips left
    where they carry; the pots are emptied."""
    won: list[list[int]] = []
    left = 0
    for layer, pot in enumerate(deal.pots()):
        halves = (pot.amount - pot.amount // 2, pot.amount // 2)
        for run, (half, run_scores) in enumerate(zip(halves, scores, strict=True), start=1):
            stakes = best_stakes(pot, run_scores)
            left += deal.share_out(half, share_seats(deal, stakes), run=run, layer=layer)
            won.append(stakes)
    deal.clear_pots()
    return won, left


def seat_pots(deal: Deal) -> list[Pot]:
    """The deal's pot layers with their players by seat (a stake a player in these games)."""
    return [Pot(p.amount, tuple(sorted({deal.stakes[i].owner for i in p.eligible})))
            for p in deal.pots()]


def ranked_name(ranked: Mapping[int, Ranked | None], seat: int) -> str:
    value = ranked[seat]
    return value.name if value is not None else ""


def pay_high_low(deal: Deal, pots: Sequence[Pot], high: Mapping[int, Ranked | None],
                 lows: Mapping[int, Ranked | None], *, run: int | None = None,
                 layers: Sequence[int] | None = None) -> tuple[int, list[HighLowPot]]:
    """R80: each of ``pots`` (players by seat) halved between the best high hand and the best
    qualifying low (``split_high_low``), each half paid as its own share-out and kept as one
    pot of the result with its two halves (``PotShare.high``, ``low``); on a board run twice
    (R66) each pot is one run's half of the layer ``layers`` names. Returns the odd chips left
    where they carry, and the shares."""
    result = deal.settled()
    names = [p.name for p in deal.players]
    shares = split_high_low(
        pots, {seat: v.score for seat, v in high.items() if v is not None},
        {seat: v.score if v is not None else None for seat, v in lows.items()},
        seats=len(deal.players), first_seat=deal.left_of_dealer, odd_chip=deal.rules.odd_chip)
    left = 0
    for index, share in enumerate(shares):
        layer = layers[index] if layers is not None else None
        left += deal.share_out(share.high_amount, list(share.high_winners), run=run,
                               layer=layer)
        record = result.last_pot
        record.high = HalfShare([names[s] for s in share.high_winners],
                                ranked_name(high, share.high_winners[0])
                                if share.high_winners else None, share.high_amount)
        record.hand = record.high.hand
        if share.low_amount:
            left += deal.share_out(share.low_amount, list(share.low_winners), run=run,
                                   layer=layer)
            half = (result.pots or []).pop()
            by = high if share.low_by_high else lows
            record.low = HalfShare([names[s] for s in share.low_winners],
                                   ranked_name(by, share.low_winners[0]),
                                   share.low_amount, no_low=share.low_by_high)
            merge_half(record, half)
    return left, shares


def high_low_words(deal: Deal, share: HighLowPot, high: Mapping[int, Ranked | None],
                   lows: Mapping[int, Ranked | None]) -> str:
    """The log's words for a pot split high and low: "Ann: win the high half with a flush;
    Bob: the low half with 8-6-4-2-A low"."""
    names = [p.name for p in deal.players]
    verb = "win the high half" if share.low_amount else "win"
    words = (f"{and_words([names[s] for s in share.high_winners])}: {verb} with "
             f"{hand_phrase(ranked_name(high, share.high_winners[0]))}")
    if share.low_amount and not share.low_by_high:
        words += (f"; {and_words([names[s] for s in share.low_winners])}: the low half with "
                  f"{ranked_name(lows, share.low_winners[0])}")
    return words


def merge_half(record: PotShare, half: PotShare) -> None:
    """One pot of the result from its high half's share-out and its low half's (R80)."""
    record.amount += half.amount
    record.carried += half.carried
    record.winners += [name for name in half.winners if name not in record.winners]
    for name, count in half.shares.items():
        record.shares.setdefault(name, count)  # a player taking both halves: one share each
    for name, chips in half.odd.items():
        record.odd[name] = record.odd.get(name, 0) + chips


class CardsShowdown(ShowdownPhase):
    """Every player still in shows ``hole`` cards; each one's hand is the best the hand rule
    makes of them and the board, where a board is every cell (a community board, R61) or, in a
    grid game, each line in turn (R32, R42: a player plays their best line, and the app names
    every line giving that hand). Each pot goes to the best hand that paid into it (R6); with
    a ``low`` rule on a board, each pot is split between the best high hand and the best
    qualifying low (R80), on each run where the board is run twice (R66)."""

    def __init__(self, cells: tuple[str, ...], hole: int, rule: HandRule, *,
                 low: BoardLow | None = None,
                 lines: Mapping[str, tuple[str, ...]] | None = None,
                 cells_name: str = "board card", shows: str = "") -> None:
        self.cells = cells
        self.hole = hole
        self.rule = rule
        self.low = low
        self.lines = lines
        self.cells_name = cells_name
        # how the step names what players show: "the two cards of", "the hole cards of"
        self.shows = shows or f"the {number_word(hole)} cards of"

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        given = (self.board_given(deal, action) if self.lines is None else
                 {cell: deal.parse(t) for cell, t in action.cells or ()})
        new = self.given_cells(deal, given)
        mucked = self.muck_hands(deal, action)
        holes = self.hole_cards(deal, action, self.hole)
        self.lay_down(deal, new, holes)
        self.settle(game, deal)
        self.note_mucked(deal, mucked)
        self.mark_done(deal)

    def best_hand(self, deal: Deal, cards: list[str]) -> tuple[HandValue, list[str] | None]:
        """A player's best hand, and in a grid game every line that gives it."""
        if self.lines is None:
            return self.rule.best(cards, [deal.grid[c] or "" for c in self.cells]), None
        values = {line: self.rule.best(cards, [deal.grid[c] or "" for c in cells])
                  for line, cells in self.lines.items()}
        best = max(values.values())
        return best, [line for line, v in values.items() if v.score == best.score]

    def settle(self, game: Game, deal: Deal) -> None:
        if self.low is not None and self.lines is None:
            self.settle_split(game, deal, self.low)
            return
        if deal.second_run and self.lines is None:
            self.settle_twice(game, deal)
            return
        best = {p.seat: self.best_hand(deal, p.cards) for p in deal.still_in()}
        result = deal.result = game.result_type(hands={
            deal.players[seat].name: ShownHand(list(value.cards), value.name, lines)
            for seat, (value, lines) in best.items()})
        scores = {i: best[s.owner][0].score for i, s in enumerate(deal.stakes)
                  if s.owner in best}
        won, deal.carry = settle_pots(deal, scores)  # R7 carry: odd chips wait a deal
        for share, stakes in zip(result.pots or (), won, strict=True):
            if stakes:
                share.hand = best[deal.stakes[stakes[0]].owner][0].name  # the pot's sentence
        top = max(value.score for value, _ in best.values())
        winners = [seat for seat, (value, _) in best.items() if value.score == top]
        result.winners = [deal.players[s].name for s in winners]
        if self.lines is None:
            names = " and ".join(deal.players[s].name for s in winners)
            deal.log.append(f"{names} win{'s' if len(winners) == 1 else ''} with "
                            f"{hand_phrase(best[winners[0]][0].name)}.")
            return
        result.winning_lines = sorted({ln for s in winners for ln in best[s][1] or ()})
        layout = game.layout
        for s in winners:
            value, lines = best[s]
            deal.log.append(f"{deal.players[s].name} wins with {hand_phrase(value.name)} "
                            f"({', '.join(layout.line_label(ln) for ln in lines or ())}).")

    def boards(self, deal: Deal) -> list[list[str]]:
        """The board's cards, or each run's (R66: the second run's own cells where it has
        them)."""
        runs = [self.cells]
        if deal.second_run:
            runs.append(tuple(second_cell(c) if c in deal.second_run else c
                              for c in self.cells))
        return [[deal.grid[c] or "" for c in board] for board in runs]

    def settle_split(self, game: Game, deal: Deal, low: BoardLow) -> None:
        """R80 (with R66): on each run's board every hand's high and low; each pot, or each
        run's half of it (the odd chip of the halving to the first run), split between them
        by :func:`pay_high_low`."""
        live = deal.still_in()
        ranked: list[tuple[dict[int, Ranked | None], dict[int, Ranked | None]]] = [
            ({p.seat: self.rule.best(p.cards, board) for p in live},
             {p.seat: low.best(p.cards, board) for p in live}) for board in self.boards(deal)]

        def shown(run: int, seat: int) -> ShownHand:
            high, lows = ranked[run]
            value = high[seat]
            assert value is not None
            held = lows[seat]
            return ShownHand(list(value.cards), value.name, low=None if held is None else
                             ShownHand(list(held.cards), held.name))

        result = deal.result = game.result_type(hands={
            p.name: replace(shown(0, p.seat), second_run=shown(1, p.seat)
                            if len(ranked) > 1 else None) for p in live})
        left = 0
        winners: set[int] = set()
        pots = seat_pots(deal)
        for number, (high, lows) in enumerate(ranked, start=1):
            if len(ranked) == 1:
                paid, shares = pay_high_low(deal, pots, high, lows)
            else:
                halves = [Pot(p.amount - p.amount // 2 if number == 1 else p.amount // 2,
                              p.eligible) for p in pots]
                paid, shares = pay_high_low(deal, halves, high, lows, run=number,
                                            layers=range(len(pots)))
            left += paid
            winners.update(s for share in shares
                           for s in (*share.high_winners, *share.low_winners))
            if shares:
                words = high_low_words(deal, shares[0], high, lows)
                prefix = f"{('First', 'Second')[number - 1]} run: " if len(ranked) > 1 else ""
                deal.log.append(f"{prefix}{words}.")
        if len(ranked) > 1:  # each layer's first-run half, then its second: as R66 reads them
            result.pots = sorted(result.pots or (), key=lambda p: (p.layer or 0, p.run or 0))
        deal.clear_pots()
        deal.carry = left  # R7 carry: odd chips wait a deal
        result.winners = [p.name for p in live if p.seat in winners]

    def settle_twice(self, game: Game, deal: Deal) -> None:
        """R66: each pot's halves on the two runs' boards, each run's best hands by the hand
        rule; a player's hand on the second run is their shown hand's ``second_run``."""
        boards = [self.cells, tuple(second_cell(c) if c in deal.second_run else c
                                    for c in self.cells)]
        live = deal.still_in()
        best = [{p.seat: self.rule.best(p.cards, [deal.grid[c] or "" for c in board])
                 for p in live} for board in boards]
        result = deal.result = game.result_type(hands={
            p.name: ShownHand(list(best[0][p.seat].cards), best[0][p.seat].name,
                              second_run=ShownHand(list(best[1][p.seat].cards),
                                                   best[1][p.seat].name))
            for p in live})
        scores = [{i: run[s.owner].score for i, s in enumerate(deal.stakes) if s.owner in run}
                  for run in best]
        won, deal.carry = settle_pots_twice(deal, scores)
        for share, stakes in zip(result.pots or (), won, strict=True):
            if stakes and share.run is not None:
                share.hand = best[share.run - 1][deal.stakes[stakes[0]].owner].name
        winners: set[int] = set()
        for number, run in enumerate(best, start=1):
            top = max(value.score for value in run.values())
            seats = [seat for seat, value in run.items() if value.score == top]
            winners.update(seats)
            names = " and ".join(deal.players[s].name for s in seats)
            deal.log.append(f"{('First', 'Second')[number - 1]} run: {names} "
                            f"win{'s' if len(seats) == 1 else ''} with "
                            f"{hand_phrase(run[seats[0]].name)}.")
        result.winners = [p.name for p in live if p.seat in winners]

    def step(self, game: Game, deal: Deal) -> Step:
        missing = self.missing(deal)
        showing = [p for p in deal.still_in() if p.seat not in deal.tabled]
        names = [p.name for p in showing]
        cells = (f" and the {self.cells_name}s not entered yet ({len(missing)})" if missing
                 else "")
        if not names:  # every hand tabled at the all-in (R67): the board is all that is left
            what = (f"enter the {self.cells_name}s not entered yet ({len(missing)})" if missing
                    else "tap Show down")
            return Step(StepKind.SHOWDOWN, cells=tuple(missing), players=(),
                        hole_cards=self.hole, muckable=(),
                        instruction=f"Showdown: every hand is tabled; {what}.",
                        public="Showdown: every hand is tabled.")
        return Step(StepKind.SHOWDOWN, cells=tuple(missing), players=tuple(names),
                    hole_cards=self.hole, muckable=muckable(deal, showing),
                    instruction=f"Showdown: enter {self.shows} {', '.join(names)}{cells}.",
                    public="Showdown: " + ", ".join(names) + " show their hole cards.")
