"""Text laid out in a box on a card: wrapped, shrunk to fit, or flagged.

rulelang places every line itself (SVG has no line wrapping), measuring
with the advance widths of the font the cards name (DejaVu Sans, shipped
with most Linux systems; other renderers fall back to a similar or narrower
sans-serif). Text that does not fit at the smallest allowed size is never
cut: the box reports it, and the card shows a red outline around it.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from markupsafe import Markup, escape

from . import fontmetrics

FONT_FAMILY = "'DejaVu Sans', Verdana, sans-serif"
MOST_CHARACTERS = 5_000  # in one box: more than any card shows legibly; fitting it takes 25 ms
ASCENT = 0.93  # baseline of the first line below the box's top, in ems
LINE_HEIGHT = 1.18


def text_width(text: str, size: float, bold: bool = False) -> float:
    table = fontmetrics.BOLD if bold else fontmetrics.REGULAR
    default = fontmetrics.BOLD_DEFAULT if bold else fontmetrics.REGULAR_DEFAULT
    return sum(table.get(ord(ch), default) for ch in text) * size / 1000


def wrap(text: str, size: float, width: float, bold: bool = False) -> list[str]:
    """Greedy word wrap; explicit newlines start new lines. A word wider than
    the box stays whole on its own line (then the text does not fit)."""
    lines = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            candidate = f"{line} {word}" if line else word
            if line and text_width(candidate, size, bold) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


@dataclass(frozen=True)
class Fit:
    lines: tuple[str, ...]
    size: float
    fits: bool


@functools.lru_cache(maxsize=4096)  # a deck repeats its texts: each is fitted once
def fit(text: str, width: float, height: float, size: float, min_size: float | None = None,
        bold: bool = False) -> Fit:
    """The largest size from `size` down to `min_size` (default: 60%) at which
    the wrapped text fits the box, in steps of 5%."""
    smallest = min_size if min_size is not None else size * 0.6
    current = size
    while True:
        lines = wrap(text, current, width, bold)
        fits = (len(lines) * current * LINE_HEIGHT <= height + 1e-6
                and all(text_width(line, current, bold) <= width + 1e-6 for line in lines))
        if fits or current <= smallest:
            return Fit(tuple(lines), current, fits)
        current = max(smallest, current * 0.95)


def svg_text(f: Fit, x: float, y: float, width: float, height: float, align: str = "left",
             valign: str = "top", bold: bool = False, colour: str = "#1d1d1d") -> Markup:
    """The fitted lines as an SVG <text>; a box that overflows gets a red outline."""
    anchor = {"left": "start", "center": "middle", "right": "end"}[align]
    tx = {"left": x, "center": x + width / 2, "right": x + width}[align]
    used = len(f.lines) * f.size * LINE_HEIGHT
    top = y + {"top": 0, "middle": (height - used) / 2, "bottom": height - used}[valign]
    spans = "".join(
        f'<tspan x="{tx:.2f}" y="{top + f.size * (ASCENT + i * LINE_HEIGHT):.2f}">{escape(line)}</tspan>'
        for i, line in enumerate(f.lines))
    weight = ' font-weight="bold"' if bold else ""
    out = (f'<text font-family="{FONT_FAMILY}" font-size="{f.size:.2f}"{weight} fill="{colour}" '
           f'text-anchor="{anchor}">{spans}</text>')
    if not f.fits:
        out += (f'<rect x="{x:.2f}" y="{y:.2f}" width="{width:.2f}" height="{height:.2f}" fill="none" '
                f'stroke="#e00" stroke-width="0.4" stroke-dasharray="1 0.6"/>')
    return Markup(out)
