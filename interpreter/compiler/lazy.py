"""Lazy values (hoist.py's `HoistLet`, `Hoisted`) -> Python: computed at most once, the first time asked.

    h = UNSET                                  # where the value's region starts (`Reset`)
    ... (h if h is not UNSET else (h := v)) ...  # where it is asked (`Lazy`)

A value the code about to run surely computes first is computed before it by
a line of its own (`compute_first`) and read from its local after that, with
no test; and one that is surely still UNSET where it is computed needs no test
either. `once` generates a statement's value: its lazy values reset in the
statement's own function, and a list it builds built by the function's own
lines (`inline_call`) rather than by a nested function made and called.

What is surely UNSET depends on the code written before, in order: it is kept
here (`unset`), as the code is written, and saved and restored only around the
branches of loop unswitching (binders.py), which exclude one another.
"""
from __future__ import annotations

import ast

from rulelang import ir

from . import pycode as code
from .context import Ctx, LazyBound, Part
from .hoist import surely_computed_first
from .nodes import Hoisted, HoistLet
from .pycode import CallNested, Reset
from .unit import Function


class LazyValues(Part):
    def __init__(self, gen):
        super().__init__(gen)
        self.unset: dict[str, Function] = {}  # lazy values surely still UNSET where a function's next line runs

    def hoisted(self, e: Hoisted, fn: Function, ctx: Ctx) -> ast.expr:
        """Computed in place the first time it is needed; nested functions declare the name nonlocal."""
        known = ctx.known.get(e.name)
        if known is not None:
            return code.name(known)
        bound = ctx.scope[e.name]
        assert isinstance(bound, LazyBound)
        if fn is not bound.owner and bound.var not in fn.nonlocals:
            fn.nonlocals.append(bound.var)
        self.unset.pop(e.name, None)  # computed here, perhaps: from here on it may be set
        if e.name not in fn.lazy:  # (once for every binding of the loops it is asked in: counted as once)
            fn.lazy[e.name] = self.expr(bound.value, fn, ctx.but(bindings=bound.bindings))
        return self.g.units.lazy(bound.var, fn.lazy[e.name])

    def lazy_values(self, bindings, host: Function, ctx: Ctx) -> Ctx:
        """The context with lazy values that live in `host`, each UNSET until first used."""
        names = {}
        for name, value in bindings:
            var = self.fresh("h")
            names[name] = LazyBound(var, host, value, ctx.bindings)
            host.prelude.append(Reset(var))
            self.unset[name] = host  # (reset where the host starts, before any of its code)
        return ctx.bind(names)

    def once(self, e: ir.Expr, fn: Function, out: list, ctx: Ctx) -> ast.expr:
        """An expression evaluated once each time the statements before it run (a statement's
        value, a branch's test): its lazy values reset in `out`, lines of the function itself,
        and a list it builds built by lines of the function itself (inline_call)."""
        if not isinstance(e, HoistLet):
            return self.inline_call(self.expr(e, fn, ctx), fn, out)
        names = {}
        for name, value in e.bindings:
            var = self.fresh("h")
            names[name] = LazyBound(var, fn, value, ctx.bindings)
            out.append(Reset(var))
            self.unset[name] = fn
        try:  # a quantifier function made for it runs first: there, they are UNSET too (ctx.entry)
            return self.inline_call(self.expr(e.body, fn, ctx.bind(names).but(entry=e.body)), fn, out)
        finally:
            for name, _ in e.bindings:  # what holds here holds only for this statement's lines
                self.unset.pop(name, None)

    def compute_first(self, names, fn: Function, out: list, ctx: Ctx) -> Ctx:
        """Lazy values that the code about to run surely computes first (hoist.surely_computed_first),
        computed now by lines of their own, each after those its own value surely computes first, and
        known from here on: the context returned reads them from their locals, with no test. One still
        surely UNSET here is computed without the test too."""
        for name in names:
            if name in ctx.known:
                continue
            bound = ctx.scope[name]
            assert isinstance(bound, LazyBound)
            ctx = self.compute_first(surely_computed_first(bound.value, set()), fn, out, ctx)
            if self.unset.get(name) is fn:
                del self.unset[name]
                value = self.expr(bound.value, fn, ctx.but(bindings=bound.bindings))
            else:
                value = self.hoisted(Hoisted(name), fn, ctx)
            if fn is not bound.owner and bound.var not in fn.nonlocals:
                fn.nonlocals.append(bound.var)
            if fn is not bound.owner:  # its reset in the owner stays: a nonlocal must be bound there
                self.g.units.asked.add(bound.var)
            out.append(code.assign(bound.var, value))
            ctx = ctx.but(known={**ctx.known, name: bound.var})
        return ctx

    def inline_call(self, value: ast.expr, fn: Function, out: list) -> ast.expr:
        """A statement's value `qN()`, the quantifier function just made for fn, as lines of
        fn itself (a local holding what it would return): no function made and called each
        time the statement runs. Only a function whose one `return` is its last statement."""
        if fn.made is None or not self.options.lists or type(value) is not CallNested:
            return value
        q, at = fn.made
        if value.name != q.name or len(fn.prelude) != at + 1:
            return value
        *body, last = q.body
        if type(last) is not ast.Return or any(type(n) is ast.Return for n in code.walk_own(body)):
            return value
        del fn.prelude[at:]
        fn.made = None
        del self.g.units.nested[q.name]
        out += q.prelude + body
        return last.value if last.value is not None else code.const(None)

    def hoist_let(self, e: HoistLet, fn: Function, ctx: Ctx, inline: bool) -> ast.expr:
        """Lazy values: each is computed the first time it is used."""
        if not inline and self.g.quants.in_own_function(e.body, ctx):  # they live in the quantifier's function itself
            return self.expr(e.body, fn, ctx.but(host=(e.body, e.bindings)))
        host = fn if inline else Function(self.fresh("hl"))
        ctx = self.lazy_values(e.bindings, host, ctx)
        body = self.expr(e.body, host, ctx)
        if inline:
            return body
        host.body.append(ast.Return(body))
        fn.prelude.append(self.g.units.nested_function(host))
        return CallNested(host.name)

    def nested(self, q: Function, fn: Function) -> CallNested:
        """Put the finished function q in fn's prelude; the call of it. inline_call may take it back."""
        fn.prelude.append(self.g.units.nested_function(q))
        fn.made = (q, len(fn.prelude) - 1)
        return CallNested(q.name)

