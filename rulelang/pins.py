"""Hand-written text pinned to the rules it describes, so that printed words cannot drift from them.

Where a ruleset prints its own words instead of the generated English (a
step's, a procedure's, an ability's or a watch's `text:`, a statement's
`"words":` in the rules, a quick-reference page's `rules:`), the words are
only as right as the rules they were written for. Each such text may carry
the *fingerprint* of those rules (`checked: qfzmrkbt`, or `"words" checked
qfzmrkbt:` in the rules): when the rules under it change, `rulelang check`
warns at the text's line that it may be stale and prints the new
fingerprint; the author reads the text against the rules and writes it.

The fingerprint is of the rules' meaning, not of how they are written: it
is computed from the checked IR (no spans, no types, no comments, no
layout), with the defines and procedures the rules use and the abilities
that answer the events they trigger, followed to the end. Reformatting,
renaming a variable in a comment or moving a definition changes nothing;
changing a number, a condition or a statement anywhere the text depends on
does. A field left at its default value is not part of it, so a later
rulelang that adds fields to the IR leaves existing fingerprints alone.
"""
from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

from . import ir
from .errors import Diagnostic, Span
from .walk import rule_blocks, walk


@dataclass(frozen=True)
class Pinned:
    """One hand-written text: what it is, where, its recorded and its current fingerprint."""
    what: str  # "step Draw cards", "procedure draw_action", "the rules' text", ...
    span: Span | None
    checked: str | None
    current: str

    @property
    def stale(self) -> bool:
        return self.checked is not None and self.checked != self.current


def fingerprint(rs: ir.Ruleset, *roots, forms: dict | None = None) -> str:
    """8 letters a to z for the meaning of `roots` (rules) and everything they use; `forms`:
    the canonical forms of nodes met before (texts of one ruleset share defines and procedures)."""
    digest = hashlib.sha256(_canonical(rs, roots, {} if forms is None else forms).encode("utf-8")).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(8):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("a") + digit))
    return "".join(letters)


def texts(rs: ir.Ruleset) -> list[Pinned]:
    """Every hand-written text of the ruleset that describes rules, with its fingerprints."""
    out: list[Pinned] = []
    forms: dict = {}

    def add(what, pin, *roots):
        if pin is not None:
            out.append(Pinned(what, pin.span, pin.checked, fingerprint(rs, *roots, forms=forms)))

    for d in rs.defines.values():
        add(f"define {d.name}", d.pin, d.body)
    for p in rs.procedures.values():
        add(f"procedure {p.name}", p.pin, p.body)
    for a in rs.abilities.values():
        add(f"ability {a.name}", a.pin, a.body, a.where, a.optional, a.on, a.once)
    for mode in rs.modes.values():
        for step in mode.round:
            add(f"step {step.name}", step.pin, step.body)
        for w in mode.watches:
            add("a watch", w.pin, w.when, w.body, w.then)
        for page in mode.quick:
            add(f"quick-reference page {page.title}", page.pin, rs.setup, mode.setup,
                tuple(s.body for s in mode.round), tuple((w.when, w.body) for w in mode.watches))
    seen: set[int] = set()
    for block in rule_blocks(rs):
        for i, s in enumerate(block):
            if s.prose is not None and id(s) not in seen:  # a procedure's body is in the rules once
                seen.add(id(s))
                add("words in the rules", s.prose.pin, block[i:i + s.prose.count])
    return sorted(out, key=lambda t: (t.span.file, t.span.line, t.span.col) if t.span else ("", 0, 0))


def stale(rs: ir.Ruleset) -> list[Diagnostic]:
    """A warning at every text whose rules changed since it was checked."""
    out = []
    for t in texts(rs):
        if t.stale:
            write = f'`checked {t.current}` after the quoted words' if t.what == "words in the rules" \
                else f"`checked: {t.current}` beside the text"
            out.append(Diagnostic(t.span, f"the rules under this text ({t.what}) have changed since it was "
                                          f"checked: the words may no longer say what the rules do",
                                  f"read the text against the rules, then write {write}", severity="warning"))
    return out


# ---------------------------------------------------------------- the canonical form


def _canonical(rs: ir.Ruleset, roots, forms: dict) -> str:
    """The roots, then each define, procedure and answering ability they reach, once, by name."""
    parts = [_form(roots, forms)]
    todo, done = [roots], set()
    while todo:
        for n in walk(todo.pop()):
            key = None
            if isinstance(n, ir.DefineCall):
                key, body = "define " + n.name, rs.defines[n.name].body
            elif isinstance(n, ir.CallProc):
                key, body = "procedure " + n.name, rs.procedures[n.name].body
            elif isinstance(n, ir.Trigger):
                key = "event " + n.event
                body = tuple((a.name, a.body, a.where, a.optional, a.once) for a in rs.abilities.values()
                             if a.on == n.event)
            if key is not None and key not in done:
                done.add(key)
                parts.append(f"{key}: {_form(body, forms)}")
                todo.append(body)
    return "\n".join(parts)


_COMPARED: dict[type, tuple[tuple[str, object], ...]] = {}


def _compared(cls) -> tuple[tuple[str, object], ...]:
    """A node class's fields that are part of its meaning, with their defaults."""
    found = _COMPARED.get(cls)
    if found is None:
        found = _COMPARED[cls] = tuple((f.name, f.default) for f in dataclasses.fields(cls)
                                       if f.name not in ("span", "ty", "prose") and f.compare)
    return found


def _form(value, forms: dict) -> str:
    """A value's meaning as text: a node by its class and its fields that differ from their
    defaults (never its span, type or printed words). `forms`: id -> (node, its form), for nodes
    met before (each kept, so its id is not another's)."""
    if isinstance(value, ir.Node):
        known = forms.get(id(value))
        if known is not None and known[0] is value:
            return known[1]
        fields = []
        for name, default in _compared(type(value)):
            v = getattr(value, name)
            if default is not dataclasses.MISSING and v == default:
                continue
            fields.append(f"{name}={_form(v, forms)}")
        form = f"{type(value).__name__}({', '.join(fields)})"
        forms[id(value)] = (value, form)
        return form
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_form(v, forms) for v in value) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_form(v, forms)}" for k, v in value.items()) + "}"
    return repr(value)
