"""What a rule reads and what it may change, named by the kinds of things play changes (the cards'
places, a variable, a card's state, a noted value): a printed rule may say a test once for a loop,
or a value noted once, only where nothing the rules do in between changes what it reads."""
from __future__ import annotations

from collections.abc import Set as AbstractSet

from rulelang import ir
from rulelang.records import record
from rulelang.walk import walk


ANY_ZONE = "zones"  # what moving cards changes, and what reading where cards are reads


def reads_of(rs: ir.Ruleset, e: ir.Expr) -> set[str] | None:
    """What a value depends on that play can change: ANY_ZONE, "var NAME", "state NAME",
    "local NAME"; None if it cannot be told."""
    out, called = _reads(e)
    for name in called:
        out |= _effects(rs).reads[name]
    return out


def writes_of(rs: ir.Ruleset, block) -> set[str]:
    """What statements may change: the same kinds of names as `reads_of`."""
    out, called = _writes(block)
    for name in called:
        out |= _effects(rs).writes[name]
    return out


def _reads(e) -> tuple[set[str], set[str]]:
    """What `e` reads itself, and the defines it calls."""
    out: set[str] = set()
    called: set[str] = set()
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
        elif isinstance(n, ir.DefineCall):
            called.add(n.name)
    return out, called


def _writes(block) -> tuple[set[str], set[str]]:
    """What statements change themselves, and the procedures they carry out."""
    out: set[str] = set()
    called: set[str] = set()
    for n in walk(block):
        if isinstance(n, (ir.Move, ir.Draw, ir.Swap, ir.Shuffle, ir.Flip)):
            out.add(ANY_ZONE)
        elif isinstance(n, (ir.Assign, ir.Roll)):
            t = n.target
            kind = "var" if isinstance(t, ir.Var) else "state" if isinstance(t, ir.Field) else "local"
            out.add(f"{kind} {getattr(t, 'name', '')}")  # a target is a variable, a card's state or a local
        elif isinstance(n, ir.Let):
            out.add("local " + n.name)
        elif isinstance(n, ir.CallProc):
            called.add(n.name)
        elif isinstance(n, (ir.Trigger, ir.EndGame, ir.Eliminate)):  # abilities may do anything
            out |= {ANY_ZONE, "*"}
    return out, called


@record
class _Effects:
    reads: dict[str, frozenset[str]]  # define -> what it reads, through the defines it calls (not its parameters)
    writes: dict[str, frozenset[str]]  # procedure -> what it may change, through the procedures it carries out


_MADE: dict[int, tuple[ir.Ruleset, _Effects]] = {}  # id(ruleset) -> (the ruleset, its effects): the last few


def _effects(rs: ir.Ruleset) -> _Effects:
    """Each define's reads and each procedure's writes, worked out once for a ruleset: following
    every call again where it is made costs twice as much for each level of a chain of rules that
    call the next twice (a ruleset from anyone: exponential), where this is linear in the rules."""
    made = _MADE.get(id(rs))
    if made is not None and made[0] is rs:
        return made[1]
    reads = {n: _reads(d.body) for n, d in rs.defines.items()}
    writes = {n: _writes(p.body) for n, p in rs.procedures.items()}
    found = _Effects({n: frozenset(r for r in x if not r.startswith("local ")) for n, x in _closed(reads).items()},
                     {n: frozenset(x) for n, x in _closed(writes).items()})  # (a define's parameters are its arguments)
    if len(_MADE) >= 8:
        _MADE.pop(next(iter(_MADE)))
    _MADE[id(rs)] = (rs, found)
    return found


def _closed(own: dict[str, tuple[set[str], set[str]]]) -> dict[str, set[str]]:
    """Each name's own set joined with those of every name it reaches by its calls: the calls'
    strongly connected parts (Tarjan's, without recursion), each part's set made once."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    closed: dict[str, set[str]] = {}
    for root in own:
        if root in index:
            continue
        work = [(root, iter(sorted(c for c in own[root][1] if c in own)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            name, calls = work[-1]
            callee = next(calls, None)
            if callee is not None:
                if callee not in index:
                    index[callee] = low[callee] = len(index)
                    stack.append(callee)
                    on_stack.add(callee)
                    work.append((callee, iter(sorted(c for c in own[callee][1] if c in own))))
                elif callee in on_stack:
                    low[name] = min(low[name], index[callee])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[name])
            if low[name] == index[name]:  # a part: its members, then everything they reach outside it
                part = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.append(member)
                    if member == name:
                        break
                together: set[str] = set()
                for member in part:
                    together |= own[member][0]
                    together |= {x for c in own[member][1] if c in closed for x in closed[c]}
                for member in part:
                    closed[member] = together
    return closed


def clash(reads: AbstractSet[str], writes: AbstractSet[str]) -> bool:
    return bool(reads & writes) or "*" in writes and bool(reads)
