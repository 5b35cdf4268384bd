"""Positions in the race: cubes placed on the track, hands, plans and life
points set by hand, then the rules run from a phase of the turn."""
from __future__ import annotations

import textwrap
from functools import lru_cache

from helpers import Position, game_for
from interpreter.engine.game import Game
from rulelang import load_text

PLAYERS = ("red", "blue", "yellow", "green")


@lru_cache(maxsize=None)
def race_game(players: int = 3, ruleset: str = "gauntlet-race", track: str | None = None, **options) -> Game:
    """One compiled game per number of players and track (a game holds no
    state of its own); `track` is a map drawn with the race's legend."""
    if track is None:
        return game_for(ruleset, players=players, **options)
    variant = f"extends: {ruleset}\ngame: {ruleset}-test-track\nzones:\n  track:\n    map: |\n" + textwrap.indent(track.strip("\n") + "\n", "      ")
    return Game(load_text(variant, "track.yaml", {"players": str(players), **options}))


class Race(Position):
    """A game after set-up: then a test moves cubes, deals cards and sets
    variables, and starts a phase."""

    def __init__(self, players: int = 3, seed: int = 0, ruleset: str = "gauntlet-race", track: str | None = None,
                 **options):
        super().__init__(race_game(players, ruleset, track, **options), seed)
        self.players = PLAYERS[:players]
        self.used: set[int] = set()
        self.turn = self.st.round  # the turn `play` plays in

    # ------------------------------------------------------------ cards
    def action(self, symbol: str, value: int) -> int:
        """An action card with this symbol and value that the test has not used yet."""
        for c in self.game.cards("action", symbol=symbol, value=value):
            if c not in self.used:
                self.used.add(c)
                return c
        raise AssertionError(f"no {symbol} {value} left")

    def cards(self, *names: str) -> list[int]:
        """`cards("swords 4", "shield 1")`: fresh action cards."""
        return [self.action(n.split()[0], int(n.split()[1])) for n in names]

    def hand(self, player: str, *names: str) -> "Race":
        self.game.arrange(self.st, "hand", self.cards(*names), owner=player)
        return self

    def plan(self, player: str, *names: str) -> "Race":
        """The player's three planned cards, first step first (left to right)."""
        self.game.arrange(self.st, "plan", self.cards(*names), owner=player)
        return self

    def owned(self, zone: str, player: str) -> list[str]:
        return [self.viewer.card(c) for c in self.st.zones[self.game.zone_index(zone, player)]]

    # ------------------------------------------------------------ the track
    def cube(self, player: str) -> int:
        return self.game.cards("cube", seat=self.players.index(player) + 1)[0]

    def place(self, player: str, column: int, row: int) -> "Race":
        space = self.game.zone_index("track", space=(column, row))
        self.game.arrange(self.st, "track", [*self.st.zones[space], self.cube(player)], space=(column, row))
        return self

    def at(self, player: str) -> tuple[int, int] | None:
        return self.game.layout.space[self.st.where[self.cube(player)]]

    def to_end(self, column: int, row: int) -> int:
        """How many moves a space is from the end, along the tiles (arrows are no way)."""
        track = self.game.ruleset.zones["track"]
        terrain = {(i % track.columns + 1, i // track.columns + 1): m.get("terrain")
                   for i, m in enumerate(track.space_marks) if i not in track.gaps}
        goal = next(s for s, t in terrain.items() if t == "finish")
        far, edge = {goal: 0}, [goal]
        while edge:
            x, y = edge.pop(0)
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if terrain.get(n) not in (None, "arrow") and n not in far:
                    far[n] = far[(x, y)] + 1
                    edge.append(n)
        return far.get((column, row), 99)

    def forward(self, then=None):
        """An `answer` for `play`: every move toward the end (the space nearest it),
        other decisions by `then` (or the first option)."""
        def answer(role, label, options):
            if label == "move":
                return min(options, key=lambda o: self.to_end(*map(int, o.split()[-1].split(","))))
            return then(role, label, options) if then else None
        return answer

    # ------------------------------------------------------------ variables
    def slot(self, name: str, player: str | None = None) -> int:
        return self.game.layout.var_slot[name] + (self.players.index(player) if player is not None else 0)

    def set(self, name: str, value, player: str | None = None) -> "Race":
        self.st.vars[self.slot(name, player)] = value
        return self

    def get(self, name: str, player: str | None = None):
        return self.st.vars[self.slot(name, player)]

    def life(self, player: str) -> int:
        return self.get("life", player)

    def moves(self, die: int) -> "Race":
        """Every player has the die's moves for the turn (as the roll sets them)."""
        self.set("die", die)
        for p in self.players:
            self.set("moves_left", die, p)
        return self

    def outcome(self):
        return self.game.outcome(self.st)

    # ------------------------------------------------------------ playing on
    def start(self, step: str) -> "Race":
        """Run the rules from the start of a step of this turn."""
        self.turn = self.st.round
        return super().start(step)

    def play(self, until: str | None = None, answer=None) -> list[tuple[str, str]]:
        """Answer decisions until the one waiting is in step `until` of this turn
        or the turn is over (None: until the turn is over): each decision with
        `answer(role, label, options)`, an option's text (None, or no `answer`:
        the first option). Returns the (role, label) of each decision answered."""
        asked: list[tuple[str, str]] = []
        while self.st.outcome is None and self.st.round == self.turn and self.game.step_name(self.st) != until:
            d, options = self.decision, self.options()
            choice = answer(d.role, d.label, options) if answer else None
            asked.append((d.role, d.label))
            self.game.apply(self.st, options.index(choice) if choice is not None else 0)
        return asked

    def next_turn(self) -> "Race":
        """Go on with the turn now under way (its first decision is waiting)."""
        self.turn = self.st.round
        return self
