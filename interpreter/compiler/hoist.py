"""Hoisting: inside every binder, the parts that do not depend on its names
are computed at most once per evaluation, lazily, so nothing is evaluated
that the original would not have evaluated (`first(...)` never fails where
it would not have). Also what a test surely computes first, whether it can
fail at all, and which lazy values cost no more than the test of whether they
are computed yet: what lets the code generator compute a lazy value before
the loops, or look at bindings in another order (binders.py)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulelang import ir
from rulelang.types import BOOL, INT, ZoneT
from rulelang.walk import children, map_children, walk

from . import tuning
from .fold import substitute
from .nodes import TRIVIAL, Hoisted, HoistLet, LetIn, Lookup, Options, with_options
from .unroll import unrolled, written_size


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
        self.unrolled_left = tuning.UNROLLED_TOTAL  # IR nodes the rules may still write out (unroll.py)

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
        if isinstance(e, ir.Quantified) and (written := unrolled(e, self.unrolled_left)) is not None:
            self.unrolled_left -= written_size(written)
            return self.expr(written)
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


def surely_computed_first(e: ir.Expr, cards: set[str], placed: dict[str, Grid] | None = None) -> list[str]:
    """The lazy values (`Hoisted`) that evaluating `e` surely computes, in the order it
    computes them, before anything that may fail or may not be evaluated: computing them
    before the loops instead, once there is a first binding, changes nothing (not even which
    error stops a game). `cards`: names bound to cards from a zone (their fields are there);
    `placed`: those bound to the cards of a grid board (their column and row are there)."""
    found: list[str] = []
    placed = placed or {}

    def visit(e) -> bool:  # whether evaluation surely goes on past e
        if isinstance(e, Hoisted):
            found.append(e.name)  # if it fails, it fails at the same point either way
            return True
        if isinstance(e, (ir.Const, ir.Local)) or _placed(e, placed):  # (reading a name never fails)
            return True
        if isinstance(e, ir.Field) and isinstance(e.obj, ir.Local) and e.obj.name in cards:
            return True
        if isinstance(e, ir.Field):  # its card first; reading the field may fail (no card)
            visit(e.obj)
            return False
        if isinstance(e, ir.Binary) and (e.op in ("==", "!=") or e.op in _SAFE_OPS and e.left.ty in (INT, BOOL)
                                         and e.right.ty in (INT, BOOL)):  # (any two values compare equal or not)
            return visit(e.left) and visit(e.right)
        if isinstance(e, ir.Binary) and e.op in ("and", "or") or isinstance(e, ir.IfExpr):
            visit(e.left if isinstance(e, ir.Binary) else e.cond)  # the rest may not be evaluated
            return False
        if isinstance(e, ir.Unary) or isinstance(e, ir.BuiltinCall) and e.name == "abs" and len(e.args) == 1:
            return visit(e.operand if isinstance(e, ir.Unary) else e.args[0])
        return False
    visit(e)
    return list(dict.fromkeys(found))


def cheap_and_safe(e: ir.Expr, value_of, nonempty: ir.Expr | None) -> list[str]:
    """The lazy values (`Hoisted`) `e` asks for anywhere whose value costs about what asking
    whether it is computed yet costs, and never fails: a variable, a local, a comparison of those,
    arithmetic that cannot divide, `not`, and a field of the top or bottom card of `nonempty`, the
    loops' own zone, asked inside the test that it has a card (`first(c in trick ordered by
    ... c.suit == led() ...)`, led() the trick's bottom card's suit). Computed before the loops
    (lazy.compute_first) they change nothing but the test at every binding: nothing in them
    counts a step, tells anything or stops the game. `value_of`: a lazy value's name -> its
    value (None for a name not a lazy value of the loops' context)."""
    found: list[str] = []
    for n in walk(e):
        if isinstance(n, Hoisted) and n.name not in found and \
                (value := value_of(n.name)) is not None and _cheap(value, nonempty, [tuning.CHEAP_NODES]):
            found.append(n.name)
    return found


def _cheap(e: ir.Expr, nonempty: ir.Expr | None, budget: list[int]) -> bool:
    budget[0] -= 1
    if budget[0] < 0:
        return False
    if isinstance(e, (ir.Const, ir.Local, ir.EnumValue, ir.RoleRef)):
        return True
    if isinstance(e, ir.Var):  # (a player's own: of a player named outright, never of none)
        return e.owner is None or isinstance(e.owner, ir.RoleRef)
    if isinstance(e, ir.Binary):
        safe = e.op in ("==", "!=") or e.op in _SAFE_OPS and e.left.ty in (INT, BOOL) and e.right.ty in (INT, BOOL)
        return safe and _cheap(e.left, nonempty, budget) and _cheap(e.right, nonempty, budget)
    if isinstance(e, ir.Unary):
        return _cheap(e.operand, nonempty, budget)
    if isinstance(e, ir.BuiltinCall) and e.name in ("current", "round") and not e.args:
        return True
    end = e.obj if isinstance(e, ir.Field) else None
    return isinstance(end, ir.BuiltinCall) and end.name in ("top", "bottom") and len(end.args) == 1 \
        and _same_zone(end.args[0], nonempty)


def _same_zone(a: ir.Expr, b: ir.Expr | None) -> bool:
    """Whether a and b are the same zone, named outright."""
    return isinstance(a, ir.ZoneRef) and isinstance(b, ir.ZoneRef) and a.zone == b.zone and \
        (a.owner is None and b.owner is None or isinstance(a.owner, ir.RoleRef) and isinstance(b.owner, ir.RoleRef)
         and a.owner.role == b.owner.role)


@dataclass(frozen=True)
class Grid:
    """The grid board a card is bound from: its column and row are there, within these."""
    board: str
    columns: int
    rows: int
    gaps: bool = False  # its map has blanks: a space beside a card may be one


def never_fails(e: ir.Expr, cards: set[str], computed: set[str], placed: dict[str, Grid] | None = None,
                kind_tests: bool = False) -> bool:
    """Whether evaluating `e` can never stop the game with an error, whatever the order it is
    evaluated in over the bindings: `cards` are names bound to cards (there, so their fields are
    too) or to zones from a list of them; `computed` the lazy values it surely computes first (if one fails, it fails at the first
    binding in any order); `placed` names bound to the cards of a grid board. Made only of
    comparisons, arithmetic that cannot divide, `and`, `or`, `not`, `abs`, type tests, fields
    of those cards, the column and row of the placed ones and — where `placed` says on which
    grid — the space a step or two from one, where the test guards the grid's edge
    (`column(c) == 1 or ... space(B, column(c) - 1, row(c))`), and whether it is empty. With
    `kind_tests` (the caller knows they are not counted as steps), `exists x in Z where x is T`
    over such a space too."""
    return _NeverFails(cards, computed, placed or {}, kind_tests).holds(e, {})


class _NeverFails:
    def __init__(self, cards, computed, placed, kind_tests: bool):
        self.cards, self.computed, self.placed, self.kind_tests = cards, computed, placed, kind_tests

    def holds(self, e: ir.Expr, facts: dict) -> bool:
        """`facts`: (name, "column" or "row") -> (lowest, highest) the guards around e allow."""
        if isinstance(e, Hoisted):
            return e.name in self.computed
        if isinstance(e, (ir.Const, ir.Local, ir.EnumValue, ir.RoleRef)) or _placed(e, self.placed):
            return True
        if isinstance(e, (ir.Field, ir.IsType)):
            subject = e.obj if isinstance(e, ir.Field) else e.subject
            return isinstance(subject, ir.Local) and subject.name in self.cards and not isinstance(subject.ty, ZoneT)
        if isinstance(e, ir.Binary) and e.op in ("and", "or"):  # the right side knows the left's outcome
            return self.holds(e.left, facts) and self.holds(e.right, self.knowing(e.left, e.op == "and", facts))
        if isinstance(e, ir.Binary):
            safe = e.op in ("==", "!=") or e.op in _SAFE_OPS and e.left.ty in (INT, BOOL) and e.right.ty in (INT, BOOL)
            return safe and self.holds(e.left, facts) and self.holds(e.right, facts)
        if isinstance(e, ir.Unary):
            return self.holds(e.operand, facts)
        if isinstance(e, ir.BuiltinCall) and e.name == "abs" and len(e.args) == 1:
            return self.holds(e.args[0], facts)
        if isinstance(e, ir.BuiltinCall) and e.name in ("empty", "size") and isinstance(e.args[0].ty, ZoneT):
            return self.zone_holds(e.args[0], facts)
        if isinstance(e, ir.BuiltinCall) and e.name == "space":
            return self.zone_holds(e, facts)
        if isinstance(e, ir.BuiltinCall) and e.name in ("current", "round") and not e.args:
            return True
        if isinstance(e, LetIn):  # (an argument of a define written in place)
            return self.holds(e.value, facts) and self.holds(e.body, facts)
        if isinstance(e, Lookup):  # a table has an entry for every value its key can take (tables.py)
            return self.holds(e.table, facts) and self.holds(e.key, facts)
        if self.kind_tests and isinstance(e, ir.Quantified) and e.kind == "exists" and not e.binder.order \
                and len(e.binder.groups) == 1 and isinstance(e.binder.groups[0].domain.ty, ZoneT) \
                and isinstance(e.binder.where, ir.IsType) and isinstance(e.binder.where.subject, ir.Local) \
                and e.binder.where.subject.name in e.binder.names:
            return self.zone_holds(e.binder.groups[0].domain, facts)
        return False

    def zone_holds(self, z: ir.Expr, facts: dict) -> bool:
        """A zone named outright, or the space of a grid a known step from a placed card, on the grid."""
        if isinstance(z, ir.ZoneRef):
            return z.owner is None or isinstance(z.owner, ir.RoleRef)
        if isinstance(z, ir.Local) and z.name in self.cards:  # a zone bound from a list of zones
            return True
        near = _near(z)
        if near is None or near[0] not in self.placed:
            return False
        name, dx, dy = near
        grid = self.placed[name]
        if grid.board != z.args[0].zone or grid.gaps:
            return False
        for axis, d, size in (("column", dx, grid.columns), ("row", dy, grid.rows)):
            low, high = facts.get((name, axis), (1, size))
            if low + d < 1 or high + d > size:
                return False
        return True

    def knowing(self, cond: ir.Expr, outcome: bool, facts: dict) -> dict:
        """The facts, narrowed by `cond` having come out as `outcome` (where it says which)."""
        if isinstance(cond, ir.Unary) and cond.op == "not":
            return self.knowing(cond.operand, not outcome, facts)
        if isinstance(cond, ir.Binary) and cond.op in ("and", "or"):
            if (cond.op == "and") == outcome:  # both sides came out so
                return self.knowing(cond.right, outcome, self.knowing(cond.left, outcome, facts))
            return facts
        if not (isinstance(cond, ir.Binary) and cond.op in _COMPARE):
            return facts
        op, side, k = cond.op, cond.left, cond.right
        if _placed(k, self.placed) and isinstance(side, ir.Const):
            op, side, k = _COMPARE[op], k, side
        if not (_placed(side, self.placed) and isinstance(k, ir.Const) and type(k.value) is int):
            return facts
        op = op if outcome else _NEGATED[op]
        name, axis, k = side.args[0].name, side.name, k.value
        grid = self.placed[name]
        low, high = facts.get((name, axis), (1, grid.columns if axis == "column" else grid.rows))
        if op == "==":
            low, high = max(low, k), min(high, k)
        elif op == "!=":
            low, high = (low + 1 if low == k else low), (high - 1 if high == k else high)
        elif op in ("<", "<="):
            high = min(high, k - (op == "<"))
        else:
            low = max(low, k + (op == ">"))
        return {**facts, (name, axis): (low, high)}


_COMPARE = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}  # the same test, sides swapped
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def near_space(column: ir.Expr, row: ir.Expr) -> tuple[ir.Local, int, int] | None:
    """(card, dx, dy) when a space's column and row are a card's own plus numbers:
    `space(B, column(c) - 1, row(c) + 2)`. Not for a space's own column and row (`column(s)` of
    a zone): the code for a card looks up the card's space first."""
    found = []
    for arg, axis in ((column, "column"), (row, "row")):
        d = 0
        if isinstance(arg, ir.Binary) and arg.op in ("+", "-") and isinstance(arg.right, ir.Const) \
                and type(arg.right.value) is int:
            arg, d = arg.left, arg.right.value if arg.op == "+" else -arg.right.value
        if not (isinstance(arg, ir.BuiltinCall) and arg.name == axis and isinstance(arg.args[0], ir.Local)) \
                or isinstance(arg.args[0].ty, ZoneT):
            return None
        found.append((arg.args[0], d))
    (a, dx), (b, dy) = found
    return (a, dx, dy) if a.name == b.name else None


def _near(e: ir.Expr) -> tuple[str, int, int] | None:
    """(card's name, dx, dy) for `space(B, column(c) + dx, row(c) + dy)`."""
    if not (isinstance(e, ir.BuiltinCall) and e.name == "space" and len(e.args) == 3):
        return None
    near = near_space(e.args[1], e.args[2])
    return (near[0].name, near[1], near[2]) if near is not None else None


def _placed(e: ir.Expr, placed: dict) -> bool:
    """`column(c)` or `row(c)` of a card on a grid board: always there."""
    return isinstance(e, ir.BuiltinCall) and e.name in ("column", "row") and len(e.args) == 1 \
        and isinstance(e.args[0], ir.Local) and e.args[0].name in placed
