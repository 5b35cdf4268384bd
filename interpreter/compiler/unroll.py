"""Unrolling: `exists`, `all` and `any` over a short list known before play, written out.

`exists line in lines(board, 3) where all(not empty(s) and mine(p, top(s)) for s in line)`
asks the same question of every line after every move. Its lines are constants (folded),
so the question can be written out as the tests themselves, one per line and space:

    (not empty(1) and mine(p, top(1)) and not empty(2) and ...) or (... line 2 ...) or ...

as a programmer writes `board[a] == board[b] == board[c]`: no loop, no nested function, no
list of a line's spaces read again, each space a constant the code generator indexes by.
`and` and `or` stop where the loop would have stopped, in the same order, so a game computes
the same values and stops with the same error at the same place. Binders this small never
count as work (tuning.FREE_BINDINGS), written out or not.

Only while the whole written out stays small (tuning.UNROLLED_NODES IR nodes, every quantifier
inside it written out too: past that, the loop is shorter code and as quick), and only where
what is written out for each item is cheap to compute again: no quantifier left in it, no define
called (a binder computes its parts that do not depend on its names once: hoist.py).
"""
from __future__ import annotations

from rulelang import ir
from rulelang.types import BOOL, ListT
from rulelang.walk import children, map_children, walk

from . import tuning
from .fold import substitute
from .nodes import Hoisted, HoistLet, Options

_JOIN = {"exists": "or", "any": "or", "all": "and"}


def unrolled(e: ir.Expr, most: int = tuning.UNROLLED_NODES) -> ir.Expr | None:
    """e written out item by item, if it is a quantifier of that shape and at most `most` IR nodes
    written out (and tuning.UNROLLED_NODES); else None."""
    item = _shape(e) if isinstance(e, ir.Quantified) else None
    if item is None or not isinstance(e, ir.Quantified):
        return None
    items, name, ty = item
    if not items or len(items) * written_size(_one(e, name, ty, items[0])) > min(most, tuning.UNROLLED_NODES):
        return None
    parts = [_written(_one(e, name, ty, v)) for v in items]
    if any(p is None for p in parts):
        return None
    return _balanced(parts, _JOIN[e.kind], e.span)


def _written(e):
    """e with every quantifier inside written out; None if one cannot be, or if e calls a define:
    what is left must cost little to compute again for each item (written out, nothing is computed
    once for all items, as hoisting computes a binder's parts that do not depend on its names)."""
    if isinstance(e, ir.Quantified):
        return unrolled(e)
    if isinstance(e, (ir.DefineCall, Options, HoistLet, Hoisted)):
        return None
    failed = False

    def part(n):
        nonlocal failed
        found = _written(n)
        failed = failed or found is None
        return n if found is None else found
    e = map_children(e, part)
    return None if failed else e


def written_size(e) -> int:
    """IR nodes of e with every quantifier it holds over a constant list written out (an estimate
    that counts each item as the first one)."""
    shape = _shape(e) if isinstance(e, ir.Quantified) else None
    if shape is not None and shape[0]:
        items, name, ty = shape
        return len(items) * written_size(_one(e, shape[1], ty, items[0]))
    return 1 + sum(written_size(c) for c in children(e))


def _shape(e: ir.Expr):
    """(items, the name, its type) of `exists x in CONST where W`, `all/any(V for x in CONST [where W])`."""
    if not isinstance(e, ir.Quantified) or e.kind not in _JOIN or (e.kind == "exists") != (e.value is None):
        return None
    b = e.binder
    if len(b.groups) != 1 or len(b.groups[0].names) != 1 or b.order or b.where is None and e.value is None:
        return None
    domain = b.groups[0].domain
    if not isinstance(domain, ir.Const) or not isinstance(domain.value, (list, tuple)):
        return None
    name = b.groups[0].names[0]
    ty = domain.ty.item if isinstance(domain.ty, ListT) else \
        next((n.ty for n in walk((b.where, e.value)) if isinstance(n, ir.Local) and n.name == name), None)
    return list(domain.value), name, ty


def _one(e: ir.Quantified, name: str, ty, value) -> ir.Expr:
    """What e asks of one item: exists -> W; all -> not W or V; any -> W and V."""
    at = {name: ir.Const(value, span=e.span, ty=ty)}
    where = substitute(e.binder.where, at)
    if e.kind == "exists":
        return where
    v = substitute(e.value, at)
    if where is None:
        return v
    if e.kind == "all":
        return ir.Binary("or", ir.Unary("not", where, span=e.span, ty=BOOL), v, span=e.span, ty=BOOL)
    return ir.Binary("and", where, v, span=e.span, ty=BOOL)


def _balanced(parts: list[ir.Expr], op: str, span) -> ir.Expr:
    """parts joined by op, left to right, as a balanced tree (a chain of hundreds would nest as deep
    in the Python generated, past what its compiler takes)."""
    if len(parts) == 1:
        return parts[0]
    half = len(parts) // 2
    return ir.Binary(op, _balanced(parts[:half], op, span), _balanced(parts[half:], op, span), span=span, ty=BOOL)
