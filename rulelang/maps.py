"""Boards drawn as text: a grid's map, and a graph's places and links.

A grid may give its spaces as a picture — `map:`, one character a space,
the top row first, a blank a gap (no space) — with a `legend:` saying what
each character marks, as values of the board's `marks:` fields:

    marks: {terrain: terrain, pointing: direction}
    map: |
      S..>..B
    legend:
      S: start                       # the only mark field, or
      ">": {terrain: arrow, pointing: east}

A graph is named places joined by links, one chain a line (`a - b - c`,
both ways; `a -> b`, one way). Both give a board's spaces numbered from 0 —
a grid's bottom row first, left to right; a graph's places in the order
listed — which is how the IR keeps them (`ir.Zone.gaps`, `space_marks`,
`places`, `links`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Mapping

from .errors import did_you_mean
from .sections.shapes import NAME, AnyOf, Key, ListOf, Named, Scalar, string
from .types import EnumT, Type
from .yamltree import YList, YMap, YNode, YScalar

MARKS = Key("marks", Named(string("its type"), "the fields a board's spaces are marked with, and their types"))
MAP = (Key("map", string("a grid drawn as text: one character a space, top row first, a blank for no space")),
       Key("legend", Named(AnyOf((Scalar(("string",)), Named(Scalar(("string",))))),
                           "what each character of the map marks: a value, or {mark: value}")),
       MARKS)
GRAPH = (Key("places", AnyOf((ListOf(NAME), Named(AnyOf((Scalar(("null",)), Named(Scalar(("string",))))))),
                             "a graph's places, in order (a list of names, or names with their marks)")),
         Key("links", string("a graph's links, a chain a line: `a - b - c` (both ways), `a -> b` (one way)")))
MAP_KEYS, GRAPH_KEYS = tuple(k.name for k in MAP), tuple(k.name for k in GRAPH)
_LINK = re.compile(r"\s*(->|<-|-)\s*")


@dataclass
class Drawn:
    """What a map or a graph says about a board."""
    columns: int = 0
    rows: int = 0
    gaps: frozenset[int] = frozenset()
    marks: Mapping[str, Type] = field(default_factory=dict)
    space_marks: tuple[dict, ...] = ()
    places: tuple[str, ...] = ()
    links: tuple[tuple[int, int], ...] = ()
    picture: tuple[str, ...] = ()  # a grid's map as drawn, a line a row (top first), padded with blanks


def read_marks(reader, name: str, spec: YMap, enums) -> dict[str, EnumT]:
    """`marks: {terrain: terrain_type}`: the fields a board's spaces are marked with (values of types)."""
    marks: dict[str, EnumT] = {}
    for mark, (span, value) in reader.entries(spec.get("marks"), "marks"):
        tname = reader.text(value, "a type")
        if tname not in enums:
            if tname in reader.refused:  # (said where it was declared)
                continue
            reader.diag.error(value.span if value is not None else span, f"board '{name}': unknown type '{tname}'",
                              did_you_mean(str(tname), enums) or "a mark's values are those of a type from `types:`")
        else:
            marks[mark] = EnumT(tname)
    return marks


def read_grid_map(reader, name: str, spec: YMap, enums) -> Drawn | None:
    """A grid's `map:` and `legend:`; None if it has no map."""
    node = spec.get("map")
    if node is None:
        for key in ("legend", "marks"):
            if spec.get(key) is not None:
                reader.diag.error(spec.value_span(key), f"`{key}:` goes with a `map:` of the board")
        return None
    if not isinstance(node, YScalar) or not isinstance(node.value, str) or not node.value.strip():
        reader.diag.error(node.span, f"board '{name}': a map is text, one character a space",
                          "write it after `map: |`, a line a row, top row first")
        return None
    marks = read_marks(reader, name, spec, enums)
    legend = read_legend(reader, name, spec.get("legend"), marks, enums)
    lines = node.value.rstrip("\n").split("\n")
    columns, rows = max(len(line) for line in lines), len(lines)
    if columns * rows > reader.limits.board_spaces:
        reader.diag.error(node.span, f"board '{name}' has {columns * rows:,} spaces, more than "
                                     f"{reader.limits.board_spaces:,}")
        return None
    gaps: set[int] = set()
    space_marks: list[dict[str, str]] = [{} for _ in range(columns * rows)]
    for i, line in enumerate(lines):
        y = rows - i  # the top line is the top row
        for j, char in enumerate(line.ljust(columns)):
            index = (y - 1) * columns + j
            if char == " ":
                gaps.add(index)
            elif char not in legend:
                reader.diag.error(node.span_at(i + 1, j + 1), f"board '{name}': '{char}' is not in the legend",
                                  f"add it: `legend: {{{_quoted(char)}: ...}}`, or use a blank for no space")
            else:
                space_marks[index] = legend[char]
    if len(gaps) == columns * rows:
        reader.diag.error(node.span, f"board '{name}': the map has no space")
    return Drawn(columns, rows, frozenset(gaps), marks, tuple(space_marks),
                 picture=tuple(line.ljust(columns) for line in lines))


def read_legend(reader, name: str, node: YNode | None, marks: dict[str, EnumT], enums) -> dict[str, dict]:
    """`legend: {S: start, ">": {terrain: arrow, pointing: east}}`: a character's marks."""
    legend = {}
    for char, (span, value) in reader.entries(node, "legend"):
        if len(char) != 1 or char == " ":
            reader.diag.error(span, f"board '{name}': a legend names one character, not '{char}'",
                              "a blank is always a gap")
            continue
        given = value.entries.items() if isinstance(value, YMap) else \
            [(next(iter(marks)), (span, value))] if len(marks) == 1 else None
        if given is None:
            reader.diag.error(span, f"board '{name}': say which marks '{char}' sets",
                              f"e.g. `{_quoted(char)}: {{{', '.join(f'{m}: ...' for m in marks) or 'terrain: ...'}}}` "
                              "with the board's `marks:` declared")
            continue
        legend[char] = _marked(reader, name, given, marks, enums)
    return legend


def _marked(reader, name: str, given, marks: dict[str, EnumT], enums) -> dict[str, str]:
    """A space's marks, `(mark, (span, value node))` each, checked against the board's `marks:`."""
    values = {}
    for mark, (mspan, mvalue) in given:
        text = reader.text(mvalue, "a mark")
        if mark not in marks:
            reader.diag.error(mspan, f"board '{name}' has no mark '{mark}'", did_you_mean(mark, marks)
                              or "declare it under the board's `marks:`")
        elif text not in enums[marks[mark].name].values:
            allowed = enums[marks[mark].name].values
            reader.diag.error(mvalue.span if mvalue is not None else mspan, f"'{text}' is not a {marks[mark].name}",
                              did_you_mean(str(text), allowed) or f"one of: {', '.join(allowed)}")
        else:
            values[mark] = text
    return values


def read_graph(reader, name: str, spec: YMap, enums) -> Drawn:
    """A graph's `places:` (a list of names, or names with their marks) and `links:`."""
    places_node = spec.get("places")
    marks = read_marks(reader, name, spec, enums)
    places, space_marks, named = [], [], set()  # the set: a graph of thousands of places is read in linear time
    entries = places_node.items if isinstance(places_node, YList) else \
        list(places_node.entries.items()) if isinstance(places_node, YMap) else None
    if not entries:
        reader.diag.error((places_node or spec).span, f"graph '{name}' needs its `places:`, a list of names",
                          "e.g. `places: [room_1, room_2, room_3]`")
        return Drawn()
    for entry in entries:
        place, given = (reader.text(entry, "a place"), {}) if isinstance(entry, YNode) else (entry[0], entry[1][1])
        span = entry.span if isinstance(entry, YNode) else entry[1][0]
        if not place or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", place) or place in named:
            reader.diag.error(span, f"graph '{name}': a place needs a name of its own, not '{place}'")
            continue
        places.append(place)
        named.add(place)
        space_marks.append(_marked(reader, name, given.entries.items() if isinstance(given, YMap) else (), marks,
                                   enums))
    links = read_links(reader, name, spec.get("links"), places)
    if len(places) > reader.limits.board_spaces:
        reader.diag.error(spec.value_span("places"), f"graph '{name}' has {len(places):,} places, more than "
                                            f"{reader.limits.board_spaces:,}")
    return Drawn(0, 0, frozenset(), marks, tuple(space_marks), tuple(places), links)


def read_links(reader, name: str, node: YNode | None, places: list[str]) -> tuple[tuple[int, int], ...]:
    """`a - b - c` (both ways) and `a -> b` (one way), a chain a line; `#` starts a comment."""
    if node is None:
        return ()
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        reader.diag.error(node.span, f"graph '{name}': links are text, a chain a line: `a - b - c`")
        return ()
    index = {p: i for i, p in enumerate(places)}
    links: dict[tuple[int, int], None] = {}  # in the order written, each once
    for n, line in enumerate(node.value.split("\n"), 1):
        text = line.split("#", 1)[0]
        if not text.strip():
            continue
        parts = _LINK.split(text.strip())
        names, arrows = parts[0::2], parts[1::2]
        col = len(line) - len(line.lstrip()) + 1
        for part in names:
            if part not in index:
                where = node.span_at(n, line.find(part) + 1 if part and part in line else col)
                reader.diag.error(where, f"graph '{name}' has no place '{part}'" if part else
                                  f"graph '{name}': a link joins two places", did_you_mean(part, places))
        if any(part not in index for part in names):
            continue
        for a, arrow, b in zip(names, arrows, names[1:]):
            pairs = {"-": [(a, b), (b, a)], "->": [(a, b)], "<-": [(b, a)]}[arrow]
            links.update(((index[x], index[y]), None) for x, y in pairs)
    return tuple(links)


def _quoted(char: str) -> str:
    return char if char.isalnum() else f'"{char}"'
