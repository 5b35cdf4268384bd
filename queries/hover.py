"""Hover: what a name is (its kind, its type, where it is declared) and what
it means in English; on any other part of the rules, its English."""
from __future__ import annotations

import os
import re

from rulelang import ir
from rulelang.builtins import BUILTINS

from .english import english
from .symbols import Occurrence, Symbol
from .yamlnames import alternatives, path_above, schema_at


def hover(analysis, line: int, col: int) -> str | None:
    """Markdown for the position, or None where nothing is written."""
    found = analysis.at(line, col)
    if found is not None and found.symbols:
        return "\n\n---\n\n".join(_symbol(analysis, s, found) for s in found.symbols)
    rule = analysis.rule_at(line, col)
    if rule is None or analysis.ruleset is None:
        return _key(analysis, line, col)
    said = english(analysis.ruleset, rule.node, rule.mode or analysis.ruleset.default_mode)
    ty = getattr(rule.node, "ty", None)
    head = f"*{_what(rule.node)}*" + (f" · {ty}" if ty is not None and isinstance(rule.node, ir.Expr) else "")
    return f"{head}\n\n{said}" if said else head


def _key(analysis, line: int, col: int) -> str | None:
    """On a YAML key: what the schema says it is for."""
    text = analysis.text.lines[line - 1] if line <= len(analysis.text.lines) else ""
    m = re.match(r"(\s*(?:-\s+)?)([A-Za-z_]\w*)\s*:", text)
    if m is None or not len(m.group(1)) < col <= m.end(2) + 1:
        return None
    path = path_above(analysis.text.lines, line, len(m.group(1)))
    said = [alt.get("description") for sch in schema_at((*path, m.group(2))) for alt in [sch, *alternatives(sch)]
            if alt.get("description")]
    return f"`{m.group(2)}:` " + "; or ".join(dict.fromkeys(said)) if said else None


def _what(node: ir.Node) -> str:
    return "statement" if isinstance(node, ir.Stmt) else "condition" if str(node.ty) == "bool" else "value"


def _symbol(analysis, symbol: Symbol, found: Occurrence) -> str:
    rs = analysis.ruleset
    declared = getattr(rs, _TABLES.get(symbol.kind, ""), {}).get(symbol.name) if rs is not None else None
    facts = _facts(rs, symbol, declared, found) if rs is not None else []
    head = f"({symbol.kind}) **{symbol.name}**" + (f" of `{symbol.owner}`" if symbol.kind in ("field", "value", "mark")
                                                  else "")
    parts = [head + (" — " + facts[0] if facts else "")] + facts[1:]
    places = analysis.declarations(symbol)
    if places:
        parts.append(_declared(analysis, places))
    node = _said(rs, symbol, declared, found) if rs is not None else None
    meaning = english(rs, node, found.mode or rs.default_mode) if node is not None else None
    if meaning:
        parts.append(f"**In the rules:** {meaning}" if "\n" not in meaning and not meaning.startswith("- ")
                     else f"**In the rules:**\n\n{meaning}")
    elif getattr(declared, "text", None):
        parts.append(declared.text)
    return "\n\n".join(parts)


def _said(rs: ir.Ruleset, symbol: Symbol, declared, found: Occurrence):
    """What to say in English for a symbol: its declaration where the printed rules say
    one (a define, a step), else the name as the rules write it (a zone, a variable)."""
    if isinstance(declared, (ir.Define, ir.Procedure, ir.Ability)):
        return declared
    if symbol.kind == "step":
        mode = rs.modes.get(found.mode or "") or next((m for m in rs.modes.values()
                                                       if any(s.name == symbol.name for s in m.round)), None)
        return next((s for s in mode.round if s.name == symbol.name), None) if mode is not None else None
    if isinstance(found.node, (ir.ZoneRef, ir.Var, ir.Param, ir.RoleRef, ir.EnumValue)):
        return found.node
    named = {"zone": lambda: ir.ZoneRef(symbol.name, ty=None), "variable": lambda: ir.Var(symbol.name, ty=None),
             "parameter": lambda: ir.Param(symbol.name, ty=None), "role": lambda: ir.RoleRef(symbol.name, ty=None)}
    return named[symbol.kind]() if symbol.kind in named and declared is not None or symbol.kind == "role" else None


def _declared(analysis, places) -> str:
    """Where it is declared, file by file: the base first, then each variant that declares it again."""
    files = list(dict.fromkeys(p.file for p in places))
    said = []
    for i, file in enumerate(files):
        lines = [p.line for p in places if p.file == file]
        where = f"line{'s' if len(lines) > 1 else ''} {', '.join(map(str, lines))}"
        if file != analysis.path:
            where += f" of {os.path.basename(file)}"
        said.append(("Declared at " if i == 0 else "changed at ") + where)
    return "; ".join(said) + "."


_TABLES = {"zone": "zones", "card type": "card_types", "variable": "vars", "parameter": "params",
           "define": "defines", "procedure": "procedures", "die": "dice", "event": "events",
           "ability": "abilities", "type": "enums", "mode": "modes"}


def _facts(rs: ir.Ruleset, symbol: Symbol, declared, found: Occurrence) -> list[str]:
    """A line of what it is, and more lines where there is more to say."""
    kind, name = symbol.kind, symbol.name
    if kind == "zone" and declared is not None:
        z = declared
        bits = [z.kind, f"holds {', '.join(z.holds)}" if z.holds else "holds any card", f"face {z.facing}",
                f"seen by {z.seen_by}"]
        if z.owner:
            bits.insert(0, "one for each role" if z.owner == "each" else f"owned by {z.owner}")
        if z.board:
            bits.append(f"{z.columns} × {z.rows} spaces" if z.kind == "grid" else f"{len(z.places)} places")
        return [", ".join(bits)]
    if kind == "card type" and declared is not None:
        count = sum(1 for c in rs.cards if c.kind == name)
        fields = ", ".join(f"`{f.name}`: {f.type}" for f in (*declared.fields, *declared.state))
        return [f"{count} {declared.component}{'s' if count != 1 else ''}", f"Fields: {fields}" if fields else ""]
    if kind == "field":
        ct = rs.card_types.get(symbol.owner)
        f = next((f for f in (*ct.fields, *ct.state) if f.name == name), None) if ct else None
        state = ct is not None and any(s.name == name for s in ct.state)
        return [f"{'state value' if state else 'printed field'}, {f.type}"] if f else []
    if kind == "variable" and declared is not None:
        v = declared
        bits = [str(v.type), f"starts at {v.initial}"]
        if v.owner == "each":
            bits.append("one for each player (`" + name + " of p`)")
        if v.low is not None or v.high is not None:
            bits.append(f"kept within {'' if v.low is None else v.low}..{'' if v.high is None else v.high}")
        return [", ".join(bits)]
    if kind == "parameter" and declared is not None:
        p = declared
        bits = [str(p.type), f"default {p.default}"] + ([f"one of {', '.join(p.choices)}"] if p.choices else [])
        return [", ".join(bits) + f" (`--set {name}=...`)"]
    if kind in ("define", "procedure") and declared is not None:
        params = ", ".join(f"{t} {n}" if t is not None else n for n, t in declared.params)
        result = f" → {declared.body.ty}" if kind == "define" and declared.body.ty is not None else ""
        return [f"`{name}({params})`{result}"]
    if kind == "die" and declared is not None:
        return [f"faces {', '.join(map(str, declared.faces))}"]
    if kind == "event" and declared is not None:
        return [f"`{name}({', '.join(n for n, _ in declared.params)})`"]
    if kind == "ability" and declared is not None:
        return [f"answers `{declared.on}`" + (f", once per {declared.once}" if declared.once else "")]
    if kind == "type" and declared is not None:
        return [", ".join(declared.values)]
    if kind == "mode" and declared is not None:
        m = declared
        return [f"{m.title}: {len(m.round)} steps, played by {', '.join(m.roles)}"]
    if kind == "role":
        role = next((r for r in rs.roles if r.name == name), None)
        return [role.text] if role is not None and role.text else []
    if kind == "ruling":
        ruling = next((r for r in rs.rulings if r.id == name), None)
        return [ruling.text] if ruling is not None else []
    if kind == "step":
        return [", ".join(f"in mode {m.name}" for m in rs.modes.values() if any(s.name == name for s in m.round))]
    if kind == "local":
        ty = getattr(found.node, "ty", None)
        return [f"{ty}" if ty is not None else ""]
    if kind == "built-in" and name in BUILTINS:
        b = BUILTINS[name]
        args = "" if b.bare else "(" + ", ".join(b.params) + ")"
        return [f"`{name}{args}` → {b.result}", b.phrase.format(*(f"*{p}*" for p in b.params))]
    return []
