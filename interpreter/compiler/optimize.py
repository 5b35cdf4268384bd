"""The rules of one mode, ready to compile: plain, or optimised.

A hand-written game is specialised to its options; optimising does the same
for a ruleset, so the code generated from it does little more work than
hand-written code would. In order:

1. fold and inline (fold.py): parameters become constants, defines and
   procedures are inlined, everything constant is folded;
2. the zone analysis (zones.py): which card types can reach each zone;
3. fold the rules again knowing that (type tests over zones that cannot hold
   the type fold away), this time calling the few big procedures that
   inlining would copy too often (`INLINE_BUDGET`) instead of inlining them;
4. reuse (reuse.py): a quantifier's value that the next statements compute
   again, with nothing between that changes what it reads, is computed once;
   the setup statements every game runs alike go first (shared_setup.py);
5. hoist (hoist.py): inside every binder, the parts independent of its
   names are computed once, lazily; a decision's options become one
   expression on its node.

The result means exactly what the input means; `Game(..., optimize=False)`
runs the plain program (the checked IR as written), and the tests play both
and compare.
"""
from __future__ import annotations

import dataclasses
import itertools

from rulelang import ir
from rulelang.walk import map_children

from .abilities import Abilities
from .fold import Folder, called_procedures
from .hoist import Hoister
from .nodes import Program, measure_exprs, with_options
from .reuse import Reuse
from .shared_setup import shared_setup
from .zones import ZoneAnalysis


def with_abilities(rs: ir.Ruleset, mode: ir.Mode, fresh) -> tuple[ir.Ruleset, ir.Mode]:
    """The ruleset and mode with every `trigger` and `window` written out (abilities.py)."""
    if not rs.abilities and not rs.events:
        return rs, mode
    abilities = Abilities(rs, fresh)
    return abilities.ruleset(), abilities.mode(mode)


def plain_program(rs: ir.Ruleset, mode: ir.Mode) -> Program:
    """The rules as checked, each decision carrying its plain options."""
    counter = itertools.count(1)
    rs, mode = with_abilities(rs, mode, lambda base: f"{base}${next(counter)}")
    def attach(n):
        n = map_children(n, attach)
        return with_options(n) if isinstance(n, (ir.Choose, ir.Take)) else n

    def block(stmts):
        return tuple(attach(s) for s in stmts)
    return Program(block(rs.setup + mode.setup), tuple(map_children(s, attach) for s in mode.round),
                   {n: block(p.body) for n, p in rs.procedures.items()}, dict(mode.score), measure_exprs(mode),
                   dict(mode.heuristics), tuple(map_children(w, attach) for w in mode.watches), None,
                   tuple((k.lowest, dict(k.values)) for k in mode.ranking), turns=mode.turns)


def optimized_program(rs: ir.Ruleset, mode: ir.Mode, evaluate) -> Program:
    """`evaluate(expr) -> (ok, value)` computes an expression of constants (the code generator's job)."""
    folder = Folder(rs, evaluate)
    rs, mode = with_abilities(rs, mode, folder.fresh)
    folder.rs = rs  # procedures are inlined from it, their triggers written out
    # role -> expression tables (scores, heuristics) and the measures, all folded alike
    tables = {"score": dict(mode.score), "heuristics": dict(mode.heuristics), "measures": measure_exprs(mode),
              **{f"rank {i}": dict(k.values) for i, k in enumerate(mode.ranking)}}
    parts = (rs.setup + mode.setup, mode.round, {}, tables, mode.watches)
    # the zone analysis follows cards through every call: it sees the rules with every procedure inlined
    inlined = folder.fold_all(*parts)
    setup, steps, _, _, watches = inlined
    folder.possible = ZoneAnalysis(rs, {}).run(setup, steps + tuple(w.body for w in watches))
    # the code inlines all but the procedures whose copies would make it too big (fold.py): those
    # are folded from the rules as written; with none, folding the inlined rules again is cheaper
    folder.calls = called_procedures(rs, (parts[0], parts[1], parts[4]))
    again = (parts[0], parts[1], {name: rs.procedures[name].body for name in folder.calls}, parts[3], parts[4]) \
        if folder.calls else inlined
    setup, steps, procs, tables, watches = folder.fold_all(*again)
    reuse = Reuse(folder.fresh).program_block
    setup, steps = reuse(setup), tuple(dataclasses.replace(s, body=reuse(s.body)) for s in steps)
    procs = {n: reuse(b) for n, b in procs.items()}
    watches = tuple(dataclasses.replace(w, body=reuse(w.body)) for w in watches)
    setup, fixed = shared_setup(rs, setup, folder.possible, bool(watches))
    hoist = Hoister(folder.fresh)
    return Program(hoist.block(setup), tuple(dataclasses.replace(s, body=hoist.block(s.body)) for s in steps),
                   {n: hoist.block(b) for n, b in procs.items()},
                   {r: hoist.expr(e) for r, e in tables["score"].items()},
                   {n: hoist.expr(e) for n, e in tables["measures"].items()},
                   {r: hoist.expr(e) for r, e in tables["heuristics"].items()},
                   tuple(dataclasses.replace(w, when=hoist.expr(w.when), body=hoist.block(w.body)) for w in watches),
                   folder.possible,
                   tuple((k.lowest, {r: hoist.expr(e) for r, e in tables[f"rank {i}"].items()})
                         for i, k in enumerate(mode.ranking)), fixed, mode.turns)
