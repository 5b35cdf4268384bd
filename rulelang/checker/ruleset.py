"""The check of a whole ruleset, in order: the definitions typed as declared,
the setup, each mode (its rules, scores, measures, rankings and watches), the
definitions no rule calls, the abilities; then the roles each mode reaches."""
from __future__ import annotations

import dataclasses

from .. import ir
from ..limits import DEFAULT, Limits
from ..types import ANY, BOOL, INT, ROLE, ListT, ZoneT
from ..walk import walk
from .abilities import check_abilities
from .calls import call_define, call_procedure, kept_define, kept_procedure, uncalled
from .context import Checker, Scope, Within
from .expressions import expect, expr
from .statements import block


def check(ruleset: ir.Ruleset, limits: Limits = DEFAULT) -> ir.Ruleset:
    """The ruleset with every name resolved and every expression typed; raise RulesetError listing every problem."""
    ck = Checker(ruleset, limits.nesting)
    result = check_ruleset(ck)
    ck.diag.raise_if_any()
    return result


def check_ruleset(ck: Checker) -> ir.Ruleset:
    rs = ck.rs
    top = Scope()
    # fully typed definitions are checked as declared (a `zone` parameter: with each zone it is given)
    for name, define in rs.defines.items():
        if all(t is not None and not isinstance(t, ZoneT) for _, t in define.params):
            call_define(ck, name, [t for _, t in define.params], define.span, top)
    for name, proc in rs.procedures.items():
        if all(t is not None and not isinstance(t, ZoneT) for _, t in proc.params):
            call_procedure(ck, name, [t for _, t in proc.params], proc.span, top)
    setup = block(ck, rs.setup, Scope())
    modes = {name: check_mode(ck, mode) for name, mode in rs.modes.items()}
    # defines and procedures never called with typed arguments are still resolved
    for name, define in rs.defines.items():
        if name not in ck.defined.define_bodies:
            call_define(ck, name, [uncalled(t) for _, t in define.params], define.span, top)
    for name, proc in rs.procedures.items():
        if name not in ck.defined.proc_bodies:
            call_procedure(ck, name, [uncalled(t) for _, t in proc.params], proc.span, top)
    defines = {n: dataclasses.replace(d, body=kept_define(ck, n)) for n, d in rs.defines.items()}
    procs = {n: dataclasses.replace(p, body=kept_procedure(ck, n)) for n, p in rs.procedures.items()}
    abilities = ck.abilities = check_abilities(ck)
    for mode in modes.values():
        roles_of_mode(ck, mode)
    return dataclasses.replace(rs, abilities=ir.frozen_map(abilities), setup=setup, modes=ir.frozen_map(modes),
                               defines=ir.frozen_map(defines), procedures=ir.frozen_map(procs),
                               notes=(*rs.notes, *ck.notes))


def check_mode(ck: Checker, mode: ir.Mode) -> ir.Mode:
    """A mode's rules, each with the mode's roles: no rule of it may name a role that does not play."""
    def scope() -> Scope:
        return Scope(within=Within(mode_roles=mode.roles))
    msetup = block(ck, mode.setup, scope())
    steps = tuple(dataclasses.replace(s, body=block(ck, s.body, scope())) for s in mode.round)
    score = {role: expect(ck, e, scope(), INT, "a score") for role, e in mode.score.items()}
    measures = {n: measure(ck, m, scope()) for n, m in mode.measures.items()}
    heuristics = {role: expect(ck, e, scope(), INT, "a heuristic") for role, e in mode.heuristics.items()}
    ranking = tuple(dataclasses.replace(k, values=ir.frozen_map(
        {role: expect(ck, e, scope(), INT, "a ranking key") for role, e in k.values.items()}))
        for k in mode.ranking)
    watches = tuple(dataclasses.replace(w, when=expect(ck, w.when, scope(), BOOL, "a watch's condition"),
                                        body=block(ck, w.body, scope())) for w in mode.watches)
    turns = mode.turns
    if turns is not None and turns.order is not None:
        turns = dataclasses.replace(turns, order=expect(ck, turns.order, scope(), ListT(ROLE), "the turn order"))
    return dataclasses.replace(mode, setup=msetup, round=steps, score=ir.frozen_map(score),
                               measures=ir.frozen_map(measures), heuristics=ir.frozen_map(heuristics),
                               ranking=ranking, watches=watches, turns=turns)


def measure(ck: Checker, m: ir.Measure, scope: Scope) -> ir.Measure:
    value = expr(ck, m.value, scope)
    if value.ty not in (INT, BOOL, ANY):
        ck.error(m.value.span, f"a measure is a number or true/false, not {value.ty}")
    when = expect(ck, m.when, scope, BOOL, "a measure's `when:`") if m.when is not None else None
    return dataclasses.replace(m, value=value, when=when)


def roles_of_mode(ck: Checker, mode: ir.Mode) -> None:
    """Every role the mode's rules can reach — through its procedures, defines
    and variables too — plays in the mode: nothing at run time can ask a
    decision of, or read the zone of, a player who is not at the table."""
    seen_calls: set[str] = set()
    used_vars: set[str] = set()
    todo: list[object] = [mode.setup, tuple(s.body for s in mode.round), tuple(w.body for w in mode.watches),
                          tuple(mode.score.values()), tuple(mode.heuristics.values()), ck.rs.setup,
                          tuple(e for k in mode.ranking for e in k.values.values())]
    while todo:
        for node in walk(todo.pop()):
            if isinstance(node, ir.RoleRef) and node.role not in mode.roles:
                ck.error(node.span, f"role '{node.role}' does not play in mode '{mode.name}'",
                         f"the roles of this mode: {', '.join(mode.roles)}")
            elif isinstance(node, ir.Var):
                used_vars.add(node.name)
            elif isinstance(node, ir.Trigger) and "on:" + node.event not in seen_calls:
                seen_calls.add("on:" + node.event)
                todo += [(a.body, a.where, a.optional) for a in ck.abilities.values() if a.on == node.event]
            elif isinstance(node, (ir.DefineCall, ir.CallProc)) and node.name not in seen_calls:
                seen_calls.add(node.name)
                body = ck.defined.define_bodies.get(node.name) if isinstance(node, ir.DefineCall) \
                    else ck.defined.proc_bodies.get(node.name)
                if body is not None:
                    todo.append(body)
    for name in sorted(used_vars):
        var = ck.rs.vars[name]
        if var.type == ROLE and var.initial is not None and var.initial not in mode.roles:
            ck.error(var.span, f"'{name}' starts as {var.initial}, who does not play in mode '{mode.name}'")
