"""The rules of one mode, ready to compile: the passes over the IR that options switch on.

A hand-written game is specialised to its options; optimising does the same
for a ruleset, so the code generated from it does little more work than
hand-written code would. In order, each when its flag is on (options.py):

1. zones (zones.py): which card types can reach each zone, found on the
   rules with every procedure and define written in place;
2. fold and inline (fold.py): parameters become constants, defines and
   procedures are inlined, everything constant is folded, and type tests
   over zones that cannot hold the type fold away; what inlining would
   copy too often or make too big is called instead (inlining.py);
3. reuse (reuse.py): a quantifier's value that the next statements compute
   again, with nothing between that changes what it reads, is computed once;
4. setup (shared_setup.py): the setup statements every game runs alike go
   first, to be run once per compiled game;
5. hoist (hoist.py): inside every binder, the parts independent of its
   names are computed once, lazily;

and last, every decision and `take` carries its options as one expression
(hoisted, if hoisting is on). With every flag off the program is the rules
as checked: the naive reference the tests play every pass against.
"""
from __future__ import annotations

import dataclasses
import itertools

from rulelang import ir
from rulelang.walk import map_children

from . import tuning
from .abilities import Abilities
from .fold import Folder
from .hoist import Hoister
from .inlining import Called, written_out
from .nodes import Program, measure_exprs, with_options
from .options import CompileOptions
from .reuse import Reuse
from .shared_setup import shared_setup
from .zones import ZoneAnalysis


def with_abilities(rs: ir.Ruleset, mode: ir.Mode, fresh) -> tuple[ir.Ruleset, ir.Mode]:
    """The ruleset and mode with every `trigger` and `window` written out (abilities.py)."""
    if not rs.abilities and not rs.events:
        return rs, mode
    abilities = Abilities(rs, fresh)
    return abilities.ruleset(), abilities.mode(mode)


def program_for(rs: ir.Ruleset, mode: ir.Mode, options: CompileOptions, evaluate) -> Program:
    """The program of one mode with the passes `options` switch on. `evaluate(expr) -> (ok,
    value)` computes an expression of constants (the code generator's job)."""
    counter = itertools.count(1)

    def fresh(base: str) -> str:  # names the passes make: one counter, so they stay distinct
        return f"{base}${next(counter)}"
    rs, mode = with_abilities(rs, mode, fresh)
    # role -> expression tables (scores, heuristics) and the measures, all folded alike
    tables = {"score": dict(mode.score), "heuristics": dict(mode.heuristics), "measures": measure_exprs(mode),
              **{f"rank {i}": dict(k.values) for i, k in enumerate(mode.ranking)}}
    defines = {n: d.body for n, d in rs.defines.items()}
    procedures = {n: p.body for n, p in rs.procedures.items()}
    setup, steps, watches = rs.setup + mode.setup, mode.round, mode.watches
    possible = None
    if options.zones or options.fold or options.inline:
        # what is called rather than written in place (inlining.py), and the rules' size all written out
        called, whole = written_out(rs, (setup, steps, watches, tuple(e for t in tables.values() for e in t.values())))
        view, seen = None, Called() if whole <= tuning.ANALYSED_WRITTEN_OUT else called
        if options.zones:  # the analysis follows cards through every call: it sees the rules with each written in place
            analysed = Folder(rs, evaluate, fresh, fold=options.fold)
            analysed.calls = seen
            view = analysed.fold_all(setup, steps, _only(procedures, seen.procedures), _only(defines, seen.defines),
                                     tables, watches)
            possible = ZoneAnalysis(rs, view[2]).run(view[0], view[1] + tuple(w.body for w in view[5]))
        if options.fold or options.inline:
            folder = Folder(rs, evaluate, fresh, fold=options.fold, inline=options.inline, possible=possible)
            if options.inline:  # all but what would make the code too big
                folder.calls = called
                procedures, defines = _only(procedures, called.procedures), _only(defines, called.defines)
            if view is not None and options.inline and called == seen:
                parts = folder.fold_all(*view)  # folding the inlined rules again is cheaper
            else:
                parts = folder.fold_all(setup, steps, procedures, defines, tables, watches)
            setup, steps, procedures, defines, tables, watches = parts
    if options.reuse:
        reuse = Reuse(fresh).program_block
        setup, steps = reuse(setup), tuple(dataclasses.replace(s, body=reuse(s.body)) for s in steps)
        procedures = {n: reuse(b) for n, b in procedures.items()}
        watches = tuple(dataclasses.replace(w, body=reuse(w.body)) for w in watches)
    fixed = 0
    if options.setup:
        setup, fixed = shared_setup(rs, setup, possible or {}, bool(watches))
    finish = _Finish(Hoister(fresh) if options.hoist else None)
    return Program(finish.block(setup), tuple(dataclasses.replace(s, body=finish.block(s.body)) for s in steps),
                   {n: finish.block(b) for n, b in procedures.items()},
                   {r: finish.expr(e) for r, e in tables["score"].items()},
                   {n: finish.expr(e) for n, e in tables["measures"].items()},
                   {r: finish.expr(e) for r, e in tables["heuristics"].items()},
                   tuple(dataclasses.replace(w, when=finish.expr(w.when), body=finish.block(w.body)) for w in watches),
                   possible,
                   tuple((k.lowest, {r: finish.expr(e) for r, e in tables[f"rank {i}"].items()})
                         for i, k in enumerate(mode.ranking)), fixed,
                   defines={n: finish.expr(e) for n, e in defines.items()}, turns=mode.turns)


def _only(bodies: dict, names: frozenset[str]) -> dict:
    """The bodies of these names, in the rules' order (fresh names follow it)."""
    return {n: b for n, b in bodies.items() if n in names}


class _Finish:
    """The last step: hoisting if asked; each decision and `take` with its options as one expression."""

    def __init__(self, hoister: Hoister | None):
        self.hoister = hoister

    def block(self, stmts: ir.Block) -> ir.Block:
        if self.hoister is not None:
            return self.hoister.block(stmts)
        return tuple(self.attach(s) for s in stmts)

    def attach(self, n):
        n = map_children(n, self.attach)
        return with_options(n) if isinstance(n, (ir.Choose, ir.Take)) else n

    def expr(self, e: ir.Expr) -> ir.Expr:
        return self.hoister.expr(e) if self.hoister is not None else self.attach(e)
