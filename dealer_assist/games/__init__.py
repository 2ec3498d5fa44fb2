"""The games. Each is a class: its metadata (what the pages, the history and the state need
to know of it) as class attributes, and its play as a list of phases (``dealer_assist.core``)
and a few hooks. ``dealer_assist.games.registry`` lists them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.core.betting import BettingPhase
from dealer_assist.core.cards import JOKERS
from dealer_assist.core.deal import Deal, Player, Totals
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.layouts import Layout
from dealer_assist.core.phases import Phase
from dealer_assist.core.rules import GameRules, HouseRules

if TYPE_CHECKING:
    from dealer_assist.core.table import TableSetup

# The house rules every betting game offers on the home page, in the order shown.
BETTING_RULES: tuple[str, ...] = ("ante", "betting", "min_bet", "small_bet", "big_bet",
                                  "odd_chip", "buy_in")


class Game(GameRules):
    """What every game shares; subclasses give the metadata, the phases and the hooks."""

    # ------------------------------------------------------------- metadata
    variant: ClassVar[str] = ""  # the id the API and the records use
    name: ClassVar[str] = ""  # how the pages call it
    summary: ClassVar[str] = ""  # one sentence for the home page
    players: ClassVar[tuple[int, int]] = (2, 10)  # the fewest and most players
    house_rules: ClassVar[tuple[str, ...]] = BETTING_RULES  # offered on the home page
    rule_help: ClassVar[Mapping[str, str]] = {}  # a rule's help text in this game
    layout: ClassVar[Layout]
    stakes_per_card: ClassVar[bool] = False  # R24: every card bought is a betting seat
    keeps_kings_pot: ClassVar[bool] = False  # R22: antes to a pot that carries between deals
    one_pot: ClassVar[bool] = False  # R55: the winner takes every chip bet, no side pots
    between_deal_actions: ClassVar[tuple[str, ...]] = (
        "rebuy", "adjust", "seat", "leave", "sit_out", "sit_in")
    # R71: a whole game with its own chips and deals; a table made for it stays with it,
    # and every seated player plays every deal of it
    whole_game: ClassVar[bool] = False
    between_deal_refusals: ClassVar[Mapping[str, str]] = {}  # why an action is not offered
    deal_word: ClassVar[str] = "Deal"  # what one deal is called: "Deal 3"
    deals_per_game: ClassVar[int | None] = None  # a game of a fixed number of deals
    state_fields: ClassVar[tuple[str, ...]] = ()  # the state's extra fields (API.md)
    history_charts: ClassVar[tuple[str, ...]] = ()  # extra charts on the history page
    stacks_chart_title: ClassVar[str] = "Stacks after each deal"
    stacks_from_zero: ClassVar[bool] = False  # small stacks: the chart's axis starts at 0
    ends_when_one_left = True
    round_names: tuple[str, ...] = ("Round 1", "Round 2", "Round 3")

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        """The game as the pages read it (embedded in every page as JSON)."""
        defaults = HouseRules.for_game(cls, {}).to_json()
        return {
            "variant": cls.variant, "name": cls.name, "summary": cls.summary,
            "players": list(cls.players),
            "rules": {"offered": list(cls.house_rules), "defaults": defaults,
                      "betting": list(cls.betting_structures), "help": dict(cls.rule_help)},
            "layout": cls.layout.to_json(),
            "stakes_per_card": cls.stakes_per_card, "keeps_kings_pot": cls.keeps_kings_pot,
            "one_pot": cls.one_pot,
            "between_deal_actions": list(cls.between_deal_actions),
            "whole_game": cls.whole_game,
            "deal_word": cls.deal_word, "deals_per_game": cls.deals_per_game,
            "state_fields": list(cls.state_fields),
            "history_charts": list(cls.history_charts),
        }

    # ------------------------------------------------- what the state shows
    def add_state(self, state: dict[str, Any], deal: Deal | None, totals: Totals) -> None:
        """The game's own fields of the state (``state_fields``)."""

    @classmethod
    def waiting_state(cls, state: dict[str, Any], totals: Totals, playing: Game) -> None:
        """What this game keeps at the table while ``playing`` is dealt (R72), in the
        state."""

    def player_fields(self, deal: Deal, p: Player, *, dealer: bool, shown: bool
                      ) -> dict[str, Any]:
        """A player's cards in the state: the hole cards once shown (or to the dealer)."""
        if (dealer or shown) and p.cards and p.live:
            return {"hand": list(p.cards)}
        return {}

    def idle_player_fields(self) -> dict[str, Any]:
        """A player's own fields before the first deal."""
        return {}

    def shown_cards(self, deal: Deal, p: Player) -> set[str | None]:
        """The cards of a player still in that a showdown turns face up."""
        return set(p.cards)

    def hidden_cards(self, deal: Deal, shown: bool) -> set[str]:
        """Every full card the dealer entered that is still face down at the table."""
        hidden: set[str] = set()
        for p in deal.players:
            up = self.shown_cards(deal, p) if shown and p.live else set()
            hidden.update(c for c in p.cards if len(c) == 2 and c not in JOKERS and c not in up)
        return hidden

    @classmethod
    def public_action(cls, action: dict[str, Any]) -> dict[str, Any]:
        """A record as the public history shows it (the dealer sees it whole)."""
        return action

    def drawn_cards(self, deal: Deal) -> list[str]:
        """The cards already drawn in a draw in play, which the app's draw leaves out."""
        return []

    @classmethod
    def result_words(cls, result: dict[str, Any]) -> str:
        """One sentence for a deal's result, as the history lists it and the pages show it."""
        pays = [f"{name} takes {amount}" for name, amount in result.get("payouts", {}).items()
                if amount]
        words = cls.result_opening(result)
        words += "; " + ", ".join(pays) if pays else ""
        return words + cls.result_extras(result) + "."

    @classmethod
    def result_opening(cls, result: dict[str, Any]) -> str:
        if result.get("uncontested"):
            winners = result.get("winners") or []
            if not winners:
                return "Everyone left the hand: its pot carries"
            return f"Everyone else folded: {winners[0]} wins"
        lines = [cls.layout.line_label(line) for line in result.get("winning_lines", [])]
        hands = result.get("hands") or {}
        winners = result.get("winners") or []
        if lines:
            words = ("Winning line: " if len(lines) == 1 else "Winning lines: ") + ", ".join(
                lines)
            words += cls.winning_hand_words(result)
        else:
            words = "Showdown"
        if winners and hands.get(winners[0]):
            words += f" ({' and '.join(winners)}: {hands[winners[0]]['hand'].lower()})"
        return words

    @classmethod
    def winning_title(cls, result: dict[str, Any]) -> str | None:
        """The pages' line for the winning lines: "Winning line: Row 1 — Ann: Flush, ace high"
        (the state's ``winning_words``); None where no line won."""
        lines = result.get("winning_lines") or []
        if not lines:
            return None
        words = " and ".join(cls.layout.line_title(line) for line in lines)
        plural = "s" if len(lines) > 1 else ""
        return f"Winning line{plural}: {words}{cls.winning_hand_title(result)}"

    @classmethod
    def winning_hand_title(cls, result: dict[str, Any]) -> str:
        winners = result.get("winners") or []
        hands = result.get("hands") or {}
        if winners and hands.get(winners[0]):
            return f" — {' and '.join(winners)}: {hands[winners[0]]['hand']}"
        return ""

    @classmethod
    def winning_hand_words(cls, result: dict[str, Any]) -> str:
        """The hand of the winning line, where the line is the bet (R26)."""
        return ""

    @classmethod
    def result_extras(cls, result: dict[str, Any]) -> str:
        """What a result adds to its sentence after the payouts."""
        return ""

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
            for i, (name, stack) in enumerate(zip(totals.names or setup.players, totals.stacks,
                                                  strict=True))
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
