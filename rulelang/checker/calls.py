"""Defines, procedures and built-ins: their calls, and their bodies checked
with the types each call gives (a definition is checked once per distinct
list of parameter types, and no definition may call itself)."""
from __future__ import annotations

import dataclasses
import functools
from typing import Mapping, Sequence

from .. import ir
from ..builtins import BUILTINS, Builtin
from ..errors import Span, did_you_mean
from ..types import ANY, BOOL, INT, ROLE, BoardT, CardT, EnumT, ListT, Type, ZoneT, join
from . import expressions, statements
from .context import Checker, Scope, Within, type_of
from .expressions import EXPRESSIONS, RESULT, typed
from .statements import STATEMENTS

CALLED = [b.name for b in BUILTINS.values() if not b.bare]  # the built-ins written with parentheses

Params = tuple[tuple[str, Type | None], ...]


# ------------------------------------------------------------------ calls in the rules
@EXPRESSIONS.on(ir.Call)
def call(ck: Checker, e: ir.Call, scope: Scope, expect: Type | None) -> ir.Expr:
    rs = ck.rs
    if e.name in rs.defines:
        define = rs.defines[e.name]
        args = [expressions.expr(ck, a, scope, t) for a, (_, t) in zip(e.args, define.params)]
        args += [expressions.expr(ck, a, scope) for a in e.args[len(define.params):]]
        for a, (p, t) in zip(args, define.params):
            if not expressions.named_board(ck, a, "an argument") and t is not None and not t.fits(type_of(a)):
                ck.error(a.span, f"argument '{p}' of '{e.name}' must be {t}, but this is {a.ty}")
        ty = call_define(ck, e.name, [a.ty for a in args], e.span, scope)
        return ir.DefineCall(e.name, tuple(args), span=e.span, ty=ty)
    if e.name in CALLED:
        return builtin(ck, e, scope)
    if e.name in rs.procedures:
        ck.error(e.span, f"'{e.name}' is a procedure (it does things); call it on its own line")
    else:
        ck.error(e.span, f"unknown function '{e.name}'",
                 instead(ck, e) or did_you_mean(e.name, [*rs.defines, *CALLED]))
    return typed(e, ANY)


# functions other languages have, and what this one writes instead
INSTEAD = {
    ("len", "length", "count_of", "size_of", "number_of"): "the number of items is `size(x)`; a count of matches, "
                                                          "`count(c in hand where ...)`",
    ("range",): "a range of numbers is written `1..n`",
    ("random", "rand", "randint", "choice", "sample"): "chance is `roll d6 into x`, or `take random x in LIST: ...`",
    ("append", "push", "add", "extend", "concat"): "lists are joined with `+`: `xs + [x]`",
    ("contains", "has", "includes", "member"): "membership is `x in xs` (or `c in hand`)",
    ("sort", "sorted", "order"): "order a binder: `for c in hand ordered by c.value descending: ...`",
    ("index", "find", "find_first", "indexof"): "the first match is `first(x in xs where ...)`; an item by its "
                                                "place, `xs[i]` (from 1)",
    ("str", "text", "format", "string"): "text with values in it is written `\"{p} bids {n}\"`",
    ("print", "log", "say", "tell", "show"): "say something to the players with `announce \"...\"`; show cards "
                                             "with `reveal`",
    ("filter", "select", "where"): "a list of matches is `[x for x in xs where ...]`",
}


def instead(ck: Checker, e: ir.Call) -> str | None:
    """What the language offers for a function it does not have."""
    arg = e.args[0].name if len(e.args) == 1 and isinstance(e.args[0], ir.Name) else None
    if arg in ck.rs.enums:
        return f"a type's values are written by its name: `{arg}` (`for v in {arg}`, `size({arg})`), " \
               f"one of them `{arg}.{ck.rs.enums[arg].values[0]}`"
    if arg in ck.rs.card_types and e.name in ("values", "cards", "all", "list", "cards_of", "all_of"):
        return f"the cards of a type, wherever they are: `[c for c in box where c is {arg}]` names the box; " \
               f"in a zone, `[c for c in ZONE where c is {arg}]`"
    if e.name in ("values", "items", "members", "elements", "keys", "list", "tuple", "set"):
        return "a type's values are written by its name (`for s in suit`); a zone's cards by the zone's " \
               "(`for c in hand`); a list is written `[a, b]` or `1..n`"
    for names, text in INSTEAD.items():
        if e.name in names:
            return text
    return None


@STATEMENTS.on(ir.CallProc)
def call_proc(ck: Checker, s: ir.CallProc, scope: Scope) -> ir.Stmt:
    rs = ck.rs
    if s.name not in rs.procedures:
        if s.name in rs.defines or s.name in CALLED:
            what = "a define" if s.name in rs.defines else "built in"
            ck.error(s.span, f"'{s.name}' is {what} (a value), not a procedure; use it in a condition",
                     "a line of statements does something: move, draw, let, if ... "
                     "(a define of this value goes under `define:`)")
        else:
            ck.error(s.span, f"unknown procedure '{s.name}'", did_you_mean(s.name, rs.procedures)
                     or "declare it under `procedures:`")
        return s
    proc = rs.procedures[s.name]
    args = [expressions.expr(ck, a, scope, t) for a, (_, t) in zip(s.args, proc.params)] + \
        [expressions.expr(ck, a, scope) for a in s.args[len(proc.params):]]
    for a, (p, t) in zip(args, proc.params):
        if not expressions.named_board(ck, a, "an argument") and t is not None and not t.fits(type_of(a)):
            ck.error(a.span, f"argument '{p}' must be {t}, but this is {a.ty}")
    call_procedure(ck, s.name, [a.ty for a in args], s.span, scope)
    return dataclasses.replace(s, args=tuple(args))


# ------------------------------------------------------------------ definitions, by the types of each call
def call_define(ck: Checker, name: str, arg_types: Sequence[Type | None], span: Span | None,
                caller: Scope) -> Type | None:
    define = ck.rs.defines[name]
    calls = caller.within.calls
    if name in calls:
        ck.error(span, f"'{name}' uses itself (through {' -> '.join(calls[calls.index(name):])})",
                 "defines may not be recursive; write the repetition with count(), exists or a loop")
        return ANY
    if len(arg_types) != len(define.params):
        ck.error(span, f"'{name}' takes {len(define.params)} argument(s), not {len(arg_types)}")
        return ANY
    types = tuple(_bound(declared, given) for (_, declared), given in zip(define.params, arg_types))
    key = (name, types)
    if key in ck.defined.define_results:
        return ck.defined.define_results[key]
    same_kinds(ck, name, define.params, types, span)
    body = define_body(ck, name, types, caller)
    ck.defined.define_bodies.setdefault(name, body)
    ck.defined.define_results[key] = body.ty
    return body.ty


def call_procedure(ck: Checker, name: str, arg_types: Sequence[Type | None], span: Span | None,
                   caller: Scope) -> None:
    proc = ck.rs.procedures[name]
    calls = caller.within.calls
    if name in calls:
        ck.error(span, f"procedure '{name}' calls itself (through {' -> '.join(calls[calls.index(name):])})",
                 "procedures may not be recursive; use a while loop")
        return
    if len(arg_types) != len(proc.params):
        ck.error(span, f"'{name}' takes {len(proc.params)} argument(s), not {len(arg_types)}")
        return
    types = tuple(_bound(declared, given) for (_, declared), given in zip(proc.params, arg_types))
    if (name, types) in ck.defined.proc_checked:
        return
    ck.defined.proc_checked[name, types] = None
    same_kinds(ck, name, proc.params, types, span)
    ck.defined.proc_bodies.setdefault(name, procedure_body(ck, name, types, caller))


def define_body(ck: Checker, name: str, types: Sequence[Type], caller: Scope) -> ir.Expr:
    """A define's body checked with these parameter types, in its caller's mode."""
    define = ck.rs.defines[name]
    return expressions.expr(ck, define.body, _body_scope(ck, define, types, caller.within.mode_roles, caller))


def procedure_body(ck: Checker, name: str, types: Sequence[Type], caller: Scope) -> ir.Block:
    """A procedure's body checked with these parameter types (it may be called from any mode)."""
    proc = ck.rs.procedures[name]
    return statements.block(ck, proc.body, _body_scope(ck, proc, types, None, caller))


def _body_scope(ck: Checker, definition: ir.Define | ir.Procedure, types: Sequence[Type],
                mode_roles: tuple[str, ...] | None, caller: Scope) -> Scope:
    check_param_names(ck, definition.params, definition.span)
    within = Within(mode_roles, (*caller.within.calls, definition.name), _generic(definition.params))
    return Scope({p: t for (p, _), t in zip(definition.params, types)}, within=within)


# The body a definition keeps in the IR. Checked with each call's types (and
# errors reported per call); if calls gave it different types (other cards,
# other zones), checked once more with their join, so that its types hold for
# every call and no pass trusts one call's types where another call's cards go.
def kept_define(ck: Checker, name: str) -> ir.Expr:
    joined = _joined(ck.defined.define_results, name)
    if joined is None:
        return ck.defined.define_bodies.get(name, ck.rs.defines[name].body)
    reported = len(ck.diag.items)
    body = define_body(ck, name, joined, Scope())
    del ck.diag.items[reported:]  # reported already, call by call
    return body


def kept_procedure(ck: Checker, name: str) -> ir.Block:
    joined = _joined(ck.defined.proc_checked, name)
    if joined is None:
        return ck.defined.proc_bodies.get(name, ck.rs.procedures[name].body)
    reported = len(ck.diag.items)
    body = procedure_body(ck, name, joined, Scope())
    del ck.diag.items[reported:]
    return body


def _joined(checked: Mapping[tuple[str, tuple[Type, ...]], object], name: str) -> list[Type] | None:
    """The join of each parameter's types over a definition's calls; None if it was checked for one call or none."""
    calls = [types for key, types in checked if key == name]
    if len(calls) < 2:
        return None
    return [functools.reduce(lambda a, b: join(a, b) or ANY, column) for column in zip(*calls)]


def same_kinds(ck: Checker, name: str, params: Params, types: Sequence[Type], span: Span | None) -> None:
    """A parameter takes zones in every call or in none: a definition is
    compiled once (plain programs call it), and a zone is held as its
    number while other values are held as themselves."""
    for (pname, _), ty in zip(params, types):
        if ty is ANY:
            continue
        first = ck.defined.zone_params.setdefault((name, pname), (isinstance(ty, ZoneT), span))
        if first[0] != isinstance(ty, ZoneT):
            where = f" (line {first[1].line})" if first[1] is not None else ""
            ck.error(span, f"'{pname}' of '{name}' is {'a zone' if first[0] else 'not a zone'} in another "
                           f"call{where}, and {ty} here",
                     "a parameter takes zones in every call or in none; write a second define or procedure")


def check_param_names(ck: Checker, params: Params, span: Span | None) -> None:
    for pname, _ in params:
        if ck.global_kind(pname):
            ck.error(span, f"parameter '{pname}' has the name of a {ck.global_kind(pname)}",
                     "pick another name so the rules stay unambiguous")


def _generic(params: Params) -> bool:
    """Whether a definition's parameters take their types from each call (untyped, or `zone`)."""
    return any(t is None or isinstance(t, ZoneT) for _, t in params)


def uncalled(declared: Type | None) -> Type:
    """A parameter's type in a definition no rule calls: as declared, or
    anything (a `zone` parameter too: its body is checked with the zones it is given)."""
    return ANY if declared is None or isinstance(declared, ZoneT) else declared


def _bound(declared: Type | None, given: Type | None) -> Type:
    """A parameter's type in the body. A declared `zone` says only that the
    argument is a zone: the body is checked against what that zone holds,
    like an untyped parameter's (a move into it, a card taken from it)."""
    if isinstance(declared, ZoneT):
        return given if isinstance(given, ZoneT) else ANY  # not a zone: reported at the call
    return declared or given or ANY


# ------------------------------------------------------------------ built-ins
def builtin(ck: Checker, e: ir.Call, scope: Scope) -> ir.Expr:
    """A call of a built-in, typed by its entry in the table (builtins.py)."""
    b = BUILTINS[e.name]
    context = ZoneT(ck.all_kinds) if b.params[:1] in (("zone",), ("zone-or-list",), ("board",)) else None
    args = tuple(expressions.expr(ck, a, scope, context if i == 0 else None) for i, a in enumerate(e.args[:1]))
    if b.params[1:2] == ("place",) and args and isinstance(args[0], ir.ZoneRef):  # a place of that board
        args += tuple(expressions.expr(ck, a, scope, EnumT(args[0].zone)) for a in e.args[1:2])
    args += tuple(expressions.expr(ck, a, scope) for a in e.args[len(args):])
    out = ir.BuiltinCall(e.name, args, span=e.span)
    if b.several and len(args) > 1:  # min(a, b, c)
        for a in args:
            if a.ty not in (INT, ANY):
                ck.error(a.span, f"{b.name}() compares numbers, not {a.ty}")
        return typed(out, INT)
    if len(args) != len(b.params):
        if b.params == ("list",):
            ck.error(e.span, f"{b.name}() takes a list" + (" or several numbers" if b.several else ""))
        else:
            n = len(b.params)
            ck.error(e.span, f"{b.name}() takes {n} argument{'s' if n != 1 else ''}, not {len(args)}")
        return typed(out, ANY if b.result in ("card", "zone", "zones", "lines") else RESULT[b.result])
    ok = all(builtin_argument(ck, b, kind, a) for kind, a in zip(b.params, args))
    if b.result == "card":  # top/bottom: a card of the types the zone holds
        zone = args[0].ty
        return typed(out, CardT(zone.kinds) if ok and isinstance(zone, ZoneT) else ANY)
    if b.result in ("zone", "zones", "lines"):  # a space of the board (or a list of them, or lists of them)
        first = args[0]
        if not ok or not isinstance(first.ty, (ZoneT, BoardT)):  # (not a zone: reported already)
            return typed(out, ANY)
        board = first.ty.board if isinstance(first.ty, ZoneT) else first.zone if isinstance(first, ir.ZoneRef) else None
        if b.result == "lines" and board is not None and ck.rs.zones[board].kind != "grid":
            ck.error(first.span, f"{b.name}() needs a grid: '{board}' is a graph, whose places lie in no rows")
        space = ZoneT(first.ty.kinds, board)
        return typed(out, space if b.result == "zone" else ListT(space) if b.result == "zones"
                     else ListT(ListT(space)))
    return typed(out, RESULT[b.result])


def builtin_argument(ck: Checker, b: Builtin, kind: str, a: ir.Expr) -> bool:
    """Report an argument of the wrong kind; True if it fits."""
    ty = a.ty
    if ty is ANY:
        return kind != "board"
    if kind == "zone-or-list":
        fits, want = isinstance(ty, (ZoneT, BoardT, ListT)), "a zone or a list"
    elif kind == "zone":
        fits, want = isinstance(ty, ZoneT), "a zone"
    elif kind == "number":
        fits, want = ty == INT, "a number"
        if not fits and b.name != "abs":
            ck.error(a.span, f"a space is found by its column and row (numbers), not {ty}")
            return False
    elif kind == "card":
        fits, want = isinstance(ty, CardT), "a card"
    elif kind == "card-or-space":  # column(x), row(x): a card on a grid, or a grid's space
        space = isinstance(ty, ZoneT) and ty.board is not None
        if isinstance(ty, ZoneT) and ty.board is not None and ck.rs.zones[ty.board].kind != "grid":
            ck.error(a.span, f"{b.name}() needs a grid: '{ty.board}' is a graph, whose places have no "
                             f"{b.name}s")
            return False
        fits, want = isinstance(ty, CardT) or space, "a card on a board or a space of a grid"
    elif kind == "list":
        item = BOOL if b.result == "bool" else INT
        fits, want = ListT(item).fits(type_of(a)), f"a list of {item}s"
    elif kind == "role":
        fits, want = ty == ROLE, "a player (a role)"
    elif kind == "space":
        fits, want = isinstance(ty, ZoneT) and ty.board is not None, "a space of a board"
    elif kind == "place":
        fits, want = isinstance(ty, EnumT), "a place of the graph"
    else:  # a board: a zone declared `kind: grid`, named directly
        if isinstance(a, ir.ZoneRef) and isinstance(ty, BoardT):
            return True
        grids = [z.name for z in ck.rs.zones.values() if z.board]
        ck.error(a.span, f"{b.name}() needs a board (a zone with `kind: grid` or `kind: graph`), not {ty}",
                 "boards: " + ", ".join(grids) if grids else "declare one with `kind: grid` or `kind: graph`")
        return False
    if not fits:
        ck.error(a.span, f"{b.name}() needs {want}, not {ty}")
    return fits
