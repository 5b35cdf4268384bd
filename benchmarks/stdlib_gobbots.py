"""The Gauntlet, soldiers against the Gobbots, as a Python programmer would write it apart from this project.

The second yardstick for Gobbots: no import from the project, the standard
library's `random.Random(seed)` (C code), idiomatic Python (a dict board,
small dataclasses). It plays the standard game (side A boards, neither Easy
nor Hard) by the rulings of `rulesets/gauntlet-gobbots.yaml` and its assumed
board, tokens and command spaces, with a uniformly random commander wherever
the rulebook says "you choose", but not the same games as the interpreter
for a seed: `tests/test_baseline_agreement.py` checks that its outcomes (win
rate, mean rounds and score) agree with the interpreter's within their
confidence intervals instead.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

LANES, ROWS = 3, 6
HEALTH = 5
# (moves, attack, health) -> number of tokens
TOKENS = {(1, 1, 3): 2, (1, 2, 3): 1, (1, 1, 4): 1, (1, 3, 2): 1, (2, 1, 2): 3, (2, 2, 2): 1, (2, 1, 3): 1,
          (3, 1, 1): 2, (3, 2, 1): 2, (3, 1, 2): 1, (4, 1, 1): 2, (4, 2, 1): 1}
# Command board side A: three lines, each filled left to right
BOARD = [[[("thrust", 1), ("move", 1)], [("slash", 2)], [("move", 2)]],
         [[("move", 1), ("slash", 1)], [("block", 2)], [("march", 0)]],
         [[("phalanx", 0)], [("thrust", 2)], [("slash", 1), ("thrust", 1)]]]


@dataclass(eq=False)
class Soldier:
    damage: int = 0
    block: int = 0
    phalanx: bool = False


@dataclass(eq=False)
class Gobbot:
    moves: int
    attack: int
    health: int
    damage: int = 0


class GameOver(Exception):
    pass


class Game:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.decisions = 0
        self.board: dict[tuple[int, int], Soldier | Gobbot] = {}  # (lane, row) -> piece; row 1 at the bottom
        self.where: dict[Soldier | Gobbot, tuple[int, int]] = {}
        self.stack = [Gobbot(*stats) for stats, n in TOKENS.items() for _ in range(n)]
        self.rng.shuffle(self.stack)
        self.discard: list[Gobbot] = []
        self.soldiers = [Soldier() for _ in range(LANES)]  # those still in the Gauntlet
        for lane, s in enumerate(self.soldiers, 1):
            self.place(s, (lane, 1))
        for row in (ROWS, 3):
            for lane in range(1, LANES + 1):
                self.place(self.stack.pop(), (lane, row))

    def choose(self, options: list):
        self.decisions += 1
        return self.rng.choice(options)

    def place(self, piece, square) -> None:
        if piece in self.where:
            del self.board[self.where[piece]]
        self.board[square] = piece
        self.where[piece] = square

    def take_off(self, piece) -> None:
        del self.board[self.where.pop(piece)]

    def gobbots(self) -> list[Gobbot]:
        return [p for p in self.where if isinstance(p, Gobbot)]

    def through(self) -> int:
        return sum(self.where[s][1] == ROWS for s in self.soldiers)

    def check_over(self) -> None:
        if all(self.where[s][1] == ROWS for s in self.soldiers):
            raise GameOver("all_soldiers_done")

    # the player's commands
    def forward(self, s: Soldier) -> None:
        lane, row = self.where[s]
        if row < ROWS and (lane, row + 1) not in self.board:
            self.place(s, (lane, row + 1))
            self.check_over()

    def damage_gobbot(self, g: Gobbot, x: int) -> None:
        g.damage += x
        if g.damage >= g.health:
            g.damage = 0
            self.take_off(g)
            self.discard.append(g)

    def damage_soldier(self, s: Soldier, x: int) -> None:
        s.damage += x
        if s.damage >= HEALTH:
            self.take_off(s)
            self.soldiers.remove(s)
            self.check_over()

    def strike(self, s: Soldier, x: int, reach: int) -> None:
        lane, row = self.where[s]
        targets = []
        for g in self.gobbots():
            g_lane, g_row = self.where[g]
            if g_lane == lane and abs(g_row - row) <= reach or g_row == row and abs(g_lane - lane) <= reach:
                targets.append(g)
        if targets:
            self.damage_gobbot(self.choose(targets) if len(targets) > 1 else targets[0], x)

    def march(self) -> None:
        movers = [s for s in self.soldiers
                  if (sq := self.where[s])[1] < ROWS and (sq[0], sq[1] + 1) not in self.board]
        if len(movers) > 2:
            movers = self.choose([(a, b) for i, a in enumerate(movers) for b in movers[i + 1:]])
        for s in movers:
            self.forward(s)

    def command(self, s: Soldier | None, what: str, x: int) -> None:
        if what == "move":
            for _ in range(x):
                self.forward(s)
        elif what == "slash":
            self.strike(s, x, 1)
        elif what == "thrust":
            self.strike(s, x, 2)
        elif what == "block":
            s.block = x
        elif what == "phalanx":
            s.phalanx = True
        elif what == "march":
            self.march()

    # the Gobbots
    def spawn(self, lane: int) -> None:
        if not self.stack and self.discard:
            self.stack, self.discard = self.discard, []
            self.rng.shuffle(self.stack)
            if self.soldiers:  # the reshuffle costs a Soldier 1 damage
                self.damage_soldier(self.choose(self.soldiers) if len(self.soldiers) > 1 else self.soldiers[0], 1)
        if self.stack:
            top = self.board.get((lane, ROWS))
            if top is None:
                self.place(self.stack.pop(), (lane, ROWS))
            elif isinstance(top, Soldier) and (lane, ROWS - 1) not in self.board:
                self.place(self.stack.pop(), (lane, ROWS - 1))

    def move_gobbot(self, g: Gobbot) -> None:
        sidestepped = False
        for _ in range(g.moves):
            lane, row = self.where[g]
            below = self.board.get((lane, row - 1))
            if below is None:
                self.place(g, (lane, row - 1))
            elif isinstance(below, Gobbot) and not sidestepped:
                sides = [x for x in (lane - 1, lane + 1) if 1 <= x <= LANES and (x, row) not in self.board]
                if not sides:
                    break
                sidestepped = True
                self.place(g, (self.choose(sides) if len(sides) > 1 else sides[0], row))
            else:
                break
            if self.where[g][1] == 1:
                raise GameOver("overrun")

    def gobbot_attack(self, g: Gobbot) -> None:
        lane, row = self.where[g]
        targets = [s for s in self.soldiers
                   if abs(self.where[s][0] - lane) + abs(self.where[s][1] - row) == 1]
        if not targets:
            return
        s = self.choose(targets) if len(targets) > 1 else targets[0]
        amount = g.attack
        if s.block and self.choose(("spend", "keep")) == "spend":
            amount, s.block = max(0, amount - s.block), 0
        if s.phalanx and self.choose(("spend", "keep")) == "spend":
            row = self.where[s][1]
            others = sum(1 for o in self.soldiers if o is not s and self.where[o][1] == row)
            amount, s.phalanx = max(0, amount - others), False
            self.damage_gobbot(g, others)
        self.damage_soldier(s, amount)

    def round(self) -> None:
        placed = [0] * len(BOARD)
        for _ in range(3):  # Sergeants
            line = self.choose([i for i, n in enumerate(placed) if n < len(BOARD[i])])
            commands = BOARD[line][placed[line]]
            placed[line] += 1
            soldier = None if commands == [("march", 0)] else self.choose(self.soldiers)
            for what, x in commands:
                self.command(soldier, what, x)
        for g in sorted(self.gobbots(), key=lambda g: self.where[g][::-1]):  # bottom to top, left to right
            if g in self.where:
                self.move_gobbot(g)
                self.gobbot_attack(g)
        for s in self.soldiers:
            s.block, s.phalanx = 0, False
        for lane in range(1, LANES + 1):
            if all(self.where[g][0] != lane for g in self.gobbots()):
                self.spawn(lane)


def play(seed: int) -> dict:
    """One game with a uniformly random commander."""
    game = Game(seed)
    rounds = 0
    try:
        while True:
            rounds += 1
            game.round()
    except GameOver as end:
        through = game.through()
        return {"result": "win" if through else "lose", "reason": str(end), "score": through,
                "rounds": rounds, "decisions": game.decisions}
