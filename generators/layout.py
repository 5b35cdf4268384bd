"""Where each part of a card's face goes: roles from the ruleset's data, boxes from the shape.

A card type's fields take roles (`layout:` on the card type says, else the
defaults below decide), and one geometry serves every card of the type, so
that a type's cards line up and print their text at one size:

| role | what | default |
|---|---|---|
| title | the band at the top | the card's `label:` |
| corner | a number in a badge at the top-left corner | the type's one number field, if the label names it |
| stats | numbers, each with its icon, in a row (0 is left out) | the fields `layout: icons:` names |
| art | the middle: large icons, or a format in large letters | the icons of the fields whose values have icons |
| lines | the other fields, one line each (`print:`) | every field not shown otherwise |
| rules | what the card does: its own words, the lines of the fields `layout: rules:` names, its abilities | — |

A piece's shape follows what it is (`component:`): tokens (and counters,
chits, coins, discs, markers) are round, tiles square, anything else a
card. Sizes are in millimetres; `u` scales a layout drawn for a poker card
(or, for pieces, a 42 mm token or a 63.5 mm tile) to the face's size.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from types import SimpleNamespace

from rulelang import ir
from rulelang.types import INT

from . import textfit

ROUND = frozenset({"token", "counter", "chit", "chip", "coin", "disc", "disk", "marker"})
SQUARE = frozenset({"tile"})
PIECE_SIZES = {"round": 30.0, "square": 50.0}  # mm, where the ruleset gives none
LINE = 4.6  # u: a field's line, its text 3.4 u
GAP = 1.5  # u: between the parts of a face


@dataclass(frozen=True)
class Roles:
    """Which field shows where on a card type's faces."""
    title: str | bool  # True: the label; a format; False: no title
    corner: str | None
    stats: tuple[tuple[str, str], ...]  # (field, icon)
    art: str | bool  # a format; True: the icons of the icon fields (or a template's art block); False
    rules: tuple[str, ...]  # fields whose lines say what the card does
    shape: str
    size: tuple[float, float] | None  # the type's own size, mm


def roles(ct: ir.CardType) -> Roles:
    layout = ct.layout or ir.CardLayout()
    numbers = [f.name for f in ct.fields if f.type == INT]
    stats = tuple(layout.icons)
    corner = layout.corner if isinstance(layout.corner, str) else None
    title = ct.label if layout.title is True else layout.title or ""
    if layout.corner is True and len(numbers) == 1 and "{" + numbers[0] + "}" in (title or "") \
            and numbers[0] not in dict(stats):
        corner = numbers[0]  # a card's one number, named in its title: its value in the corner
    noun = (ct.component or "card").split()[-1].lower()
    shape = layout.shape or ("round" if noun in ROUND else "square" if noun in SQUARE else "card")
    size = layout.size or ((PIECE_SIZES[shape],) * 2 if shape in PIECE_SIZES else None)
    art = True if layout.art is None else layout.art
    return Roles(layout.title, corner, stats, art, tuple(layout.rules), shape, size)


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float
    size: float  # the font size of the text in it, mm


@dataclass(frozen=True)
class Contents:
    """What the cards of one type hold at most: the face is laid out for the fullest."""
    art: bool = False
    stats: int = 0
    lines: tuple[tuple[str, ...], ...] = ()  # each card's lines
    rules: bool = False
    title: bool = True
    corner: bool = False


@dataclass(frozen=True)
class Face:
    shape: str
    width: float  # mm, the trim
    height: float
    u: float
    frame: Box  # the frame inside the trim (a circle's box, for a round piece)
    band: Box | None  # the title band, where there is one
    title: Box | None
    corner: Box | None  # the badge's square; its text box is the same
    art: Box | None
    stats: Box | None  # a grid of stat_columns × stat_rows cells
    stat_columns: int
    stat_rows: int
    lines: Box | None  # rows of line_height, in one or two columns
    columns: int
    line_height: float
    rules: Box | None
    footer: Box | None  # the card type's name, small, at the bottom

    def view(self) -> SimpleNamespace:
        """The face as plain data for templates (`face.rules.y`)."""
        return SimpleNamespace(**{k: SimpleNamespace(**getattr(self, k).__dict__)
                                  if isinstance(getattr(self, k), Box) else getattr(self, k)
                                  for k in self.__dataclass_fields__})


def face(shape: str, width: float, height: float, contents: Contents) -> Face:
    """The boxes of a face of `shape`, `width` × `height` mm, for `contents`."""
    if shape == "round":
        u = width / 42
        frame = Box(1.2 * u, 1.2 * u, width - 2.4 * u, height - 2.4 * u, 0)
        band = corner = None
        title = Box(0.2 * width, 0.17 * height, 0.6 * width, 5.5 * u, 3.6 * u) if contents.title else None
        top = title.y + title.height + GAP * u if title else 0.2 * height
        bottom, left, right, grow = 0.8 * height, 0.1 * width, 0.9 * width, 2.0
    else:
        u = min(width / 63.5, height / 88.9) if shape == "card" else min(width, height) / 63.5 * 1.1
        inset = 2.6 * u
        frame = Box(inset, inset, width - 2 * inset, height - 2 * inset, 0)
        band = Box(5 * u, 5 * u, width - 10 * u, 10.5 * u, 0)
        corner = Box(4.2 * u, band.y + band.height / 2 - 6.8 * u, 13.6 * u, 13.6 * u, 7.2 * u) \
            if contents.corner else None
        left_edge = 19.5 * u if corner else 7 * u
        title = Box(left_edge, band.y + 1.2 * u, width - left_edge - 7 * u, band.height - 2.4 * u, 4.6 * u) \
            if contents.title else None
        band = band if title or corner else None
        top = band.y + band.height + 2 * u if band else 6 * u
        bottom = height - (7.5 * u if shape == "card" else 5 * u)
        left, right, grow = 7 * u, width - 7 * u, (1.0 if shape == "card" else 1.6)
    parts = _flow(u, top, bottom, left, right, contents, grow)
    footer = Box(0, height - 4.1 * u, width, 2.1 * u, 2.1 * u) if shape == "card" else None
    return Face(shape, width, height, u, frame, band, title, corner, footer=footer, **parts)


def _flow(u, top, bottom, left, right, c: Contents, grow: float) -> dict:
    """Art, stats, lines and rules, top to bottom between `top` and `bottom`: stats and lines
    at their height (up to `grow` times it, centred, where nothing else wants the room), art
    and rules sharing the rest; rules alone are set larger and centred."""
    width = right - left
    distinct = {line for lines in c.lines for line in lines}
    short = sum(textfit.text_width(line, 3.4 * u) <= width / 2 - 1.5 * u for line in distinct)
    columns = 2 if max(map(len, c.lines), default=0) > 3 and short * 2 >= len(distinct) else 1
    line_rows = max((_line_rows(lines, columns, width, 3.4 * u) for lines in c.lines), default=0)
    stat_columns, stat_rows = _stat_grid(c.stats, width, bottom - top, u, alone=not (c.art or c.rules or line_rows))
    heights = {"stats": 10 * u * stat_rows, "lines": line_rows * LINE * u}
    fixed = sum(heights.values()) + GAP * u * (sum(1 for h in heights.values() if h) + c.art + c.rules - 1)
    room, scale = bottom - top - fixed, 1.0
    if not c.art and not c.rules and fixed > 0:
        scale = max(1.0, min(grow, (bottom - top) / fixed))
        top += (bottom - top - fixed * scale) / 2
    heights = {k: h * scale for k, h in heights.items()}
    heights["art"] = (min(34 * u, max(12 * u, room * 0.45)) if c.rules else room) if c.art else 0
    heights["rules"] = room - heights["art"] if c.rules else 0
    sizes = {"stats": 5.5 * u * scale, "lines": 3.4 * u * scale, "rules": 3.5 * u if c.art or fixed else 4.2 * u}
    boxes, y = {}, top
    for name in ("art", "stats", "lines", "rules"):
        if heights[name] > 0:
            boxes[name] = Box(left, y, width, heights[name], sizes.get(name, 0))
            y += heights[name] + GAP * u
    return {"art": boxes.get("art"), "stats": boxes.get("stats"), "stat_columns": stat_columns,
            "stat_rows": stat_rows, "lines": boxes.get("lines"), "columns": columns,
            "line_height": LINE * u * scale, "rules": boxes.get("rules")}


def _stat_grid(n: int, width: float, height: float, u: float, alone: bool) -> tuple[int, int]:
    """Columns and rows for n stats: one row of up to four on a card; where they are all a face
    holds, the grid whose cells are largest."""
    if n == 0:
        return 0, 0
    if not alone:
        rows = 1 if n <= 4 else 2
        return math.ceil(n / rows), rows
    best = max(range(1, n + 1), key=lambda rows: min(height / rows * 0.8, width / math.ceil(n / rows) * 0.42))
    return math.ceil(n / best), best


def _line_rows(lines, columns: int, width: float, size: float) -> int:
    return len(_place_lines(lines, columns, width, size))


def _place_lines(lines, columns: int, width: float, size: float) -> list[list[tuple[str, int, bool]]]:
    """Rows of (line, its span in rows, whether it is in a column): short lines side by side in
    `columns`; a line too long for a column takes a whole row, or two rows when it must wrap."""
    rows: list[list[tuple[str, int, bool]]] = []
    open_row = False
    for line in lines:
        short = columns > 1 and textfit.text_width(line, size) <= width / columns - 1.5 * size / 3.4
        if short and open_row:
            rows[-1].append((line, 1, True))
            open_row = len(rows[-1]) < columns
            continue
        span = 1 if short or textfit.text_width(line, size) <= width else 2
        rows.append([(line, span, short)])
        rows.extend([] for _ in range(span - 1))
        open_row = short
    return rows


def place(face: Face, stats: list, lines: list[str]) -> SimpleNamespace:
    """Where one card's stats and lines go on its type's face (a template draws them there)."""
    placed_stats = []
    if face.stats and stats:
        cols, box = face.stat_columns, face.stats
        cell_w, cell_h = box.width / cols, box.height / face.stat_rows
        for row in range(math.ceil(len(stats) / cols)):
            here = stats[row * cols:(row + 1) * cols]
            x0 = box.x + (box.width - cell_w * len(here)) / 2
            for i, stat in enumerate(here):
                placed_stats.append(SimpleNamespace(icon=stat.icon, value=stat.value, title=stat.title,
                                                    x=x0 + i * cell_w, y=box.y + row * cell_h, width=cell_w,
                                                    height=cell_h, icon_size=min(cell_h * 0.8, cell_w * 0.42)))
    placed_lines = []
    if face.lines:
        box, size = face.lines, face.lines.size
        column_w = box.width / face.columns
        gap = 1.5 * size / 3.4
        for r, row in enumerate(_place_lines(lines, face.columns, box.width, size)):
            for i, (line, span, in_column) in enumerate(row):
                placed_lines.append(SimpleNamespace(
                    text=line, x=box.x + i * column_w * in_column, y=box.y + r * face.line_height,
                    width=column_w - gap if in_column else box.width, height=span * face.line_height,
                    align="left" if in_column else "center"))
    return SimpleNamespace(stats=placed_stats, lines=placed_lines)
