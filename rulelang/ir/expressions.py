"""Expressions: values and conditions, and the binders that go through zones and lists.

The parser writes names unresolved (`Name`, `Call`, `Owned`); the checker
resolves each to one of the other classes and fills in `ty`.
"""
from __future__ import annotations

from dataclasses import field

from ..records import record
from ..types import Type
from .base import Node


@record
class Expr(Node):
    # filled by the checker; left out of equality like the span
    ty: Type | None = field(default=None, kw_only=True, compare=False, repr=False)


@record
class Const(Expr):
    value: object  # int, bool, str or None


@record
class Name(Expr):
    """An unresolved name, as written (parser output only)."""
    name: str


@record
class Local(Expr):
    """A local: `let` variable, binder variable or define parameter."""
    name: str


@record
class Var(Expr):
    """A game variable declared under `vars:`; a player's own (`owner: each`)
    is read as `life of p`, and `owner` is that player."""
    name: str
    owner: Expr | None = None


@record
class Param(Expr):
    name: str


@record
class EnumValue(Expr):
    enum: str
    value: str


@record
class ZoneRef(Expr):
    zone: str
    owner: Expr | None = None  # for zones owned by each role: `hand of p`


@record
class RoleRef(Expr):
    role: str


@record
class Owned(Expr):
    """`ZONE of ROLE` before resolution."""
    zone: Expr
    owner: Expr


@record
class Field(Expr):
    obj: Expr
    name: str


@record
class Call(Expr):
    """An unresolved call `name(args)` (parser output only)."""
    name: str
    args: tuple[Expr, ...]


@record
class DefineCall(Expr):
    name: str
    args: tuple[Expr, ...]


@record
class BuiltinCall(Expr):
    name: str
    args: tuple[Expr, ...]


@record
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr


@record
class Binary(Expr):
    op: str  # + - * / % == != < <= > >= in "not in" and or
    left: Expr
    right: Expr


@record
class IsType(Expr):
    """`x is trial` / `x is not trial`: a test of a card's type."""
    subject: Expr
    kind: str
    negated: bool = False


@record
class IfExpr(Expr):
    cond: Expr
    then: Expr
    otherwise: Expr


@record
class CaseArm(Node):
    patterns: tuple[Expr, ...]  # empty for `else`
    value: Expr


@record
class Case(Expr):
    subject: Expr
    arms: tuple[CaseArm, ...]


@record
class ListExpr(Expr):
    items: tuple[Expr, ...]


@record
class Index(Expr):
    """`xs[i]`: the i-th item of a list, counting from 1 (a rule error past its end)."""
    obj: Expr
    index: Expr


@record
class TypeValues(Expr):
    """A type's name as a value: its values, in the order the type lists them (`for s in suit`)."""
    enum: str


@record
class Template(Expr):
    """Text with values in it (`"bid {n} {f}s"`): its parts, text as written and the
    expressions in braces, read when it is said; a text."""
    parts: tuple  # str | Expr


@record
class RangeExpr(Expr):
    low: Expr
    high: Expr


@record
class BinderGroup(Node):
    """`a, b in hand`: several names over one domain are unordered distinct
    combinations; one name is each element in turn."""
    names: tuple[str, ...]
    domain: Expr


@record
class OrderKey(Node):
    """One key of `ordered by`: a number per binding, smallest first."""
    value: Expr
    descending: bool = False


@record
class Binder(Node):
    groups: tuple[BinderGroup, ...]
    where: Expr | None = None
    order: tuple[OrderKey, ...] = ()  # `ordered by k1, k2 descending`: bindings sorted, stable
    # filled by the checker: each name's type once `where` has narrowed it
    types: tuple[Type, ...] = field(default=(), kw_only=True, compare=False, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for g in self.groups for n in g.names)


@record
class Quantified(Expr):
    """`exists B`, `count(B)`, `first(B)`, `last(B)` and the aggregates
    `sum/min/max/any/all(expr for B)` and `[expr for B]` (kind "list")."""
    kind: str
    binder: Binder
    value: Expr | None = None  # the aggregated expression, if any
