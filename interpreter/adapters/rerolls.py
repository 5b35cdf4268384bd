"""A re-roll written as a loop, as one chance node over the faces that remain.

    roll d6 into die
    while die <= 2:          # (or `until die > 2:`)
        roll d6 into die

With explicit chance every roll is a chance node, so this is a chance node
that can lead back to itself for ever: a search that always takes the first
outcome (a 1) rolls again until the step limit. `collapsed` writes each such
pair — a roll, then a loop whose only statement rolls the same die into the
same place again while a condition on it alone holds — as one roll of a die
of the faces the loop keeps (`d6, kept where not die <= 2`): one chance node
whose outcomes are those faces, each as likely as it is given that it is
kept (a uniform die, kept faces: uniform again). Its outcome is drawn from the
game's own RNG as the loop draws it (`draw`: faces of the whole die until one
is kept), so `sample_chance` still plays the game `rulelang run --seed N`
plays, decision for decision. Only the rolls recorded differ: the collapsed
game remembers the roll that stood, not the ones rolled again.
"""
from __future__ import annotations

import dataclasses

from rulelang import ir
from rulelang.walk import child_fields

from ..runtime import rng


@dataclasses.dataclass(frozen=True)
class Kept:
    """A collapsed re-roll's die: the indexes of the whole die's faces the loop keeps."""
    whole: int  # faces of the die rolled
    indexes: tuple[int, ...]


def collapsed(rs: ir.Ruleset) -> tuple[ir.Ruleset, dict[str, Kept]]:
    """The ruleset with every re-roll loop written as one roll, and the dice made for them."""
    made: dict[str, ir.Die] = {}
    kept: dict[str, Kept] = {}

    def block(stmts: tuple) -> tuple:
        out, i = [], 0
        while i < len(stmts):
            s = node(stmts[i])
            if i + 1 < len(stmts) and (one := _one_roll(s, stmts[i + 1], rs, made, kept)) is not None:
                out.append(one)
                i += 2
                continue
            out.append(s)
            i += 1
        return tuple(out) if len(out) != len(stmts) or any(a is not b for a, b in zip(out, stmts)) else stmts

    def value(v):  # the same object back when nothing in it changed
        if isinstance(v, ir.Node):
            return node(v)
        if isinstance(v, tuple):
            if v and all(isinstance(x, ir.Stmt) for x in v):
                return block(v)
            items = tuple(value(x) for x in v)
            return items if any(a is not b for a, b in zip(items, v)) else v
        if isinstance(v, dict):  # the IR's name tables: modes, procedures, abilities
            items = {k: value(x) for k, x in v.items()}
            return ir.frozen_map(items) if any(items[k] is not v[k] for k in v) else v
        return v

    def node(n):
        changes = {name: new for name in child_fields(n) if (new := value(old := getattr(n, name))) is not old}
        return dataclasses.replace(n, **changes) if changes else n

    result = node(rs)
    if not made:
        return rs, {}
    return dataclasses.replace(result, dice=ir.frozen_map({**rs.dice, **made})), kept


def _one_roll(first, loop, rs: ir.Ruleset, made: dict, kept: dict) -> ir.Roll | None:
    """`roll D into x` then `while C(x): roll D into x` as one roll of D's kept faces, if it is that."""
    if not (isinstance(first, ir.Roll) and first.count is None and isinstance(loop, ir.While)
            and len(loop.body) == 1 and isinstance(loop.body[0], ir.Roll)):
        return None
    again = loop.body[0]
    if again.die != first.die or again.count is not None or again.target != first.target \
            or not isinstance(first.target, (ir.Local, ir.Var)) or first.die not in rs.dice:
        return None
    faces = rs.dice[first.die].faces
    indexes = []
    for i, face in enumerate(faces):
        holds = _value(loop.cond, first.target, face, rs)
        if holds is None:
            return None  # the condition reads more than the roll: not a re-roll of the die alone
        if holds == loop.until:  # `while C`: kept where C is false; `until C`: where C is true
            indexes.append(i)
    if not indexes or len(indexes) == len(faces):
        return None
    name = f"{first.die}, kept where {'' if loop.until else 'not '}{_text(loop.cond)}"
    made[name] = ir.Die(name, tuple(faces[i] for i in indexes), span=rs.dice[first.die].span)
    kept[name] = Kept(len(faces), tuple(indexes))
    return dataclasses.replace(first, die=name)


def draw(state: int, kept: Kept) -> tuple[int, int]:
    """The RNG's state after, and the outcome (an index among the kept faces): the whole
    die rolled until a kept face comes up, as the loop rolls it."""
    while True:
        state, index = rng.below(state, kept.whole)
        if index in kept.indexes:
            return state, kept.indexes.index(index)


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _value(e: ir.Expr, target: ir.Expr, face: int, rs: ir.Ruleset):
    """The condition's value with the rolled face in place of the target (None: it reads something else)."""
    if e == target:
        return face
    if isinstance(e, ir.Const) and type(e.value) in (int, bool):
        return e.value
    if isinstance(e, ir.Param) and type(rs.param_values.get(e.name)) in (int, bool):
        return rs.param_values[e.name]
    if isinstance(e, ir.Unary):
        v = _value(e.operand, target, face, rs)
        return None if v is None else (not v) if e.op == "not" else -v
    if isinstance(e, ir.Binary) and (e.op in _COMPARE or e.op in ("and", "or")):
        a, b = _value(e.left, target, face, rs), _value(e.right, target, face, rs)
        if a is None or b is None:
            return None
        return (a and b) if e.op == "and" else (a or b) if e.op == "or" else _COMPARE[e.op](a, b)
    if isinstance(e, ir.Binary) and e.op in ("in", "not in") and isinstance(e.right, ir.ListExpr):
        a, items = _value(e.left, target, face, rs), [_value(x, target, face, rs) for x in e.right.items]
        if a is None or any(x is None for x in items):
            return None
        return (a in items) == (e.op == "in")
    return None


def _text(e: ir.Expr) -> str:
    span = e.span
    if span is not None and span.line == span.end_line:
        text = span.source.line(span.line)[span.col - 1:span.end_col - 1].strip()
        if text:
            return text
    return "the condition"
