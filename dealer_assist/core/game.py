"""The game interface: what a game is to the core, the services and the pages.

A game is a class: its metadata (what the pages, the history and the state need to know of it)
as class attributes, its play as a list of phases, and a few hooks. The games themselves live in
``dealer_assist.games`` and plug in through a :class:`Catalogue`, which the services give the
table (``dealer_assist.games.registry`` builds the app's): the core never imports a game.

A game is a definition and never plays: the engine (``core/engine.py``) drives a deal through
the game's phases, handing each the game. So this module imports no phase: it names what the
engine asks of one as :class:`GamePhase`, which ``core/phases.py``'s ``Phase`` answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any, ClassVar, Protocol

from dealer_assist.core.actions import Action
from dealer_assist.core.blinds import Antes, OpeningRound
from dealer_assist.core.cards import FULL_DECK, JOKERS, deck_ranks
from dealer_assist.core.deal import CarriedPot, Deal, GameFacts, Player, Totals
from dealer_assist.core.equity import HandRule as EquityRule
from dealer_assist.core.equity import HandTypes
from dealer_assist.core.errors import SetupError
from dealer_assist.core.layouts import Layout, Place
from dealer_assist.core.result import BET_POT, PotShare, Result
from dealer_assist.core.rules import GameRules, HouseRules
from dealer_assist.core.step import Step
from dealer_assist.core.words import and_words, hand_words, pot_label, winners_words

# The house rules every betting game offers on the home page, in the order shown.
BETTING_RULES: tuple[str, ...] = ("ante", "betting", "min_bet", "small_bet", "big_bet",
                                  "odd_chip", "buy_in")
# ... and those a game played with blinds adds before them (R30, R60, R63, R64)
BLIND_RULES: tuple[str, ...] = ("small_blind", "big_blind", "big_blind_ante", "straddle",
                                "bomb_pot_ante", *BETTING_RULES)


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
    places: ClassVar[tuple[Place, ...]] = ()  # card places beside the layout (a hand of its own)
    carried_pots: ClassVar[tuple[CarriedPot, ...]] = ()  # chips kept between deals (R28, R50)
    # what is posted before the cards (core/blinds.py), where the game posts anything
    forced_bets: ClassVar[Antes | None] = None
    # what ``start_deal`` may ask of one deal: "straddle" (R63), "bomb_pot" (R65)
    deal_options: ClassVar[tuple[str, ...]] = ()
    # a community board that may be run twice at an all-in (R66), and the hand rule that
    # counts the chances of the hands tabled there (R67); None where the game has neither
    board_equity: ClassVar[EquityRule | HandTypes | None] = None
    # a deal won because everyone else folded still names its winning lines (none): the
    # result of a game played on lines always says which lines won
    uncontested_lines: ClassVar[bool] = False
    # PHH's variant code for the game under each betting structure, where the hand history
    # standard has one: such a game is written as PHH's hold 'em family (services/phh.py)
    phh_codes: ClassVar[Mapping[str, str]] = {}
    stakes_per_card: ClassVar[bool] = False  # R24: every card bought is a betting seat
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
    result_type: ClassVar[type[Result]] = Result  # the kind of result its deals settle to
    round_names: tuple[str, ...] = ("Round 1", "Round 2", "Round 3")
    # the cards it is played with (R79, R87: the short deck's 36); what the card picker
    # offers and every card entered is checked against
    deck: ClassVar[tuple[str, ...]] = FULL_DECK

    @classmethod
    def deck_ranks(cls) -> list[str]:
        """The ranks of the game's deck, 2 (or its lowest) to ace."""
        return deck_ranks(cls.deck)

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        """The game as the pages read it (embedded in every page as JSON)."""
        defaults = HouseRules.for_game(cls, {}).to_json()
        return {
            "variant": cls.variant, "name": cls.name, "summary": cls.summary,
            "players": list(cls.players),
            # the ranks of its deck, which the card picker offers (R87: 6 to ace)
            "deck_ranks": cls.deck_ranks(),
            "rules": {"offered": list(cls.house_rules), "defaults": defaults,
                      "betting": list(cls.betting_structures), "help": dict(cls.rule_help)},
            "layout": cls.layout.to_json(),
            "places": [place.to_json() for place in cls.places],
            "carried": [pot.to_json() for pot in cls.carried_pots],
            "deal_options": list(cls.deal_options),
            # what the dealer may record at an all-in besides the reveal (R66, R67)
            "all_in_options": ["run_twice", "show"] if cls.board_equity else [],
            "stake_word": "card" if cls.stakes_per_card else None,
            "stakes_per_card": cls.stakes_per_card,
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

    def carried_amounts(self, deal: Deal | None, totals: Totals) -> dict[str, int]:
        """Each of this game's ``carried_pots`` now, by key: in the deal in play, else as the
        table holds it."""
        return {}

    @classmethod
    def waiting_amounts(cls, totals: Totals) -> dict[str, int]:
        """What this game keeps at the table (its ``carried_pots``) while another is dealt
        (R72)."""
        return {}

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
            # a hand tabled at an all-in (R67) is face up from then on
            up = (self.shown_cards(deal, p) if (shown or p.seat in deal.tabled) and p.live
                  else set())
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
    def result_words(cls, result: Result) -> str:
        """A deal's result in words, as the history lists it: its sentences in a row."""
        return " ".join(cls.result_sentences(result))

    @classmethod
    def result_sentences(cls, result: Result) -> list[str]:
        """The result in sentences, as the pages show it: one a pot, who took it and with
        what (R6), who got an odd chip and why (R7), then what the game adds."""
        pots = result.bet_pots()
        if result.pots is None and result.payouts:
            return [cls.legacy_result_words(result)]  # kept before each pot was recorded
        sentences: list[str] = []
        if result.uncontested:
            winners = result.winners or []
            if winners:
                amount = sum(p.amount for p in pots)
                takes = f"takes the pot of {amount}" if amount else "wins"
                sentences.append(f"Everyone else folded: {winners[0]} {takes}.")
            else:
                sentences.append("Everyone left the hand: its pot carries to the next "
                                 f"{cls.deal_word.lower()}.")
        elif not pots and result.winning_lines:
            sentences.append(cls.unbet_words(result))
        elif any(pot.run for pot in pots):
            sentences += cls.run_twice_sentences(result, pots)
        else:
            for index, pot in enumerate(pots):
                label = pot_label(index, len(pots))
                sentences.append(f"{label} {pot.amount}: {cls.pot_words(pot, result)}.")
                sentences += cls.odd_chip_sentences(pot, label)
        if result.mucked:  # a hand given up at the showdown, its cards never shown
            sentences.append(f"{and_words(result.mucked)} mucked.")
        return sentences + cls.result_extra_sentences(result)

    @classmethod
    def run_twice_sentences(cls, result: Result, pots: list[PotShare]) -> list[str]:
        """R66: each half of each pot, on its run, and who took it with what: "Main pot 41,
        first run's half 21: Ann, an ace-high flush."; then its odd chips (R7)."""
        layers = [p for p in result.pots or () if p.kind == BET_POT]
        count = 1 + max((p.layer or 0) for p in layers)
        totals: dict[int, int] = {}
        for p in layers:
            totals[p.layer or 0] = totals.get(p.layer or 0, 0) + p.amount
        sentences: list[str] = []
        for pot in pots:
            layer = pot.layer or 0
            label = pot_label(layer, count)
            run = ("first", "second")[(pot.run or 1) - 1]
            sentences.append(f"{label} {totals[layer]}, {run} run's half {pot.amount}: "
                             f"{cls.pot_words(pot, result)}.")
            sentences += cls.odd_chip_sentences(pot, f"{label}'s {run}-run half")
        return sentences

    # where odd chips wait under the house rule ``odd_chip: carry`` (R7)
    carry_place: ClassVar[str] = "in the pot for the next deal"
    odd_chip_rule: ClassVar[str] = "R7"  # the rule that says where odd chips go

    @classmethod
    def pot_words(cls, pot: PotShare, result: Result) -> str:
        """Who took a pot and with what: "Dee, four aces on row 1"."""
        words = winners_words(pot)
        if pot.hand:
            words += ", " + hand_words(pot.hand)
        lines = {name: tuple(shown.lines or ()) if (shown := result.shown(name)) else ()
                 for name in pot.winners}
        if len(set(lines.values())) == 1:
            words += "".join(" " + cls.layout.on_lines(ls) for ls in set(lines.values()) if ls)
        else:
            words += " (" + ", ".join(f"{name} {cls.layout.on_lines(ls)}"
                                      for name, ls in lines.items()) + ")"
        return words

    @classmethod
    def unbet_words(cls, result: Result) -> str:
        """A showdown with nothing bet: only who would have won."""
        return cls.result_opening(result) + "; no chips were bet."

    @classmethod
    def odd_chip_sentences(cls, pot: PotShare, label: str) -> list[str]:
        """R7: who got the odd chips of a pot shared, and why; or where they wait."""
        of = "" if label == "Pot" else f" of the {label[0].lower()}{label[1:]}"
        if pot.odd:
            count = sum(pot.odd.values())
            chip = "the odd chip" if count == 1 else f"the {count} odd chips"
            verb = "gets" if len(pot.odd) == 1 else "get"
            return [f"{and_words(list(pot.odd))} {verb} {chip}{of}: the first of its winners "
                    f"from the dealer's left ({cls.odd_chip_rule})."]
        if pot.carried:
            count = pot.carried
            chip = "The odd chip" if count == 1 else f"The {count} odd chips"
            verb = "stays" if count == 1 else "stay"
            return [f"{chip}{of} {verb} {cls.carry_place} ({cls.odd_chip_rule})."]
        return []

    @classmethod
    def result_extra_sentences(cls, result: Result) -> list[str]:
        """What a game adds to a result's sentences (a carried pot won or paid from)."""
        return []

    @classmethod
    def legacy_result_words(cls, result: Result) -> str:
        """One sentence for a result kept without its pots (before issue 13)."""
        pays = [f"{name} takes {amount}" for name, amount in result.payouts.items() if amount]
        words = cls.result_opening(result)
        words += "; " + ", ".join(pays) if pays else ""
        return words + cls.result_extras(result) + "."

    @classmethod
    def result_opening(cls, result: Result) -> str:
        """How an old result's sentence (:meth:`legacy_result_words`) and a showdown with
        nothing bet (:meth:`unbet_words`) begin."""
        if result.uncontested:
            winners = result.winners or []
            if not winners:
                return "Everyone left the hand: its pot carries"
            return f"Everyone else folded: {winners[0]} wins"
        lines = [cls.layout.line_label(line) for line in result.winning_lines or ()]
        winners = result.winners or []
        if lines:
            words = ("Winning line: " if len(lines) == 1 else "Winning lines: ") + ", ".join(
                lines)
            words += cls.winning_hand_words(result)
        else:
            words = "Showdown"
        shown = result.shown(winners[0]) if winners else None
        if shown:
            words += f" ({' and '.join(winners)}: {shown.hand.lower()})"
        return words

    @classmethod
    def winning_title(cls, result: Result) -> str | None:
        """The pages' line for the winning lines: "Winning line: Row 1 — Ann: Flush, ace high"
        (the state's ``winning_words``); None where no line won."""
        lines = result.winning_lines or []
        if not lines:
            return None
        words = " and ".join(cls.layout.line_title(line) for line in lines)
        plural = "s" if len(lines) > 1 else ""
        return f"Winning line{plural}: {words}{cls.winning_hand_title(result)}"

    @classmethod
    def winning_hand_title(cls, result: Result) -> str:
        winners = result.winners or []
        shown = result.shown(winners[0]) if winners else None
        return f" — {' and '.join(winners)}: {shown.hand}" if shown else ""

    @classmethod
    def winning_hand_words(cls, result: Result) -> str:
        """The hand of the winning line, where the line is the bet (R26)."""
        return ""

    @classmethod
    def result_extras(cls, result: Result) -> str:
        """What a result adds to its sentence after the payouts."""
        return ""

    def __init__(self, rules: HouseRules) -> None:
        self.rules = rules
        self.phases: Sequence[GamePhase] = self.build_phases()
        # what each deal of this game knows of it (the deal never holds the game)
        self.facts = GameFacts(name=self.name, deck=self.deck, places=self.places,
                               stakes_per_card=self.stakes_per_card, one_pot=self.one_pot,
                               result_type=self.result_type)

    def build_phases(self) -> Sequence[GamePhase]:
        raise NotImplementedError

    # ---------------------------------------------------------------- hooks
    def initial_totals(self, stacks: tuple[int, ...]) -> Totals:
        """What a table made for this game holds before its first deal: the players'
        ``stacks`` in seat order, and whatever the game keeps beside them (R50's bank)."""
        return Totals(stacks=stacks, buy_ins=stacks)

    def next_dealer(self, totals: Totals) -> int:
        """R4: the button moves one seat clockwise every deal; the first deal's dealer is the
        first player listed."""
        if self.forced_bets is not None:
            return self.forced_bets.next_dealer(totals)
        return (totals.button + 1) % len(totals.stacks)

    def set_up(self, deal: Deal) -> None:
        """Antes, blinds and who sits out, before the first phase."""
        if self.forced_bets is not None:
            self.forced_bets.post(deal)

    def opener(self, deal: Deal, phase: OpeningRound) -> int:
        if self.forced_bets is not None:
            return self.forced_bets.opener(deal, phase)
        return deal.left_of_dealer

    def bring_in(self, deal: Deal, phase: OpeningRound) -> int:
        """R81: what the first seat to act in ``phase`` owes as a bring-in (0: nothing)."""
        return self.forced_bets.bring_in(deal, phase) if self.forced_bets is not None else 0

    def opening_words(self, deal: Deal, phase: OpeningRound) -> str | None:
        """Who acts first in ``phase`` and why, where the cards decide it (R81, R82)."""
        if self.forced_bets is None:
            return None
        return self.forced_bets.opening_words(deal, phase)

    def round_name(self, phase: OpeningRound) -> str:
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
        result = deal.settled()
        result.uncontested = True
        result.winners = [winner.name]
        if self.uncontested_lines and result.winning_lines is None:
            result.winning_lines = []
        deal.log.append(f"{winner.name} takes {amount}: everyone else folded.")


class GamePhase(Protocol):
    """One part of a deal, as a game lists it and the engine drives it (``core/phases.py``'s
    ``Phase`` is the base every phase derives from). Each method is given the game, so that a
    phase never reaches it through the deal."""

    @property
    def runs_after_result(self) -> bool:
        """Whether the phase still takes actions once the deal is settled."""
        ...

    def enter(self, game: Game, deal: Deal) -> None: ...

    def done(self, game: Game, deal: Deal) -> bool: ...

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]: ...

    def refusal(self, game: Game, deal: Deal, action: Action) -> str: ...

    def handle(self, game: Game, deal: Deal, action: Action) -> None: ...

    def step(self, game: Game, deal: Deal) -> Step: ...


class Catalogue:
    """The games a table may deal, by id (R71). The services give it to the table; the app's
    is ``dealer_assist.games.registry.CATALOGUE``, and a test may build one of its own."""

    def __init__(self, games: Iterable[type[Game]]) -> None:
        self.games: dict[str, type[Game]] = {game.variant: game for game in games}

    def all(self) -> tuple[type[Game], ...]:
        """Every game, in the order the pages list them."""
        return tuple(self.games.values())

    def game_class(self, variant: Any) -> type[Game]:
        """The game called ``variant``; a :class:`SetupError` naming the games otherwise."""
        game = self.games.get(variant) if isinstance(variant, str) else None
        if game is None:
            raise SetupError(
                f"Unknown game {str(variant)[:40]!r}: choose one of {', '.join(self.games)}.")
        return game

    @cached_property
    def place_fields(self) -> frozenset[str]:
        """The record fields of every game's extra card places (a showdown's hand of the
        game's own): what :meth:`Action.from_json` reads beside the core's fields."""
        return frozenset(place.field for game in self.games.values() for place in game.places)

    def carried_pot(self, key: str) -> CarriedPot | None:
        """The pot kept between deals called ``key``, whichever game keeps it."""
        return next((pot for game in self.games.values() for pot in game.carried_pots
                     if pot.key == key), None)
