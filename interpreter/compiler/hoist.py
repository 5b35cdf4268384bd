"""Hoisting: inside every binder, the parts that do not depend on its names
are computed at most once per evaluation, lazily, so nothing is evaluated
that the original would not have evaluated (`first(...)` never fails where
it would not have). Also what a test surely computes first, and whether it
can fail at all: what lets the code generator compute a lazy value before
the loops, or look at bindings in another order (binders.py)."""
from __future__ import annotations

import dataclasses

from rulelang import ir
from rulelang.types import BOOL, INT, ZoneT
from rulelang.walk import children, map_children

from .fold import substitute
from .nodes import TRIVIAL, Hoisted, HoistLet, LetIn, Options, with_options


def bound_names(node) -> set[str]:
    """Names a node binds for its own sub-parts."""
    if isinstance(node, (ir.Binder,)):
        return set(node.names)
    if isinstance(node, ir.Quantified):
        return set(node.binder.names)
    if isinstance(node, Options):
        return set(node.binder.names)
    if isinstance(node, LetIn):
        return {node.name}
    if isinstance(node, HoistLet):
        return {name for name, _ in node.bindings}
    return set()


def free_locals(e, memo: dict) -> frozenset:
    key = id(e)
    if key in memo:
        return memo[key][1]
    if isinstance(e, ir.Local):
        result = frozenset({e.name})
    elif isinstance(e, Hoisted):
        result = frozenset({e.name})
    else:
        result = frozenset()
        for c in children(e):
            result |= free_locals(c, memo)
        result -= bound_names(e)
    memo[key] = (e, result)  # keep e alive so its id is not reused
    return result


class Hoister:
    """Moves subexpressions that do not depend on a binder's names out of it."""

    def __init__(self, fresh):
        self.fresh = fresh  # new local names, shared with the folder so they stay distinct
        self.memo: dict = {}

    def block(self, stmts) -> ir.Block:
        return tuple(self.stmt(s) for s in stmts)

    def stmt(self, s):
        if isinstance(s, (ir.Choose, ir.Take)):  # its binder is hoisted once, as its options
            body = self.block(s.body)
            return with_options(dataclasses.replace(s, body=body), self.expr(Options(s.binder, span=s.span)))
        return map_children(s, self.part)

    def part(self, n):
        if isinstance(n, ir.Stmt):
            return self.stmt(n)
        if isinstance(n, ir.Expr):
            return self.expr(n)
        return map_children(n, self.part)

    def expr(self, e: ir.Expr) -> ir.Expr:
        if isinstance(e, (ir.Quantified, Options)):
            bindings: list = []
            inner_names = bound_names(e)
            e = self.lift(e, inner_names, bindings, top=True)
            e = map_children(e, self.expr)
            # substituting hoisted values into inner lets exposes more (e.g. `t.kind`)
            e = self.lift(e, inner_names, bindings, top=True)
            if bindings:
                return HoistLet(tuple((n, self.expr(v)) for n, v in bindings), e, span=e.span, ty=e.ty)
            return e
        if isinstance(e, LetIn):
            value = self.expr(e.value)
            if isinstance(value, TRIVIAL):
                return self.expr(substitute(e.body, {e.name: value}))
            return dataclasses.replace(e, value=value, body=self.expr(e.body))
        return map_children(e, lambda n: self.expr(n) if isinstance(n, ir.Expr) else self.expr_in(n))

    def expr_in(self, n):
        return map_children(n, lambda m: self.expr(m) if isinstance(m, ir.Expr) else self.expr_in(m))

    def lift(self, e, bound: set, bindings: list, top: bool = False):
        """Replace maximal parts of e independent of `bound` by Hoisted refs."""
        cheap_field = isinstance(e, ir.Field) and isinstance(e.obj, ir.Local)
        if not top and isinstance(e, ir.Expr) and not isinstance(e, TRIVIAL) \
                and not cheap_field and not (free_locals(e, self.memo) & bound):
            # the same expression hoisted twice is one value (nodes compare by structure)
            name = next((n for n, v in bindings if v == e), None)
            if name is None:
                name = self.fresh("$h")
                bindings.append((name, e))
            return Hoisted(name, span=e.span, ty=e.ty)
        if isinstance(e, (ir.Quantified, Options)):
            # the first domain is evaluated outside the binder's own names
            first = e.binder.groups[0]
            domain = first.domain if top else self.lift(first.domain, bound, bindings)
            inner = bound | set(e.binder.names)
            rest = tuple(dataclasses.replace(g, domain=self.lift(g.domain, inner, bindings))
                         for g in e.binder.groups[1:])
            where = self.lift(e.binder.where, inner, bindings) if e.binder.where is not None else None
            order = tuple(dataclasses.replace(k, value=self.lift(k.value, inner, bindings)) for k in e.binder.order)
            binder = dataclasses.replace(e.binder, groups=(dataclasses.replace(first, domain=domain),) + rest,
                                         where=where, order=order)
            changes = {"binder": binder}
            if isinstance(e, ir.Quantified) and e.value is not None:
                changes["value"] = self.lift(e.value, inner, bindings)
            return dataclasses.replace(e, **changes)
        if isinstance(e, LetIn):
            value = self.lift(e.value, bound, bindings)
            return dataclasses.replace(e, value=value, body=self.lift(e.body, bound | {e.name}, bindings))
        if isinstance(e, HoistLet):
            inner = bound | bound_names(e)
            values = tuple((n, self.lift(v, inner, bindings)) for n, v in e.bindings)
            return dataclasses.replace(e, bindings=values, body=self.lift(e.body, inner, bindings))
        return map_children(e, lambda n: self.lift(n, bound, bindings))


_SAFE_OPS = ("+", "-", "*", "==", "!=", "<", "<=", ">", ">=")


def surely_computed_first(e: ir.Expr, cards: set[str], placed: frozenset = frozenset()) -> list[str]:
    """The lazy values (`Hoisted`) that evaluating `e` surely computes, in the order it
    computes them, before anything that may fail or may not be evaluated: computing them
    before the loops instead, once there is a first binding, changes nothing (not even which
    error stops a game). `cards`: names bound to cards from a zone (their fields are there);
    `placed`: those bound to the cards of a grid board (their column and row are there)."""
    found: list[str] = []

    def visit(e) -> bool:  # whether evaluation surely goes on past e
        if isinstance(e, Hoisted):
            found.append(e.name)  # if it fails, it fails at the same point either way
            return True
        if isinstance(e, ir.Const) or isinstance(e, ir.Local) and e.name in cards or _placed(e, placed):
            return True
        if isinstance(e, ir.Field) and isinstance(e.obj, ir.Local) and e.obj.name in cards:
            return True
        if isinstance(e, ir.Field):  # its card first; reading the field may fail (no card)
            visit(e.obj)
            return False
        if isinstance(e, ir.Binary) and e.op in _SAFE_OPS and e.left.ty in (INT, BOOL) and e.right.ty in (INT, BOOL):
            return visit(e.left) and visit(e.right)
        if isinstance(e, ir.Binary) and e.op in ("and", "or"):
            visit(e.left)  # the right side may not be evaluated
            return False
        if isinstance(e, ir.Unary) or isinstance(e, ir.BuiltinCall) and e.name == "abs" and len(e.args) == 1:
            return visit(e.operand if isinstance(e, ir.Unary) else e.args[0])
        return False
    visit(e)
    return list(dict.fromkeys(found))


def never_fails(e: ir.Expr, cards: set[str], computed: set[str], placed: frozenset = frozenset()) -> bool:
    """Whether evaluating `e` can never stop the game with an error, whatever the order it is
    evaluated in over the bindings: `cards` are names bound to cards (there, so their fields are
    too); `computed` the lazy values it surely computes first (if one fails, it fails at the first
    binding in any order); `placed` names bound to the cards of a grid board. Made only of
    comparisons, arithmetic that cannot divide, `and`, `or`, `not`, `abs`, type tests, fields
    of those cards and the column and row of the placed ones."""
    if isinstance(e, Hoisted):
        return e.name in computed
    if isinstance(e, (ir.Const, ir.Local, ir.EnumValue, ir.RoleRef)) or _placed(e, placed):
        return True
    if isinstance(e, (ir.Field, ir.IsType)):
        subject = e.obj if isinstance(e, ir.Field) else e.subject
        return isinstance(subject, ir.Local) and subject.name in cards and not isinstance(subject.ty, ZoneT)
    if isinstance(e, ir.Binary):
        safe = e.op in ("==", "!=", "and", "or") or \
            e.op in _SAFE_OPS and e.left.ty in (INT, BOOL) and e.right.ty in (INT, BOOL)
        return safe and never_fails(e.left, cards, computed, placed) and never_fails(e.right, cards, computed, placed)
    if isinstance(e, ir.Unary):
        return never_fails(e.operand, cards, computed, placed)
    if isinstance(e, ir.BuiltinCall) and e.name == "abs" and len(e.args) == 1:
        return never_fails(e.args[0], cards, computed, placed)
    return False


def _placed(e: ir.Expr, placed: frozenset) -> bool:
    """`column(c)` or `row(c)` of a card on a grid board: always there."""
    return isinstance(e, ir.BuiltinCall) and e.name in ("column", "row") and len(e.args) == 1 \
        and isinstance(e.args[0], ir.Local) and e.args[0].name in placed
