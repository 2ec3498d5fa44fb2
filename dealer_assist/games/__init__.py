"""The five games. Each is a list of phases (``dealer_assist.deal``) and a few hooks."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from dealer_assist.deal import BettingPhase, Deal, Phase, Player, Totals
from dealer_assist.errors import IllegalActionError
from dealer_assist.rules import HouseRules

if TYPE_CHECKING:
    from dealer_assist.table import TableSetup


class Game:
    """What every game shares; subclasses give the phases and the hooks."""

    variant = ""
    ends_when_one_left = True
    round_names: tuple[str, ...] = ("Round 1", "Round 2", "Round 3")

    def __init__(self, rules: HouseRules) -> None:
        self.rules = rules
        self.phases: list[Phase] = self.build_phases()

    def build_phases(self) -> list[Phase]:
        raise NotImplementedError

    # ---------------------------------------------------------------- hooks
    def initial_totals(self, setup: TableSetup) -> Totals:
        return Totals(stacks=setup.stacks, buy_ins=setup.stacks)

    def next_dealer(self, totals: Totals) -> int:
        """R4: the button moves one seat clockwise every deal; the first deal's dealer is the
        first player listed."""
        return (totals.button + 1) % len(totals.stacks)

    def start(self, setup: TableSetup, totals: Totals) -> Deal:
        if totals.game_over:
            raise IllegalActionError("The game is over: no more deals at this table.")
        dealer = self.next_dealer(totals)
        players = [
            Player(name=name, seat=i, stack=stack)
            for i, (name, stack) in enumerate(zip(setup.players, totals.stacks, strict=True))
        ]
        deal = Deal(
            game=self, rules=self.rules, players=players, dealer=dealer,
            totals=replace(totals, deal_number=totals.deal_number + 1),
            kings_pot=totals.kings_pot, bank=totals.bank, carry=totals.carry,
            off_table=totals.off_table,
        )
        self.set_up(deal)
        self.phases[0].enter(deal)
        deal.advance()
        return deal

    def set_up(self, deal: Deal) -> None:
        """Antes, blinds and who sits out, before the first phase."""

    def opener(self, deal: Deal, phase: BettingPhase) -> int:
        return deal.left_of_dealer

    def round_name(self, phase: BettingPhase) -> str:
        return self.round_names[phase.index]

    def result_phase(self) -> int:
        """Where a deal that ended early goes: the last phase, its end."""
        return len(self.phases) - 1

    def award_uncontested(self, deal: Deal, winner: Player | None) -> None:
        """R29: the last player left takes every pot without a showdown."""
        deal.return_uncalled()
        deal.round = None
        if winner is None:
            return
        amount = deal.pot_total()
        deal.clear_pots()
        deal.share_out(amount, [winner.seat])
        assert deal.result is not None
        deal.result["uncontested"] = True
        deal.result["winners"] = [winner.name]
        deal.log.append(f"{winner.name} takes {amount}: everyone else folded.")


def hand_phrase(name: str) -> str:
    """A hand's name inside a sentence: "wins with full house, aces full of fours"."""
    return name[:1].lower() + name[1:]


def game_for(variant: str, rules: HouseRules) -> Game:
    from dealer_assist.games.grid_holdem import OffRoadStud, TexasDozen
    from dealer_assist.games.kings_pot import KingsPot, KingsPotOptional
    from dealer_assist.games.twenty_one import TwentyOneHandHoldem

    classes: dict[str, type[Game]] = {
        "kings_pot": KingsPot,
        "kings_pot_optional": KingsPotOptional,
        "texas_dozen": TexasDozen,
        "off_road_stud": OffRoadStud,
        "twenty_one_hand_holdem": TwentyOneHandHoldem,
    }
    return classes[variant](rules)
