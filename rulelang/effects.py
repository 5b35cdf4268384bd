"""What rules read and write, by kind, through the defines, procedures and
abilities they call or set off.

A kind is a game variable (`("var", name)`), a card's state or field
(`("state", name)`), or where cards are and which way up (CARDS: any move,
draw, shuffle or flip changes it; any zone read reads it). Coarse on purpose:
the analyses built on it (lint.py, first_matches.py, stale_loops.py) say
"may", and a kind written anywhere counts as written for every card and
player.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Callable

from . import ir
from .walk import Dispatch, walk

CARDS = ("cards",)


class Effects:
    """What blocks of statements read, write, ask and end."""

    def __init__(self, rs: ir.Ruleset):
        self.rs = rs
        self._writes: dict[int, tuple] = {}
        self._folds: dict = {}

    def nodes(self, node, seen: set | None = None) -> Iterator[ir.Node]:
        """Every node under `node`, through the defines and procedures it calls and the
        abilities its `trigger`s and `window`s set off (each once)."""
        seen = set() if seen is None else seen
        for n in walk(node):
            yield n
            for key, body in self._callees(n):
                if key not in seen:
                    seen.add(key)
                    yield from self.nodes(body, seen)

    def _callees(self, n) -> list[tuple[tuple, object]]:
        rs = self.rs
        if isinstance(n, ir.DefineCall) and n.name in rs.defines:
            return [(("define", n.name), rs.defines[n.name].body)]
        if isinstance(n, ir.CallProc) and n.name in rs.procedures:
            return [(("procedure", n.name), rs.procedures[n.name].body)]
        if isinstance(n, ir.Trigger):
            return [(("ability", a.name), (a.where, a.body)) for a in rs.abilities.values() if a.on == n.event]
        return []

    def reads(self, expr) -> set[tuple[str, ...]]:
        found: set[tuple[str, ...]] = set()
        for n in self.nodes(expr):
            if isinstance(n, ir.Var):
                found.add(("var", n.name))
            elif isinstance(n, ir.Field):
                found.add(("state", n.name))
            elif isinstance(n, (ir.ZoneRef, ir.Owned)) or isinstance(n, ir.BuiltinCall) and n.name in _CARD_BUILTINS:
                found.add(CARDS)
        return found

    def fold(self, node, what: str, of) -> frozenset:
        """The union of `of(n)` over every node under `node` and what it calls or sets off, each
        callee's share worked out once (named `what` in the cache)."""
        out = set()
        for n in walk(node):
            out |= of(n)
            for key, body in self._callees(n):
                out |= self._callee(key, body, what, of, set())
        return frozenset(out)

    def _callee(self, key, body, what: str, of, seen: set) -> frozenset:
        cached = self._folds.get((what, key))
        if cached is not None:
            return cached
        if key in seen:  # a cycle (which the checker refuses): what is found so far
            return frozenset()
        seen.add(key)
        out = set()
        for n in walk(body):
            out |= of(n)
            for k, b in self._callees(n):
                out |= self._callee(k, b, what, of, seen)
        self._folds[(what, key)] = result = frozenset(out)
        return result

    def writes(self, block) -> frozenset:
        cached = self._writes.get(id(block))
        if cached is None or cached[0] is not block:
            cached = self._writes[id(block)] = (block, self.fold(block, "writes", _written))
        return cached[1]

    def asks(self, block) -> bool:
        """Whether the block may ask a decision (an ability a trigger runs may)."""
        return any(isinstance(n, (ir.Choose, ir.Menu, ir.Trigger)) for n in self.nodes(block))

    def always_ends(self, block) -> bool:
        return any(self._ends(s) for s in block)

    def _ends(self, s: ir.Stmt) -> bool:
        if isinstance(s, ir.EndGame):
            return True
        if isinstance(s, ir.If):
            return s.otherwise is not None and all(self.always_ends(b) for _, b in s.branches) \
                and self.always_ends(s.otherwise)
        if isinstance(s, ir.CallProc) and s.name in self.rs.procedures:
            return self.always_ends(self.rs.procedures[s.name].body)
        return False


def _written(n: ir.Node) -> frozenset:
    return WRITES(n)(n) if isinstance(n, ir.Stmt) else frozenset()


Effect = frozenset[tuple[str, ...]]
# what each statement itself changes of the game (the statements inside it are walked on their own):
# every statement class says, so a new one cannot be taken for one that changes nothing
WRITES: Dispatch[Callable[[Any], Effect]] = Dispatch("what rules write (effects.py)", ir.Stmt)


@WRITES.on(ir.Assign, ir.Roll)
def _target(s: ir.Assign | ir.Roll) -> Effect:
    if isinstance(s.target, ir.Var):
        return frozenset({("var", s.target.name)})
    if isinstance(s.target, ir.Field):
        return frozenset({("state", s.target.name)})
    return frozenset()  # a local


@WRITES.on(ir.Move, ir.Draw, ir.Swap, ir.Shuffle, ir.Flip, ir.Eliminate)
def _cards(s: ir.Stmt) -> Effect:
    return frozenset({CARDS})


# locals, control flow, decisions, the end; what a call or a trigger sets off is followed by `fold`;
# a reveal or an announcement tells players something and changes no value the rules read
@WRITES.on(ir.Let, ir.If, ir.While, ir.Repeat, ir.For, ir.Choose, ir.Take, ir.Menu, ir.EndGame, ir.Trigger,
           ir.CallProc, ir.Pass, ir.Reveal, ir.Announce)
def _nothing(s: ir.Stmt) -> Effect:
    return frozenset()


# builtins whose value depends on where cards are or which way up they lie
_CARD_BUILTINS = frozenset({"size", "empty", "top", "bottom", "face_up", "face_down", "column", "row", "in_game",
                            "left_of", "right_of", "clockwise"})
