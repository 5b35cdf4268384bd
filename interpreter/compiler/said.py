"""The step a function is in (`st.at = K`, merge.py's) said only where it may be read.

A function that runs other steps' code says which step's code it is in, for the engine: it reads
`st.at` only when a runaway or a watch stops play there (Game._main_pc). Between two such writes
in one list of statements, code that can raise neither — moves and counts, `_fail` and `_end`
(which stop play otherwise), the calls of `_SAFE` and lists' own methods, no jump out of it —
needs no step said until one of its step counts runs away: the first write goes, and each
`_runaway` of that code says the step itself, in the branch that runs only when play stops.

    st.at = 1                           st.round += 1
    st.round += 1              ->       st.round_steps = st.steps
    st.round_steps = st.steps           st.at = 2
    st.at = 2

Done last on a merged function's code (blocks.py), with its locals in place.
"""
from __future__ import annotations

import ast

from .pycode import BLOCKS, CallNested, stmt

# what the code between two writes may call: what cannot raise a runaway nor fire a watch
_SAFE = frozenset({"len", "list", "abs", "min", "max", "range", "zip", "sorted", "set", "tuple", "_combinations",
                   "_filterfalse", "_shuffle", "_fail", "_end", "_runaway"})
_METHODS = frozenset({"append", "pop", "remove", "extend", "clear", "insert", "index", "count"})  # of a zone's list
_PLAIN = (ast.Assign, ast.AugAssign, ast.Expr, ast.If, ast.While, ast.For, ast.Pass)  # (and their expressions)
_LOOPS = (ast.While, ast.For)


def said_where_read(stmts: list) -> list:
    """The statements (and those inside them) with each `st.at = K` that code raising nothing follows
    up to the next left out, that code's `_runaway`s saying K."""
    out, changed, i = [], False, 0
    while i < len(stmts):
        s = stmts[i]
        step = saying_step(s)
        if step is not None:
            j = next((j for j in range(i + 1, len(stmts)) if saying_step(stmts[j]) is not None), None)
            if j is not None and all(_quiet(t, 0) for t in stmts[i + 1:j]):
                out += _said(stmts[i + 1:j], step)
                changed, i = True, j
                continue
        if type(s) in _PLAIN:
            inner = {f: said_where_read(v) for f in BLOCKS if type(v := getattr(s, f, None)) is list and v}
            inner = {f: v for f, v in inner.items() if v is not getattr(s, f)}
            if inner:
                s, changed = _with(s, inner), True
        out.append(s)
        i += 1
    return out if changed else stmts


def saying_step(s) -> int | None:
    """K of `st.at = K`."""
    if type(s) is ast.Assign and len(s.targets) == 1 and type(t := s.targets[0]) is ast.Attribute \
            and t.attr == "at" and type(t.value) is ast.Name and t.value.id == "st" and type(s.value) is ast.Constant \
            and type(step := s.value.value) is int:
        return step
    return None


def _quiet(s, loops: int) -> bool:
    """Whether a statement raises no runaway and fires no watch, but by `_runaway`, and leaves the run
    of statements it is in only at its end (`loops`: the loops around it within that run)."""
    if type(s) in (ast.Break, ast.Continue):
        return loops > 0
    if type(s) not in _PLAIN or saying_step(s) is not None:
        return False
    inner = loops + (type(s) in _LOOPS)
    for f in BLOCKS:
        if not all(_quiet(t, inner) for t in getattr(s, f, None) or ()):
            return False
    for field in ("targets", "target", "value", "test", "iter"):
        part = getattr(s, field, None)
        for e in part if type(part) is list else (part,) if part is not None else ():
            for n in ast.walk(e):
                if isinstance(n, ast.Call) and not (type(n.func) is ast.Name and n.func.id in _SAFE or type(
                        n.func) is ast.Attribute and n.func.attr in _METHODS):
                    return False
                if not isinstance(n, (ast.expr, ast.expr_context, ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
                                      ast.comprehension, ast.keyword)) or isinstance(n, (ast.Lambda, CallNested)):
                    return False
    return True


def _said(stmts: list, step: int) -> list:
    """The statements with each `_runaway(...)` in them said at step `step` first."""
    out = []
    for s in stmts:
        if type(s) is ast.Expr and type(call := s.value) is ast.Call and type(call.func) is ast.Name \
                and call.func.id == "_runaway":
            out.append(stmt("st.at = K", K=step))
        inner = {f: _said(v, step) for f in BLOCKS if type(v := getattr(s, f, None)) is list and v}
        out.append(_with(s, inner) if inner else s)
    return out


def _with(s, fields: dict):
    made = s.__class__.__new__(s.__class__)
    made.__dict__.update(s.__dict__)
    made.__dict__.update(fields)
    return made
