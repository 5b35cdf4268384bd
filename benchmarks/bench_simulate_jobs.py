"""Benchmark: `simulate` with several jobs against one job.

    python benchmarks/bench_simulate_jobs.py [--games N] [--rounds R] [--jobs J]

Plays Twenty Trials (Challenger mode, random player) through `simulate`,
alternating one job and J jobs on the same seeds (the machine is shared and
noisy; alternation keeps drift out of the ratio). Each timing covers the
whole call: starting the workers, playing, and taking the results back in
seed order. Checks that both give the same summary, and prints the median
games per second of each and their ratio.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.engine import Game  # noqa: E402
from interpreter.simulate import simulate  # noqa: E402
from rulelang import load_ruleset  # noqa: E402


def timed(game: Game, games: int, jobs: int) -> tuple[float, dict]:
    start = time.perf_counter()
    summary = simulate(game, games, seed=0, jobs=jobs)
    return games / (time.perf_counter() - start), summary.to_json() | {"games_per_second": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8000, help="games per timing (default 8000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--jobs", type=int, default=2, help="jobs to compare with one (default 2)")
    args = parser.parse_args()
    game = Game(load_ruleset("twenty-trials"))
    one, many = [], []
    for _ in range(args.rounds):
        rate1, summary1 = timed(game, args.games, 1)
        rate2, summary2 = timed(game, args.games, args.jobs)
        assert summary1 == summary2, "the number of jobs changed the results"
        one.append(rate1)
        many.append(rate2)
        print(f"  1 job {rate1:7,.0f} games/s   {args.jobs} jobs {rate2:7,.0f} games/s   ratio {rate2 / rate1:.2f}")
    m1, m2 = statistics.median(one), statistics.median(many)
    print(f"median of {args.rounds} rounds of {args.games} games: 1 job {m1:,.0f} games/s, "
          f"{args.jobs} jobs {m2:,.0f} games/s, ratio {m2 / m1:.2f} (median of ratios "
          f"{statistics.median(b / a for a, b in zip(one, many)):.2f})")


if __name__ == "__main__":
    main()
