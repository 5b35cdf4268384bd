"""Counts as players say them: compared with a number, "there is only one player that is still in the
game", "there are at least 2 soldiers on the Gauntlet that …", not "the number of players that are still
in the game is 1"; given by cases, each count with its case: "Draw 7 playing cards … if there are 2
players; 6 if there are 3 players; otherwise 5", not "as many as (7 if …; otherwise 6 if …; otherwise 5)"."""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from rulelang import ir
from rulelang.types import INT, ListT

from .english import Context
from .phrases import Clause, Phrase, Words
from .phrases import words as seq
from .quantifiers import named_such_that, things

_NONE = {"==": "no", "<=": "no", "<": None}  # compared with 0: "there is no player that …" (< 0 is never said)
_ONE = {"==": "only one", "!=": "not exactly one", "<": "no", "<=": "at most one", ">": "more than one",
        ">=": "at least one"}
_MANY = {"==": "exactly", "<": "fewer than", "<=": "at most", ">": "more than", ">=": "at least"}


def counted(ctx: Context, left: ir.Expr, op: str, right: ir.Expr) -> Phrase | None:
    """`count(x in D where W) OP K` said as there being so many things, or None where it is not one; the
    number of things in a list too: "there is at most one player *left*"."""
    listed = left.args[0] if isinstance(left, ir.BuiltinCall) and left.name == "size" else None
    if listed is not None and isinstance(listed.ty, ListT) \
            and listed != ir.BuiltinCall("players", ()):  # "there are 2 players": `expressions.compare`
        left = ir.Quantified("count", ir.Binder((ir.BinderGroup(("item",), listed),), types=(listed.ty.item,)), ty=INT)
    if not (isinstance(left, ir.Quantified) and left.kind == "count" and len(left.binder.names) == 1
            and isinstance(right, ir.Const) and type(right.value) is int and right.value >= 0):
        return None
    k = right.value
    if k == 0 and op in (">", "!="):
        op, k = ">=", 1  # more than none: at least one
    if k <= 1:
        det = _NONE.get(op) if k == 0 else _ONE[op]
        one = _things(ctx, left.binder, det) if det is not None else None  # "only one player that …"
        return Clause(Words("there"), "is", one) if one is not None else None
    if op not in _MANY:
        return None
    many = _things(ctx, left.binder, "many")
    return Clause(Words("there"), "are", seq(f"{_MANY[op]} {k} ", many), many=True) if many is not None else None


def _things(ctx: Context, b: ir.Binder, det: str) -> Phrase | None:
    """The things counted: their conditions as relative clauses where they can be ("only one player that
    is still in the game"), else after "such that" ("only one player such that the value of …"), for
    things with a noun ("the number of …" stays for the rest)."""
    said = things(ctx, b, det)
    if said is not None or len(b.names) != 1 or things(ctx, replace(b, where=None), det) is None:
        return said
    return named_such_that(ctx, b, det)


def by_cases(count: ir.Expr, say: Callable[[int], str], between: str,
             say_any: Callable[[ir.Expr], list] | None = None) -> tuple[str, list] | None:
    """A count given by cases (`7 if A else 6 if B else 5`) as its first count and the rest of its words, each
    count with its case: ("7", [" if ", A, "; 6 if ", B, "; otherwise 5"]) (`between`: "; " where the
    sentence ends with it, ", " where it goes on); None where a count is no number, but for the last where
    `say_any` says any count ("otherwise as many times as …")."""
    cases, e = [], count
    while isinstance(e, ir.IfExpr) and isinstance(e.then, ir.Const) and type(e.then.value) is int:
        cases.append((e.then.value, e.cond))
        e = e.otherwise
    number = isinstance(e, ir.Const) and type(e.value) is int
    if not cases or not number and say_any is None:
        return None
    words: list = []
    for i, (n, cond) in enumerate(cases):
        words += [f"{between}{say(n)} if " if i else " if ", cond]
    last = [say(e.value)] if isinstance(e, ir.Const) and isinstance(e.value, int) and number \
        else say_any(e) if say_any is not None else []
    return say(cases[0][0]), words + [f"{between}otherwise ", *last]
