"""A loop's place carried in Python locals while its function goes round it.

A loop of the rules that holds a decision keeps its rows and its index in the
frame (`env[k31]`, flow.LoopStart), since play may stop inside it and resume
there. A function that goes round such a loop itself (merge.Merge, `while
True:`) read both from `env` and wrote the index back at every pass. Here it
reads them once, before its loop, keeps them in Python locals, and puts the
index back in `env` only where it leaves the function (a `return` of any kind:
the next block, a decision that stops play, a procedure's call), where the
frame may next be read:

    c1 = env[k31]                  # before: i43 = env[k31] at every pass,
    while True:                    #         env[k31] = i43 + 1 at every pass
        i43 = c1
        if i43 >= len(r44):
            env[k31] = c1
            return 13
        c1 = i43 + 1
        ...

Only the loop's own locals (its rows and index, flow.LoopNext) are carried:
nothing but the blocks' code reads them (no rule's words, no query given
`env`), so every read of them is in sight, and a function's run ends at one
of its returns or with an error that ends the game.
"""
from __future__ import annotations

import ast

from . import pycode as code
from .pycode import STORE, Branch, EnvRef, Goto, Nested

_EXITS = (ast.Return, Goto, Branch)


def carried(body: list, internal: set[str], fresh) -> list:
    """The body of a function (`[while True: ...]`, merge.Merge) with the loop's locals read at
    the top of each pass carried in Python locals. `internal`: the keys (constants' names) of
    the loops' own locals; `fresh`: a new Python name."""
    lead = 0  # (after `st.at = K`, where a function that runs another step's code says which step it starts in)
    while lead < len(body) and _saying_step(body[lead]):
        lead += 1
    if len(body) != lead + 1 or type(body[lead]) is not ast.While:
        return body
    loop = body[lead]
    reads: list[tuple[ast.Assign, str]] = []  # the reads the pass starts with (flow.LoopNext's), their keys
    for s in loop.body:
        if type(s) is not ast.Assign or type(s.value) is not EnvRef or len(s.targets) != 1 \
                or type(s.targets[0]) is not ast.Name or s.value.key not in internal or s.value.key in dict(reads):
            break
        reads.append((s, s.value.key))
    stores = _stores(loop.body, {key for _, key in reads})
    if not reads or stores is None:  # (None: a local of the loop written some other way: left as it is)
        return body
    first, names = [], {}
    for s, key in reads:
        target = s.targets[0].id  # type: ignore[attr-defined]
        if key not in stores and _assigned_once(loop.body, target):  # (its rows) read once, into the same name
            first.append(code.assign(target, s.value))
        else:  # (its index) read into a local of its own, which the pass reads and sets
            names[key] = fresh("c")
            first.append(code.assign(names[key], s.value))
    rest = [s for s, key in reads if key in names] + loop.body[len(reads):]
    back = [(key, local) for key, local in names.items() if key in stores]
    made = ast.While(loop.test, _rewritten(rest, names, back), loop.orelse)
    return body[:lead] + first + [code.note(made, code.note_of(loop))]


def _saying_step(s) -> bool:
    """`st.at = K` (merge.py's): it reads nothing of the frame."""
    return type(s) is ast.Assign and len(s.targets) == 1 and type(t := s.targets[0]) is ast.Attribute \
        and t.attr == "at" and type(t.value) is ast.Name and t.value.id == "st" and type(s.value) is ast.Constant


def _assigned_once(stmts, name: str) -> bool:
    return sum(type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Store for n in code.walk_own(stmts)) == 1


def _stores(stmts, keys: set) -> set | None:
    """The keys stored to by a plain `env[K] = ...` (the first target); None if any is stored to
    or named otherwise than read or so stored (a tuple of targets, an augmented assignment, a deletion)."""
    found = set()
    for node in code.walk_own(stmts):
        if type(node) is ast.Assign and type(node.targets[0]) is EnvRef and node.targets[0].key in keys:
            found.add(node.targets[0].key)
            if any(type(t) is EnvRef for t in node.targets[1:]):
                return None
        elif type(node) in (ast.AugAssign, ast.Delete) and any(
                type(t) is EnvRef and t.key in keys for t in code.walk_own([node])):
            return None
        elif type(node) is ast.Tuple and type(node.ctx) is ast.Store and \
                any(type(t) is EnvRef and t.key in keys for t in node.elts):
            return None
    return found


def _rewritten(stmts: list, names: dict, back: list) -> list:
    """The statements with the carried locals read and written in their Python locals, and
    written back to `env` before each return."""
    out = []
    for s in stmts:
        if isinstance(s, _EXITS):
            out += [code.assign(EnvRef(key, STORE), ast.Name(local, ast.Load())) for key, local in back]
            out.append(_swapped(s, names))
            continue
        if type(s) in (ast.If, ast.For, ast.While):
            made = s.__class__.__new__(type(s))
            made.__dict__.update(s.__dict__)
            for f in ("test", "iter", "target"):
                if hasattr(s, f):
                    setattr(made, f, _swapped(getattr(s, f), names))
            made.body, made.orelse = _rewritten(s.body, names, back), _rewritten(s.orelse, names, back)
            out.append(made)
            continue
        out.append(_swapped(s, names))
    return out


def _swapped(node, names: dict):
    """The node (a statement without inner statement lists, or an expression), copied where it
    reads or writes a carried local, with those made of their Python locals."""
    if type(node) is EnvRef:
        local = names.get(node.key)
        return node if local is None else ast.Name(local, node.ctx)
    if type(node) is list:
        return [_swapped(x, names) for x in node]
    if not isinstance(node, ast.AST) or type(node) is Nested or \
            not any(type(n) is EnvRef and n.key in names for n in code.walk_own([node])):
        return node  # (a nested function reads none of them)
    made = node.__class__.__new__(type(node))
    made.__dict__.update(node.__dict__)
    for f in node._fields:
        setattr(made, f, _swapped(getattr(node, f, None), names))
    return made
