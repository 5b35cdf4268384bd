"""Quantifiers (`exists`, `count`, `first`, `last`, aggregates, list comprehensions)
and a decision's options -> Python: each a nested function built around the
loops of its binder (binders.py), or, where it says the same, one C-level
expression (`len(zones[3])`, a type's set of cards tested against a zone).
"""
from __future__ import annotations

import ast
import dataclasses

from rulelang import ir
from rulelang.files import location
from rulelang.types import BoardT, ZoneT

from . import pycode as code
from .context import Ctx, Part
from .nodes import HoistLet, Options
from .unit import Function


class Quantifiers(Part):
    def __init__(self, gen):
        super().__init__(gen)
        self._kind_sets: dict[str, frozenset] = {}  # a card type -> its cards
        self._rows: dict[int, tuple] = {}  # id of a constant -> (it, its rows as constant_rows makes them)

    def function(self, e, fn: Function, ctx: Ctx, setup: list, leaf, finish: list, binder=None,
                 first: ir.Expr | None = None) -> ast.expr:
        """A nested function of fn going through e's bindings (or `binder`'s): `setup`, the loops with
        `leaf(q, ctx)` for each binding that passes, then `finish`; the call of it. `first`: what the
        leaf computes first (binders.unswitched_loops computes its lazy values before the loops)."""
        lazy = self.g.lazy
        q = Function(self.fresh("q"), note=location(e.span) if e.span is not None else None)
        if ctx.host is not None and ctx.host[0] is e:  # its lazy values: locals of its own
            ctx = lazy.lazy_values(ctx.host[1], q, ctx)
        if ctx.entry is e:  # the whole of a value `once` computes: called right after its lazy values reset
            lazy.unset.update((name, q) for name, f in lazy.unset.items() if f is fn)
        q.body += setup
        inner = ctx.but(pure=True, unordered=getattr(e, "kind", None) in ("exists", "count"),
                        listing=isinstance(e, Options), host=None, entry=None, bare=False, first=first)
        self.g.binders.loops(binder or e.binder, q, q.body, inner, lambda c: leaf(q, c))
        q.body += finish
        for name in [n for n, f in lazy.unset.items() if f is q]:  # what holds in q holds only there
            del lazy.unset[name]
        return lazy.nested(q, fn)

    def quantified(self, e: ir.Quantified, fn: Function, ctx: Ctx) -> ast.expr:
        kind = e.kind
        groups = e.binder.groups
        scan = self.g.boards.board_scan(e, fn, ctx) if self.options.boards else None
        if scan is not None:
            return scan
        if self.options.idioms and e.binder.where is None and not e.binder.order and len(groups) == 1 \
                and len(groups[0].names) == 1 and kind in ("exists", "count", "first", "last"):
            seq = self.g.exprs.cards_of(groups[0].domain, fn, ctx)
            if kind == "exists":
                return code.truth(seq)
            if kind == "count":
                return code.call("len", seq)
            return code.expr("T[END] if (T := SEQ) else _fail(ERR)", T=self.fresh("t"), END=0 if kind == "first" else -1,
                             SEQ=seq, ERR=self.error(e.span, f"{kind}(): no card or value matches"))
        if kind == "exists" and (fast := self.exists_of_kind(e, fn, ctx)) is not None:
            return fast
        name = e.binder.names[0]
        if kind == "exists":
            return self.function(e, fn, ctx, [], lambda q, c: code.stmts("return True"), code.stmts("return False"))
        if kind == "count":
            n = self.fresh("n")
            return self.function(e, fn, ctx, [code.assign(n, 0)], lambda q, c: code.stmts("N += 1", N=n),
                                 code.stmts("return N", N=n))
        if kind in ("first", "last"):
            err = self.error(e.span, f"{kind}(): no card or value matches")
            if e.binder.order and self.options.idioms:
                return self.ordered_pick(e, fn, ctx, err)
            if kind == "first":
                return self.function(e, fn, ctx, [], lambda q, c: [ast.Return(code.name(c.scope[name].var))],
                                     code.stmts("_fail(ERR)", ERR=err))
            found = self.fresh("found")
            return self.function(e, fn, ctx, code.stmts("FOUND = UNSET", FOUND=found),
                                 lambda q, c: [code.assign(found, c.scope[name].var)],
                                 code.stmts("if FOUND is UNSET:\n    _fail(ERR)\nreturn FOUND", FOUND=found, ERR=err))
        if kind in ("any", "all"):
            found = kind == "any"  # any: stop at the first true value; all: at the first false one

            def test(q, c):
                value = self.expr(e.value, q, c)
                return [ast.If(value if found else ast.UnaryOp(ast.Not(), value), [ast.Return(code.const(found))], [])]
            return self.function(e, fn, ctx, [], test, [ast.Return(code.const(not found))], first=e.value)
        out, value = self.fresh("out"), e.value
        assert value is not None  # (a list, sum, min or max has one)
        collect = self.function(e, fn, ctx, [code.assign(out, ast.List([], ast.Load()))],
                                lambda q, c: code.stmts("OUT.append(V)", OUT=out, V=self.expr(value, q, c)),
                                code.stmts("return OUT", OUT=out), first=value)
        if kind == "list":
            return collect
        if kind == "sum":
            return code.call("sum", collect)
        return code.call("_reduce", kind, collect, self.error(e.span, f"{kind}() over nothing"))

    def ordered_pick(self, e: ir.Quantified, fn: Function, ctx: Ctx, err) -> ast.expr:
        """`first(c in trick ordered by strength(c) descending)`: one pass keeping the binding of the
        lowest keys so far (of the highest, for `last`), not a list of every binding sorted. As the
        stable sort would, `first` keeps the earliest of equal keys (a new one must be lower), `last`
        the latest (a new one may be equal). One key is compared as it is (a descending one the
        other way round), several as a tuple (a descending one negated, as the sort has it)."""
        order, first = e.binder.order, e.kind == "first"
        best, found, key = self.fresh("best"), self.fresh("found"), self.fresh("key")
        one = len(order) == 1
        test = "<" if first else ">="  # (ascending keys, or a tuple of them)
        if one and order[0].descending:
            test = ">" if first else "<="

        def leaf(q, c):
            keys = [ast.UnaryOp(ast.USub(), self.expr(k.value, q, c)) if k.descending and not one else
                    self.expr(k.value, q, c) for k in order]
            return code.stmts(f"KEY = VALUE\nif FOUND is UNSET or KEY {test} BEST:\n    BEST = KEY\n    FOUND = V",
                              KEY=key, VALUE=keys[0] if one else code.tuple_of(keys), FOUND=found, BEST=best,
                              V=c.scope[e.binder.names[0]].var)
        binder = dataclasses.replace(e.binder, order=())
        return self.function(e, fn, ctx, code.stmts("FOUND = UNSET\nBEST = None", FOUND=found, BEST=best), leaf,
                             code.stmts("if FOUND is UNSET:\n    _fail(ERR)\nreturn FOUND", FOUND=found, ERR=err), binder,
                             order[0].value)

    def in_own_function(self, e: ir.Expr, ctx: Ctx) -> bool:
        """Whether `quantified` makes e a nested function of its own (see function)."""
        if not isinstance(e, ir.Quantified):
            return False
        groups = e.binder.groups
        simple = e.binder.where is None and not e.binder.order and len(groups) == 1 and len(groups[0].names) == 1 \
            and e.kind in ("exists", "count", "first", "last") and self.options.idioms
        return not simple and not (e.kind == "exists" and self.kind_test(e, ctx)) and \
            not (self.options.boards and self.g.boards.scans_board(e) is not None)

    def kind_test(self, e: ir.Quantified, ctx: Ctx) -> bool:
        """`exists c in ZONE where c is (not) KIND`, counting no work (see exists_of_kind)."""
        groups, where = e.binder.groups, e.binder.where
        if not self.options.idioms or e.binder.order or len(groups) != 1 or len(groups[0].names) != 1 \
                or not isinstance(groups[0].domain.ty, ZoneT) \
                or not (isinstance(where, ir.IsType) and isinstance(where.subject, ir.Local)
                        and where.subject.name == groups[0].names[0]):
            return False
        return self.g.binders.uncounted(groups[0].domain, ctx)

    def exists_of_kind(self, e: ir.Quantified, fn: Function, ctx: Ctx, invert: bool = False) -> ast.expr | None:
        """`exists c in ZONE where c is KIND` (or `is not`): one C-level call on the set of the
        kind's cards instead of a nested function and its loop (not when its work is counted).
        `invert`: the test that there is none (`not exists ...`)."""
        if not self.kind_test(e, ctx):
            return None
        groups, where = e.binder.groups, e.binder.where
        assert isinstance(where, ir.IsType)  # (kind_test says so)
        if where.kind not in self._kind_sets:
            self._kind_sets[where.kind] = frozenset(c for c, yes in enumerate(self.L.is_kind[where.kind]) if yes)
        kind = self.const(self._kind_sets[where.kind])
        zone = self.g.exprs.cards_of(groups[0].domain, fn, ctx)
        test = code.expr("KIND.issuperset(Z)" if where.negated else "KIND.isdisjoint(Z)", KIND=kind, Z=zone)
        return test if invert else ast.UnaryOp(ast.Not(), test)

    def values(self, b: ir.Binder, fn: Function, ctx: Ctx) -> ast.expr:
        """The values a one-name binder binds, as a list."""
        out, name = self.fresh("out"), b.names[0]
        return self.function(Options(b, span=b.span), fn, ctx, [code.assign(out, ast.List([], ast.Load()))],
                             lambda q, c: code.stmts("OUT.append(V)", OUT=out, V=c.scope[name].var),
                             code.stmts("return OUT", OUT=out))

    def bare_options(self, options: ir.Expr, fn: Function, out: list,
                     one_name: bool) -> tuple[ast.expr, bool, dict[str, ir.Const]]:
        """A decision's options, listed once (lazy.once); whether they are bare values (one name: no
        1-tuple made for each option) rather than tuples; and the names left out of the tuples, each
        bound to one constant (`ma in uses_for(a)` where no modifier can be in play: none)."""
        inner = options_in(options)
        bare = one_name and self.options.idioms and isinstance(inner, Options)
        narrow = not one_name and self.options.idioms and isinstance(inner, Options) and \
            0 < len(fixed := fixed_names(inner.binder)) < len(inner.binder.names)
        return self.g.lazy.once(options, fn, out, Ctx(bare=bare, narrow=narrow)), bare, fixed if narrow else {}

    def listed(self, e: Options, fn: Function, ctx: Ctx) -> ast.expr:
        """Every binding of a binder (a decision's options, a loop's rows): a list of tuples, or of values."""
        out = self.fresh("out")
        names = e.binder.names
        bare = ctx.bare and len(names) == 1
        varying = [n for n in names if n not in fixed_names(e.binder)] if ctx.narrow else names
        ctx = ctx.but(bare=False, narrow=False)
        if (copied := self.copied(e.binder, fn, ctx, bare)) is not None:
            return copied

        def leaf(q, c):
            row = code.name(c.scope[names[0]].var) if bare else code.tuple_of([c.scope[n].var for n in varying])
            return code.stmts("OUT.append(ROW)", OUT=out, ROW=row)
        return self.function(e, fn, ctx, [code.assign(out, ast.List([], ast.Load()))], leaf,
                             code.stmts("return OUT", OUT=out))

    def copied(self, b: ir.Binder, fn: Function, ctx: Ctx, bare: bool) -> ast.expr | None:
        """Every item of one zone or list, in its order (`d in hand`, `p in clockwise(dealer)`): a copy
        made in C, of the values (`bare`) or of 1-tuples of them (`zip`), instead of a loop appending."""
        if b.where is not None or b.order or len(b.groups) != 1 or len(b.names) != 1 or not self.options.idioms \
                or isinstance(b.groups[0].domain.ty, BoardT):
            return None
        if not self.g.binders.uncounted(b.groups[0].domain, ctx):
            return None  # its work is counted: the loops do
        items = self.g.exprs.cards_of(b.groups[0].domain, fn, ctx)
        if not bare:  # (of a list made for it, `list(L)`, L itself)
            listed = isinstance(items, ast.Call) and isinstance(items.func, ast.Name) and items.func.id == "list"
            items = items.args[0] if listed else items
            return self.constant_rows(items) or code.expr("list(zip(ITEMS))", ITEMS=items)
        domain = b.groups[0].domain
        if isinstance(domain, ir.ListExpr) or isinstance(domain, ir.BuiltinCall) and domain.name == "clockwise":
            return items  # a new list already
        return code.expr("ITEMS[:]" if isinstance(domain.ty, ZoneT) else "list(ITEMS)", ITEMS=items)

    def constant_rows(self, items: ast.expr) -> ast.expr | None:
        """The 1-tuples of a constant list (`k2`: the players), or of a row of a constant table of lists
        (`k8[i]`: the seats clockwise from one), made once as a constant, and copied as a list: the
        same rows as `list(zip(...))` makes them at each pass (a loop's, kept in the frame across
        decisions; a pick's), for a seventh of the work."""
        index = None
        if isinstance(items, ast.Subscript):
            index = items.slice
            items = items.value
        if type(items) is not ast.Name or items.id[:1] != "k" or not items.id[1:].isdigit():
            return None
        value = self.g.units.consts[int(items.id[1:])]
        table = value if index is not None else (value,)  # the lists whose items are rows
        if type(value) not in _LISTS or \
                not all(type(row) in _LISTS and all(type(x) in _ROW_ITEMS for x in row) for row in table):
            return None
        made = self._rows.get(id(value))  # (one constant of them a unit, however many loops go through them)
        if made is None:
            rows = tuple(tuple((x,) for x in row) for row in table)
            # (the constant kept with its rows, so that its id stays its own)
            made = self._rows[id(value)] = (value, rows if index is not None else rows[0])
        rows = self.const(made[1])
        return code.call("list", rows if index is None else ast.Subscript(rows, index, ast.Load()))


_LISTS = (list, tuple)
_ROW_ITEMS = frozenset({int, str, bool, type(None)})  # what a row of constant tuples may hold (state._PLAIN)


def fixed_names(b: ir.Binder) -> dict[str, ir.Const]:
    """The names a binder binds to one constant (alone in a group over a list of one constant)."""
    found = {}
    for g in b.groups:
        d = g.domain
        one = d.items[0] if isinstance(d, ir.ListExpr) and len(d.items) == 1 else \
            ir.Const(d.value[0]) if isinstance(d, ir.Const) and isinstance(d.value, (tuple, list)) \
            and len(d.value) == 1 else None  # (as binders.py reads it)
        if len(g.names) == 1 and isinstance(one, ir.Const):
            found[g.names[0]] = one
    return found


def options_in(e: ir.Expr) -> ir.Expr:
    """The options expression under the lazy values around it."""
    return options_in(e.body) if isinstance(e, HoistLet) else e
