"""Benchmark: `simulate` with several jobs against one job.

    python benchmarks/bench_simulate_jobs.py [--games N] [--rounds R] [--jobs J]

Plays Twenty Trials (Challenger mode, random player) through `simulate`,
alternating one job and J jobs on the same seeds (the machine is shared and
noisy; alternation keeps drift out of the ratio). Each timing covers the
whole call: starting the workers, playing, and taking the results back in
seed order. Checks that both give the same summary, and prints the median
games per second of each and their ratio.

On a machine shared with other work, the wall-clock ratio says as much about
the neighbours as about rulelang, so the CPU time is also accounted (this
process and its workers): the CPU spent per game with J jobs against one job
is the parallel overhead, and 1 job's CPU per game over J jobs' is the
speed-up J idle cores would give.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.analysis.simulate import simulate  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from rulelang import load_ruleset  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children."""
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


def timed(game: Game, games: int, jobs: int) -> tuple[float, float, dict]:
    """(games per second of wall-clock time, CPU seconds per game, the summary)."""
    start, cpu = time.perf_counter(), cpu_seconds()
    summary = simulate(game, games, seed=0, jobs=jobs)
    wall = time.perf_counter() - start
    return games / wall, (cpu_seconds() - cpu) / games, summary.to_json() | {"games_per_second": None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8000, help="games per timing (default 8000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--jobs", type=int, default=2, help="jobs to compare with one (default 2)")
    args = parser.parse_args()
    game = Game(load_ruleset("twenty-trials"))
    one, many, cpu_one, cpu_many = [], [], [], []
    for _ in range(args.rounds):
        rate1, cpu1, summary1 = timed(game, args.games, 1)
        rate2, cpu2, summary2 = timed(game, args.games, args.jobs)
        assert summary1 == summary2, "the number of jobs changed the results"
        one.append(rate1)
        many.append(rate2)
        cpu_one.append(cpu1)
        cpu_many.append(cpu2)
        print(f"  1 job {rate1:7,.0f} games/s   {args.jobs} jobs {rate2:7,.0f} games/s   ratio {rate2 / rate1:.2f}"
              f"   CPU per game {1e6 * cpu1:5.0f} µs / {1e6 * cpu2:5.0f} µs")
    m1, m2 = statistics.median(one), statistics.median(many)
    c1, c2 = statistics.median(cpu_one), statistics.median(cpu_many)
    print(f"median of {args.rounds} rounds of {args.games} games: 1 job {m1:,.0f} games/s, "
          f"{args.jobs} jobs {m2:,.0f} games/s, ratio {m2 / m1:.2f} (median of ratios "
          f"{statistics.median(b / a for a, b in zip(one, many)):.2f})")
    print(f"CPU per game: 1 job {1e6 * c1:.0f} µs, {args.jobs} jobs {1e6 * c2:.0f} µs (overhead {c2 / c1 - 1:+.1%}); "
          f"on {args.jobs} idle cores: {args.jobs * c1 / c2:.2f}x")


if __name__ == "__main__":
    main()
