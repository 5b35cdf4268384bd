"""Print sheets: n-up imposition, crop marks and duplex backs.

Cards sit in a grid centred on the page, each in a cell of the card plus its
bleed on every side. The grid holds as many columns and rows as fit inside
the printer's margin. Crop marks are short lines in the margin, in line
with every cut, starting clear of the grid so they never touch a card.
A back page mirrors its front page left to right, so that after printing
on both sides (flipping on the long edge) every back lands behind its front.
Pieces of another size (tokens, tiles) are laid out on pages of their own,
one grid a size, in the order the deck first shows them.

The PDF itself is drawn in `drawing.py`.
"""
from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass

from markupsafe import escape

from .cards import CardSize

SIZES = {  # mm, portrait
    "poker": (63.5, 88.9), "bridge": (57.15, 88.9), "mini": (44.45, 63.5),
    "tarot": (69.85, 120.65), "square": (63.5, 63.5),
}
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN = 4.0  # mm near the edge a printer may not print: no card goes there
MARK_GAP = 1.0  # between the grid and a crop mark
MARK_LENGTH = 4.0


def parse_size(text: str) -> tuple[float, float]:
    """`poker` or `63x88mm` -> (width, height) in mm; ValueError with a message otherwise."""
    name = text.strip().lower()
    if name in SIZES:
        return SIZES[name]
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*mm", name)
    if not m:
        raise ValueError(f"unknown card size '{text}': use {', '.join(SIZES)} or WxHmm (e.g. 63x88mm)")
    w, h = float(m.group(1)), float(m.group(2))
    if not (10 <= w <= 300 and 10 <= h <= 300):
        raise ValueError(f"a card of {w:g}×{h:g} mm is too small or too large (10 to 300 mm a side)")
    return w, h


@dataclass(frozen=True)
class Layout:
    paper: tuple[float, float]
    card: CardSize
    cols: int
    rows: int
    crop_marks: bool

    @property
    def cell(self) -> tuple[float, float]:
        return self.card.width + 2 * self.card.bleed, self.card.height + 2 * self.card.bleed

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def origin(self) -> tuple[float, float]:
        """The grid's top-left corner: centred on the page."""
        (pw, ph), (cw, ch) = self.paper, self.cell
        return (pw - self.cols * cw) / 2, (ph - self.rows * ch) / 2

    def slot(self, i: int, back: bool = False) -> tuple[float, float]:
        """Top-left corner of slot i (row by row); a back page mirrors the columns."""
        row, col = divmod(i, self.cols)
        if back:
            col = self.cols - 1 - col
        x0, y0 = self.origin
        return x0 + col * self.cell[0], y0 + row * self.cell[1]

    def cuts(self) -> tuple[list[float], list[float]]:
        """The x positions of the vertical cuts and the y positions of the horizontal ones."""
        (x0, y0), (cw, ch), b = self.origin, self.cell, self.card.bleed
        xs = sorted({round(x0 + c * cw + b + d, 3) for c in range(self.cols) for d in (0, self.card.width)})
        ys = sorted({round(y0 + r * ch + b + d, 3) for r in range(self.rows) for d in (0, self.card.height)})
        return xs, ys


def impose(card: CardSize, paper: str, crop_marks: bool) -> Layout:
    """As many cards as fit inside the margin; crop marks use whatever margin is left
    (on Letter, 3×3 poker cards leave 6 mm above and below)."""
    pw, ph = PAPERS[paper]
    cw, ch = card.width + 2 * card.bleed, card.height + 2 * card.bleed
    cols, rows = math.floor((pw - 2 * MARGIN) / cw + 1e-9), math.floor((ph - 2 * MARGIN) / ch + 1e-9)
    if cols < 1 or rows < 1:
        raise ValueError(f"a {card.width:g}×{card.height:g} mm card (bleed {card.bleed:g} mm) does not fit on "
                         f"{paper} paper inside a {MARGIN:g} mm margin")
    return Layout((pw, ph), card, cols, rows, crop_marks)


def mark_lines(layout: Layout) -> list[tuple[float, float, float, float]]:
    """Crop marks (x1, y1, x2, y2 in mm from the page's top-left) in the margin
    around the grid, in line with every cut; symmetric, so backs share them."""
    if not layout.crop_marks:
        return []
    (pw, ph), (x0, y0) = layout.paper, layout.origin
    x1, y1 = x0 + layout.cols * layout.cell[0], y0 + layout.rows * layout.cell[1]
    xs, ys = layout.cuts()
    lines = []
    for x in xs:
        lines.append((x, y0 - MARK_GAP, x, max(0.0, y0 - MARK_GAP - MARK_LENGTH)))
        lines.append((x, y1 + MARK_GAP, x, min(ph, y1 + MARK_GAP + MARK_LENGTH)))
    for y in ys:
        lines.append((x0 - MARK_GAP, y, max(0.0, x0 - MARK_GAP - MARK_LENGTH), y))
        lines.append((x1 + MARK_GAP, y, min(pw, x1 + MARK_GAP + MARK_LENGTH), y))
    return lines


def pages(layout: Layout, count: int, backs: bool) -> list[tuple[str, list[tuple[int, float, float]]]]:
    """The printed pages in order: (side, [(card index, x, y)]) — each front page
    followed by its mirrored back page when there are backs."""
    out = []
    for start in range(0, count, layout.per_page):
        for side in ("front", "back") if backs else ("front",):
            slots = [(start + i, *layout.slot(i, back=side == "back"))
                     for i in range(min(layout.per_page, count - start))]
            out.append((side, slots))
    return out


@dataclass(frozen=True)
class Page:
    side: str  # front or back
    slots: tuple[tuple[int, float, float], ...]  # (face index, x, y) in mm from the page's top-left
    cell: tuple[float, float]  # each face's size with its bleed, mm
    marks: tuple[tuple[float, float, float, float], ...]


def sheet_pages(sizes: list[CardSize], paper: str, crop_marks: bool, backs: bool) -> list[Page]:
    """The pages of a deck whose face i is `sizes[i]`: the faces of one size together,
    each size imposed on its own grid, sizes in the order the deck first shows them."""
    groups: dict[CardSize, list[int]] = {}
    for i, size in enumerate(sizes):
        groups.setdefault(size, []).append(i)
    out = []
    for size, members in groups.items():
        layout = impose(size, paper, crop_marks)
        marks = tuple(mark_lines(layout))
        for side, slots in pages(layout, len(members), backs):
            out.append(Page(side, tuple((members[i], x, y) for i, x, y in slots), layout.cell, marks))
    return out


def _image(svg: str) -> str:
    """An SVG as a data URL, so the HTML file stands alone."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def sheet_html(paper: str, plan: list[Page], fronts: list[str], backs: list[str] | None, title: str) -> str:
    """The sheets as HTML pages, to look at or print from a browser."""
    pw, ph = PAPERS[paper]
    html_pages = []
    for page in plan:
        lines = "".join(f'<line x1="{a:.2f}" y1="{b:.2f}" x2="{c:.2f}" y2="{d:.2f}"/>' for a, b, c, d in page.marks)
        marks = (f'<svg class="marks" xmlns="http://www.w3.org/2000/svg" width="{pw}mm" height="{ph}mm" '
                 f'viewBox="0 0 {pw} {ph}"><g stroke="#000" stroke-width="0.2">{lines}</g></svg>') if lines else ""
        svgs = fronts if page.side == "front" else backs
        (cw, ch) = page.cell
        cards = "".join(f'<img class="card" src="{_image(svgs[i])}" style="left:{x:.3f}mm;top:{y:.3f}mm;'
                        f'width:{cw:.3f}mm;height:{ch:.3f}mm">' for i, x, y in page.slots)
        html_pages.append(f'<section class="page {page.side}">{marks}{cards}</section>')
    style = (f"@page {{ size: {pw}mm {ph}mm; margin: 0 }} body {{ margin: 0 }} "
             f".page {{ position: relative; width: {pw}mm; height: {ph}mm; overflow: hidden; break-after: page }} "
             f".page:last-child {{ break-after: auto }} .marks {{ position: absolute; left: 0; top: 0 }} "
             f".card {{ position: absolute }} "
             f"@media screen {{ body {{ background: #888 }} .page {{ background: #fff; margin: 8mm auto }} }}")
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{style}</style></head><body>{''.join(html_pages)}</body></html>")
