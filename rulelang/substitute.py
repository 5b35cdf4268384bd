"""Locals replaced by expressions, defines read through, and conditions split at `and`: how an analysis
reads a define's or a procedure's body at a call (its parameters replaced by the arguments) and what a test
says."""
from __future__ import annotations

from . import ir
from .walk import map_children


def substitute(node, env: dict):
    """node with each free Local named in env replaced by env's expression (bound names shadow)."""
    if not env:
        return node
    if isinstance(node, ir.Local):
        return env.get(node.name, node)
    if isinstance(node, (ir.Quantified, ir.Binder)):
        binder = node.binder if isinstance(node, ir.Quantified) else node
        inner, groups = dict(env), []
        for g in binder.groups:
            domain = substitute(g.domain, inner)
            for n in g.names:
                inner.pop(n, None)
            groups.append(ir.BinderGroup(g.names, domain, span=g.span))
        new = ir.Binder(tuple(groups), substitute(binder.where, inner) if binder.where is not None else None,
                        tuple(ir.OrderKey(substitute(k.value, inner), k.descending, span=k.span)
                              for k in binder.order), span=binder.span, types=binder.types)
        if isinstance(node, ir.Binder):
            return new
        value = substitute(node.value, inner) if node.value is not None else None
        return ir.Quantified(node.kind, new, value, span=node.span, ty=node.ty)
    if isinstance(node, ir.Node):
        return map_children(node, lambda child: substitute(child, env))
    return node


def conjuncts(e) -> set:
    """The parts of a condition joined by `and` (none for no condition)."""
    if e is None:
        return set()
    if isinstance(e, ir.Binary) and e.op == "and":
        return conjuncts(e.left) | conjuncts(e.right)
    return {e}


def inlined(e, rs: ir.Ruleset, budget: int = 64):
    """e with calls of defines replaced by the defines' bodies (their parameters by the arguments), the
    first `budget` of them met: a define that calls others many times over cannot blow up the work."""
    left = [budget]

    def inline(node):
        if isinstance(node, ir.DefineCall) and node.name in rs.defines and left[0] > 0:
            left[0] -= 1
            define = rs.defines[node.name]
            return inline(substitute(define.body, {n: a for (n, _), a in zip(define.params, node.args)}))
        if isinstance(node, ir.Node):
            return map_children(node, inline)
        return node
    return inline(e)
