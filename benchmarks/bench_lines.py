"""What a test for n in a row costs, written three ways (issue 33).

A drop game on a board of 7 columns by 6 rows: each player in turn drops a
stone in a column that is not full; four of one player's stones in a row end
the game. After every drop the rules test for four in a row:

* `whole`   — the whole board, as a designer first writes it:
              `exists line in lines(board, 4) where all(mine(p, s) for s in line)`;
* `through` — only the lines through the stone just dropped, with the language's
              `lines_through(s, 4)`;
* `by hand` — only those lines, written out by hand: for each of the four
              directions, each of the four places the new stone can have in a
              line, four calls of `mine` (what the language offered before it
              had lines).

All three play the same games (the same seeds, the same decisions, the same
ends: checked below). The figures are CPU time per game, the median of
`--repeats` runs of `--games` games, the three alternated so that a loaded
machine slows them alike; the ratios to `by hand` are what to read.

    python benchmarks/bench_lines.py --games 200 --repeats 5
"""
from __future__ import annotations

import argparse
import statistics
import time

from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.engine.game import Game
from rulelang import load_text

GAME = """
language: 2
game: drop-{name}
players:
  count: 2
  names: [yellow, red]
cards:
  stone:
    count: 42
    state: {player: {type: role, initial: none}}
zones:
  board: {kind: grid, columns: 7, rows: 6, holds: [stone]}
  pile: {holds: [stone]}
define:
  mine(role p, zone s):
    value: not empty(s) and top(s).player == p
  mine_at(role p, number x, number y):
    value: 1 <= x and x <= 7 and 1 <= y and y <= 6 and mine(p, space(board, x, y))
  four(role p, zone s):
    value: |
      {test}
setup: |
  move box to pile
modes:
  game:
    turns: true
    round:
      - step: Drop
        do: |
          current chooses x in 1..7 where empty(space(board, x, 6)) as column:
            let s = first(t in spaces(board) where column(t) == x and empty(t) ordered by row(t))
            let c = top(pile)
            c.player = current
            move c to s
            if four(current, s):
              win current as four
          if empty(pile):
            end game in a draw as full
"""

TESTS = {
    "whole": "exists line in lines(board, 4) where all(mine(p, t) for t in line)",
    "through": "exists line in lines_through(s, 4) where all(mine(p, t) for t in line)",
    "by hand": " or ".join(
        f"(exists o in 0..3 where mine_at(p, column(s) + {dx} * (0 - o), row(s) + {dy} * (0 - o)) "
        f"and mine_at(p, column(s) + {dx} * (1 - o), row(s) + {dy} * (1 - o)) "
        f"and mine_at(p, column(s) + {dx} * (2 - o), row(s) + {dy} * (2 - o)) "
        f"and mine_at(p, column(s) + {dx} * (3 - o), row(s) + {dy} * (3 - o)))"
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1))),
}


def games(games: int) -> dict[str, Game]:
    return {name: Game(load_text(GAME.replace("{name}", name.replace(" ", "-")).replace("{test}", test),
                                 f"drop-{name.replace(' ', '-')}.yaml")) for name, test in TESTS.items()}


def played(game: Game, n: int) -> list:
    return [play(game, seed, {r: make_agent("random", seed, r) for r in game.roles}).outcome for seed in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    made = games(args.games)
    outcomes = {name: played(g, args.games) for name, g in made.items()}
    assert all(o == outcomes["by hand"] for o in outcomes.values()), "the three tests play different games"
    times: dict[str, list[float]] = {name: [] for name in made}
    for _ in range(args.repeats):
        for name, g in made.items():
            start = time.process_time()
            played(g, args.games)
            times[name].append((time.process_time() - start) / args.games)
    base = statistics.median(times["by hand"])
    print(f"{args.games} games of a 7 x 6 drop game, four in a row; CPU time per game, median of {args.repeats}")
    for name, t in times.items():
        m = statistics.median(t)
        print(f"  {name:<8} {m * 1000:8.2f} ms   {m / base:5.2f} x by hand")


if __name__ == "__main__":
    main()
