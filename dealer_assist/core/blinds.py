"""What is posted before the cards, as parts a game is made with (not a game to inherit):
:class:`Antes` (R40: every player dealt in antes, R30's optional ante) and :class:`Blinds`
(R30, R60: a small and a big blind, heads up the dealer posting the small one, and pre-flop
betting from the big blind's left; a bomb pot, R65, in their place for one deal).

>>> from dealer_assist.games.registry import all_games, new_table
>>> game = next(g for g in all_games() if isinstance(g.forced_bets, Blinds))
>>> t = new_table(game.variant, ["Ann", "Bob", "Cy"], {"small_blind": 1, "big_blind": 2})
>>> t = t.apply(t.prepare({"type": "start_deal"}))
>>> [(p.name, p.stack) for p in t.deal.players]
[('Ann', 100), ('Bob', 99), ('Cy', 98)]
"""

from __future__ import annotations

from typing import Protocol

from dealer_assist.core.deal import Deal, Player, PlayerStatus, Stake, Totals
from dealer_assist.core.errors import IllegalActionError


class OpeningRound(Protocol):
    """The betting round being opened, as the forced bets read it (a ``BettingPhase`` is
    one): which round of the deal it is, and whether it comes before the flop. A protocol,
    so that the forced bets need not import the betting engine that calls them."""

    index: int
    preflop: bool


class Antes:
    """One betting seat a player with chips (the others are out of the deal), then an ante of
    ``rules.ante`` from each, from the dealer's left (all in for less)."""

    def next_dealer(self, totals: Totals) -> int:
        """R4, R73: the button moves to the next seat clockwise that has chips."""
        n = len(totals.stacks)
        for step in range(1, n + 1):
            seat = (totals.button + step) % n
            if totals.stacks[seat] > 0:
                return seat
        return (totals.button + 1) % n

    def post(self, deal: Deal) -> None:
        self.seat(deal)
        ante = deal.rules.ante
        if ante:
            self.ante(deal, ante, "ante")
            deal.log.append(f"Everyone antes {ante}.")
        deal.dealt = True

    @staticmethod
    def seat(deal: Deal) -> None:
        """One betting seat for each player with chips; a player without is out of the deal."""
        playing = [p for p in deal.players if p.stack > 0]
        if len(playing) < 2:
            raise IllegalActionError("Cannot start a deal: fewer than two players have chips.")
        for p in deal.players:
            if p.stack == 0:
                p.status = PlayerStatus.OUT
                continue
            p.stakes.append(len(deal.stakes))
            deal.stakes.append(Stake(owner=p.seat))

    @staticmethod
    def ante(deal: Deal, ante: int, kind: str) -> None:
        """An ante of ``ante`` from each player dealt in, from the dealer's left, all in for
        less: in the pot like any chip bet, layered by what each put in (R6)."""
        for p in deal.seats_from(deal.left_of_dealer):
            if p.status == PlayerStatus.OUT:
                continue
            paid = min(ante, p.stack)
            p.stack -= paid
            deal.stakes[p.stakes[0]].contributed += paid
            deal.posted += ((p.seat, kind, paid),)
            if p.stack == 0:
                p.status = PlayerStatus.ALL_IN

    def opener(self, deal: Deal, phase: OpeningRound) -> int:
        """Where a betting round starts: left of the dealer (R41)."""
        return deal.left_of_dealer

    def bring_in(self, deal: Deal, phase: OpeningRound) -> int:
        """The forced bet the round's first seat owes (R81), or 0: none here."""
        return 0

    def opening_words(self, deal: Deal, phase: OpeningRound) -> str | None:
        """Who acts first this round and why, where the cards say it; None where the seats
        do."""
        return None


class Blinds(Antes):
    """The antes, then the small and the big blind (R30, R60): left of the dealer and the
    next seat, heads up the dealer and the other; a blind short of chips posts what it has,
    all in (R5). A big-blind ante (R64) is posted by the big blind before its blind: dead
    (in the pot, not the round's bet), and first, so a short big blind posts the ante and
    then what is left of the blind. Pre-flop betting starts left of the big blind, later
    rounds left of the dealer."""

    def blind_seats(self, deal: Deal) -> tuple[int, int]:
        playing = [p.seat for p in deal.seats_from(deal.dealer) if p.status != PlayerStatus.OUT]
        if len(playing) == 2:  # heads up, the dealer posts the small blind
            return playing[0], playing[1]
        return playing[1], playing[2]

    def post(self, deal: Deal) -> None:
        if deal.bomb_pot:
            self.post_bomb_pot(deal)
            return
        super().post(deal)
        small, big = self.blind_seats(deal)
        self.post_big_blind_ante(deal, deal.players[big])
        for seat, amount, name in ((small, deal.rules.small_blind, "small"),
                                   (big, deal.rules.big_blind, "big")):
            p = deal.players[seat]
            if p.status != PlayerStatus.IN or not amount:
                continue
            paid = min(amount, p.stack)
            deal.put(p, paid)
            if p.stack == 0:
                p.status = PlayerStatus.ALL_IN
            deal.posted += ((p.seat, name, paid),)
            deal.log.append(f"{p.name} posts the {name} blind of {paid}.")
        deal.blinds = (small, big)
        self.post_straddle(deal, big)

    @staticmethod
    def post_straddle(deal: Deal, big: int) -> None:
        """R63: with ``rules.straddle``, the next player dealt in left of the big blind posts
        twice the big blind, a live blind (all in for less); never heads up, nor in fixed
        limit. Pre-flop betting then starts left of the straddler (the last blind)."""
        rules = deal.rules
        playing = [p for p in deal.seats_from(big + 1) if p.status != PlayerStatus.OUT]
        if not rules.straddle or rules.betting == "fixed_limit" or len(playing) < 3:
            return
        p = playing[0]
        if p.status != PlayerStatus.IN:
            return
        paid = min(2 * rules.big_blind, p.stack)
        deal.put(p, paid)
        if p.stack == 0:
            p.status = PlayerStatus.ALL_IN
        deal.posted += ((p.seat, "straddle", paid),)
        deal.log.append(f"{p.name} straddles for {paid}.")
        deal.blinds = (*deal.blinds, p.seat)

    @staticmethod
    def post_big_blind_ante(deal: Deal, p: Player) -> None:
        """R64: the one ante of the table, from the big blind's stack, dead: in the main pot
        for whoever wins it, never a layer of the big blind's own that comes back (as
        PokerKit posts it with ``ante_trimming_status`` off, as recorded WSOP hands are)."""
        ante = deal.rules.big_blind_ante
        if not ante or p.status != PlayerStatus.IN:
            return
        paid = min(ante, p.stack)
        p.stack -= paid
        deal.carry += paid  # dead chips in the main pot
        deal.posted += ((p.seat, "big_blind_ante", paid),)
        if p.stack == 0:
            p.status = PlayerStatus.ALL_IN
        deal.log.append(f"{p.name} posts the big-blind ante of {paid}.")

    def post_bomb_pot(self, deal: Deal) -> None:
        """R65: every player dealt in antes the bomb pot's amount (all in for less), in place
        of the table's ante and big-blind ante; no blind, no straddle. There is no pre-flop
        betting (``BettingPhase``), so the flop's round is the first, from the dealer's left."""
        self.seat(deal)
        self.ante(deal, deal.bomb_pot, "bomb_pot")
        deal.log.append(f"Bomb pot: everyone antes {deal.bomb_pot}.")
        deal.dealt = True

    def opener(self, deal: Deal, phase: OpeningRound) -> int:
        if phase.preflop:
            return (deal.blinds[-1] + 1) % len(deal.players)
        return deal.left_of_dealer


class ButtonBlind(Blinds):
    """Blinds as :class:`Blinds`, but a table with no small blind plays antes and one blind,
    ``big_blind``, posted by the dealer (the button), as PokerKit's short-deck game posts it
    (R87): pre-flop betting then starts left of the dealer, who acts last. Heads up the blind
    is the other player's, as R60 has it (and PokerKit, whose blinds are reversed there)."""

    def blind_seats(self, deal: Deal) -> tuple[int, int]:
        small, big = super().blind_seats(deal)
        if deal.rules.small_blind or small == deal.dealer:  # blinds as usual, or heads up
            return small, big
        return deal.dealer, deal.dealer  # no small blind: the button posts the one blind

    def post(self, deal: Deal) -> None:
        super().post(deal)
        if len(deal.blinds) == 2 and deal.blinds[0] == deal.blinds[1]:
            deal.blinds = deal.blinds[1:]  # one blind, the button's


ForcedBets = Antes  # what a game posts before the cards: Antes, Blinds, or a part of its own
