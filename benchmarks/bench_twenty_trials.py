"""Benchmark: Twenty Trials (Challenger mode, random player) through the
interpreter and through the hand-written implementation, in one process.

    python benchmarks/bench_twenty_trials.py [--games N] [--rounds R]

The two are timed in alternating rounds on the same seeds (machines here are
noisy; alternation keeps drift out of the ratio) and must play the same games
move for move. Prints games per second for each and their ratio.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from baseline_twenty_trials import play as play_by_hand  # noqa: E402

from interpreter.agents.match import play  # noqa: E402
from interpreter.agents.simple import RandomAgent  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.engine.view import Viewer  # noqa: E402
from rulelang import load_ruleset  # noqa: E402


def interpreted(game: Game, viewer: Viewer, seed: int) -> dict:
    o = play(game, seed, {"challenger": RandomAgent(seed, "challenger")}, viewer=viewer).outcome
    return {"result": o["results"]["challenger"], "reason": o["reason"], "score": o["scores"]["challenger"],
            "rounds": o["rounds"], "decisions": o["decisions"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per round (default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--only", choices=["interpreter", "hand-written"],
                        help="play only one side (to time whole processes against each other)")
    args = parser.parse_args()
    if args.only:
        game = Game(load_ruleset("twenty-trials"))
        viewer = Viewer(game)
        start = time.perf_counter()
        for s in range(args.games * args.rounds):
            interpreted(game, viewer, s) if args.only == "interpreter" else play_by_hand(s)
        print(f"{args.only}: {args.games * args.rounds / (time.perf_counter() - start):,.0f} games/s")
        return

    start = time.perf_counter()
    game = Game(load_ruleset("twenty-trials"))
    viewer = Viewer(game)
    load_ms = (time.perf_counter() - start) * 1000

    seeds = range(args.games)
    mismatches = sum(interpreted(game, viewer, s) != play_by_hand(s) for s in range(300))
    ours, theirs = [], []
    for _ in range(args.rounds):
        t = time.perf_counter()
        for s in seeds:
            interpreted(game, viewer, s)
        ours.append(args.games / (time.perf_counter() - t))
        t = time.perf_counter()
        for s in seeds:
            play_by_hand(s)
        theirs.append(args.games / (time.perf_counter() - t))
    ratios = [a / b for a, b in zip(ours, theirs)]
    print(f"Twenty Trials, Challenger mode, random player; {args.rounds} rounds of {args.games} games")
    print(f"  load and compile the ruleset: {load_ms:.0f} ms")
    print(f"  interpreter:  {statistics.median(ours):8,.0f} games/s (median of rounds)")
    print(f"  hand-written: {statistics.median(theirs):8,.0f} games/s")
    print(f"  ratio interpreter / hand-written: {statistics.median(ratios):.2f} "
          f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)})")
    print(f"  games that differ between the two (of 300 checked): {mismatches}")


if __name__ == "__main__":
    main()
