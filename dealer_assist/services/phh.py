"""Hand histories in PHH, the poker hand history standard (API.md "History"), both ways.

A deal is written as one PHH hand: TOML fields, with the deal's records as PHH action lines
(``pN cc``, ``pN cbr 12``, ``d db AhKd7c``...). A table is every deal, one section each
(``.phhs``). The layout and every field are in docs/hand-histories.md.

- A game PHH knows under the table's betting structure (the game's ``phh_codes``) is written
  with PHH's code and fields only, so PokerKit's ``HandHistory`` reads it and replays it to
  the app's stacks (R7's odd chips aside).
- Every other game, or betting structure, is written in PHH's shape under a code of its own,
  ``dealer-assist/<game>``: one action line a record, PHH's verbs where they mean the same,
  and ``_``-verbs (``p2 _buy count=3``) where PHH has none.
- Every section also carries ``_``-fields with what PHH has no field for (the table's set-up,
  the rebuys and seats between deals), so that :func:`read_table` reads the file back into the
  very same deals: the app's own import.

``full`` is the view with every card the dealer entered; without it, only what the public saw:
a card never shown is ``??`` (a player's hole cards until they are shown), and a record is
masked as the game masks it in the public history (``Game.public_action``).

No web imports: ``web/phh_api.py`` serves these.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, time
from typing import Any

from dealer_assist.core.actions import BETWEEN_DEAL_TYPES, Action
from dealer_assist.core.betting import limits
from dealer_assist.core.cards import parse_card
from dealer_assist.core.deal import Deal, PlayerStatus, Totals
from dealer_assist.core.draws import DrawPhase, WholeHandShowdown
from dealer_assist.core.errors import DealerAssistError, ImportRefusedError
from dealer_assist.core.game import Game
from dealer_assist.core.phases import NextPhase
from dealer_assist.core.setup import TableSetup
from dealer_assist.core.showdown import CardsShowdown
from dealer_assist.core.table import Table
from dealer_assist.core.upcards import LastCard, UpCardOpening, UpCardStreet
from dealer_assist.games.registry import setup_from_json
from dealer_assist.services import history
from dealer_assist.services.history.importing import import_time
from dealer_assist.services.history.stored import effective, parse_time
from dealer_assist.services.locks import native_lock

__all__ = ["OWN_CODE_PREFIX", "Sections", "deal_phh", "read_table", "rebuild", "table_phhs"]

OWN_CODE_PREFIX = "dealer-assist/"
# the commentaries that say what PHH has no action for: the board run twice (R66) where the
# players agreed to, and a hand shown that was tabled at the all-in (R67)
RUN_TWICE_NOTE = "run it twice"
TABLED_NOTE = "tabled"
UNKNOWN = "??"
MAX_SECTIONS = 5_000  # as the JSON import: about the deals of a long season at one table
MAX_LINES = 2_000  # action lines of one deal: a real deal has tens


# --------------------------------------------------------------------------- writing
@dataclass(frozen=True)
class Step:
    """One record of a deal as replayed: the table before it and after it."""

    before: Table
    action: Action
    shown: dict[str, Any]  # the record as this reader may see it
    after: Table


def deal_fields(setup: TableSetup, base: Totals, records: Sequence[dict[str, Any]], *,
                number: int, started: str | None, full: bool,
                first: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """One deal as PHH fields, in the order they are written. ``records``: the deal's records
    that still count (``start_deal`` first, then the deal's, then the between-deal records
    after it), replayed from ``base``. ``first``: for the table's first deal, the records
    before it (the set-up and they are written too: :func:`read_table` starts from them)."""
    table = Table.replay(setup, base, ())
    fields_of = setup.catalogue.place_fields
    start = Action.from_json(records[0], fields_of)
    if start.type != "start_deal":
        raise ValueError("a deal's records start with its start_deal")
    table = table.apply(start)
    deal = table.deal
    assert deal is not None
    game = table.game
    family = plays_as_phh(game)
    betting = deal.rules.betting.value
    code = game.phh_codes.get(betting)
    order = phh_order(deal, family)
    steps: list[Step] = []
    after: list[dict[str, Any]] = []
    for record in records[1:]:
        action = Action.from_json(record, fields_of)
        before = table
        table = table.apply(action)
        if action.type in BETWEEN_DEAL_TYPES:
            after.append(record)
        else:
            steps.append(Step(before, action, record if full else game.public_action(record),
                              table))
    end = steps[-1].after.deal if steps else deal
    assert end is not None
    writer = _Lines(game, order, end, full, family)
    for step in steps:
        writer.add(step)
    fields: dict[str, Any] = {"variant": code or OWN_CODE_PREFIX + game.variant}
    antes, blinds = forced_bets(deal, order, family)
    # an ante is layered like any chip (R6), but a big-blind ante is dead (R64)
    dead_ante = deal.carry > deal.totals.carry  # posted at the start, into the main pot
    fields |= {"ante_trimming_status": not dead_ante, "antes": antes,
               "blinds_or_straddles": blinds}
    if isinstance(game.forced_bets, UpCardOpening):  # R81: the first round's bring-in
        fields["bring_in"] = deal.rules.bring_in_chips
    if game.betting_structures:
        if betting == "fixed_limit":
            fields |= {"small_bet": deal.rules.small_bet, "big_bet": deal.rules.big_bet}
        else:
            fields["min_bet"] = deal.rules.min_bet
    fields |= {"starting_stacks": [deal.totals.stacks[s] for s in order],
               "actions": writer.lines}
    fields |= {"hand": number, "table": setup.name or "Table"}
    if started:
        moment = parse_time(started)
        fields |= {"time": moment.time().replace(microsecond=0, tzinfo=None),
                   "time_zone": "UTC", "day": moment.day, "month": moment.month,
                   "year": moment.year}
    fields |= {"seats": [table.seats[s] + 1 if table.seats else s + 1 for s in order],
               "seat_count": len(table.base.names),
               "players": [deal.players[s].name for s in order]}
    over = steps[-1].after.deal_over if steps else False
    if over:
        payouts = end.result.payouts if end.result is not None else {}
        fields["finishing_stacks"] = [end.players[s].stack for s in order]
        fields["winnings"] = [payouts.get(deal.players[s].name, 0) for s in order]
    fields["_variant"] = game.variant
    if game.betting_structures:
        fields["_betting"] = betting
    fields["_dealer"] = deal.players[deal.dealer].name
    extra = {k: v for k, v in records[0].items() if k != "type"}
    if extra:
        fields["_start"] = extra
    if deal.totals.carry:
        fields["_carried_in"] = deal.totals.carry  # R7 carry: chips in the pot from before
    if over and end.carry:
        fields["_carried_out"] = end.carry
    if not over:
        fields["_in_play"] = True
    if first is not None:
        fields["_setup"] = setup.to_json()
        if first:
            fields["_before"] = list(first)
    if after:
        fields["_after"] = after
    return fields


def plays_as_phh(game: Game) -> bool:
    """Whether the game deals, bets and shows down as PHH's hold 'em family (it has a PHH
    code): its deals are written with PHH's actions whatever their code."""
    return bool(game.phh_codes)


def hole_cards(game: Game) -> int:
    """How many hole cards each player of such a game is dealt: what its showdown shows (a
    draw game's, the whole hand, R85)."""
    return next(p.hole if isinstance(p, CardsShowdown) else p.down for p in game.phases
                if isinstance(p, CardsShowdown | WholeHandShowdown))


def known_draws(final: Sequence[str], draws: Sequence[int], size: int
                ) -> tuple[list[str] | None, list[list[str] | None]]:
    """R85: the hand a player was dealt and the cards of each of their draws, where the hand
    shown at the showdown (``final``, else empty) says them; None where it does not. The app
    records how many cards each draw took, never which: a hand stood pat from a draw on was
    the hand shown, and a draw of the whole hand dealt the hand after it; any other draw
    hides which cards were kept."""
    hand: list[str] | None = list(final) if len(final) == size else None
    drawn: list[list[str] | None] = [None] * len(draws)
    for index in reversed(range(len(draws))):
        if draws[index] == size:
            drawn[index], hand = hand, None
        elif draws[index]:
            hand = None
    return hand, drawn


def phh_order(deal: Deal, family: bool) -> list[int]:
    """The deal's seats as PHH numbers its players (p1, p2...): clockwise from the dealer's
    left, the dealer (the button) last. Heads up that puts the big blind first: PHH's
    forced bets are written reversed there (:func:`forced_bets`). A game PHH plays lists
    only the players dealt in."""
    button = deal.dealer_button()
    n = len(deal.players)
    seats = [(button + 1 + k) % n for k in range(n)]
    if family:
        seats = [s for s in seats if deal.players[s].status != PlayerStatus.OUT]
    return seats


def forced_bets(deal: Deal, order: list[int], family: bool) -> tuple[list[int], list[int]]:
    """Each player's ante and blind as the deal started, in PHH order: the blind is what the
    player put into the first round, the ante what else left their stack. Heads up PHH reads
    both fields reversed (its player 1 posts the second value), so they are written so."""
    antes, blinds = [], []
    for s in order:
        p = deal.players[s]
        paid = deal.totals.stacks[s] - p.stack
        blinds.append(p.round_bet if s in deal.blinds else 0)
        antes.append(paid - blinds[-1])
    if deal.blinds and family:
        # each blind as named when posted (a button blind is the big one, R87; R63's straddle
        # twice it)
        sizes = {"small": deal.rules.small_blind, "big": deal.rules.big_blind,
                 "straddle": 2 * deal.rules.big_blind}
        nominal = {seat: sizes[kind] for seat, kind, _ in deal.posted if kind in sizes}
        # a blind posted short is written as the blind: PHH (as PokerKit) posts what it can
        blinds = [nominal.get(s, b) if b else 0 for s, b in zip(order, blinds, strict=True)]
    if len(order) == 2:
        antes.reverse()
        blinds.reverse()
    return antes, blinds


class _Lines:
    """The action lines of one deal, record by record."""

    def __init__(self, game: Game, order: list[int], end: Deal, full: bool, family: bool
                 ) -> None:
        self.game = game
        self.number = {seat: k + 1 for k, seat in enumerate(order)}
        self.order = order
        self.end = end  # the deal after its last record: the cards as they ended
        self.full = full
        self.family = family
        self.draws = any(isinstance(p, DrawPhase) for p in game.phases)
        self.lines: list[str] = []
        self.betting_end = 0  # where PHH's showdown goes: after the last betting line
        self.shown = 0  # the hands shown there so far (tabled at the all-in, R67, first)

    def actor(self, deal: Deal, name: str | None) -> str:
        return f"p{self.number[deal.player(name).seat]}"

    def add(self, step: Step) -> None:
        action, deal = step.action, step.before.deal
        assert deal is not None
        kind, phase = action.type, step.before.current_phase
        if kind in ("check", "call") or (kind == "all_in" and self.only_calls(deal, action)):
            self.bet_line(f"{self.actor(deal, action.player)} cc")
        elif kind == "fold" and action.card is None:
            self.bet_line(f"{self.actor(deal, action.player)} f")
        elif kind in ("bet", "raise") and action.amount is not None:
            self.bet_line(f"{self.actor(deal, action.player)} cbr {action.amount}")
        elif kind == "all_in":
            most = limits(deal, deal.player(action.player)).most
            self.bet_line(f"{self.actor(deal, action.player)} cbr {most}")
        elif kind == "bring_in":
            self.bet_line(f"{self.actor(deal, action.player)} pb")
        elif kind == "discard" and self.family:
            self.draw(step)
        elif kind == "reveal" and self.family and isinstance(phase, UpCardStreet):
            self.deal_up_cards(step)
        elif kind == "reveal":
            self.lines.append("d db " + self.reveal_cards(step))
        elif kind == "next" and self.family and isinstance(phase, LastCard):
            self.deal_last_cards(deal)
        elif kind == "next" and self.family:
            self.deal_holes(deal)
        elif kind == "next":
            note = f" # {phase.instruction}" if isinstance(phase, NextPhase) else ""
            self.lines.append("d _next" + note)
        elif kind == "deal_cards":
            cards = step.shown.get("cards") or []
            self.lines.append(f"d dh {self.actor(deal, action.player)} {card_text(cards)}")
        elif kind == "showdown":
            self.showdown(step)
        elif kind == "show" and self.family:
            self.table_hands(step)
        elif kind == "run_twice" and self.family:
            # PHH has no action for the number of runs: a commentary where it was agreed,
            # which the app's import reads (docs/hand-histories.md)
            self.lines.append(f"# {RUN_TWICE_NOTE}")
        else:
            self.lines.append(self.generic(deal, step.shown))

    def bet_line(self, line: str) -> None:
        self.lines.append(line)
        self.betting_end = len(self.lines)

    @staticmethod
    def only_calls(deal: Deal, action: Action) -> bool:
        allowed = limits(deal, deal.player(action.player))
        return allowed.most <= allowed.current

    def reveal_cards(self, step: Step) -> str:
        """The cards a reveal turned: in a game PHH plays, as the board ended (a card entered
        only at the showdown was turned face up here all the same); elsewhere as the record
        has them (the showdown's line gives the others)."""
        cells = step.before.next_step().cells or ()
        if self.family:
            return card_text([self.end.grid.get(c) or "?" for c in cells])
        given = step.shown.get("cards")
        if isinstance(given, list):
            given = dict(zip(cells, given, strict=False))
        given = given or {}
        return card_text([given.get(c, "?") for c in cells])

    def deal_holes(self, deal: Deal) -> None:
        """PHH deals every player their hole cards, one line each: the dealer's view has the
        cards the dealer entered (at the showdown), the public's never (they show at ``sm``)."""
        count = hole_cards(self.game)
        for seat in self.order:
            cards = (self.known(seat)[0] or []) if self.draws else self.end.players[seat].cards
            shown = cards if self.full and len(cards) == count else ["?"] * count
            self.lines.append(f"d dh p{self.number[seat]} {card_text(shown)}")
        self.betting_end = len(self.lines)
        if deal.bomb_pot:
            self.bomb_pot_checks(deal)

    def known(self, seat: int) -> tuple[list[str] | None, list[list[str] | None]]:
        """R85: the cards a player of a draw game was dealt, and at each draw, where their
        hand shown says them (:func:`known_draws`)."""
        player = self.end.players[seat]
        return known_draws(player.cards, player.draws, hole_cards(self.game))

    def draw(self, step: Step) -> None:
        """R85: a player's draw, PHH's ``sd`` with the cards thrown (never entered: ``??``
        each); once everyone still in has drawn, the cards dealt for them, a line a player
        who drew (the dealer's view has those the hand shown says, :func:`known_draws`). A
        draw is dealt before the showdown's hands are shown: the betting's end for them."""
        deal, after = step.before.deal, step.after.deal
        assert deal is not None and after is not None
        count = step.action.count or 0
        thrown = f" {card_text(['?'] * count)}" if count else ""
        self.bet_line(f"{self.actor(deal, step.action.player)} sd{thrown}")
        phase = step.before.current_phase
        assert isinstance(phase, DrawPhase)
        if step.after.current_phase is phase:
            return  # others still to draw
        for seat in self.order:
            draws = after.players[seat].draws
            if len(draws) <= phase.index or not draws[phase.index]:
                continue
            cards = self.known(seat)[1][phase.index] if self.full else None
            dealt = cards or ["?"] * draws[phase.index]
            self.bet_line(f"d dh p{self.number[seat]} {card_text(dealt)}")

    def deal_up_cards(self, step: Step) -> None:
        """R81: a street of up cards is PHH's hole dealing, a line a player still in: the
        first street's down cards first (the dealer's view has those the showdown entered),
        then the new up card."""
        deal, after = step.before.deal, step.after.deal
        assert deal is not None and after is not None
        phase = step.before.current_phase
        assert isinstance(phase, UpCardStreet)
        for seat in self.order:
            if not deal.players[seat].live:
                continue
            known = self.end.players[seat].cards if self.full else []
            down = known[:phase.down] if len(known) >= phase.down else ["?"] * phase.down
            up = after.players[seat].up[-1]
            self.lines.append(f"d dh p{self.number[seat]} {card_text([*down, up])}")
        self.betting_end = len(self.lines)

    def deal_last_cards(self, deal: Deal) -> None:
        """R81: the last card, down, to each player still in."""
        for seat in self.order:
            if not deal.players[seat].live:
                continue
            known = self.end.players[seat].cards if self.full else []
            last = known[-1] if len(known) == 3 else "?"
            self.lines.append(f"d dh p{self.number[seat]} {card_text([last])}")
        self.betting_end = len(self.lines)

    def bomb_pot_checks(self, deal: Deal) -> None:
        """R65: a bomb pot has no pre-flop betting; PHH's hold 'em always has a pre-flop
        round, so every player who can still bet checks it (as PokerKit asks them: from the
        dealer's left, none where fewer than two can bet). The import leaves them out."""
        able = [seat for seat in self.order if deal.players[seat].stack > 0
                and deal.players[seat].status is PlayerStatus.IN]
        if len(able) > 1:
            for seat in able:
                self.bet_line(f"p{self.number[seat]} cc")

    def table_hands(self, step: Step) -> None:
        """R67: hands tabled at an all-in, shown where PHH shows them (after the last bet,
        before the run-out), marked with a commentary the app's import reads."""
        deal = step.before.deal
        assert deal is not None
        hands = step.shown.get("hands") or {}
        self.show_lines([f"{self.actor(deal, name)} sm {card_text(cards)} # {TABLED_NOTE}"
                         for name, cards in hands.items()])

    def show_lines(self, lines: list[str]) -> None:
        at = self.betting_end + self.shown
        self.lines[at:at] = lines
        self.shown += len(lines)

    def showdown(self, step: Step) -> None:
        deal = step.before.deal
        assert deal is not None
        record = step.shown
        # R67: a hand tabled at the all-in is shown there once; the showdown may name it again
        # (the same cards), and a second sm line for it is one PokerKit cannot replay.
        # A hand shown is ``sm`` and its cards; one mucked, PHH's ``sm`` with none
        lines = {name: f" {card_text(self.as_dealt(deal, name, cards))}"
                 for name, cards in (record.get("hands") or {}).items()
                 if deal.player(name).seat not in deal.tabled}
        lines.update(dict.fromkeys(record.get("muck") or (), ""))
        shown = [f"{self.actor(deal, name)} sm{cards}"
                 for name, cards in sorted(lines.items(),
                                           key=lambda item: self.number[
                                               deal.player(item[0]).seat])]
        if self.family:
            # PHH shows down once the betting is over, before a run-out's board: there
            self.show_lines(shown)
            return
        self.lines += shown
        rest = {k: v for k, v in record.items() if k not in ("hands", "muck")}
        if len(rest) > 1:
            self.lines.append(self.generic(deal, rest))

    @staticmethod
    def as_dealt(deal: Deal, name: str, cards: list[str]) -> list[str]:
        """A hand shown as PHH holds it: where cards were dealt face up (R81), every card in
        the order dealt (two down, the up cards, the last down)."""
        up = deal.player(name).up
        return [*cards[:2], *up, *cards[2:]] if up else list(cards)

    def generic(self, deal: Deal, record: dict[str, Any]) -> str:
        """A record PHH has no verb for: ``<actor> _<type> key=value...``."""
        actor = self.actor(deal, record["player"]) if record.get("player") else "d"
        words = [actor, "_" + str(record["type"])]
        for key, value in record.items():
            if key not in ("type", "player"):
                words.append(f"{key}={value_text(value)}")
        return " ".join(words)


def card_text(cards: Sequence[str | None]) -> str:
    """Cards as PHH writes them, run together: ``AhKd``; a card not known ``??``, a card
    recorded by its rank alone (R23) ``K?``."""
    return "".join(one_card(c) for c in cards)


def one_card(card: str | None) -> str:
    if not card or card == "?":
        return UNKNOWN
    canonical = parse_card(card, jokers=True, rank_only=True)
    return canonical if len(canonical) == 2 else canonical + "?"


def value_text(value: Any) -> str:
    """A field of a record a line carries: a number, cells, a card or cards (in-deal records
    hold nothing else)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, dict):  # cells: r1c1:Kh,r2c4:7c
        return ",".join(f"{cell}:{one_card(card)}" for cell, card in value.items())
    if isinstance(value, list):
        return card_text(value)
    return one_card(str(value))


# --------------------------------------------------------------------------- TOML
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def dumps(fields: dict[str, Any], section: str | None = None) -> str:
    """PHH's TOML: one field a line, the actions one a line."""
    lines = [f"[{section}]"] if section is not None else []
    for key, value in fields.items():
        if key == "actions":
            lines.append("actions = [")
            lines += [f"  {toml_value(line)}," for line in value]
            lines.append("]")
        else:
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
    return "\n".join(lines) + "\n"


def toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else toml_value(key)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, time):
        return value.isoformat()
    if isinstance(value, str):
        return '"' + "".join(_escape(ch) for ch in value) + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key(str(k))} = {toml_value(v)}"
                               for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {value!r}")


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def _escape(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ord(ch) < 0x20 or ord(ch) == 0x7F:
        return f"\\u{ord(ch):04X}"
    return ch


# --------------------------------------------------------------------------- a stored table
def deal_records(stored: history.Stored, number: int) -> list[dict[str, Any]] | None:
    """The records of deal ``number`` that still count, its start first; None if no such
    deal."""
    deal = next((d for d in stored.deals if d["number"] == number), None)
    if deal is None:
        return None
    kept = effective(r for r in stored.records
                             if r["deal"] == number and r["seq"] >= deal["start_seq"])
    return [r["action"] for r in kept]


def records_before_first(stored: history.Stored) -> list[dict[str, Any]]:
    """The between-deal records before the first deal (a seat, a sit-out)."""
    first = stored.deals[0]["start_seq"] if stored.deals else None
    return [r["action"] for r in effective(
        r for r in stored.records if first is None or r["seq"] < first)
        if r["action"].get("type") in BETWEEN_DEAL_TYPES]


def deal_phh(stored: history.Stored, number: int, *, full: bool) -> str | None:
    """Deal ``number`` as one PHH hand, or None if the table has no such deal."""
    records = deal_records(stored, number)
    if records is None:
        return None
    return dumps(section_fields(stored, number, records, full=full))


def section_fields(stored: history.Stored, number: int, records: list[dict[str, Any]], *,
                   full: bool, row: dict[str, Any] | None = None) -> dict[str, Any]:
    if row is None:
        row = next(d for d in stored.deals if d["number"] == number)
    first = records_before_first(stored) if row is stored.deals[0] else None
    return deal_fields(stored.setup, stored.bases[number], records, number=number,
                       started=row["started"], full=full, first=first)


def table_phhs(stored: history.Stored, *, full: bool) -> str:
    """Every deal of the table, one PHH section each (``[3]`` for deal 3), in order."""
    return "".join(table_phhs_parts(stored, full=full))


class Sections:
    """Deals' sections already written, by a digest of everything a section is made from
    (the table's set-up, the deal's base, its records' seqs, its start, whose view): a new
    action in the current deal leaves the others' kept. A record is never changed once
    stored (an undo is a record of its own), so a deal reopened by an undo has new seqs and
    is written anew. The ``entries`` used last are kept; used from the readers' threads."""

    def __init__(self, entries: int) -> None:
        self.entries = entries
        self._kept: OrderedDict[bytes, str] = OrderedDict()
        self._lock = native_lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    def get(self, key: bytes) -> str | None:
        with self._lock:
            text = self._kept.get(key)
            if text is not None:
                self._kept.move_to_end(key)
            return text

    def put(self, key: bytes, text: str) -> None:
        with self._lock:
            self._kept[key] = text
            while len(self._kept) > self.entries:
                self._kept.popitem(last=False)


def table_phhs_parts(stored: history.Stored, *, full: bool,
                     kept: Sections | None = None) -> Iterator[str]:
    """:func:`table_phhs` a section at a time (a blank line between them), for a writer
    that keeps none of them (3,000 deals make megabytes); the sections ``kept`` has are not
    written again (a 3,000-deal table's sections take a second to replay)."""
    records_by_deal: dict[int, list[dict[str, Any]]] = {}
    for record in stored.records:  # one pass: each deal's records, not the whole list again
        records_by_deal.setdefault(record["deal"], []).append(record)
    setup = json.dumps(stored.setup.to_json(), sort_keys=True) if kept is not None else ""
    for index, row in enumerate(stored.deals):
        number = row["number"]
        mine = [r for r in records_by_deal.get(number, ()) if r["seq"] >= row["start_seq"]]
        # the first deal also writes the records before it: never kept
        key = None if kept is None or not index else hashlib.blake2b(repr((
            stored.table_id, stored.row.get("created"), setup, full, number, row["started"],
            stored.bases[number], [r["seq"] for r in mine])).encode()).digest()
        text = None if key is None or kept is None else kept.get(key)
        if text is None:
            fields = section_fields(stored, number, [r["action"] for r in effective(mine)],
                                    full=full, row=row)
            text = dumps(fields, section=str(number))
            if key is not None and kept is not None:
                kept.put(key, text)
        yield ("\n" if index else "") + text


# --------------------------------------------------------------------------- reading
def rebuild(text: str) -> history.Rebuilt:
    """A table exported as PHH (:func:`table_phhs`, the dealer's view), checked and replayed
    as the JSON import replays its file: the rows a new table gets. Raises
    :class:`ImportRefusedError` with a sentence for the first thing wrong."""
    return history.rebuild(read_table(text))


def read_table(text: str) -> dict[str, Any]:
    """The table a PHH export holds, as the JSON export writes it (``history.rebuild`` reads
    that): its set-up and every record, read back from the action lines and the
    ``_``-fields, each deal's stacks checked against the file's."""
    problem = toml_problem(text)
    if problem is not None:  # before tomllib, which takes minutes and gigabytes on some
        raise ImportRefusedError(problem)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ImportRefusedError(f"The file is not PHH (TOML): {err}.") from None
    except RecursionError:  # arrays nested thousands deep
        raise ImportRefusedError("The file is not PHH: its arrays are nested too deep.") from None
    sections = list(doc.values()) if "variant" not in doc else [doc]
    if not sections or not all(isinstance(s, dict) for s in sections):
        raise ImportRefusedError("The file has no hand in it: a PHH file of dealer-assist's "
                                 "export.phhs holds one section a deal.")
    if len(sections) > MAX_SECTIONS:
        raise ImportRefusedError(f"The file has more than {MAX_SECTIONS:,} hands: an import "
                                 "takes at most that.")
    setup_json = sections[0].get("_setup")
    if not isinstance(setup_json, dict):
        raise ImportRefusedError("The file's first hand has no _setup: only a whole table "
                                 "exported by dealer-assist (export.phhs) can be imported.")
    try:
        setup = setup_from_json(setup_json)
    except DealerAssistError as err:
        raise ImportRefusedError(f"The file's set-up is refused: {err}") from None
    except (KeyError, TypeError, AttributeError):
        raise ImportRefusedError("The file's _setup needs variant, players and rules.") from None
    reader = _Reader(setup)
    for index, section in enumerate(sections, start=1):
        reader.read_section(index, section, first=index == 1)
    return {
        "format": history.EXPORT_FORMAT, "version": history.EXPORT_VERSION,
        "table": {"name": setup.name, "variant": setup.variant,
                  "created": reader.records[0]["time"] if reader.records else None},
        "setup": setup.to_json(), "actions": reader.records,
    }


# What a file handed to the host may hold before tomllib reads it (issue 32): tomllib takes
# time and memory that grow as the square of a dotted key's parts (a 60 KB ``a.a.a...=1``
# took 16 s and 3.5 GB), and recurses once a level of nesting. dealer-assist's own exports
# use keys of one part, under 30 characters, nested 4 deep, about 30 lines a deal.
MAX_KEY_CHARS = 200
MAX_KEY_PARTS = 8
MAX_DEPTH = 16
MAX_LINES = 100 * MAX_SECTIONS
# strings (kept as long, without their dots) and comments (dropped), read before the rest
_STRINGS = re.compile("|".join((
    r'"""(?:[^\\]|\\.)*?"""', r"'''.*?'''",  # multi-line, basic and literal
    r'"(?:[^"\\\n]|\\.)*"', r"'[^'\n]*'",  # one line, basic and literal
    r"#[^\n]*")), re.DOTALL)  # a comment
_BOUNDS = re.compile(r"[\n{},\[\]]")  # what ends a key's stretch of text
_HEADER = re.compile(r"^[ \t]*\[\[?([^\n\]]*)\]", re.MULTILINE)
_NESTING = re.compile(r"[\[\]{}]")


def _set_aside(found: re.Match[str]) -> str:
    text = found.group()
    return "" if text.startswith("#") else text[0] + "x" * (len(text) - 2) + text[-1]


def toml_problem(text: str) -> str | None:
    """A sentence if the text has more lines, a longer key, a key of more dotted parts or
    deeper nesting than a hand history needs (strings and comments set aside), else None:
    linear in the text (no pattern here searches back and forth), before any TOML is read."""
    lines = text.count("\n") + 1
    if lines > MAX_LINES:
        return f"The file has {lines:,} lines: a PHH import takes at most {MAX_LINES:,}."
    bare = _STRINGS.sub(_set_aside, text)

    def line(at: int) -> str:
        return f"Line {bare.count(chr(10), 0, at) + 1:,} of the file"

    # every "key =" (the text before an "=" since the last bracket, comma or line's end),
    # and each [table] header's key
    keys = [(h.group(1), h.start(1)) for h in _HEADER.finditer(bare)]
    at = 0
    for stretch in _BOUNDS.split(bare):
        if "=" in stretch:
            keys.append((stretch.partition("=")[0], at))
        at += len(stretch) + 1
    for key, at in keys:
        size, parts = len(key.strip()), key.count(".") + 1
        if size > MAX_KEY_CHARS:
            return (f"{line(at)} has a key of {size:,} characters: a PHH key has at most "
                    f"{MAX_KEY_CHARS}.")
        if parts > MAX_KEY_PARTS:
            return (f"{line(at)} has a key of {parts:,} dotted parts: a PHH key has at most "
                    f"{MAX_KEY_PARTS}.")
    depth = 0
    for mark in _NESTING.finditer(bare):
        depth = depth + 1 if mark.group() in "[{" else max(depth - 1, 0)
        if depth > MAX_DEPTH:
            return (f"{line(mark.start())} is nested too deep: a hand history nests arrays "
                    f"and tables {MAX_DEPTH} deep at most.")
    return None


_LINE = re.compile(r"\s*(?P<body>[^#]*?)\s*(?:#\s*(?P<note>.*?)\s*)?")


class _Reader:
    """Replays the file's records as it reads them: what ``cc`` or ``cbr 12`` stands for
    (a check or a call, a bet, a raise or an all-in) is the table's to say."""

    def __init__(self, setup: TableSetup) -> None:
        self.table = Table.from_setup(setup)
        self.records: list[dict[str, Any]] = []
        self.where = ""
        self.stamp = ""
        self.up_cards: dict[str, str] = {}  # R81: a street's up cards read so far, by player

    def push(self, body: dict[str, Any]) -> None:
        try:
            action = Action.from_json(body, self.table.setup.catalogue.place_fields)
            self.table = self.table.apply(self.table.prepare(action))
        except DealerAssistError as err:
            raise ImportRefusedError(f"{self.where} cannot be replayed: {err}") from None
        self.records.append({"seq": len(self.records) + 1, "time": self.stamp,
                             "action": action.to_json()})

    def read_section(self, index: int, section: dict[str, Any], *, first: bool) -> None:
        number = section.get("hand", index)
        self.where = f"Hand {str(number)[:12]}"
        self.stamp = section_time(section, self.where)
        if first:
            for body in as_records(section.get("_before", []), self.where):
                self.push(body)
        start = section.get("_start", {})
        if not isinstance(start, dict):
            raise ImportRefusedError(f"{self.where}: _start must be a table of fields.")
        self.push({**start, "type": "start_deal"})
        deal = self.table.deal
        assert deal is not None
        players = section.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ImportRefusedError(f"{self.where} has no list of players.")
        order = phh_order(deal, plays_as_phh(self.table.game))
        self.check_stacks(players, section.get("starting_stacks"), deal, order, "starting",
                          [deal.totals.stacks[s] for s in order])
        lines = section.get("actions", [])
        if not isinstance(lines, list) or len(lines) > MAX_LINES:
            raise ImportRefusedError(f"{self.where}: actions must be a list of at most "
                                     f"{MAX_LINES:,} lines.")
        self.read_lines(players, lines)
        step = self.table.next_step()
        if ("finishing_stacks" in section and step.kind == "showdown" and step.players == ()
                and not step.cells):
            self.push({"type": "showdown"})  # every hand was tabled at the all-in (R67)
        end = self.table.deal
        if "finishing_stacks" in section and end is not None:
            self.check_stacks(players, section["finishing_stacks"], end, order, "finishing",
                              [end.players[s].stack for s in order])
        for body in as_records(section.get("_after", []), self.where):
            self.push(body)

    def check_stacks(self, players: list[str], claimed: Any, deal: Deal, order: list[int],
                     which: str, replayed: list[int]) -> None:
        names = [deal.players[s].name for s in order]
        if players != names or claimed != replayed:
            raise ImportRefusedError(f"{self.where}'s players and {which} stacks are not what "
                                     "its records make: the file has been changed.")

    def read_lines(self, players: list[str], lines: list[Any]) -> None:
        shown: dict[str, list[str]] = {}
        extra: dict[str, Any] = {}
        dealing = False
        for position, raw in enumerate(lines):
            self.where = self.where.split(",")[0] + f", line {position + 1}"
            if not isinstance(raw, str) or len(raw) > 400:
                raise ImportRefusedError(f"{self.where} is not an action line.")
            match = _LINE.fullmatch(raw)
            words = match.group("body").split() if match else []
            note = (match.group("note") or "") if match else ""
            if not words:
                if note == RUN_TWICE_NOTE:  # R66: where the players agreed to run it twice
                    self.push({"type": "run_twice"})
                continue  # PHH's no-op: a comment alone
            try:
                if note == TABLED_NOTE and words[1:2] == ["sm"]:  # R67: tabled at the all-in
                    self.push({"type": "show", "hands": {
                        player_named(words[0], players): split_cards(words[2])}})
                    continue
                body = self.line_record(words, players, shown, extra, dealing)
            except (ValueError, IndexError, KeyError):
                raise ImportRefusedError(f"{self.where} cannot be read: {raw[:60]!r}."
                                         ) from None
            # the hole cards PHH deals a line a player are one record (next), and a draw's
            # cards part of its players' discards (R85)
            hole = words[:2] == ["d", "dh"] and (body is None or body["type"] == "next")
            dealing = hole or words[1:2] == ["sd"]
            if body is not None:
                self.push(body)
            if (shown or extra) and self.step_kind() == "showdown" and not any(
                    is_showdown_line(w) for w in following(lines, position)):
                self.push({"type": "showdown", **extra,
                           **({"hands": shown} if shown else {})})
                shown, extra = {}, {}
        if shown or extra:
            raise ImportRefusedError(f"{self.where}: the hands shown come before the deal "
                                     "reaches its showdown.")

    def step_kind(self) -> str:
        return str(self.table.next_step().kind)

    def bomb_pot_preflop(self) -> bool:
        deal = self.table.deal
        return deal is not None and bool(deal.bomb_pot) and not deal.revealed

    def line_record(self, words: list[str], players: list[str], shown: dict[str, list[str]],
                    extra: dict[str, Any], dealing: bool) -> dict[str, Any] | None:
        """The record a line stands for; None where it is part of another (a showdown's
        hands are gathered until the showdown, hole cards after the first line)."""
        actor, verb, args = words[0], words[1], words[2:]
        name = None if actor == "d" else player_named(actor, players)
        kind = self.step_kind()
        upcoming = self.table.next_step()
        if verb == "dh" and kind == "reveal" and upcoming.players and not upcoming.cells:
            # R81: a street's new up cards, a line a player, are one record once all read
            self.up_cards[player_named(args[0], players)] = split_cards(args[1])[-1]
            if set(self.up_cards) != set(upcoming.players):
                return None
            body, self.up_cards = {"type": "reveal", "cards": self.up_cards}, {}
            return body
        if verb == "pb":
            return {"type": "bring_in", "player": name}
        if verb == "sd":  # R85: a draw, the cards thrown counted (never entered)
            return {"type": "discard", "player": name,
                    "count": len(split_cards(args[0])) if args else 0}
        if verb == "dh" and dealing:
            return None
        if verb == "dh" and kind == "next":
            return {"type": "next"}
        if verb == "dh":
            return {"type": "deal_cards", "player": player_named(args[0], players),
                    "cards": [c[0] if c[1] == "?" else c for c in split_cards(args[1])]}
        if verb == "db":
            cells = self.table.next_step().cells or ()
            cards = split_cards(args[0])
            return {"type": "reveal", "cards": {cell: card for cell, card in
                                                zip(cells, cards, strict=False)
                                                if card != UNKNOWN}}
        if verb == "sm" and not args:  # PHH's muck
            extra.setdefault("muck", []).append(str(name))
            return None
        if verb == "sm":
            up = self.table.deal.player(str(name)).up if self.table.deal else []
            cards = split_cards(args[0])  # R81: a hand dealt face up is shown whole
            shown[str(name)] = [c for c in cards if c not in up] if up else cards
            return None
        if verb == "_showdown":
            extra.update(generic_fields(args))
            return None
        if verb == "cc" and self.bomb_pot_preflop():
            return None  # R65: PHH's pre-flop round of checks, which a bomb pot has not
        if verb == "cc":
            step = self.table.step()
            return {"type": "call" if step.get("to_call") else "check", "player": name}
        if verb == "f":
            return {"type": "fold", "player": name}
        if verb == "cbr":
            return self.bet_record(str(name), int(args[0]))
        if verb.startswith("_"):
            body = {"type": verb[1:], **generic_fields(args)}
            return body | ({"player": name} if name else {})
        raise ValueError(verb)

    def bet_record(self, name: str, total: int) -> dict[str, Any]:
        deal = self.table.deal
        if deal is None or deal.round is None:
            raise ValueError(name)
        allowed = limits(deal, deal.player(name))
        if total == allowed.most:
            return {"type": "all_in", "player": name}
        return {"type": allowed.verb, "player": name, "amount": total}


def player_named(label: str, players: list[str]) -> str:
    """The name PHH's ``p3`` stands for (ValueError for a label of no player)."""
    number = int(label[1:]) if label[:1] == "p" else 0
    if not 1 <= number <= len(players):
        raise ValueError(label)
    return players[number - 1]


def following(lines: list[Any], position: int) -> Iterator[list[str]]:
    """The words of the lines after ``position`` that say anything, the next first."""
    for raw in lines[position + 1:]:
        match = _LINE.fullmatch(raw) if isinstance(raw, str) else None
        words = match.group("body").split() if match else []
        if words:
            yield words
            return


def is_showdown_line(words: list[str]) -> bool:
    return len(words) > 1 and words[1] in ("sm", "_showdown")


def split_cards(text: str) -> list[str]:
    if len(text) % 2:
        raise ValueError(text)
    return [text[i:i + 2] for i in range(0, len(text), 2)]


_INT_FIELDS = ("count", "amount", "stack")


def generic_fields(args: list[str]) -> dict[str, Any]:
    """``key=value`` words back into a record's fields: whole numbers, cells
    (``r1c1:Kh,r2c4:7c``), one card (``card``) or a list of cards."""
    fields: dict[str, Any] = {}
    for word in args:
        key, value = word.split("=", 1)
        if key in _INT_FIELDS:
            fields[key] = int(value)
        elif ":" in value:
            fields[key] = {cell: card for cell, card in (p.split(":") for p in value.split(","))
                           if card != UNKNOWN}
        elif key == "card":
            fields[key] = value[0] if value[1:] == "?" else value
        elif value in ("true", "false"):
            fields[key] = value == "true"
        else:
            fields[key] = [c[0] if c[1] == "?" else c for c in split_cards(value)]
    return fields


def as_records(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ImportRefusedError(f"{where}: _before and _after must be lists of records.")
    return value


def section_time(section: dict[str, Any], where: str) -> str:
    """When a hand started (PHH's year, month, day and time, in UTC), in ISO 8601."""
    try:
        clock = section.get("time") or time()
        moment = datetime(section["year"], section["month"], section["day"], clock.hour,
                          clock.minute, clock.second)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise ImportRefusedError(f"{where} has no date (year, month, day).") from None
    return import_time(moment.isoformat() + "+00:00", where)
