"""What a bound name can be, read off the IR before any game is played: the
kind of value each name of a decision (or random pick) binds, and for a
number the bounds it stays within.

A framework's action space and its bound on chance outcomes are fixed
before play, so each name's values must be listed up front: cards, zones,
roles, true/false and a type's values are finite by declaration; a number
is bounded by an interval read off its domain (`x in [column(g) - 1,
column(g) + 1] where x >= 1 and x <= columns(gauntlet)` is 1..3).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

from rulelang import ir
from rulelang.errors import Diagnostic, RulesetError
from rulelang.types import BOOL, INT, NONE, ROLE, CardT, EnumT, ZoneT
from rulelang.walk import walk

from ..compiler.optimize import with_abilities

Interval = tuple[int, int]


MOST_RANKED = 100  # numbers one decision may offer where the rules bound them not: more is an error in play


@dataclass(frozen=True)
class Slot:
    """The values one bound name takes: `kind` is card, zone, role, bool,
    number, ranked (a number with no bounds the rules give, by its rank among
    the numbers offered), none, menu, or `enum:TYPE`; a number's `low`..`high`."""
    kind: str
    low: int = 0
    high: int = 0


def rule_nodes(rs: ir.Ruleset, cls) -> dict[tuple, ir.Node]:
    """Every node of a class in the rules, by where it is written (file, line, column),
    with the triggers and play windows of abilities written out as the compiler does
    (their decisions are asked where the ability is written)."""
    trees = []
    for mode in rs.modes.values():
        plain, mode = with_abilities(rs, mode, lambda base: base + "$")
        trees += [plain.setup, tuple(p.body for p in plain.procedures.values()),
                  mode.setup, tuple(s.body for s in mode.round), tuple(w.body for w in mode.watches)]
    return {span_key(n.span): n for n in walk(tuple(trees)) if isinstance(n, cls)}


def span_key(span) -> tuple:
    return (span.file, span.line, span.col) if span is not None else None


class Domains:
    def __init__(self, rs: ir.Ruleset):
        self.rs = rs
        self.columns = max((z.columns for z in rs.zones.values()), default=0)
        self.rows = max((z.rows for z in rs.zones.values()), default=0)

    # ------------------------------------------------------------ bound names
    def slots(self, binder: ir.Binder, where: str) -> tuple[Slot, ...]:
        """A slot per name of a binder, in order."""
        out = []
        names = iter(binder.names)
        for group in binder.groups:
            for _ in group.names:
                name = next(names)
                ty = binder.types[len(out)]
                out.append(self.slot(ty, name, group.domain, binder.where, where))
        return tuple(out)

    def slot(self, ty, name: str, domain: ir.Expr, cond: ir.Expr | None, where: str) -> Slot:
        if isinstance(ty, CardT):
            return Slot("card")
        if isinstance(ty, ZoneT):
            return Slot("zone")
        if isinstance(ty, EnumT):
            return Slot("enum:" + ty.name)
        if ty in (ROLE, BOOL, NONE):
            return Slot({ROLE: "role", BOOL: "bool", NONE: "none"}[ty])
        if ty == INT:
            bounds = self.narrowed(name, self.elements(domain, {}), cond, {})
            if bounds is None:  # no bounds the rules give (`1..card_power(c) - 1`, a state that grows):
                return Slot("ranked", 1, MOST_RANKED)  # each number by its rank among those offered
            return Slot("number", *bounds)
        raise RulesetError([Diagnostic(domain.span, f"'{name}' ({where}) binds a {ty}, which has no action ids",
                                       "bind cards, zones, numbers, roles or a type's values")])

    def count(self, binder: ir.Binder, slots: tuple[Slot, ...]) -> int:
        """At most how many bindings a binder enumerates (a pick's chance outcomes)."""
        n, i = 1, 0
        for group in binder.groups:
            k = len(group.names)
            n *= comb(self.values(slots[i]), k)
            i += k
        return max(n, 1)

    def values(self, slot: Slot) -> int:
        """How many values a slot can hold (none included)."""
        rs = self.rs
        if slot.kind in ("number", "ranked"):
            return slot.high - slot.low + 1
        if slot.kind.startswith("enum:"):
            return len(self.enum_values(slot.kind[5:])) + 1
        return {"card": len(rs.cards) + 1, "zone": 1 + sum(max(1, z.columns * z.rows) * self.owners(z)
                                                             for z in rs.zones.values()),
                "role": len(rs.roles) + 1, "bool": 2, "none": 1}[slot.kind]

    def owners(self, zone: ir.Zone) -> int:
        return len(self.rs.roles) if zone.owner == "each" else 1

    def enum_values(self, name: str) -> tuple[str, ...]:
        """A type's values (a parameter with choices is a type too)."""
        if name in self.rs.enums:
            return self.rs.enums[name].values
        return tuple(str(v) for v in self.rs.params[name].choices)

    # ------------------------------------------------------------ number bounds
    def narrowed(self, name: str, bounds: Interval | None, cond: ir.Expr | None, env) -> Interval | None:
        """Bounds tightened by the comparisons of `name` in a `where` (its `and`ed parts)."""
        flip = {">=": "<=", ">": "<", "<=": ">=", "<": ">", "==": "=="}
        lo, hi = bounds if bounds is not None else (None, None)
        parts = [cond] if cond is not None else []
        while parts:
            c = parts.pop()
            if not isinstance(c, ir.Binary):
                continue
            if c.op == "and":
                parts += [c.left, c.right]
                continue
            op, other = c.op, None
            if isinstance(c.left, ir.Local) and c.left.name == name:
                other = c.right
            elif isinstance(c.right, ir.Local) and c.right.name == name:
                op, other = flip.get(op), c.left
            limit = self.number(other, env) if other is not None and op in flip else None
            if limit is None:
                continue
            if op in (">=", ">", "=="):
                low = limit[0] + (op == ">")
                lo = low if lo is None else max(lo, low)
            if op in ("<=", "<", "=="):
                high = limit[1] - (op == "<")
                hi = high if hi is None else min(hi, high)
        return (lo, hi) if lo is not None and hi is not None else None

    def elements(self, e: ir.Expr, env) -> Interval | None:
        """Bounds of the numbers in a list-valued expression."""
        if isinstance(e, ir.ListExpr):
            return hull(self.number(item, env) for item in e.items) if e.items else None
        if isinstance(e, ir.RangeExpr):
            low, high = self.number(e.low, env), self.number(e.high, env)
            return (low[0], high[1]) if low and high else None
        if isinstance(e, ir.Binary) and e.op == "+":
            return hull((self.elements(e.left, env), self.elements(e.right, env)))
        if isinstance(e, ir.Quantified) and e.kind == "list":
            inner = self.bind(e.binder, env)
            value = e.value if e.value is not None else ir.Local(e.binder.names[0])
            return self.number(value, inner)
        if isinstance(e, ir.DefineCall):
            return self.elements(self.rs.defines[e.name].body, self.arguments(e, env))
        if isinstance(e, ir.IfExpr):
            return hull((self.elements(e.then, env), self.elements(e.otherwise, env)))
        return None

    def bind(self, binder: ir.Binder, env) -> dict:
        inner = dict(env)
        for group in binder.groups:
            bounds = self.elements(group.domain, inner)
            for name in group.names:
                inner[name] = self.narrowed(name, bounds, binder.where, inner)
        return inner

    def arguments(self, call: ir.DefineCall, env) -> dict:
        params = self.rs.defines[call.name].params
        return {p: self.number(a, env) for (p, _), a in zip(params, call.args)}

    def number(self, e: ir.Expr, env) -> Interval | None:
        """Bounds of a number-valued expression (None: not known)."""
        rs = self.rs
        if isinstance(e, ir.Const):
            return (e.value, e.value) if type(e.value) is int else None
        if isinstance(e, ir.Param):
            v = rs.param_values.get(e.name)
            return (v, v) if type(v) is int else None
        if isinstance(e, ir.Local):
            return env.get(e.name)
        if isinstance(e, ir.Var):
            v = rs.vars[e.name]
            return (v.low, v.high) if v.low is not None and v.high is not None else None
        if isinstance(e, ir.Field):
            values = [c.values[e.name] for c in rs.cards if type(c.values.get(e.name)) is int]
            return (min(values), max(values)) if values else None
        if isinstance(e, ir.Unary) and e.op == "-":
            inner = self.number(e.operand, env)
            return (-inner[1], -inner[0]) if inner else None
        if isinstance(e, ir.Binary) and e.op in ("+", "-", "*"):
            a, b = self.number(e.left, env), self.number(e.right, env)
            if a is None or b is None:
                return None
            if e.op == "+":
                return (a[0] + b[0], a[1] + b[1])
            if e.op == "-":
                return (a[0] - b[1], a[1] - b[0])
            products = [x * y for x in a for y in b]
            return (min(products), max(products))
        if isinstance(e, ir.IfExpr):
            return hull((self.number(e.then, env), self.number(e.otherwise, env)))
        if isinstance(e, ir.Case):
            return hull(self.number(arm.value, env) for arm in e.arms)
        if isinstance(e, ir.DefineCall):
            return self.number(rs.defines[e.name].body, self.arguments(e, env))
        if isinstance(e, ir.BuiltinCall):
            return self.builtin(e, env)
        return None

    def builtin(self, e: ir.BuiltinCall, env) -> Interval | None:
        name, args = e.name, e.args
        if name in ("column", "row"):
            return (1, self.columns if name == "column" else self.rows)
        if name in ("columns", "rows") and isinstance(args[0], ir.ZoneRef):
            z = self.rs.zones[args[0].zone]
            n = z.columns if name == "columns" else z.rows
            return (n, n)
        if name == "size" and isinstance(args[0].ty, ZoneT):
            return (0, len(self.rs.cards))
        if name == "seat":
            return (1, len(self.rs.roles))
        if name == "abs":
            inner = self.number(args[0], env)
            if inner is None:
                return None
            low = 0 if inner[0] <= 0 <= inner[1] else min(abs(inner[0]), abs(inner[1]))
            return (low, max(abs(inner[0]), abs(inner[1])))
        if name in ("min", "max"):
            parts = [self.number(a, env) for a in args] if len(args) > 1 else [self.elements(args[0], env)]
            if any(p is None for p in parts):
                return None
            pick = min if name == "min" else max
            return (pick(p[0] for p in parts), pick(p[1] for p in parts))
        return None


def hull(intervals) -> Interval | None:
    """The smallest interval holding them all (None if any is unknown)."""
    intervals = list(intervals)
    if not intervals or any(i is None for i in intervals):
        return None
    return (min(i[0] for i in intervals), max(i[1] for i in intervals))
