"""A guard that asks whether a decision has options, and the decision: one enumeration.

`until can_complete(): ...` followed by `challenger chooses a, b in hand ... where
completes(...)`, with `can_complete()` defined as `exists` over the same binder, tests
the same bindings twice: once for the guard, once to list the options. When a branch's
test is `exists B` and the decision it leads to when the test holds has the options of
a binder equal to B (up to the names bound inside), the branch lists the options itself
and asks the decision at once if there are any (blocks.py).

That is the same game: `exists` tests the bindings in the order the options list them,
each value computed the same way, so it fails where listing them would fail first;
when it finds one, the decision lists them all anyway; when it finds none, listing them
finds none either. The rows are listed from the guard's own expression, so an error is
reported where the rules as written would report it.
"""
from __future__ import annotations

import dataclasses

from rulelang import ir
from rulelang.walk import map_children, walk

from .nodes import Hoisted, HoistLet, LetIn, Options


def guard_options(cond: ir.Expr) -> ir.Expr | None:
    """A test `exists B` (lazy values around it allowed) as the options of B; None for any other test."""
    if isinstance(cond, HoistLet):
        body = guard_options(cond.body)
        return dataclasses.replace(cond, body=body) if body is not None else None
    if isinstance(cond, ir.Quantified) and cond.kind == "exists" and not cond.binder.order:
        return Options(cond.binder, span=cond.span, ty=cond.ty)
    return None


def shared_options(guard: ir.Expr, options: ir.Expr) -> ir.Expr | None:
    """If a guard is `exists` over the bindings a decision's `options` lists (up to the names
    bound inside), those options listed from the guard's expression; otherwise None.

    Folding turns a group over one constant value (`ma in uses_for(a)` when nothing can be
    used) into that value in a test, but a decision keeps it: its name is bound on answer.
    Such groups of the decision are put back into the guard's binder, where they were."""
    rows = guard_options(guard)
    if rows is None:
        return None
    one_value = {id(g) for g in _binder(options).groups if _one_constant(g)}
    stripped = _with_binder(options, lambda b: dataclasses.replace(
        b, groups=tuple(g for g in b.groups if id(g) not in one_value)))
    if canonical(rows) != canonical(stripped):
        return None

    def put_back(b: ir.Binder) -> ir.Binder:
        own = iter(b.groups)
        return dataclasses.replace(b, groups=tuple(g if id(g) in one_value else next(own)
                                                   for g in _binder(options).groups))
    return _with_binder(rows, put_back)


def _one_constant(g: ir.BinderGroup) -> bool:
    return len(g.names) == 1 and isinstance(g.domain, ir.Const) and isinstance(g.domain.value, (list, tuple)) \
        and len(g.domain.value) == 1


def _binder(e: ir.Expr) -> ir.Binder:
    return _binder(e.body) if isinstance(e, HoistLet) else e.binder


def _with_binder(e: ir.Expr, change) -> ir.Expr:
    if isinstance(e, HoistLet):
        return dataclasses.replace(e, body=_with_binder(e.body, change))
    return dataclasses.replace(e, binder=change(e.binder))


def canonical(e: ir.Expr) -> ir.Expr:
    """e with the names bound inside it renamed in order (`#0`, `#1`...): two expressions that
    differ only in those names are equal."""
    names: dict[str, str] = {}
    for n in walk(e):  # names are bound once each (renamed apart when defines were inlined)
        bound = n.names if isinstance(n, ir.BinderGroup) else (n.name,) if isinstance(n, LetIn) else \
            tuple(name for name, _ in n.bindings) if isinstance(n, HoistLet) else ()
        for name in bound:
            names.setdefault(name, f"#{len(names)}")
    return _rename(e, names)


def _rename(n, names: dict[str, str]):
    if isinstance(n, (ir.Local, Hoisted)) and n.name in names:
        return dataclasses.replace(n, name=names[n.name])
    n = map_children(n, lambda c: _rename(c, names))
    if isinstance(n, ir.BinderGroup):
        return dataclasses.replace(n, names=tuple(names.get(x, x) for x in n.names))
    if isinstance(n, LetIn):
        return dataclasses.replace(n, name=names.get(n.name, n.name))
    if isinstance(n, HoistLet):
        return dataclasses.replace(n, bindings=tuple((names.get(x, x), v) for x, v in n.bindings))
    return n
