"""Four in a row, as a Python programmer would write it apart from this project.

The yardstick for the natural-versus-tuned gap on a grid: no import from the
project, the standard library's `random.Random(seed)`, the board as a list of
42 spaces and each column's height. It plays the rules of
`benchmarks/rulesets/four-in-a-row.yaml` (red first; a disc dropped into a
column that is not full falls to its lowest empty space; four of one colour in
a line wins; a full board is a draw) with uniformly random players, testing
only the lines through the disc just dropped. It plays other games than the
interpreter for a seed: `benchmarks/bench_four_in_a_row.py` checks their
outcomes' distribution.
"""
from __future__ import annotations

import random

COLUMNS, ROWS = 7, 6
ROLES = ("red", "yellow")


def _lines() -> list[tuple[int, ...]]:
    """Every line of four spaces (space = (row - 1) * COLUMNS + column - 1)."""
    found = []
    for row in range(ROWS):
        for col in range(COLUMNS):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (-1, 1)):
                if 0 <= col + 3 * dc < COLUMNS and row + 3 * dr < ROWS:
                    found.append(tuple((row + k * dr) * COLUMNS + col + k * dc for k in range(4)))
    return found


LINES = _lines()
THROUGH = [[line for line in LINES if i in line] for i in range(COLUMNS * ROWS)]


def play(seed: int) -> dict:
    """One game of random players; the outcome as the interpreter reports it."""
    rng = random.Random(seed)
    randrange = rng.randrange
    board = [0] * (COLUMNS * ROWS)  # 0 empty, 1 red's disc, 2 yellow's
    height = [0] * COLUMNS
    decisions = 0
    for round_ in range(1, COLUMNS * ROWS // 2 + 1):
        for me in (1, 2):
            open_ = [c for c in range(COLUMNS) if height[c] < ROWS]
            col = open_[randrange(len(open_))] if len(open_) > 1 else open_[0]
            at = height[col] * COLUMNS + col
            height[col] += 1
            board[at] = me
            decisions += 1
            if any(board[a] == board[b] == board[c] == board[d] for a, b, c, d in THROUGH[at]):
                return {"winner": ROLES[me - 1], "reason": "four_in_a_row", "rounds": round_, "decisions": decisions}
    return {"winner": None, "reason": "full", "rounds": COLUMNS * ROWS // 2, "decisions": decisions}
