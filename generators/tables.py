"""A term whose value is a small table, printed as the table a rulebook prints.

A define of players and kinds of value only (`starting_value(role p, symbol s)`),
worked out from the seats, the number of players and constants, has a value
for each seat and each value of its kinds: a rulebook prints those, not the
formula ("Red: Shield 1, Brick 2, Lumber 3"), and one line per number of
players where the table depends on it ("With 3 or 4 players: …"). The values
are worked out here, from the IR, by the arithmetic the rules use; anything
else a body reads (a variable, a card, a zone) makes it no table.
"""
from __future__ import annotations

from itertools import product
from math import prod

from rulelang import ir
from rulelang.types import ROLE, EnumT
from rulelang.walk import walk

from .document import Item, capital
from .nouns import printed_value, role_name, words

CELLS = 36  # the most values a term prints as a table


class _NoTable(Exception):
    """The body reads something that is not a seat, the number of players or a constant."""


def table_item(rs: ir.Ruleset, d: ir.Define, head: str) -> Item | None:
    """The term as a table (`head` is its phrase, in bold), or None where it is none."""
    if not d.params or isinstance(d.body, ir.Case) or not any(ty == ROLE for _, ty in d.params):
        return None
    seats = rs.players.names if rs.players is not None else tuple(r.name for r in rs.roles)
    counts = range(rs.players.low, rs.players.high + 1) if rs.players is not None else (len(seats),)
    domains: list[tuple | None] = []  # None: the seats of each number of players
    kinds: list[tuple[EnumT, tuple[str, ...]]] = []
    for i, (_, ty) in enumerate(d.params):
        if ty == ROLE:
            domains.append(None)
        elif isinstance(ty, EnumT) and ty.name in rs.enums:
            values = _used(rs, d, i) or tuple(rs.enums[ty.name].values)
            domains.append(values)
            kinds.append((ty, values))
        else:
            return None
    if prod(len(dom) for _, dom in kinds) * len(seats) > CELLS:  # counted before any is listed: kinds can be long
        return None
    columns = [capital(" ".join(printed_value(rs, ty, v) for (ty, _), v in zip(kinds, vs)))
               for vs in product(*(dom for _, dom in kinds))]
    by_count: dict[int, list[tuple[str, list[str]]]] = {}
    try:
        for n in counts:
            rows = []
            for seat in range(1, n + 1):
                cells = []
                for values in product(*(dom for _, dom in kinds)):
                    it = iter(values)
                    args = [("seat", seat) if dom is None else next(it) for dom in domains]
                    cells.append(_shown(rs, _value(rs, d.body, dict(zip((p for p, _ in d.params), args)), n)))
                rows.append((_seat_name(rs, seats[seat - 1]), cells))
            by_count[n] = rows
    except (_NoTable, ZeroDivisionError, TypeError):
        return None
    groups: list[tuple[list[int], list]] = []  # numbers of players alike, with their rows
    for n, rows in by_count.items():
        last = groups[-1] if groups else None
        if last is not None and rows[:len(last[1])] == last[1][:len(rows)]:
            last[0].append(n)
            last[1][:] = rows if len(rows) > len(last[1]) else last[1]
        else:
            groups.append(([n], list(rows)))

    def line(rows) -> str:
        return "; ".join(f"{who}: " + ", ".join(f"{c} {v}" if c else v for c, v in zip(columns, cells))
                         for who, cells in rows) + "."
    if len(groups) == 1:
        return Item(f"{head}:", [Item(line(groups[0][1]))])
    return Item(f"{head}:", [Item(f"With {_players(ns)}: " + line(rows)) for ns, rows in groups])


def _players(ns: list[int]) -> str:
    if len(ns) == 1:
        return f"{ns[0]} players"
    return ", ".join(str(n) for n in ns[:-1]) + f" or {ns[-1]} players"


def _seat_name(rs: ir.Ruleset, name: str) -> str:
    role = next((r for r in rs.roles if r.name == name), ir.Role(name))
    return role_name(role)


def _used(rs: ir.Ruleset, d: ir.Define, i: int) -> tuple[str, ...]:
    """The values the rules pass as the define's `i`th argument, where every call passes a value
    written out (the Shield, Brick and Lumber of a starting hand); else nothing."""
    calls = [n for root in (rs, tuple(rs.defines.values()), tuple(rs.procedures.values()), tuple(rs.modes.values()))
             for n in walk(root) if isinstance(n, ir.DefineCall) and n.name == d.name]
    values = [a.value for c in calls for a in c.args[i:i + 1] if isinstance(a, ir.EnumValue)]
    if not calls or len(values) != len(calls):
        return ()
    return tuple(dict.fromkeys(values))


def _shown(rs: ir.Ruleset, v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, tuple):
        raise _NoTable
    return words(v)


def _value(rs: ir.Ruleset, e: ir.Expr, env: dict, n: int, depth: int = 0):
    """The value of `e` with the parameters in `env` and `n` players (a seat is ("seat", k))."""
    if depth > 20:
        raise _NoTable

    def v(x):
        return _value(rs, x, env, n, depth + 1)
    if isinstance(e, ir.Const) and isinstance(e.value, (int, bool)):
        return e.value
    if isinstance(e, ir.EnumValue):
        return e.value
    if isinstance(e, ir.Local) and e.name in env:
        return env[e.name]
    if isinstance(e, ir.BuiltinCall) and e.name == "seat" and len(e.args) == 1:
        who = v(e.args[0])
        if isinstance(who, tuple):
            return who[1]
    if isinstance(e, ir.BuiltinCall) and e.name == "size" and e.args == (ir.BuiltinCall("players", ()),):
        return n
    if isinstance(e, ir.BuiltinCall) and e.name in ("min", "max") and len(e.args) == 2:
        return (min if e.name == "min" else max)(v(e.args[0]), v(e.args[1]))
    if isinstance(e, ir.Unary):
        return (not v(e.operand)) if e.op == "not" else -v(e.operand)
    if isinstance(e, ir.Binary) and e.op in OPS:
        return OPS[e.op](v(e.left), v(e.right))
    if isinstance(e, ir.IfExpr):
        return v(e.then) if v(e.cond) else v(e.otherwise)
    if isinstance(e, ir.Case):
        subject = v(e.subject)
        for arm in e.arms:
            if not arm.patterns or any(v(p) == subject for p in arm.patterns):
                return v(arm.value)
        raise _NoTable
    if isinstance(e, ir.DefineCall) and e.name in rs.defines:
        d = rs.defines[e.name]
        inner = {p: v(a) for (p, _), a in zip(d.params, e.args)}
        return _value(rs, d.body, inner, n, depth + 1)
    raise _NoTable


OPS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a // b,
       "%": lambda a, b: a % b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
       "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
       "and": lambda a, b: a and b, "or": lambda a, b: a or b}
