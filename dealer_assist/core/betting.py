"""The betting engine: one betting round (R5, R6, R24).

:func:`limits` works out, once, what the seat to act may do: the refusals of
:class:`BettingPhase` and the step the pages draw both read it, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.core.actions import Action
from dealer_assist.core.deal import Deal, Player, PlayerStatus, Round, Stake, chips
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game
from dealer_assist.core.phases import Phase, check_turn
from dealer_assist.core.rules import Betting
from dealer_assist.core.step import BetOffer, Step, StepKind

# R5 fixed limit: one bet and three raises a round (pre-flop the big blind is the bet)
FIXED_LIMIT_BETS = 4


@dataclass(frozen=True, slots=True)
class Limits:
    """What the seat to act may do now, per stake (per card where cards are bought, R24).

    ``smallest`` and ``largest`` are the bet or raise the betting structure allows (before
    the stack caps them); ``closed`` says why no bet or raise is allowed at all, or is None.
    """

    player: str
    stakes: int  # the seat's live stakes: its cards where cards are bought, else 1
    per_card: bool
    fixed_limit: bool
    stack: int
    round_bet: int  # what the seat has in this round, per stake
    current: int  # the bet to match, per stake
    to_call: int  # current - round_bet
    most: int  # the seat's all-in, per stake: what does not divide stays in the stack (R24)
    smallest: int
    largest: int
    closed: str | None
    bring_in: int = 0  # R81: the bring-in this seat posts now, or completes instead; 0: none
    completing: bool = False  # R81: the bet is a bring-in, which a bet completes

    @property
    def verb(self) -> str:
        return "raise" if self.current and not self.completing else "bet"

    @property
    def can_check(self) -> bool:
        return not self.to_call

    @property
    def can_call(self) -> bool:
        """A call, all in if the stack is short; impossible only where the stack cannot
        stake 1 on every card (R24: fold cards first)."""
        return bool(self.to_call) and self.most > self.round_bet

    @property
    def can_raise(self) -> bool:
        return self.closed is None

    @property
    def min_to(self) -> int:
        return min(self.smallest, self.most)

    @property
    def max_to(self) -> int:
        return min(self.largest, self.most)

    @property
    def can_all_in(self) -> bool:
        """All in is a call where it does not beat the bet; otherwise a bet or raise, so
        only where one is allowed and the limit reaches it."""
        if self.most <= self.round_bet:
            return False
        return self.most <= self.current or (self.can_raise and self.most <= self.largest)

    @property
    def short_call(self) -> bool:
        """The stack is short of the call: calling puts it all in, so the call is offered
        as All in alone, never as a call of more than the stack (R6)."""
        return self.most < self.current

    def options(self) -> list[str]:
        if self.bring_in:  # R81: post the bring-in, or complete (all in where short)
            return ["bring_in", *(["bet"] if self.can_raise else []),
                    *(["all_in"] if self.can_all_in and self.most < self.smallest else [])]
        if not (self.can_check or self.can_call):
            return ["fold"]  # R24: fold cards until the rest can be staked
        if self.short_call:
            return ["fold", "all_in"]
        options = ["fold", "check" if self.can_check else "call"]
        if self.can_raise:
            options.append(self.verb)
        if self.can_all_in:
            options.append("all_in")
        return options

    def verify_bring_in_done(self, verb: str) -> None:
        """R81: while a bring-in is due, its seat posts it or completes, nothing else."""
        if self.bring_in:
            raise IllegalActionError(
                f"{self.player} cannot {verb}: {self.player} brings in {self.bring_in} or "
                f"completes to {self.smallest} first.")

    def verify_bring_in(self) -> None:
        if not self.bring_in:
            raise IllegalActionError(f"{self.player} cannot bring in: there is no bring-in "
                                     "due now.")

    def verify_check(self) -> None:
        self.verify_bring_in_done("check")
        if self.to_call:
            raise IllegalActionError(
                f"{self.player} cannot check: {self.cost_words(self.to_call)} to call.")

    def verify_call(self) -> None:
        self.verify_bring_in_done("call")
        if not self.to_call:
            raise IllegalActionError(
                f"{self.player} cannot call: there is no bet to call; check.")
        if not self.can_call:
            raise IllegalActionError(
                f"{self.player} cannot call: {chips(self.stack)} cannot stake 1 per card on "
                f"{self.stakes} cards; fold cards first.")

    def verify_all_in(self) -> None:
        if self.most <= self.round_bet:
            raise IllegalActionError(
                f"{self.player} cannot go all in: {chips(self.stack)} cannot stake 1 per card "
                f"on {self.stakes} cards.")
        if self.most > self.current:
            self.verify_raise(self.most, self.verb, all_in=True)

    def verify_bet(self, verb: str, total: int | None) -> int:
        """The amount of a ``bet`` or ``raise`` to ``total``, checked (R5, R6)."""
        who = self.player
        if total is None:
            raise IllegalActionError(f"Say how much {who} {verb}s to (amount).")
        if verb == "bet" and self.verb == "raise":
            raise IllegalActionError(
                f"{who} cannot bet: there is a bet of {self.current} already; raise instead.")
        if verb == "raise" and self.completing:
            raise IllegalActionError(f"{who} cannot raise a bring-in: complete it with a bet "
                                     f"to {self.smallest}.")
        if verb == "raise" and not self.current:
            raise IllegalActionError(f"{who} cannot raise: nobody has bet; bet instead.")
        if total <= self.current:
            raise IllegalActionError(
                f"{who} cannot {verb} to {total}: it must be more than {self.current}.")
        need = (total - self.round_bet) * self.stakes
        if need > self.stack:
            per = self.per
            all_in = f" (all in is {self.most}{per})" if self.most > self.round_bet else ""
            raise IllegalActionError(
                f"{who} cannot {verb} to {total}{per}: that needs {need} and {who} has "
                f"{self.stack}{all_in}.")
        self.verify_raise(total, verb, all_in=total == self.most)
        return total

    def verify_raise(self, total: int, verb: str, *, all_in: bool) -> None:
        """A bet or raise to ``total`` the stack covers: allowed now, and within the limits?
        An all-in may fall short of the smallest (R5)."""
        per = self.per
        if self.closed is not None:
            raise IllegalActionError(f"{self.player} cannot raise: {self.closed}")
        if self.fixed_limit and (total > self.largest or (total < self.smallest and not all_in)):
            raise IllegalActionError(
                f"{self.player} cannot {verb} to {total}: in fixed limit this round it is "
                f"{verb} to {self.smallest}{per}.")
        if total < self.smallest and not all_in:
            raise IllegalActionError(
                f"{self.player} cannot {verb} to {total}{per}: the smallest {verb} is to "
                f"{self.smallest}{per}.")
        if total > self.largest:
            raise IllegalActionError(
                f"{self.player} cannot {verb} to {total}: pot limit allows at most "
                f"{self.largest}.")

    @property
    def per(self) -> str:
        return " per card" if self.per_card else ""

    def cost_words(self, per_stake: int) -> str:
        if self.per_card:
            k = self.stakes
            return f"{per_stake} per card, {k} card{'s' if k != 1 else ''} = {per_stake * k}"
        return str(per_stake)


def limits(deal: Deal, p: Player) -> Limits:
    """What ``p`` may do in the round in progress (R5, R6, R24)."""
    rnd = deal.round
    assert rnd is not None
    rules = deal.rules
    k = max(len(deal.live_stakes(p)), 1)
    current = rnd.current
    to_call = current - p.round_bet
    most = p.round_bet + p.stack // k
    fixed = rules.betting is Betting.FIXED_LIMIT
    # R81: a bring-in is no bet: the first bet completes it to a whole bet
    base = 0 if rnd.completing or rnd.bring_in else current
    if fixed:
        smallest = largest = base + rnd.bet_size
    else:
        # an opening bet below the minimum is an all-in: the next raise is still at least
        # the minimum bet more (R5), so last_raise never falls below it
        smallest = base + max(rnd.last_raise, 1)
        if rules.betting is Betting.POT_LIMIT:
            # the smallest bet is always allowed, even into an empty pot
            largest = max(current + deal.pot_total() + to_call, smallest)
        else:
            largest = most
    return Limits(p.name, k, deal.stakes_per_card, fixed, p.stack, p.round_bet, current,
                  to_call, most, smallest, largest, closed_because(deal, p, most),
                  rnd.bring_in, rnd.completing)


def closed_because(deal: Deal, p: Player, most: int) -> str | None:
    """Why ``p``, whose all-in is ``most`` per stake, may not bet or raise now (R5), or None."""
    rnd = deal.round
    assert rnd is not None
    if most <= rnd.current:
        return f"{chips(p.stack)} only cover the call; call or fold."
    if p.acted and rnd.current - p.round_bet < rnd.last_raise:
        # R5: once a seat has acted, short all-ins reopen the betting for it only when
        # together they raise what it last faced by a full raise
        return ("the all-in for less than a full raise did not reopen the betting; "
                "call or fold.")
    if deal.rules.betting is Betting.FIXED_LIMIT and rnd.raises >= FIXED_LIMIT_BETS:
        return "a round allows one bet and three raises."
    # a raise nobody can call would only come back (R5); a seat of several cards may fold
    # all but one to call more (R24)
    if not any(o.round_bet + o.stack > rnd.current
               for o in deal.players if o.seat != p.seat and o.status == PlayerStatus.IN):
        return "nobody else still in can put in more; call or fold."
    return None


class BettingPhase(Phase):
    """A betting round (R5, R6, R24): check, call, bet, raise, all in, fold."""


    def __init__(self, index: int, *, early: bool, preflop: bool = False) -> None:
        self.index = index
        self.early = early
        self.preflop = preflop

    # ------------------------------------------------------------------ set-up
    def enter(self, game: Game, deal: Deal) -> None:
        if self.preflop and deal.bomb_pot:
            self.close(deal)  # R65: a bomb pot has no pre-flop betting; the flop comes first
            return
        rules = deal.rules
        bet_size = rules.small_bet if self.early else rules.big_bet
        opener = game.opener(deal, self)
        rnd = Round(index=self.index, bet_size=bet_size, opener=opener)
        rnd.last_raise = bet_size if rules.betting is Betting.FIXED_LIMIT else rules.min_bet
        for p in deal.players:
            p.acted = False
            if not self.preflop:
                p.round_bet = 0
        if self.preflop:
            # R5: the big blind is the round's bet, and a big blind all in for less still
            # makes the others call the full blind; the short blind can win only what it
            # matched (R6)
            # a straddle (R63, a third blind) is the round's bet as the big blind is
            blind = deal.rules.big_blind * (2 if len(deal.blinds) > 2 else 1)
            rnd.current = max(max(p.round_bet for p in deal.players), blind)
            rnd.last_raise = max(rnd.last_raise, blind)
            rnd.raises = 1 if rnd.current else 0
        deal.round = rnd
        deal.turn = self.next_to_act(deal, opener, include_start=True)
        if deal.turn is None:
            self.close(deal)
            return
        # R81: the first seat to act may owe a bring-in; the cards may say who acts and why
        rnd.bring_in = game.bring_in(deal, self)
        rnd.why = game.opening_words(deal, self)

    def in_players(self, deal: Deal) -> list[Player]:
        return [p for p in deal.players if p.status == PlayerStatus.IN]

    def needs_to_act(self, deal: Deal, p: Player) -> bool:
        if p.status != PlayerStatus.IN or deal.round is None:
            return False
        if p.round_bet < deal.round.current:
            return True
        # R5: when at most one seat can still bet, there is no betting
        return not p.acted and len(self.in_players(deal)) > 1

    def next_to_act(self, deal: Deal, start: int, *, include_start: bool) -> int | None:
        order = deal.seats_from(start if include_start else start + 1)
        return next((p.seat for p in order if self.needs_to_act(deal, p)), None)

    def close(self, deal: Deal) -> None:
        deal.return_uncalled()
        for p in deal.players:
            p.round_bet = 0
        deal.round = None
        deal.turn = None
        self.mark_done(deal)

    # ------------------------------------------------------------------ actions
    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("check", "call", "bet", "raise", "all_in", "fold", "bring_in")

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        rnd = deal.round
        if action.type == "bring_in" and rnd is not None and rnd.bring_in and rnd.why \
                and deal.turn is not None:
            who = deal.player(action.player)
            if who.seat != deal.turn:  # R81: the cards say who brings in
                raise IllegalActionError(f"{who.name} cannot bring in. {rnd.why}")
        p = check_turn(deal, action)
        if action.type == "bring_in":
            limits(deal, p).verify_bring_in()
            self.post_bring_in(deal, p)
        elif action.type == "fold":
            limits(deal, p).verify_bring_in_done("fold")
            if self.fold(deal, p, action):
                return  # one card folded: the same player goes on acting (R24)
        else:
            allowed = limits(deal, p)
            if action.type == "check":
                allowed.verify_check()
                deal.log.append(f"{p.name} checks.")
            elif action.type == "call":
                allowed.verify_call()
                self.call(deal, p, allowed)
            elif action.type == "all_in":
                allowed.verify_all_in()
                self.put_to(deal, p, allowed.most, allowed, allowed.verb)
            else:
                total = allowed.verify_bet(action.type, action.amount)
                self.put_to(deal, p, total, allowed, action.type)
        p.acted = True
        if deal.result is None and len(deal.still_in()) > 1:
            deal.turn = self.next_to_act(deal, p.seat, include_start=False)
            if deal.turn is None:
                self.close(deal)

    @staticmethod
    def post_bring_in(deal: Deal, p: Player) -> None:
        """R81: the bring-in (all in for less): the round's bet, which the next bet
        completes to a whole bet."""
        rnd = deal.round
        assert rnd is not None
        paid = min(rnd.bring_in, p.stack)
        deal.put(p, paid)
        if p.stack == 0:
            p.status = PlayerStatus.ALL_IN
        rnd.current = paid
        rnd.bring_in = 0
        rnd.completing = True
        deal.posted += ((p.seat, "bring_in", paid),)
        tail = " and is all in" if p.stack == 0 else ""
        deal.log.append(f"{p.name} brings in for {paid}{tail}.")

    def fold(self, deal: Deal, p: Player, action: Action) -> bool:
        """Fold the player, or one card where every card is a stake; True if the player goes on
        acting."""
        live = deal.live_stakes(p)
        if action.card is not None:
            if not deal.stakes_per_card:
                raise IllegalActionError("Only a game of bought cards folds a single card (R24).")
            stake = self.stake_for_card(deal, p, action.card)
            stake.live = False
            if len(live) > 1:
                # the folded card goes face down: the shared log must not name it
                deal.log.append(f"{p.name} folds one card.")
                return True
        for s in live:
            s.live = False
        p.status = PlayerStatus.FOLDED
        deal.log.append(f"{p.name} folds.")
        return False

    def stake_for_card(self, deal: Deal, p: Player, text: str) -> Stake:
        card = deal.parse(text, rank_only=True)
        live = deal.live_stakes(p)
        for s in live:
            if s.card == card:
                return s
        for s in live:
            if s.card and s.card[0] == card[0]:
                return s
        held = " ".join(s.card or "?" for s in live)
        raise IllegalActionError(f"{p.name} holds no live {card}: their live cards are {held}.")

    def call(self, deal: Deal, p: Player, allowed: Limits) -> None:
        if allowed.most >= allowed.current:
            cost = deal.put(p, allowed.to_call)
            if p.stack == 0:
                p.status = PlayerStatus.ALL_IN
            deal.log.append(f"{p.name} calls {cost}.")
            return
        cost = deal.put(p, allowed.most - p.round_bet)
        p.status = PlayerStatus.ALL_IN  # R24: what does not divide stays in the stack
        deal.log.append(f"{p.name} calls {cost} and is all in.")

    def put_to(self, deal: Deal, p: Player, total: int, allowed: Limits, verb: str) -> None:
        """``p`` puts in up to ``total`` per stake (checked by ``allowed``): a call where it
        does not beat the bet, else a bet or raise."""
        rnd = deal.round
        assert rnd is not None
        if total <= rnd.current:  # an all-in that only calls
            cost = deal.put(p, total - p.round_bet)
            p.status = PlayerStatus.ALL_IN
            deal.log.append(f"{p.name} calls {cost} and is all in.")
            return
        increment = total - rnd.current
        # R81: a bet over a bring-in (or in its place) completes it
        said = "completes" if verb == "bet" and (rnd.bring_in or rnd.completing) else f"{verb}s"
        rnd.bring_in = 0
        rnd.completing = False  # anything over a bring-in, even short all in (as PokerKit)
        # an opening bet is a bet whatever its size (R5); a raise is full from last_raise, or
        # in fixed limit at the round's size; a bring-in's completion at the round's size
        if not rnd.current:
            full = True
        elif deal.rules.betting is Betting.FIXED_LIMIT:
            full = total == allowed.smallest
        else:
            full = increment >= rnd.last_raise
        cost = deal.put(p, total - p.round_bet)
        if p.stack < allowed.stakes:
            p.status = PlayerStatus.ALL_IN
        if full:
            for other in deal.players:
                if other.seat != p.seat:
                    other.acted = False
            rnd.raises += 1
            if deal.rules.betting is not Betting.FIXED_LIMIT:
                rnd.last_raise = max(increment, rnd.last_raise)
        rnd.current = total
        tail = " and is all in" if p.status == PlayerStatus.ALL_IN else ""
        deal.log.append(f"{p.name} {said} to {total}{allowed.per} ({cost} in){tail}.")

    # ------------------------------------------------------------------ the step
    def step(self, game: Game, deal: Deal) -> Step:
        rnd = deal.round
        if rnd is None or deal.turn is None:
            return Step(StepKind.BET, "Betting is over.", to_call=0)
        p = deal.players[deal.turn]
        allowed = limits(deal, p)
        round_name = game.round_name(self)
        to_call = allowed.to_call
        if allowed.bring_in:
            what = f"bring in {allowed.bring_in} or complete to {allowed.smallest}"
        elif to_call:
            what = f"{allowed.cost_words(to_call)} to call"
            if not allowed.can_call:  # cannot stake 1 per card: fold cards (R24)
                what += f"; {chips(p.stack)} cannot stake 1 per card: fold cards"
        else:
            what = "check or bet" if not rnd.current else "check or raise"
        k = allowed.stakes
        offer = BetOffer(
            to_call_total=to_call * k,
            per_card=deal.stakes_per_card,
            cards=k if deal.stakes_per_card else None,
            round=round_name,
            current_bet=rnd.current,
            min_raise_to=allowed.min_to if allowed.can_raise else None,
            max_raise_to=allowed.max_to if allowed.can_raise else None,
        )
        return Step(StepKind.BET, f"{round_name}: {p.name}: {what}.", player=p.name,
                    to_call=to_call, bet=offer, options=tuple(allowed.options()), why=rnd.why,
                    bring_in=allowed.bring_in or None)
