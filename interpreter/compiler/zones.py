"""Which card types can ever be in each zone, for one mode and parameters.

A fixed point over every reachable move, following where moved cards came
from (a card bound from a zone, `top(zone)`, a `let` of one, ...) and which
zones a zone bound to a name may be (`for z in [hand, discard]`). The folder
uses it to fold type tests, the sampler to deal hidden cards back only
where they could be.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.types import CardT, ListT, ZoneT
from rulelang.walk import dispatch, walk

from .nodes import LetIn


class ZoneAnalysis:
    """Which card types can ever be in each zone: a fixed point over every
    reachable move, following where moved cards came from (a card bound from
    a zone, `top(zone)`, a `let` of one, ...)."""
    DECLINES = {ir.Trigger: "triggers and windows are written out before the zone analysis (abilities.py)"}

    def __init__(self, rs: ir.Ruleset, procs: dict):
        self.rs, self.procs = rs, procs
        self.all = frozenset(rs.card_types)
        self.possible: dict[str, frozenset] = {"box": self.all}

    def run(self, setup, steps) -> dict[str, frozenset]:
        # a local changed by `=` may hold a card (or zone) from anywhere
        self.assigned = {n.target.name for n in walk((setup, *steps, *self.procs.values()))
                         if isinstance(n, ir.Assign) and isinstance(n.target, ir.Local)}
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
        dispatch(self, "stmt", s, prov)

    def stmt_let(self, s: ir.Let, prov: dict) -> None:
        prov[s.name] = None if s.name in self.assigned else self.sources(s.value, prov)

    def stmt_move(self, s: ir.Move, prov: dict) -> None:
        dests = self.zones_of(s.dest, prov)
        if s.every is not None:
            inner = self.bind(s.every, prov)
            self.add(dests, self.moved(ir.Local(s.every.names[0], ty=s.every.types[0]), inner))
        for c in s.cards:
            self.add(dests, self.moved(c, prov))

    def stmt_draw(self, s: ir.Draw, prov: dict) -> None:
        self.add(self.zones_of(s.dest, prov), self.from_zones(self.zones_of(s.source, prov)))

    def stmt_swap(self, s: ir.Swap, prov: dict) -> None:
        if isinstance(s.first.ty, ZoneT) and isinstance(s.second.ty, ZoneT):
            first, second = self.zones_of(s.first, prov), self.zones_of(s.second, prov)
            self.add(second, self.from_zones(first))
            self.add(first, self.from_zones(second))
            return
        # two cards: each goes to a zone where the other may lie
        a, b = self.moved(s.first, prov), self.moved(s.second, prov)
        to_a = [z for z, kinds in self.possible.items() if kinds & b]
        to_b = [z for z, kinds in self.possible.items() if kinds & a]
        self.add(to_a, a)
        self.add(to_b, b)

    def stmt_if(self, s: ir.If, prov: dict) -> None:
        for _, body in s.branches:
            self.block(body, prov)
        if s.otherwise is not None:
            self.block(s.otherwise, prov)

    def stmt_while(self, s: ir.While | ir.Repeat, prov: dict) -> None:
        self.block(s.body, prov)

    stmt_repeat = stmt_while

    def stmt_for(self, s: ir.For | ir.Choose | ir.Take, prov: dict) -> None:
        self.block(s.body, self.bind(s.binder, prov))

    stmt_choose = stmt_take = stmt_decide = stmt_takefrom = stmt_for

    def stmt_menu(self, s: ir.Menu, prov: dict) -> None:
        for o in s.options:
            self.block(o.body, prov)

    def stmt_callproc(self, s: ir.CallProc, prov: dict) -> None:
        if s.name not in self.visited:
            self.visited.add(s.name)
            self.block(self.procs[s.name], {})

    def moves_nothing(self, s: ir.Stmt, prov: dict) -> None:
        """A statement that puts no card into a zone (a shuffle keeps them where they are)."""

    stmt_shuffle = stmt_flip = stmt_assign = stmt_roll = stmt_endgame = stmt_eliminate = stmt_pass = stmt_reveal = \
        stmt_announce = moves_nothing

    def bind(self, b: ir.Binder, prov: dict) -> dict:
        inner = dict(prov)
        for g in b.groups:
            src = self.sources(g.domain, inner)
            for n in g.names:
                inner[n] = None if n in self.assigned else src
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

    def zones_of(self, e: ir.Expr, prov: dict) -> set[str]:
        """The zones a zone expression may be."""
        if isinstance(e, ir.ZoneRef):
            return {e.zone}
        if isinstance(e, ir.BuiltinCall) and e.name == "space":  # a board's spaces count as the board
            return {e.args[0].zone}
        if isinstance(e, ir.IfExpr):
            return self.zones_of(e.then, prov) | self.zones_of(e.otherwise, prov)
        if isinstance(e, ir.Local) and prov.get(e.name) is not None:  # a zone bound to a name
            return prov[e.name]
        if isinstance(e.ty, ZoneT) and e.ty.board is not None:  # some space of that board
            return {e.ty.board}
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
