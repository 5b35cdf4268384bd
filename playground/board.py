"""A seat's observation drawn as SVG: boards (grids with their maps and
tiles, graphs with their places and links), then every pile, hand and row.

Everything drawn comes from the observation (`Viewer.observe`): a card the
seat cannot see is a back, with no label and no id. Every text is escaped.
A card or a space an option of the seat's decision names carries that
option's target (`data-target`), which the page makes clickable.
"""
from __future__ import annotations

import hashlib
import math
import textwrap
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

CARD_W, CARD_H, GAP = 74, 100, 8
SPACE = 84  # a grid's space
ROW_CARDS = 9  # cards a zone shows on a line before it wraps
PILE_SHOWN = 6  # a pile of more cards is drawn as a stack, unless an option names a card inside
WIDTH = ROW_CARDS * (CARD_W + GAP) + 20
GRAPH = 800  # the width a graph's places are spread over


@dataclass(frozen=True)
class Shape:
    """What the rules say of a game's table, the same for every state: each zone instance by its
    observation name, its kind and title; boards' sizes, marks and links (terminal.board_drawings)."""
    titles: dict  # zone name -> its title
    kinds: dict  # zone name -> pile, hand, row, area, grid, graph
    instances: dict  # observation name of a zone instance -> its index
    bases: dict  # board name -> its first instance
    columns: dict  # grid name -> columns
    places: dict  # graph name -> its places, in order
    drawings: dict  # board name -> terminal.Drawing


def draw(obs: dict, shape: Shape, targets: dict[str, list[int]]) -> str:
    """The SVG of an observation; `targets` maps `card:ID` / `zone:INDEX` to the options naming it."""
    parts: list[str] = []
    y, width = 10, max([WIDTH] + [60 + c * SPACE for c in shape.columns.values()]
                       + [GRAPH + 160 for _ in shape.places])
    for name, board in obs.get("boards", {}).items():
        title = shape.titles.get(name, name)
        drawn, height = (_graph if isinstance(board, dict) else _grid)(name, board, shape, targets, y + 24)
        parts.append(_text(10, y + 16, title, "title"))
        parts += drawn
        y += 24 + height + 16
    x, row_height = 10, 0.0  # zones side by side, in rows as wide as the board
    for name, cards in obs["zones"].items():
        base, _, owner = name.partition(" of ")
        if base not in shape.titles:
            continue
        title = shape.titles[base] + (f" ({owner.replace('_', ' ')})" if owner else "")
        kind = shape.kinds.get(base, "pile")
        w = max(_zone_width(cards, kind, targets), 8 * len(title) + 10)
        if x > 10 and x + w > width:
            x, y, row_height = 10, y + row_height, 0.0
        drawn, height = _zone(cards, kind, shape.instances.get(name), targets, x, y + 24)
        parts.append(_text(x, y + 16, title, "title"))
        parts += drawn
        x += w + 2 * GAP
        row_height = max(row_height, 24 + height + 12)
    y += row_height
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {width} {y:.0f}" '
            f'width="{width}" height="{y:.0f}">' + "".join(parts) + "</svg>")


def _attrs(target: str | None, targets: dict) -> str:
    if target is None or target not in targets:
        return ""
    return f' data-target={quoteattr(target)} class="target"'


def _text(x: float, y: float, text: str, cls: str = "", anchor: str = "start") -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="{anchor}"' + (f' class="{cls}"' if cls else "")
            + f">{escape(text)}</text>")


def _card(x: float, y: float, card: dict | None, targets: dict, w: int = CARD_W, h: int = CARD_H) -> list[str]:
    """A card face up (its label, its state), or a back."""
    if card is None:
        return [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" class="back"/>']
    target = f"card:{card['id']}"
    out = [f'<g data-card={quoteattr(card["card"])}{_attrs(target, targets)}>',
           f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" class="card'
           + (' down' if card.get("face_down") else '') + '"/>']
    for i, line in enumerate(textwrap.wrap(card["card"], 10 if w >= CARD_W else 7, break_long_words=False)[:4]):
        out.append(_text(x + w / 2, y + 18 + i * 14, line, "label", "middle"))
    if card.get("state"):
        for i, line in enumerate(textwrap.wrap(card["state"], 12, break_long_words=False)[:2]):
            out.append(_text(x + w / 2, y + h - 18 + i * 11, line, "state", "middle"))
    return out + ["</g>"]


def _stacked(cards: list, kind: str, targets: dict) -> bool:
    """A pile of many cards is drawn as a stack, unless an option names a card inside it."""
    named_inside = any(c is not None and f"card:{c['id']}" in targets for c in cards)
    return kind == "pile" and len(cards) > PILE_SHOWN and not named_inside


def _zone_width(cards: list, kind: str, targets: dict) -> float:
    if not cards:
        return CARD_W
    if _stacked(cards, kind, targets):
        return CARD_W + 90
    return min(len(cards), ROW_CARDS) * (CARD_W + GAP) - GAP


def _zone(cards: list, kind: str, zi: int | None, targets: dict, x: float, y: float) -> tuple[list[str], float]:
    zone_target = f"zone:{zi}" if zi is not None else None
    out = [f'<g class="zone"{_attrs(zone_target, targets)}>']
    if not cards:
        out.append(f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="6" class="empty"/>')
        return out + ["</g>"], CARD_H
    if _stacked(cards, kind, targets):
        for i in range(min(3, len(cards))):  # a stack: its top card as seen, and how many
            out += _card(x + 3 * (2 - i), y + 3 * (2 - i), cards[-1] if i == 2 else None, targets)
        out.append(_text(x + CARD_W + 16, y + CARD_H / 2 + 4, f"{len(cards)} cards", "count"))
        return out + ["</g>"], CARD_H + 6
    rows = math.ceil(len(cards) / ROW_CARDS)
    for i, card in enumerate(cards):  # bottom (left) first, as the rules count them
        out += _card(x + (i % ROW_CARDS) * (CARD_W + GAP), y + (i // ROW_CARDS) * (CARD_H + GAP), card, targets)
    return out + ["</g>"], rows * (CARD_H + GAP) - GAP


def _colour(value: str) -> str:
    """A pale colour for a mark's value, the same every time."""
    hue = int(hashlib.sha256(value.encode()).hexdigest()[:4], 16) % 360
    return f"hsl({hue}, 45%, 88%)"


def _chips(x: float, y: float, space: list, w: float, targets: dict) -> list[str]:
    """The cards on a space, small: up to three, then how many more."""
    out = []
    for i, card in enumerate(space[:3]):
        out += _card(x + 4, y + 20 + i * 20, card, targets, int(w - 8), 18) if card is None else \
            _chip(x + 4, y + 20 + i * 20, int(w - 8), card, targets)
    if len(space) > 3:
        out.append(_text(x + w - 6, y + w - 6, f"+{len(space) - 3}", "count", "end"))
    return out


def _chip(x: float, y: float, w: int, card: dict, targets: dict) -> list[str]:
    target = f"card:{card['id']}"
    label = card["card"] + (f" ({card['state']})" if card.get("state") else "")
    return [f'<g data-card={quoteattr(card["card"])}{_attrs(target, targets)}>',
            f'<rect x="{x}" y="{y}" width="{w}" height="18" rx="4" class="chip"/>',
            _text(x + 4, y + 13, label if len(label) <= 13 else label[:12] + "…", "chip-label"),
            f"<title>{escape(label)}</title></g>"]


def _grid(name: str, rows: list, shape: Shape, targets: dict, y: float) -> tuple[list[str], float]:
    drawing = shape.drawings.get(name)
    columns = shape.columns.get(name, len(rows[0]) if rows else 0)
    height = len(rows)
    out = []
    for row_number, row in enumerate(rows, 1):
        for x_number, space in enumerate(row, 1):
            if space is None:
                continue  # a gap of the map
            x0, y0 = 30 + (x_number - 1) * SPACE, y + (height - row_number) * SPACE
            zi = shape.bases[name] + (row_number - 1) * columns + x_number - 1
            mark = drawing.marks.get((x_number, row_number), "") if drawing else ""
            fill = f' fill="{_colour(mark)}"' if mark else ""  # an attribute: the page allows no inline style
            out.append(f'<g class="space"{_attrs(f"zone:{zi}", targets)}>'
                       f'<rect x="{x0}" y="{y0}" width="{SPACE - 4}" height="{SPACE - 4}" rx="4" class="ground"{fill}/>'
                       + _text(x0 + 4, y0 + 13, f"{x_number},{row_number}" + (f" {mark}" if mark else ""), "where")
                       + f"<title>{escape(f'{x_number},{row_number} {mark}'.strip())}</title>")
            out += _chips(x0, y0, space, SPACE - 4, targets)
            out.append("</g>")
    return out, height * SPACE


def _graph(name: str, places: dict, shape: Shape, targets: dict, y: float) -> tuple[list[str], float]:
    drawing = shape.drawings.get(name)
    order = shape.places.get(name, list(places))
    at = layout(order, [(p, q) for p in order for q in (drawing.links.get(p, ()) if drawing else ())])
    box, size = 110, GRAPH
    out = []
    spot = {p: (40 + x * size, y + 10 + yy * (size * 0.6)) for p, (x, yy) in at.items()}
    for p in order:
        for q in drawing.links.get(p, ()) if drawing else ():
            (x1, y1), (x2, y2) = spot[p], spot[q]
            out.append(f'<line x1="{x1 + box / 2:.0f}" y1="{y1 + 30:.0f}" x2="{x2 + box / 2:.0f}" y2="{y2 + 30:.0f}" '
                       'class="link"/>')
    for i, p in enumerate(order):
        x0, y0 = spot[p]
        zi = shape.bases[name] + i
        mark = drawing.marks.get(p, "") if drawing else ""
        fill = f' fill="{_colour(mark)}"' if mark else ""  # an attribute: the page allows no inline style
        cards = places.get(p, [])
        out.append(f'<g class="space"{_attrs(f"zone:{zi}", targets)}>'
                   f'<rect x="{x0:.0f}" y="{y0:.0f}" width="{box}" height="{84}" rx="8" class="ground"{fill}/>'
                   + _text(x0 + 6, y0 + 14, p.replace("_", " ") + (f" · {mark}" if mark else ""), "where")
                   + f"<title>{escape(p.replace('_', ' '))}</title>")
        out += _chips(x0, y0, cards, box, targets)
        out.append("</g>")
    return out, size * 0.6 + 100


def layout(nodes: list[str], edges: list[tuple[str, str]]) -> dict[str, tuple[float, float]]:
    """Places of a graph in the unit square: a force layout from a circle, the same every time."""
    n = len(nodes)
    if n == 0:
        return {}
    pos = {p: [0.5 + 0.45 * math.cos(2 * math.pi * i / n), 0.5 + 0.45 * math.sin(2 * math.pi * i / n)]
           for i, p in enumerate(nodes)}
    k = 0.8 / math.sqrt(n)
    for step in range(120):
        move = {p: [0.0, 0.0] for p in nodes}
        for i, a in enumerate(nodes):
            for b in nodes[i + 1:]:
                dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
                d = max(math.hypot(dx, dy), 1e-3)
                f = k * k / d
                move[a][0] += dx / d * f
                move[a][1] += dy / d * f
                move[b][0] -= dx / d * f
                move[b][1] -= dy / d * f
        for a, b in edges:
            if a == b:
                continue
            dx, dy = pos[a][0] - pos[b][0], pos[a][1] - pos[b][1]
            d = max(math.hypot(dx, dy), 1e-3)
            f = d * d / k
            move[a][0] -= dx / d * f
            move[a][1] -= dy / d * f
            move[b][0] += dx / d * f
            move[b][1] += dy / d * f
        heat = 0.1 * (1 - step / 120) + 0.005
        for p in nodes:
            d = max(math.hypot(*move[p]), 1e-9)
            pos[p][0] += move[p][0] / d * min(d, heat)
            pos[p][1] += move[p][1] / d * min(d, heat)
    xs, ys = [v[0] for v in pos.values()], [v[1] for v in pos.values()]
    span_x, span_y = max(max(xs) - min(xs), 1e-9), max(max(ys) - min(ys), 1e-9)
    return {p: ((v[0] - min(xs)) / span_x, (v[1] - min(ys)) / span_y) for p, v in pos.items()}
