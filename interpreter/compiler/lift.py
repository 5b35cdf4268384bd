"""Nested functions made once: which can be lifted out of the functions that hold them.

A quantifier that is not built in place is a nested function (`q12`, `hl3` for
a lazy value), and a nested function is an object made each time the lines
that hold it run: in a merged block's loop, at every turn. One that sets
nothing from around it (no `nonlocal`) and reads no lazy value another function
may set is made once, beside the unit's constants, and called with what it
reads (`q12(st, env_k4)`): nothing it reads changes while it runs, so reading
it at the call is reading it as it runs. What a function reads from around it
is found on its code as data: the names it loads and does not bind itself.
"""
from __future__ import annotations

import ast

from .prelude import GLOBALS
from .pycode import CallNested, EnvRef, Lazy, Nested, Reset, walk_own


def liftable(stmts, localized: frozenset, constants: frozenset, shared: set, made: dict) -> dict[str, tuple]:
    """The nested functions of these statements that can be lifted -> the names each is called with.
    `shared`: the names some nested function sets (`nonlocal`); `made` gets each one lifted as it
    stands in the statements (the passes may have rewritten it since it was made: pycode.aliased)."""
    outside = GLOBALS.keys() | constants | {"UNSET"}
    found: dict[str, tuple[str, ...]] = {}
    scopes: dict[int, tuple] = {}  # id of a nested function -> what _scope found

    def visit(nodes):
        for node in _own(nodes):
            if type(node) is ast.FunctionDef:  # a block's function: the nested functions in it
                visit(node.body)
            if type(node) is not Nested:
                continue
            free, escapes = _scope(node, localized, scopes)
            if escapes or free & shared:
                visit(node.body)  # not lifted: perhaps those inside it can be
                continue
            found[node.name] = tuple(sorted(free - outside))
            made.setdefault(node.name, node)
    visit(stmts)
    return found


def _scope(fn: Nested, localized: frozenset, scopes: dict) -> tuple[set[str], set[str]]:
    """(the names fn reads from around it, the names it or a function inside it sets around it).
    A name fn declares `nonlocal` is around it; a name it stores to otherwise is its own."""
    known = scopes.get(id(fn))
    if known is not None:
        return known
    stores: set[str] = set()
    reads: set[str] = set()
    inner_escapes: set[str] = set()
    for node in _own(fn.body):
        kind = type(node)
        if kind is ast.Name:
            (reads if type(node.ctx) is ast.Load else stores).add(node.id)
        elif kind is EnvRef:
            if node.key in localized:
                (reads if type(node.ctx) is ast.Load else stores).add("env_" + node.key)
            else:
                reads.add("env")
        elif kind is Lazy:  # (var if var is not UNSET else (var := value))
            reads.add(node.var)
            stores.add(node.var)
        elif kind is Reset:  # var = UNSET
            stores.add(node.var)
        elif kind is CallNested:
            reads.add(node.name)
        elif kind is Nested:
            stores.add(node.name)
            free, escapes = _scope(node, localized, scopes)
            reads |= free
            inner_escapes |= escapes
        elif kind in _COMPREHENSIONS:
            found_reads, found_stores = _comprehension(node, localized)
            reads |= found_reads
            stores |= found_stores
    own = stores - set(fn.nonlocals)
    found = scopes[id(fn)] = (reads | set(fn.nonlocals)) - own, set(fn.nonlocals) | (inner_escapes - own)
    return found


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _comprehension(node, localized: frozenset) -> tuple[set[str], set[str]]:
    """What a comprehension reads from around it (its loops' names are its own), and what it
    sets there (a lazy value computed in it: `:=` binds in the function around)."""
    bound = {n.id for g in node.generators for n in ast.walk(g.target) if type(n) is ast.Name}
    reads: set[str] = set()
    stores: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            reads.add(n.id)
        elif isinstance(n, EnvRef):
            reads.add("env_" + n.key if n.key in localized else "env")
        elif isinstance(n, Lazy):
            reads.add(n.var)
            stores.add(n.var)
        elif isinstance(n, CallNested):
            reads.add(n.name)
    return reads - bound, stores


_SCOPES = (Nested, ast.FunctionDef, *_COMPREHENSIONS)


def _own(nodes):
    """The nodes of these statements, not looking inside nested functions or comprehensions
    (they are scopes of their own), but yielding them."""
    return walk_own(nodes, _SCOPES)
