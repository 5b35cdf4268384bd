"""A local that only copies another (`c64 = v121`) read as the other where it is read.

The code generator names what a statement works on (the card a move moves,
`c64 = ...`) before the passes that follow know what that is: after them it is
often a local already (the decision's answer, `v121`), and the copy costs a
load and a store at every pass of the loop it is in. Here `x = y` is dropped,
and x read as y, when x is set nowhere else in its function and y is set
nowhere after the copy in the statements that read x:

    c64 = v121                          # was: Oh Hell's trick, a card played
    zones[where[c64]].remove(c64)       #   zones[where[v121]].remove(v121)

Done on the code as written (unit.py), a function at a time; nested functions
are left out of it (a name one of them reads or sets is never one of these).
"""
from __future__ import annotations

import ast

from .pycode import BLOCKS, LOAD, Lazy, Nested, Reset, note, note_of, own_of, own_statements, rebuilt

_SCOPES = (Nested, ast.FunctionDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_NAMED = (ast.Name, Lazy, Reset) + _SCOPES  # what _names looks at (the scopes, not inside them)


def _names(nodes, inside: bool = True) -> tuple[dict[str, int], set[str], dict[str, int]]:
    """The names the code stores to (how many times), those a scope inside it reads or sets (only
    if `inside`: their code is walked for them), and the names it reads (how many times)."""
    stores: dict[str, int] = {}
    inner: set[str] = set()
    loads: dict[str, int] = {}
    for n in own_of(nodes, _NAMED, _SCOPES):
        kind = type(n)
        if kind is ast.Name and type(n.ctx) is ast.Load:
            loads[n.id] = loads.get(n.id, 0) + 1
        elif kind is ast.Name or kind in (Lazy, Reset):
            name = n.id if kind is ast.Name else n.var
            stores[name] = stores.get(name, 0) + 1
        elif inside and kind in _SCOPES:
            inner.update(x.id for x in own_of([n], ast.Name, scopes=()))
            inner.update(getattr(n, "nonlocals", ()))
    return stores, inner, loads


def without_copies(body: list[ast.stmt], shared: tuple[str, ...] = (), of: frozenset[str] | None = None) -> list[ast.stmt]:
    """A function's statements with its copies of one local into another read as the other, and
    without the constant a binder binds a name to alone (binders.py) where nothing reads it (a name
    left out of a decision's options: quantifiers.fixed_names). `shared`: the names it declares
    nonlocal (another function may set them: never these); `of`: only copies of these are looked for."""
    if not _has_copy(body, of):
        return body  # no copy (most functions): not worth the names of the scopes inside it
    each = [_names([s]) for s in body]  # the function's names, statement by statement (_block's first list)
    stores: dict[str, int] = {}
    inner: set[str] = set(shared)
    loads: dict[str, int] = {}
    for own_stores, own_inner, own_loads in each:
        for name, n in own_stores.items():
            stores[name] = stores.get(name, 0) + n
        for name, n in own_loads.items():
            loads[name] = loads.get(name, 0) + n
        inner |= own_inner
    if not any(n == 1 for n in stores.values()):
        return body
    return _block(body, (stores, inner, loads), each)


def _has_copy(body: list, of: frozenset[str] | None) -> bool:
    """Whether the statements hold a copy (of one of `of`) or a binder's constant, outside nested
    scopes: only their blocks are looked in (an assignment is a statement: it stands in a block)."""
    return any(type(s) is ast.Assign and (type(s.value) is ast.Name and (of is None or s.value.id in of)
                                          or getattr(s, "constant", False)) for s in own_statements(body, _SCOPES))


def _block(stmts: list, whole: tuple, each: list | None = None) -> list:
    """The statements without their copies; `whole`: the function's _names; `each`: each statement's
    (else worked out once the list has a copy, not once a copy: a long list of copies would walk what
    follows each of them again; without the scopes inside: _copy asks the whole function's)."""
    out: list = []
    swaps: dict[str, str] = {}
    rule = None  # the rule a dropped copy came from, given to the next statement (its note)
    for i, s in enumerate(stmts):
        if swaps:
            s = _swapped(s, swaps)
        if type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name \
                and type(s.value) is ast.Name and _copyable(s.targets[0].id, s.value.id, whole) and \
                _copy(s.targets[0].id, s.value.id, (each := each or [_names([t], False) for t in stmts])[i + 1:], whole):
            swaps[s.targets[0].id] = swaps.get(s.value.id, s.value.id)
            rule = note_of(s) or rule
            continue
        if getattr(s, "constant", False) and _unread(s.targets[0].id, whole):
            rule = note_of(s) or rule
            continue
        if rule is not None and note_of(s) is None:
            s = _noted(s, rule)
        rule = None
        if any(getattr(s, f, None) for f in BLOCKS) and type(s) not in _SCOPES:
            made = s.__class__.__new__(s.__class__)
            made.__dict__.update(s.__dict__)
            for f in BLOCKS:
                value = getattr(s, f, None)
                if value and type(value[0]) is not ast.ExceptHandler:
                    setattr(made, f, _block(value, whole))
            s = made
        out.append(s)
    return out


def _noted(s: ast.stmt, rule: str) -> ast.stmt:
    made = s.__class__.__new__(s.__class__)
    made.__dict__.update(s.__dict__)
    return note(made, rule)


def _copyable(x: str, y: str, whole: tuple) -> bool:
    """Whether the function as a whole lets `x = y` go (`whole`: its _names): x is set there alone,
    and no nested scope sees x or y (the statements after it are _copy's to look at)."""
    stores, inner, _ = whole
    return stores.get(x) == 1 and x not in inner and y not in inner and x != y


def _copy(x: str, y: str, after: list, whole: tuple) -> bool:
    """Whether `x = y`, which the function lets go (_copyable), can go, x read as y in the statements
    after it in its list (`after`: their _names): x is read after it only (not before it, at a loop's
    next pass) and y is not set after it. `whole`: _names of the function."""
    loads = whole[2]
    return all(y not in later[0] for later in after) and sum(later[2].get(x, 0) for later in after) == loads.get(x, 0)


def _unread(x: str, whole: tuple) -> bool:
    """Whether x is set once in its function, read nowhere in it and seen by no nested scope."""
    stores, inner, loads = whole
    return stores.get(x) == 1 and x not in inner and not loads.get(x)


def _swapped(node, swaps: dict[str, str]):
    """The node with each read of a name in `swaps` a read of its replacement."""
    def change(n):
        if type(n) is ast.Name and type(n.ctx) is ast.Load and n.id in swaps:
            return ast.Name(swaps[n.id], LOAD)
        return n if type(n) in _SCOPES else None
    return rebuilt(node, change)
