"""Decision-free loops (`repeat`, `while`, `for`) -> Python loops; the rows of a `for` that no
pass of the loop around it can change, listed once.

    repeat cards_this_hand() times:
      for p in clockwise(left_of(dealer)):
        draw 1 from deck to hand of p

lists the players once, at the first pass, and goes through the same list at every pass
after (a `for` in the body of a `repeat`, `while` or `for`, not inside an `if`). Each pass
still counts them as steps where it did, and the first pass lists them where the rules
would have (an error in listing them stops the game at the same point). A binder qualifies
when it reads only variables, locals, constants, parameters, the players and the seats
around them (no card, zone or card state: cards move in every loop worth having; and its
bindings are not counted as work), and nothing the loop runs sets those variables or locals
or puts a player out: its statements, the procedures they call, and the loop's own names. A
mode with `watch:`es lists them at every pass: a watch's statements may run after any change.
"""
from __future__ import annotations

import ast

from rulelang import ir
from rulelang.walk import walk

from . import pycode as code
from .context import TOP, Ctx, Part
from .nodes import HoistLet, Options
from .pycode import STORE
from .statements import COUNTED
from .unit import Function

# what a binder's domain may be made of to be known to read only variables, locals and seats
_PLAIN = (ir.Const, ir.Var, ir.Param, ir.EnumValue, ir.RoleRef, ir.Local, ir.Unary, ir.Binary, ir.IfExpr,
          ir.ListExpr)
_SEATS = ("players", "clockwise", "left_of", "right_of", "round")  # built-ins of the seats (and the round)
PLAYERS = "$players"  # who is still in the game, as a thing a loop may change


class Loops(Part):
    def repeat(self, s: ir.Repeat, fn: Function, out: list) -> None:
        n = self.fresh("n")
        out += code.stmts("N = COUNT\n" + COUNTED.format("max(N, 0)"), N=n, COUNT=self.expr(s.count, fn, TOP),
                          SPAN=self.const(s.span), LIMIT=self.L.step_limit)
        loop = ast.For(ast.Name("_", STORE), code.expr("range(N)", N=n), [], [], None)
        self.body(s, (), fn, loop.body, out)
        out.append(loop)

    def while_(self, s: ir.While, fn: Function, out: list) -> None:
        cond = self.expr(s.cond, fn, TOP)
        loop = ast.While(ast.UnaryOp(ast.Not(), cond) if s.until else cond,
                         code.stmts("st.steps += 1\nif st.steps > LIMIT:\n    _runaway(SPAN, LIMIT)",
                                    LIMIT=self.L.step_limit, SPAN=self.const(s.span)), [])
        self.body(s, (), fn, loop.body, out)
        out.append(loop)

    def for_(self, s: ir.For, fn: Function, out: list, kept: str | None = None) -> None:
        """`kept`: a local that holds the rows once listed (None before the first pass of the loop around)."""
        names = s.binder.names
        bare = len(names) == 1 and self.options.idioms
        vs, rows = [self.fresh("v") for _ in names], kept or self.fresh("rows")
        listing: list = []
        listed = self.g.lazy.once(Options(s.binder, span=s.binder.span), fn, listing, Ctx(bare=bare))
        listing.append(code.assign(rows, listed))
        out += listing if kept is None else [ast.If(code.expr("ROWS is None", ROWS=rows), listing, [])]
        out += code.stmts(COUNTED.format("len(ROWS)"), ROWS=rows, SPAN=self.const(s.span), LIMIT=self.L.step_limit)
        loop = ast.For(ast.Name(vs[0], STORE) if bare else code.tuple_of(vs, STORE), code.name(rows), [], [], None)
        binding = [code.assign(self.local(n, STORE), v) for n, v in zip(names, vs)]
        self.body(s, names, fn, loop.body, out)
        for n, v in zip(names, vs):  # the body reads a name from the loop's own local where it sets it nowhere
            key = self.local(n).key
            if self.options.locals and not code.stores(loop.body, key):
                loop.body = code.reads_as(loop.body, key, v)
        loop.body[:0] = binding
        out.append(loop)

    def body(self, s: ir.Repeat | ir.While | ir.For, names, fn: Function, out: list, before: list) -> None:
        """A loop's body; a `for` in it whose rows no pass changes keeps them in a local set to None in
        `before`, the lines before the loop (which the caller appends after these)."""
        changed = self.changed(s.body, set(names)) if self.g.watch_check is None and self.options.hoist else None
        stmts = self.g.stmts
        for t in s.body:
            if changed is not None and isinstance(t, ir.For) and self.unchanged(t.binder, changed):
                kept = self.fresh("rows")
                before.append(code.assign(kept, code.const(None)))
                stmts.one(t, fn, out, lambda t=t, kept=kept: self.for_(t, fn, out, kept))
            else:
                stmts.one(t, fn, out)

    def unchanged(self, b: ir.Binder, changed: set) -> bool:
        """Whether the binder's rows are the same at every pass of a loop that changes `changed`."""
        if b.order or len(b.groups) != 1 or not self.g.binders.uncounted(b.groups[0].domain, TOP):
            return False
        for e in (b.groups[0].domain, b.where):
            for n in walk(e) if e is not None else ():
                if isinstance(n, ir.BuiltinCall) and n.name in _SEATS:
                    if n.name != "players" and n.name != "round" and PLAYERS in changed:
                        return False
                elif not isinstance(n, _PLAIN):
                    return False
                elif isinstance(n, (ir.Var, ir.Local)) and n.name in changed:
                    return False
        return True

    def changed(self, block, names: set, seen: set | None = None) -> set | None:
        """The variables and locals the statements may set (and PLAYERS if they may put one out), with
        `names`; None if they may change more than can be known (a procedure run as a program)."""
        seen = set() if seen is None else seen
        found = set(names)
        for n in walk(block):
            if isinstance(n, (ir.Assign, ir.Roll)) and isinstance(n.target, (ir.Var, ir.Local)):
                found.add(n.target.name)
            elif isinstance(n, ir.Let):
                found.add(n.name)
            elif isinstance(n, (ir.For, ir.Take, ir.Choose)):
                found |= set(n.binder.names)
            elif isinstance(n, ir.Eliminate):
                found.add(PLAYERS)
            elif isinstance(n, ir.CallProc) and n.name not in seen:
                procedures = self.program.procedures if self.program is not None else {}
                if n.name not in procedures:
                    return None
                seen.add(n.name)
                inner = self.changed(procedures[n.name], set(), seen)
                if inner is None:
                    return None
                found |= inner | {p for p, _ in self.L.rs.procedures[n.name].params}
            elif isinstance(n, HoistLet):
                found |= {name for name, _ in n.bindings}
        return found
