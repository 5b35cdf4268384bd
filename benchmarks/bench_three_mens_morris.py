"""Benchmark: the bundled Three Men's Morris example (random players), a game on a grid,
through the interpreter and through a hand-written simulator of the same rules, in one run.

    python benchmarks/bench_three_mens_morris.py [--games N] [--rounds R] [--check-games M]

As bench_oh_hell.py: the hand-written side (`stdlib_three_mens_morris.py`, the standard
library's RNG, only the lines through the point just taken tested) must first show the
interpreter's distribution of outcomes (who won and why, the rounds, each side's score),
then the two are timed in alternating rounds and the median ratio is printed.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import stdlib_three_mens_morris  # noqa: E402
from paired import arguments, checked_and_timed  # noqa: E402

from interpreter.agents.match import play  # noqa: E402
from interpreter.agents.simple import RandomAgent  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from rulelang import load_ruleset  # noqa: E402


def interpreted(game: Game, seed: int) -> dict:
    o = play(game, seed, {r: RandomAgent(seed, r) for r in game.roles}, history=False).outcome
    winner = next((r for r, result in o["results"].items() if result == "win"), None)
    return {"winner": winner, "reason": o["reason"], "rounds": o["rounds"], "decisions": o["decisions"],
            "scores": o["scores"]}


def statistics_of(outcomes: list[dict]) -> dict[str, list]:
    return {"the winner": [o["winner"] for o in outcomes],
            "why the game ended": [o["reason"] for o in outcomes],
            "rounds": [o["rounds"] for o in outcomes],
            "decisions": [o["decisions"] for o in outcomes],
            "white's score": [o["scores"]["white"] for o in outcomes],
            "black's score": [o["scores"]["black"] for o in outcomes]}


def main() -> int:
    args = arguments(__doc__, games=2000, check_games=20000).parse_args()
    game = Game(load_ruleset("three-mens-morris"))
    different = checked_and_timed("Three Men's Morris, random players", [
        ("random players", lambda s: interpreted(game, s), stdlib_three_mens_morris.play)], statistics_of, args)
    if different:
        print("the hand-written simulator does not play the ruleset's game: its ratio means nothing")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
