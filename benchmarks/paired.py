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
