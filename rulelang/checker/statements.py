"""Statements: blocks and their local names, moves checked against the
zones' `holds:`, assignments to variables and to a card's state, control
flow narrowing card types, decisions, dice, the end of the game."""
from __future__ import annotations

import dataclasses
import re
from typing import Callable, TypeVar

from .. import ir
from ..errors import did_you_mean
from ..types import ANY, BOOL, INT, NONE, ROLE, BoardT, CardT, ListT, Type, ZoneT
from ..walk import Dispatch
from .binders import binder, narrowing
from .context import Checker, Scope, text_of
from .expressions import card, expect, expr, named_board, possible_kinds, role, typed, zone

S = TypeVar("S", bound=ir.Stmt)
StmtRule = Callable[[Checker, S, Scope], ir.Stmt]

STATEMENTS: Dispatch[StmtRule] = Dispatch("the checker", ir.Stmt)


def block(ck: Checker, stmts: ir.Block, scope: Scope) -> ir.Block:
    inner = scope.child()
    return tuple(stmt(ck, s, inner) for s in stmts)


def stmt(ck: Checker, s: ir.Stmt, scope: Scope) -> ir.Stmt:
    if not ck.deeper(s.span, scope):
        return s
    try:
        return STATEMENTS(s)(ck, s, scope)
    finally:
        ck.depth -= 1


# ------------------------------------------------------------------ cards and zones
@STATEMENTS.on(ir.Move)
def move(ck: Checker, s: ir.Move, scope: Scope) -> ir.Stmt:
    dest = zone(ck, s.dest, scope)
    moved: Type | None
    if s.every is not None:
        every, inner = binder(ck, s.every, scope)
        if len(every.names) != 1:
            ck.error(s.every.span, "`move all` binds exactly one name, e.g. `move all c in hand where ...`")
            moved = ANY
        else:
            moved = inner.lookup(every.names[0])
        check_holds(ck, moved, dest, s.span)
        return dataclasses.replace(s, every=every, dest=dest)
    cards = []
    for c in s.cards:
        c2 = expr(ck, c, scope)
        if isinstance(c2.ty, BoardT):
            ck.error(c.span, "a board's cards are moved one by one, not the board at once",
                     f"e.g. `move all c in {text_of(c)} where ... to ...`")
            moved = ANY
        elif isinstance(c2.ty, ListT):
            moved = c2.ty.item
        elif isinstance(c2.ty, ZoneT):
            moved = CardT(c2.ty.kinds)
        else:
            moved = c2.ty
        if not isinstance(moved, CardT) and moved is not ANY and moved is not NONE:
            ck.error(c.span, f"can only move cards, not {c2.ty}")
        check_holds(ck, moved, dest, c.span)
        cards.append(c2)
    return dataclasses.replace(s, cards=tuple(cards), dest=dest)


@STATEMENTS.on(ir.Draw)
def draw(ck: Checker, s: ir.Draw, scope: Scope) -> ir.Stmt:
    count = expect(ck, s.count, scope, INT, "the number of cards to draw")
    source, dest = zone(ck, s.source, scope), zone(ck, s.dest, scope)
    if isinstance(source.ty, ZoneT):
        check_holds(ck, CardT(source.ty.kinds), dest, s.span)
    return dataclasses.replace(s, count=count, source=source, dest=dest)


def check_holds(ck: Checker, moved: Type | None, dest: ir.Expr, span) -> None:
    if not isinstance(moved, CardT) or not isinstance(dest.ty, ZoneT):
        return
    extra = moved.kinds - dest.ty.kinds
    if extra:
        zone = dest.zone if isinstance(dest, ir.ZoneRef) else "that zone"
        ck.error(span, f"{', '.join(sorted(extra))} cards cannot go to {zone}: it holds only "
                       f"{', '.join(sorted(dest.ty.kinds))}",
                 f"sort the cards first (`if c is {sorted(extra)[0]}: ...`) or add to the `holds:` of {zone}")


@STATEMENTS.on(ir.Shuffle)
def shuffle(ck: Checker, s: ir.Shuffle, scope: Scope) -> ir.Stmt:
    return dataclasses.replace(s, zone=zone(ck, s.zone, scope))


@STATEMENTS.on(ir.Flip)
def flip(ck: Checker, s: ir.Flip, scope: Scope) -> ir.Stmt:
    return dataclasses.replace(s, card=card(ck, s.card, scope))


@STATEMENTS.on(ir.Swap)
def swap(ck: Checker, s: ir.Swap, scope: Scope) -> ir.Stmt:
    first, second = expr(ck, s.first, scope), expr(ck, s.second, scope)
    a, b = first.ty, second.ty
    if isinstance(a, ZoneT) and isinstance(b, ZoneT):
        check_holds(ck, CardT(a.kinds), second, s.span)
        check_holds(ck, CardT(b.kinds), first, s.span)
    elif isinstance(a, CardT) and isinstance(b, CardT):
        # each card goes where the other lay: wherever one of them may lie, the other must be allowed
        for z in ck.rs.zones.values():
            held = frozenset(z.holds) or ck.all_kinds
            for here, there in ((a.kinds or ck.all_kinds, b.kinds or ck.all_kinds),
                                (b.kinds or ck.all_kinds, a.kinds or ck.all_kinds)):
                if held & here and not there <= held:
                    ck.error(s.span, f"{', '.join(sorted(there - held))} cards cannot go to {z.name}, where the "
                                     f"other card may lie: it holds only {', '.join(sorted(held))}",
                             f"test the cards' types first (`if c is {min(held & here)}: ...`)")
                    return dataclasses.replace(s, first=first, second=second)
    elif a is not ANY and b is not ANY:
        bad = first if not isinstance(a, (CardT, ZoneT)) else second
        ck.error(bad.span, f"swap exchanges two cards or two zones' cards, and this is {bad.ty}"
                 if not isinstance(bad.ty, (CardT, ZoneT)) else f"cannot swap a card with a zone's cards",
                 "`swap c with d` (two cards change places), `swap hand of p with hand of q` (two zones their cards)")
    return dataclasses.replace(s, first=first, second=second)


# ------------------------------------------------------------------ locals, variables, a card's state
@STATEMENTS.on(ir.Let)
def let(ck: Checker, s: ir.Let, scope: Scope) -> ir.Stmt:
    value = expr(ck, s.value, scope)
    if named_board(ck, value, "a local"):
        value = typed(value, ANY)
    if scope.lookup(s.name) is not None:
        ck.error(s.span, f"'{s.name}' is already defined here", f"change it with `{s.name} = ...`")
    elif ck.global_kind(s.name) or s.name in ck.enum_of:
        ck.error(s.span, f"'{s.name}' is already the name of a {ck.global_kind(s.name) or 'value'}",
                 "pick another name for the local")
    scope.names[s.name] = value.ty or ANY
    return dataclasses.replace(s, value=value)


@STATEMENTS.on(ir.Assign)
def assign(ck: Checker, s: ir.Assign, scope: Scope) -> ir.Stmt:
    target = s.target
    if isinstance(target, ir.Field):
        return assign_state(ck, s, target, scope)
    if isinstance(target, ir.Owned):  # `life of p -= 1`
        resolved = expr(ck, target, scope)
        if not isinstance(resolved, ir.Var):
            if resolved.ty is not ANY:
                ck.error(target.span, "only a player's variable can change this way",
                         "a zone's cards change with move and draw")
            return s
        assert isinstance(target.zone, ir.Name)  # (a variable's name, or `resolved` would be a zone)
        return assign_value(ck, s, resolved, target.zone.name, scope)
    assert isinstance(target, (ir.Name, ir.Local, ir.Var))  # a name (the parser writes `NAME of P` and fields apart)
    local = scope.lookup(target.name)
    if local is not None:
        resolved = ir.Local(target.name, span=target.span, ty=local)
    elif target.name in ck.rs.vars:
        resolved = ir.Var(target.name, span=target.span, ty=ck.rs.vars[target.name].type)
    else:
        what = ck.global_kind(target.name)
        if what:
            ck.error(target.span, f"cannot change the {what} '{target.name}'",
                     "only variables declared under `vars:` and locals can change")
        else:
            ck.error(target.span, f"unknown variable '{target.name}'",
                     did_you_mean(target.name, [*ck.rs.vars, *scope.all_names()])
                     or f"declare it under `vars:` (or use `let {target.name} = ...` for a local)")
        return s
    if isinstance(resolved, ir.Var) and ck.rs.vars[target.name].owner == "each":
        ck.error(target.span, f"every player has their own '{target.name}'; say whose",
                 f"write `{target.name} of p {s.op} ...`")
    return assign_value(ck, s, resolved, target.name, scope)


def assign_value(ck: Checker, s: ir.Assign, resolved: ir.Expr, name: str, scope: Scope) -> ir.Stmt:
    if s.op in ("+=", "-="):
        value = expect(ck, s.value, scope, INT, f"the amount for {s.op}")
        if resolved.ty not in (INT, ANY):
            ck.error(s.span, f"'{name}' is {resolved.ty}; {s.op} needs a number")
    else:
        value = expect(ck, s.value, scope, resolved.ty or ANY, f"a value for '{name}'")
    return dataclasses.replace(s, target=resolved, value=value)


def assign_state(ck: Checker, s: ir.Assign, field: ir.Field, scope: Scope) -> ir.Stmt:
    """`g.damage += 2`, `top(deck).damage = 0`: a card's state value (printed fields never change)."""
    obj = expr(ck, field.obj, scope)
    if not isinstance(obj.ty, CardT):
        if obj.ty is not ANY:
            ck.error(field.obj.span, f"only a card's state can change; this is {obj.ty}, not a card",
                     f"`CARD.{field.name} = ...` changes a value declared under the card type's `state:`; "
                     "a variable changes by its name alone (`points += 1`)")
        return s
    kinds = possible_kinds(ck, obj.ty, ck.state_types, field.name)
    types = {ck.state_types[k].get(field.name) for k in kinds}
    if None in types or len(types) != 1:
        printed = any(field.name in ck.field_types[k] for k in kinds)
        lacking = sorted(k for k in kinds if field.name not in ck.state_types[k])
        ck.error(field.span, f"'{field.name}' is printed on the card and cannot change" if printed
                 else f"{' and '.join(lacking)} cards have no state '{field.name}'",
                 "declare it under the card type's `state:` (e.g. `state: {damage: 0}`)"
                 if not printed else "keep changing values in `state:` or `vars:`")
        return s
    ty = types.pop()
    assert ty is not None
    target = dataclasses.replace(field, obj=obj, ty=ty)
    if s.op in ("+=", "-="):
        value = expect(ck, s.value, scope, INT, f"the amount for {s.op}")
        if ty != INT:
            ck.error(s.span, f"'{field.name}' is {ty}; {s.op} needs a number")
    else:
        value = expect(ck, s.value, scope, ty, f"a value for '{field.name}'")
    return dataclasses.replace(s, target=target, value=value)


# ------------------------------------------------------------------ control flow
@STATEMENTS.on(ir.If)
def if_(ck: Checker, s: ir.If, scope: Scope) -> ir.Stmt:
    branches = []
    negative: dict[str, Type] = {}
    for cond, body in s.branches:
        here = scope.child(negative)
        c = expect(ck, cond, here, BOOL, "a condition")
        branches.append((c, block(ck, body, here.child(narrowing(c, True)))))
        negative = {**negative, **narrowing(c, False)}
    otherwise = block(ck, s.otherwise, scope.child(negative)) if s.otherwise is not None else None
    return dataclasses.replace(s, branches=tuple(branches), otherwise=otherwise)


@STATEMENTS.on(ir.While)
def while_(ck: Checker, s: ir.While, scope: Scope) -> ir.Stmt:
    cond = expect(ck, s.cond, scope, BOOL, "a condition")
    body = block(ck, s.body, scope.child(narrowing(cond, not s.until)))
    return dataclasses.replace(s, cond=cond, body=body)


@STATEMENTS.on(ir.Repeat)
def repeat(ck: Checker, s: ir.Repeat, scope: Scope) -> ir.Stmt:
    count = expect(ck, s.count, scope, INT, "the number of times")
    return dataclasses.replace(s, count=count, body=block(ck, s.body, scope))


@STATEMENTS.on(ir.For)
def for_(ck: Checker, s: ir.For, scope: Scope) -> ir.Stmt:
    checked, inner = binder(ck, s.binder, scope)
    return dataclasses.replace(s, binder=checked, body=block(ck, s.body, inner))


@STATEMENTS.on(ir.Take)
def take(ck: Checker, s: ir.Take, scope: Scope) -> ir.Stmt:
    checked, inner = binder(ck, s.binder, scope)
    for g in checked.groups:
        if isinstance(g.domain, ir.ListExpr) and not g.domain.items:
            ck.error(g.domain.span, f"take {s.which}: `[]` is empty, so there is nothing to bind",
                     "take from a zone or a list that holds something")
    return dataclasses.replace(s, binder=checked, body=block(ck, s.body, inner))


@STATEMENTS.on(ir.Pass)
def pass_(ck: Checker, s: ir.Pass, scope: Scope) -> ir.Stmt:
    return s


# ------------------------------------------------------------------ dice
@STATEMENTS.on(ir.Roll)
def roll(ck: Checker, s: ir.Roll, scope: Scope) -> ir.Stmt:
    """`roll [COUNT] DIE into TARGET`: the target is a name not yet bound (a
    new local), or anything an assignment may change, of the roll's type."""
    if s.die not in ck.rs.dice:
        sides = s.die[1:] if re.fullmatch(r"d[1-9][0-9]{0,3}", s.die) else "6"
        taken = ck.global_kind(s.die)
        ck.error(s.span, f"unknown die '{s.die}'",
                 f"'{s.die}' is the name of a {taken} here, so there is no built-in d6; declare a die "
                 f"under `dice:` with another name" if s.die == "d6" and taken else
                 did_you_mean(s.die, ck.rs.dice)
                 or f"declare it under `dice:`, e.g. `dice: {{{s.die}: 1..{sides}}}` (d6 is built in)")
    count = expect(ck, s.count, scope, INT, "the number of dice") if s.count is not None else None
    ty = INT if count is None else ListT(INT)
    target = s.target
    if isinstance(target, ir.Name) and scope.lookup(target.name) is None and target.name not in ck.rs.vars \
            and not ck.global_kind(target.name) and target.name not in ck.enum_of:
        scope.names[target.name] = ty  # a new local, as `let` makes
        return dataclasses.replace(s, count=count, target=ir.Local(target.name, span=target.span, ty=ty),
                                   declares=True)
    # an existing name: resolved as an assignment's target is (the value's type is checked below)
    checked = assign(ck, ir.Assign(target, "=", ir.Local("$roll", ty=ANY), span=s.span), scope)
    assert isinstance(checked, ir.Assign)
    resolved = checked.target
    if isinstance(resolved, ir.Name) or resolved.ty in (None, ANY) or resolved.ty.fits(ty):
        return dataclasses.replace(s, count=count, target=resolved)
    name = target.name if isinstance(target, (ir.Name, ir.Field)) else text_of(target)
    if count is None:
        ck.error(target.span, f"'{name}' is {resolved.ty}, but one die gives a number",
                 f"roll a number of dice for a list: `roll 1 {s.die} into {name}`")
    else:
        ck.error(target.span, f"'{name}' is {resolved.ty}, but several dice give {ty}",
                 f"roll into a new name and add the dice up: `roll ... {s.die} into faces`, then `sum(faces)`")
    return dataclasses.replace(s, count=count, target=resolved)


# ------------------------------------------------------------------ decisions and the end of the game
@STATEMENTS.on(ir.Choose)
def choose(ck: Checker, s: ir.Choose, scope: Scope) -> ir.Stmt:
    who = role(ck, s.role, scope)
    checked, inner = binder(ck, s.binder, scope)
    labelled = expr(ck, s.labelled, inner) if s.labelled is not None else None  # read with the option's names
    return dataclasses.replace(s, role=who, binder=checked, body=block(ck, s.body, inner), labelled=labelled)


@STATEMENTS.on(ir.Reveal)
def reveal(ck: Checker, s: ir.Reveal, scope: Scope) -> ir.Stmt:
    """Cards (a card, a list of them, a zone's), or a value: a variable, or anything else."""
    what = expr(ck, s.what, scope)
    if isinstance(what.ty, BoardT):
        ck.error(s.what.span, "a board is revealed space by space: name one of its spaces, or its cards")
    to = role(ck, s.to, scope) if s.to is not None else None
    return dataclasses.replace(s, what=what, to=to)


@STATEMENTS.on(ir.Announce)
def announce(ck: Checker, s: ir.Announce, scope: Scope) -> ir.Stmt:
    to = role(ck, s.to, scope) if s.to is not None else None
    return dataclasses.replace(s, text=expr(ck, s.text, scope), to=to)


@STATEMENTS.on(ir.Menu)
def menu(ck: Checker, s: ir.Menu, scope: Scope) -> ir.Stmt:
    who = role(ck, s.role, scope)
    seen, options = set(), []
    for opt in s.options:
        if opt.name in seen:
            ck.error(opt.span, f"option '{opt.name}' appears twice in '{s.label}'")
        seen.add(opt.name)
        guard = expect(ck, opt.guard, scope, BOOL, "a condition") if opt.guard is not None else None
        inner = scope.child(narrowing(guard, True) if guard is not None else {})
        options.append(dataclasses.replace(opt, guard=guard, body=block(ck, opt.body, inner)))
    return dataclasses.replace(s, role=who, options=tuple(options))


@STATEMENTS.on(ir.EndGame)
def end_game(ck: Checker, s: ir.EndGame, scope: Scope) -> ir.Stmt:
    if s.role is None:
        return s
    who = expr(ck, s.role, scope, ListT(ROLE) if isinstance(s.role, ir.ListExpr) else ROLE)
    playing = scope.within.mode_roles
    if who.ty not in (ROLE, ListT(ROLE), ListT(NONE), ANY):
        ck.error(s.role.span, f"{s.kind} names a player or a list of players (a team), not {who.ty}")
    elif isinstance(who, ir.RoleRef) and playing is not None and who.role not in playing:
        ck.error(s.role.span, f"role '{who.role}' does not play in this mode")
    return dataclasses.replace(s, role=who)


@STATEMENTS.on(ir.Eliminate)
def eliminate(ck: Checker, s: ir.Eliminate, scope: Scope) -> ir.Stmt:
    return dataclasses.replace(s, role=role(ck, s.role, scope))
