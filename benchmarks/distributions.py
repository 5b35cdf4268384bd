"""Do two simulators play the same game? Their outcomes' distributions, compared.

A hand-written baseline that plays other games than the interpreter for a seed
(its own RNG) can still be held to the same rules: over enough games, every
statistic of the outcomes (a score, a count, who won) has the same distribution
on both sides. `homogeneity` is Pearson's chi-square test that two samples of a
statistic come from one distribution; `same_distributions` runs it (and, for
numbers, a test of their means, which a small shift fails sooner) for every
statistic and names those that differ. A baseline with different rules (no
hook, no need to follow suit, another trick winner) fails it: see the
benchmarks that use it.
"""
from __future__ import annotations

import math
from collections import Counter

P_FLOOR = 1e-4  # below this the two differ (six statistics, two tests: a false alarm about once in 800 runs)


def homogeneity(a: list, b: list, least: int = 5) -> tuple[float, int, float]:
    """(chi-square, degrees of freedom, p-value) that samples `a` and `b` have one distribution.
    Values seen fewer than `least` times in all are pooled into one cell (the test needs counts)."""
    ca, cb = Counter(a), Counter(b)
    na, nb = len(a), len(b)
    cells, rare = [], [0, 0]
    for value in sorted(set(ca) | set(cb), key=repr):
        x, y = ca[value], cb[value]
        if x + y < least:
            rare[0] += x
            rare[1] += y
        else:
            cells.append((x, y))
    if sum(rare):
        cells.append(tuple(rare))
    if len(cells) < 2:
        return 0.0, 0, 1.0
    chi2 = 0.0
    for x, y in cells:
        total = x + y
        ea, eb = total * na / (na + nb), total * nb / (na + nb)
        chi2 += (x - ea) ** 2 / ea + (y - eb) ** 2 / eb
    dof = len(cells) - 1
    return chi2, dof, chi_square_tail(chi2, dof)


def chi_square_tail(x: float, k: int) -> float:
    """P(X >= x) for chi-square with k degrees of freedom (Wilson-Hilferty: within 1e-3 of exact for
    k >= 3, and close enough below to tell 1e-4 from 0.05)."""
    if x <= 0:
        return 1.0
    z = ((x / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def same_distributions(ours: dict[str, list], theirs: dict[str, list]) -> list[str]:
    """For each statistic: a line with its test; those whose p-value is below P_FLOOR marked DIFFERENT."""
    lines = []
    for name in ours:
        a, b = ours[name], theirs[name]
        chi2, dof, p = homogeneity(a, b)
        line = f"{name}: {_central(a, b)}, chi-square {chi2:.1f} on {dof} df, p = {p:.3g}"
        if all(isinstance(x, (int, float)) for x in a + b):  # a shift of the mean: the sharper test of it
            z = welch(a, b)
            p = min(p, math.erfc(abs(z) / math.sqrt(2)))
            line += f"; means {z:+.1f} standard errors apart"
        lines.append(("DIFFERENT " if p < P_FLOOR else "") + line)
    return lines


def welch(a: list, b: list) -> float:
    """The difference of two samples' means in standard errors."""
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1)
    se = math.sqrt(va / len(a) + vb / len(b))
    return 0.0 if ma == mb else (ma - mb) / se if se else math.inf


def _central(a: list, b: list) -> str:
    """The two samples' means; for values that are not numbers, the shares of the commonest."""
    if all(isinstance(x, (int, float)) for x in a + b):
        return f"means {sum(a) / len(a):.3f} / {sum(b) / len(b):.3f}"
    top = Counter(a + b).most_common(1)[0][0]
    return f"'{top}' {a.count(top) / len(a):.3f} / {b.count(top) / len(b):.3f}"
