"""The deal model: players, stakes, the betting round in progress, and the totals carried.

A deal is data, with the queries and the chip bookkeeping that read and change its own fields
(who is still in, what the pots hold, what is paid to whom, which cards are known). It knows
neither its game nor the game's phases: what it needs of its game comes as data
(:class:`GameFacts`), and the engine (``core/engine.py``) walks it through the phases as
actions arrive. Every handler may raise :class:`IllegalActionError` half-way: the table
applies each action to a copy (:meth:`Deal.clone`), so a refusal changes nothing (R9).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Self, TypeVar

from dealer_assist.core.cards import Wilds, deck_refusal, parse_card, pretty
from dealer_assist.core.chain import Chain
from dealer_assist.core.errors import BadCardError, IllegalActionError
from dealer_assist.core.layouts import Place
from dealer_assist.core.pots import Pot, layer_pots, split
from dealer_assist.core.result import BET_POT, PotShare, Result
from dealer_assist.core.rules import HouseRules, OddChip

_T = TypeVar("_T")


@dataclass(frozen=True)
class Departure:
    """A player who left the table (R70): what they bought in and cashed out, and when."""

    name: str
    bought_in: int
    cashed_out: int
    after_deal: int  # the deals started before they left

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bought_in": self.bought_in, "cashed_out": self.cashed_out,
                "after_deal": self.after_deal}


@dataclass(frozen=True)
class CarriedPot:
    """Chips a game keeps on the table between deals, in no player's stack (a pot that grows
    until it is won, chips the game pays out hand by hand): its key in the totals
    (``Totals.carried``) and the state, its title on the pages, what the banker holds it for
    (R76), and whether the pages show it (chips taken off the table are kept count of, not
    shown as a pot)."""

    key: str
    title: str
    held_for: str
    shown: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title}


def with_amount(carried: Mapping[str, int], key: str, amount: int) -> dict[str, int]:
    """``carried`` with ``key`` holding ``amount``; a pot that holds nothing is left out, so
    that two totals holding the same chips are equal."""
    out = {k: v for k, v in carried.items() if k != key}
    if amount:
        out[key] = amount
    return out


@dataclass(frozen=True)
class Totals:
    """What a table carries from one deal to the next (R7, R28, R55)."""

    stacks: tuple[int, ...]
    deal_number: int = 0  # deals started so far
    button: int = -1  # the seat of the last deal's dealer (or blind holder, R51)
    carry: int = 0  # chips left in the pot for the next deal (R7 carry, R55)
    # what the games keep between deals in no player's stack, by the key each game names
    # (its ``carried_pots``); the core carries and conserves it, never reads it
    carried: Mapping[str, int] = field(default_factory=dict)
    game_over: bool = False
    buy_ins: tuple[int, ...] = ()  # every chip each player has bought in, rebuys included
    names: tuple[str, ...] = ()  # who sits at the table now, in seat order (R4, R70)
    sitting_out: tuple[str, ...] = ()  # seated, but dealt out until they sit in (R70)
    departed: tuple[Departure, ...] = ()  # everyone who left, in the order they left
    variant: str = ""  # the game of the last deal: the next one's unless named (R71)
    bomb_pot: int = 0  # the ante of the last bomb pot dealt here (R65): offered again

    def chips(self) -> int:
        """Every chip the table holds: conserved by every deal (R3)."""
        return sum(self.stacks) + self.carry + sum(self.carried.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "stacks": list(self.stacks), "deal_number": self.deal_number,
            "button": self.button, "carry": self.carry, "carried": dict(self.carried),
            "game_over": self.game_over, "buy_ins": list(self.buy_ins),
            "names": list(self.names), "sitting_out": list(self.sitting_out),
            "departed": [d.to_json() for d in self.departed], "variant": self.variant,
            **({"bomb_pot": self.bomb_pot} if self.bomb_pot else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Totals:
        """Totals as :meth:`to_json` wrote them, or as an older release stored them: rows
        written before R70 have no names, sitting_out, departed or variant, and rows written
        before ``carried`` held each game's carried chips as a key of their own (a whole
        number beside the known fields), which is read into ``carried``."""
        known = {f.name for f in fields(cls)}
        carried = dict(data.get("carried", {}))
        for key, value in data.items():
            if key not in known and isinstance(value, int) and not isinstance(value, bool):
                carried = with_amount(carried, key, value)
        return cls(
            stacks=tuple(data["stacks"]), deal_number=data.get("deal_number", 0),
            button=data.get("button", -1), carry=data.get("carry", 0), carried=carried,
            game_over=bool(data.get("game_over", False)),
            buy_ins=tuple(data.get("buy_ins", ())), names=tuple(data.get("names", ())),
            sitting_out=tuple(data.get("sitting_out", ())),
            departed=tuple(Departure(**d) for d in data.get("departed", ())),
            variant=data.get("variant", ""), bomb_pot=data.get("bomb_pot", 0))


@dataclass
class Stake:
    """A betting seat (R24): one per card bought where cards are bought, one per
    player elsewhere."""

    owner: int
    card: str | None = None
    contributed: int = 0
    live: bool = True


class PlayerStatus(StrEnum):
    """Where a player stands in the deal; the state's ``status`` sends the value."""

    IN = "in"
    FOLDED = "folded"
    ALL_IN = "all_in"
    OUT = "out"  # not dealt in this deal
    MUCKED = "mucked"  # gave up the hand at the showdown, its cards never shown: it loses


@dataclass
class Player:
    name: str
    seat: int
    stack: int
    status: PlayerStatus = PlayerStatus.IN
    round_bet: int = 0  # per live stake, this betting round
    acted: bool = False
    stakes: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)  # as recorded by the dealer
    # the cards dealt face up to this player (R81): public from the moment they are entered
    up: list[str] = field(default_factory=list)
    # how many cards this player drew at each draw so far (R85): public, never which
    draws: list[int] = field(default_factory=list)
    bought: int | None = None  # cards asked for, where players buy cards; None until asked

    @property
    def live(self) -> bool:
        return self.status in (PlayerStatus.IN, PlayerStatus.ALL_IN)


@dataclass
class Round:
    """The betting round in progress."""

    index: int
    bet_size: int  # fixed limit: the size of a bet or raise this round
    opener: int  # the seat betting starts from
    current: int = 0  # the highest per-stake bet this round
    last_raise: int = 0  # the smallest raise increment that reopens the betting
    raises: int = 0  # bets and raises so far (fixed limit allows four)
    # R81: a forced opening bet the first seat to act posts, or completes to ``bet_size``
    # instead (0: none due); once posted, ``completing`` says the next bet completes it
    bring_in: int = 0
    completing: bool = False
    # who acts first this round and why, in the dealer's words, where the cards decide it
    why: str | None = None


@dataclass
class PhaseState:
    """What the phase in play keeps between actions. A phase that keeps more subclasses it
    (a draw keeps the cards drawn, a pay phase who was asked); entering a phase starts a
    fresh one."""

    done: bool = False

    def copy(self) -> Self:
        """A copy whose lists and dicts are its own (R9: an action is applied to a copy)."""
        twin = object.__new__(type(self))  # as _shallow: no dataclasses.replace round trip
        twin.__dict__.update({k: v.copy() if isinstance(v, list | dict) else v
                              for k, v in self.__dict__.items()})
        return twin


@dataclass(frozen=True)
class GameFacts:
    """What a deal needs to know of its game to answer for itself: the deck (R79, R87) and
    the game's name that a card refused names, the game's own card places (R9's check sees
    them), whether every card bought is a betting seat (R24), whether the winner takes every
    chip (R55: the pots are one) and the kind of result its deals settle to. Each game keeps
    one (``Game.facts``) and gives it to every deal it starts."""

    name: str
    deck: tuple[str, ...]
    places: tuple[Place, ...] = ()
    stakes_per_card: bool = False
    one_pot: bool = False
    result_type: type[Result] = Result


@dataclass
class Deal:
    facts: GameFacts  # what the deal knows of its game: the game itself it never holds
    rules: HouseRules
    players: list[Player]
    dealer: int
    totals: Totals  # the table before this deal
    stakes: list[Stake] = field(default_factory=list)
    phase: int = 0
    turn: int | None = None  # the seat whose turn it is, where a phase has turns
    round: Round | None = None
    grid: dict[str, str | None] = field(default_factory=dict)  # cell -> card; None if turned
    revealed: list[str] = field(default_factory=list)
    # the cards of the game's own places (``Game.places``), by the place's field, once entered
    places: dict[str, list[str]] = field(default_factory=dict)
    # what the game keeps between deals (``Totals.carried``), as this deal changes it
    carried: dict[str, int] = field(default_factory=dict)
    carry: int = 0  # dead chips in this deal's main pot
    result: Result | None = None  # the game's own kind (Game.result_type), once settled
    # a Chain: each action's copy of the deal shares the lines so far (core/chain.py)
    log: Chain[str] = field(default_factory=Chain)
    phase_state: PhaseState = field(default_factory=PhaseState)
    game_over: bool = False
    game_over_words: str | None = None  # the step's sentence once the game is over
    dealt: bool = False  # the cards are out: from now one player left ends the deal
    blinds: tuple[int, ...] = ()  # the seats that posted blinds, the big (or only) one last
    button: int | None = None  # where the game put the button, if not on the dealer (R51)
    # what each seat posted before the cards, in order: (seat, kind, chips), the kind "ante",
    # "big_blind_ante", "small", "big", "straddle" or "bomb_pot" (core/blinds.py): the pages'
    # "who posts what"
    posted: tuple[tuple[int, str, int], ...] = ()
    bomb_pot: int = 0  # R65: the ante every player dealt in put in, no blinds, no pre-flop bet
    # R66: the board's cells that are turned twice, each again as "<cell>.2" (after the flop
    # ("b4", "b5")); empty while the board runs once
    second_run: tuple[str, ...] = ()
    # a board card was turned when no more betting was possible: too late to run it twice
    run_out: bool = False
    tabled: tuple[int, ...] = ()  # R67: the seats whose cards are tabled, in the order shown

    # ----------------------------------------------------------------- names and seats
    def player(self, name: str | None) -> Player:
        if name is None:
            raise IllegalActionError("Say which player acts.")
        for p in self.players:
            if p.name.casefold() == name.casefold():
                return p
        raise IllegalActionError(f"There is no player called {name} at this table.")

    def seats_from(self, first: int) -> list[Player]:
        """Every player in seat order, clockwise, starting at seat ``first`` (R4)."""
        n = len(self.players)
        return [self.players[(first + i) % n] for i in range(n)]

    @property
    def left_of_dealer(self) -> int:
        return (self.dealer + 1) % len(self.players)

    @property
    def stakes_per_card(self) -> bool:
        """R24: whether every card bought is a betting seat (the game declares it)."""
        return self.facts.stakes_per_card

    def live_stakes(self, p: Player) -> list[Stake]:
        return [self.stakes[i] for i in p.stakes if self.stakes[i].live]

    def still_in(self) -> list[Player]:
        return [p for p in self.players if p.live]

    def chips(self) -> int:
        """Every chip on the table right now (R3)."""
        return (
            sum(p.stack for p in self.players) + sum(s.contributed for s in self.stakes)
            + self.carry + sum(self.carried.values())
        )

    def add_carried(self, key: str, amount: int) -> None:
        """Put ``amount`` more (or less, if negative) in the game's carried pot ``key``."""
        self.carried = with_amount(self.carried, key, self.carried.get(key, 0) + amount)

    # ----------------------------------------------------------------------- chips
    def put(self, p: Player, per_stake: int) -> int:
        """``p`` stakes ``per_stake`` more on each live stake; returns the chips it costs."""
        live = self.live_stakes(p)
        cost = per_stake * len(live)
        if cost > p.stack:
            raise IllegalActionError(f"{p.name} has only {p.stack} chips.")
        p.stack -= cost
        for s in live:
            s.contributed += per_stake
        p.round_bet += per_stake
        return cost

    def pots(self) -> list[Pot]:
        return layer_pots(
            [s.contributed for s in self.stakes],
            [s.live and self.players[s.owner].live for s in self.stakes],
            self.carry,
            [self.players[s.owner].status == PlayerStatus.ALL_IN for s in self.stakes],
        )

    def pot_total(self) -> int:
        return sum(s.contributed for s in self.stakes) + self.carry

    def share_out(
        self, amount: int, winners: Sequence[int], *, odd_chip: OddChip | None = None,
        kind: str = BET_POT, run: int | None = None, layer: int | None = None,
    ) -> int:
        """Pay ``amount`` to ``winners`` (seats, one entry a share); returns the odd chips
        left over under ``carry`` (R7). Each share-out is kept in the result's ``pots``
        (``kind``: a pot of the bets, or the key of a carried pot shared out), so that its
        words can say who took which pot and who got an odd chip; a half of a pot run twice
        says its ``run`` and ``layer`` (R66)."""
        won, left = split(
            amount, winners, seats=len(self.players), first_seat=self.left_of_dealer,
            odd_chip=odd_chip or self.rules.odd_chip,
        )
        payouts = self.result_payouts()
        share = amount // len(winners) if winners else 0
        record = PotShare(kind=kind, amount=amount, carried=left, run=run, layer=layer)
        for seat, chips in won.items():
            self.players[seat].stack += chips
            name = self.players[seat].name
            payouts[name] = payouts.get(name, 0) + chips
            count = sum(1 for w in winners if w == seat)
            record.winners.append(name)
            record.shares[name] = count
            if chips > share * count:
                record.odd[name] = chips - share * count
        self.settled().add_pot(record)
        return left

    def settled(self) -> Result:
        """The deal's result, begun (of the game's own kind) if there is none yet."""
        if self.result is None:
            self.result = self.facts.result_type()
        return self.result

    def result_payouts(self) -> dict[str, int]:
        return self.settled().payouts

    def return_uncalled(self) -> None:
        """The part of a bet nobody matched goes back to its owner (R5), and so does every
        layer only one seat paid into, even a folded one's (R6): a small blind that folds to
        a big blind all in for less takes back what the big blind never matched."""
        top: dict[int, int] = {}
        for s in self.stakes:
            top[s.owner] = max(top.get(s.owner, 0), s.contributed)
        ranked = sorted(top.items(), key=lambda item: -item[1])
        if not ranked:
            return
        owner, highest = ranked[0]
        others = ranked[1][1] if len(ranked) > 1 else 0
        if highest <= others:
            return
        p = self.players[owner]
        back = 0
        for i in p.stakes:
            stake = self.stakes[i]
            if stake.contributed > others:
                back += stake.contributed - others
                stake.contributed = others
        p.stack += back
        p.round_bet = max(0, p.round_bet - (highest - others))
        if p.status == PlayerStatus.ALL_IN and p.stack >= len(self.live_stakes(p)):
            p.status = PlayerStatus.IN
        self.log.append(f"{p.name} takes back {back} uncalled.")

    def clear_pots(self) -> None:
        for s in self.stakes:
            s.contributed = 0
        self.carry = 0

    # ------------------------------------------------------------------ cards
    def known_cards(self) -> dict[str, str]:
        """Every full card entered this deal, with where it is (``"r1c5"``, a place of the
        game's own as ``Place.where`` says it, ``"Bob's hand"``), to catch duplicates."""
        seen: dict[str, str] = {}
        for cell_name, card in self.grid.items():
            if card:
                seen[card] = cell_name
        for place in self.facts.places:
            for card in self.places.get(place.field, ()):
                seen[card] = place.where
        for p in self.players:
            for card in p.cards:
                if len(card) == 2:
                    seen[card] = hand_place(p.name)
            for card in p.up:
                seen[card] = up_place(p.name)
        return seen

    def parse(self, text: str, *, rank_only: bool = False) -> str:
        try:
            card = parse_card(text, jokers=self.rules.wilds is Wilds.JOKERS,
                              rank_only=rank_only)
        except BadCardError as err:
            raise IllegalActionError(str(err)) from None
        refusal = deck_refusal(self.facts.deck, self.facts.name, card)
        if refusal:
            raise IllegalActionError(refusal)
        return card

    def check_new_cards(self, entries: Iterable[tuple[str, str]]) -> None:
        """R9: one check of the new ``(place, card)`` entries against everything the deal
        knows and against each other, whatever the order they came in; the refusal names
        both places ("8♦ is entered twice: r1c5 and r2c2."). A rank alone (R23) is never
        caught here: ``check_rank_counts`` counts those."""
        seen = self.known_cards()
        for place, card in entries:
            if len(card) != 2:
                continue
            if card in seen:
                if seen[card] == place:
                    raise IllegalActionError(f"{pretty(card)} is entered twice in {place}.")
                raise IllegalActionError(
                    f"{pretty(card)} is entered twice: {seen[card]} and {place}.")
            seen[card] = place

    def clone(self) -> Deal:
        """A copy that shares nothing mutable with this deal (R9: an action is applied to the
        copy). Field by field rather than ``copy.deepcopy``, which cost most of an action's
        time; the game's facts, the rules and the base totals are immutable and shared."""
        twin = _shallow(self)
        twin.players = [_copy_player(p) for p in self.players]
        twin.stakes = [_shallow(s) for s in self.stakes]
        twin.round = None if self.round is None else _shallow(self.round)
        twin.grid = dict(self.grid)
        twin.revealed = list(self.revealed)
        twin.places = {k: list(v) for k, v in self.places.items()}
        twin.carried = dict(self.carried)
        twin.result = None if self.result is None else self.result.copy()
        twin.log = self.log.copy()
        twin.phase_state = self.phase_state.copy()
        return twin

    def final_totals(self) -> Totals:
        return Totals(
            stacks=tuple(p.stack for p in self.players),
            deal_number=self.totals.deal_number,
            button=self.dealer_button(),
            carry=self.carry + sum(s.contributed for s in self.stakes),
            carried=dict(self.carried),
            game_over=self.game_over,
            buy_ins=self.totals.buy_ins or self.totals.stacks,
        )

    def dealer_button(self) -> int:
        return self.dealer if self.button is None else self.button


def hand_place(name: str) -> str:
    """Where a player's cards are, as a refusal names it: "Bob's hand"."""
    return f"{name}'s hand"


def up_place(name: str) -> str:
    """Where a player's up cards are, as a refusal names them: "Bob's up cards"."""
    return f"{name}'s up cards"


def chips(n: int) -> str:
    """``"1 chip"``, ``"3 chips"``."""
    return f"{n} chip" if n == 1 else f"{n} chips"


def _shallow(obj: _T) -> _T:
    """``copy.copy`` for our plain dataclasses, without its ``__reduce_ex__`` round trip
    (about 4 µs an object, and a deal of 22 players has some 45 of them to copy)."""
    twin: _T = object.__new__(type(obj))
    twin.__dict__.update(obj.__dict__)
    return twin


def _copy_player(p: Player) -> Player:
    twin = _shallow(p)
    twin.stakes = list(p.stakes)
    twin.cards = list(p.cards)
    twin.up = list(p.up)
    twin.draws = list(p.draws)
    return twin
