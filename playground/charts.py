"""A simulation's figures as SVG charts: win rates with their 95% intervals,
and the distributions of scores and of game length, for one ruleset or
several side by side (the same numbers `rulelang simulate` prints)."""
from __future__ import annotations

from xml.sax.saxutils import escape

W, BAR_H = 600, 22
LABEL = 34  # characters of a bar's name
COLOURS = ("#3b6ea5", "#c2703d", "#4f9a5b", "#8a5aa8", "#b0453f", "#5d8c8c")
MOST_BARS = 40  # a distribution with more values is drawn in as many bins


def charts(result: dict) -> list[dict]:
    tallies = [result["tally"]] if result["kind"] == "simulate" else result["tallies"]
    labels = ["this ruleset"] if result["kind"] == "simulate" else result["labels"]
    out = [{"title": "Win rate (95% interval)", "svg": win_rates(tallies, labels)}]
    roles = list(tallies[0]["score"])
    for role in roles:
        out.append({"title": f"Score of {role.replace('_', ' ')}",
                    "svg": distribution([t["score"].get(role, {}) for t in tallies], labels)})
    out.append({"title": "Game length (rounds)", "svg": distribution([t["rounds"] for t in tallies], labels)})
    return out


def _text(x, y, text, anchor="start", cls="") -> str:
    return f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="{anchor}"' + (f' class="{cls}"' if cls else "") + \
        f">{escape(str(text))}</text>"


def _svg(height: float, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {W} {height:.0f}" width="{W}" '
            f'height="{height:.0f}">' + "".join(body) + "</svg>")


def win_rates(tallies: list[dict], labels: list[str]) -> str:
    """A bar per role (and ruleset), its interval as a line across the bar's end."""
    body, y, left, scale = [], 8, 230, W - 230 - 130
    for role in tallies[0]["win_rate"]:
        for k, (tally, label) in enumerate(zip(tallies, labels)):
            w = tally["win_rate"].get(role, {})
            name = role.replace("_", " ") + (f" · {label}" if len(tallies) > 1 else "")
            body.append(_text(left - 8, y + 15, name if len(name) <= LABEL else name[:LABEL - 1] + "…", "end"))
            if w.get("rate") is None:
                body.append(_text(left, y + 15, "no game finished"))
            else:
                lo, hi = w["ci95"]
                colour = COLOURS[k % len(COLOURS)]
                body.append(f'<rect x="{left}" y="{y}" width="{scale * w["rate"]:.1f}" height="{BAR_H - 4}" '
                            f'fill="{colour}" class="bar"/>')
                body.append(f'<line x1="{left + scale * lo:.1f}" x2="{left + scale * hi:.1f}" y1="{y + 9}" '
                            f'y2="{y + 9}" class="interval"/>')
                for end in (lo, hi):
                    body.append(f'<line x1="{left + scale * end:.1f}" x2="{left + scale * end:.1f}" y1="{y + 3}" '
                                f'y2="{y + 15}" class="interval"/>')
                body.append(_text(left + scale * hi + 6, y + 15, f"{w['rate']:.1%} [{lo:.1%}, {hi:.1%}]", cls="small"))
            y += BAR_H
        y += 6
    return _svg(y + 4, body)


def distribution(dists: list[dict], labels: list[str]) -> str:
    """How often each value came, as bars (side by side for several rulesets)."""
    values = sorted({int(v) for d in dists for v in d.get("counts", {})})
    if not values:
        return _svg(30, [_text(10, 20, "no games")])
    low, high = values[0], values[-1]
    bins = min(MOST_BARS, high - low + 1)
    width = (high - low + 1) / bins

    def bin_of(v: int) -> int:
        return min(bins - 1, int((v - low) / width))
    shares = []
    for d in dists:
        counts = [0] * bins
        total = sum(d.get("counts", {}).values()) or 1
        for v, c in d.get("counts", {}).items():
            counts[bin_of(int(v))] += c
        shares.append([c / total for c in counts])
    top = max(max(s) for s in shares) or 1
    left, bottom, plot_h = 40, 150, 130
    slot = (W - left - 10) / bins
    body = [f'<line x1="{left}" x2="{W - 10}" y1="{bottom}" y2="{bottom}" class="axis"/>']
    for k, share in enumerate(shares):
        bar = slot * 0.8 / len(shares)
        for i, s in enumerate(share):
            h = plot_h * s / top
            body.append(f'<rect x="{left + i * slot + k * bar:.1f}" y="{bottom - h:.1f}" width="{bar:.1f}" '
                        f'height="{h:.1f}" fill="{COLOURS[k % len(COLOURS)]}"><title>'
                        f'{escape(_bin_name(low, width, i))}: {s:.1%}</title></rect>')
    for i in range(0, bins, max(1, bins // 10)):
        body.append(_text(left + i * slot + slot * 0.4, bottom + 14, _bin_name(low, width, i), "middle", "small"))
    body.append(_text(left - 4, bottom - plot_h + 8, f"{top:.0%}", "end", "small"))
    y = bottom + 30
    if len(dists) > 1:
        for k, label in enumerate(labels):
            body.append(f'<rect x="{left}" y="{y - 10}" width="10" height="10" fill="{COLOURS[k % len(COLOURS)]}"/>')
            body.append(_text(left + 16, y, label, cls="small"))
            y += 16
    return _svg(y, body)


def _bin_name(low: int, width: float, i: int) -> str:
    first = low + int(i * width)
    last = low + int((i + 1) * width) - 1
    return str(first) if last <= first else f"{first}–{last}"
