"""What a generated function reads of the state again and again, held in its locals.

The parts of a game's state are the same objects for the game's whole life:
moves change what `st.zones`, `st.where`, `st.face_up`, `st.vars` and
`st.props` hold, never which lists they are (a zone is cleared and extended,
a variable's slot set, never a new list put in their place). So a function
reads one once, before a loop that would read it again at every pass:

    zones = st.zones                 # the code is written with these names
    ...
    zone7 = zones[7]                 # one zone, read in a loop (Oh Hell's trick)
    props0 = st.props[0]             # one state of the cards, set in a loop
    vars = st.vars                   # the variables
    while True:
        ...

A read in a for loop is held just before the outermost one (the loop runs it
once per pass, and goes round again and again); one in a while loop (a
function looping back to its start, merge.py, often goes round once) only
if it is read three times a pass (the trick's zone). Reads outside loops are not held: holding costs a
read and a store, even on a path that never reads it (a read in each of
three branches is one read). Nested functions hold their own. This is
done last, on the code as written (unit.py), so that what the passes measured
of it (merge.lines) is what they measured.
"""
from __future__ import annotations

import ast

from .copies import without_copies
from .peeks import taken_off
from .pycode import BLOCKS, LOAD, STORE, Lazy, Nested, own_of, parts, rebuilt

_SHORTCUTS = (("zones", "zones"), ("where", "where"), ("face", "face_up"))  # name = st.attribute, as written
_ATTRIBUTES = ("vars", "props")  # st.attribute, held when it pays
_INDEXED = {"zones": "zone", "props": "props"}  # zones[N], st.props[N]: held as zoneN, propsN
_LOOPS = (ast.For, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension)
_SCOPES = (Nested, ast.FunctionDef, ast.Lambda)
# reads a pass of a while loop that pay for holding one before it, should it go round only once
# (holding zones[7] costs 4 bytecodes and spares 2 a read; st.vars 3 and 1)
_OFTEN = 3


def _read(n) -> str | None:
    """The local that would hold what node n reads, if it is a read of the state to hold."""
    kind = type(n)
    if kind is ast.Attribute and n.attr in _ATTRIBUTES and type(n.ctx) is ast.Load \
            and type(n.value) is ast.Name and n.value.id == "st":
        return n.attr
    if kind is ast.Subscript and type(n.ctx) is ast.Load and type(n.slice) is ast.Constant \
            and type(n.slice.value) is int and n.slice.value >= 0:
        held = _read(n.value) if type(n.value) is ast.Attribute else \
            n.value.id if type(n.value) is ast.Name and n.value.id == "zones" else None
        if held in _INDEXED:
            return f"{_INDEXED[held]}{n.slice.value}"
    return None


def _count(nodes, looped: int, found: dict[str, list]) -> None:
    """Each read to hold -> [its reads a pass of a while loop, whether one is in a for loop, an
    example node]. `looped`: 0 outside loops, 1 in a while loop (a function's own loop back to its
    start, merge.py, often goes round once), 2 in a for loop (over cards, players: it goes round
    again and again)."""
    for n in nodes:
        kind = type(n)
        if kind in _SCOPES:
            continue
        name = _read(n)
        if name is not None:
            seen = found.setdefault(name, [0, False, n])
            seen[0] += looped == 1
            seen[1] = seen[1] or looped == 2
            if kind is ast.Subscript:
                continue  # (st.props[0]: its st.props is not read by itself)
        for f in parts(n):
            value = getattr(n, f, None)
            # (a for's list is read once, a lazy value the first time it is asked)
            inner = 0 if kind is Lazy else looped if f == "iter" else \
                max(looped, 1) if kind is ast.While else max(looped, 2) if kind in _LOOPS else looped
            if type(value) is list:
                _count([v for v in value if isinstance(v, ast.AST)], inner, found)
            elif isinstance(value, ast.AST):
                _count([value], inner, found)


def _swapped(node, names: frozenset[str], st_zones: bool = False):
    """The node with each read to hold among `names` made a read of its local (and with
    `st_zones`, each read of `zones` one of `st.zones`)."""
    def change(n):
        if (name := _read(n)) in names:
            return ast.Name(name, LOAD)
        if st_zones and type(n) is ast.Name and n.id == "zones":
            return ast.Attribute(ast.Name("st", LOAD), "zones", LOAD)
        return n if type(n) in _SCOPES else None
    return rebuilt(node, change)


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([ast.Name(name, STORE)], value)


def _shortcut(s) -> bool:
    return type(s) is ast.Assign and type(s.value) is ast.Attribute and type(s.value.value) is ast.Name \
        and s.value.value.id == "st" and (s.targets[0].id, s.value.attr) in _SHORTCUTS \
        if type(s) is ast.Assign and type(s.targets[0]) is ast.Name else False


def _holding(names: frozenset[str], found: dict, before: frozenset[str] = frozenset()) -> list[ast.Assign]:
    """The statements that hold these reads, each read from what is held already (`before`, or
    among them: props before props0)."""
    sets = []
    for name in sorted(names, key=lambda n: (n[-1].isdigit(), n)):
        node = found[name][2]
        if type(node) is ast.Subscript:
            base = _swapped(node.value, names | before)
            if type(base) is ast.Name:
                base = ast.Name(base.id, LOAD)
                base.holds = True  # type: ignore[attr-defined]  # (see held: zones read for this alone)
            node = ast.Subscript(base, node.slice, LOAD)
        sets.append(_assign(name, node))
    return sets


def _loops_held(stmts: list, held_before: frozenset, holders: list[str]) -> list:
    """The statements with the reads worth holding in a loop held just before it: those in a
    for loop before the outermost one, those read twice a pass in a while loop before it. So
    they are paid for only where the loop is reached, once however often it goes round."""
    out = []
    for s in stmts:
        kind = type(s)
        if kind in (ast.For, ast.While):
            found: dict[str, list] = {}
            _count([s], 0, found)
            names = frozenset(n for n, (often, many, _) in found.items()
                              if (many if kind is ast.For else often >= _OFTEN)) - held_before
            if names:
                out += _holding(names, found, held_before)
                holders += names
                s = _swapped(s, names)
            if kind is ast.For:
                out.append(s)
                continue
            held_before = held_before | names
        if kind in (ast.If, ast.While, ast.Try, ast.With):
            made = s.__class__.__new__(kind)
            made.__dict__.update(s.__dict__)
            for f in ("body", "orelse", "finalbody"):
                if getattr(s, f, None):
                    setattr(made, f, _loops_held(getattr(s, f), held_before, holders))
            s = made
        out.append(s)
    return out


def held(body: list[ast.stmt], holders: list[str] | None = None) -> list[ast.stmt]:
    """A function's statements (its shortcuts first, as unit.Function writes them) with the reads
    of the state worth holding held in locals; the shortcuts it no longer needs gone. `holders`
    gets the locals that hold them."""
    own: list[ast.stmt] = _loops_held([s for s in body if not _shortcut(s)], frozenset(),
                                      holders if holders is not None else [])
    names = [n for n in own_of(own, ast.Name) if n.id in ("zones", "where", "face")]
    own_names = {n.id for n in names}
    zones = [n for n in names if n.id == "zones"]
    if len(zones) == 1 and getattr(zones[0], "holds", False):  # zones read only to hold one: zone7 = st.zones[7]
        own = [_swapped(s, frozenset(), st_zones=True) for s in own]
        own_names.discard("zones")
    return [_assign(short, ast.Attribute(ast.Name("st", LOAD), attr, LOAD))
            for short, attr in _SHORTCUTS if short in own_names] + own


def held_everywhere(node, elsewhere: frozenset[str] = frozenset(), peeks: bool = True):
    """The node with every function in it (itself too: a FunctionDef or a Nested) without its
    copies of one local into another (copies.py) and holding what it reads of the state
    (`held`); done last, on the code as it is written, so that what the passes measured of it
    (merge.lines) is as they measured it. The nested functions named in `elsewhere` are left as
    they are: they are written elsewhere (lifted: unit.py does them on their own). `peeks`: a card
    looked at on top of a zone and moved at once taken off it (peeks.py; the `idioms` pass)."""
    if type(node) is list:
        new = [held_everywhere(n, elsewhere, peeks) if isinstance(n, ast.AST) else n for n in node]
        return new if any(a is not b for a, b in zip(new, node)) else node
    if type(node) is Nested and node.name in elsewhere:
        return node
    changed = {}
    for f in BLOCKS:  # a function is a statement: only blocks of statements can hold one
        value = getattr(node, f, None)
        if type(value) is list:
            new = held_everywhere(value, elsewhere, peeks)
            if new is not value:
                changed[f] = new
    if type(node) in (ast.FunctionDef, Nested):
        shared = getattr(node, "nonlocals", ())
        holders: list[str] = []
        body = changed.get("body", node.body)
        body = held(without_copies(taken_off(body) if peeks else body, shared), holders)
        if holders:  # a read it holds may leave a copy of the holder (`src11 = zone1` in a deal)
            body = without_copies(body, shared, frozenset(holders))
        if body is not node.body:
            changed["body"] = body
    if not changed:
        return node
    made = node.__class__.__new__(node.__class__)
    made.__dict__.update(node.__dict__)
    made.__dict__.update(changed)
    return made
