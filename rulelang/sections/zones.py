"""`zones:`: piles, rows, hands and areas, and boards (grids and graphs, read by `maps`)."""
from __future__ import annotations

from .. import ir
from ..limits import over
from ..maps import GRAPH, GRAPH_KEYS, MAP, MAP_KEYS, Drawn, read_graph, read_grid_map
from ..yamltree import YList, YMap, YNode, YScalar
from .reader import Reader
from .shapes import ASSUMED, AnyOf, Choice, Key, Keys, ListOf, Scalar, string

ZONE_SPEC = Keys("a place for cards", (
    Key("owner", string("a role, or `each` for one zone per role (`hand of p`)")),
    Key("facing", Choice(("up", "down"), "how cards are turned when they enter")),
    Key("seen_by", Choice(("all", "owner", "none"), "who sees its face-up cards")),
    Key("holds", AnyOf((Scalar(("string",)), ListOf(Scalar(("string",)))), "the card types allowed in it")),
    Key("kind", Choice(("pile", "row", "hand", "area", "grid", "graph"),
                       "how it is shown and described; `grid` makes a board of columns × rows spaces, "
                       "`graph` a board of places joined by links")),
    Key("text", string("its name for players")), Key("assumed", ASSUMED),
    Key("columns", Scalar(("integer",), "a grid's number of columns", minimum=1)),
    Key("rows", Scalar(("integer",), "a grid's number of rows", minimum=1)),
    Key("article", Choice(("the", "none"), "`none` for a name printed without `the`")),
    *MAP, *GRAPH,
))
ZONE = AnyOf((Scalar(("null",)), ZONE_SPEC))


def read_zones(reader: Reader, node: YNode | None, roles, card_types, enums) -> dict[str, ir.Zone]:
    zones = {}
    role_names = [r.name for r in roles]
    for name, (span, value) in reader.entries(node, "zones"):
        spec = value if isinstance(value, YMap) else YMap(span=span)
        empty = isinstance(value, YScalar) and value.value is None
        if value is not None and not isinstance(value, YMap) and not empty:
            reader.diag.error(value.span, f"zone '{name}' must be a mapping like {{facing: down}}")
        reader.keys(spec, ZONE_SPEC, f"zone '{name}'")
        owner = reader.text(spec.get("owner"), "owner")
        if owner is not None and owner != "each" and owner not in role_names:
            reader.unknown(spec.value_span("owner"), "role", owner, role_names + ["each"])
        facing = reader.choice(spec, "facing", ZONE_SPEC.choices("facing"), "up")
        seen_by = reader.choice(spec, "seen_by", ZONE_SPEC.choices("seen_by"), "all")
        kind = reader.choice(spec, "kind", ZONE_SPEC.choices("kind"), "pile")
        drawn = board(reader, name, spec, kind, owner, enums)
        if seen_by == "owner" and owner is None:
            reader.diag.error(spec.value_span("seen_by"), f"zone '{name}' is seen by its owner but has no owner")
        holds = []
        holds_node = spec.get("holds")
        if holds_node is not None:
            items = holds_node.items if isinstance(holds_node, YList) else [holds_node]
            for item in items:
                t = reader.text(item, "a card type")
                if t is not None and t not in card_types:
                    reader.unknown(item.span, "card type", t, card_types)
                elif t is not None:
                    holds.append(t)
        if reader.declare(name, "zone", span):
            zones[name] = ir.Zone(name, owner, facing, seen_by, tuple(holds), kind,
                                  reader.text(spec.get("text"), "text"), columns=drawn.columns, rows=drawn.rows,
                                  assumed=reader.assumed(spec), article=reader.article(spec, ("the", "")),
                                  gaps=drawn.gaps, marks=ir.frozen_map(drawn.marks),
                                  space_marks=tuple(ir.frozen_map(m) for m in drawn.space_marks),
                                  places=drawn.places, links=drawn.links, picture=drawn.picture,
                                  span=span)
            if drawn.places:  # a graph's place names are a type named after it
                enums.setdefault(name, ir.EnumDef(name, drawn.places, span=span))
    if "box" in zones:
        reader.diag.error(zones["box"].span, "'box' is the built-in zone that holds unused components")
    return zones


def board(reader: Reader, name: str, spec: YMap, kind: str, owner, enums) -> Drawn:
    """A board's spaces: a grid's size (or its map), a graph's places and links."""
    keys = {"grid": ("columns", "rows", *MAP_KEYS), "graph": (*GRAPH_KEYS, "marks")}.get(kind, ())
    for key in ("columns", "rows", *MAP_KEYS, *GRAPH_KEYS):
        if key not in keys and spec.get(key) is not None:
            needs = "kind: graph" if key in GRAPH_KEYS else "kind: grid"
            reader.diag.error(spec.value_span(key), f"only a {needs.split()[1]} has {key}",
                            f"add `{needs}` to zone '{name}'")
    if kind in ("grid", "graph") and owner == "each":
        reader.diag.error(spec.value_span("owner"), f"a {kind} cannot belong to each role (yet)",
                        f"declare one {kind} per role")
    if kind == "graph":
        return read_graph(reader, name, spec, enums)
    if kind != "grid":
        return Drawn()
    drawn = read_grid_map(reader, name, spec, enums)
    if drawn is not None:
        for key in ("columns", "rows"):
            if spec.get(key) is not None:
                reader.diag.error(spec.value_span(key), f"a board drawn as a map takes its {key} from the map")
        return drawn
    return Drawn(*grid_size(reader, name, spec))


def grid_size(reader: Reader, name: str, spec: YMap) -> tuple[int, int]:
    """A grid without a map needs `columns:` and `rows:`."""
    size = []
    for key in ("columns", "rows"):
        node = spec.get(key)
        value = node.value if isinstance(node, YScalar) else None
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            reader.diag.error((node or spec).span, f"grid '{name}' needs `{key}:` a whole number of at least 1")
            value = 1
        size.append(value)
    if size[0] * size[1] > reader.limits.board_spaces:
        reader.diag.error(spec.span, f"grid '{name}' has {size[0] * size[1]:,} spaces, more than "
                        f"{reader.limits.board_spaces:,}",
                        over("a board is rarely larger than a few hundred spaces", reader.limits.board_spaces,
                             "board_spaces"))
        size = [1, 1]
    return size[0], size[1]
