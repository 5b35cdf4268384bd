"""Completion: what may be written at a position.

In rules text, the names in scope there — locals bound around the cursor, the
fields of a card after `c.`, variables, zones, roles, defines and procedures
with their parameters, card types after `is`, dice after `roll`, events after
`trigger` — and the language's words. Elsewhere, the YAML keys the schema
allows at that place, and the values a key takes (`holds:` card types,
`owner:` roles, `facing:` up or down).

The text being typed rarely parses. The scope is found by reading the file
again with the word at the cursor replaced by a name of our own (`PROBE`),
trying the rest of the line and the lines below as written, then without
them, until the rules read; the checked IR then says what is bound around
the probe and, after a dot, the type of what comes before it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rulelang import ir
from rulelang.builtins import BUILTINS
from rulelang.parser import KEYWORDS, Origin, ParseError, parse_block, parse_expression
from rulelang.types import CardT, ZoneT

from .places import Place
from .reading import read
from .symbols import Symbol, Texts, Walker
from .yamlnames import NAMES, alternatives, matches, path_above, schema_at

PROBE = "__here__"  # no ruleset's name: names starting with __ are never declared
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # a symbol's kind, "keyword" or "key"
    detail: str = ""  # its type or signature
    insert: str | None = None  # what to write, where it is not the label (a call's parentheses)
    documentation: str | None = None


def completions(analysis, line: int, col: int) -> list[Completion]:
    if any(_inside(rt.node, line, col) for rt in analysis.rules_texts):
        return _rules(analysis, line, col)
    return _yaml(analysis, line, col, analysis.ruleset or _without_line(analysis, line))


def _without_line(analysis, line: int) -> ir.Ruleset | None:
    """The names of a file whose YAML breaks at the line being typed: read without that line."""
    lines = list(analysis.text.lines)
    lines[line - 1] = ""
    return read("\n".join(lines), analysis.path, analysis.reading.limits, analysis.reading.extends_dirs).ruleset


def _inside(node, line: int, col: int) -> bool:
    place = Place.of(node.span)
    first = node.text_line or place.line  # a block's text starts below its `|`
    return place.holds(line, col) and line >= first


# ------------------------------------------------------------------ rules text


def _rules(analysis, line: int, col: int) -> list[Completion]:
    text = analysis.text.lines[line - 1] if line <= len(analysis.text.lines) else ""
    before = text[:col - 1]
    prefix = IDENT.search(before)
    start = before[:len(before) - len(prefix.group())] if prefix else before
    after = re.sub(r"^[A-Za-z0-9_]*", "", text[col - 1:])
    words = start.split()
    last = words[-1] if words else ""
    kinds = ("card type",) if last in ("is", "not") and "is" in words[-2:] else \
        ("die",) if "roll" in words[-2:] else ("event",) if last in ("trigger", "window") else None
    if kinds is not None:  # a word that names one kind of thing follows
        rs = analysis.ruleset or _without_line(analysis, line)
        return [c for c in _globals(rs, True) if c.kind in kinds]
    probe = _probe(analysis, line, start, after)
    if start.endswith("."):
        return _members(probe)
    found = _locals(probe) + _globals(probe.ruleset if probe is not None else analysis.ruleset, not start.strip())
    return found + [Completion(k, "keyword") for k in sorted(KEYWORDS)]


@dataclass
class _Probe:
    scope: dict[str, Symbol]
    node: ir.Node | None  # the probe's checked node
    ruleset: ir.Ruleset | None


def _probe(analysis, line: int, start: str, after: str) -> _Probe | None:
    """The scope at the cursor, from the file read with the probe written there:
    with the rest of the line, without it, opening a block (`if c.x: pass`), with
    the lines below and without them, until the rules read."""
    lines = list(analysis.text.lines)
    here = next((rt for rt in analysis.rules_texts if _inside(rt.node, line, 1)), None)
    below = range(line + 1, min(_last_line(here.node), len(lines)) + 1) if here else range(0)
    written = start + PROBE + ("()" if not start.strip() else "")
    closers = _closers(start)
    for blank in (False, True):
        for tail in (after, closers, closers + ": pass"):
            trial = list(lines)
            trial[line - 1] = written + tail
            for n in below if blank else ():
                trial[n - 1] = ""
            if here is not None and not _parses(here, trial):
                continue
            reading = read("\n".join(trial), analysis.path, analysis.reading.limits, analysis.reading.extends_dirs)
            found = _Finder(reading.ruleset, Texts()).find() if reading.ruleset is not None else None
            if found is not None:
                return _Probe(found[0], found[1], reading.ruleset)
    return None


def _closers(text: str) -> str:
    """What closes the brackets a line leaves open (`if empty(ha` needs a `)`)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"?', "", text)
    stack = []
    for c in text:
        if c in "([":
            stack.append(")" if c == "(" else "]")
        elif c in ")]" and stack:
            stack.pop()
    return "".join(reversed(stack))


def _last_line(node) -> int:
    """The last line of a scalar's text (a block's span ends where the next key starts)."""
    if node.style in ("|", ">") and node.text_line:
        return node.text_line + len(node.rows) - 1
    return Place.of(node.span).end_line


def _parses(rt, lines: list[str]) -> bool:
    """Whether a `|` block's rules, as these lines have them, parse (other texts: read to know)."""
    if rt.node.style != "|" or not rt.node.text_line:
        return True
    first = rt.node.text_line
    value = "\n".join(text[rt.node.text_col - 1:] for text in lines[first - 1:first - 1 + len(rt.node.rows)])
    parse = parse_block if rt.kind == "statements" else parse_expression
    try:
        parse(value, Origin(lambda *place: None))
    except ParseError:
        return False
    return True


class _Finder(Walker):
    """Walks the rules until the probe, and keeps the scope there."""

    def find(self):
        self.found_probe = None
        self.ruleset()
        return self.found_probe

    def node(self, n, scope):
        name = getattr(n, "name", None)
        if name == PROBE and self.found_probe is None:
            self.found_probe = (dict(scope), n)
        super().node(n, scope)


def _locals(probe: _Probe | None) -> list[Completion]:
    if probe is None:
        return []
    return [Completion(name, "local", "bound here") for name in sorted(probe.scope)]


def _members(probe: _Probe | None) -> list[Completion]:
    """The fields of the card before the dot (every field its types share first), or a board space's marks."""
    if probe is None or not isinstance(probe.node, ir.Field):
        return []
    rs, ty = probe.ruleset, probe.node.obj.ty
    if isinstance(ty, ZoneT) and ty.board is not None and ty.board in rs.zones:
        return [Completion(m, "mark", str(t)) for m, t in rs.zones[ty.board].marks.items()]
    if not isinstance(ty, CardT):
        return []
    kinds = sorted(ty.kinds or rs.card_types)
    fields: dict[str, list[str]] = {}
    types: dict[str, str] = {}
    for kind in kinds:
        ct = rs.card_types[kind]
        for f in (*ct.fields, *ct.state):
            fields.setdefault(f.name, []).append(kind)
            types[f.name] = str(f.type)
    shared = [Completion(f, "field", types[f]) for f, ks in fields.items() if len(ks) == len(kinds)]
    some = [Completion(f, "field", f"{types[f]} (only on {', '.join(ks)})") for f, ks in fields.items()
            if len(ks) < len(kinds)]
    return shared + some


def _globals(rs: ir.Ruleset | None, statement: bool) -> list[Completion]:
    """Every name of the ruleset a rule may use; procedures only where a statement starts."""
    if rs is None:
        return []
    out = [Completion(n, "variable", str(v.type) + (" (one each: `of p`)" if v.owner == "each" else ""),
                      documentation=v.text) for n, v in rs.vars.items()]
    out += [Completion(n, "parameter", str(p.type), documentation=p.text) for n, p in rs.params.items()
            if n != "players"]
    out += [Completion(n, "zone", z.kind + (" (one each: `of p`)" if z.owner == "each" else ""),
                       documentation=z.text) for n, z in rs.zones.items()]
    out += [Completion(r.name, "role", "role", documentation=r.text) for r in rs.roles]
    out += [_call(n, d, "define", str(d.body.ty) if d.body.ty is not None else "") for n, d in rs.defines.items()]
    if statement:
        out += [_call(n, p, "procedure", "statements") for n, p in rs.procedures.items()]
    out += [Completion(n, "card type", f"{sum(c.kind == n for c in rs.cards)} components") for n in rs.card_types]
    out += [Completion(n, "die", "faces " + ", ".join(map(str, d.faces))) for n, d in rs.dice.items()]
    out += [Completion(n, "event", "event") for n in rs.events]
    out += [Completion(v, "value", f"a {e.name}") for e in rs.enums.values() for v in e.values]
    for b in BUILTINS.values():
        out.append(Completion(b.name, "built-in", b.result, None if b.bare else f"{b.name}()",
                              b.phrase.format(*b.params)))
    return out


def _call(name: str, definition, kind: str, result: str) -> Completion:
    params = ", ".join(f"{t} {n}" if t is not None else n for n, t in definition.params)
    return Completion(name, kind, f"{name}({params})" + (f" → {result}" if result else ""),
                      f"{name}()" if not definition.params else None, getattr(definition, "text", None))


# ------------------------------------------------------------------ YAML


def _yaml(analysis, line: int, col: int, rs: ir.Ruleset | None) -> list[Completion]:
    """Keys where a key goes; after `key: ` (or `- ` in a list), the values it takes."""
    lines = analysis.text.lines
    text = lines[line - 1][:col - 1] if line <= len(lines) else ""
    path = path_above(lines, line, len(text) - len(text.lstrip(" ")))
    value = re.search(r"([A-Za-z_]\w*)\s*:\s*(?:\[[\w, ]*)?\w*$", text)
    if value:  # `key: |`, `key: [a, |`, `name: {key: |` (a flow mapping on the line of its key)
        outer = re.match(r"\s*(?:-\s+)?([A-Za-z_]\w*)\s*:\s*{", text)
        return _values(rs, (*path, *([outer.group(1)] if outer else []), value.group(1)))
    item = re.fullmatch(r"\s*-\s+\w*", text)
    if not item and not re.fullmatch(r"\s*\w*", text):
        return []
    where = (*path, 0) if item else path
    keys: dict[str, str] = {}
    for sch in schema_at(where):
        for alt in alternatives(sch):
            for key, sub in alt.get("properties", {}).items():
                keys.setdefault(key, sub.get("description", "") if isinstance(sub, dict) else "")
    found = [Completion(k, "key", "", f"{k}: ", d or None) for k, d in keys.items()]
    return found + (_values(rs, path) if item else [])


def _values(rs: ir.Ruleset | None, path: tuple) -> list[Completion]:
    out: list[Completion] = []
    for sch in schema_at(path):
        for alt in alternatives(sch):
            out += [Completion(str(v), "value", "", None, alt.get("description")) for v in alt.get("enum", [])]
    for pattern, kinds in NAMES:
        if rs is not None and (matches(path, pattern) or matches(path, (*pattern, "#"))):
            out += [c for c in _globals(rs, True) if c.kind in kinds]
            if "role" in kinds:
                out.append(Completion("each", "keyword", "one for each role"))
            if "step" in kinds:
                steps = dict.fromkeys(s.name for m in rs.modes.values() for s in m.round)
                out += [Completion(s, "step") for s in steps]
            if "mode" in kinds:
                out += [Completion(m, "mode", rs.modes[m].title) for m in rs.modes]
    return out
