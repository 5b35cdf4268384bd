"""Benchmark: four in a row (random players) written two ways, the natural rule (the whole
board tested after each move) and the hand-tuned one (only the lines through the disc just
dropped), each through the interpreter against one hand-written simulator, in one run.

    python benchmarks/bench_four_in_a_row.py [--games N] [--rounds R] [--check-games M]

The rulesets are `benchmarks/rulesets/four-in-a-row.yaml` and `four-in-a-row-tuned.yaml`;
the hand-written side is `stdlib_four_in_a_row.py`. As bench_three_mens_morris.py: each
ruleset's distribution of outcomes (who won and why, the rounds, the decisions) must first be
the hand-written simulator's, then each is timed against it in alternating rounds. The gap
the compiler should close is the natural ratio against the tuned one (issue 36).
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import stdlib_four_in_a_row  # noqa: E402
from paired import arguments, checked_and_timed  # noqa: E402

from interpreter.agents.match import play  # noqa: E402
from interpreter.agents.simple import RandomAgent  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from rulelang import load_ruleset  # noqa: E402


def interpreted(game: Game, seed: int) -> dict:
    o = play(game, seed, {r: RandomAgent(seed, r) for r in game.roles}).outcome
    winner = next((r for r, result in o["results"].items() if result == "win"), None)
    return {"winner": winner, "reason": o["reason"], "rounds": o["rounds"], "decisions": o["decisions"]}


def statistics_of(outcomes: list[dict]) -> dict[str, list]:
    return {"the winner": [o["winner"] for o in outcomes],
            "why the game ended": [o["reason"] for o in outcomes],
            "rounds": [o["rounds"] for o in outcomes],
            "decisions": [o["decisions"] for o in outcomes]}


def main() -> int:
    args = arguments(__doc__, games=1000, check_games=10000).parse_args()
    different = False
    for name, file in (("natural", "four-in-a-row.yaml"), ("tuned", "four-in-a-row-tuned.yaml")):
        game = Game(load_ruleset(str(HERE / "rulesets" / file)))
        different |= checked_and_timed(f"Four in a row ({name} rule), random players", [
            ("random players", lambda s, game=game: interpreted(game, s), stdlib_four_in_a_row.play)],
            statistics_of, args)
    if different:
        print("the hand-written simulator does not play the rulesets' game: its ratios mean nothing")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
