"""The phase framework: one part of a deal, and the phases every game shares.

The engine (``core/engine.py``) calls a phase with the game and the deal: the deal is data
and never holds its game, and ``core/game.py`` names what a phase answers as ``GamePhase``."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_assist.core.actions import Action
from dealer_assist.core.deal import Deal, Player
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.game import Game
from dealer_assist.core.step import Step, StepKind

# R66, R67: the records a community board takes at an all-in, refused where they are not now
ALL_IN_REFUSALS = {
    "run_twice": "Run it twice only when no more betting is possible and board cards are still "
                 "to come (R66).",
    "show": "The hands are tabled only when no more betting is possible and board cards are "
            "still to come (R67); at the showdown, enter them there.",
}
ALL_IN_ELSEWHERE = {
    "run_twice": "{game} is not run twice: only a community board is (R66).",
    "show": "{game} has no hands tabled at an all-in (R67): they are shown at the showdown.",
}


class Phase:
    """One part of a deal. Subclasses say which actions they take and what comes next."""

    runs_after_result = False

    def enter(self, game: Game, deal: Deal) -> None:
        """Called when the deal reaches this phase."""

    def done(self, game: Game, deal: Deal) -> bool:
        return deal.phase_state.done

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ()

    def refusal(self, game: Game, deal: Deal, action: Action) -> str:
        if action.type in ALL_IN_REFUSALS:
            if game.board_equity is None:
                return ALL_IN_ELSEWHERE[action.type].format(game=game.name)
            return ALL_IN_REFUSALS[action.type]
        return f"Cannot {action.type.replace('_', ' ')} now: {self.step(game, deal).instruction}"

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        raise NotImplementedError

    def step(self, game: Game, deal: Deal) -> Step:
        raise NotImplementedError

    @staticmethod
    def mark_done(deal: Deal) -> None:
        deal.phase_state.done = True


def check_turn(deal: Deal, action: Action) -> Player:
    """The acting player, who must be the one whose turn it is."""
    p = deal.player(action.player)
    if deal.turn is None or p.seat != deal.turn:
        whose = deal.players[deal.turn].name if deal.turn is not None else "nobody"
        raise IllegalActionError(
            f"It is not {p.name}'s turn to {action.type.replace('_', ' ')}: it is {whose}'s."
        )
    return p


class NextPhase(Phase):
    """A physical step the dealer does, then taps Next (dealing hole cards, discards)."""


    def __init__(self, instruction: str, *, marks_dealt: bool = False) -> None:
        self.instruction = instruction
        self.marks_dealt = marks_dealt

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("next",)

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        if self.marks_dealt:
            deal.dealt = True
        deal.log.append(f"Done: {self.instruction}")
        self.mark_done(deal)

    def step(self, game: Game, deal: Deal) -> Step:
        return Step(StepKind.NEXT, f"{self.instruction}, then tap Next.",
                    public=public_doing(self.instruction))


class RevealPhase(Phase):
    """Turn named cells (R10, R11); the dealer may enter the cards as they turn."""


    def __init__(self, cells: Sequence[str], label: str) -> None:
        self.cells = tuple(cells)
        self.label = label

    def accepts(self, game: Game, deal: Deal) -> tuple[str, ...]:
        return ("reveal",)

    def handle(self, game: Game, deal: Deal, action: Action) -> None:
        entered = self.cards_of(deal, action)
        deal.check_new_cards(entered.items())
        for cell_name in self.cells:
            deal.grid[cell_name] = entered.get(cell_name)
            deal.revealed.append(cell_name)
        shown = " ".join(entered.get(c, "?") for c in self.cells) if entered else ""
        deal.log.append(f"Turned {self.label}" + (f": {shown}" if shown else "") + ".")
        self.mark_done(deal)

    def cards_of(self, deal: Deal, action: Action) -> dict[str, str]:
        if action.cards is not None:  # a list, in the order of the cells to turn
            if len(action.cards) > len(self.cells):
                raise IllegalActionError(
                    f"Only {len(self.cells)} cards are turned now ({self.label}), "
                    f"not {len(action.cards)}."
                )
            return {c: deal.parse(t) for c, t in zip(self.cells, action.cards, strict=False)}
        entered: dict[str, str] = {}
        for cell_name, text in action.cells or ():
            if cell_name not in self.cells:
                raise IllegalActionError(
                    f"{cell_name} is not turned now: the cards to turn are "
                    f"{' '.join(self.cells)} ({self.label})."
                )
            entered[cell_name] = deal.parse(text)
        return entered

    def step(self, game: Game, deal: Deal) -> Step:
        return Step(
            StepKind.REVEAL, cells=self.cells,
            # the grid frames the cells: the words say what and how many, not where
            instruction=f"Turn {self.label}: {len(self.cells)} "
                        f"card{'s' if len(self.cells) > 1 else ''}, framed.",
            public=f"The dealer is turning {self.label}: {len(self.cells)} "
                   f"card{'s' if len(self.cells) > 1 else ''}.",
        )


def public_doing(instruction: str) -> str:
    """A dealer's physical step in the players' words: "Deal two hole cards to each player"
    is "The dealer is dealing two hole cards to each player."; "Everyone discards one card"
    stays as it is."""
    if instruction.startswith("Deal "):
        return f"The dealer is dealing {instruction[5:]}."
    return f"{instruction}."


class EndPhase(Phase):
    """The deal is over; the next one can start (or the game is over)."""

    runs_after_result = False

    def done(self, game: Game, deal: Deal) -> bool:
        return False

    def step(self, game: Game, deal: Deal) -> Step:
        if deal.game_over:
            return Step(StepKind.GAME_OVER, deal.game_over_words or "The game is over.")
        return Step(StepKind.START_DEAL, "The deal is over: tap Start deal for the next one.")
