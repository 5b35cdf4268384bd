"""What the YAML of one file declares and names, read from its own tree.

The checked IR says what the rules mean; this module says where a file
writes each name, which the IR cannot: a variant that overrides a zone
writes it again in its own file, an `applies_to:` names a step, a zone's
`holds:` names card types. It reads one file's YAML (not the merged tree of
a variant), so every place is where that file writes it, and it works on a
file whose rules do not check.

The file format's vocabulary is data here: which mapping declares which
kind of name (`DECLARES`) and which value names which kind (`NAMES`).
Where rules text is comes from the JSON Schema (`rulelang.schema`).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rulelang.schema import schema
from rulelang.yamltree import YList, YMap, YNode, YScalar

from .places import WORD, Place

# a pattern is a path of the YAML: "*" any key, "#" any list item; the last element
# names what the key (or a list item, or a `step:`/`id:` value) declares
Path = tuple

DECLARES: tuple[tuple[Path, str, int | None], ...] = (  # (pattern, kind, which key of the path owns it)
    (("zones", "*"), "zone", None),
    (("zones", "*", "places", "#"), "value", 1),  # a graph's places: a type named after it
    (("zones", "*", "places", "*"), "value", 1),
    (("zones", "*", "marks", "*"), "mark", 1),
    (("cards", "*"), "card type", None),
    (("cards", "*", "fields", "*"), "field", 1),
    (("cards", "*", "fields", "*", "#"), "value", 3),  # a field's own values: a type named after it
    (("cards", "*", "state", "*"), "field", 1),
    (("vars", "*"), "variable", None),
    (("params", "*"), "parameter", None),
    (("players",), "parameter", None),
    (("params", "*", "choices", "#"), "value", 1),
    (("define", "*"), "define", None),
    (("procedures", "*"), "procedure", None),
    (("dice", "*"), "die", None),
    (("events", "*"), "event", None),
    (("abilities", "*"), "ability", None),
    (("types", "*"), "type", None),
    (("types", "*", "#"), "value", 1),
    (("types", "*", "values", "#"), "value", 1),
    (("roles", "#"), "role", None),
    (("roles", "*"), "role", None),
    (("players", "names", "#"), "role", None),
    (("modes", "*"), "mode", None),
    (("modes", "*", "round", "#", "step"), "step", None),
    (("modes", "*", "round", "#", "insert"), "step", None),
    (("rulings", "#", "id"), "ruling", None),
)

# values that name something declared elsewhere: one name, or a list of names
NAMES: tuple[tuple[Path, tuple[str, ...]], ...] = (
    (("zones", "*", "holds"), ("card type",)),
    (("zones", "*", "owner"), ("role",)),
    (("modes", "*", "roles"), ("role",)),
    (("modes", "*", "extends"), ("mode",)),
    (("modes", "*", "watch", "#", "then"), ("step",)),
    (("modes", "*", "quick", "#", "steps"), ("step",)),
    (("modes", "*", "round", "#", "replace"), ("step",)),
    (("modes", "*", "round", "#", "remove"), ("step",)),
    (("modes", "*", "round", "#", "before"), ("step",)),
    (("modes", "*", "round", "#", "after"), ("step",)),
    (("rulings", "#", "applies_to"), ("mode", "step")),
    (("rulings", "#", "remove"), ("ruling",)),
    (("cards", "*", "abilities"), ("ability",)),
    (("abilities", "*", "on"), ("event",)),
    (("vars", "*", "type"), ("type", "card type")),
    (("cards", "*", "fields", "*"), ("type",)),
)
KEY_NAMES: tuple[tuple[Path, str], ...] = (
    (("modes", "*", "visibility", "*"), "zone"),
    (("modes", "*", "score", "*"), "role"),
    (("modes", "*", "heuristics", "*"), "role"),
)
BUILT_IN_TYPES = frozenset({"number", "int", "text", "bool", "role", "card", "zone", "board"})
SIGNATURE = re.compile(r"\s*([A-Za-z_]\w*)")  # `meets(t, a, b)`: the name before the parameters


@dataclass(frozen=True)
class Written:
    """A name written in a file: declared there (`declares`), or named by a YAML value."""
    kinds: tuple[str, ...]  # what it may be (an `applies_to:` names a mode or a step)
    name: str
    owner: str  # a field's card type, a value's type; "" for names of the whole ruleset
    place: Place
    declares: bool


@dataclass(frozen=True)
class RulesText:
    """A YAML string holding rules: `kind` is "statements" or "expression"."""
    path: Path
    node: YScalar
    kind: str


def nodes(root: YNode) -> Iterator[tuple[Path, YNode, Place | None]]:
    """Every node of a tree with its path, and the place of its key (None for list items and the root)."""
    stack: list[tuple[Path, YNode, Place | None]] = [((), root, None)]
    while stack:
        path, node, key = stack.pop()
        yield path, node, key
        if isinstance(node, YMap):
            stack.extend(((*path, k), v, Place.of(span)) for k, (span, v) in reversed(node.entries.items()))
        elif isinstance(node, YList):
            stack.extend(((*path, i), v, None) for i, v in reversed(list(enumerate(node.items))))


def matches(path: Path, pattern: Path) -> bool:
    return len(path) == len(pattern) and all(
        p == "*" and isinstance(k, str) or p == "#" and isinstance(k, int) or p == k for k, p in zip(path, pattern))


def written(root: YNode) -> list[Written]:
    """Every name the file declares or names in its YAML."""
    out: list[Written] = []
    for path, node, key in nodes(root):
        for pattern, kind, owner in DECLARES:
            if matches(path, pattern):
                named_by_key = key if pattern[-1] == "*" else None  # else by the value (`step: Draw`, a list item)
                out += _declared(str(path[-1]), node, named_by_key, kind, str(path[owner]) if owner is not None else "")
        for pattern, kinds in NAMES:
            if matches(path, pattern):
                items = node.items if isinstance(node, YList) and "type" not in kinds else [node]
                out += [w for item in items for w in _named(item, kinds, owner="")]
        for pattern, kind in KEY_NAMES:
            if matches(path, pattern) and key is not None:
                out.append(Written((kind,), str(path[-1]), "", key, False))
    return out


def _declared(last: str, node: YNode, key: Place | None, kind: str, owner: str) -> list[Written]:
    if key is not None:  # a mapping's key: the name (of a signature: before its parameters)
        m = SIGNATURE.match(last)
        if not m:
            return []
        place = Place(key.file, key.line, key.col + m.start(1), key.line, key.col + m.end(1))
        return [Written((kind,), m.group(1), owner, place, True)]
    return [Written(w.kinds, w.name, w.owner, w.place, True) for w in _named(node, (kind,), owner)]


def _named(node: YNode, kinds: tuple[str, ...], owner: str) -> list[Written]:
    free = {"step", "ruling", "mode"} & set(kinds)  # named by text (a mode also by its title)
    if not isinstance(node, YScalar) or not isinstance(node.value, str) or not node.value.strip() \
            or not free and not WORD.fullmatch(node.value.strip()) or "type" in kinds and node.value in BUILT_IN_TYPES:
        return []
    place = Place.of(node.span)
    return [Written(kinds, node.value.strip(), owner, place, False)]


# ------------------------------------------------------------------ rules text, by the schema


def rules_texts(root: YNode) -> list[RulesText]:
    """Every YAML string that holds rules, found by walking the tree beside the schema."""
    out: list[RulesText] = []
    stack: list[tuple[Path, YNode, dict]] = [((), root, schema())]
    while stack:
        path, node, sch = stack.pop()
        for alt in _alternatives(sch, node):
            kind = alt.get("x-rules")
            if kind and isinstance(node, YScalar) and isinstance(node.value, str):
                out.append(RulesText(path, node, kind))
            elif isinstance(node, YMap):
                for k, (_, v) in node.entries.items():
                    sub = alt.get("properties", {}).get(k, alt.get("additionalProperties"))
                    if isinstance(sub, dict):
                        stack.append(((*path, k), v, sub))
            elif isinstance(node, YList) and isinstance(alt.get("items"), dict):
                stack.extend(((*path, i), v, alt["items"]) for i, v in enumerate(node.items))
    return sorted(out, key=lambda r: (r.node.span.line, r.node.span.col))


def schema_at(path: Path) -> list[dict]:
    """The schema's alternatives for the value at a path (mapping keys and list items by their kind)."""
    found = [schema()]
    for k in path:
        nxt = []
        for sch in found:
            for alt in _alternatives(sch, None):
                if isinstance(k, int) and isinstance(alt.get("items"), dict):
                    nxt.append(alt["items"])
                elif isinstance(k, str) and alt.get("type") == "object":
                    sub = alt.get("properties", {}).get(k, alt.get("additionalProperties"))
                    if isinstance(sub, dict):
                        nxt.append(sub)
        found = nxt
    return found


def alternatives(sch: dict) -> list[dict]:
    """A schema's alternatives (`anyOf`, `oneOf`), flattened; a schema without any is its own."""
    choices = sch.get("anyOf") or sch.get("oneOf")
    return [a for alt in choices for a in alternatives(alt)] if choices else [sch]


def _alternatives(sch: dict, node: YNode | None) -> list[dict]:
    """The alternatives that fit the node's shape (all of them for no node)."""
    if node is None:
        return alternatives(sch)
    shape = "object" if isinstance(node, YMap) else "array" if isinstance(node, YList) else "scalar"
    out = []
    for alt in alternatives(sch):
        types = alt.get("type", [])
        types = [types] if isinstance(types, str) else types
        if shape in types or shape == "scalar" and (set(types) - {"object", "array"} or "enum" in alt):
            out.append(alt)
    return out


def path_above(lines: list[str], line: int, indent: int) -> tuple:
    """The YAML path (keys, and list items as 0) of what a line indented by `indent` is inside, read
    from the lines above it by their indentation: it works on YAML that does not parse (being typed)."""
    path: list = []
    for above in reversed(lines[:line - 1]):
        if not above.strip() or above.lstrip().startswith("#"):
            continue
        lead = len(above) - len(above.lstrip(" "))
        if lead >= indent:
            continue  # a sibling, or inside one
        m = re.match(r"(\s*)(-\s+)?(?:([^\s:#][^:#]*?)\s*:(?:\s|$))?", above)
        content = lead + len(m.group(2) or "")
        if m.group(2) and content <= indent:  # in this list item's mapping
            path.append(0)
        if m.group(3) and content < indent:
            path.append(m.group(3))
        indent = lead
        if lead == 0:
            break
    return tuple(reversed(path))
