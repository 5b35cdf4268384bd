"""`layout:` on a card type: where its fields go on the printed face.

    layout:
      title: "{name}"          # the face's title: a format, or false (default: the label)
      corner: cost             # a number field in the badge at the top-left (false: none)
      icons: {power: swords}   # number fields printed with an icon, in a row
      art: "a + b ≥ {value}"   # the middle: a format in large letters, true or false
      rules: [symbol]          # fields whose `print:` lines say what the card does
      shape: round             # card, round or square (default: by `component:`)
      size: 30mm               # a piece's diameter or side, or WxHmm
      colour: "#1f4e79"        # its frame's colour

Read and checked here, with every problem at its line; the generators lay
the face out (`generators/layout.py`, docs/printing.md, *Card layouts*).
"""
from __future__ import annotations

import re

from . import ir
from .errors import did_you_mean
from .sections.shapes import NAME, AnyOf, Choice, Key, Keys, ListOf, Named, Scalar, string
from .types import INT
from .yamltree import YList, YMap, YScalar

LAYOUT = Keys("where its fields go on the printed face (docs/printing.md, *Cards*)", (
    Key("title", Scalar(("string", "boolean"), 'the title: a format ("{name}"), or false')),
    Key("corner", Scalar(("string", "boolean"), "a number field in the top-left badge, or false")),
    Key("icons", Named(string("an icon"), "number fields printed with an icon, in a row: {power: swords}")),
    Key("art", Scalar(("string", "boolean"), "the middle: a format in large letters, true or false")),
    Key("rules", AnyOf((ListOf(NAME), NAME), "fields whose `print:` lines say what the card does")),
    Key("shape", Choice(("card", "round", "square"), "default: tokens round, tiles square, the rest cards")),
    Key("size", string("a piece's size: 30mm (a diameter or a side) or WxHmm")),
    Key("colour", Scalar(("string",), "its frame's colour, #rrggbb", pattern="^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$")),
))
SHAPES = LAYOUT.choices("shape")
SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:[x×]\s*(\d+(?:\.\d+)?)\s*)?mm\s*")
SMALLEST, LARGEST = 5, 300  # mm: a piece's side


def read_layout(reader, node, fields: dict, name: str) -> ir.CardLayout | None:
    """The card type's `layout:` (None where it has none); errors at their lines."""
    if node is None:
        return None
    if not isinstance(node, YMap):
        reader.diag.error(node.span, f"layout of '{name}' must be a mapping",
                          "e.g. `layout: {corner: cost, icons: {power: swords}}` (docs/printing.md)")
        return None
    reader.keys(node, LAYOUT, f"the layout of '{name}'")
    numbers = [f for f, t in fields.items() if t == INT]
    spec = {}
    for key in ("title", "art"):
        if key in node.entries:
            spec[key] = _format_or_flag(reader, node.get(key), key, fields)
    corner = node.get("corner")
    if corner is not None:
        spec["corner"] = corner.value if isinstance(corner, YScalar) and corner.value is False \
            else _field(reader, corner, "corner", fields, numbers)
    icons = node.get("icons")
    if icons is not None:
        spec["icons"] = _icons(reader, icons, fields, numbers)
    rules = node.get("rules")
    if rules is not None:
        items = rules.items if isinstance(rules, YList) else [rules]
        spec["rules"] = tuple(f for f in (_field(reader, i, "rules", fields) for i in items) if f is not None)
    if "shape" in node.entries:
        spec["shape"] = reader.choice(node, "shape", SHAPES, None)
    if node.get("size") is not None:
        spec["size"] = _size(reader, node.get("size"))
    colour = node.get("colour")
    if colour is not None:
        text = reader.text(colour, "colour")
        if text is not None and not re.fullmatch(r"#[0-9A-Fa-f]{3}|#[0-9A-Fa-f]{6}", text):
            reader.diag.error(colour.span, f"colour must be written #rrggbb, not '{text}'", 'e.g. colour: "#1f4e79"')
        else:
            spec["colour"] = text
    return ir.CardLayout(**{k: v for k, v in spec.items() if v is not None}, span=node.span)


def _format_or_flag(reader, node, key: str, fields: dict):
    if isinstance(node, YScalar) and isinstance(node.value, bool):
        return node.value
    text = reader.text(node, key)
    for ref in re.findall(r"{(\w+)}", text or ""):
        if ref not in fields:
            reader.diag.error(node.span, f"{key} names unknown field '{ref}'", did_you_mean(ref, fields))
    return text


def _field(reader, node, key: str, fields: dict, allowed: list | None = None) -> str | None:
    name = reader.text(node, f"{key}: a field")
    if name is None:
        return None
    if name not in fields:
        reader.diag.error(node.span, f"{key} names unknown field '{name}'", did_you_mean(name, fields))
        return None
    if allowed is not None and name not in allowed:
        reader.diag.error(node.span, f"{key} must be a number field; '{name}' is not",
                          "number fields: " + (", ".join(allowed) or "none"))
        return None
    return name


def _icons(reader, node, fields: dict, numbers: list) -> tuple:
    if not isinstance(node, YMap):
        reader.diag.error(node.span, "icons must map number fields to icon names", "e.g. icons: {power: swords}")
        return ()
    out = []
    for name, (span, value) in node.entries.items():
        field = _field(reader, YScalar(span=span, value=name), "icons", fields, numbers)
        icon = reader.text(value, "an icon name")
        if field is not None and icon is not None:
            out.append((field, icon))
    return tuple(out)


def _size(reader, node) -> tuple[float, float] | None:
    text = reader.text(node, "size")
    m = SIZE.fullmatch(text) if text is not None else None
    if text is None:
        return None
    if m is None:
        reader.diag.error(node.span, f"size must be written like 30mm or 63x88mm, not '{text}'")
        return None
    w = float(m.group(1))
    h = float(m.group(2) or m.group(1))
    if not (SMALLEST <= w <= LARGEST and SMALLEST <= h <= LARGEST):
        reader.diag.error(node.span, f"a piece of {w:g}×{h:g} mm is too small or too large "
                                     f"({SMALLEST} to {LARGEST} mm a side)")
        return None
    return w, h
