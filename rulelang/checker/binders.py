"""Binders (`c in hand where c is trial ordered by c.value`) and the card
types that `is` tests narrow: a name bound over a zone is a card of the
types it holds, and `where`, `if`, `and` and `or` narrow it further."""
from __future__ import annotations

import dataclasses

from .. import ir
from ..types import ANY, BOOL, INT, BoardT, CardT, ListT, Type, ZoneT
from . import expressions
from .context import Checker, Scope


def binder(ck: Checker, b: ir.Binder, scope: Scope) -> tuple[ir.Binder, Scope]:
    """The binder checked, and the scope of what it binds (its names, narrowed by `where`)."""
    inner = scope.child()
    groups = []
    for g in b.groups:
        domain = expressions.expr(ck, g.domain, inner, ZoneT(ck.all_kinds))
        if isinstance(domain.ty, (ZoneT, BoardT)):
            item: Type = CardT(domain.ty.kinds)
        elif isinstance(domain.ty, ListT):
            item = domain.ty.item
        elif domain.ty is ANY:
            item = ANY
        else:
            ck.error(g.domain.span, f"can only go through a zone or a list, not {domain.ty}")
            item = ANY
        for name in g.names:
            if name in inner.names or scope.lookup(name) is not None:
                ck.error(g.span, f"'{name}' is already a variable here; pick another name")
            elif ck.global_kind(name):
                ck.error(g.span, f"'{name}' is already the name of a {ck.global_kind(name)}",
                         "pick another name for the variable")
            inner.names[name] = item
        groups.append(dataclasses.replace(g, domain=domain))
    where = None
    if b.where is not None:
        where = expressions.expect(ck, b.where, inner, BOOL, "a `where` condition")
        inner = inner.child(narrowing(where, True))
    order = tuple(dataclasses.replace(k, value=expressions.expect(ck, k.value, inner, INT, "an `ordered by` key"))
                  for k in b.order)
    types = tuple(inner.lookup(n) or ANY for g in groups for n in g.names)
    return dataclasses.replace(b, groups=tuple(groups), where=where, order=order, types=types), inner


def narrowing(cond: ir.Expr, positive: bool) -> dict[str, Type]:
    """Local card types known when `cond` is true (positive) or false."""
    if isinstance(cond, ir.IsType) and isinstance(cond.subject, ir.Local) \
            and isinstance(cond.subject.ty, CardT):
        current = cond.subject.ty.kinds
        holds = positive != cond.negated
        kinds = current & {cond.kind} if holds else current - {cond.kind}
        return {cond.subject.name: CardT(frozenset(kinds))}
    if isinstance(cond, ir.Unary) and cond.op == "not":
        return narrowing(cond.operand, not positive)
    if isinstance(cond, ir.Binary) and cond.op in ("and", "or") and positive == (cond.op == "and"):
        left, right = narrowing(cond.left, positive), narrowing(cond.right, positive)
        for name, ty in right.items():
            mine = left.get(name)
            left[name] = CardT(mine.kinds & ty.kinds) if isinstance(mine, CardT) and isinstance(ty, CardT) else ty
        return left
    return {}
