"""The compiler's own IR nodes, and the program it compiles.

The optimiser rewrites the checked IR into these besides the front end's
nodes: local bindings from inlined defines, values hoisted out of binders,
and decisions carrying their options as one expression (hoisted once).
They are records (`rulelang/records.py`) like the rest of the IR, so the walkers in
`rulelang.walk` see through them.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulelang import ir
from rulelang.records import record


@record
class LetIn(ir.Expr):
    """`body` with `name` bound to `value` (from inlining a define)."""
    name: str
    value: ir.Expr
    body: ir.Expr


@record
class Hoisted(ir.Expr):
    """A value computed at most once per evaluation of the enclosing HoistLet."""
    name: str


@record
class HoistLet(ir.Expr):
    bindings: tuple[tuple[str, ir.Expr], ...]
    body: ir.Expr


class Table(dict):
    """A table computed before play (tables.py): value -> entry (a plain value, another Table or a
    tuple), hashable like the other constants of the IR."""
    __slots__ = ()

    def __hash__(self):
        return hash(tuple(self.items()))


@record
class Lookup(ir.Expr):
    """`table[key]`: `table` is a Const holding a Table, or a Lookup whose entries are Tables."""
    table: ir.Expr
    key: ir.Expr


@record
class Options(ir.Expr):
    """Every binding of a binder, as a list of tuples (a decision's options)."""
    binder: ir.Binder


@record
class Decide(ir.Choose):
    """A decision whose options are one expression (`Options`, hoisted)."""
    options: ir.Expr = None


@record
class TakeFrom(ir.Take):
    """An automatic choice whose bindings are one expression (`Options`, hoisted)."""
    options: ir.Expr = None


@dataclass(frozen=True)
class Program:
    """What the code generator compiles: the (optimised or plain) rules of one mode."""
    setup: ir.Block
    steps: tuple[ir.Step, ...]
    procedures: dict[str, ir.Block]
    score: dict[str, ir.Expr]
    measures: dict[str, ir.Expr]  # a measure that does not apply to a game is none
    heuristics: dict[str, ir.Expr]
    watches: tuple[ir.Watch, ...]
    possible: dict[str, frozenset] | None  # card types that can reach each zone (None: not analysed)
    ranking: tuple[tuple[bool, dict[str, ir.Expr]], ...] = ()  # (lowest first?, role -> value) per key
    fixed: int = 0  # the first statements of setup, which every game runs alike (shared_setup.py)
    turns: ir.Turns | None = None  # the steps each player takes in turn (`turns:`)
    defines: dict[str, ir.Expr] = dataclasses.field(default_factory=dict)  # the defines called, not inlined


def with_options(s: ir.Choose | ir.Take, options: ir.Expr | None = None):
    """A decision or take as the compiler runs it: carrying its options expression."""
    fields = {f.name: getattr(s, f.name) for f in dataclasses.fields(s) if f.name != "options"}
    cls = Decide if isinstance(s, ir.Choose) else TakeFrom
    return cls(**fields, options=options if options is not None else Options(s.binder, span=s.span))


def measure_exprs(mode: ir.Mode) -> dict[str, ir.Expr]:
    """Each measure as one expression: `value if when else none`."""
    return {n: m.value if m.when is None else
            ir.IfExpr(m.when, m.value, ir.Const(None), span=m.span, ty=m.value.ty)
            for n, m in mode.measures.items()}


# expressions cheap enough to repeat: substituted for a name rather than bound to it
TRIVIAL = (ir.Const, ir.Local, ir.Var, ir.Param, ir.EnumValue, ir.ZoneRef, ir.RoleRef, Hoisted)
