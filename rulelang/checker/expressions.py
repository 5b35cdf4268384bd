"""Expressions: each name resolved (local, variable, parameter, zone, role,
value of a type), each expression typed, a card's fields read by its types."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, TypeVar

from .. import ir
from ..builtins import BUILTINS
from ..errors import did_you_mean
from ..types import ANY, BOOL, INT, NONE, ROLE, TEXT, BoardT, CardT, EnumT, ListT, Type, ZoneT, join
from ..walk import Dispatch
from . import binders
from .context import Checker, Scope, text_of, type_of

E = TypeVar("E", bound=ir.Expr)
ExprRule = Callable[[Checker, E, Scope, "Type | None"], ir.Expr]

RESULT = {"number": INT, "bool": BOOL, "role": ROLE, "roles": ListT(ROLE)}  # a built-in's result type
# every expression class, resolved or not: a body checked twice meets resolved nodes (they pass through)
EXPRESSIONS: Dispatch[ExprRule] = Dispatch("the checker", ir.Expr)


def expr(ck: Checker, e: ir.Expr, scope: Scope, want: Type | None = None) -> ir.Expr:
    """The expression resolved and typed; `want`: the type its context wants, if any (it
    picks between values of several types, and the zones a name may be)."""
    if not ck.deeper(e.span, scope):
        return typed(e, ANY)
    try:
        return EXPRESSIONS(e)(ck, e, scope, want)
    finally:
        ck.depth -= 1


def typed(e: E, ty: Type | None, **changes: Any) -> E:
    return dataclasses.replace(e, ty=ty, **changes)


def expect(ck: Checker, e: ir.Expr, scope: Scope, ty: Type, what: str) -> ir.Expr:
    checked = expr(ck, e, scope, ty)
    if checked.ty is not None and not ty.fits(checked.ty):
        ck.error(e.span, f"{what} must be {ty}, but this is {checked.ty}")
    return checked


def zone(ck: Checker, e: ir.Expr, scope: Scope) -> ir.Expr:
    z = expr(ck, e, scope, ZoneT(ck.all_kinds))
    if isinstance(z.ty, BoardT):
        ck.error(e.span, f"'{text_of(e)}' is a board; name one of its spaces here",
                 f"e.g. space({text_of(e)}, column, row)")
    elif not isinstance(z.ty, ZoneT) and z.ty is not ANY:
        ck.error(e.span, f"expected a zone here, but this is {z.ty}",
                 did_you_mean(e.name, ck.rs.zones) if isinstance(e, ir.Name) else None)
    return z


def card(ck: Checker, e: ir.Expr, scope: Scope) -> ir.Expr:
    c = expr(ck, e, scope)
    if not isinstance(c.ty, CardT) and c.ty is not ANY:
        ck.error(e.span, f"expected a card here, but this is {c.ty}")
    return c


def role(ck: Checker, e: ir.Expr, scope: Scope) -> ir.Expr:
    r = expr(ck, e, scope, ROLE)
    playing = scope.within.mode_roles
    if r.ty not in (ROLE, ANY):
        ck.error(e.span, f"expected a role here, but this is {r.ty}",
                 did_you_mean(e.name, [x.name for x in ck.rs.roles]) if isinstance(e, ir.Name) else None)
    elif isinstance(r, ir.RoleRef) and playing is not None and r.role not in playing:
        ck.error(e.span, f"role '{r.role}' does not play in this mode")
    return r


def named_board(ck: Checker, e: ir.Expr, what: str) -> bool:
    """A board is used by its name only: code for its spaces is generated
    from its size. True (reported) if `e` is a board put where a name
    cannot follow it."""
    if not isinstance(e.ty, BoardT):
        return False
    ck.error(e.span, f"a board cannot be {what}",
             "name the board where it is used; a space of it (`space(B, x, y)`) is a zone and can be")
    return True


def possible_kinds(ck: Checker, ty: CardT, table: dict[str, dict[str, Type]], name: str) -> frozenset[str]:
    """The card types a card of type `ty` may be, for reading or changing
    `name`. None at all (`is` tests ruled every one out: rules that run
    only with other cards, in a define given these) is checked as any
    card type that has it, so the rules are still resolved and typed."""
    return ty.kinds or frozenset(k for k, names in table.items() if name in names) or ck.all_kinds


def zone_type(ck: Checker, name: str) -> ZoneT | BoardT:
    zone = ck.rs.zones.get(name)
    kinds = frozenset(zone.holds) if zone is not None and zone.holds else ck.all_kinds
    return BoardT(kinds) if zone is not None and zone.board else ZoneT(kinds)


# ------------------------------------------------------------------ names
@EXPRESSIONS.on(ir.Const)
def const(ck: Checker, e: ir.Const, scope: Scope, want: Type | None) -> ir.Expr:
    v = e.value
    ty = NONE if v is None else BOOL if isinstance(v, bool) else INT if isinstance(v, int) else TEXT
    return typed(e, ty)


@EXPRESSIONS.on(ir.Name)
def name(ck: Checker, e: ir.Name, scope: Scope, want: Type | None) -> ir.Expr:
    n, rs, span = e.name, ck.rs, e.span
    local = scope.lookup(n)
    if local is not None:
        return ir.Local(n, span=span, ty=local)
    if n in rs.vars:
        if rs.vars[n].owner == "each":
            ck.error(span, f"every player has their own '{n}'; say whose", f"write `{n} of p`")
        return ir.Var(n, span=span, ty=rs.vars[n].type)
    if n in rs.params and n != "players":  # `players` is the list of players; the parameter only counts them
        return ir.Param(n, span=span, ty=rs.params[n].type)
    if n in rs.zones or n == "box":
        zone = rs.zones.get(n)
        if zone is not None and zone.owner == "each":
            ck.error(span, f"every role has its own '{n}'; say whose", f"write `{n} of ROLE`")
        return ir.ZoneRef(n, span=span, ty=zone_type(ck, n))
    values_of = ck.enum_of.get(n, ())
    if isinstance(want, EnumT) and want.name in values_of:  # the value the place wants, whatever else it names
        return ir.EnumValue(want.name, n, span=span, ty=want)
    if n in {r.name for r in rs.roles}:
        if values_of and want != ROLE:  # a role and a type's value: the role, unless the place wants the value
            ck.note(span, f"'{n}' is a player and a value of {' and '.join(values_of)}; here it means the player",
                    f"write `{values_of[0]}.{n}` for the value")
        return ir.RoleRef(n, span=span, ty=ROLE)
    if n in rs.enums:  # a type by its name: its values, in order (`for s in suit`)
        return ir.TypeValues(n, span=span, ty=ListT(EnumT(n)))
    if n == "current" and rs.modes and all(m.turns is None for m in rs.modes.values()):
        # a warning, not an error: a ruleset that checked before still checks
        ck.note(span, "`current` is whose turn it is in a mode's `turns:`, and no mode here has turns: "
                      "it is always no one",
                 "keep the player yourself (a variable `{type: role, initial: none}`), or give the mode "
                 "`turns:` (docs/language.md, Turns)")
    if n in BUILTINS and BUILTINS[n].bare:  # round, players
        return ir.BuiltinCall(n, (), span=span, ty=RESULT[BUILTINS[n].result])
    if n in ck.enum_of:
        enums = ck.enum_of[n]
        if isinstance(want, EnumT) and want.name in enums:
            return ir.EnumValue(want.name, n, span=span, ty=want)
        if len(enums) == 1:
            return ir.EnumValue(enums[0], n, span=span, ty=EnumT(enums[0]))
        ck.error(span, f"'{n}' is a value of several types ({', '.join(enums)}); which one is meant "
                       "is unclear here", "compare it with a field of that type, e.g. `c.kind == ...`")
        return typed(e, ANY)
    if n in rs.card_types:
        ck.error(span, f"'{n}' is a card type, not a value", f"to test a card write `c is {n}`")
    elif n in rs.defines:
        ck.error(span, f"'{n}' is a define; call it with its arguments: {n}(...)")
    elif n in rs.dice:
        ck.error(span, f"'{n}' is a die, not a value", f"roll it: `roll {n} into x`, then use x")
    elif isinstance(want, ZoneT):
        ck.error(span, f"unknown zone '{n}'", did_you_mean(n, [*rs.zones, "box"])
                 or "zones: " + ", ".join(rs.zones))
    else:
        known = scope.all_names() | set(rs.vars) | set(rs.params) | set(rs.zones) \
            | {r.name for r in rs.roles} | set(ck.enum_of)
        ck.error(span, f"unknown name '{n}'", did_you_mean(n, known))
    return typed(e, ANY)


@EXPRESSIONS.on(ir.Owned)
def owned(ck: Checker, e: ir.Owned, scope: Scope, want: Type | None) -> ir.Expr:
    owner = role(ck, e.owner, scope)
    var = ck.rs.vars.get(e.zone.name) if isinstance(e.zone, ir.Name) else None
    if var is not None:  # a player's own variable: `life of p`
        if var.owner != "each":
            ck.error(e.span, f"'{var.name}' is one variable for the whole game, not one per player",
                     f"declare it with `owner: each`, or write just `{var.name}`")
        return ir.Var(var.name, owner, span=e.span, ty=var.type)
    if not isinstance(e.zone, ir.Name) or e.zone.name not in ck.rs.zones:
        ck.error(e.zone.span, "expected a zone or a player's variable before `of`")
        return typed(e, ANY)
    zone = ck.rs.zones[e.zone.name]
    if zone.owner != "each":
        ck.error(e.span, f"'{zone.name}' is not a zone each role has",
                 f"declare it with `owner: each`, or write just `{zone.name}`")
    return ir.ZoneRef(zone.name, owner, span=e.span, ty=zone_type(ck, zone.name))


@EXPRESSIONS.on(ir.Field)
def field(ck: Checker, e: ir.Field, scope: Scope, want: Type | None) -> ir.Expr:
    if isinstance(e.obj, ir.Name) and e.obj.name in ck.rs.enums and ck.global_kind(e.obj.name) in (None, "type") \
            and scope.lookup(e.obj.name) is None:  # a type's value named with its type: `suit.hearts`
        enum = ck.rs.enums[e.obj.name]
        if e.name not in enum.values:
            ck.error(e.span, f"'{enum.name}' has no value '{e.name}'",
                     did_you_mean(e.name, enum.values) or "its values: " + ", ".join(enum.values))
            return typed(e, ANY)
        return ir.EnumValue(enum.name, e.name, span=e.span, ty=EnumT(enum.name))
    obj = expr(ck, e.obj, scope)
    if obj.ty is ANY:
        return typed(e, ANY, obj=obj)
    if isinstance(obj.ty, ZoneT) and obj.ty.board is not None:  # a space's mark: `s.terrain`
        board = ck.rs.zones[obj.ty.board]
        if e.name not in board.marks:
            ck.error(e.span, f"the spaces of '{board.name}' have no mark '{e.name}'",
                     did_you_mean(e.name, board.marks) or
                     ("marks: " + ", ".join(board.marks) if board.marks else
                      "a board's spaces are marked through its `marks:`, with a `map:` and `legend:` or "
                      "a graph's places"))
            return typed(e, ANY, obj=obj)
        return typed(e, board.marks[e.name], obj=obj)
    if not isinstance(obj.ty, CardT):
        ck.error(e.span, f"only cards have fields; this is {obj.ty}")
        return typed(e, ANY, obj=obj)
    kinds = possible_kinds(ck, obj.ty, ck.field_types, e.name)
    types = set()
    missing = []
    for kind in sorted(kinds):
        t = ck.field_types[kind].get(e.name)
        if t is None:
            missing.append(kind)
        else:
            types.add(t)
    if missing or not types:
        fields = sorted({f for k in kinds for f in ck.field_types[k]})
        hint = did_you_mean(e.name, fields)
        if not hint and types:
            hint = (f"narrow first, e.g. `{text_of(e.obj)} is {sorted(kinds - set(missing))[0]} and ...`, "
                    "or declare the zone's `holds:`")
        ck.error(e.span, f"{' and '.join(missing) or 'these'} cards have no field '{e.name}'", hint)
        return typed(e, ANY, obj=obj)
    if len(types) > 1:
        ck.error(e.span, f"field '{e.name}' has different types on different card types")
        return typed(e, ANY, obj=obj)
    return typed(e, types.pop(), obj=obj)


# already-resolved nodes (a define body checked twice) pass through
@EXPRESSIONS.on(ir.Local, ir.Var, ir.Param, ir.EnumValue, ir.ZoneRef, ir.RoleRef, ir.DefineCall, ir.BuiltinCall,
                ir.TypeValues)
def resolved(ck: Checker, e: ir.Expr, scope: Scope, want: Type | None) -> ir.Expr:
    return e


# ------------------------------------------------------------------ operators
@EXPRESSIONS.on(ir.Unary)
def unary(ck: Checker, e: ir.Unary, scope: Scope, want: Type | None) -> ir.Expr:
    if e.op == "not":
        return typed(e, BOOL, operand=expect(ck, e.operand, scope, BOOL, "the operand of `not`"))
    return typed(e, INT, operand=expect(ck, e.operand, scope, INT, "the operand of '-'"))


@EXPRESSIONS.on(ir.Binary)
def binary(ck: Checker, e: ir.Binary, scope: Scope, want: Type | None) -> ir.Expr:
    op = e.op
    if op in ("and", "or"):
        left = expect(ck, e.left, scope, BOOL, f"each side of `{op}`")
        inner = scope.child(binders.narrowing(left, op == "and"))
        right = expect(ck, e.right, inner, BOOL, f"each side of `{op}`")
        return typed(e, BOOL, left=left, right=right)
    if op in ("in", "not in"):
        left = expr(ck, e.left, scope)
        right = expr(ck, e.right, scope, ListT(left.ty) if left.ty not in (ANY, None) else None)
        if isinstance(right.ty, (ZoneT, BoardT)):
            if not isinstance(left.ty, CardT) and left.ty is not ANY:
                ck.error(e.left.span, f"only cards are in zones; this is {left.ty}")
        elif isinstance(right.ty, ListT):
            if not right.ty.item.fits(type_of(left)) and right.ty.item is not NONE:
                ck.error(e.span, f"a list of {right.ty.item} cannot hold {left.ty}")
        elif right.ty is not ANY:
            ck.error(e.right.span, f"`{op}` needs a zone or a list on the right, not {right.ty}")
        return typed(e, BOOL, left=left, right=right)
    if op in ("==", "!="):
        left = expr(ck, e.left, scope)
        right = expr(ck, e.right, scope, left.ty)
        if isinstance(e.left, ir.Name) and left.ty is ANY and right.ty is not ANY:
            left = expr(ck, e.left, scope, right.ty)
        if join(type_of(left), type_of(right)) is None:
            ck.error(e.span, f"comparing {left.ty} with {right.ty} is always {op == '!='}".lower())
        return typed(e, BOOL, left=left, right=right)
    if op == "+":
        left, right = expr(ck, e.left, scope), expr(ck, e.right, scope)
        if isinstance(left.ty, ListT) or isinstance(right.ty, ListT):
            ty = join(type_of(left), type_of(right))
            if ty is None:
                ck.error(e.span, f"cannot join {left.ty} and {right.ty}")
            return typed(e, ty or ANY, left=left, right=right)
        for side, orig in ((left, e.left), (right, e.right)):
            if side.ty not in (INT, ANY):
                ck.error(orig.span, f"'+' adds numbers (or joins lists), not {side.ty}")
        return typed(e, INT, left=left, right=right)
    what = "a comparison" if op in ("<", "<=", ">", ">=") else f"'{op}'"
    left = expect(ck, e.left, scope, INT, f"each side of {what}")
    right = expect(ck, e.right, scope, INT, f"each side of {what}")
    return typed(e, BOOL if op in ("<", "<=", ">", ">=") else INT, left=left, right=right)


@EXPRESSIONS.on(ir.IsType)
def is_type(ck: Checker, e: ir.IsType, scope: Scope, want: Type | None) -> ir.Expr:
    subject = expr(ck, e.subject, scope)
    if e.kind not in ck.rs.card_types:
        ck.error(e.span, f"unknown card type '{e.kind}'", did_you_mean(e.kind, ck.rs.card_types))
    elif isinstance(subject.ty, CardT) and e.kind not in subject.ty.kinds \
            and not scope.within.generic:  # (a generic body's test may be for another call)
        ck.error(e.span, f"this can never be a {e.kind} card (it is {subject.ty})")
    elif not isinstance(subject.ty, CardT) and subject.ty is not ANY:
        ck.error(e.span, f"only cards have a card type; this is {subject.ty}")
    return typed(e, BOOL, subject=subject)


# ------------------------------------------------------------------ choices, lists, quantifiers
@EXPRESSIONS.on(ir.IfExpr)
def if_expr(ck: Checker, e: ir.IfExpr, scope: Scope, want: Type | None) -> ir.Expr:
    cond = expect(ck, e.cond, scope, BOOL, "a condition")
    then = expr(ck, e.then, scope.child(binders.narrowing(cond, True)), want)
    otherwise = expr(ck, e.otherwise, scope.child(binders.narrowing(cond, False)), want)
    ty = join(type_of(then), type_of(otherwise))
    if ty is None:
        ck.error(e.span, f"the two values differ in type: {then.ty} and {otherwise.ty}")
    out = typed(e, ty or ANY, cond=cond, then=then, otherwise=otherwise)
    return typed(out, ANY) if named_board(ck, out, "chosen by `if`") else out


@EXPRESSIONS.on(ir.Case)
def case(ck: Checker, e: ir.Case, scope: Scope, want: Type | None) -> ir.Expr:
    subject = expr(ck, e.subject, scope)
    sty = subject.ty
    arms, seen, result, has_else = [], set(), None, False
    for arm in e.arms:
        patterns = []
        for p in arm.patterns:
            cp = expr(ck, p, scope, sty)
            if not isinstance(cp, (ir.Const, ir.EnumValue, ir.RoleRef)):
                ck.error(p.span, "a case pattern is a value: a name from the type, a role, a number, "
                                 "true or false")
                continue
            if sty is not ANY and sty is not None and not sty.fits(type_of(cp)):
                ck.error(p.span, f"'{text_of(p)}' is not a {sty}")
            key = cp.role if isinstance(cp, ir.RoleRef) else cp.value
            if key in seen:
                ck.error(p.span, f"'{key}' already has an arm")
            seen.add(key)
            patterns.append(cp)
        has_else = has_else or not arm.patterns
        value = expr(ck, arm.value, scope, want)
        if result is None:
            result = value.ty
        else:
            joined = join(result, type_of(value))
            if joined is None:
                ck.error(arm.value.span, f"arms give different types: {result} and {value.ty}")
            result = joined or ANY
        arms.append(dataclasses.replace(arm, patterns=tuple(patterns), value=value))
    if not has_else:
        covered(ck, e, sty, seen)
    out = typed(e, result or ANY, subject=subject, arms=tuple(arms))
    return typed(out, ANY) if named_board(ck, out, "chosen by `case`") else out


def covered(ck: Checker, e: ir.Case, sty: Type | None, seen: set[object]) -> None:
    """A case without an `else:` arm names every value its subject may have."""
    if isinstance(sty, EnumT):
        missing = [v for v in ck.rs.enums[sty.name].values if v not in seen]
        if missing:
            ck.error(e.span, f"case does not cover {', '.join(missing)}", "add arms for them, or an `else:` arm")
    elif sty == BOOL:
        if seen != {True, False}:
            ck.error(e.span, "case does not cover both true and false")
    elif sty == ROLE:
        missing = [r.name for r in ck.rs.roles if r.name not in seen]
        if missing:
            ck.error(e.span, f"case does not cover {', '.join(missing)}", "add arms for them, or an `else:` arm")
    elif sty is not ANY:
        ck.error(e.span, f"a case on a {sty} needs an `else:` arm")


@EXPRESSIONS.on(ir.ListExpr)
def list_expr(ck: Checker, e: ir.ListExpr, scope: Scope, want: Type | None) -> ir.Expr:
    item_want = want.item if isinstance(want, ListT) else None
    items = [expr(ck, i, scope, item_want) for i in e.items]
    items = [typed(i, ANY) if named_board(ck, i, "in a list") else i for i in items]
    ty: Type = items[0].ty or ANY if items else NONE
    for item, orig in zip(items[1:], e.items[1:]):
        joined = join(ty, type_of(item))
        if joined is None:
            ck.error(orig.span, f"a list holds values of one type; this is {item.ty}, not {ty}")
        ty = joined or ANY
    return typed(e, ListT(ty), items=tuple(items))


@EXPRESSIONS.on(ir.Index)
def index(ck: Checker, e: ir.Index, scope: Scope, want: Type | None) -> ir.Expr:
    obj = expr(ck, e.obj, scope)
    at = expect(ck, e.index, scope, INT, "an item's place in a list")
    if isinstance(at, ir.Const) and type(at.value) is int and at.value < 1:
        ck.error(e.index.span, f"items are counted from 1: the first item is `{text_of(e.obj)}[1]`",
                 "`last(x in LIST)` is the last one")
    if isinstance(obj.ty, (ZoneT, BoardT)):
        ck.error(e.obj.span, "a zone is not a list of places: its cards are counted from its top or bottom",
                 f"`top({text_of(e.obj)})`, `bottom({text_of(e.obj)})`, or `[c for c in {text_of(e.obj)}][i]`")
        return typed(e, ANY, obj=obj, index=at)
    if not isinstance(obj.ty, ListT):
        if obj.ty is not ANY:
            ck.error(e.obj.span, f"only lists have items by place; this is {obj.ty}")
        return typed(e, ANY, obj=obj, index=at)
    return typed(e, obj.ty.item, obj=obj, index=at)


@EXPRESSIONS.on(ir.Template)
def template(ck: Checker, e: ir.Template, scope: Scope, want: Type | None) -> ir.Expr:
    """Text with values in it: any value reads as text (a card by its label, a player by name)."""
    parts = []
    for part in e.parts:
        if isinstance(part, str):
            parts.append(part)
            continue
        value = expr(ck, part, scope)
        if isinstance(value.ty, BoardT):
            ck.error(part.span, "a board cannot be said: name one of its spaces")
        parts.append(value)
    return typed(e, TEXT, parts=tuple(parts))


@EXPRESSIONS.on(ir.RangeExpr)
def range_expr(ck: Checker, e: ir.RangeExpr, scope: Scope, want: Type | None) -> ir.Expr:
    low = expect(ck, e.low, scope, INT, "the start of a range")
    high = expect(ck, e.high, scope, INT, "the end of a range")
    return typed(e, ListT(INT), low=low, high=high)


@EXPRESSIONS.on(ir.Quantified)
def quantified(ck: Checker, e: ir.Quantified, scope: Scope, want: Type | None) -> ir.Expr:
    binder, inner = binders.binder(ck, e.binder, scope)
    kind = e.kind
    if kind in ("first", "last"):
        if len(binder.names) != 1:
            ck.error(e.span, f"{kind}() binds one name, e.g. {kind}(c in hand where ...)")
            return typed(e, ANY, binder=binder)
        return typed(e, inner.lookup(binder.names[0]), binder=binder)
    if kind in ("exists", "count"):
        return typed(e, BOOL if kind == "exists" else INT, binder=binder)
    assert e.value is not None  # the parser gives the other kinds a value
    if kind == "list":
        value = expr(ck, e.value, inner)
        return typed(e, ListT(value.ty or ANY), binder=binder, value=value)
    item = BOOL if kind in ("any", "all") else INT
    value = expect(ck, e.value, inner, item, f"the values of {kind}()")
    return typed(e, item, binder=binder, value=value)
