"""Benchmark: random games of every bundled ruleset and mode with the
invariant check on, as `tests/test_invariants.py` plays them.

    python benchmarks/bench_invariant_games.py [--games N] [--jobs J] [--off]

Prints a Markdown table for docs/reliability.md: per ruleset and mode, the
games played (shared among its parameter sets) and the CPU seconds they took
in the workers; `--off` plays the same games without the check, for the
check's cost. CPU time, not wall time: the machine is shared.
"""
from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from random_games import CONFIGS, play_task, tasks  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per ruleset and mode")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--off", action="store_true", help="play without the invariant check")
    args = parser.parse_args()
    played = {c: [0, 0.0] for c in CONFIGS}
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        for name, mode, games, cpu in pool.imap_unordered(partial(play_task, check_invariants=not args.off),
                                                          tasks(args.games)):
            played[name, mode][0] += games
            played[name, mode][1] += cpu
    wall = time.perf_counter() - start
    print(f"| ruleset | mode | games | CPU s (invariants {'off' if args.off else 'on'}) | ms per game |")
    print("|---|---|---|---|---|")
    for (name, mode), (games, cpu) in played.items():
        print(f"| {name} | {mode} | {games:,} | {cpu:.1f} | {1000 * cpu / games:.2f} |")
    total_games, total_cpu = sum(g for g, _ in played.values()), sum(c for _, c in played.values())
    print(f"| **all** | | {total_games:,} | {total_cpu:.1f} | {1000 * total_cpu / total_games:.2f} |")
    print(f"\nwall time {wall:.0f} s with {args.jobs} workers")


if __name__ == "__main__":
    main()
