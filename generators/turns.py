"""A step that is each player's turn: the turn said under the step, not under Terms, where the turn is a
procedure nothing else calls ("For every player, in turn clockwise from the start player, that player takes
a turn:" and its rules), as a rulebook lays out its round."""
from __future__ import annotations

from dataclasses import replace

from rulelang import ir
from rulelang.types import ROLE
from rulelang.walk import walk

from .calls import template
from .document import Item
from .english import Context, block, inside, nested, slots
from .flow import every_rule
from .normalize import normal_binder, substitute
from .phrases import words as seq
from .quantifiers import ordering
from .scope import reached
from .statements import introduce


def turns_in_place(ctx: Context, s: ir.For) -> list[Item] | None:
    """A step that is each player's turn, "For every player, …, that player takes a turn:", with the turn
    said under it (not under Terms), when the turn is a procedure nothing else calls; else None."""
    d = s.binder.groups[0].domain
    if not (len(s.binder.names) == 1 and (s.binder.types == (ROLE,) or isinstance(d, ir.BuiltinCall)
                                          and d.name in ("players", "clockwise"))):
        return None
    proc = _said_in_place(ctx.rs, s.body)
    call = s.body[0]
    if proc is None or proc.text is None or not isinstance(call, ir.CallProc):
        return None
    s = replace(s, binder=normal_binder(s.binder, ctx.rs))
    inner = inside(ctx, s.binder)
    args = {p: a for (p, _), a in zip(proc.params, call.args)}
    each = slots(ctx, "for ", introduce(ctx, s.binder, "every"), ordering(ctx, s.binder), ", ")
    return [nested(inner, seq(each, template(inner, proc.text, args, False)),
                   block(inner, tuple(substitute(st, args) for st in proc.body)))]


def _said_in_place(rs: ir.Ruleset, body: ir.Block) -> ir.Procedure | None:
    """The procedure a body calls and nothing else, when nothing else calls it and it does not call itself."""
    if not (len(body) == 1 and isinstance(body[0], ir.CallProc)):
        return None
    proc = rs.procedures[body[0].name]
    if not proc.text or proc.name in reached(rs, [proc.body]):
        return None
    calls = sum(1 for n in walk(every_rule(rs)) if isinstance(n, ir.CallProc) and n.name == proc.name)
    return proc if calls == 1 else None
