"""What the code generator knows where it is generating: passed down, never changed.

Each part of the code generator (expressions, binders, boards, statements,
blocks: one idea a module) is a `Part` of one `Codegen` (codegen.py), which
composes them. What holds at a place in the rules — which names the binders
around bind and to which Python locals, whether the code is inside a
quantifier's loops, how many bindings those loops may go through — is a
`Ctx`, passed down as an argument: a part that knows more makes a new one
(`ctx.but(pure=True)`) for the code inside, and the code after it sees the old.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping

from rulelang import ir


@dataclass(frozen=True)
class Bound:
    """A name a binder around binds, held by a Python local."""
    var: str
    card: bool = False  # a card of a zone or board, or a player of the seats: never none
    grid: str | None = None  # a card on a space of this grid board, which a quantifier's loops never move


@dataclass(frozen=True)
class LazyBound:
    """A lazy value (nodes.Hoisted), held by a Python local of function `owner`, computed the first time it is asked."""
    var: str
    owner: object  # the unit.Function whose local it is
    value: ir.Expr
    bindings: int | None = 1  # the bindings gone through where it is reset: it is computed once for all of them


@dataclass(frozen=True)
class Ctx:
    scope: Mapping[str, Bound | LazyBound] = field(default_factory=dict)  # names bound around; others are in env
    pure: bool = False  # inside a quantifier's loops: no statement runs there, nothing moves
    unordered: bool = False  # and the order of its bindings changes nothing (`exists`, `count`)
    listing: bool = False  # and it lists its bindings (a decision's options, a loop's rows): nothing done for each fails
    bindings: int | None = 1  # how many bindings the binders around may go through (None: unknown)
    known: Mapping[str, str] = field(default_factory=dict)  # lazy values computed before the loops: their locals
    host: tuple | None = None  # (a quantifier, its lazy values) that the quantifier's own function is to hold
    entry: ir.Expr | None = None  # the expression `once` is generating: its lazy values are UNSET where it starts
    bare: bool = False  # a decision's options of one name, asked for as values rather than 1-tuples
    narrow: bool = False  # a decision's options, asked for without the names bound to one constant (fixed)
    first: ir.Expr | None = None  # what a quantifier's loops compute first at each binding (its value, a pick's key)

    def but(self, **changes) -> Ctx:
        return dataclasses.replace(self, **changes)

    def bind(self, names: Mapping[str, Bound | LazyBound]) -> Ctx:
        return dataclasses.replace(self, scope={**self.scope, **names})

    def bound(self, name: str) -> Bound | None:
        found = self.scope.get(name)
        return found if isinstance(found, Bound) else None


TOP = Ctx()  # a statement's: nothing bound around it but the rules' locals, in env


class Part:
    """A part of the code generator: what every part reaches through its Codegen."""

    def __init__(self, gen):
        self.g = gen
        self.L, self.options, self.program = gen.L, gen.options, gen.program
        units = gen.units
        self.fresh, self.const, self.error, self.local = units.fresh, units.const, units.error, units.local

    def expr(self, e: ir.Expr, fn, ctx: Ctx):
        return self.g.exprs.expr(e, fn, ctx)
