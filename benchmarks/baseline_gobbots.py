"""The Gauntlet, soldiers against the Gobbots (standard game), written by hand in plain Python.

The second yardstick for the interpreter's speed, a game of a different shape
from Twenty Trials: a grid, moving pieces, many small decisions. It plays the
rules of `rulesets/gauntlet-gobbots.yaml` with its default parameters (side A
boards, neither Easy nor Hard) with the same random generator, the same card
ids (table order), the same order of cards in the Gauntlet (bottom row
first, left to right) and the same order of options, and its random player
draws the same numbers as the interpreter's `random` agent, so for a given
seed both play the same game move for move. `tests/test_baseline_agreement.py`
holds them to that.

The Gauntlet is a list of 18 cells, `(row - 1) * 3 + column - 1`; each holds
at most one card (nothing ever moves onto an occupied space).
"""
from __future__ import annotations

from interpreter.runtime.rng import derive, picker, shuffle

SOLDIERS = (0, 1, 2)  # card ids, lanes 1-3
# (moves, attack, health) of gobbot tokens 3..20, in table order
_TOKENS = [(1, 1, 3, 2), (1, 2, 3, 1), (1, 1, 4, 1), (1, 3, 2, 1), (2, 1, 2, 3), (2, 2, 2, 1), (2, 1, 3, 1),
           (3, 1, 1, 2), (3, 2, 1, 2), (3, 1, 2, 1), (4, 1, 1, 2), (4, 2, 1, 1)]
STATS = [None] * 3 + [(m, a, h) for m, a, h, n in _TOKENS for _ in range(n)]
# Command board side A, line by line: each space's two commands (command, X)
COMMANDS = [[(("thrust", 1), ("advance", 1)), (("slash", 2), None), (("advance", 2), None)],
            [(("advance", 1), ("slash", 1)), (("block", 2), None), (("march", 0), None)],
            [(("phalanx", 0), None), (("thrust", 2), None), (("slash", 1), ("thrust", 1))]]
HEALTH = 5  # Soldiers' health on the lower board's side A
TOP = 6  # rows


class GameOver(Exception):
    def __init__(self, result: str, reason: str):
        self.result, self.reason = result, reason


class Gauntlet:
    """One game's state and its random player."""

    def __init__(self, seed: int):
        self.rng = derive(seed, "game")
        self.pick = picker(derive(seed, "agent:commander"))  # the project's quickest way to draw them
        self.decisions = 0
        self.cell: list[int | None] = [None] * 18
        self.at: list[int | None] = [None] * 21  # each card's cell, None off the board
        self.damage = [0] * 21
        self.block = [0, 0, 0]
        self.phalanx = [False, False, False]
        self.stack = list(range(3, 21))
        self.rng = shuffle(self.rng, self.stack)
        self.discard: list[int] = []
        for s in SOLDIERS:
            self.put(s, s)
        for row in (TOP, 3):
            for column in (1, 2, 3):
                self.put(self.stack.pop(), (row - 1) * 3 + column - 1)

    # ------------------------------------------------------------ helpers
    def choose(self, n: int) -> int:
        """The random player's choice among n options (asked even when n == 1, as the interpreter does)."""
        i = self.pick(self.decisions, n)
        self.decisions += 1
        return i

    def put(self, card: int, cell: int) -> None:
        if self.at[card] is not None:
            self.cell[self.at[card]] = None
        self.cell[cell] = card
        self.at[card] = cell

    def remove(self, card: int) -> None:
        self.cell[self.at[card]] = None
        self.at[card] = None

    def soldiers(self) -> list[int]:
        """The Soldiers in the Gauntlet, in its order (bottom row first, left to right)."""
        return sorted((s for s in SOLDIERS if self.at[s] is not None), key=self.at.__getitem__)

    def through(self) -> int:
        return sum(1 for s in SOLDIERS if self.at[s] is not None and self.at[s] >= 15)

    def finish(self, reason: str) -> None:
        raise GameOver("win" if self.through() else "lose", reason)

    def check_over(self) -> None:
        if all(self.at[s] is None or self.at[s] >= 15 for s in SOLDIERS):
            self.finish("all_soldiers_done")

    def can_advance(self, s: int) -> bool:
        c = self.at[s]
        return c < 15 and self.cell[c + 3] is None

    # ------------------------------------------------------------ damage
    def hit(self, g: int, x: int) -> None:
        self.damage[g] += x
        if self.damage[g] >= STATS[g][2]:
            self.damage[g] = 0
            self.remove(g)
            self.discard.append(g)

    def wound(self, s: int, x: int) -> None:
        self.damage[s] += x
        if self.damage[s] >= HEALTH:
            self.block[s], self.phalanx[s] = 0, False
            self.remove(s)
            self.check_over()

    # ------------------------------------------------------------ commands
    def step_forward(self, s: int) -> None:
        if self.can_advance(s):
            self.put(s, self.at[s] + 3)
            self.check_over()

    def strike(self, s: int, x: int, reach: int) -> None:
        row, column = divmod(self.at[s], 3)
        targets = []
        for c, g in enumerate(self.cell):
            if g is not None and g >= 3:
                r, k = divmod(c, 3)
                if (r == row or k == column) and abs(k - column) + abs(r - row) <= reach:
                    targets.append(g)
        if len(targets) == 1:
            self.hit(targets[0], x)
        elif targets:
            self.hit(targets[self.choose(len(targets))], x)

    def march(self) -> None:
        movers = [s for s in self.soldiers() if self.can_advance(s)]
        if len(movers) > 2:
            pairs = [(a, b) for i, a in enumerate(movers) for b in movers[i + 1:]]
            for s in pairs[self.choose(len(pairs))]:
                self.step_forward(s)
        else:
            for s in movers:
                self.step_forward(s)

    def carry_out(self, s: int, command: tuple[str, int] | None) -> None:
        if command is None:
            return
        k, x = command
        if k == "advance":
            for _ in range(x):
                self.step_forward(s)
        elif k == "slash":
            self.strike(s, x, 1)
        elif k == "thrust":
            self.strike(s, x, 2)
        elif k == "block":
            self.block[s] = x
        elif k == "phalanx":
            self.phalanx[s] = True
        else:
            self.march()

    # ------------------------------------------------------------ the Gobbots
    def spawn(self, column: int) -> None:
        if not self.stack and self.discard:
            self.stack, self.discard = self.discard, []
            self.rng = shuffle(self.rng, self.stack)
            soldiers = self.soldiers()
            if len(soldiers) == 1:
                self.wound(soldiers[0], 1)
            elif soldiers:
                self.wound(soldiers[self.choose(len(soldiers))], 1)
        if self.stack:
            top = 15 + column - 1
            if self.cell[top] is None:
                self.put(self.stack.pop(), top)
            elif self.cell[top] < 3 and self.cell[top - 3] is None:
                self.put(self.stack.pop(), top - 3)

    def gobbot_moves(self, g: int) -> None:
        sidestepped = False
        for _ in range(STATS[g][0]):
            c = self.at[g]
            below = self.cell[c - 3]
            if below is None:
                self.put(g, c - 3)
            elif below >= 3 and not sidestepped:
                column = c % 3
                sides = [c + d for d in (-1, 1) if 0 <= column + d <= 2 and self.cell[c + d] is None]
                if not sides:
                    return
                sidestepped = True
                self.put(g, sides[0] if len(sides) == 1 else sides[self.choose(2)])
            else:
                return
            if self.at[g] < 3:
                self.finish("overrun")

    def attack(self, g: int, s: int) -> None:
        amount = STATS[g][1]
        if self.block[s] > 0 and self.choose(2) == 0:  # spend, keep
            amount = max(0, amount - self.block[s])
            self.block[s] = 0
        if self.phalanx[s] and self.choose(2) == 0:
            row = self.at[s] // 3
            x = sum(1 for o in SOLDIERS if o != s and self.at[o] is not None and self.at[o] // 3 == row)
            amount = max(0, amount - x)
            self.phalanx[s] = False
            self.hit(g, x)
        self.wound(s, amount)

    def gobbot_attacks(self, g: int) -> None:
        c = self.at[g]
        targets = [s for s in self.soldiers() if abs(self.at[s] % 3 - c % 3) + abs(self.at[s] // 3 - c // 3) == 1]
        if len(targets) == 1:
            self.attack(g, targets[0])
        elif targets:
            self.attack(g, targets[self.choose(len(targets))])

    # ------------------------------------------------------------ a round
    def round(self) -> None:
        # Player phase: a Sergeant goes on the left-most free space of a line, top line first
        used = [0, 0, 0]
        for _ in range(3):
            lines = [line for line in range(3) if used[line] < 3]
            line = lines[self.choose(len(lines))]
            first, second = COMMANDS[line][used[line]]
            used[line] += 1
            if first[0] == "march" and second is None:
                self.march()
            else:
                soldiers = self.soldiers()
                s = soldiers[self.choose(len(soldiers))]
                self.carry_out(s, first)
                self.carry_out(s, second)
        # Gobbot phase: bottom to top, left to right, as they stand at its start
        for g in [g for g in self.cell if g is not None and g >= 3]:
            if self.at[g] is not None:
                self.gobbot_moves(g)
                self.gobbot_attacks(g)
        # Upkeep phase
        for s in SOLDIERS:
            self.block[s], self.phalanx[s] = 0, False
        for column in (1, 2, 3):  # the lanes with no Gobbot
            if not any((g := self.cell[row * 3 + column - 1]) is not None and g >= 3 for row in range(TOP)):
                self.spawn(column)


def play(seed: int) -> dict:
    """One game with a uniformly random commander; the outcome as the interpreter reports it."""
    game = Gauntlet(seed)
    rounds = 0
    try:
        while True:
            rounds += 1
            game.round()
    except GameOver as end:
        return {"result": end.result, "reason": end.reason, "score": game.through(),
                "rounds": rounds, "decisions": game.decisions}
