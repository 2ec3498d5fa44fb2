"""King's Pot and King's Pot Optional Play (R20-R29)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from dealer_assist.core.actions import Action
from dealer_assist.core.betting import BettingPhase
from dealer_assist.core.deal import (
    CarriedPot,
    Deal,
    Player,
    PlayerStatus,
    Stake,
    Totals,
    hand_place,
)
from dealer_assist.core.errors import IllegalActionError, SetupError
from dealer_assist.core.game import Game
from dealer_assist.core.hands import HandValue, rank_five
from dealer_assist.core.layouts import (
    CELLS_5,
    GRID5,
    LINE_NAMES,
    LINE_TITLES,
    LINES_5,
    REVEAL_SETS_5,
    Layout,
    Place,
)
from dealer_assist.core.phases import EndPhase, Phase, RevealPhase, check_turn
from dealer_assist.core.result import PotShare, Result
from dealer_assist.core.rules import Betting, HouseRules
from dealer_assist.core.showdown import ShowdownPhase, muckable, settle_pots
from dealer_assist.core.step import Step, StepKind
from dealer_assist.core.words import hand_phrase, hand_words, winners_words

# R21: the line each rank backs; K backs the king's hand, a line of its own beside the grid.
LINE_OF_RANK: dict[str, str] = {
    "A": "row1", "2": "row2", "3": "row3", "4": "row4", "5": "row5",
    "6": "col1", "7": "col2", "8": "col3", "9": "col4", "T": "col5",
    "J": "diag", "Q": "anti", "K": "king",
}
KINGS_HAND = Place("king", "King's hand", 5, "kings_hand", "king")
KINGS_POT = CarriedPot("kings_pot", "King's pot", "for the king's pot")
# the 5x5 grid of R10, each line backed by a rank and the king's hand a line of its own
GRID5_RANKED = Layout(
    GRID5.kind, CELLS_5, 5, LINES_5, GRID5.mark_kind, GRID5.marks, LINE_OF_RANK,
    names={**LINE_NAMES, "king": KINGS_HAND.where},
    titles={**LINE_TITLES, "king": KINGS_HAND.title}, hand_lines=("king",),
)


def max_cards_per_player(players: int) -> int:
    """R22: how many cards each player may buy."""
    if players <= 3:
        return 7
    if players == 4:
        return 5
    if players == 5:
        return 4
    if players <= 7:
        return 3
    if players <= 11:
        return 2
    return 1


def kings_pot(deal: Deal) -> int:
    return deal.carried.get(KINGS_POT.key, 0)


@dataclass
class LineShown:
    """A line of the grid (or the king's hand) at the showdown: its five cards, its hand,
    whether a live card backed it, and who held those cards (a name a card, R26)."""

    cards: list[str]
    hand: str
    backed: bool = False
    held_by: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"cards": self.cards, "hand": self.hand, "backed": self.backed,
                "held_by": self.held_by}


@dataclass
class KingsPotResult(Result):
    """A King's Pot result: every line's hand, the king's pot won and what carries (R28), and
    whether the deal ended before play (R29: fewer than two buyers)."""

    lines: dict[str, LineShown] | None = None
    kings_pot_won: int | None = None
    kings_pot_carries: int | None = None
    no_play: bool | None = None

    @classmethod
    def fields_from_json(cls, data: dict[str, Any]) -> dict[str, Any]:
        lines = data.get("lines")
        return {
            **super().fields_from_json(data),
            "lines": ({line: LineShown(list(v["cards"]), v["hand"], bool(v.get("backed")),
                                       list(v.get("held_by", [])))
                       for line, v in lines.items()} if lines is not None else None),
            "kings_pot_won": data.get("kings_pot_won"),
            "kings_pot_carries": data.get("kings_pot_carries"),
            "no_play": data.get("no_play"),
        }


def kings_lines(result: Result) -> dict[str, LineShown]:
    """Every line's hand, where the result has them (a showdown's)."""
    return (result.lines or {}) if isinstance(result, KingsPotResult) else {}


def winning_line(result: Result) -> LineShown | None:
    """The first winning line's hand, where the result names one."""
    winning = result.winning_lines or []
    return kings_lines(result).get(winning[0]) if winning else None


class BuyPhase(Phase):
    """R22: from the dealer's left, each player asks for 0 to the maximum; an ante a card."""


    def enter(self, game: Game, deal: Deal) -> None:
        deal.turn = self.next_buyer(deal, deal.left_of_dealer)
        if deal.turn is None:  # nobody can pay for a card: the deal ends at once (R29)
            self.finish(game, deal)

    def next_buyer(self, deal: Deal, start: int) -> int | None:
        for p in deal.seats_from(start):
            if p.bought is None:
                if p.stack < deal.rules.ante:  # cannot pay for a single card: sits out
                    p.bought = 0
                    p.status = PlayerStatus.OUT
                    deal.log.append(f"{p.name} has too few chips to buy a card and sits out.")
                    continue
                return p.seat
        return None

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("buy",)

    def limit(self, deal: Deal, p: Player) -> int:
        return min(max_cards_per_player(len(deal.players)), p.stack // deal.rules.ante)

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        p = check_turn(deal, action)
        count = action.count
        if count is None:
            raise IllegalActionError(f"Say how many cards {p.name} buys (count).")
        most = max_cards_per_player(len(deal.players))
        if count > most:
            raise IllegalActionError(
                f"{p.name} cannot buy {count} cards: with {len(deal.players)} players the "
                f"most is {most}."
            )
        cost = count * deal.rules.ante
        if cost > p.stack:
            raise IllegalActionError(
                f"{p.name} cannot buy {count} cards: that costs {cost} and {p.name} has "
                f"{p.stack}."
            )
        p.bought = count
        p.stack -= cost
        deal.add_carried(KINGS_POT.key, cost)
        if count == 0:
            p.status = PlayerStatus.OUT
            deal.log.append(f"{p.name} buys no cards and sits this deal out.")
        else:
            for _ in range(count):
                p.stakes.append(len(deal.stakes))
                deal.stakes.append(Stake(owner=p.seat))
            p.status = PlayerStatus.IN if p.stack else PlayerStatus.ALL_IN
            deal.log.append(
                f"{p.name} buys {count} card{'s' if count > 1 else ''} ({cost} to the king's pot)."
            )
        deal.turn = self.next_buyer(deal, p.seat + 1)
        if deal.turn is None:
            self.finish(game, deal)

    def finish(self, game: Game, deal: Deal) -> None:
        self.mark_done(deal)
        buyers = [p for p in deal.players if p.bought]
        if len(buyers) < 2:  # R29: the deal ends at once; its antes stay in the king's pot
            deal.result = KingsPotResult(no_play=True, winning_lines=[],
                                         kings_pot_carries=kings_pot(deal))
            deal.log.append(
                "Fewer than two players bought cards: the antes stay in the king's pot."
            )
            deal.phase = len(game.phases) - 1
            for p in buyers:
                p.status = PlayerStatus.OUT
                p.stakes.clear()
            deal.stakes.clear()
        else:
            deal.dealt = True

    def step(self, game: Game, deal: Deal) -> Step:
        if deal.turn is None:
            return Step(StepKind.BUY, "Buying is over.")
        p = deal.players[deal.turn]
        most = self.limit(deal, p)
        return Step(
            StepKind.BUY, player=p.name, most_cards=most, ante=deal.rules.ante,
            instruction=f"{p.name}: how many cards? 0 to {most}, {deal.rules.ante} each "
                        "to the king's pot.",
        )


class DealCardsPhase(Phase):
    """R23: the dealer records each buyer's cards (the rank alone is enough)."""


    def waiting(self, deal: Deal) -> list[Player]:
        return [p for p in deal.seats_from(deal.left_of_dealer) if p.stakes and not p.cards]

    def enter(self, game: Game, deal: Deal) -> None:
        waiting = self.waiting(deal)
        deal.turn = waiting[0].seat if waiting else None

    def done(self, game: Game, deal: Deal) -> bool:
        return not self.waiting(deal)

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("deal_cards",)

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        p = deal.player(action.player)
        if not p.stakes:
            raise IllegalActionError(f"{p.name} bought no cards this deal.")
        if p.cards:
            raise IllegalActionError(
                f"{p.name}'s cards are already recorded ({' '.join(p.cards)}); undo to change them."
            )
        texts = action.cards or ()
        if len(texts) != len(p.stakes):
            raise IllegalActionError(
                f"{p.name} bought {len(p.stakes)} card{'s' if len(p.stakes) > 1 else ''}: "
                f"enter {len(p.stakes)}, not {len(texts)}."
            )
        cards = [deal.parse(t, rank_only=True) for t in texts]
        deal.check_new_cards((hand_place(p.name), c) for c in cards)
        ranks = Counter(c[0] for q in deal.players for c in q.cards)
        for card in cards:
            ranks[card[0]] += 1
            if ranks[card[0]] > 4:
                raise IllegalActionError(f"A deck has only four cards of rank {card[0]}.")
        p.cards = cards
        for stake_index, card in zip(p.stakes, cards, strict=True):
            deal.stakes[stake_index].card = card
        deal.log.append(f"{p.name} is dealt {len(cards)} card{'s' if len(cards) > 1 else ''}.")
        waiting = self.waiting(deal)
        deal.turn = waiting[0].seat if waiting else None

    def step(self, game: Game, deal: Deal) -> Step:
        waiting = self.waiting(deal)
        if not waiting:
            return Step(StepKind.DEAL_CARDS, "Every card is dealt.")
        p = waiting[0]
        n = len(p.stakes)
        return Step(
            StepKind.DEAL_CARDS, player=p.name, count=n,
            waiting=tuple(q.name for q in waiting),
            instruction=f"Deal {p.name} {n} card{'s' if n > 1 else ''} and enter "
                        f"{'them' if n > 1 else 'it'} (the rank is enough).",
            public=f"The dealer is dealing {p.name} {n} card{'s' if n > 1 else ''}.",
        )


class KingsPotReveal(RevealPhase):
    """R25's reveals, refusing a fifth card of a rank (R9): the players' cards entered by rank
    alone (R23) are not caught as duplicates, and a fifth king let in here could never be
    settled at the showdown, which refuses it (check_rank_counts)."""

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        check_rank_counts(deal, list(self.cards_of(deal, action).values()))
        super().handle(game, deal, action)


class KingsPotShowdown(ShowdownPhase):
    """R26-R28: every card is turned; the best backed line wins, one share a live card."""

    cells = CELLS_5

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        new = self.given_cells(deal, {cell: deal.parse(t) for cell, t in action.cells or ()})
        kings = [deal.parse(t) for t in action.place_cards(KINGS_HAND.field) or ()]
        if len(kings) != 5:
            raise IllegalActionError(f"Enter the king's hand: five cards, not {len(kings)}.")
        # the new grid cards and the king's hand in one check: either may hold the other's card
        deal.check_new_cards([*new.items(), *((KINGS_HAND.where, c) for c in kings)])
        check_rank_counts(deal, [*new.values(), *kings])
        mucked = self.muck_hands(deal, action)  # its cards lose: no line they back is backed
        self.lay_down(deal, new, {})
        deal.places[KINGS_HAND.field] = kings
        settle_kings_pot(deal)
        self.note_mucked(deal, mucked)
        self.mark_done(deal)

    def step(self, game: Game, deal: Deal) -> Step:
        missing = self.missing(deal)
        return Step(
            StepKind.SHOWDOWN, cells=tuple(missing), muckable=muckable(deal, deal.still_in()),
            instruction="Showdown: turn every card and enter "
                        + (f"the {len(missing)} grid cards not entered yet and " if missing
                           else "")
                        + "the king's hand.",
            public="Showdown: the dealer is turning every card and the king's hand.",
        )


def check_rank_counts(deal: Deal, new: list[str]) -> None:
    """R9: a card entered by rank alone (R23) cannot be caught as a duplicate, but a fifth
    card of one rank among the players' cards, the grid and the king's hand is surely an
    entry mistake: refuse it rather than settle with an impossible deck."""
    ranks = Counter(c[0] for p in deal.players for c in p.cards)
    ranks.update(c[0] for c in deal.grid.values() if c)
    ranks.update(c[0] for c in new)
    for rank, count in sorted(ranks.items()):
        if count > 4:
            raise IllegalActionError(
                f"A deck has only four cards of rank {rank}: check the cards entered."
            )


def line_values(deal: Deal) -> dict[str, HandValue]:
    # every cell has its card by now: the showdown refuses to settle without all 25
    values = {line: rank_five([deal.grid[c] or "" for c in cells])
              for line, cells in LINES_5.items()}
    values["king"] = rank_five(deal.places[KINGS_HAND.field])
    return values


def settle_kings_pot(deal: Deal) -> None:
    """Share every pot layer (R6, R26, R27) and the king's pot (R28)."""
    values = line_values(deal)
    live = [
        (i, s) for i, s in enumerate(deal.stakes)
        if s.live and s.card and deal.players[s.owner].live
    ]
    line_of = {i: LINE_OF_RANK[s.card[0]] for i, s in live if s.card}
    backed = set(line_of.values())
    best = max(values[line].score for line in backed)
    winning = sorted(line for line in backed if values[line].score == best)
    result = deal.result = KingsPotResult(winning_lines=winning)
    # R26: a share a live card, each card scored by the line it backs
    won, odd_chips = settle_pots(deal, {i: values[line].score for i, line in line_of.items()})
    for share, stakes in zip(result.pots or (), won, strict=True):
        share.lines = sorted({line_of[i] for i in stakes})
        share.hand = values[share.lines[0]].name if share.lines else None
    # R7 carry: odd chips stay "for the next deal" in the king's pot, so they join it only
    # after the king's pot of this deal is shared (R28), not as part of what the kings win now.
    king_cards = [s.owner for _, s in live if s.card and s.card[0] == "K"]
    if "king" in winning and king_cards:
        amount = kings_pot(deal)
        left = deal.share_out(amount, king_cards, kind=KINGS_POT.key)
        deal.add_carried(KINGS_POT.key, left - amount)
        result.kings_pot_won = amount - left
        deal.log.append(f"The king's hand wins: the king's pot of {amount} is shared.")
    deal.add_carried(KINGS_POT.key, odd_chips)
    result.kings_pot_carries = kings_pot(deal)
    holders: dict[str, list[str]] = {line: [] for line in values}
    for _, s in live:
        if s.card:
            holders[LINE_OF_RANK[s.card[0]]].append(deal.players[s.owner].name)
    result.lines = {
        line: LineShown(list(v.cards), v.name, backed=line in backed, held_by=holders[line])
        for line, v in values.items()
    }
    result.winners = [p.name for p in deal.players if result.payouts.get(p.name)]
    names = ", ".join(GRID5_RANKED.line_label(w) for w in winning)
    hand = values[winning[0]].name
    deal.log.append(f"Showdown: {names} wins with {hand_phrase(hand)}.")


class KingsPot(Game):
    result_type = KingsPotResult
    variant = "kings_pot"
    name = "King's Pot"
    summary = ("Buy cards that back the lines of a 5x5 grid; kings back the king's hand and "
               "its growing pot.")
    players = (3, 22)  # R20
    betting_structures = (Betting.NO_LIMIT, Betting.FIXED_LIMIT)  # R5
    rule_help: ClassVar[Mapping[str, str]] = {"ante": "per card bought, to the king's pot"}
    layout: ClassVar[Layout] = GRID5_RANKED
    places = (KINGS_HAND,)
    carried_pots = (KINGS_POT,)
    stakes_per_card = True
    state_fields = ("kings_pot", "kings_hand")
    history_charts = ("kings_pot",)
    reveals: tuple[tuple[int, ...], ...] = ((1,), (2,), (3,))

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        # the pages before issue 21 read this key; kept while they may still be cached
        return {**super().metadata(), "keeps_kings_pot": True}

    @classmethod
    def check_rules(cls, rules: HouseRules) -> None:
        if rules.ante < 1:
            raise SetupError("King's Pot needs an ante of at least 1 per card (R22).")

    def add_state(self, state: dict[str, Any], deal: Deal | None, totals: Totals) -> None:
        if deal is not None:
            shown = deal.places.get(KINGS_HAND.field, []) if deal.result else []
            state[KINGS_HAND.field] = list(shown)
        state[KINGS_POT.key] = kings_pot(deal) if deal else totals.carried.get(KINGS_POT.key, 0)

    def carried_amounts(self, deal: Deal | None, totals: Totals) -> dict[str, int]:
        return {KINGS_POT.key: kings_pot(deal) if deal else
                totals.carried.get(KINGS_POT.key, 0)}

    @classmethod
    def waiting_amounts(cls, totals: Totals) -> dict[str, int]:
        return {KINGS_POT.key: totals.carried.get(KINGS_POT.key, 0)}

    @classmethod
    def waiting_state(cls, state: dict[str, Any], totals: Totals, playing: Game) -> None:
        # R72: the king's pot is the table's; through other games it waits, untouched
        waiting = totals.carried.get(KINGS_POT.key, 0)
        if KINGS_POT not in playing.carried_pots and waiting:
            state["kings_pot_waiting"] = waiting
            state["kings_pot_words"] = f"King's pot waiting: {waiting}"

    def player_fields(self, deal: Deal, p: Player, *, dealer: bool, shown: bool
                      ) -> dict[str, Any]:
        live = deal.live_stakes(p)
        entry: dict[str, Any] = {"cards": len(live), "bought": p.bought or 0}
        if dealer:
            entry["hand"] = [s.card for s in (deal.stakes[i] for i in p.stakes) if s.card]
        if dealer or (shown and p.live):  # folded cards are never shown (R26)
            entry["live_cards"] = [s.card for s in live if s.card]
            entry["lines"] = [LINE_OF_RANK[c[0]] for c in entry["live_cards"]]
        return entry

    def idle_player_fields(self) -> dict[str, Any]:
        return {"cards": 0}

    def shown_cards(self, deal: Deal, p: Player) -> set[str | None]:
        return {s.card for s in deal.live_stakes(p)}

    @classmethod
    def public_action(cls, action: dict[str, Any]) -> dict[str, Any]:
        """The cards the dealer entered for players (dealt, or one folded) stay the dealer's:
        the public history shows how many, as the public state does, not which (R23). Cards
        shown at a showdown are in the deal's result."""
        if action.get("type") == "deal_cards" and action.get("cards"):
            return {**action, "cards": ["?"] * len(action["cards"])}
        if action.get("type") == "fold" and action.get("card"):
            return {**action, "card": "?"}
        return action

    carry_place = "in the king's pot"

    @classmethod
    def result_sentences(cls, result: Result) -> list[str]:
        if isinstance(result, KingsPotResult) and result.no_play:
            return ["Fewer than two players bought cards: the antes stay in the king's pot.",
                    *cls.result_extra_sentences(result)]
        return super().result_sentences(result)

    @classmethod
    def pot_words(cls, pot: PotShare, result: Result) -> str:
        """R26: who held the winning line's cards, and the line: "Dee, four aces on row 1"."""
        words = winners_words(pot)
        if pot.hand:
            words += ", " + hand_words(pot.hand)
        return words + (" " + cls.layout.on_lines(pot.lines) if pot.lines else "")

    @classmethod
    def unbet_words(cls, result: Result) -> str:
        shown = kings_lines(result)
        lines = result.winning_lines or []
        holders = [name for line in lines for name in shown[line].held_by]
        who = " and ".join(dict.fromkeys(holders))
        hand = hand_words(shown[lines[0]].hand)
        return f"Nothing was bet: {who}, {hand} {cls.layout.on_lines(lines)}."

    @classmethod
    def result_extra_sentences(cls, result: Result) -> list[str]:
        """R28: the king's pot won by the kings, or carried to the next deal."""
        sentences: list[str] = []
        for pot in result.pots or ():
            if pot.kind == KINGS_POT.key and pot.amount:
                label = "King's pot"
                alone = sum(pot.shares.values()) == 1
                sentences.append(f"{label} {pot.amount}: {winners_words(pot)}, "
                                 f"{'who holds the king' if alone else 'a share a king'}.")
                sentences += cls.odd_chip_sentences(pot, label)
        carries = result.kings_pot_carries if isinstance(result, KingsPotResult) else None
        if carries:
            sentences.append(f"The king's pot of {carries} carries to the next deal.")
        return sentences

    @classmethod
    def result_opening(cls, result: Result) -> str:
        if isinstance(result, KingsPotResult) and result.no_play:
            return "Fewer than two players bought cards: the antes stay in the king's pot"
        return super().result_opening(result)

    @classmethod
    def winning_hand_title(cls, result: Result) -> str:
        line = winning_line(result)
        return f" with {line.hand}" if line else ""

    @classmethod
    def winning_hand_words(cls, result: Result) -> str:
        line = winning_line(result)
        return f" with {line.hand.lower()}" if line else ""

    @classmethod
    def result_extras(cls, result: Result) -> str:
        if isinstance(result, KingsPotResult) and result.kings_pot_won:
            return f"; the king's pot of {result.kings_pot_won} won"
        return ""

    def build_phases(self) -> list[Phase]:
        phases: list[Phase] = [BuyPhase(), DealCardsPhase()]
        for index, sets in enumerate(self.reveals):
            cells = [c for n in sets for c in REVEAL_SETS_5[n]]
            label = "the cards marked " + " and ".join(str(n) for n in sets)
            phases.append(KingsPotReveal(cells, label))
            phases.append(BettingPhase(index, early=index == 0))
        phases += [KingsPotShowdown(), EndPhase()]
        return phases

    def award_uncontested(self, deal: Deal, winner: Player | None) -> None:
        super().award_uncontested(deal, winner)  # R29: the king's pot carries
        if isinstance(deal.result, KingsPotResult):
            if deal.result.winning_lines is None:
                deal.result.winning_lines = []
            deal.result.kings_pot_carries = kings_pot(deal)


class KingsPotOptional(KingsPot):
    variant = "kings_pot_optional"
    name = "King's Pot Optional Play"
    summary = "King's Pot with two sets turned first and the fourth set as the last reveal."
    reveals = ((1, 2), (3,), (4,))  # R25
