"""The betting engine: one betting round (R5, R6, R24)."""

from __future__ import annotations

from typing import Any

from dealer_assist.core.actions import Action
from dealer_assist.core.deal import Deal, Player, Round, Stake, chips
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.phases import Phase, check_turn


class BettingPhase(Phase):
    """A betting round (R5, R6, R24): check, call, bet, raise, all in, fold."""

    kind = "bet"

    def __init__(self, index: int, *, early: bool, preflop: bool = False) -> None:
        self.index = index
        self.early = early
        self.preflop = preflop

    # ------------------------------------------------------------------ set-up
    def enter(self, deal: Deal) -> None:
        rules = deal.rules
        bet_size = rules.small_bet if self.early else rules.big_bet
        opener = deal.game.opener(deal, self)
        rnd = Round(index=self.index, bet_size=bet_size, opener=opener)
        rnd.last_raise = bet_size if rules.betting == "fixed_limit" else rules.min_bet
        for p in deal.players:
            p.acted = False
            p.raise_closed = False
            if not self.preflop:
                p.round_bet = 0
        if self.preflop:
            # a big blind all in for less still makes the others call the full blind, as in
            # card rooms; the short blind can win only what it matched (R6)
            rnd.current = max(max(p.round_bet for p in deal.players), deal.rules.big_blind)
            rnd.last_raise = max(rnd.last_raise, deal.rules.big_blind)
            rnd.raises = 1 if rnd.current else 0
        deal.round = rnd
        deal.turn = self.next_to_act(deal, opener, include_start=True)
        if deal.turn is None:
            self.close(deal)

    def in_players(self, deal: Deal) -> list[Player]:
        return [p for p in deal.players if p.status == "in"]

    def needs_to_act(self, deal: Deal, p: Player) -> bool:
        if p.status != "in" or deal.round is None:
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
    def accepts(self, deal: Deal) -> tuple[str, ...]:
        return ("check", "call", "bet", "raise", "all_in", "fold")

    def handle(self, deal: Deal, action: Action) -> None:
        p = check_turn(deal, action)
        rnd = deal.round
        assert rnd is not None
        k = len(deal.live_stakes(p))
        to_call = rnd.current - p.round_bet
        if action.type == "fold":
            if self.fold(deal, p, action):
                return  # one card folded: the same player goes on acting (R24)
        elif action.type == "check":
            if to_call:
                raise IllegalActionError(
                    f"{p.name} cannot check: {self.cost_words(deal, p, to_call)} to call."
                )
            deal.log.append(f"{p.name} checks.")
        elif action.type == "call":
            self.call(deal, p, to_call, k)
        elif action.type == "all_in":
            self.all_in(deal, p, k)
        else:
            self.bet_or_raise(deal, p, action, k)
        p.acted = True
        if deal.result is None and len(deal.still_in()) > 1:
            deal.turn = self.next_to_act(deal, p.seat, include_start=False)
            if deal.turn is None:
                self.close(deal)

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
        p.status = "folded"
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

    def call(self, deal: Deal, p: Player, to_call: int, k: int) -> None:
        if not to_call:
            raise IllegalActionError(f"{p.name} cannot call: there is no bet to call; check.")
        if to_call * k <= p.stack:
            cost = deal.put(p, to_call)
            if p.stack == 0:
                p.status = "all_in"
            deal.log.append(f"{p.name} calls {cost}.")
            return
        per = p.stack // k
        if per == 0:
            raise IllegalActionError(
                f"{p.name} cannot call: {chips(p.stack)} cannot stake 1 per card on {k} cards; "
                "fold cards first."
            )
        cost = deal.put(p, per)
        p.status = "all_in"  # R24: what does not divide stays in the stack
        deal.log.append(f"{p.name} calls {cost} and is all in.")

    def all_in(self, deal: Deal, p: Player, k: int) -> None:
        rnd = deal.round
        assert rnd is not None
        per = p.stack // k
        if per == 0:
            raise IllegalActionError(
                f"{p.name} cannot go all in: {chips(p.stack)} cannot stake 1 per card on {k} cards."
            )
        total = p.round_bet + per
        if total <= rnd.current:
            deal.put(p, per)
            p.status = "all_in"
            deal.log.append(f"{p.name} calls {per * k} and is all in.")
            return
        self.raise_to(deal, p, total, k, "raise" if rnd.current else "bet", all_in=True)

    def bet_or_raise(self, deal: Deal, p: Player, action: Action, k: int) -> None:
        rnd = deal.round
        assert rnd is not None
        verb = action.type
        if action.amount is None:
            raise IllegalActionError(f"Say how much {p.name} {verb}s to (amount).")
        if verb == "bet" and rnd.current:
            raise IllegalActionError(
                f"{p.name} cannot bet: there is a bet of {rnd.current} already; raise instead."
            )
        if verb == "raise" and not rnd.current:
            raise IllegalActionError(f"{p.name} cannot raise: nobody has bet; bet instead.")
        total = action.amount
        need = (total - p.round_bet) * k
        if total <= rnd.current:
            raise IllegalActionError(
                f"{p.name} cannot {verb} to {total}: it must be more than {rnd.current}."
            )
        if need > p.stack:
            most = p.round_bet + p.stack // k
            per = " per card" if deal.stakes_per_card else ""
            all_in = f" (all in is {most}{per})" if most > p.round_bet else ""
            raise IllegalActionError(
                f"{p.name} cannot {verb} to {total}{per}: that needs {need} and {p.name} has "
                f"{p.stack}{all_in}."
            )
        self.raise_to(deal, p, total, k, verb, all_in=need == p.stack or p.stack - need < k)

    def raise_to(self, deal: Deal, p: Player, total: int, k: int, verb: str, *,
                 all_in: bool) -> None:
        rnd = deal.round
        assert rnd is not None
        rules = deal.rules
        per = " per card" if deal.stakes_per_card else ""
        if p.raise_closed:
            raise IllegalActionError(
                f"{p.name} cannot raise: the all-in for less than a full raise did not reopen "
                "the betting; call or fold."
            )
        increment = total - rnd.current
        if rules.betting == "fixed_limit":
            if rnd.raises >= 4:
                raise IllegalActionError(
                    f"{p.name} cannot raise: a round allows one bet and three raises."
                )
            target = rnd.current + rnd.bet_size
            if total > target or (total < target and not all_in):
                raise IllegalActionError(
                    f"{p.name} cannot {verb} to {total}: in fixed limit this round it is "
                    f"{verb} to {target}{per}."
                )
            full = total == target
        else:
            smallest = rnd.current + max(rnd.last_raise, 1) if rnd.current else rules.min_bet
            if total < smallest and not all_in:
                raise IllegalActionError(
                    f"{p.name} cannot {verb} to {total}{per}: the smallest {verb} is to "
                    f"{smallest}{per}."
                )
            if rules.betting == "pot_limit":
                to_call = rnd.current - p.round_bet
                # the smallest bet is always allowed, even into an empty pot
                largest = max(rnd.current + deal.pot_total() + to_call, smallest)
                if total > largest:
                    raise IllegalActionError(
                        f"{p.name} cannot {verb} to {total}: pot limit allows at most {largest}."
                    )
            full = increment >= rnd.last_raise or not rnd.current
        cost = deal.put(p, total - p.round_bet)
        if p.stack < k:
            p.status = "all_in"
        for other in deal.players:
            if other.seat == p.seat or other.status != "in":
                continue
            if full:
                other.acted = False
                other.raise_closed = False
            elif other.acted:
                other.raise_closed = True  # R5: a short all-in does not reopen the betting
        if full:
            rnd.raises += 1
            if rules.betting != "fixed_limit":
                rnd.last_raise = max(increment, rnd.last_raise if rnd.current else 0, 1)
        rnd.current = total
        tail = " and is all in" if p.status == "all_in" else ""
        deal.log.append(f"{p.name} {verb}s to {total}{per} ({cost} in){tail}.")

    # ------------------------------------------------------------------ the step
    def cost_words(self, deal: Deal, p: Player, per_stake: int) -> str:
        k = len(deal.live_stakes(p))
        if deal.stakes_per_card:
            return f"{per_stake} per card, {k} card{'s' if k != 1 else ''} = {per_stake * k}"
        return str(per_stake)

    def step(self, deal: Deal) -> dict[str, Any]:
        rnd = deal.round
        if rnd is None or deal.turn is None:
            return {"kind": "bet", "player": None, "to_call": 0, "instruction": "Betting is over."}
        p = deal.players[deal.turn]
        k = len(deal.live_stakes(p))
        to_call = rnd.current - p.round_bet
        round_name = deal.game.round_name(self)
        if to_call:
            what = f"{self.cost_words(deal, p, to_call)} to call"
        else:
            what = "check or bet" if not rnd.current else "check or raise"
        options = ["fold"] + (["call"] if to_call else ["check"])
        rules = deal.rules
        smallest = rnd.current + max(rnd.last_raise, 1) if rnd.current else rules.min_bet
        most = p.round_bet + p.stack // max(k, 1)
        if rules.betting == "fixed_limit":
            smallest = most_allowed = rnd.current + rnd.bet_size
            can_raise = rnd.raises < 4
        elif rules.betting == "pot_limit":
            most_allowed = max(rnd.current + deal.pot_total() + to_call, smallest)
            can_raise = True
        else:
            most_allowed = most
            can_raise = True
        can_raise = can_raise and not p.raise_closed and most > rnd.current
        if can_raise:
            options.append("raise" if rnd.current else "bet")
        within_limit = most <= rnd.current or (can_raise and most <= most_allowed)
        if most > p.round_bet and within_limit:
            options.append("all_in")  # in a limit game, only where the limit allows it
        if to_call and most == p.round_bet:  # cannot stake 1 per card: fold cards (R24)
            options = ["fold"]
            what += f"; {chips(p.stack)} cannot stake 1 per card: fold cards"
        return {
            "kind": "bet",
            "player": p.name,
            "to_call": to_call,
            "to_call_total": to_call * k,
            "per_card": deal.stakes_per_card,
            "cards": k if deal.stakes_per_card else None,
            "round": round_name,
            "current_bet": rnd.current,
            "min_raise_to": min(smallest, most) if can_raise else None,
            "max_raise_to": min(most_allowed, most) if can_raise else None,
            "options": options,
            "instruction": f"{round_name}: {p.name}: {what}.",
        }
