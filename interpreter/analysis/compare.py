"""Rulesets side by side: the same seeds through each, and what differs.

The first ruleset is the reference; every other one is compared with it,
figure by figure: win rate per role, mean score, game length, and each
measure they share. Because game i of every ruleset is played with seed
S+i, differences are taken game by game (see stats.py), and the report says
plainly which of them are significant once corrected for how many were
tested.
"""
from __future__ import annotations

from dataclasses import dataclass

from .stats import Difference, holm, mean_interval, paired_difference, welch_difference, wilson
from .tally import Tally


@dataclass
class Metric:
    name: str
    rate: bool  # shown as a percentage, differences in percentage points
    values: list  # per ruleset: (value, low, high) or None
    differences: list  # per ruleset after the first: Difference or None
    significant: list  # per ruleset after the first: bool


def compare(summaries: list[Tally]) -> list[Metric]:
    first, metrics = summaries[0], []

    def add(name: str, rate: bool, columns: list | None) -> None:
        if columns is None or any(c is None for c in columns):
            return
        values = [_estimate(c, rate) for c in columns]
        diffs = [_difference(columns[0], c) for c in columns[1:]]
        metrics.append(Metric(name, rate, values, diffs, [False] * len(diffs)))

    for role in first.roles:
        add(f"{role} win rate", True, [s.won.get(role) for s in summaries])
    for role in first.scores:
        add(f"{role} mean score", False, [s.scores.get(role) for s in summaries])
    add("mean rounds", False, [s.rounds for s in summaries])
    add("mean decisions", False, [s.decisions for s in summaries])
    for name, (is_rate, _) in first.measure_info.items():
        if all(s.measure_info.get(name, (None,))[0] == is_rate for s in summaries):
            add(name, is_rate, [s.measures[name] for s in summaries])
    tested = [(m, i) for m in metrics for i, d in enumerate(m.differences) if d is not None]
    for (m, i), significant in zip(tested, holm([m.differences[i].p for m, i in tested])):
        m.significant[i] = significant
    return metrics


def _defined(column: list) -> list:
    return [int(v) for v in column if v is not None]


def _estimate(column: list, rate: bool):
    values = _defined(column)
    if not values:
        return None
    if rate:
        return (sum(values) / len(values), *wilson(sum(values), len(values)))
    return mean_interval(values)


def _difference(a: list, b: list) -> Difference | None:
    if len(a) == len(b) and None not in a and None not in b:
        return paired_difference(_defined(a), _defined(b))
    return welch_difference(_defined(a), _defined(b))


def tests_made(metrics: list[Metric]) -> int:
    return sum(d is not None for m in metrics for d in m.differences)


# ------------------------------------------------------------------ text


def format_comparison(labels: list[str], summaries: list[Tally], metrics: list[Metric]) -> str:
    letters = [chr(ord("A") + i) for i in range(len(labels))]
    first = summaries[0]
    lines = [f"{letter}  {label}" for letter, label in zip(letters, labels)]
    lines.append(f"{first.games} games each, seeds {first.seed}..{first.seed + first.games - 1}, "
                 f"agents: {', '.join(f'{r}={k}' for r, k in first.agents.items())}")
    lines.append("")
    header = ["", *letters, *(f"{x} − A" for x in letters[1:])]
    table = [header]
    for m in metrics:
        cells = [m.name] + [_value(v, m.rate) for v in m.values]
        for d, sig in zip(m.differences, m.significant):
            cells.append(_diff(d, m.rate) + (" *" if sig else "") if d is not None else "—")
        table.append(cells)
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for row in table:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())
    n = tests_made(metrics)
    lines.append("")
    lines.append(f"* significant at the 5% level, corrected (Holm) for the {n} differences tested; "
                 "intervals are 95%")
    lines.append("")
    lines.extend(plain_words(letters, labels, metrics))
    return "\n".join(lines)


def plain_words(letters: list[str], labels: list[str], metrics: list[Metric]) -> list[str]:
    said, unchanged = [], []
    for i, (letter, label) in enumerate(zip(letters[1:], labels[1:])):
        for m in metrics:
            d = m.differences[i]
            if d is None:
                continue
            if m.significant[i]:
                way = "higher" if d.value > 0 else "lower"
                said.append(f"{letter} ({label}): {m.name} is {way}, {_point(m.values[i + 1], m.rate)} against "
                            f"{_point(m.values[0], m.rate)} ({_diff(d, m.rate)}).")
            else:
                unchanged.append(f"{m.name} ({letter})")
    if not said:
        said.append("No difference is significant: with these games, the rulesets cannot be told apart.")
    if unchanged:
        said.append("No significant difference: " + ", ".join(unchanged) + ".")
    return said


def _point(v, rate: bool) -> str:
    if v is None:
        return "—"
    return f"{v[0]:.1%}" if rate else f"{v[0]:.2f}"


def _value(v, rate: bool) -> str:
    if v is None:
        return "—"
    if rate:
        return f"{v[0]:.1%} [{v[1]:.1%}, {v[2]:.1%}]"
    return f"{v[0]:.2f} [{v[1]:.2f}, {v[2]:.2f}]"


def _diff(d: Difference, rate: bool) -> str:
    if rate:
        return f"{100 * d.value:+.1f} pts [{100 * d.low:+.1f}, {100 * d.high:+.1f}]"
    return f"{d.value:+.2f} [{d.low:+.2f}, {d.high:+.2f}]"


def comparison_json(labels: list[str], summaries: list[Tally], metrics: list[Metric]) -> dict:
    return {
        "rulesets": [{"label": label, "summary": s.to_json() | {"games_per_second": None}}
                     for label, s in zip(labels, summaries)],
        "differences": [
            {"metric": m.name, "rate": m.rate, "values": m.values,
             "versus_first": [None if d is None else {"ruleset": labels[i + 1], "difference": d.value,
                                                      "ci95": [d.low, d.high], "p": d.p, "paired": d.paired,
                                                      "significant": m.significant[i]}
                              for i, d in enumerate(m.differences)]}
            for m in metrics],
        "tests": tests_made(metrics),
    }
