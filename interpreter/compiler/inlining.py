"""Which defines and procedures are written in place, and which are called.

Inlining lets folding and hoisting see through a call and spares the call,
but every copy costs: a procedure called from many places makes the code big,
and rules where each define calls the one before twice double at every level
(20 levels of a 1 KB file once took a minute to check). So one is called rather than written in place when

- it alone, written out (a call of one that is called counting as one
  node), would be more than `tuning.INLINE_MOST` IR nodes; or
- its copies beyond the first would add too much: for a define, more than
  `tuning.INLINE_MOST` nodes written out; for a procedure, more than
  `tuning.INLINE_BUDGET` nodes counted with every procedure it calls
  written out and a define call as one node (the measure that budget was
  set with: Hand of Fate calls two of its procedures).

The code inlining can add is then bounded by the size of the rules times
these budgets, whatever the rules: never exponential in their depth.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang import ir
from rulelang.walk import walk

from . import tuning


@dataclass(frozen=True)
class Called:
    """The procedures and defines to call rather than write in place."""
    procedures: frozenset[str] = frozenset()
    defines: frozenset[str] = frozenset()


def _callee(n) -> tuple[str, str] | None:
    if isinstance(n, ir.CallProc):
        return "procedure", n.name
    if isinstance(n, ir.DefineCall):
        return "define", n.name
    return None


def written_out(rs: ir.Ruleset, roots) -> tuple[Called, int]:
    """What to call rather than inline in the rules `roots` (blocks and expressions), and the
    size in IR nodes of the roots with every call written in place (a number that may be huge:
    the zone analysis sees the rules so written out only while it is small)."""
    bodies = {**{("procedure", n): p.body for n, p in rs.procedures.items()},
              **{("define", n): d.body for n, d in rs.defines.items()}}
    sites: dict[tuple[str, str], int] = {}
    for n in walk((roots, tuple(bodies.values()))):
        key = _callee(n)
        if key is not None:
            sites[key] = sites.get(key, 0) + 1
    sizes: dict[tuple[str, str], int] = {}  # written out, a call of what is called as one node
    whole: dict[tuple[str, str], int] = {}  # written out, every call too
    copied: dict[str, int] = {}  # a procedure with every procedure it calls written out, a define call one node
    called: set[tuple[str, str]] = set()

    def cost(nodes) -> int:
        total = 0
        for n in walk(nodes):
            key = _callee(n)
            total += 1 if key is None else size(key)
        return total

    def everything(key) -> int:
        if key not in whole:
            whole[key] = sum(1 if (k := _callee(n)) is None else everything(k) for n in walk(bodies[key]))
        return whole[key]

    def procedure_copy(name: str) -> int:
        if name not in copied:
            copied[name] = sum(procedure_copy(n.name) if isinstance(n, ir.CallProc) else 1
                               for n in walk(rs.procedures[name].body))
        return copied[name]

    def size(key) -> int:  # the nodes a call adds where it is: its body's written out, or one if it is called
        if key not in sizes:
            kind, name = key
            sizes[key] = total = cost(bodies[key])  # (never recursive: the checker says so)
            copies = (sites.get(key, 0) - 1) * (procedure_copy(name) if kind == "procedure" else total)
            budget = tuning.INLINE_BUDGET if kind == "procedure" else tuning.INLINE_MOST
            if total > tuning.INLINE_MOST or copies > budget:
                called.add(key)
        return 1 if key in called else sizes[key]

    cost(roots)  # (decides what the rules reach)
    return Called(frozenset(n for kind, n in called if kind == "procedure"),
                  frozenset(n for kind, n in called if kind == "define")), \
        sum(1 if (k := _callee(n)) is None else everything(k) for n in walk(roots))
