"""The part of setup every game shares: run once per compiled game, copied into each new one.

Setup is mostly the same moves in every game (the trials to their deck, the Gobbots to
their stack) with a shuffle or two between them. The statements before the first that
draws from the RNG do the same thing whatever the seed; so does a later one that the
statements it would pass over cannot tell apart from it in any order: what it reads and
writes (card types, the order of the zones it puts cards into, variables, state fields,
locals, the RNG, the count of steps) is disjoint from what they write, and from what they
read of what it writes — and it can never fail, so no error stops a game at another place. Those statements move to the front, in their own order,
and `Program.fixed` says how many they are: the engine runs them once (`Game`) and starts
each game from a copy of the state they leave.

What a statement touches is worked out coarsely, by card type: moving trials touches
every zone's trials, shuffling a deck every card its zone can hold. Anything not
understood touches everything; a decision, the end of the game and a watch stop the
search (nothing after them is moved before them; with a watch, nothing moves at all).
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb

from rulelang import ir
from rulelang.types import BoardT, CardT, ListT, ZoneT
from rulelang.walk import children

from .hoist import never_fails
from .nodes import Decide, Hoisted, HoistLet, LetIn, Options, TakeFrom
from .tuning import FREE_BINDINGS

ANY = ("any",)  # touches everything
RNG = ("rng",)
STEPS = ("steps",)  # the count of steps against the limit
_BARRIERS = (ir.Choose, ir.Menu, ir.EndGame, ir.Eliminate, ir.Trigger, ir.CallProc, Decide,
             ir.Reveal, ir.Announce)  # (what is shown or said is told to a game's players: each game's own)
_PURE_CALLS = {"space", "spaces", "place", "columns", "rows", "players", "seat", "abs", "min", "max", "sum",
               "any", "all", "neighbours"}  # builtins that read no card's place (their arguments aside)
_PLACE_CALLS = {"top", "bottom", "size", "empty", "column", "row", "face_up", "face_down"}  # ...that do


@dataclass(frozen=True)
class Effects:
    reads: frozenset
    writes: frozenset

    def independent_of(self, other: Effects) -> bool:
        """Whether the two run in either order to the same state, each seeing what it saw."""
        if ANY in self.reads | self.writes or ANY in other.reads | other.writes:
            return False
        return not (self.writes & (other.reads | other.writes) or other.writes & self.reads)


def shared_setup(rs: ir.Ruleset, setup: ir.Block, possible: dict[str, frozenset], watched: bool) \
        -> tuple[ir.Block, int]:
    """The setup with the statements every game shares first, and how many they are."""
    if watched:
        return setup, 0
    counts: dict[str, int] = {}
    for card in rs.cards:
        counts[card.kind] = counts.get(card.kind, 0) + 1
    analysis = _Touches(possible, {f.name for t in rs.card_types.values() for f in t.state}, counts)
    fixed, rest, rest_effects = [], [], []
    for i, s in enumerate(setup):
        if isinstance(s, _BARRIERS) or any(isinstance(n, _BARRIERS) for n in _statements(s)):
            rest += setup[i:]
            break
        e = analysis.stmt(s, frozenset())
        shared = RNG not in e.writes and ANY not in e.reads | e.writes and not any(w[0] == "local" for w in e.writes)
        if shared and (not rest or _safe(s, frozenset()) and all(e.independent_of(r) for r in rest_effects)):
            fixed.append(s)
        else:
            rest.append(s)
            rest_effects.append(e)
    return tuple(fixed) + tuple(rest), len(fixed)


def _statements(s: ir.Stmt):
    """Every statement inside s (not s itself)."""
    stack = list(children(s))
    while stack:
        n = stack.pop()
        if isinstance(n, ir.Stmt):
            yield n
        stack.extend(children(n))


class _Touches:
    """What a statement or expression reads and writes, as resources: ("cards", T) where
    the cards of type T are (zone, order, facing), ("var", name), ("state", field),
    ("local", name), RNG, ANY."""

    def __init__(self, possible: dict[str, frozenset], states: set[str], counts: dict[str, int]):
        self.possible, self.states, self.counts = possible, states, counts

    def stmt(self, s: ir.Stmt, bound: frozenset) -> Effects:
        """What s reads and writes; STEPS among its writes if it counts steps against the limit
        (two such statements in another order would stop a setup that runs away at another one)."""
        e = self.effects(s, bound)
        return Effects(e.reads, e.writes | {STEPS}) if self.counts_steps(s, 1) else e

    def effects(self, s: ir.Stmt, bound: frozenset) -> Effects:
        r, w = set(), set()
        if isinstance(s, ir.Move):
            if s.every is not None:
                self.binder(s.every, bound, r)
                w |= self.cards(self.binder_kinds(s.every))
            for c in s.cards:
                r |= self.expr(c, bound)
                w |= self.cards(self.kinds_of(c))
            r |= self.expr(s.dest, bound)
            w |= self.into(s.dest)
        elif isinstance(s, ir.Draw):
            r |= self.expr(s.count, bound) | self.expr(s.source, bound) | self.expr(s.dest, bound)
            w |= self.cards(self.kinds_of(s.source)) | self.into(s.dest)
        elif isinstance(s, ir.Swap):
            r |= self.expr(s.first, bound) | self.expr(s.second, bound)
            for side in (s.first, s.second):
                w |= self.cards(self.kinds_of(side)) | self.into(side)
        elif isinstance(s, ir.Shuffle):
            r |= self.expr(s.zone, bound)
            w |= self.cards(self.kinds_of(s.zone)) | {RNG}
        elif isinstance(s, ir.Let):
            r |= self.expr(s.value, bound)
            w.add(("local", s.name))
        elif isinstance(s, ir.Assign):
            r |= self.expr(s.value, bound)
            t = s.target
            if isinstance(t, ir.Var) and t.owner is None:
                w.add(("var", t.name))
            elif isinstance(t, ir.Field):
                r |= self.expr(t.obj, bound)
                w.add(("state", t.name))
            elif isinstance(t, ir.Local):
                w.add(("local", t.name))
            else:
                w.add(ANY)
            if s.op != "=":
                r |= self.expr(t, bound)
        elif isinstance(s, ir.If):
            for cond, body in s.branches:
                r |= self.expr(cond, bound)
                self.block(body, bound, r, w)
            self.block(s.otherwise or (), bound, r, w)
        elif isinstance(s, ir.Repeat):
            r |= self.expr(s.count, bound)
            self.block(s.body, bound, r, w)
        elif isinstance(s, (ir.For, TakeFrom)):
            self.binder(s.binder, bound, r)
            if isinstance(s, TakeFrom) and s.which == "random":
                w.add(RNG)
            self.block(s.body, bound | set(s.binder.names), r, w)
        elif isinstance(s, ir.Roll):
            w.add(RNG)
            w |= self.effects(ir.Assign(s.target, "=", ir.Const(0)), bound).writes
        elif not isinstance(s, ir.Pass):
            w.add(ANY)
        return Effects(frozenset(r), frozenset(w))

    def block(self, stmts, bound: frozenset, r: set, w: set) -> None:
        """A nested block's effects, but for the locals it declares (they end with it)."""
        for s in stmts:
            e = self.effects(s, bound)
            r |= e.reads
            w |= e.writes if not isinstance(s, ir.Let) else e.writes - {("local", s.name)}
            if isinstance(s, ir.Let):
                bound = bound | {s.name}

    @staticmethod
    def into(dest: ir.Expr) -> set:
        """A zone cards are put into: its order, whatever their types (two moves into one zone
        leave its cards in the order they ran)."""
        if isinstance(dest, ir.ZoneRef):
            return {("into", dest.zone)}
        if isinstance(dest, ir.BuiltinCall) and dest.name in ("space", "place"):
            return {("into", dest.args[0].zone)}
        if isinstance(dest.ty, ZoneT) and dest.ty.board:  # some space of a board (`for s in spaces(B)`)
            return {("into", dest.ty.board)}
        return {ANY}

    def counts_steps(self, n, outer: int) -> bool:
        """Whether running n counts steps against the limit: a loop does, and so does a binder
        whose bindings, with those of the binders around it, may be more than the code generator
        lets go uncounted (tuning.FREE_BINDINGS)."""
        if isinstance(n, (ir.For, ir.Repeat, ir.While)):
            return True
        binder = n.binder if isinstance(n, (ir.Quantified, Options, TakeFrom)) else \
            n.every if isinstance(n, ir.Move) else None
        if binder is not None:
            for g in binder.groups:
                size = self.size(g.domain)
                outer = outer * comb(size, len(g.names)) if size is not None else FREE_BINDINGS + 1
            if outer > FREE_BINDINGS:
                return True
        return any(self.counts_steps(c, outer) for c in children(n))

    def size(self, e: ir.Expr) -> int | None:
        if isinstance(e.ty, (ZoneT, BoardT)):
            return sum(self.counts.get(k, 0) for k in e.ty.kinds)
        if isinstance(e, ir.ListExpr):
            return len(e.items)
        if isinstance(e, ir.Const) and isinstance(e.value, (list, tuple)):
            return len(e.value)
        return None

    def cards(self, kinds) -> set:
        return {ANY} if kinds is None else {("cards", k) for k in kinds}

    def zone_kinds(self, e: ir.Expr):
        """The card types a zone expression can hold now."""
        if isinstance(e, ir.ZoneRef) and e.zone in self.possible:
            return self.possible[e.zone]
        if isinstance(e.ty, (ZoneT, BoardT)):
            return e.ty.kinds
        return None

    def kinds_of(self, e: ir.Expr):
        """The types of the cards an expression names (a card, a list of cards, a zone's)."""
        t = e.ty
        if isinstance(t, (ZoneT, BoardT)):
            return self.zone_kinds(e)
        if isinstance(t, CardT):
            return t.kinds
        if isinstance(t, ListT) and isinstance(t.item, CardT):
            return t.item.kinds
        return None

    def binder_kinds(self, b: ir.Binder):
        """The types of the cards a one-name binder over a zone binds (narrowed by a type test)."""
        if len(b.names) != 1:
            return None
        t = b.types[0] if b.types else None
        return t.kinds if isinstance(t, CardT) else self.kinds_of(b.groups[0].domain)

    def binder(self, b: ir.Binder, bound: frozenset, r: set) -> None:
        inner = bound | set(b.names)
        for g in b.groups:
            if isinstance(g.domain.ty, (ZoneT, BoardT)):
                narrowed = self.binder_kinds(b) if len(b.groups) == 1 else None
                r |= self.cards(narrowed if narrowed is not None else self.zone_kinds(g.domain))
                r |= self.expr(g.domain, bound, contents=False)
            else:
                r |= self.expr(g.domain, bound)
        for part in (b.where, *(k.value for k in b.order)):
            if part is not None:
                r |= self.expr(part, inner)

    def expr(self, e: ir.Expr, bound: frozenset, contents: bool = True) -> set:
        """What an expression reads (a zone's cards only where `contents`: not a destination's)."""
        if isinstance(e, (ir.Const, ir.Param, ir.EnumValue, ir.RoleRef)):
            return set()
        if isinstance(e, ir.ZoneRef):
            return self.expr(e.owner, bound) if e.owner is not None else set()
        if isinstance(e, (ir.Local, Hoisted)):
            return set() if e.name in bound else {("local", e.name)}
        if isinstance(e, ir.Var):
            return {("var", e.name)} | (self.expr(e.owner, bound) if e.owner is not None else set())
        if isinstance(e, ir.Field):  # a printed field or a space's mark never changes; a card's state may
            read = self.expr(e.obj, bound)
            return read | {("state", e.name)} if e.name in self.states and not isinstance(e.obj.ty, ZoneT) else read
        if isinstance(e, (ir.Quantified, Options)):
            r: set = set()
            self.binder(e.binder, bound, r)
            value = getattr(e, "value", None)
            return r | (self.expr(value, bound | set(e.binder.names)) if value is not None else set())
        if isinstance(e, LetIn):
            return self.expr(e.value, bound) | self.expr(e.body, bound | {e.name})
        if isinstance(e, HoistLet):
            inner = bound | {n for n, _ in e.bindings}
            return set().union(*(self.expr(v, inner) for _, v in e.bindings)) | self.expr(e.body, inner)
        if isinstance(e, ir.BuiltinCall):
            r = set().union(*(self.expr(a, bound, contents=False) for a in e.args)) if e.args else set()
            if e.name in _PLACE_CALLS:
                return r | self.cards(self.kinds_of(e.args[0]))
            return r if e.name in _PURE_CALLS else r | {ANY}
        if isinstance(e, ir.Binary) and e.op in ("in", "not in") and isinstance(e.right.ty, (ZoneT, BoardT)):
            return self.expr(e.left, bound) | self.expr(e.right, bound, contents=False) | self.cards(self.kinds_of(e.left))
        if isinstance(e, (ir.Binary, ir.Unary, ir.IfExpr, ir.Case, ir.ListExpr, ir.RangeExpr, ir.IsType)):
            return set().union(*(self.expr(c, bound) for c in children(e) if isinstance(c, ir.Expr))) \
                | set().union(*(self.expr(c.value, bound) for c in children(e) if isinstance(c, ir.CaseArm)))
        return {ANY}


def _safe(s: ir.Stmt, cards: frozenset) -> bool:
    """Whether a statement can never stop the game with an error: moves of every card of a
    zone that passes a test that cannot fail, to a zone named outright; loops over a zone's
    cards, or over numbers, of those. `cards`: names bound to cards of a zone."""
    if isinstance(s, ir.Pass):
        return True
    if isinstance(s, ir.Move):
        return _fixed_zone(s.dest) and (s.every is None or _safe_binder(s.every, cards)) \
            and all(isinstance(c, ir.Local) and c.name in cards for c in s.cards)
    if isinstance(s, ir.For):
        inner = cards | {n for g in s.binder.groups if isinstance(g.domain.ty, ZoneT) for n in g.names}
        return _safe_binder(s.binder, cards) and all(_safe(b, inner) for b in s.body)
    return False


def _safe_binder(b: ir.Binder, cards: frozenset) -> bool:
    names = set(b.names)
    domains = all(_fixed_zone(g.domain) or isinstance(g.domain, ir.Const) for g in b.groups)
    zone_names = {n for g in b.groups if isinstance(g.domain.ty, ZoneT) for n in g.names}
    return domains and not b.order and (b.where is None or never_fails(b.where, set(cards) | zone_names, set())) \
        and names.isdisjoint(cards)


def _fixed_zone(e: ir.Expr) -> bool:
    """A zone named outright (no owner to work out)."""
    return isinstance(e, ir.ZoneRef) and (e.owner is None or isinstance(e.owner, ir.RoleRef)) \
        and isinstance(e.ty, ZoneT)
