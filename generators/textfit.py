"""Text laid out in a box on a card: wrapped, shrunk to fit, or flagged.

rulelang places every line itself (SVG has no line wrapping), measuring
with the advance widths of the font the cards name (DejaVu Sans, shipped
with most Linux systems; other renderers fall back to a similar or narrower
sans-serif). Text that does not fit at the smallest allowed size is never
cut: the box reports it, and the card shows a red outline around it.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from markupsafe import Markup, escape

from . import fontmetrics

FONT_FAMILY = "'DejaVu Sans', Verdana, sans-serif"
MOST_CHARACTERS = 5_000  # in one box: more than any card shows legibly; fitting it takes 25 ms
LARGEST = 1_000.0  # mm: no box, position or font size on a card (at most 300 mm a side) is larger
ALIGN = {"left": "start", "center": "middle", "centre": "middle", "right": "end"}
VALIGN = ("top", "middle", "bottom")
ASCENT = 0.93  # baseline of the first line below the box's top, in ems
LINE_HEIGHT = 1.18
SQUEEZE = 0.8  # a title may be set this much narrower before it is set smaller


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
    squeeze: float = 1.0  # set narrower: the width of the letters, 1 for their own


class BadBox(ValueError):
    """A box or size no card can have (NaN, negative, huge): the message says which and why."""


def number(value, name: str, low: float = -LARGEST, high: float = LARGEST, above: float | None = None) -> float:
    """`value` as a finite float in [low, high] (and > `above`), else BadBox naming it."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadBox(f"{name} must be a number, not {_shown(value)}")
    try:
        x = float(value)
    except OverflowError:  # an int of hundreds of digits
        x = math.inf
    if not math.isfinite(x) or not low <= x <= high or (above is not None and x <= above):
        bound = f"more than {above:g}" if above is not None else f"at least {low:g}"
        raise BadBox(f"{name} must be a number {bound} and at most {high:g} mm, not {_shown(value)}")
    return x


def _shown(value) -> str:
    """A value as an error quotes it: short, whatever it is (a float to 6 digits,
    an int of 300 digits by its length)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    text = f"{value:.6g}" if isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def box(x, y, width, height, size, min_size=None) -> tuple[float, float, float, float, float, float]:
    """A text box's numbers checked: positions within ±1 m, sizes above 0, the
    smallest size at most the size (default 60% of it)."""
    size = number(size, "the font size", 0, LARGEST, above=0)
    smallest = size * 0.6 if min_size is None else number(min_size, "the smallest font size", 0, size, above=0)
    return (number(x, "x"), number(y, "y"), number(width, "the width", 0, LARGEST, above=0),
            number(height, "the height", 0, LARGEST, above=0), size, smallest)


@functools.lru_cache(maxsize=4096)  # a deck repeats its texts: each is fitted once
def fit(text: str, width: float, height: float, size: float, min_size: float | None = None,
        bold: bool = False, condense: bool = False) -> Fit:
    """The largest size from `size` down to `min_size` (default: 60%) at which
    the wrapped text fits the box, in steps of 5%: at most 60 of them (to 5% of
    `size`), whatever `min_size` is; `box` refuses what is not a size. With
    `condense`, at each size the text may first be set up to 20% narrower."""
    _, _, width, height, size, smallest = box(0, 0, width, height, size, min_size)
    current, squeeze = size, 1.0
    for _ in range(60):
        lines = wrap(text, current, width, bold)
        fits = _fits(lines, current, width, height, bold)
        if not fits and condense:
            wide = wrap(text, current, width / SQUEEZE, bold)
            if _fits(wide, current, width / SQUEEZE, height, bold):
                widest = max(text_width(line, current, bold) for line in wide)
                lines, fits, squeeze = wide, True, min(1.0, width / widest)
        if fits or current <= smallest:
            break
        current = max(smallest, current * 0.95)
    return Fit(tuple(lines), current, fits, squeeze)


def _fits(lines: list[str], size: float, width: float, height: float, bold: bool) -> bool:
    return (len(lines) * size * LINE_HEIGHT <= height + 1e-6
            and all(text_width(line, size, bold) <= width + 1e-6 for line in lines))


def svg_text(f: Fit, x: float, y: float, width: float, height: float, align: str = "left",
             valign: str = "top", bold: bool = False, colour: str = "#1d1d1d") -> Markup:
    """The fitted lines as an SVG <text>; a box that overflows gets a red outline."""
    if align not in ALIGN:
        raise BadBox(f"align must be {', '.join(map(repr, ALIGN))}, not {_shown(align)}")
    if valign not in VALIGN:
        raise BadBox(f"valign must be {', '.join(map(repr, VALIGN))}, not {_shown(valign)}")
    anchor = ALIGN[align]
    tx = {"start": x, "middle": x + width / 2, "end": x + width}[anchor]
    used = len(f.lines) * f.size * LINE_HEIGHT
    top = y + {"top": 0, "middle": (height - used) / 2, "bottom": height - used}[valign]
    spans = "".join(
        f'<tspan x="{tx:.2f}" y="{top + f.size * (ASCENT + i * LINE_HEIGHT):.2f}">{escape(line)}</tspan>'
        for i, line in enumerate(f.lines))
    weight = ' font-weight="bold"' if bold else ""
    narrower = f' transform="translate({tx:.2f} 0) scale({f.squeeze:.3f} 1) translate({-tx:.2f} 0)"' \
        if f.squeeze < 0.999 else ""
    out = (f'<text font-family="{FONT_FAMILY}" font-size="{f.size:.2f}"{weight} fill="{escape(colour)}" '
           f'text-anchor="{anchor}"{narrower}>{spans}</text>')
    if not f.fits:
        out += (f'<rect x="{x:.2f}" y="{y:.2f}" width="{width:.2f}" height="{height:.2f}" fill="none" '
                f'stroke="#e00" stroke-width="0.4" stroke-dasharray="1 0.6"/>')
    return Markup(out)
