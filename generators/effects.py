"""What a rule reads and what it may change, named by the kinds of things play changes (the cards'
places, a variable, a card's state, a noted value): a printed rule may say a test once for a loop,
or a value noted once, only where nothing the rules do in between changes what it reads."""
from __future__ import annotations

from collections.abc import Set as AbstractSet

from rulelang import ir
from rulelang.walk import walk


ANY_ZONE = "zones"  # what moving cards changes, and what reading where cards are reads


def reads_of(rs: ir.Ruleset, e: ir.Expr, seen: frozenset = frozenset()) -> set[str] | None:
    """What a value depends on that play can change: ANY_ZONE, "var NAME", "state NAME",
    "local NAME"; None if it cannot be told."""
    out: set[str] = set()
    for n in walk(e):
        if isinstance(n, (ir.ZoneRef, ir.Quantified)) or isinstance(n, ir.BuiltinCall) and n.name not in (
                "players", "seat", "abs", "min", "max", "sum") or isinstance(n, ir.IsType):
            out.add(ANY_ZONE)
        elif isinstance(n, ir.Var):
            out.add("var " + n.name)
        elif isinstance(n, ir.Field):
            out.add("state " + n.name)
        elif isinstance(n, ir.Local):
            out.add("local " + n.name)
        elif isinstance(n, ir.DefineCall) and n.name not in seen:
            inner = reads_of(rs, rs.defines[n.name].body, seen | {n.name})
            if inner is None:
                return None
            out |= {r for r in inner if not r.startswith("local ")}  # its parameters are the arguments
    return out


def writes_of(rs: ir.Ruleset, block, seen: frozenset = frozenset()) -> set[str]:
    """What statements may change: the same kinds of names as `reads_of`."""
    out: set[str] = set()
    for n in walk(block):
        if isinstance(n, (ir.Move, ir.Draw, ir.Swap, ir.Shuffle, ir.Flip)):
            out.add(ANY_ZONE)
        elif isinstance(n, (ir.Assign, ir.Roll)):
            t = n.target
            kind = "var" if isinstance(t, ir.Var) else "state" if isinstance(t, ir.Field) else "local"
            out.add(f"{kind} {getattr(t, 'name', '')}")  # a target is a variable, a card's state or a local
        elif isinstance(n, ir.Let):
            out.add("local " + n.name)
        elif isinstance(n, ir.CallProc) and n.name not in seen:
            out |= writes_of(rs, rs.procedures[n.name].body, seen | {n.name})
        elif isinstance(n, (ir.Trigger, ir.EndGame, ir.Eliminate)):  # abilities may do anything
            out |= {ANY_ZONE, "*"}
    return out


def clash(reads: AbstractSet[str], writes: AbstractSet[str]) -> bool:
    return bool(reads & writes) or "*" in writes and bool(reads)
