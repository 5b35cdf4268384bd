"""Tables: a define that reads nothing but its arguments, over arguments of few values, as a table.

`joined(a, b)` of two spaces of a board, written as arithmetic over their columns and rows,
answers the same for the same two spaces all game long. Where every argument of a call can
take only a few values known before play — a space of a board, a role, a value of an enum —
the define is computed for each of them when the rules are compiled, and the call becomes a
lookup, `T[a][b]` (a `Lookup` per argument, so the hoister computes `T[a]` once where `a`
does not change). Only when every entry computes: a define that reads the game (a zone, a
variable), or fails for one of the values (no card there, a division by zero), is inlined as
before, so every error stays where it was.

A binder whose `where` asks such a table of its name, `s in spaces(B) where ... and T[x][s]`,
then goes through the spaces the table allows for x (`neighbours`), in the same order, instead
of testing every space: only where the tests before it can never fail, so no binding skipped
would have stopped the game.
"""
from __future__ import annotations

import dataclasses

from rulelang import ir
from rulelang.types import ANY, ROLE, BoardT, EnumT, ListT, ZoneT
from rulelang.walk import walk

from .nodes import Lookup, Table

TABLE_MOST = 4096  # entries a table may hold (a 64-space board's pairs); past that, the define is inlined


class Tables:
    """Tabled define calls for the folder (fold.py): one table per define and argument values."""

    def __init__(self, rs: ir.Ruleset):
        self.rs = rs
        self.made: dict[tuple, Table | None] = {}  # (define, each argument's values) -> its table, or None
        self.making: set[str] = set()  # defines being tabled (their own calls inside are inlined)

    def lookup(self, folder, e: ir.DefineCall, kenv: dict) -> ir.Expr | None:
        """The call as a lookup in its table, if it has one; None to inline it."""
        if e.name in self.making or not e.args or all(isinstance(a, ir.Const) for a in e.args):
            return None
        domains = tuple(self.values(a.ty, folder) for a in e.args)
        if any(d is None for d in domains) or _size(domains) > TABLE_MOST:
            return None
        key = (e.name, domains)
        if key not in self.made:
            self.made[key] = self.make(folder, e, domains)
        table = self.made[key]
        if table is None:
            return None
        found: ir.Expr = ir.Const(table, span=e.span)
        for a in e.args:
            found = Lookup(found, folder.expr(a, kenv), span=e.span, ty=e.ty)
        return found

    def values(self, ty, folder) -> tuple | None:
        """Every value an argument of this type can take, if few and known before play."""
        if isinstance(ty, ZoneT) and ty.board is not None and ty.board in self.rs.zones:
            ok, spaces = folder.eval(ir.BuiltinCall("spaces", (ir.ZoneRef(ty.board, ty=BoardT(ty.kinds)),),
                                                    ty=ListT(ty)))
            return tuple(spaces) if ok else None
        if ty == ROLE:
            return tuple(r.name for r in self.rs.roles) + (None,)
        if isinstance(ty, EnumT) and ty.name in self.rs.enums:
            return tuple(self.rs.enums[ty.name].values) + (None,)
        return None

    def make(self, folder, e: ir.DefineCall, domains: tuple) -> Table | None:
        """The define's value for every combination of its arguments' values, computed as the rules'
        own code computes it (one list comprehension, folded); None if any entry fails."""
        names = [folder.fresh("t") for _ in e.args]
        groups = tuple(ir.BinderGroup((n,), ir.Const(list(d), ty=ListT(a.ty or ANY)))
                       for n, d, a in zip(names, domains, e.args))
        call = ir.DefineCall(e.name, tuple(ir.Local(n, ty=a.ty) for n, a in zip(names, e.args)), span=e.span, ty=e.ty)
        every = ir.Quantified("list", ir.Binder(groups), call, span=e.span, ty=ListT(e.ty or ANY))
        self.making.add(e.name)
        try:
            found = folder.expr(every, {})
        finally:
            self.making.discard(e.name)
        if not isinstance(found, ir.Const) or not isinstance(found.value, list) or not all(map(_plain, found.value)):
            return None
        values = iter(found.value)
        return _nested(domains, values)


def neighbours(rs: ir.Ruleset, b: ir.Binder) -> ir.Binder:
    """The binder going through, for a name over a constant list, only the items a table in its
    `where` allows (`s in D where ... and T[x][s]` -> `s in N[x]`, N[x] the items of D, in D's
    order, that T[x] allows), where that is the same: x is bound before s, and neither x nor the
    tests before the table's can fail (hoist.never_fails). Else b as it is."""
    if b.where is None or b.order or not any(isinstance(n, Lookup) for n in _conjuncts(b.where)):
        return b
    from .hoist import Grid, never_fails  # (hoist builds on fold, which builds on this)
    cards = {n for g in b.groups for n in g.names if isinstance(g.domain.ty, (ZoneT, BoardT))
             or isinstance(g.domain, ir.Const) and isinstance(g.domain.ty, ListT) and isinstance(g.domain.ty.item, ZoneT)}
    placed = {n: Grid(z.name, z.columns, z.rows, bool(z.gaps)) for g in b.groups
              if isinstance(g.domain.ty, BoardT) and isinstance(g.domain, ir.ZoneRef)
              and (z := rs.zones[g.domain.zone]).kind == "grid" for n in g.names}

    def safe(e: ir.Expr, names: set[str]) -> bool:
        return never_fails(e, cards & names, set(), {n: p for n, p in placed.items() if n in names})
    tests = _conjuncts(b.where)
    for j, g in enumerate(b.groups):
        if len(g.names) != 1 or not isinstance(g.domain, ir.Const) or not isinstance(g.domain.value, list):
            continue
        name, earlier = g.names[0], {n for h in b.groups[:j] for n in h.names}
        later = {n for h in b.groups[j:] for n in h.names}
        for i, t in enumerate(tests):
            found = _table_of(t, name)
            if found is None:
                continue
            table, x = found
            if _reads(x) & later or not safe(x, earlier) or not all(safe(u, earlier | later) for u in tests[:i]):
                break
            allowed = _allowed(table, g.domain.value)
            if allowed is None:
                break
            domain = Lookup(ir.Const(allowed, span=g.domain.span), x, span=g.domain.span, ty=g.domain.ty)
            groups = b.groups[:j] + (dataclasses.replace(g, domain=domain),) + b.groups[j + 1:]
            rest = tests[:i] + tests[i + 1:]
            return dataclasses.replace(b, groups=groups, where=_joined(rest, b.where))
    return b


def _table_of(t: ir.Expr, name: str):
    """(the table, x) for a test `T[x][name]`."""
    if isinstance(t, Lookup) and isinstance(t.key, ir.Local) and t.key.name == name \
            and isinstance(t.table, Lookup) and isinstance(t.table.table, ir.Const):
        return t.table.table.value, t.table.key
    return None


def _allowed(table: Table, items: list) -> Table | None:
    """For each x, the items T[x] is true of (as a list), if T[x] says true or false of each."""
    out = {}
    for x, row in table.items():
        if not isinstance(row, Table) or any(i not in row or type(row[i]) is not bool for i in items):
            return None
        out[x] = tuple(i for i in items if row[i])
    return Table(out)


def _reads(e: ir.Expr) -> set[str]:
    return {n.name for n in walk(e) if isinstance(n, ir.Local)}


def _conjuncts(e: ir.Expr) -> list[ir.Expr]:
    if isinstance(e, ir.Binary) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _joined(tests: list[ir.Expr], like: ir.Expr) -> ir.Expr | None:
    if not tests:
        return None
    out = tests[0]
    for t in tests[1:]:
        out = ir.Binary("and", out, t, span=like.span, ty=like.ty)
    return out


def _size(domains: tuple) -> int:
    n = 1
    for d in domains:
        n *= len(d)
    return n


def _plain(v) -> bool:
    return v is None or type(v) in (bool, int, str)


def _nested(domains: tuple, values) -> Table:
    """The flat values (first argument outermost) as a table of tables."""
    if len(domains) == 1:
        return Table(zip(domains[0], values))
    return Table((x, _nested(domains[1:], values)) for x in domains[0])

