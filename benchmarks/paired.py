"""Two simulators timed in one run: alternating rounds on the same seeds, medians.

The machine is shared and its load drifts; timing the two sides in turns, round
after round, keeps the drift out of their ratio, and the median keeps one
disturbed round out of the figure.
"""
from __future__ import annotations

import statistics
import time
from typing import Callable


def alternate(ours: Callable[[int], object], theirs: Callable[[int], object], games: int,
              rounds: int) -> tuple[list[float], list[float]]:
    """Games per second of each side, a round at a time (CPU time of this process: another
    process's load slows both sides alike, but is not counted)."""
    a, b = [], []
    for _ in range(rounds):
        for side, rates in ((ours, a), (theirs, b)):
            t = time.process_time()
            for seed in range(games):
                side(seed)
            rates.append(games / (time.process_time() - t))
    return a, b


def summary(name: str, ours: list[float], theirs: list[float]) -> str:
    ratios = [x / y for x, y in zip(ours, theirs)]
    return (f"{name}: interpreter {statistics.median(ours):7,.0f} games/s, hand-written "
            f"{statistics.median(theirs):7,.0f}: ratio {statistics.median(ratios):.2f} "
            f"(rounds {', '.join(f'{r:.2f}' for r in ratios)})")


def checked_and_timed(title: str, checks: list[tuple[str, Callable, Callable]], statistics_of: Callable,
                      args) -> bool:
    """A benchmark's run: for each check (players, ours, theirs), `args.check_games` games a side and
    their outcomes' distributions compared (distributions.py); then the first check's two sides timed
    (`args.games` a round, `args.rounds` rounds). Prints it all; True if a distribution differs."""
    from distributions import same_distributions
    different = False
    print(f"{title}; {args.rounds} rounds of {args.games} games a side")
    if args.check_games:
        seeds = range(10 ** 6, 10 ** 6 + args.check_games)
        for players, ours, theirs in checks:
            lines = same_distributions(statistics_of(list(map(ours, seeds))), statistics_of(list(map(theirs, seeds))))
            different |= any(line.startswith("DIFFERENT") for line in lines)
            print(f"  outcomes of {args.check_games:,} games a side, {players} (interpreter / hand-written):")
            print("\n".join("    " + line for line in lines))
    _, ours, theirs = checks[0]
    print("  " + summary(title.split(",")[0], *alternate(ours, theirs, args.games, args.rounds)))
    return different


def arguments(doc: str, games: int, check_games: int):
    """The command line every such benchmark takes."""
    import argparse
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--games", type=int, default=games, help=f"games per round and side (default {games})")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--check-games", type=int, default=check_games,
                        help=f"games each side plays for the distribution check (default {check_games}; 0: none)")
    return parser
