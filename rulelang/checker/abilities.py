"""Abilities and the events they answer: each ability's rules with `this` a
card that carries it, `trigger` and `window` statements, and no event that
triggers itself again through its own abilities."""
from __future__ import annotations

import dataclasses

from .. import ir
from ..abilities import ABILITY_TYPE, carriers
from ..errors import did_you_mean
from ..types import ANY, BOOL, ROLE, CardT
from ..walk import walk
from .calls import check_param_names
from .context import Checker, Scope, type_of
from .expressions import expect, expr, role
from .statements import STATEMENTS, block


def check_abilities(ck: Checker) -> dict[str, ir.Ability]:
    """Each ability's rules, with `this` a card that carries it and the
    event's parameters; then no event may (through its abilities) trigger
    itself again."""
    checked = {}
    for a in ck.rs.abilities.values():
        event = ck.rs.events[a.on]
        kinds = frozenset(ck.rs.cards[c].kind for c in carriers(ck.rs, a.name))
        if not kinds:
            ck.error(a.span, f"no card carries ability '{a.name}'",
                     f"name it in a card type's `abilities:`, or in a table column of type `{ABILITY_TYPE}`")
        scope = Scope({"this": CardT(kinds or ck.all_kinds), **{p: t or ANY for p, t in event.params}})
        check_param_names(ck, (("this", None), *event.params), a.span)
        where = expect(ck, a.where, scope, BOOL, "an ability's `where:`") if a.where is not None else None
        optional = role(ck, a.optional, scope) if a.optional is not None else None
        checked[a.name] = dataclasses.replace(a, where=where, optional=optional,
                                              body=block(ck, a.body, scope.child()))
    no_trigger_cycle(ck, checked)
    return checked


def no_trigger_cycle(ck: Checker, abilities: dict[str, ir.Ability]) -> None:
    """An event whose abilities trigger it again (through other events and
    procedures too) would never end: a located error at the trigger."""
    raises: dict[str, list[ir.Trigger]] = {}  # event -> the triggers its abilities reach
    for a in abilities.values():
        todo: list[ir.Block] = [a.body]
        seen: set[str] = set()
        while todo:
            for node in walk(todo.pop()):
                if isinstance(node, ir.Trigger):
                    raises.setdefault(a.on, []).append(node)
                elif isinstance(node, ir.CallProc) and node.name not in seen:
                    seen.add(node.name)
                    todo.append(ck.defined.proc_bodies.get(node.name, ()))

    def path(start: str, event: str, visited: set[str]) -> ir.Trigger | None:
        for t in raises.get(event, ()):
            if t.event == start:
                return t
            if t.event not in visited:
                visited.add(t.event)
                found = path(start, t.event, visited)
                if found is not None:
                    return found
        return None
    for event in sorted(raises):
        closing = path(event, event, {event})
        if closing is not None:
            ck.error(closing.span, f"event '{event}' can trigger itself again through its abilities, "
                                   "without end", "trigger it from the rules, not from what answers it")
            return


@STATEMENTS.on(ir.Trigger)
def trigger(ck: Checker, s: ir.Trigger, scope: Scope) -> ir.Stmt:
    event = ck.rs.events.get(s.event)
    if event is None:
        ck.error(s.span, f"unknown event '{s.event}'", did_you_mean(s.event, ck.rs.events)
                 or "declare it under `events:`")
        return s
    if len(s.args) != len(event.params):
        ck.error(s.span, f"event '{s.event}' takes {len(event.params)} argument"
                         f"{'s' if len(event.params) != 1 else ''}, not {len(s.args)}")
        return s
    args = tuple(expr(ck, a, scope, t) for a, (_, t) in zip(s.args, event.params))
    for a, (p, t) in zip(args, event.params):
        if t is not None and not t.fits(type_of(a)):
            ck.error(a.span, f"argument '{p}' of event '{s.event}' must be {t}, but this is {a.ty}")
    if s.window and not any(t == ROLE for _, t in event.params):
        ck.error(s.span, f"a window is offered to a player: event '{s.event}' needs a parameter of type role",
                 f"e.g. `events: {{{s.event}(role p): ...}}`")
    return dataclasses.replace(s, args=args)
