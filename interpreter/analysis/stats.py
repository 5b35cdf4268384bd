"""Small statistics for simulation reports: intervals and differences.

Every interval is a 95% interval. Rates use Wilson's interval (sound near 0%
and 100%); means use Student's t with its exact quantile at every number of
degrees of freedom, and every p-value comes from the same t distribution as
the interval beside it, so a difference is significant (p < 5%, before
Holm's correction) exactly when its interval leaves out 0. Differences
between two rulesets played on the same seeds are *paired* — game i of one
against game i of the other —
which cancels much of the luck of the deal and gives narrower intervals than
comparing two independent samples. Where the values are only defined in some
games (a measure with `when:`), the two samples are compared as independent
(Welch). Several comparisons in one report are corrected with Holm's method,
so "significant" stays honest when many numbers are compared at once.
"""
from __future__ import annotations

import functools
import math

from rulelang.records import record

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


def _critical(df: float) -> float:
    return t_quantile(0.975, df)


# ------------------------------------------------------------------ Student's t


def t_two_sided_p(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom (any real df > 0)."""
    return _incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_cdf(t: float, df: float) -> float:
    tail = t_two_sided_p(t, df) / 2
    return 1 - tail if t > 0 else tail


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """The t with t_cdf(t, df) = p: bisection, which keeps it the exact inverse
    of t_cdf (to 1e-12), so an interval and its p-value never disagree."""
    if not 0 < p < 1:
        raise ValueError("a quantile's probability is between 0 and 1")
    if p < 0.5:
        return -t_quantile(1 - p, df)
    low, high = 0.0, 1.0
    while t_cdf(high, df) < p:
        low, high = high, 2 * high
    while high - low > 1e-12 * max(1.0, high):
        middle = (low + high) / 2
        low, high = (middle, high) if t_cdf(middle, df) < p else (low, middle)
    return (low + high) / 2


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b), by its continued
    fraction (Lentz's method), on the side of x where it converges fast."""
    if x <= 0 or x >= 1:
        return 0.0 if x <= 0 else 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _beta_fraction(a, b, x) / a
    return 1 - front * _beta_fraction(b, a, 1 - x) / b


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny, c, d = 1e-300, 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 100_000):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1) < 1e-15:
            break
    return result


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


@record
class Difference:
    """b - a with its 95% interval and two-sided p-value."""
    value: float
    low: float
    high: float
    p: float
    paired: bool


def _difference(value: float, se: float, df: float, paired: bool) -> Difference:
    if se == 0:
        return Difference(value, value, value, 1.0 if value == 0 else 0.0, paired)
    half = _critical(df) * se
    return Difference(value, value - half, value + half, t_two_sided_p(value / se, df), paired)


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
    return _difference(mb - ma, se, df, False)  # Welch-Satterthwaite df, not rounded


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
