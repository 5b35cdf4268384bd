"""IR -> faster IR for one mode and one set of parameter values.

A hand-written game is specialised to its options; this pass does the same
for a ruleset, so the closures compiled from it do little more work than
hand-written code would. In order:

1. Parameters become constants and everything that depends only on
   constants is folded (`if action_modifiers:` disappears when false).
2. Defines are inlined (they are pure and never recursive), with their
   locals renamed apart, so folding and hoisting see through them.
3. A flow analysis finds which card types can ever reach each zone, so a
   test like `m is action_modifier` over a zone that can never hold one
   folds to false, and a list built from it to [].
4. Inside every binder, subexpressions that do not depend on the bound
   names are hoisted out and computed at most once per evaluation, lazily,
   so nothing is evaluated that the original would not have evaluated.

The result means exactly what the input means; `Game(..., optimize=False)`
runs the IR as checked, and the tests play both and compare.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulelang import ir
from rulelang.types import BoardT, CardT, ListT, ZoneT

# ---------------------------------------------------------------- internal nodes


@dataclass(frozen=True)
class LetIn(ir.Expr):
    """`body` with `name` bound to `value` (from inlining a define)."""
    name: str
    value: ir.Expr
    body: ir.Expr


@dataclass(frozen=True)
class Hoisted(ir.Expr):
    """A value computed at most once per evaluation of the enclosing HoistLet."""
    name: str


@dataclass(frozen=True)
class HoistLet(ir.Expr):
    bindings: tuple[tuple[str, ir.Expr], ...]
    body: ir.Expr


@dataclass(frozen=True)
class Options(ir.Expr):
    """The options of a decision, as an expression (so it can be hoisted)."""
    binder: ir.Binder


@dataclass(frozen=True)
class Program:
    """What the compiler compiles: the optimised (or plain) flow of one mode."""
    setup: ir.Block
    steps: tuple[ir.Step, ...]
    procedures: dict[str, ir.Block]
    score: dict[str, ir.Expr]
    measures: dict[str, ir.Expr]  # None where a measure does not apply
    possible: dict[str, frozenset] | None  # card types that can reach each zone
    options: dict[int, ir.Expr]  # id(Choose or Take) -> its options expression
    watches: tuple[ir.Watch, ...] = ()
    heuristics: dict[str, ir.Expr] = dataclasses.field(default_factory=dict)


def plain_program(rs: ir.Ruleset, mode: ir.Mode) -> Program:
    return Program(rs.setup + mode.setup, mode.round, {n: p.body for n, p in rs.procedures.items()},
                   dict(mode.score), measure_exprs(mode), None, {}, mode.watches, dict(mode.heuristics))


def measure_exprs(mode: ir.Mode) -> dict[str, ir.Expr]:
    """Each measure as one expression: `value if when else none`."""
    return {n: m.value if m.when is None else
            ir.IfExpr(m.when, m.value, ir.Const(None), span=m.span, ty=m.value.ty)
            for n, m in mode.measures.items()}


# ---------------------------------------------------------------- tree utilities


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(node) -> tuple[str, ...]:
    """The names of a node class's fields other than its span and type (cached: this is hot)."""
    cls = type(node)
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if f.name not in ("span", "ty"))
    return names


def map_children(node, f):
    """The node with f applied to each child node (tuples of nodes included)."""
    changes = {}
    for name in _child_fields(node):
        value = getattr(node, name)
        new = _map_value(value, f)
        if new is not value:
            changes[name] = new
    return dataclasses.replace(node, **changes) if changes else node


def _map_value(value, f):
    if isinstance(value, ir.Node):
        return f(value)
    if isinstance(value, tuple):
        items = tuple(_map_value(v, f) for v in value)
        return items if any(a is not b for a, b in zip(items, value)) else value
    return value


def children(node):
    for name in _child_fields(node):
        yield from _nodes(getattr(node, name))


def _nodes(value):
    if isinstance(value, ir.Node):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _nodes(v)


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


_TRIVIAL = (ir.Const, ir.Local, ir.Var, ir.Param, ir.EnumValue, ir.ZoneRef, ir.RoleRef, Hoisted)


# ---------------------------------------------------------------- the pass


class Optimizer:
    def __init__(self, rs: ir.Ruleset, mode: ir.Mode, constant_eval):
        self.rs, self.mode = rs, mode
        self.eval = constant_eval  # evaluates a constant expression (the compiler's job)
        self.possible: dict[str, frozenset] | None = None
        self._fresh = 0

    def fresh(self, base: str) -> str:
        self._fresh += 1
        return f"{base}${self._fresh}"

    def run(self) -> Program:
        rs = self.rs
        setup = rs.setup + self.mode.setup
        steps = self.mode.round
        procs: dict = {}  # every procedure call is inlined: the bodies on their own are not needed
        # role -> expression tables (scores, heuristics) and the measures, all folded alike
        tables = {"score": dict(self.mode.score), "heuristics": dict(self.mode.heuristics),
                  "measures": measure_exprs(self.mode)}
        watches = self.mode.watches
        # pass 1: constants and inlining, then the zone analysis on the result
        setup, steps, procs, tables, watches = self.fold_all(setup, steps, procs, tables, watches)
        self.possible = ZoneAnalysis(rs, procs).run(setup, steps + tuple(w.body for w in watches))
        # pass 2: fold again knowing what each zone can hold, then hoist
        setup, steps, procs, tables, watches = self.fold_all(setup, steps, procs, tables, watches)
        options: dict[int, ir.Expr] = {}
        hoist = Hoister(self)
        setup = hoist.block(setup, options)
        steps = tuple(dataclasses.replace(s, body=hoist.block(s.body, options)) for s in steps)
        procs = {n: hoist.block(b, options) for n, b in procs.items()}
        tables = {t: {r: hoist.expr(e) for r, e in table.items()} for t, table in tables.items()}
        watches = tuple(dataclasses.replace(w, when=hoist.expr(w.when), body=hoist.block(w.body, options))
                        for w in watches)
        return Program(setup, steps, procs, tables["score"], tables["measures"], self.possible, options, watches,
                       tables["heuristics"])

    def fold_all(self, setup, steps, procs, tables, watches):
        return (self.block(setup, {}),
                tuple(dataclasses.replace(s, body=self.block(s.body, {})) for s in steps),
                {n: self.block(b, {}) for n, b in procs.items()},
                {t: {r: self.expr(e, {}) for r, e in table.items()} for t, table in tables.items()},
                tuple(dataclasses.replace(w, when=self.expr(w.when, {}), body=self.block(w.body, {}))
                      for w in watches))

    # ------------------------------------------------------------ statements
    def block(self, stmts, kenv: dict) -> ir.Block:
        out: list[ir.Stmt] = []
        kenv = dict(kenv)
        for s in stmts:
            out.extend(self.stmt(s, kenv))
        return tuple(out)

    def stmt(self, s, kenv: dict) -> list[ir.Stmt]:
        if isinstance(s, ir.If):
            branches = []
            for cond, body in s.branches:
                c = self.expr(cond, kenv)
                if isinstance(c, ir.Const):
                    if c.value:
                        if not branches:
                            return list(self.block(body, kenv))
                        return [dataclasses.replace(s, branches=tuple(branches), otherwise=self.block(body, kenv))]
                    continue
                branches.append((c, self.block(body, kenv)))
            otherwise = self.block(s.otherwise, kenv) if s.otherwise is not None else None
            if not branches:
                return list(otherwise or ())
            return [dataclasses.replace(s, branches=tuple(branches), otherwise=otherwise)]
        if isinstance(s, ir.While):
            cond = self.expr(s.cond, kenv)
            if isinstance(cond, ir.Const) and bool(cond.value) == s.until:
                return []
            return [dataclasses.replace(s, cond=cond, body=self.block(s.body, kenv))]
        if isinstance(s, ir.Repeat):
            return [dataclasses.replace(s, count=self.expr(s.count, kenv), body=self.block(s.body, kenv))]
        if isinstance(s, ir.Let):
            value = self.expr(s.value, kenv)
            kenv[s.name] = (self.kinds(value, kenv), False)
            return [dataclasses.replace(s, value=value)]
        if isinstance(s, (ir.Choose, ir.For, ir.Take)):
            binder, inner = self.binder(s.binder, kenv)
            extra = {"role": self.expr(s.role, kenv)} if isinstance(s, ir.Choose) else {}
            # a name bound to a one-item constant list is that constant in the body too
            body = substitute_statements(s.body, _constant_names(binder))
            return [dataclasses.replace(s, binder=binder, body=self.block(body, inner), **extra)]
        if isinstance(s, ir.Move) and s.every is not None:
            every, _ = self.binder(s.every, kenv)
            dest = self.expr(s.dest, kenv)
            (group,) = every.groups if len(every.groups) == 1 else (None,)
            if group is not None and every.where is None and isinstance(group.domain, ir.ZoneRef) \
                    and isinstance(group.domain.ty, ZoneT):
                return [dataclasses.replace(s, cards=(group.domain,), every=None, dest=dest)]  # the whole zone
            return [dataclasses.replace(s, every=every, dest=dest)]
        if isinstance(s, ir.CallProc):
            return list(self.block(self.inline_procedure(s), kenv))
        if isinstance(s, ir.Menu):
            options = []
            for o in s.options:
                guard = self.expr(o.guard, kenv) if o.guard is not None else None
                if isinstance(guard, ir.Const) and not guard.value:
                    continue
                if isinstance(guard, ir.Const):
                    guard = None
                options.append(dataclasses.replace(o, guard=guard, body=self.block(o.body, kenv)))
            return [dataclasses.replace(s, role=self.expr(s.role, kenv), options=tuple(options))]
        # statements without blocks of their own: fold their expressions
        return [map_children(s, lambda n: self.expr(n, kenv))]

    # ------------------------------------------------------------ binders
    def binder(self, b: ir.Binder, kenv: dict) -> tuple[ir.Binder, dict]:
        inner = dict(kenv)
        groups = []
        for g in b.groups:
            domain = self.expr(g.domain, inner)
            kinds = self.element_kinds(domain, inner)
            for n in g.names:
                inner[n] = (kinds, isinstance(domain, ir.ZoneRef))
            groups.append(dataclasses.replace(g, domain=domain))
        where = b.where
        constants = _constant_names(dataclasses.replace(b, groups=tuple(groups)))
        where = self.expr(substitute(where, constants), inner) if where is not None else None
        if isinstance(where, ir.Const) and where.value:
            where = None
        order = tuple(dataclasses.replace(k, value=self.expr(substitute(k.value, constants), inner))
                      for k in b.order)
        # past the `where`, its `is` tests have narrowed the names (the checker's types)
        after = dict(inner)
        for n, ty in zip(b.names, b.types):
            kinds, never_none = inner[n]
            if kinds is not None and isinstance(ty, CardT):
                after[n] = (kinds & ty.kinds, never_none)
        return dataclasses.replace(b, groups=tuple(groups), where=where, order=order), after

    def element_kinds(self, domain: ir.Expr, kenv: dict):
        """Possible card types of the elements of a domain (None: unknown)."""
        if isinstance(domain, ir.ZoneRef) and self.possible is not None:
            static = domain.ty.kinds if isinstance(domain.ty, (ZoneT, BoardT)) else None
            return self.possible.get(domain.zone, frozenset()) & (static or frozenset(self.rs.card_types))
        if isinstance(domain, ir.Quantified) and domain.kind == "list":
            return self.kinds(domain.value, kenv)
        return None

    def kinds(self, e: ir.Expr, kenv: dict):
        """Possible card types of a card-valued expression (None: unknown)."""
        if isinstance(e, ir.Local):
            return kenv.get(e.name, (None, False))[0]
        if isinstance(e, ir.Const) and e.value is None:
            return frozenset()
        if isinstance(e, ir.BuiltinCall) and e.name in ("top", "bottom") and self.possible is not None \
                and isinstance(e.args[0], ir.ZoneRef):
            return self.possible.get(e.args[0].zone, frozenset())
        if isinstance(e, ir.Quantified) and e.kind in ("first", "last") and len(e.binder.groups) == 1:
            return self.element_kinds(e.binder.groups[0].domain, kenv)
        if isinstance(e, ir.IfExpr):
            a, b = self.kinds(e.then, kenv), self.kinds(e.otherwise, kenv)
            return a | b if a is not None and b is not None else None
        if isinstance(e, LetIn):
            return self.kinds(e.body, {**kenv, e.name: (self.kinds(e.value, kenv), False)})
        return None

    # ------------------------------------------------------------ expressions
    def expr(self, e: ir.Expr, kenv: dict) -> ir.Expr:
        if isinstance(e, ir.Param):
            return ir.Const(self.rs.param_values[e.name], span=e.span, ty=e.ty)
        if isinstance(e, ir.DefineCall):
            return self.inline(e, kenv)
        if isinstance(e, ir.Quantified):
            return self.quantified(e, kenv)
        if isinstance(e, LetIn):
            value = self.expr(e.value, kenv)
            if isinstance(value, _TRIVIAL):
                return self.expr(substitute(e.body, {e.name: value}), kenv)
            body = self.expr(e.body, {**kenv, e.name: (self.kinds(value, kenv), False)})
            return dataclasses.replace(e, value=value, body=body)
        e = map_children(e, lambda n: self.expr(n, kenv) if isinstance(n, ir.Expr) else n)
        return self.simplify(e, kenv)

    def simplify(self, e: ir.Expr, kenv: dict) -> ir.Expr:
        if isinstance(e, ir.Binary) and e.op in ("and", "or"):
            left, right = e.left, e.right
            is_and = e.op == "and"
            if isinstance(left, ir.Const):
                return right if bool(left.value) == is_and else left
            if isinstance(right, ir.Const) and bool(right.value) == is_and:
                return left
            return e
        if isinstance(e, ir.BuiltinCall) and e.name in ("columns", "rows"):  # a board's size is fixed
            zone = self.rs.zones[e.args[0].zone]
            return ir.Const(zone.columns if e.name == "columns" else zone.rows, span=e.span, ty=e.ty)
        if isinstance(e, ir.IfExpr) and isinstance(e.cond, ir.Const):
            return e.then if e.cond.value else e.otherwise
        if isinstance(e, ir.Case) and isinstance(e.subject, ir.Const):
            for arm in e.arms:
                if not arm.patterns or any(p.value == e.subject.value for p in arm.patterns):
                    return arm.value
            return e
        if isinstance(e, ir.IsType):
            kinds = self.kinds(e.subject, kenv)
            if kinds is not None and e.kind not in kinds:
                return ir.Const(e.negated, span=e.span, ty=e.ty)
            if kinds == frozenset({e.kind}) and self.never_none(e.subject, kenv):
                return ir.Const(not e.negated, span=e.span, ty=e.ty)
            return e
        if isinstance(e, (ir.Binary, ir.Unary, ir.ListExpr, ir.RangeExpr, ir.EnumValue)) or \
                isinstance(e, ir.BuiltinCall) and e.name in ("abs", "min", "max", "sum", "any", "all", "size", "empty"):
            parts = list(children(e))
            if all(isinstance(p, ir.Const) for p in parts) and not isinstance(e, ir.EnumValue):
                ok, value = self.eval(e)
                if ok:
                    return ir.Const(value, span=e.span, ty=e.ty)
        return e

    @staticmethod
    def never_none(e: ir.Expr, kenv: dict) -> bool:
        """Names bound by a binder over a zone always hold a card."""
        return isinstance(e, ir.Local) and kenv.get(e.name, (None, False))[1]

    def quantified(self, e: ir.Quantified, kenv: dict) -> ir.Expr:
        binder, inner = self.binder(e.binder, kenv)
        value = self.expr(e.value, inner) if e.value is not None else None
        empty = any(isinstance(g.domain, ir.Const) and g.domain.value == [] for g in binder.groups) or \
            (isinstance(binder.where, ir.Const) and not binder.where.value)
        if empty and e.kind in _EMPTY:
            return ir.Const(_EMPTY[e.kind], span=e.span, ty=e.ty)
        # a name bound to a one-item list is that item
        subst, groups = {}, []
        for g in binder.groups:
            item = _single_item(g)
            if item is not None and e.kind not in ("first", "last"):
                subst[g.names[0]] = item
            else:
                groups.append(g)
        if subst:
            where = self.expr(substitute(binder.where, subst), inner) if binder.where is not None else None
            order = tuple(dataclasses.replace(k, value=self.expr(substitute(k.value, subst), inner))
                          for k in binder.order)
            value = self.expr(substitute(value, subst), inner) if value is not None else None
            if not groups:
                if e.kind == "exists":
                    return where if where is not None else ir.Const(True, span=e.span, ty=e.ty)
                groups = [binder.groups[0]]  # keep one binding so the aggregate still has its one row
                where = substitute(where, {k: v for k, v in subst.items() if k != groups[0].names[0]})
            binder = dataclasses.replace(binder, groups=tuple(groups), where=where, order=order)
            if isinstance(where, ir.Const) and not where.value and e.kind in _EMPTY:
                return ir.Const(_EMPTY[e.kind], span=e.span, ty=e.ty)
        return dataclasses.replace(e, binder=binder, value=value)

    def inline_procedure(self, s: ir.CallProc) -> ir.Block:
        """A call's statements in place (procedures are never recursive), with
        every local renamed apart so the caller's locals are untouched."""
        proc = self.rs.procedures[s.name]
        renames = {p: self.fresh(p) for p, _ in proc.params}
        lets = tuple(ir.Let(renames[p], a, span=s.span) for (p, _), a in zip(proc.params, s.args))
        body = rename_statements(proc.body, self.fresh, renames)
        return lets + body

    def inline(self, e: ir.DefineCall, kenv: dict) -> ir.Expr:
        define = self.rs.defines[e.name]
        args = [self.expr(a, kenv) for a in e.args]
        body = rename_apart(define.body, self.fresh)
        names = {p: self.fresh(p) for p, _ in define.params}
        body = substitute(body, {p: ir.Local(n, ty=a.ty) for (p, n), a in zip(names.items(), args)})
        for (p, n), a in reversed(list(zip(names.items(), args))):
            body = LetIn(n, a, body, span=e.span, ty=body.ty)
        return self.expr(body, kenv)


_EMPTY = {"exists": False, "count": 0, "sum": 0, "any": False, "all": True, "list": []}
_SIMPLE = (ir.Const, ir.Local, ir.Var, ir.EnumValue, ir.RoleRef)


def _constant_names(b: ir.Binder) -> dict:
    """Names of a binder bound to a one-item constant list, and that constant."""
    return {g.names[0]: item for g in b.groups
            if (item := _single_item(g)) is not None and isinstance(item, ir.Const)}


def substitute_statements(stmts, mapping: dict) -> ir.Block:
    return tuple(substitute(s, mapping) for s in stmts) if mapping else stmts


def _single_item(g: ir.BinderGroup):
    """The one item of a one-name group over a one-item list, if it is cheap to repeat."""
    if len(g.names) != 1:
        return None
    d = g.domain
    if isinstance(d, ir.Const) and isinstance(d.value, list) and len(d.value) == 1:
        return ir.Const(d.value[0], span=g.span, ty=_item_type(d.ty))
    if isinstance(d, ir.ListExpr) and len(d.items) == 1:
        item = d.items[0]
        if isinstance(item, _SIMPLE) or isinstance(item, ir.Field) and isinstance(item.obj, ir.Local):
            return item
    return None


def _item_type(ty):
    return ty.item if isinstance(ty, ListT) else None


def substitute(e, mapping: dict):
    """Replace locals by expressions (names bound inside are distinct by construction)."""
    if e is None or not mapping:
        return e
    if isinstance(e, ir.Local):
        return mapping.get(e.name, e)
    return map_children(e, lambda n: substitute(n, mapping))


def rename_statements(stmts, fresh, renames: dict) -> ir.Block:
    """Statements with their `let` locals and binder names renamed apart."""
    renames = dict(renames)

    def visit(n):
        if isinstance(n, ir.Let):
            value = visit(n.value)
            renames[n.name] = fresh(n.name)
            return dataclasses.replace(n, name=renames[n.name], value=value)
        if isinstance(n, ir.BinderGroup):
            for name in n.names:
                renames[name] = fresh(name)
            return map_children(dataclasses.replace(n, names=tuple(renames[x] for x in n.names)), visit)
        if isinstance(n, ir.Local):
            return dataclasses.replace(n, name=renames.get(n.name, n.name))
        return map_children(n, visit)
    return tuple(visit(s) for s in stmts)


def rename_apart(e, fresh):
    """Give every name bound inside e a fresh name, so inlining cannot capture."""
    renames: dict[str, str] = {}

    def visit(n):
        if isinstance(n, ir.BinderGroup):
            for name in n.names:
                renames.setdefault(name, fresh(name))
            n = dataclasses.replace(n, names=tuple(renames[x] for x in n.names))
        elif isinstance(n, LetIn):
            renames.setdefault(n.name, fresh(n.name))
            n = dataclasses.replace(n, name=renames[n.name])
        n = map_children(n, visit)
        if isinstance(n, ir.Local) and n.name in renames:
            return dataclasses.replace(n, name=renames[n.name])
        return n
    return visit(e)


# ---------------------------------------------------------------- zone analysis


class ZoneAnalysis:
    """Which card types can ever be in each zone: a fixed point over every
    reachable move, following where moved cards came from (a card bound from
    a zone, `top(zone)`, a `let` of one, ...)."""

    def __init__(self, rs: ir.Ruleset, procs: dict):
        self.rs, self.procs = rs, procs
        self.all = frozenset(rs.card_types)
        self.possible: dict[str, frozenset] = {"box": self.all}

    def run(self, setup, steps) -> dict[str, frozenset]:
        while True:
            before = dict(self.possible)
            self.visited: set[str] = set()
            self.block(setup, {})
            for s in steps:  # steps, and watch bodies (blocks of statements)
                self.block(s if isinstance(s, tuple) else s.body, {})
            if self.possible == before:
                return self.possible

    def add(self, zones, kinds) -> None:
        for z in zones:
            self.possible[z] = self.possible.get(z, frozenset()) | kinds

    def block(self, stmts, prov: dict) -> None:
        prov = dict(prov)
        for s in stmts:
            self.stmt(s, prov)

    def stmt(self, s, prov: dict) -> None:
        if isinstance(s, ir.Let):
            prov[s.name] = self.sources(s.value, prov)
        elif isinstance(s, ir.Move):
            dests = self.zones_of(s.dest)
            if s.every is not None:
                inner = self.bind(s.every, prov)
                self.add(dests, self.moved(ir.Local(s.every.names[0], ty=s.every.types[0]), inner))
            for c in s.cards:
                self.add(dests, self.moved(c, prov))
        elif isinstance(s, ir.Draw):
            self.add(self.zones_of(s.dest), self.from_zones(self.zones_of(s.source)))
        elif isinstance(s, ir.If):
            for _, body in s.branches:
                self.block(body, prov)
            if s.otherwise is not None:
                self.block(s.otherwise, prov)
        elif isinstance(s, (ir.While, ir.Repeat)):
            self.block(s.body, prov)
        elif isinstance(s, (ir.Choose, ir.For, ir.Take)):
            self.block(s.body, self.bind(s.binder, prov))
        elif isinstance(s, ir.Menu):
            for o in s.options:
                self.block(o.body, prov)
        elif isinstance(s, ir.CallProc) and s.name not in self.visited:
            self.visited.add(s.name)
            self.block(self.procs[s.name], {})

    def bind(self, b: ir.Binder, prov: dict) -> dict:
        inner = dict(prov)
        for g in b.groups:
            src = self.sources(g.domain, inner)
            for n in g.names:
                inner[n] = src
        return inner

    def moved(self, e: ir.Expr, prov: dict) -> frozenset:
        ty = e.ty
        static = ty.kinds if isinstance(ty, (CardT, ZoneT)) else \
            ty.item.kinds if isinstance(ty, ListT) and isinstance(ty.item, CardT) else self.all
        src = self.sources(e, prov)
        return static & (self.from_zones(src) if src is not None else self.all)

    def from_zones(self, zones) -> frozenset:
        if zones is None:
            return self.all
        result = frozenset()
        for z in zones:
            result |= self.possible.get(z, frozenset())
        return result

    def zones_of(self, e: ir.Expr) -> set[str]:
        if isinstance(e, ir.ZoneRef):
            return {e.zone}
        if isinstance(e, ir.BuiltinCall) and e.name == "space":  # a board's spaces count as the board
            return {e.args[0].zone}
        if isinstance(e, ir.IfExpr):
            return self.zones_of(e.then) | self.zones_of(e.otherwise)
        return set(self.rs.zones)

    def sources(self, e: ir.Expr, prov: dict):
        """The zones a card (or the cards of a list) may come from; None: anywhere."""
        if isinstance(e, ir.ZoneRef):
            return {e.zone}
        if isinstance(e, ir.BuiltinCall) and e.name == "space":
            return {e.args[0].zone}
        if isinstance(e, ir.Local):
            return prov.get(e.name)
        if isinstance(e, ir.Const) and (e.value is None or e.value == []):
            return set()
        if isinstance(e, ir.BuiltinCall) and e.name in ("top", "bottom"):
            return self.sources(e.args[0], prov)
        if isinstance(e, ir.Quantified) and e.kind in ("first", "last", "list"):
            inner = self.bind(e.binder, prov)
            return self.sources(e.value, inner) if e.kind == "list" else inner.get(e.binder.names[0])
        if isinstance(e, ir.ListExpr):
            result: set[str] = set()
            for item in e.items:
                s = self.sources(item, prov)
                if s is None:
                    return None
                result |= s
            return result
        if isinstance(e, ir.IfExpr):
            a, b = self.sources(e.then, prov), self.sources(e.otherwise, prov)
            return a | b if a is not None and b is not None else None
        if isinstance(e, LetIn):
            return self.sources(e.body, {**prov, e.name: self.sources(e.value, prov)})
        if isinstance(e, ir.Binary) and e.op == "+":
            a, b = self.sources(e.left, prov), self.sources(e.right, prov)
            return a | b if a is not None and b is not None else None
        return None


# ---------------------------------------------------------------- hoisting


class Hoister:
    """Moves subexpressions that do not depend on a binder's names out of it."""

    def __init__(self, opt: Optimizer):
        self.opt = opt
        self.memo: dict = {}

    def block(self, stmts, options: dict) -> ir.Block:
        return tuple(self.stmt(s, options) for s in stmts)

    def stmt(self, s, options: dict):
        if isinstance(s, (ir.Choose, ir.Take)):  # its binder is hoisted once, as its options
            s = dataclasses.replace(s, body=self.block(s.body, options))
            options[id(s)] = (s, self.expr(Options(s.binder, span=s.span)))
            return s
        return map_children(s, lambda n: self.block_or(n, options))

    def block_or(self, n, options):
        if isinstance(n, ir.Stmt):
            return self.stmt(n, options)
        if isinstance(n, ir.Expr):
            return self.expr(n)
        return map_children(n, lambda m: self.block_or(m, options))

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
            if isinstance(value, _TRIVIAL):
                return self.expr(substitute(e.body, {e.name: value}))
            return dataclasses.replace(e, value=value, body=self.expr(e.body))
        return map_children(e, lambda n: self.expr(n) if isinstance(n, ir.Expr) else self.expr_in(n))

    def expr_in(self, n):
        return map_children(n, lambda m: self.expr(m) if isinstance(m, ir.Expr) else self.expr_in(m))

    def lift(self, e, bound: set, bindings: list, top: bool = False):
        """Replace maximal parts of e independent of `bound` by Hoisted refs."""
        cheap_field = isinstance(e, ir.Field) and isinstance(e.obj, ir.Local)
        if not top and isinstance(e, ir.Expr) and not isinstance(e, _TRIVIAL) \
                and not cheap_field and not (free_locals(e, self.memo) & bound):
            # the same expression hoisted twice is one value (nodes compare by structure)
            name = next((n for n, v in bindings if v == e), None)
            if name is None:
                name = self.opt.fresh("$h")
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
