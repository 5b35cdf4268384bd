"""The rules rewritten into the forms English states best, meaning kept.

    not (a and b)                 ->  not a or not b
    not exists s where not P      ->  all(P for s)          "every soldier is at the end of its lane"
    (200 if A else 0) * rank      ->  200 * rank if A else 0
    rank + (200 if A else 0)      ->  rank + (200 if A else 0)  "the rank, plus 200 if A"
    count(f in [d.face for d in dice] where f == 6)
                                  ->  count(d in dice where d.face == 6)   "the dice whose face is 6"
    x if C else y   (true/false)  ->  (C and x) or (not C and y)

Negations are pushed inward until they stand on an atom (a define, an
option, a built-in, a variable) or on an `exists` that reads best as
"there is no"; a conditional value is lifted to the top of the value it
is part of, so English can say "… if …; otherwise …" once, and a
conditional condition becomes and/or. Arithmetic on two constants that
lifting leaves behind (`0 + 1`) is folded. A define without a `text:`
and with a small body is written out where it is used (`action_row()`
reads "the action cards in the Chamber"): it has no name a player knows.
"""
from __future__ import annotations

from dataclasses import replace

from rulelang import ir
from rulelang.types import BOOL, INT
from rulelang.walk import map_children, walk

FLIPPED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in", "not in": "in"}
_FOLD = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
         "/": lambda a, b: a // b if b else None, "%": lambda a, b: a % b if b else None}


INLINE_SIZE = 8  # a define without text and of at most this many nodes is written out where it is used


def normal(e, rs: ir.Ruleset | None = None):
    """An expression (or a binder) in the form it is printed in."""
    if rs is not None:
        e = inline_defines(e, rs)
    return _conditions(_lift(_through_lists(e)))


INLINE_DEPTH = 4  # written out inside one another at most this deep: a chain of defines that each use the
# next twice would double at every level (2^40 nodes for a ruleset from anyone); deeper, a define is its term


def inline_defines(e: ir.Expr, rs: ir.Ruleset, depth: int = 0) -> ir.Expr:
    """Calls of small defines without a `text:` replaced by their bodies, arguments put in."""
    e = map_children(e, lambda c: inline_defines(c, rs, depth))
    if not isinstance(e, ir.DefineCall):
        return e
    d = rs.defines[e.name]
    if not inlined(d) or depth >= INLINE_DEPTH:
        return e
    args = {p: a for (p, _), a in zip(d.params, e.args)}
    bound_names = {n for node in walk(d.body) if isinstance(node, ir.Binder) for n in node.names}
    free = {n.name for a in e.args for n in walk(a) if isinstance(n, ir.Local)}
    if bound_names & free:  # an argument's name would be captured by the body's binder
        return e
    return inline_defines(substitute(d.body, args), rs, depth + 1)


AGGREGATES = ("sum", "min", "max", "any", "all")
OVER_VALUES = ("exists", "count", "list", *AGGREGATES)  # what a binding's value is, not the binding, comes out


def _through_lists(e):
    """Things counted or added up through a list made of them said of the things themselves: a list
    of the dice's faces (`[d.face for d in dice]`) is "the list of the face of that die for every
    die in the dice" to a player, where "the dice whose face is 6" and "the total face of the dice"
    say it."""
    e = map_children(e, _through_lists)
    if isinstance(e, ir.BuiltinCall) and e.name in AGGREGATES and len(e.args) == 1 \
            and isinstance(e.args[0], ir.Quantified) and e.args[0].kind == "list":
        return ir.Quantified(e.name, e.args[0].binder, e.args[0].value, ty=e.ty, span=e.span)
    if not (isinstance(e, ir.Quantified) and e.kind in OVER_VALUES and len(e.binder.groups) == 1
            and len(e.binder.names) == 1):
        return e
    listed = e.binder.groups[0].domain
    if not (isinstance(listed, ir.Quantified) and listed.kind == "list") or listed.binder.order and e.binder.order:
        return e
    name, inner = e.binder.names[0], listed.binder
    outer_parts = [x for x in (e.binder.where, e.value, *(k.value for k in e.binder.order)) if x is not None]
    if set(inner.names) & {n for x in outer_parts for n in _names(x)}:
        return e  # a name of the list's binder would be captured
    each = {name: listed.value}
    where = [x for x in (inner.where, substitute(e.binder.where, each) if e.binder.where else None) if x is not None]
    order = tuple(replace(k, value=substitute(k.value, each)) for k in e.binder.order) or inner.order
    binder = ir.Binder(inner.groups, _conjoin(where) if where else None, order, types=inner.types)
    value = substitute(e.value, each) if e.value is not None else None
    return _through_lists(ir.Quantified(e.kind, binder, value, ty=e.ty, span=e.span))


def inlined(d: ir.Define) -> bool:
    """A define written out where it is used: no text, a small body, no choice of values in it."""
    body = list(walk(d.body))
    return d.text is None and len(body) <= INLINE_SIZE and not any(isinstance(n, (ir.IfExpr, ir.Case)) for n in body)


def substitute(e, args: dict[str, ir.Expr]):
    """A define's or procedure's body with its parameters replaced by the arguments."""
    if isinstance(e, ir.Local) and e.name in args:
        return args[e.name]
    return map_children(e, lambda c: substitute(c, args))


def as_case(e: ir.Expr) -> ir.Case | None:
    """`0 if N == 0 else (1 if N == 1 else (3 if N == 2 else …))`: a value looked up by one subject's
    value, as the `case` it is ("depending on N: 0: 0. 1: 1. 2: 3. …"), where three or more values
    are tested (two read better inline: "3 if there are 2 players; otherwise 2")."""
    arms: list[ir.CaseArm] = []
    subject = None
    while isinstance(e, ir.IfExpr):
        c = e.cond
        if not (isinstance(c, ir.Binary) and c.op == "==" and isinstance(c.right, (ir.Const, ir.EnumValue))
                and (subject is None or c.left == subject)):
            return None
        subject = c.left
        arms.append(ir.CaseArm((c.right,), e.then))
        e = e.otherwise
    return ir.Case(subject, (*arms, ir.CaseArm((), e))) if len(arms) >= 3 and subject is not None else None


def seats_clockwise(e: ir.Expr, rs: ir.Ruleset | None = None) -> tuple[ir.Expr, ir.Expr] | None:
    """(a, b) where `e` counts the seats from b clockwise to a, `(seat(a) - seat(b) + n) % n` with n
    the number of players (a define of it too, with `rs`); else None."""
    if isinstance(e, ir.DefineCall) and rs is not None and e.name in rs.defines:
        d = rs.defines[e.name]
        return seats_clockwise(substitute(d.body, {p: a for (p, _), a in zip(d.params, e.args)}))
    if not (isinstance(e, ir.Binary) and e.op == "%" and _players(e.right)):
        return None
    x = e.left
    if isinstance(x, ir.Binary) and x.op == "+" and _players(x.right):
        x = x.left
    if isinstance(x, ir.Binary) and x.op == "-" and isinstance(x.left, ir.BuiltinCall) and x.left.name == "seat" \
            and isinstance(x.right, ir.BuiltinCall) and x.right.name == "seat":
        return x.left.args[0], x.right.args[0]
    return None


def _players(e: ir.Expr) -> bool:
    """`size(players)`: the number of players."""
    return isinstance(e, ir.BuiltinCall) and e.name == "size" and e.args == (ir.BuiltinCall("players", ()),)


def negate(e: ir.Expr) -> ir.Expr:
    """`not e`, pushed inward."""
    if isinstance(e, ir.Unary) and e.op == "not":
        return e.operand
    if isinstance(e, ir.Binary) and e.op in ("and", "or"):
        return ir.Binary("or" if e.op == "and" else "and", negate(e.left), negate(e.right), ty=BOOL, span=e.span)
    if isinstance(e, ir.Binary) and e.op in FLIPPED:
        return ir.Binary(FLIPPED[e.op], e.left, e.right, ty=BOOL, span=e.span)
    if isinstance(e, ir.IsType):
        return ir.IsType(e.subject, e.kind, not e.negated, ty=BOOL, span=e.span)
    if isinstance(e, ir.Const) and isinstance(e.value, bool):
        return ir.Const(not e.value, ty=BOOL, span=e.span)
    if isinstance(e, ir.IfExpr):
        return ir.IfExpr(e.cond, negate(e.then), negate(e.otherwise), ty=BOOL, span=e.span)
    if isinstance(e, ir.Case):
        return ir.Case(e.subject, tuple(ir.CaseArm(a.patterns, negate(a.value), span=a.span) for a in e.arms),
                       ty=BOOL, span=e.span)
    if isinstance(e, ir.Quantified):
        return _negate_quantified(e)
    return ir.Unary("not", e, ty=BOOL, span=e.span)


def _negate_quantified(e: ir.Quantified) -> ir.Expr:
    b = e.binder
    if e.kind in ("all", "any"):  # not every x: P  ->  some x: not P
        if e.kind == "all":
            where = negate(e.value) if b.where is None else _and(b.where, negate(e.value))
            return ir.Quantified("exists", ir.Binder(b.groups, where, b.order, types=b.types), ty=BOOL, span=e.span)
        return ir.Quantified("all", b, negate(e.value), ty=BOOL, span=e.span)
    if e.kind == "exists" and len(b.groups) > 1 and len(b.groups[0].names) > 1:
        # "there are no two cards a and b … such that there is …"; one thing first is "there is no t … with …"
        return ir.Unary("not", _nest(e), ty=BOOL, span=e.span)
    if e.kind == "exists" and b.where is not None:
        tests, rest = split_type_tests(b)
        if rest and sum(_negations(r) for r in rest) > sum(_negations(negate(r)) for r in rest):
            # no soldier is not at the end  ->  every soldier is at the end
            value = negate(_conjoin(rest))
            where = _conjoin(tests) if tests else None
            return ir.Quantified("all", ir.Binder(b.groups, where, b.order, types=b.types), value, ty=BOOL,
                                 span=e.span)
    return ir.Unary("not", e, ty=BOOL, span=e.span)


def _nest(e: ir.Quantified) -> ir.Quantified:
    """`exists g1, g2 where W` as `exists g1 where W1 and exists g2 where W2`, each condition
    in the first binder where all its names are bound."""
    b = e.binder
    first, rest = b.groups[0], b.groups[1:]
    mine = [c for c in conjuncts(b.where) if _names(c) <= set(first.names) | _outer(b)]
    theirs = [c for c in conjuncts(b.where) if c not in mine]
    inner = ir.Quantified("exists", ir.Binder(rest, _conjoin(theirs) if theirs else None,
                                              types=b.types[len(first.names):]), ty=BOOL, span=e.span)
    inner = _nest(inner) if len(rest) > 1 else inner
    outer_where = _conjoin(mine + [inner])
    return ir.Quantified("exists", ir.Binder((first,), outer_where, types=b.types[:len(first.names)]), ty=BOOL,
                         span=e.span)


def _names(e: ir.Expr) -> set[str]:
    return {n.name for n in walk(e) if isinstance(n, ir.Local)}


def _outer(b: ir.Binder) -> set[str]:
    """Names used in the binder that it does not bind (bound further out)."""
    return {n for c in conjuncts(b.where) for n in _names(c)} - set(b.names)


def normal_binder(b: ir.Binder, rs: ir.Ruleset) -> ir.Binder:
    """A statement's binder in printed form (its domains, condition and keys)."""
    return normal(b, rs)


def split_type_tests(b: ir.Binder):
    """A binder's `where` as the type tests on its names (said by their noun: "a soldier") and the rest."""
    tests, rest = [], []
    for c in conjuncts(b.where):
        if isinstance(c, ir.IsType) and not c.negated and isinstance(c.subject, ir.Local) and c.subject.name in b.names:
            tests.append(c)
        else:
            rest.append(c)
    return tests, rest


def conjuncts(e: ir.Expr | None) -> list[ir.Expr]:
    if e is None:
        return []
    if isinstance(e, ir.Binary) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


_ORDERS = {"<": {"<"}, "<=": {"<", "="}, "==": {"="}, "!=": {"<", ">"}, ">": {">"}, ">=": {">", "="}}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def tighten(conds: list[ir.Expr]) -> list[ir.Expr]:
    """Conditions that all hold, with comparisons of the same two numbers made one: "at most
    the stake" and "not the stake" -> "less than the stake"; "at most" and "exactly" -> "exactly"."""
    def pair(c):
        if isinstance(c, ir.Binary) and c.op in _ORDERS and c.left.ty == INT and c.right.ty == INT:
            return (c.left, c.right), c.op
        return None, None

    first: dict = {}  # (left, right) -> index in out
    out: list = []
    for c in conds:
        key, op = pair(c)
        if key is not None and (key[1], key[0]) in first:  # the same two numbers, the other way round
            key, op = (key[1], key[0]), _FLIP[op]
        if key is None or key not in first:
            if key is not None:
                first[key] = len(out)
            out.append(c)
            continue
        i = first[key]
        held = _ORDERS[pair(out[i])[1] if pair(out[i])[0] == key else _FLIP[pair(out[i])[1]]] & _ORDERS[op]
        ops = [o for o, s in _ORDERS.items() if s == held]
        if ops:
            out[i] = ir.Binary(ops[0], key[0], key[1], ty=BOOL, span=out[i].span)
        else:  # an impossible combination is left as written
            out.append(c)
    return out


def _conjoin(parts: list[ir.Expr]) -> ir.Expr:
    result = parts[0]
    for p in parts[1:]:
        result = _and(result, p)
    return result


def _and(a: ir.Expr, b: ir.Expr) -> ir.Expr:
    return ir.Binary("and", a, b, ty=BOOL, span=a.span)


def _negations(e: ir.Expr) -> int:
    if isinstance(e, ir.Unary) and e.op == "not":
        return 1
    if isinstance(e, ir.IsType):
        return int(e.negated)
    if isinstance(e, ir.Binary):
        return int(e.op in ("!=", "not in")) + (_negations(e.left) + _negations(e.right)
                                                 if e.op in ("and", "or") else 0)
    return 0


# ------------------------------------------------------------ conditions


def _conditions(e: ir.Expr) -> ir.Expr:
    """Negations pushed inward, and conditional conditions turned into and/or, everywhere."""
    e = map_children(e, _conditions)
    if isinstance(e, ir.Unary) and e.op == "not":
        inner = negate(e.operand)
        return inner if inner == e else _conditions(inner)
    if isinstance(e, ir.IfExpr) and e.ty == BOOL:
        return ir.Binary("or", _and(e.cond, e.then), _and(negate(e.cond), e.otherwise), ty=BOOL, span=e.span)
    return e


# ------------------------------------------------------------ conditional values


def _lift(e: ir.Expr, bonus: bool = True) -> ir.Expr:
    """Conditional values lifted to the top of the value they are part of (a bonus added to a sum stays
    in it, last: `x + (35 if C else 0)` is "x, plus 35 if C", not "x + 35 if C; otherwise x")."""
    summed = _summands(e) if isinstance(e, ir.Binary) and e.op == "+" and e.ty == INT else []
    bonuses = [x for x in summed if isinstance(x, ir.IfExpr) and _bonus(x)] if bonus else []  # (not in a lifted case)
    if bonuses and len(bonuses) < len(summed):
        parts = [_lift(x) for x in summed if not _bonus(x)] + \
            [ir.IfExpr(_lift(b.cond), _lift(b.then), b.otherwise, ty=b.ty, span=b.span) for b in bonuses]
        out = parts[0]
        for x in parts[1:]:
            out = ir.Binary("+", out, x, ty=INT, span=e.span)
        return out
    e = map_children(e, _lift_child)
    if not isinstance(e, ir.Expr) or isinstance(e, ir.Quantified):  # a bound name does not leave its binder
        return e
    if isinstance(e, ir.IfExpr):
        return _merge(e)
    if _boundary(e):
        return e
    inner = next((c for c in _operands(e) if isinstance(c, ir.IfExpr)), None)
    if inner is None:
        return _fold(e)
    then = _lift(_replace(e, inner, inner.then), bonus=False)
    otherwise = _lift(_replace(e, inner, inner.otherwise), bonus=False)
    return _merge(ir.IfExpr(inner.cond, then, otherwise, ty=e.ty, span=e.span))


def _lift_child(c: ir.Node) -> ir.Node:
    return _lift(c) if isinstance(c, ir.Expr) else map_children(c, _lift_child)


def _summands(e: ir.Expr) -> list[ir.Expr]:
    if isinstance(e, ir.Binary) and e.op == "+":
        return _summands(e.left) + _summands(e.right)
    return [e]


def _bonus(e: ir.Expr) -> bool:
    """`35 if C else 0`: something added only when a condition holds."""
    return isinstance(e, ir.IfExpr) and e.otherwise == ir.Const(0) and not isinstance(e.then, ir.IfExpr)


def _boundary(e: ir.Expr) -> bool:
    """Where a conditional stops rising: at a condition's connectives (there it becomes and/or)."""
    return isinstance(e, (ir.Case, ir.ListExpr)) or \
        isinstance(e, ir.Binary) and e.op in ("and", "or") or isinstance(e, ir.Unary) and e.op == "not"


def _operands(e: ir.Expr):
    if isinstance(e, (ir.Binary, ir.Unary, ir.BuiltinCall, ir.DefineCall, ir.Field, ir.IsType, ir.RangeExpr)):
        for name in e.__dataclass_fields__:
            value = getattr(e, name)
            if isinstance(value, ir.Expr):
                yield value
            elif isinstance(value, tuple):
                yield from (v for v in value if isinstance(v, ir.Expr))


def _replace(e: ir.Expr, old: ir.Expr, new: ir.Expr) -> ir.Expr:
    done = []

    def swap(c):
        if c is old and not done:
            done.append(c)
            return new
        return c
    return map_children(e, swap)


def _merge(e: ir.IfExpr) -> ir.Expr:
    """One chain of conditions: `(a if B else b) if A else d` is `a if A and B else (b if A else d)`;
    `v if A else v` is v; `v if A else (v if B else w)` is `v if A or B else w`."""
    if e.then == e.otherwise:
        return e.then
    if isinstance(e.then, ir.IfExpr):
        inner = e.then
        rest = _merge(ir.IfExpr(e.cond, inner.otherwise, e.otherwise, ty=e.ty, span=e.span))
        return _merge(ir.IfExpr(_and(e.cond, inner.cond), inner.then, rest, ty=e.ty, span=e.span))
    if isinstance(e.otherwise, ir.IfExpr) and e.otherwise.then == e.then:
        cond = ir.Binary("or", e.cond, e.otherwise.cond, ty=BOOL, span=e.span)
        return _merge(ir.IfExpr(cond, e.then, e.otherwise.otherwise, ty=e.ty, span=e.span))
    return e


def _fold(e: ir.Expr) -> ir.Expr:
    if isinstance(e, ir.Binary) and e.op in ("+", "-") and e.right == ir.Const(0) and e.ty == INT:
        return e.left  # "otherwise the value of the card", not "… + 0"
    if isinstance(e, ir.Binary) and e.op in _FOLD and isinstance(e.left, ir.Const) and isinstance(e.right, ir.Const) \
            and type(e.left.value) is int and type(e.right.value) is int:
        value = _FOLD[e.op](e.left.value, e.right.value)
        return e if value is None else ir.Const(value, ty=INT, span=e.span)
    return e
