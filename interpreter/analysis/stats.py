"""Small statistics for simulation reports: intervals and differences.

Every interval is a 95% interval. Rates use Wilson's interval (sound near 0%
and 100%); means use Student's t for small samples and the normal
approximation beyond 30 games. Differences between two rulesets played on
the same seeds are *paired* — game i of one against game i of the other —
which cancels much of the luck of the deal and gives narrower intervals than
comparing two independent samples. Where the values are only defined in some
games (a measure with `when:`), the two samples are compared as independent
(Welch). Several comparisons in one report are corrected with Holm's method,
so "significant" stays honest when many numbers are compared at once.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959964
# Student's t, 97.5% quantile, for 1..30 degrees of freedom
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
       2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
       2.052, 2.048, 2.045, 2.042)


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


def _critical(df: int) -> float:
    return T95[df - 1] if 1 <= df <= len(T95) else Z95


def _variance(values: list, centre: float) -> float:
    return sum((v - centre) ** 2 for v in values) / (len(values) - 1) if len(values) > 1 else 0.0


def mean_interval(values: list) -> tuple[float, float, float] | None:
    """(mean, low, high) of a sample; None if it is empty."""
    if not values:
        return None
    m = sum(values) / len(values)
    if len(values) < 2:
        return (m, m, m)
    half = _critical(len(values) - 1) * math.sqrt(_variance(values, m) / len(values))
    return (m, m - half, m + half)


def quartiles(values: list) -> tuple:
    """(min, first quartile, median, third quartile, max), by the nearest-rank rule."""
    s = sorted(values)
    pick = lambda q: s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]  # noqa: E731
    return (s[0], pick(0.25), pick(0.5), pick(0.75), s[-1])


@dataclass(frozen=True)
class Difference:
    """b - a with its 95% interval and two-sided p-value."""
    value: float
    low: float
    high: float
    p: float
    paired: bool


def _difference(value: float, se: float, df: int, paired: bool) -> Difference:
    if se == 0:
        return Difference(value, value, value, 1.0 if value == 0 else 0.0, paired)
    half = _critical(df) * se
    return Difference(value, value - half, value + half, math.erfc(abs(value / se) / math.sqrt(2)), paired)


def paired_difference(a: list, b: list) -> Difference:
    """The mean of b[i] - a[i]: for the same seeds played under two rulesets."""
    d = [y - x for x, y in zip(a, b)]
    m = sum(d) / len(d)
    return _difference(m, math.sqrt(_variance(d, m) / len(d)), len(d) - 1, True)


def welch_difference(a: list, b: list) -> Difference | None:
    """mean(b) - mean(a) for two independent samples; None if either has fewer than 2 values."""
    if len(a) < 2 or len(b) < 2:
        return None
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va, vb = _variance(a, ma) / len(a), _variance(b, mb) / len(b)
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1)) if va + vb > 0 else 1
    return _difference(mb - ma, se, int(df), False)


def holm(pvalues: list[float], alpha: float = 0.05) -> list[bool]:
    """Which of several tests are significant, controlling the chance of any false
    alarm at `alpha` (Holm-Bonferroni)."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    significant = [False] * len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (len(pvalues) - rank):
            break
        significant[i] = True
    return significant
