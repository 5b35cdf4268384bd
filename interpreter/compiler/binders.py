"""Binders -> nested Python loops.

`a, b in hand, m in reserve where P ordered by K` becomes nested `for` loops
over Python locals (pairs of one domain as two index loops, or as
`combinations` inside a quantifier, more as `combinations`), the `where` test
inside, and for `ordered by` a list of (keys, values) sorted stably before the
body runs. What is done for each binding is the caller's `leaf(ctx)`: the
statements run for it. quantifiers.py builds quantifiers and a decision's
options on these loops; boards.py says how a whole board is gone through.

A binder whose bindings (with those of the binders it runs inside) may exceed
tuning.FREE_BINDINGS counts them as work against the step limit, so
`exists a, b, c, d in box` over ten thousand cards stops at the limit instead
of running for days; smaller ones (every binder of the bundled rulesets) cost
nothing extra.
"""
from __future__ import annotations

import ast
import dataclasses
from math import comb
from operator import itemgetter

from rulelang import ir
from rulelang.types import BOOL, BoardT, ZoneT

from . import pycode as code
from . import tuning
from .always_cards import never_none
from .context import Bound, Ctx, LazyBound, Part
from .hoist import cheap_and_safe, free_locals, surely_computed_first
from .nodes import Lookup
from .pycode import LOAD, STORE


class Binders(Part):
    def __init__(self, gen):
        super().__init__(gen)
        self._free_memo: dict = {}  # hoist.free_locals' memo

    def loops(self, b: ir.Binder, fn, out: list, ctx: Ctx, leaf) -> None:
        """Append to `out` the loops binding b's names; `leaf(ctx)` gives the statements run for each
        binding that passes the `where` (ctx binds the names)."""
        if b.order:
            self.ordered_loops(b, fn, out, ctx, leaf)
        else:
            self.plain_loops(b, fn, out, ctx, leaf)

    def ordered_loops(self, b: ir.Binder, fn, out: list, ctx: Ctx, leaf) -> None:
        """`ordered by`: collect the keys then the values of every binding as one row, sort
        the rows by the keys (a stable sort: ties keep the binder's order), then run the leaf.
        Bindings listed in an order the board already has (`g in gauntlet ordered by row(g),
        column(g)`) are listed as the board has them."""
        boards = self.g.boards
        spaces = boards.space_order(b) if ctx.listing and self.options.boards else None
        if spaces is not None and spaces == sorted(spaces):  # the board's own order
            self.plain_loops(dataclasses.replace(b, order=()), fn, out, ctx, leaf)
            return
        if spaces is not None and boards.where_never_fails(b, ctx):  # each space's cards, the spaces in order
            listed = ast.List([ast.Starred(code.expr("zones[Z]", Z=z), LOAD) for z in spaces], LOAD)
            self.plain_loops(dataclasses.replace(b, order=()), fn, out, ctx, leaf, (b.groups[0], listed))
            return
        rows, names = self.fresh("rows"), b.names
        vs = [self.fresh("v") for _ in names]
        inner: dict = {}

        def collect(c: Ctx):
            inner.update(c.scope)
            keys = [ast.UnaryOp(ast.USub(), self.expr(k.value, fn, c)) if k.descending else self.expr(k.value, fn, c)
                    for k in b.order]
            return [code.stmt("ROWS.append(ROW)", ROWS=rows, ROW=code.tuple_of(keys + [c.scope[n].var for n in names]))]
        out.append(code.assign(rows, ast.List([], LOAD)))
        self.plain_loops(dataclasses.replace(b, order=()), fn, out, ctx, collect)
        by = self.const(itemgetter(*range(len(b.order))))  # the keys: one C call, no Python function
        target = code.tuple_of(["_"] * len(b.order) + vs, STORE)
        sorted_ctx = ctx.bind({n: Bound(v, inner[n].card) for n, v in zip(names, vs)})
        out += [code.stmt("ROWS.sort(key=BY)", ROWS=rows, BY=by),
                ast.For(target, code.name(rows), leaf(sorted_ctx), [], None)]

    def plain_loops(self, b: ir.Binder, fn, out: list, ctx: Ctx, leaf, evaluated: tuple | None = None) -> None:
        """`evaluated`: (a group, the expression already holding its domain), see `unswitched_loops`."""
        if ctx.pure and self.options.unswitch and self.unswitched_loops(b, fn, out, ctx, leaf, evaluated):
            return
        if ctx.pure and evaluated is None and self.options.boards and self.g.boards.candidate_loops(b, fn, out, ctx, leaf):
            return
        names: dict = {}
        body = out  # where the statements of the loops so far go
        top = len(out)  # where the loops begin
        bound = ctx.bindings  # bindings of the binders this one runs inside
        for g in b.groups:
            from_zone = isinstance(g.domain.ty, (ZoneT, BoardT)) or self.options.cards and never_none(g.domain)
            one = g.domain.items[0] if isinstance(g.domain, ir.ListExpr) and len(g.domain.items) == 1 else \
                ir.Const(g.domain.value[0]) if isinstance(g.domain, ir.Const) and len(g.domain.value) == 1 else None
            inner = ctx.bind(names)
            if len(g.names) == 1 and one is not None:
                v = self.fresh("v")
                if ctx.pure and isinstance(one, ir.Const):  # the same every time: set once, before the loops
                    out.insert(top, code.assign(v, self.expr(one, fn, inner)))
                    out[top].constant = True  # (copies.py: gone if nothing reads it)
                    top += 1
                else:
                    body.append(code.assign(v, self.expr(one, fn, inner)))
                names[g.names[0]] = Bound(v)
                continue
            size, k = self.size_bound(g.domain), len(g.names)
            bound = bound * comb(size, k) if bound is not None and size is not None else None
            domain = evaluated[1] if evaluated is not None and g is evaluated[0] \
                else self.g.exprs.cards_of(g.domain, fn, inner)
            if bound is None or bound > tuning.FREE_BINDINGS:  # count the bindings as work (see FREE_BINDINGS)
                d = self.fresh("d")
                self.g.work_counted += 1
                count = code.expr("len(D)", D=d) if k == 1 else code.expr("_comb(len(D), K)", D=d, K=k)
                body += [code.assign(d, domain), *code.stmts(  # (written out: a call costs as much as the count)
                    "st.work += COUNT\nif st.work > LIMIT:\n    _overwork(st, COUNT, SPAN, LIMIT)", COUNT=count,
                    SPAN=self.const(b.span), LIMIT=self.g.work_limit)]
                domain = code.name(d)
            if len(g.names) == 1:
                v = self.fresh("v")
                loop = ast.For(ast.Name(v, STORE), domain, [], [], None)
                # on a grid, for the domains of the groups after it too (tables.neighbours: `space(B, column(m), row(m))`)
                grid = g.domain.zone if ctx.pure and self.options.boards and isinstance(g.domain, ir.ZoneRef) \
                    and isinstance(g.domain.ty, BoardT) and self.g.boards.on_grid_board(g.domain.zone) else None
                names[g.names[0]] = Bound(v, from_zone, grid)
            elif len(g.names) == 2 and ctx.pure and self.options.idioms:  # nothing changes the domain: pairs made in C
                a, b2 = self.fresh("v"), self.fresh("v")
                loop = ast.For(code.tuple_of([a, b2], STORE), code.call("_combinations", domain, 2), [], [], None)
                names[g.names[0]], names[g.names[1]] = Bound(a, from_zone), Bound(b2, from_zone)
            elif len(g.names) == 2:
                d, i, j, a, b2 = (self.fresh(p) for p in ("d", "i", "j", "v", "v"))
                body.append(code.assign(d, domain))
                inside = ast.For(ast.Name(j, STORE), code.expr("range(I + 1, len(D))", I=i, D=d),
                                 [code.assign(b2, code.expr("D[J]", D=d, J=j))], [], None)
                body.append(ast.For(ast.Name(i, STORE), code.expr("range(len(D) - 1)", D=d),
                                    [code.assign(a, code.expr("D[I]", D=d, I=i)), inside], [], None))
                names[g.names[0]], names[g.names[1]] = Bound(a, from_zone), Bound(b2, from_zone)
                body = inside.body
                continue
            else:
                vs = [self.fresh("v") for _ in g.names]
                loop = ast.For(code.tuple_of(vs, STORE), code.call("_combinations", domain, len(vs)), [], [], None)
                names.update((n, Bound(v, from_zone)) for n, v in zip(g.names, vs))
            body.append(loop)
            body = loop.body
        if ctx.pure and self.options.boards:  # in a quantifier nothing moves: a card bound from a grid stays there
            for g in b.groups:
                if isinstance(g.domain.ty, BoardT) and self.g.boards.on_grid_board(g.domain.zone):
                    names.update((n, dataclasses.replace(names[n], grid=g.domain.zone)) for n in g.names)
        inner = ctx.bind(names).but(bindings=bound, first=None)  # a binder inside the test or value runs once per binding
        stmts = leaf(inner)
        if b.where is None and self.options.idioms and (whole := _appended_whole(stmts, body, out)) is not None:
            out[-1] = whole  # every value of one loop appended: the list extended in C
            return
        if b.where is not None:
            test = ast.If(self.expr(b.where, fn, inner), [], [])
            body.append(test)
            body = test.body
        body += stmts

    def unswitched_loops(self, b: ir.Binder, fn, out: list, ctx: Ctx, leaf, evaluated: tuple | None) -> bool:
        """Loop unswitching: a `where` that first tests something no binding changes (a `case` on it, an
        `if`, the left side of an `and` or an `or`) is tested once, before the loops, and each branch gets loops of
        its own with only the rest of the test inside: `a, b in hand where case trial.kind: ...` as one
        loop per kind. The test runs exactly when the original would first have run it (when there is a
        first binding), so a lazy value is never computed that the original would not have computed.
        A `where` that tests nothing of the kind but surely computes a lazy value first (`b <= cards_left()
        and ...`) gets the one branch: the value is computed before the loops, not tested at each binding;
        so does a binder with no `where` whose value surely computes one first (`ctx.first`: a quantifier's
        value, a pick's key: `first(c in trick ordered by c.value + (40 if c.suit == trumps() ...))`).

        Only for one group of names that loops (the others bind one constant each), with no work counted
        (so a first binding exists exactly when the domain holds as many items as names), in a quantifier
        (nothing the test reads changes while the loops run). False when the binder is not of that shape."""
        where = b.where
        looping = [g for g in b.groups if not (isinstance(g.domain, ir.Const) and len(g.domain.value) == 1)]
        if where is None and ctx.first is None or len(looping) != 1 or b.order:
            return False
        g, k = looping[0], len(looping[0].names)
        cards = set(g.names) if isinstance(g.domain.ty, ZoneT) else set()
        branches = self.invariant_branches(where, set(b.names)) if where is not None else None
        if branches is None:  # one branch, if the test (or, with none, the value) surely computes a lazy value
            # first: then before the loops
            probe = where if where is not None else ctx.first
            if probe is None or not [n for n in surely_computed_first(probe, cards) if n not in ctx.known]:
                return False
            branches = None, [(None, where if where is not None else ir.Const(True, ty=BOOL))]
        if isinstance(g.domain.ty, BoardT):
            return False
        size = self.size_bound(g.domain)
        if size is None or ctx.bindings is None or ctx.bindings * comb(size, k) > tuning.FREE_BINDINGS:
            return False
        if isinstance(g.domain, ir.ListExpr) and len(g.domain.items) == 1:
            return False  # one value: no loop to unswitch
        d = evaluated[1] if evaluated is not None else None
        if d is None:
            d = code.name(self.fresh("d"))
            out.append(code.assign(d.id, self.g.exprs.cards_of(g.domain, fn, ctx)))
        first = ast.If(code.expr("len(D) >= K", D=d, K=k) if k > 1 else d, [], [])  # (one: D is not empty)
        out.append(first)
        probe, tests = branches
        t = None  # what the probe computes is known in every branch
        if probe is not None:
            ctx = self.g.lazy.compute_first(surely_computed_first(probe, set()), fn, first.body, ctx)
            value = self.expr(probe, fn, ctx)
            if type(value) is ast.Name:  # (a local already, nothing the loops change: no copy of it)
                t = value.id
            else:
                t = self.fresh("t")
                first.body.append(code.assign(t, value))
        self.branch_loops(b, g, d, tests, t, fn, first.body, ctx, leaf)
        return True

    def branch_loops(self, b, g, d, tests, t, fn, out: list, ctx: Ctx, leaf) -> None:
        """One branch of loop unswitching per test (see unswitched_loops), each with its own loops."""
        lazy = self.g.lazy
        unset = dict(lazy.unset)  # the branches exclude one another: each starts with what is UNSET here
        still = set(unset)
        chain = []  # (test, its statements), the last test None for `else`
        for test, rest in tests:
            if isinstance(rest, ir.Const) and rest.value is False:
                continue  # no binding passes: no loops
            if isinstance(rest, ir.Const) and rest.value is True:
                rest = None  # every binding passes
            made = test(t, fn, ctx) if test is not None else None
            if isinstance(rest, ast.stmt):  # a statement (no arm matches: the error)
                chain.append((made, [rest]))
                continue
            lazy.unset = dict(unset)
            inner: list = []
            cards = set(g.names) if isinstance(g.domain.ty, ZoneT) else set()
            # what the test computes at the first binding before anything that may fail (with no test, what
            # the value computes first): computed now
            probe = rest if rest is not None else ctx.first
            first = surely_computed_first(probe, cards) if probe is not None else []
            if probe is not None and self.options.hoist:  # and what costs no more than its test at each binding
                first += cheap_and_safe(probe, lambda name: _lazy_value(ctx, name), g.domain)
            branch = lazy.compute_first(first, fn, inner, ctx)
            self.plain_loops(dataclasses.replace(b, where=rest), fn, inner, branch.but(first=None), leaf, (g, d))
            still &= set(lazy.unset)
            chain.append((made, inner))
        lazy.unset = {name: unset[name] for name in still}
        otherwise: list = []
        for test, stmts in reversed(chain):
            otherwise = stmts if test is None else [ast.If(test, stmts, otherwise)]
        out += otherwise

    def invariant_branches(self, where: ir.Expr, names: set):
        """(the value tested once, [(its test, the rest of the where), ...]) for a where that starts by
        testing something free of `names`; None otherwise. A test is a function of the probe's local;
        a test of None is `else`; a rest of None is a where that always holds; a statement, one run."""
        def free(e) -> bool:
            return not (free_locals(e, self._free_memo) & names)
        exprs = self.g.exprs
        if isinstance(where, ir.Case) and free(where.subject):
            arms, default = exprs.case_arms(where)
            if not arms:
                return None
            tests = [(lambda t, fn, ctx, values=values: exprs.case_test(code.name(t), values), value)
                     for values, value in arms]
            fail = code.stmt("_fail(ERR)", ERR=self.error(where.span, "no case arm matches"))
            return where.subject, tests + [(None, default if default is not None else fail)]
        if isinstance(where, ir.IfExpr) and free(where.cond):
            cond = where.cond
            return None, [(lambda t, fn, ctx: self.expr(cond, fn, ctx), where.then), (None, where.otherwise)]
        if isinstance(where, ir.Binary) and where.op in ("and", "or"):
            left, *others = _operands(where, where.op)  # `(a or b) or c` tests a first as `a or (b or c)` does
            if not free(left):
                return None
            rest = others[-1]
            for e in reversed(others[:-1]):
                rest = ir.Binary(where.op, e, rest, span=where.span, ty=BOOL)
            def test(t, fn, ctx):
                return code.name(t)
            if where.op == "and":
                return left, [(test, rest)]
            return left, [(test, ir.Const(True, ty=BOOL)), (None, rest)]  # every binding, or the rest's
        return None

    def size_bound(self, e: ir.Expr) -> int | None:
        """The most items a zone or list expression can hold, if known before play."""
        if isinstance(e.ty, (ZoneT, BoardT)):
            return sum(self.L.kind_count[k] for k in e.ty.kinds)
        if isinstance(e, ir.ListExpr):
            return len(e.items)
        if isinstance(e, ir.BuiltinCall) and e.name in ("players", "clockwise"):
            return len(self.L.roles)
        if isinstance(e, ir.Const) and isinstance(e.value, (list, tuple)):
            return len(e.value)
        if isinstance(e, Lookup) and isinstance(e.table, ir.Const) and isinstance(e.table.value, dict):
            return max(map(len, e.table.value.values()), default=0)  # a list from a table (tables.neighbours)
        if isinstance(e, ir.RangeExpr) and isinstance(e.low, ir.Const) and isinstance(e.high, ir.Const):
            return max(0, e.high.value - e.low.value + 1)
        if isinstance(e, (ir.Binary, ir.IfExpr)):
            parts = (e.left, e.right) if isinstance(e, ir.Binary) else (e.then, e.otherwise)
            sizes = [self.size_bound(p) for p in parts]
            if None in sizes or isinstance(e, ir.Binary) and e.op != "+":
                return None
            return sum(sizes) if isinstance(e, ir.Binary) else max(sizes)
        if isinstance(e, ir.Quantified) and e.kind == "list":
            bound = 1
            for g in e.binder.groups:
                size = self.size_bound(g.domain)
                if size is None:
                    return None
                bound *= comb(size, len(g.names))
            return bound
        return None

    def uncounted(self, domain: ir.Expr, ctx: Ctx) -> bool:
        """Whether going through a domain's items, inside the binders around, counts no work (FREE_BINDINGS)."""
        size = self.size_bound(domain)
        return ctx.bindings is not None and size is not None and ctx.bindings * size <= tuning.FREE_BINDINGS


def _operands(e: ir.Expr, op: str) -> list[ir.Expr]:
    """The operands of a chain of one logical operator, in the order they are tested."""
    if isinstance(e, ir.Binary) and e.op == op:
        return _operands(e.left, op) + _operands(e.right, op)
    return [e]


def _appended_whole(stmts: list, body: list, out: list) -> ast.stmt | None:
    """`OUT.extend(D)` for loops that are one `for v in D` (the last of `out`, whose body is `body`)
    appending each `v` to a list, and nothing else."""
    loop = out[-1] if out else None
    if type(loop) is not ast.For or loop.body is not body or body or type(loop.target) is not ast.Name \
            or len(stmts) != 1 or type(stmts[0]) is not ast.Expr:
        return None
    call = stmts[0].value
    if type(call) is ast.Call and type(call.func) is ast.Attribute and call.func.attr == "append" \
            and type(call.func.value) is ast.Name and len(call.args) == 1 and type(call.args[0]) is ast.Name \
            and call.args[0].id == loop.target.id and not call.keywords:
        return code.stmt("OUT.extend(D)", OUT=call.func.value.id, D=loop.iter)
    return None


def _lazy_value(ctx: Ctx, name: str) -> ir.Expr | None:
    """The value of a lazy value of the context, not yet known; None for another name."""
    bound = ctx.scope.get(name)
    return bound.value if isinstance(bound, LazyBound) and name not in ctx.known else None
