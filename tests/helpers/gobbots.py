"""Positions on the Gauntlet: place Soldiers and Gobbot tokens by hand."""
from functools import lru_cache

from helpers import Position, game_for


@lru_cache(maxsize=None)
def gobbots_game(**params):
    """One compiled game per set of parameters (a game holds no state of its own)."""
    return game_for("gauntlet-gobbots", **params)


class Gauntlet(Position):
    """An empty Gauntlet (every token in the stack), then what a test places."""

    def __init__(self, seed: int = 0, **params):
        super().__init__(gobbots_game(**params), seed)
        for x in range(1, 4):
            for y in range(1, 7):
                self.game.arrange(self.st, "gauntlet", [], space=(x, y))
        self.put("gobbot_stack", *self.game.cards("gobbot"))

    def soldier(self, lane: int) -> int:
        return self.card("soldier", lane=lane)

    def gobbot(self, moves: int, attack: int, health: int, copy: int = 0) -> int:
        return self.game.cards("gobbot", moves=moves, attack=attack, health=health)[copy]

    def place(self, card: int, column: int, row: int) -> "Gauntlet":
        """Put a card on a space (taking it from wherever it is)."""
        space = self.game.zone_index("gauntlet", space=(column, row))
        self.game.arrange(self.st, "gauntlet", [*self.st.zones[space], card], space=(column, row))
        if self.game.layout.kind_of[card] == "gobbot":  # the rest of the tokens stay in the stack
            stack = [c for c in self.st.zones[self.game.zone_index("gobbot_stack")] if c != card]
            self.put("gobbot_stack", *stack)
        return self

    def at(self, card: int) -> tuple[int, int] | None:
        """The space a card is on (None if it is off the board)."""
        return self.game.layout.space[self.st.where[card]]

    def state(self, card: int, name: str):
        return self.game.state_of(self.st, card, name)

    def outcome(self):
        return self.game.outcome(self.st)
