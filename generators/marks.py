"""Who played a card: a card state the rules keep so that the machine remembers, said as players know it.

A trick-taking game marks each card played with the player who played it
(`c.player = p`, right after `move c to trick` in `p chooses c …`) so that
the winner of the trick can be found later. At the table no one writes
anything on a card: everyone saw who played it. So a card state is a
**mark** when it holds a player and every assignment to it, anywhere in the
rules, is that one: in the body of a choice, after the chosen card is
moved, set to the player who chose it. A mark is never printed as a
statement nor among what a card "also keeps"; reading it is "the player who
played the winning card" (a card chosen from the chooser's own hand and
moved is played; any other is "the player who chose …").
"""
from __future__ import annotations

from rulelang import ir
from rulelang.types import ROLE
from rulelang.walk import walk


def marks(rs: ir.Ruleset) -> dict[str, str]:
    """Each card state that is a mark -> the verb its reading takes ("played" or "chose")."""
    kept = _FOUND.get(id(rs))
    if kept is None or kept[0] is not rs:
        if len(_FOUND) > 16:
            _FOUND.clear()
        kept = _FOUND[id(rs)] = (rs, _marks(rs))
    return kept[1]


def is_mark(rs: ir.Ruleset, s: ir.Stmt) -> bool:
    """`s` sets a mark (a statement no player carries out)."""
    return isinstance(s, ir.Assign) and isinstance(s.target, ir.Field) and s.target.name in marks(rs)


_FOUND: dict[int, tuple[ir.Ruleset, dict[str, str]]] = {}  # by ruleset: its rules are read once


def _marks(rs: ir.Ruleset) -> dict[str, str]:
    states: dict[str, bool] = {}  # state name -> held as a player on every card type that keeps it
    for ct in rs.card_types.values():
        for f in ct.state:
            states[f.name] = states.get(f.name, True) and f.type == ROLE
    candidates = {name for name, role in states.items() if role}
    if not candidates:
        return {}
    roots = (rs, tuple(rs.procedures.values()), tuple(rs.defines.values()), tuple(rs.modes.values()))
    good: dict[int, str] = {}  # id of an assignment that marks a chosen card -> its verb
    sets: dict[str, list[ir.Assign]] = {}
    for node in walk(roots):
        if isinstance(node, ir.Choose):
            good.update(_marking(node, candidates))
        elif isinstance(node, ir.Assign) and isinstance(node.target, ir.Field) and node.target.name in candidates:
            sets.setdefault(node.target.name, []).append(node)
    found: dict[str, str] = {}
    for name, assigns in sets.items():
        verbs = {good.get(id(a)) for a in assigns}
        if None not in verbs:
            found[name] = "played" if verbs == {"played"} else "chose"
    return found


def _marking(c: ir.Choose, candidates: set[str]) -> dict[int, str]:
    """The assignments in a choice's body that mark the chosen card with the chooser, after it moves."""
    b = c.binder
    if len(b.names) != 1:
        return {}
    card = ir.Local(b.names[0])
    domain = b.groups[0].domain
    own_hand = isinstance(domain, ir.ZoneRef) and domain.owner == c.role
    out: dict[int, str] = {}
    moved = False
    for s in c.body:
        if isinstance(s, ir.Move) and card in s.cards:
            moved = True
        elif moved and isinstance(s, ir.Assign) and isinstance(s.target, ir.Field) and s.target.obj == card \
                and s.op == "=" and s.target.name in candidates and s.value == c.role:
            out[id(s)] = "played" if own_hand else "chose"
    return out
