"""The outline of a ruleset file: its modes and their steps, defines,
procedures, card types and their fields, zones, variables, parameters,
events, abilities and rulings — read from the file's own YAML, so a file
whose rules do not check still has one."""
from __future__ import annotations

from dataclasses import dataclass

from rulelang.yamltree import YList, YMap, YNode, YScalar

from .places import Place
from .yamlnames import SIGNATURE

# top-level sections whose entries the outline lists, the kind of each entry, and the mapping under an entry
# whose keys are its children
SECTIONS = {"modes": ("mode", None), "define": ("define", None), "procedures": ("procedure", None),
            "cards": ("card type", "fields"), "zones": ("zone", None), "vars": ("variable", None),
            "params": ("parameter", None), "events": ("event", None), "abilities": ("ability", None),
            "types": ("type", None), "dice": ("die", None)}


@dataclass(frozen=True)
class Outline:
    name: str
    kind: str
    place: Place  # the whole entry
    name_place: Place  # its name
    detail: str = ""
    children: tuple[Outline, ...] = ()


def outline(analysis) -> list[Outline]:
    root = analysis.reading.own
    if not isinstance(root, YMap):
        return []
    out = []
    for section, (span, node) in root.entries.items():
        if section == "rulings" and isinstance(node, YList):
            out.append(_entry("rulings", "section", span, node, tuple(_rulings(node))))
        elif section == "setup":
            out.append(_entry("setup", "setup", span, node))
        elif section in SECTIONS and isinstance(node, YMap):
            kind, below = SECTIONS[section]
            entries = tuple(_item(name, kind, key, value, below) for name, (key, value) in node.entries.items())
            out.append(_entry(section, "section", span, node, entries))
    return out


def _item(key: str, kind: str, key_span, value: YNode, below: str | None) -> Outline:
    m = SIGNATURE.match(key)
    name = m.group(1) if m else key
    children: tuple[Outline, ...] = ()
    if kind == "mode" and isinstance(value, YMap):
        children = tuple(_steps(value))
    elif below and isinstance(value, YMap) and isinstance(value.get(below), YMap):
        children = tuple(_entry(f, "field", s, v) for f, (s, v) in value.get(below).entries.items())
    return _entry(name, kind, key_span, value, children, detail=key[len(name):].strip() if m else "")


def _steps(mode: YMap):
    round_ = mode.get("round")
    for item in round_.items if isinstance(round_, YList) else ():
        if not isinstance(item, YMap):
            continue
        for word in ("step", "insert", "replace"):
            named = item.get(word)
            if isinstance(named, YScalar) and named.value is not None:
                yield _entry(str(named.value), "step", named.span, item, detail="" if word == "step" else word)
                break


def _rulings(rulings: YList):
    for item in rulings.items:
        rid = item.get("id") if isinstance(item, YMap) else None
        if isinstance(rid, YScalar) and rid.value is not None:
            yield _entry(str(rid.value), "ruling", rid.span, item)


def _entry(name: str, kind: str, name_span, value: YNode | None, children=(), detail: str = "") -> Outline:
    """An entry from its name's span to the end of its value."""
    named = Place.of(name_span)
    whole = named
    if value is not None and value.span is not None:
        end = Place.of(value.span)
        whole = Place(named.file, named.line, named.col, *max((named.end_line, named.end_col),
                                                               (end.end_line, end.end_col)))
    return Outline(name, kind, whole, named, detail, tuple(children))
