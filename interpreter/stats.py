"""Small statistics for simulation reports."""
from __future__ import annotations

import math

Z95 = 1.959964


def wilson(successes: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (sound near 0 and 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean(values) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None
