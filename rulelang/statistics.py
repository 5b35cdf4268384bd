"""Statistics: variables the rules keep only to be measured.

A variable that no rule reads — only the statements that update it, a
mode's `measures:` and its `heuristics:` read it — changes nothing in play
(`teams_formed += 1` for a measure of teams formed). It is a statistic, not a
rule: the printed rules leave it out, with every statement that does nothing
but update statistics, and `rulelang play` does not show it. A variable a
`score:` or `ranking:` reads is one the players see, and so a rule.

Reads inside a statement that only updates statistics do not count
(`if bridge_lowered_at == 0: bridge_lowered_at = round`), so the set is found
as a fixed point: start from every variable, drop those read elsewhere, and
again, until nothing changes.
"""
from __future__ import annotations

import dataclasses

from . import ir
from .walk import child_fields, children, walk

LOOPS = (ir.For, ir.While, ir.Repeat)


def statistics(rs: ir.Ruleset) -> frozenset[str]:
    """The names of the variables only measures and heuristics read, in any mode."""
    stats = set(rs.vars)
    while True:
        read = _Reads(rs, stats).all()
        if not stats & read:
            return frozenset(stats)
        stats -= read


def only_updates(s: ir.Stmt, stats) -> bool:
    """The statement changes nothing but statistics: an assignment to one, or
    conditions and loops holding nothing else."""
    if isinstance(s, ir.Assign):
        return isinstance(s.target, ir.Var) and s.target.name in stats
    if isinstance(s, ir.If):
        blocks = [b for _, b in s.branches] + ([s.otherwise] if s.otherwise else [])
        return all(b and all(only_updates(x, stats) for x in b) for b in blocks)
    if isinstance(s, LOOPS):
        return bool(s.body) and all(only_updates(x, stats) for x in s.body)
    return False


class _Reads:
    """The variables the rules read, leaving out statements that only update statistics."""

    def __init__(self, rs: ir.Ruleset, stats):
        self.rs, self.stats = rs, stats
        self.read: set[str] = set()
        self.defines_seen: set[str] = set()

    def all(self) -> set[str]:
        rs = self.rs
        self.block(rs.setup)
        for p in rs.procedures.values():
            self.block(p.body)
        for a in rs.abilities.values():
            self.block(a.body)
            self.expr(a.where)
            self.expr(a.optional)
        for m in rs.modes.values():
            self.block(m.setup)
            for step in m.round:
                self.block(step.body)
            for w in m.watches:
                self.expr(w.when)
                self.block(w.body)
            for e in m.score.values():
                self.expr(e)
            for k in m.ranking:
                for e in k.values.values():
                    self.expr(e)
            if m.turns is not None:  # who takes turns, in what order, is a rule
                self.expr(m.turns.order)
        return self.read

    def block(self, stmts) -> None:
        for s in stmts or ():
            self.node(s)

    def node(self, n) -> None:
        if isinstance(n, ir.Stmt) and only_updates(n, self.stats):
            return
        if isinstance(n, ir.Expr):
            self.expr(n)
            return
        for c in children(n):
            self.node(c)

    def expr(self, e) -> None:
        if e is None:
            return
        for n in walk(e):
            if isinstance(n, ir.Var):
                self.read.add(n.name)
            elif isinstance(n, ir.DefineCall) and n.name not in self.defines_seen:
                self.defines_seen.add(n.name)
                self.expr(self.rs.defines[n.name].body)


def without_statistics(rs: ir.Ruleset) -> ir.Ruleset:
    """The ruleset with every statement that only updates statistics taken out
    (a block left empty does nothing): the rules as players read them."""
    stats = statistics(rs)
    if not stats:
        return rs
    strip = _Strip(stats)
    return dataclasses.replace(
        rs, setup=strip(rs.setup),
        procedures=ir.frozen_map({n: strip(p) for n, p in rs.procedures.items()}),
        abilities=ir.frozen_map({n: strip(a) for n, a in rs.abilities.items()}),
        modes=ir.frozen_map({n: strip(m) for n, m in rs.modes.items()}))


class _Strip:
    def __init__(self, stats):
        self.stats = stats

    def __call__(self, value):
        if isinstance(value, ir.Expr) or not isinstance(value, (ir.Node, tuple)):
            return value
        if isinstance(value, tuple):
            kept = tuple(self(v) for v in value if not (isinstance(v, ir.Stmt) and only_updates(v, self.stats)))
            if value and not kept and isinstance(value[0], ir.Stmt):
                return (ir.Pass(span=value[0].span),)
            return kept if any(a is not b for a, b in zip(kept, value)) or len(kept) != len(value) else value
        changes = {}
        for name in child_fields(value):
            old = getattr(value, name)
            new = self(old) if not isinstance(old, dict) else old
            if new is not old:
                changes[name] = new
        return dataclasses.replace(value, **changes) if changes else value
