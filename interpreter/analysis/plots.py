"""Pictures of simulations (`--plot FILE.png|FILE.svg`), drawn with matplotlib.

matplotlib is an optional extra (`pip install 'rulelang[plot]'`): everything
else works without it, and asking for a plot without it is a clear error.
SVG output is made reproducible (no date, fixed ids), so the same games draw
the same file.
"""
from __future__ import annotations

import math

from .compare import Metric
from .tally import Tally

FORMATS = (".png", ".svg")


class PlotError(Exception):
    pass


def check_plot_path(path: str) -> None:
    """Fail before any game is played if the plot cannot be drawn."""
    if not path.endswith(FORMATS):
        raise PlotError(f"--plot draws {' or '.join(FORMATS)} files, not {path}")
    _pyplot()


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise PlotError("plots need matplotlib, the optional extra `plot`: pip install 'rulelang[plot]' "
                        "(from a checkout: pip install '.[plot]')") from None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "rulelang"
    import matplotlib.pyplot as plt
    return plt


def _save(fig, path: str) -> None:
    metadata = {"Date": None} if path.endswith(".svg") else {}
    try:
        fig.savefig(path, metadata=metadata, dpi=110)
    except OSError as exc:
        raise PlotError(f"cannot write {path}: {exc.strerror}") from None
    finally:
        _pyplot().close(fig)


MOST_BARS = 40  # past this many distinct values, values are binned: a histogram, not a barcode


def _bars(ax, counts: dict, title: str) -> None:
    """A distribution of whole numbers (or yes/no): a bar per value, or per bin
    of equal whole-number width when there are more values than MOST_BARS;
    ticks on whole numbers only."""
    from matplotlib.ticker import MaxNLocator
    total = sum(counts.values())
    if all(str(k) in ("True", "False") for k in counts):
        shown = [("no", counts.get(False, counts.get("False", 0))), ("yes", counts.get(True, counts.get("True", 0)))]
        ax.bar([name for name, _ in shown], [100 * c / total for _, c in shown], width=0.6)
    else:
        values = sorted((int(k), c) for k, c in counts.items())
        low, high = values[0][0], values[-1][0]
        width = max(1, math.ceil((high - low + 1) / MOST_BARS))
        bins: dict[int, int] = {}
        for v, c in values:
            start = low + (v - low) // width * width
            bins[start] = bins.get(start, 0) + c
        if width == 1:
            ax.bar(list(bins), [100 * c / total for c in bins.values()], width=0.85)
        else:  # each bar covers its bin, from its first value to the next bin's
            ax.bar(list(bins), [100 * c / total for c in bins.values()], width=0.9 * width, align="edge")
            ax.set_xlabel(f"in bins of {width}", fontsize=8)
        if high - low < 4:  # a few values: each its own tick, no tick between them
            ax.set_xticks(range(low, high + 1))
            ax.set_xlim(low - 2, high + 2)
        else:
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title)
    ax.set_ylabel("% of games")


def _results(ax, data: dict) -> None:
    """Each role's win rate, with its 95% interval: who the game favours."""
    roles = list(data["win_rate"])
    rates = [100 * data["win_rate"][r]["rate"] for r in roles]
    low = [100 * (data["win_rate"][r]["rate"] - data["win_rate"][r]["ci95"][0]) for r in roles]
    high = [100 * (data["win_rate"][r]["ci95"][1] - data["win_rate"][r]["rate"]) for r in roles]
    ax.bar(roles, rates, yerr=[low, high], capsize=6, width=0.6)
    ax.set_title("results: each role's win rate (95% interval)")
    ax.set_ylabel("% of games won")
    ax.set_ylim(0, 100)


def plot_tally(tally: Tally, title: str, path: str) -> None:
    """Each role's win rate, its score distribution, and the game length in rounds and decisions."""
    plt = _pyplot()
    data = tally.to_json()
    panels = [(f"score ({role})", dist["counts"]) for role, dist in data["score"].items()]
    panels += [("rounds", data["rounds"]["counts"]), ("decisions", data["decisions"]["counts"])]
    panels += [(f"{name} (measure)", m["counts"]) for name, m in data["measures"].items() if m.get("counts")]
    results = bool(data["win_rate"])
    fig, axes = plt.subplots(len(panels) + results, 1, figsize=(7, 2.4 * (len(panels) + results)), squeeze=False)
    if results:
        _results(axes[0, 0], data)
    for ax, (name, counts) in zip(axes[results:, 0], panels):
        _bars(ax, counts, name)
    fig.suptitle(f"{title}: {tally.games} games, mode {tally.mode}")
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.35 / fig.get_figheight()))  # the title above the panels, not on them
    _save(fig, path)


def plot_comparison(labels: list[str], metrics: list[Metric], path: str) -> None:
    """Each figure side by side for every ruleset, with its 95% interval."""
    plt = _pyplot()
    letters = [chr(ord("A") + i) for i in range(len(labels))]
    columns = 2 if len(metrics) > 1 else 1
    rows = (len(metrics) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(5.5 * columns, 2.6 * rows + 0.6), squeeze=False)
    for ax, m in zip(axes.flat, metrics):
        scale = 100 if m.rate else 1
        points = [(i, v) for i, v in enumerate(m.values) if v is not None]
        centres = [scale * v[0] for _, v in points]
        errors = [[scale * (v[0] - v[1]) for _, v in points], [scale * (v[2] - v[0]) for _, v in points]]
        colours = ["tab:gray"] + ["tab:red" if sig else "tab:blue" for sig in m.significant]
        ax.bar([letters[i] for i, _ in points], centres, yerr=errors, capsize=6,
               color=[colours[i] for i, _ in points])
        ax.set_title(m.name + (" (%)" if m.rate else ""))
    for ax in list(axes.flat)[len(metrics):]:
        ax.axis("off")
    legend = "   ".join(f"{x} = {label}" for x, label in zip(letters, labels))
    fig.suptitle(f"{legend}\nred: significantly different from A (95% intervals)", fontsize=9)
    fig.tight_layout()
    _save(fig, path)


def plot_sweep(sweep, points: list, target, title: str, path: str) -> None:
    """Each configuration's figures with their 95% intervals, in sweep order:
    the figures the target names (else the win rates); the configurations
    that meet the target in green, and the range it asks for shaded."""
    plt = _pyplot()
    names = target.names() if target else [f"win_rate.{r}" for r in sweep.roles]
    bands = target.bands() if target else {}
    labels = [sweep.varying(p.configuration) for p in points]
    below = 0.07 * max(len(label) for label in labels)  # inches the slanted labels take, under the last panel
    fig, axes = plt.subplots(len(names), 1, figsize=(max(6.0, 0.4 * len(points) + 2), 3.0 * len(names) + below + 0.8),
                             squeeze=False, sharex=True, layout="constrained")
    for ax, name in zip(axes[:, 0], names):
        scale = 100 if sweep.is_rate(name) else 1
        shown = [(i, p) for i, p in enumerate(points) if p.figures.get(name) is not None]
        for met, colour in ((True, "tab:green"), (False, "tab:blue")):
            group = [(i, p.figures[name]) for i, p in shown if p.met == met]
            if group:
                ax.errorbar([i for i, _ in group], [scale * v[0] for _, v in group], fmt="o", color=colour,
                            capsize=3, yerr=[[scale * (v[0] - v[1]) for _, v in group],
                                             [scale * (v[2] - v[0]) for _, v in group]],
                            label=("meets the target" if met else "misses it") if target else None)
        if name in bands:
            low, high = ax.get_ylim()
            ax.axhspan(max(low, scale * bands[name][0]), min(high, scale * bands[name][1]), color="tab:green",
                       alpha=0.12)
            ax.set_ylim(low, high)
        ax.set_title(name + (" (%)" if scale == 100 else ""))
        if target:
            ax.legend(fontsize=7)
    axes[-1, 0].set_xticks(range(len(points)), labels, rotation=60, ha="right", fontsize=7)
    heading = f"{title}: {sweep.games} games a configuration, 95% intervals"
    fig.suptitle(heading + (f"\ntarget: {target.text}" if target else ""), fontsize=9)
    _save(fig, path)
