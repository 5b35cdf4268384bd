"""Binders -> nested Python loops.

`a, b in hand, m in reserve where P ordered by K` becomes nested `for`
loops over Python locals (pairs of one domain as two index loops, more as
`combinations`), the `where` test inside, and for `ordered by` a list of
(keys, values) sorted stably before the body runs. Quantifiers (`exists`,
`count`, `first`, aggregates, list comprehensions) and a decision's options
are each one nested function built around those loops; boards.py says how
a whole board is gone through.

A binder whose bindings (with those of the binders it runs inside) may
exceed FREE_BINDINGS is counted against the step limit, so `exists a, b, c,
d in box` over ten thousand cards stops at the limit instead of running for
days; smaller ones (every binder of the bundled rulesets) cost nothing extra.
"""
from __future__ import annotations

import dataclasses
from math import comb
from operator import itemgetter

from rulelang import ir
from rulelang.files import location
from rulelang.types import BoardT, ZoneT

from .boards import Boards
from .expressions import Expressions
from .hoist import free_locals, surely_computed_first
from .nodes import Options
from .prelude import FREE_BINDINGS
from .source import Function


class Binders(Boards, Expressions):
    def __init__(self, layout, keep: bool = True, options=None):
        super().__init__(layout, keep, *(() if options is None else (options,)))
        self._bindings: int | None = 1  # bindings of the binders being generated around (None: unknown)
        self._pure = False  # generating a quantifier's loops: no statement runs inside them
        self._unordered = False  # and the order of its bindings changes nothing (`exists`, `count`)
        self._listing = False  # and it lists its bindings (Options): nothing done for each can fail
        self._kind_sets: dict[str, frozenset] = {}  # a card type -> its cards
        self._free_memo: dict = {}  # hoist.free_locals' memo
        # a decision's options of one name, asked for as bare values rather than 1-tuples
        # (bare_options); True once expr_options has made them so
        self._bare: bool = False
        self._made_bare: bool = False

    def loops(self, b: ir.Binder, fn: Function, scope: dict, leaf) -> None:
        """Emit nested loops binding b's names into fn.body; `leaf(scope)`
        returns the lines run for each binding (the where test included)."""
        if b.order:
            self.ordered_loops(b, fn, scope, leaf)
        else:
            self.plain_loops(b, fn, scope, leaf)

    def ordered_loops(self, b: ir.Binder, fn: Function, scope: dict, leaf) -> None:
        """`ordered by`: collect the keys then the values of every binding as one row, sort
        the rows by the keys (a stable sort: ties keep the binder's order), then run the leaf.
        Bindings listed in an order the board already has (`g in gauntlet ordered by row(g),
        column(g)`) are listed as the board has them."""
        spaces = self.space_order(b) if self._listing and self.options.boards else None
        if spaces is not None and spaces == sorted(spaces):  # the board's own order
            self.plain_loops(dataclasses.replace(b, order=()), fn, scope, leaf)
            return
        if spaces is not None and self.where_never_fails(b, scope):  # each space's cards, the spaces in order
            listed = "[" + ", ".join(f"*zones[{z}]" for z in spaces) + "]"
            self.plain_loops(dataclasses.replace(b, order=()), fn, scope, leaf, (b.groups[0], listed))
            return
        rows, names = self.fresh("rows"), b.names
        vs = [self.fresh("v") for _ in names]
        inner: dict = {}

        def collect(s):
            inner.update(s)
            keys = [f"-{self.expr(k.value, fn, s)}" if k.descending else self.expr(k.value, fn, s) for k in b.order]
            return [f"{rows}.append(({', '.join(keys + [s[n][0] for n in names])}))"]
        fn.body.append(f"{rows} = []")
        self.plain_loops(dataclasses.replace(b, order=()), fn, scope, collect)
        by = self.const(itemgetter(*range(len(b.order))))  # the keys: one C call, no Python function
        fn.body += [f"{rows}.sort(key={by})", f"for {'_, ' * len(b.order)}{', '.join(vs)} in {rows}:"]
        sorted_scope = {**scope, **{n: (v, inner[n][1]) for n, v in zip(names, vs)}}
        fn.body += ["    " + line for line in leaf(sorted_scope)]

    def plain_loops(self, b: ir.Binder, fn: Function, scope: dict, leaf, evaluated: tuple | None = None) -> None:
        """`evaluated`: (a group, the local already holding its domain), see `unswitched_loops`."""
        if self._pure and self.options.unswitch and self.unswitched_loops(b, fn, scope, leaf, evaluated):
            return
        if self._pure and evaluated is None and self.options.boards and self.candidate_loops(b, fn, scope, leaf):
            return
        scope = dict(scope)
        indent = ""
        top = len(fn.body)  # where the loops begin
        outer = bound = self._bindings  # bindings of the binders this one runs inside
        for g in b.groups:
            from_zone = isinstance(g.domain.ty, (ZoneT, BoardT))
            one = g.domain.items[0] if isinstance(g.domain, ir.ListExpr) and len(g.domain.items) == 1 else \
                ir.Const(g.domain.value[0]) if isinstance(g.domain, ir.Const) and len(g.domain.value) == 1 else None
            if len(g.names) == 1 and one is not None:
                v = self.fresh("v")
                if self._pure and isinstance(one, ir.Const):  # the same every time: set once, before the loops
                    fn.body.insert(top, f"{v} = {self.expr(one, fn, scope)}")
                    top += 1
                else:
                    fn.body.append(f"{indent}{v} = {self.expr(one, fn, scope)}")
                scope[g.names[0]] = (v, False)
                continue
            size, k = self.size_bound(g.domain), len(g.names)
            bound = bound * comb(size, k) if bound is not None and size is not None else None
            domain = evaluated[1] if evaluated is not None and g is evaluated[0] \
                else self.cards_of(g.domain, fn, scope)
            if bound is None or bound > FREE_BINDINGS:  # count the bindings as steps (see FREE_BINDINGS)
                d = self.fresh("d")
                count = f"len({d})" if k == 1 else f"_comb(len({d}), {k})"
                fn.body += [f"{indent}{d} = {domain}",
                            f"{indent}_work(st, {count}, {self.const(b.span)}, {self.L.step_limit})"]
                domain = d
            if len(g.names) == 1:
                v = self.fresh("v")
                fn.body.append(f"{indent}for {v} in {domain}:")
                scope[g.names[0]] = (v, from_zone)
                indent += "    "
            elif len(g.names) == 2 and self._pure and self.options.idioms:  # nothing changes the domain: pairs made in C
                a, b2 = self.fresh("v"), self.fresh("v")
                fn.body.append(f"{indent}for {a}, {b2} in _combinations({domain}, 2):")
                scope[g.names[0]], scope[g.names[1]] = (a, from_zone), (b2, from_zone)
                indent += "    "
            elif len(g.names) == 2:
                d, i, j, a, b2 = (self.fresh(p) for p in ("d", "i", "j", "v", "v"))
                fn.body.append(f"{indent}{d} = {domain}")
                fn.body.append(f"{indent}for {i} in range(len({d}) - 1):")
                fn.body.append(f"{indent}    {a} = {d}[{i}]")
                fn.body.append(f"{indent}    for {j} in range({i} + 1, len({d})):")
                fn.body.append(f"{indent}        {b2} = {d}[{j}]")
                scope[g.names[0]], scope[g.names[1]] = (a, from_zone), (b2, from_zone)
                indent += "        "
            else:
                vs = [self.fresh("v") for _ in g.names]
                fn.body.append(f"{indent}for ({', '.join(vs)},) in _combinations({domain}, {len(vs)}):")
                for n, v in zip(g.names, vs):
                    scope[n] = (v, from_zone)
                indent += "    "
        if self._pure and self.options.boards:  # in a quantifier nothing moves: a card bound from a grid stays there
            self.on_grid.update((scope[n][0], g.domain.zone) for g in b.groups if isinstance(g.domain.ty, BoardT)
                                and self.on_grid_board(g.domain.zone) for n in g.names)
        self._bindings = bound  # a binder inside this one's condition or value runs once per binding
        try:
            lines = leaf(scope)
            if b.where is not None:
                fn.body.append(f"{indent}if {self.expr(b.where, fn, scope)}:")
                indent += "    "
        finally:
            self._bindings = outer
        fn.body += [indent + line for line in lines]

    def unswitched_loops(self, b: ir.Binder, fn: Function, scope: dict, leaf, evaluated: tuple | None) -> bool:
        """Loop unswitching: a `where` that first tests something no binding changes (a `case` on it, an
        `if`, the left side of an `and`) is tested once, before the loops, and each branch gets loops of
        its own with only the rest of the test inside: `a, b in hand where case trial.kind: ...` as one
        loop per kind. The test runs exactly when the original would first have run it (when there is a
        first binding), so a lazy value is never computed that the original would not have computed.

        Only for one group of names that loops (the others bind one constant each), with no step counting
        (so a first binding exists exactly when the domain holds as many items as names), in a quantifier
        (nothing the test reads changes while the loops run). False when the binder is not of that shape."""
        where = b.where
        looping = [g for g in b.groups if not (isinstance(g.domain, ir.Const) and len(g.domain.value) == 1)]
        if where is None or len(looping) != 1 or b.order:
            return False
        g, k = looping[0], len(looping[0].names)
        branches = self.invariant_branches(where, set(b.names))
        if branches is None or isinstance(g.domain.ty, BoardT):
            return False
        size = self.size_bound(g.domain)
        if size is None or self._bindings is None or self._bindings * comb(size, k) > FREE_BINDINGS:
            return False
        if isinstance(g.domain, ir.ListExpr) and len(g.domain.items) == 1:
            return False  # one value: no loop to unswitch
        d = evaluated[1] if evaluated is not None else None
        if d is None:
            d = self.fresh("d")
            fn.body.append(f"{d} = {self.cards_of(g.domain, fn, scope)}")
        fn.body.append(f"if len({d}) >= {k}:")
        probe, tests = branches
        known, t = dict(self._known), None  # what the probe computes is known in every branch
        if probe is not None:
            t = self.fresh("t")
            self.compute_first(surely_computed_first(probe, set()), fn, scope, "    ")
            fn.body.append(f"    {t} = {self.expr(probe, fn, scope)}")
        try:
            self.branch_loops(b, g, d, tests, t, fn, scope, leaf)
        finally:
            self._known = known
        return True

    def branch_loops(self, b, g, d, tests, t, fn, scope, leaf) -> None:
        """One branch of loop unswitching per test (see unswitched_loops), each with its own loops."""
        unset = dict(self._unset)  # the branches exclude one another: each starts with what is UNSET here
        still = set(unset)
        keyword = "if"
        for test, rest in tests:
            if isinstance(rest, ir.Const) and rest.value is False:
                continue  # no binding passes: no loops
            if isinstance(rest, ir.Const) and rest.value is True:
                rest = None  # every binding passes
            if test is None:
                fn.body.append("    else:")
            else:
                fn.body.append(f"    {keyword} {test(t, fn, scope)}:")
                keyword = "elif"
            if isinstance(rest, str):  # a statement (no arm matches: the error)
                fn.body.append(f"        {rest}")
                continue
            outer, fn.body = fn.body, []
            known, self._unset = dict(self._known), dict(unset)
            try:
                cards = set(g.names) if isinstance(g.domain.ty, ZoneT) else set()
                # what the test computes at the first binding before anything that may fail: computed now
                self.compute_first(surely_computed_first(rest, cards) if rest is not None else (), fn, scope)
                self.plain_loops(dataclasses.replace(b, where=rest), fn, scope, leaf, (g, d))
            finally:
                inner, fn.body, self._known = fn.body, outer, known
                still &= set(self._unset)
            fn.body += ["        " + line for line in inner]
        self._unset = {name: unset[name] for name in still}

    def invariant_branches(self, where: ir.Expr, names: set):
        """(the value tested once, [(its test, the rest of the where), ...]) for a where that starts by
        testing something free of `names`; None otherwise. A test is a function of the probe's local;
        a test of None is `else`; a rest of None is a where that always holds; a string, a statement."""
        def free(e) -> bool:
            return not (free_locals(e, self._free_memo) & names)
        if isinstance(where, ir.Case) and free(where.subject):
            arms, default = self.case_arms(where)
            if not arms:
                return None
            tests = [(lambda t, fn, scope, values=values: self.case_test(t, values, fn, scope), value)
                     for values, value in arms]
            fail = f"_fail({self.error(where.span, 'no case arm matches')})"
            return where.subject, tests + [(None, default if default is not None else fail)]
        if isinstance(where, ir.IfExpr) and free(where.cond):
            cond = where.cond
            return None, [(lambda t, fn, scope: self.expr(cond, fn, scope), where.then), (None, where.otherwise)]
        if isinstance(where, ir.Binary) and where.op == "and" and free(where.left):
            left = where.left
            return None, [(lambda t, fn, scope: self.expr(left, fn, scope), where.right)]
        return None

    def size_bound(self, e: ir.Expr) -> int | None:
        """The most items a zone or list expression can hold, if known before play."""
        if isinstance(e.ty, (ZoneT, BoardT)):
            return sum(self.L.kind_count[k] for k in e.ty.kinds)
        if isinstance(e, ir.ListExpr):
            return len(e.items)
        if isinstance(e, ir.Const) and isinstance(e.value, (list, tuple)):
            return len(e.value)
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

    def quantifier_function(self, e, fn: Function, scope: dict, setup, leaf, finish) -> str:
        q = Function(self.fresh("q"), note=location(e.span) if e.span is not None else None)
        if self._lazy_host is not None and self._lazy_host[0] is e:  # its lazy values: locals of its own
            scope = self.lazy_values(self._lazy_host[1], q, scope)
            self._lazy_host = None
        if self._entry is e:  # the whole of a value once() computes: called right after its lazy values reset
            self._entry = None
            self._unset.update((name, q) for name, f in self._unset.items() if f is fn)
        q.body += setup
        saved = self._pure, self._unordered, self._listing
        self._pure, self._unordered = True, getattr(e, "kind", None) in ("exists", "count")
        self._listing = isinstance(e, Options)
        try:
            self.loops(e.binder, q, scope, lambda inner: leaf(q, inner))
        finally:
            self._pure, self._unordered, self._listing = saved
        q.body += finish
        start = len(fn.prelude)
        fn.prelude += q.render()
        self._last_made = (q, fn, start, len(fn.prelude))
        return q.name + "()"

    def expr_quantified(self, e, fn, scope):
        kind = e.kind
        groups = e.binder.groups
        scan = self.board_scan(e, fn, scope) if self.options.boards else None
        if scan is not None:
            return scan
        if self.options.idioms and e.binder.where is None and not e.binder.order and len(groups) == 1 and len(groups[0].names) == 1 \
                and kind in ("exists", "count", "first", "last"):
            seq = self.cards_of(groups[0].domain, fn, scope)
            if kind == "exists":
                return f"bool({seq})"
            if kind == "count":
                return f"len({seq})"
            t, err = self.fresh("t"), self.error(e.span, f"{kind}(): no card or value matches")
            return f"({t}[{0 if kind == 'first' else -1}] if ({t} := {seq}) else _fail({err}))"
        if kind == "exists" and (fast := self.exists_of_kind(e, fn, scope)) is not None:
            return fast
        if kind == "exists":
            return self.quantifier_function(e, fn, scope, [], lambda q, s: ["return True"], ["return False"])
        if kind == "count":
            n = self.fresh("n")
            return self.quantifier_function(e, fn, scope, [f"{n} = 0"], lambda q, s: [f"{n} += 1"],
                                            [f"return {n}"])
        if kind in ("first", "last"):
            err = self.error(e.span, f"{kind}(): no card or value matches")
            if kind == "first":
                return self.quantifier_function(e, fn, scope, [], lambda q, s: [f"return {s[e.binder.names[0]][0]}"],
                                                [f"_fail({err})"])
            found = self.fresh("found")
            return self.quantifier_function(
                e, fn, scope, [f"{found} = UNSET"], lambda q, s: [f"{found} = {s[e.binder.names[0]][0]}"],
                [f"if {found} is UNSET:", f"    _fail({err})", f"return {found}"])
        if kind in ("any", "all"):
            found = kind == "any"  # any: stop at the first true value; all: at the first false one
            test = "" if found else "not "
            return self.quantifier_function(
                e, fn, scope, [], lambda q, s: [f"if {test}{self.expr(e.value, q, s)}:", f"    return {found}"],
                [f"return {not found}"])
        out = self.fresh("out")
        collect = self.quantifier_function(e, fn, scope, [f"{out} = []"],
                                           lambda q, s: [f"{out}.append({self.expr(e.value, q, s)})"],
                                           [f"return {out}"])
        if kind == "list":
            return collect
        if kind == "sum":
            return f"sum({collect})"
        return f"_reduce({kind}, {collect}, {self.error(e.span, f'{kind}() over nothing')})"

    def in_own_function(self, e: ir.Expr) -> bool:
        """Whether expr_quantified makes e a nested function of its own (quantifier_function)."""
        if not isinstance(e, ir.Quantified):
            return False
        groups = e.binder.groups
        simple = e.binder.where is None and not e.binder.order and len(groups) == 1 and len(groups[0].names) == 1 \
            and e.kind in ("exists", "count", "first", "last") and self.options.idioms
        return not simple and not (e.kind == "exists" and self.kind_test(e)) and \
            not (self.options.boards and self.scans_board(e) is not None)

    def kind_test(self, e: ir.Quantified) -> bool:
        """`exists c in ZONE where c is (not) KIND`, not counted as steps (see exists_of_kind)."""
        groups, where = e.binder.groups, e.binder.where
        if not self.options.idioms or e.binder.order or len(groups) != 1 or len(groups[0].names) != 1 or not isinstance(groups[0].domain.ty, ZoneT) \
                or not (isinstance(where, ir.IsType) and isinstance(where.subject, ir.Local)
                        and where.subject.name == groups[0].names[0]):
            return False
        return self.uncounted(groups[0].domain)

    def uncounted(self, domain: ir.Expr) -> bool:
        """Whether going through a domain's items, inside the binders around, counts no steps (FREE_BINDINGS)."""
        size = self.size_bound(domain)
        return self._bindings is not None and size is not None and self._bindings * size <= FREE_BINDINGS

    def exists_of_kind(self, e: ir.Quantified, fn: Function, scope: dict, invert: bool = False) -> str | None:
        """`exists c in ZONE where c is KIND` (or `is not`): one C-level call on the set of the
        kind's cards instead of a nested function and its loop (not when counted as steps).
        `invert`: the test that there is none (`not exists ...`)."""
        if not self.kind_test(e):
            return None
        groups, where = e.binder.groups, e.binder.where
        if where.kind not in self._kind_sets:
            self._kind_sets[where.kind] = frozenset(c for c, yes in enumerate(self.L.is_kind[where.kind]) if yes)
        kind = self.const(self._kind_sets[where.kind])
        zone = self.cards_of(groups[0].domain, fn, scope)
        test = f"{kind}.issuperset({zone})" if where.negated else f"{kind}.isdisjoint({zone})"
        return test if invert else f"(not {test})"

    def values(self, b: ir.Binder, fn: Function) -> str:
        """The values a one-name binder binds, as a list."""
        out, name = self.fresh("out"), b.names[0]
        holder = Options(b, span=b.span)
        return self.quantifier_function(holder, fn, {}, [f"{out} = []"],
                                        lambda q, s: [f"{out}.append({s[name][0]})"], [f"return {out}"])

    def bare_options(self, options: ir.Expr, fn: Function, one_name: bool) -> tuple[str, bool]:
        """A decision's options, listed once (see once), as a local's text; and whether they are
        bare values (one name: no 1-tuple made for each option) rather than tuples."""
        self._bare, self._made_bare = one_name and self.options.idioms, False
        try:
            return self.once(options, fn), self._made_bare
        finally:
            self._bare = self._made_bare = False

    def expr_options(self, e, fn, scope):
        out = self.fresh("out")
        names = e.binder.names
        bare, self._bare = self._bare and len(names) == 1, False
        self._made_bare |= bare
        if bare and (copied := self.zone_copy(e.binder, fn, scope)) is not None:
            return copied

        def leaf(q, s):
            if bare:
                return [f"{out}.append({s[names[0]][0]})"]
            return [f"{out}.append(({', '.join(s[n][0] for n in names)},))"]
        return self.quantifier_function(e, fn, scope, [f"{out} = []"], leaf, [f"return {out}"])

    def zone_copy(self, b: ir.Binder, fn: Function, scope: dict) -> str | None:
        """Every card of one zone, in its order (`d in hand`): a copy of the zone's list, made in C."""
        if b.where is not None or b.order or len(b.groups) != 1 or not isinstance(b.groups[0].domain.ty, ZoneT) \
                or not self.options.idioms:
            return None
        if not self.uncounted(b.groups[0].domain):
            return None  # counted as steps: the loops do
        return f"{self.cards_of(b.groups[0].domain, fn, scope)}[:]"
