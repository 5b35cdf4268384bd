"""Three Men's Morris, as a Python programmer would write it apart from this project.

The yardstick for a game on a grid: no import from the project, the standard
library's `random.Random(seed)`, the board as a list of nine points. It plays
the rules of `rulesets/examples/three-mens-morris.yaml` (white first; three men
each placed on empty points, then moved along a line — row, column or diagonal —
to the next point if it is empty; three in a line wins; a player who cannot move
loses; a draw after `rounds` rounds) with uniformly random players, testing only
the lines through the point just taken, as a programmer who knows the game
would. It plays other games than the interpreter for a seed:
`benchmarks/bench_three_mens_morris.py` checks their outcomes' distribution.
"""
from __future__ import annotations

import random

# points 0..8, row by row from column 1, row 1: (column, row) = (i % 3 + 1, i // 3 + 1)
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
THROUGH = [[line for line in LINES if i in line] for i in range(9)]
NEXT = [sorted({line[k + d] for line in THROUGH[i] for k in range(3) if line[k] == i
                for d in (-1, 1) if 0 <= k + d < 3}) for i in range(9)]  # the next points along its lines
ROLES = ("white", "black")


def play(seed: int, rounds: int = 40) -> dict:
    """One game of random players; the outcome as the interpreter reports it."""
    rng = random.Random(seed)
    randrange = rng.randrange
    board = [0] * 9  # 0 empty, 1 white's man, 2 black's
    placed = [0, 0, 0]
    decisions = 0
    for round_ in range(1, rounds + 1):
        for me in (1, 2):
            if placed[me] < 3:
                empty = [i for i in range(9) if not board[i]]
                to = empty[randrange(len(empty))]
                placed[me] += 1
            else:
                moves = [(at, to) for at in range(9) if board[at] == me for to in NEXT[at] if not board[to]]
                if not moves:
                    return outcome(board, "blocked", 3 - me, round_, decisions)
                at, to = moves[randrange(len(moves))] if len(moves) > 1 else moves[0]
                board[at] = 0
            board[to] = me
            decisions += 1
            if any(board[a] == board[b] == board[c] for a, b, c in THROUGH[to]):
                return outcome(board, "three_in_a_row", me, round_, decisions)
    return outcome(board, "too_long", 0, rounds, decisions)


def outcome(board: list[int], reason: str, winner: int, rounds: int, decisions: int) -> dict:
    """Who won (0: a draw), why, when, and each side's score: the most of its men in one line."""
    scores = {role: max(sum(board[i] == me for i in line) for line in LINES) for me, role in enumerate(ROLES, 1)}
    return {"winner": ROLES[winner - 1] if winner else None, "reason": reason, "rounds": rounds,
            "decisions": decisions, "scores": scores}
