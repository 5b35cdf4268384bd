"""Folding and inlining: the rules specialised to one set of parameter values.

Parameters become constants and everything that depends only on constants
is folded (`if action_modifiers:` disappears when it is false); defines are
inlined (they are pure and never recursive) and procedures too, with their
locals renamed apart, so folding and hoisting see through them. With the
zone analysis's results (`possible`), a test like `m is action_modifier`
over a zone that can never hold one folds to false.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.builtins import BUILTINS
from rulelang.types import BoardT, CardT, ListT, ZoneT
from rulelang.walk import changed_children, children, dispatch, map_children, replaced, walk

from .inlining import Called
from .nodes import TRIVIAL, Decide, Hoisted, HoistLet, LetIn, Options, TakeFrom
from .notes import marker
from .tables import Tables, neighbours


class Folder:
    """Folding (`fold`) and inlining (`inline`), each of which may be off: with both, the rules
    specialised to one mode's parameters; `possible` (the zone analysis) folds type tests too."""
    DECLINES = {ir.Trigger: "triggers and windows are written out before folding (abilities.py)",
                Decide: "a decision's options are attached after folding", TakeFrom: "a take's options, likewise",
                Hoisted: "hoisting comes after folding", HoistLet: "hoisting comes after folding",
                Options: "options are attached after folding",
                **{c: "the checker resolves every name before the compiler sees the rules" for c in ir.PARSER_ONLY}}

    def __init__(self, rs: ir.Ruleset, evaluate, fresh, fold: bool = True, inline: bool = True,
                 possible: dict[str, frozenset] | None = None):
        self.rs = rs
        self.eval = evaluate  # (ok, value) of an expression of constants (the code generator's job)
        self.fresh = fresh  # new local names, shared with the other passes so they stay distinct
        self.folding, self.inlining = fold, inline
        self.possible = possible  # card types that can reach each zone (None: not analysed)
        self.calls = Called()  # what is called rather than inlined (inlining.py)
        self.tables = Tables(rs) if fold and inline else None  # defines over few values, as tables

    def fold_all(self, setup, steps, procs, defines, tables, watches):
        return (self.block(setup, {}),
                tuple(replaced(s, {"body": self.block(s.body, {})}) for s in steps),
                {n: self.block(b, {}) for n, b in procs.items()},
                {n: self.expr(e, {}) for n, e in defines.items()},
                {t: {r: self.expr(e, {}) for r, e in table.items()} for t, table in tables.items()},
                tuple(replaced(w, {"when": self.expr(w.when, {}), "body": self.block(w.body, {})})
                      for w in watches))

    # ------------------------------------------------------------ statements
    def block(self, stmts, kenv: dict) -> ir.Block:
        out: list[ir.Stmt] = []
        kenv = dict(kenv)
        for s in stmts:
            out.extend(self.stmt(s, kenv))
        return tuple(out)

    def stmt(self, s, kenv: dict) -> list[ir.Stmt]:
        """The statement folded: none, one, or the statements it stands for (a call inlined)."""
        return dispatch(self, "stmt", s, kenv)

    def stmt_if(self, s: ir.If, kenv: dict) -> list[ir.Stmt]:
        branches = []
        for cond, body in s.branches:
            c = self.expr(cond, kenv)
            if self.folding and isinstance(c, ir.Const):
                if c.value:
                    if not branches:
                        return list(self.block(body, kenv))
                    return [replaced(s, {"branches": tuple(branches), "otherwise": self.block(body, kenv)})]
                continue
            branches.append((c, self.block(body, kenv)))
        otherwise = self.block(s.otherwise, kenv) if s.otherwise is not None else None
        if not branches:
            return list(otherwise or ())
        return [replaced(s, {"branches": tuple(branches), "otherwise": otherwise})]

    def stmt_while(self, s: ir.While, kenv: dict) -> list[ir.Stmt]:
        cond = self.expr(s.cond, kenv)
        if self.folding and isinstance(cond, ir.Const) and bool(cond.value) == s.until:
            return []
        return [replaced(s, {"cond": cond, "body": self.block(s.body, kenv)})]

    def stmt_repeat(self, s: ir.Repeat, kenv: dict) -> list[ir.Stmt]:
        return [replaced(s, {"count": self.expr(s.count, kenv), "body": self.block(s.body, kenv)})]

    def stmt_let(self, s: ir.Let, kenv: dict) -> list[ir.Stmt]:
        value = self.expr(s.value, kenv)
        kenv[s.name] = (self.kinds(value, kenv), False)
        return [replaced(s, {"value": value})]

    def stmt_for(self, s: ir.For | ir.Choose | ir.Take, kenv: dict) -> list[ir.Stmt]:
        binder, inner = self.binder(s.binder, kenv)
        if isinstance(s, ir.Choose):
            s = replaced(s, {"role": self.expr(s.role, kenv)})
        # a name bound to a one-item constant list is that constant in the body too
        body = substitute_statements(s.body, _constant_names(binder)) if self.folding else s.body
        return [replaced(s, {"binder": binder, "body": self.block(body, inner)})]

    stmt_choose = stmt_take = stmt_for

    def stmt_move(self, s: ir.Move, kenv: dict) -> list[ir.Stmt]:
        if s.every is None:
            return self.expressions(s, kenv)
        every, _ = self.binder(s.every, kenv)
        dest = self.expr(s.dest, kenv)
        (group,) = every.groups if len(every.groups) == 1 else (None,)
        if self.folding and group is not None and every.where is None and isinstance(group.domain, ir.ZoneRef) \
                and isinstance(group.domain.ty, ZoneT):
            return [replaced(s, {"cards": (group.domain,), "every": None, "dest": dest})]  # the whole zone
        return [replaced(s, {"every": every, "dest": dest})]

    def stmt_callproc(self, s: ir.CallProc, kenv: dict) -> list[ir.Stmt]:
        if s.name in self.calls.procedures or not self.inlining:
            return [replaced(s, {"args": tuple(self.expr(a, kenv) for a in s.args)})]
        return list(self.block(self.inline_procedure(s), kenv))

    def stmt_menu(self, s: ir.Menu, kenv: dict) -> list[ir.Stmt]:
        options = []
        for o in s.options:
            guard = self.expr(o.guard, kenv) if o.guard is not None else None
            if self.folding and isinstance(guard, ir.Const) and not guard.value:
                continue
            if self.folding and isinstance(guard, ir.Const):
                guard = None
            options.append(replaced(o, {"guard": guard, "body": self.block(o.body, kenv)}))
        return [replaced(s, {"role": self.expr(s.role, kenv), "options": tuple(options)})]

    def expressions(self, s: ir.Stmt, kenv: dict) -> list[ir.Stmt]:
        """A statement without blocks of its own: its expressions folded."""
        return [map_children(s, lambda n: self.expr(n, kenv))]

    stmt_draw = stmt_swap = stmt_shuffle = stmt_flip = stmt_assign = stmt_roll = stmt_endgame = stmt_eliminate = \
        stmt_pass = stmt_reveal = stmt_announce = expressions

    # ------------------------------------------------------------ binders
    def binder(self, b: ir.Binder, kenv: dict) -> tuple[ir.Binder, dict]:
        inner = dict(kenv)
        groups = []
        for g in b.groups:
            domain = self.expr(g.domain, inner)
            kinds = self.element_kinds(domain, inner)
            for n in g.names:
                inner[n] = (kinds, isinstance(domain, ir.ZoneRef))
            groups.append(replaced(g, {"domain": domain}))
        where = b.where
        constants = _constant_names(replaced(b, {"groups": tuple(groups)})) if self.folding else {}
        where = self.expr(substitute(where, constants), inner) if where is not None else None
        if self.folding and isinstance(where, ir.Const) and where.value:
            where = None
        order = tuple(replaced(k, {"value": self.expr(substitute(k.value, constants), inner)})
                      for k in b.order)
        # past the `where`, its `is` tests have narrowed the names (the checker's types)
        after = dict(inner)
        for n, ty in zip(b.names, b.types):
            kinds, never_none = inner[n]
            if kinds is not None and isinstance(ty, CardT):
                after[n] = (kinds & ty.kinds, never_none)
        b = replaced(b, {"groups": tuple(groups), "where": where, "order": order})
        return (neighbours(self.rs, b) if self.tables is not None else b), after

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
        return dispatch(self, "expr", e, kenv)

    def expr_param(self, e: ir.Param, kenv: dict) -> ir.Expr:
        return ir.Const(self.rs.param_values[e.name], span=e.span, ty=e.ty) if self.folding else e

    def expr_definecall(self, e: ir.DefineCall, kenv: dict) -> ir.Expr:
        if self.tables is not None and (looked := self.tables.lookup(self, e, kenv)) is not None:
            return looked
        return self.inline(e, kenv) if self.inlining and e.name not in self.calls.defines else self.expr_any(e, kenv)

    def expr_letin(self, e: LetIn, kenv: dict) -> ir.Expr:
        value = self.expr(e.value, kenv)
        if isinstance(value, TRIVIAL):
            return self.expr(substitute(e.body, {e.name: value}), kenv)
        body = self.expr(e.body, {**kenv, e.name: (self.kinds(value, kenv), False)})
        return replaced(e, {"value": value, "body": body})

    def expr_any(self, e: ir.Expr, kenv: dict) -> ir.Expr:
        """An expression folded part by part, then simplified where its shape is known."""
        e = map_children(e, lambda n: self.expr(n, kenv) if isinstance(n, ir.Expr) else n)
        return self.simplify(e, kenv) if self.folding else e

    expr_const = expr_local = expr_var = expr_enumvalue = expr_zoneref = expr_roleref = expr_field = \
        expr_builtincall = expr_unary = expr_binary = expr_istype = expr_ifexpr = expr_case = expr_listexpr = \
        expr_rangeexpr = expr_index = expr_typevalues = expr_template = expr_lookup = expr_any

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
        if isinstance(e, ir.BuiltinCall) and e.name in ("spaces", "place", "lines") and \
                all(isinstance(a, ir.Const) for a in e.args[1:]):  # so are its spaces, places and lines
            ok, value = self.eval(e)
            if ok:
                return ir.Const(value, span=e.span, ty=e.ty)
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
                isinstance(e, ir.BuiltinCall) and BUILTINS[e.name].pure:
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

    def expr_quantified(self, e: ir.Quantified, kenv: dict) -> ir.Expr:
        binder, inner = self.binder(e.binder, kenv)
        value = self.expr(e.value, inner) if e.value is not None else None
        if not self.folding:
            return replaced(e, {"binder": binder, "value": value})
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
            order = tuple(replaced(k, {"value": self.expr(substitute(k.value, subst), inner)})
                          for k in binder.order)
            value = self.expr(substitute(value, subst), inner) if value is not None else None
            if not groups:
                if e.kind == "exists":
                    return where if where is not None else ir.Const(True, span=e.span, ty=e.ty)
                groups = [binder.groups[0]]  # keep one binding so the aggregate still has its one row
                where = substitute(where, {k: v for k, v in subst.items() if k != groups[0].names[0]})
            binder = replaced(binder, {"groups": tuple(groups), "where": where, "order": order})
            if isinstance(where, ir.Const) and not where.value and e.kind in _EMPTY:
                return ir.Const(_EMPTY[e.kind], span=e.span, ty=e.ty)
        e = replaced(e, {"binder": binder, "value": value})
        if all(isinstance(g.domain, ir.Const) for g in binder.groups):
            # over constants (a map's spaces and their marks, cards' printed fields): computed now
            # if it reads nothing else; an expression that reads the state or a name from outside
            # fails to evaluate and is left as it is
            ok, constant = self.eval(e)
            if ok:
                return ir.Const(constant, span=e.span, ty=e.ty)
        return e

    def inline_procedure(self, s: ir.CallProc) -> ir.Block:
        """A call's statements in place (procedures are never recursive), with
        every local renamed apart so the caller's locals are untouched. A zone
        argument that cannot change while the body runs is written in place of
        its parameter, so the zone analysis sees where cards go."""
        proc = self.rs.procedures[s.name]
        renames = {p: self.fresh(p) for p, _ in proc.params}
        body = rename_statements(proc.body, self.fresh, renames, marker(s.span, s.name))
        assigned = {n.target.name for n in walk(body) if isinstance(n, ir.Assign) and isinstance(n.target, ir.Local)}
        lets, zones = [], {}
        for (p, _), a in zip(proc.params, s.args):
            if isinstance(a.ty, ZoneT) and renames[p] not in assigned and _fixed(a):
                zones[renames[p]] = a
            else:
                lets.append(ir.Let(renames[p], a, span=s.span))
        return tuple(lets) + substitute_statements(body, zones)

    def inline(self, e: ir.DefineCall, kenv: dict) -> ir.Expr:
        define = self.rs.defines[e.name]
        args = [self.expr(a, kenv) for a in e.args]
        body = rename_apart(define.body, self.fresh, marker(e.span, e.name))
        names = {p: self.fresh(p) for p, _ in define.params}
        body = substitute(body, {p: ir.Local(n, ty=a.ty) for (p, n), a in zip(names.items(), args)})
        for (p, n), a in reversed(list(zip(names.items(), args))):
            body = LetIn(n, a, body, span=e.span, ty=body.ty)
        return self.expr(body, kenv)


_EMPTY = {"exists": False, "count": 0, "sum": 0, "any": False, "all": True, "list": []}
_SIMPLE = (ir.Const, ir.Local, ir.Var, ir.EnumValue, ir.RoleRef)


def _fixed(e: ir.Expr) -> bool:
    """Whether a zone expression names the same zone wherever it is repeated:
    it reads no variable and no card state (a caller's locals never change
    inside a procedure: its body has its own)."""
    return all(isinstance(n, (ir.ZoneRef, ir.RoleRef, ir.Const, ir.Local, ir.EnumValue)) or
               isinstance(n, ir.BuiltinCall) and n.name == "space" for n in walk(e))


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


def rename_statements(stmts, fresh, renames: dict, mark=None) -> ir.Block:
    """Statements with their `let` (and `roll ... into`) locals and binder names renamed apart;
    with `mark` (notes.marker), each node of the copy marked as written from a call. Each node
    is copied once, renamed and marked at once."""
    renames = dict(renames)

    def visit(n):
        changes: dict | None
        if isinstance(n, ir.Let):
            changes = {"value": visit(n.value)}
            renames[n.name] = fresh(n.name)
            changes["name"] = renames[n.name]
        elif isinstance(n, ir.Roll) and n.declares:  # `roll ... into x` makes a local, as `let` does
            changes = {"count": visit(n.count)} if n.count is not None else {}
            renames[n.target.name] = fresh(n.target.name)
            target = {"name": renames[n.target.name]}
            if mark is not None and n.target.span is not None:
                target["span"] = mark(n.target.span)
            changes["target"] = replaced(n.target, target)
        elif isinstance(n, ir.BinderGroup):
            for name in n.names:
                renames[name] = fresh(name)
            changes = changed_children(n, visit, {"names": tuple(renames[x] for x in n.names)})
        elif isinstance(n, ir.Local):
            changes = {"name": renames.get(n.name, n.name)}
        else:
            changes = changed_children(n, visit, None)
        if mark is not None and n.span is not None:
            changes = {**changes, "span": mark(n.span)} if changes else {"span": mark(n.span)}
        return replaced(n, changes) if changes else n
    return tuple(visit(s) for s in stmts)


def rename_apart(e, fresh, mark=None):
    """Give every name bound inside e a fresh name, so inlining cannot capture; with `mark`
    (notes.marker), each node of the copy marked as written from a call (one copy a node)."""
    renames: dict[str, str] = {}

    def visit(n):
        changes: dict | None = None
        if isinstance(n, ir.BinderGroup):
            for name in n.names:
                renames.setdefault(name, fresh(name))
            changes = {"names": tuple(renames[x] for x in n.names)}
        elif isinstance(n, LetIn):
            renames.setdefault(n.name, fresh(n.name))
            changes = {"name": renames[n.name]}
        changes = changed_children(n, visit, changes)
        if isinstance(n, ir.Local) and n.name in renames:
            changes = {"name": renames[n.name]}  # (a local has no children)
        if mark is not None and n.span is not None:
            changes = {**changes, "span": mark(n.span)} if changes else {"span": mark(n.span)}
        return replaced(n, changes) if changes else n
    return visit(e)
