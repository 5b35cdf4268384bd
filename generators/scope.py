"""What one mode uses, so that its rules print nothing else.

A mode's setup may return card types to the box (`move all c in trial_deck
where c is trial_modifier to box`): those types are *retired* in that mode,
and the setup statements that only move retired cards, the mode's own
returning included, are not printed for it. From what is left (the setup,
the steps, the watches, the score) the zones, options, variables, card
types, terms and rulings the mode uses are read off the rules; the agents'
`heuristics:` are not rules and count only for the appendix.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from rulelang import ir
from rulelang.walk import walk

from .normalize import split_type_tests


@dataclass(frozen=True)
class Usage:
    modes: tuple[ir.Mode, ...]
    setup: ir.Block  # the shared setup as printed
    mode_setups: dict  # mode name -> its own setup as printed
    kinds: tuple[str, ...]  # card types in play
    zones: tuple[str, ...]
    params: tuple[str, ...]
    vars: tuple[str, ...]
    rulings: tuple[ir.Ruling, ...]
    abilities: tuple[str, ...] = ()  # the abilities that answer an event the rules trigger
    dice: tuple[str, ...] = ()  # the dice the rules roll


def usage(rs: ir.Ruleset, modes: list[ir.Mode]) -> Usage:
    """What `modes` use (one mode: only its own; several: everything any of them uses)."""
    retired = _retired(modes[0]) if len(modes) == 1 else set()
    setup = _prune(rs.setup, retired)
    mode_setups = {m.name: _prune(m.setup, retired) for m in modes}
    roots = [setup, *mode_setups.values()]
    for m in modes:
        roots += [s.body for s in m.round] + [w.body for w in m.watches] + [w.when for w in m.watches]
        roots += list(m.score.values()) + [tuple(k.values.values()) for k in m.ranking]
    found = reached(rs, roots)
    kinds = tuple(k for k in rs.card_types if k not in retired)
    zones = tuple(z for z in rs.zones if z in found)
    return Usage(tuple(modes), setup, mode_setups, kinds, zones, tuple(p for p in rs.params if p in found),
                 tuple(v for v in rs.vars if v in found), tuple(r for r in rs.rulings if _applies(r, modes, rs)),
                 tuple(a for a in rs.abilities if ABILITY + a in found),
                 tuple(d for d in rs.dice if DIE + d in found))


ABILITY, DIE = "ability ", "die "  # how `reached` records them among the names (no name has a space)


def reached(rs: ir.Ruleset, roots) -> set[str]:
    """The names of every zone, option, variable, define and procedure the roots refer to,
    through the defines and procedures they call."""
    found: set[str] = set()
    todo = list(roots)
    while todo:
        for node in walk(todo.pop()):
            name = _name(node)
            if name is None or name in found:
                continue
            found.add(name)
            if isinstance(node, ir.DefineCall):
                todo.append(rs.defines[name].body)
            elif isinstance(node, ir.CallProc):
                todo.append(rs.procedures[name].body)
            elif isinstance(node, ir.Trigger):  # the abilities that answer it, and what they do
                for a in rs.abilities.values():
                    if a.on == node.event and ABILITY + a.name not in found:
                        found.add(ABILITY + a.name)
                        todo.append((a.body, a.where, a.optional))
    return found


def _name(node) -> str | None:
    if isinstance(node, ir.ZoneRef):
        return node.zone
    if isinstance(node, (ir.Param, ir.Var, ir.DefineCall, ir.CallProc)):
        return node.name
    if isinstance(node, ir.Trigger):
        return f"{node.event} {'window' if node.window else 'trigger'}"
    if isinstance(node, ir.Roll):
        return DIE + node.die
    return None


def _retired(mode: ir.Mode) -> set[str]:
    """Card types the mode's setup returns to the box, all of them, whatever came before."""
    retired = set()
    for s in mode.setup:
        if isinstance(s, ir.Move) and s.every is not None and s.every.where is not None \
                and isinstance(s.dest, ir.ZoneRef) and s.dest.zone == "box":
            retired |= _kinds(s)
    return retired


def _kinds(s: ir.Stmt) -> set[str]:
    """The card types a move moves, where its binder names them."""
    if not isinstance(s, ir.Move) or s.every is None:
        return set()
    tests, rest = split_type_tests(s.every)
    return {t.kind for t in tests} if tests and not rest else set()


def _prune(block: ir.Block, retired: set[str]) -> ir.Block:
    """The statements that do something with cards still in play (an `if` left empty goes too)."""
    kept = []
    for s in block:
        if retired and _kinds(s) and _kinds(s) <= retired:
            continue
        if isinstance(s, ir.If):
            branches = tuple((c, _prune(b, retired)) for c, b in s.branches)
            otherwise = _prune(s.otherwise, retired) if s.otherwise is not None else None
            if not any(b for _, b in branches) and not otherwise:
                continue
            if all(b for _, b in branches):
                s = replace(s, branches=branches, otherwise=otherwise or None)
        kept.append(s)
    return tuple(kept)


def ruling_modes(r: ir.Ruling, rs: ir.Ruleset) -> list[ir.Mode]:
    """The modes a ruling applies to: those it names, else those with a step it names, else all."""
    named = [m for m in rs.modes.values() if m.name in r.applies_to or m.title in r.applies_to]
    if named:
        return named
    stepped = [m for m in rs.modes.values() if any(s.name in r.applies_to for s in m.round)]
    return stepped or list(rs.modes.values())


def ruling_steps(r: ir.Ruling, rs: ir.Ruleset) -> list[str]:
    """The steps a ruling names (the setup too)."""
    steps = {s.name for m in rs.modes.values() for s in m.round} | {"setup"}
    return [a for a in r.applies_to if a in steps]


def _applies(r: ir.Ruling, modes: list[ir.Mode], rs: ir.Ruleset) -> bool:
    return any(m in modes for m in ruling_modes(r, rs))


def deciders(rs: ir.Ruleset, mode: ir.Mode) -> set[str]:
    """The roles that make a decision somewhere in a mode's rules (an automated role makes none)."""
    found: set[str] = set()
    seen: set[str] = set()
    todo = [rs.setup, mode.setup, *(s.body for s in mode.round), *(w.body for w in mode.watches)]
    while todo:
        for node in walk(todo.pop()):
            if isinstance(node, (ir.Choose, ir.Menu)):
                found |= {node.role.role} if isinstance(node.role, ir.RoleRef) else set(mode.roles)
            elif isinstance(node, ir.CallProc) and node.name not in seen:
                seen.add(node.name)
                todo.append(rs.procedures[node.name].body)
    return found
