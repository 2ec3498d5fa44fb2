"""What every showdown shares: the cards still to enter, checked and laid down."""

from __future__ import annotations

from dealer_assist.core.actions import Action
from dealer_assist.core.deal import Deal, hand_place
from dealer_assist.core.errors import IllegalActionError
from dealer_assist.core.phases import Phase


class ShowdownPhase(Phase):
    """What every showdown shares: the cards still to enter, checked and then laid down."""

    kind = "showdown"
    cells: tuple[str, ...] = ()
    cells_name = "grid card"

    def missing(self, deal: Deal) -> list[str]:
        return [c for c in self.cells if not deal.grid.get(c)]

    def accepts(self, deal: Deal) -> tuple[str, ...]:
        return ("showdown",)

    def given_cells(self, deal: Deal, given: dict[str, str]) -> dict[str, str]:
        """The cards given for cells not entered yet; every cell must then have its card."""
        for cell_name, card in given.items():
            if cell_name not in self.cells:
                raise IllegalActionError(
                    f"{cell_name} is not a cell here: they are {self.cells[0]} to {self.cells[-1]}."
                )
            if deal.grid.get(cell_name) and deal.grid[cell_name] != card:
                raise IllegalActionError(
                    f"{cell_name} is already entered as {deal.grid[cell_name]}; undo to change it."
                )
        missing = [c for c in self.missing(deal) if c not in given]
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            raise IllegalActionError(
                f"Enter every {self.cells_name}: {' '.join(missing)} {verb} missing."
            )
        return {c: card for c, card in given.items() if not deal.grid.get(c)}

    def board_given(self, deal: Deal, action: Action) -> dict[str, str]:
        """The cards given, by cell: as ``cells``, or as ``board``, a list of every cell's card
        or of the ones not entered yet (a board laid in a row)."""
        given: dict[str, str] = {cell: deal.parse(t) for cell, t in action.cells or ()}
        if action.board is not None:
            cards = [deal.parse(t) for t in action.board]
            missing = self.missing(deal)
            if len(cards) == len(self.cells):
                given.update(zip(self.cells, cards, strict=True))
            elif len(cards) == len(missing):
                given.update(zip(missing, cards, strict=True))
            else:
                raise IllegalActionError(
                    f"The board is {len(self.cells)} cards; {len(missing)} of them are not "
                    f"entered yet, and {len(cards)} were given."
                )
        return given

    def hole_cards(self, deal: Deal, action: Action, count: int) -> dict[int, list[str]]:
        """Every player still in shows ``count`` cards."""
        hands = {deal.player(name).seat: cards for name, cards in action.hands or ()}
        holes: dict[int, list[str]] = {}
        for p in deal.still_in():
            if p.seat not in hands:
                raise IllegalActionError(f"Enter {p.name}'s {count} hole cards.")
            cards = [deal.parse(t) for t in hands[p.seat]]
            if len(cards) != count:
                raise IllegalActionError(
                    f"{p.name} has {count} hole cards, not {len(cards)}."
                )
            holes[p.seat] = cards
        return holes

    @staticmethod
    def lay_down(deal: Deal, cells: dict[str, str], holes: dict[int, list[str]]) -> None:
        """Check that no card is entered twice (R9), then put the cards on the table."""
        deal.check_new_cards([
            *cells.items(),
            *((hand_place(deal.players[seat].name), c) for seat, cards in holes.items()
              for c in cards),
        ])
        for cell_name, card in cells.items():
            deal.grid[cell_name] = card
            if cell_name not in deal.revealed:
                deal.revealed.append(cell_name)
        for seat, cards in holes.items():
            deal.players[seat].cards = cards
