"""A table driven through the HTTP API to the step a browser test wants to look at: the pages
then show it by their live socket, with no clicking to get there.

``Driver.to(stage)`` plays on, everyone calling or checking, cards entered from one shuffled
deck, until the deal is at the stage:

- ``buying``: the deal's first step that asks the dealer for something (a buy, the cards
  dealt, a blind's draw or payment, or Next);
- ``reveal``: the first reveal (the places to turn are framed);
- ``betting``: a betting turn with a call to make;
- ``showdown``: the showdown's entry;
- ``result``: the deal over, its result on screen.
"""

from __future__ import annotations

import random
from typing import Any

STAGES = ("buying", "reveal", "betting", "showdown", "result")
DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]


class Driver:
    def __init__(self, server: Any, created: dict[str, Any], seed: int = 7) -> None:
        self.server = server
        self.id: str = created["id"]
        self.token: str = created["dealer_token"]
        self.rng = random.Random(seed)
        self.deck: list[str] = []

    def state(self) -> dict[str, Any]:
        status, body = self.server.api("GET", f"/api/tables/{self.id}", None, self.token)
        assert status == 200, body
        return body  # type: ignore[no-any-return]

    def act(self, body: dict[str, Any]) -> dict[str, Any]:
        status, answer = self.server.api("POST", f"/api/tables/{self.id}/actions", body,
                                         self.token)
        assert status == 200, (body, answer)
        return answer["state"]  # type: ignore[no-any-return]

    def card(self, state: dict[str, Any]) -> str:
        """A card nobody has seen in this deal."""
        seen = set()
        for value in (state.get("grid") or {}).get("cells", {}).values():
            seen.add(value)
        for p in state["players"]:
            seen.update(p.get("hand") or [])
            seen.update(p.get("up") or [])  # cards dealt face up (R81)
        for value in state.values():
            if isinstance(value, list) and value and isinstance(value[0], str):
                seen.update(value)
        while True:
            if not self.deck:
                self.deck = DECK[:]
                self.rng.shuffle(self.deck)
            card = self.deck.pop()
            # the game's own deck (R87: six to ace), as the pages read it
            ranks = self.game(state["variant"]).get("deck_ranks") or card[0]
            if card not in seen and card[0] in ranks:
                return card

    def start(self, variant: str | None = None) -> dict[str, Any]:
        self.deck = DECK[:]
        self.rng.shuffle(self.deck)
        return self.act({"type": "start_deal", **({"variant": variant} if variant else {})})

    def step(self, s: dict[str, Any]) -> dict[str, Any]:
        """One action that moves the deal on."""
        step = s["step"]
        kind, who = step["kind"], step.get("player")
        if kind == "buy":
            return self.act({"type": "buy", "player": who, "count": min(2, step["max"])})
        if kind == "discard":  # R85: how many, never which
            return self.act({"type": "discard", "player": who, "count": 1})
        if kind == "deal_cards":
            cards: list[str] = []
            for _ in range(step["count"]):
                card = self.card(s)
                while card in cards:
                    card = self.card(s)
                cards.append(card)
            return self.act({"type": "deal_cards", "player": who, "cards": cards})
        if kind == "reveal" and step.get("players") and not step.get("cells"):
            # a street of up cards (R81): every player's, by name
            cards: dict[str, str] = {}
            for name in step["players"]:
                card = self.card(s)
                while card in cards.values():
                    card = self.card(s)
                cards[name] = card
            return self.act({"type": "reveal", "cards": cards})
        if kind == "reveal":
            return self.act({"type": "reveal"})
        if kind == "bet" and "bring_in" in step["options"]:
            return self.act({"type": "bring_in", "player": who})
        if kind == "bet":
            verb = "call" if step.get("to_call") else "check"
            return self.act({"type": verb, "player": who})
        if kind == "pay":
            return self.act({"type": "pay", "player": who})
        if kind == "next":
            return self.act({"type": "next"})
        if kind == "draw":
            return self.act({"type": "draw", "player": who})
        if kind == "showdown":
            return self.act(self.showdown(s))
        raise AssertionError(f"nothing to do at {kind}")

    def showdown(self, s: dict[str, Any]) -> dict[str, Any]:
        step = s["step"]
        game = self.game(s["variant"])
        used: set[str] = set()

        def fresh() -> str:
            card = self.card(s)
            while card in used:
                card = self.card(s)
            used.add(card)
            return card

        body: dict[str, Any] = {"type": "showdown"}
        cells = step.get("cells") or []
        if game["layout"]["kind"] == "board":
            if cells:
                body["board"] = [fresh() for _ in cells]
        elif cells:
            body["cells"] = {c: fresh() for c in cells}
        for place in game["places"]:
            if not s.get(place["field"]):
                body[place["field"]] = [fresh() for _ in range(place["cards"])]
        if step.get("players"):
            body["hands"] = {name: [fresh() for _ in range(step.get("hole_cards") or 2)]
                             for name in step["players"]}
        return body

    def game(self, variant: str) -> dict[str, Any]:
        from dealer_assist.games.registry import game_class
        return game_class(variant).metadata()

    def to(self, stage: str) -> dict[str, Any]:
        """Play on until the deal is at ``stage`` (one of STAGES)."""
        s = self.state()
        moved = False
        for _ in range(400):
            kind = s["step"]["kind"]
            if stage == "buying" and kind not in ("start_deal", "game_over"):
                return s
            # cards to enter between rounds: a reveal, or in a draw game a draw (R85)
            if stage == "reveal" and kind in ("reveal", "discard"):
                return s
            # betting: a call to make, or (where a game has no betting rounds) a payment,
            # past the step the deal was at
            if stage == "betting" and ((kind == "bet" and s["step"].get("to_call"))
                                       or (kind == "pay" and moved)):
                return s
            if stage == "betting" and kind == "bet" and "bet" in s["step"]["options"]:
                # nobody has bet yet this round: this player opens, so the next has a call
                s = self.act({"type": "bet", "player": s["step"]["player"],
                              "amount": s["step"]["min_raise_to"]})
                continue
            if stage == "showdown" and kind == "showdown":
                return s
            if stage == "result" and kind in ("start_deal", "game_over") and s["result"]:
                return s
            if kind in ("start_deal", "game_over"):
                raise AssertionError(f"the deal ended before {stage}")
            s = self.step(s)
            moved = True
        raise AssertionError(f"never reached {stage}")
