"""What a list named by the rules holds, where its type does not say.

A list that starts empty (`let through = []`) has no type of item until it
is filled, and a procedure's untyped parameter takes the type of the
arguments it is called with (`team_roll_off(through)`): the checker types
the name by its first value, so the printed rules had no noun for its items
("for each Q among *left*"). Read here from every value the name is given
in the rules — its `let`, its assignments, the arguments of its calls — so
that they are "every player among *left*". A name given lists of different
things (or used so in two places) keeps no noun.
"""
from __future__ import annotations

from rulelang import ir
from rulelang.types import NONE, ListT
from rulelang.walk import walk


def list_item(rs: ir.Ruleset, domain: ir.Expr):
    """The type of the items of `domain` where it is a name whose type does not say it, or None."""
    if not isinstance(domain, ir.Local):
        return None
    kept = _FOUND.get(id(rs))
    if kept is None or kept[0] is not rs:
        if len(_FOUND) > 16:
            _FOUND.clear()
        kept = _FOUND[id(rs)] = (rs, _items(rs))
    return kept[1].get(domain.name)


_FOUND: dict[int, tuple[ir.Ruleset, dict[str, object]]] = {}  # by ruleset: its rules are read once


def _items(rs: ir.Ruleset) -> dict[str, object]:
    """Each name of the rules given lists -> the one type of item they hold (NONE for none known)."""
    given: dict[str, list[ir.Expr]] = {}
    roots = (rs, tuple(rs.procedures.values()), tuple(rs.defines.values()), tuple(rs.modes.values()))
    for node in walk(roots):
        if isinstance(node, ir.Let):
            given.setdefault(node.name, []).append(node.value)
        elif isinstance(node, ir.Assign) and isinstance(node.target, ir.Local) and node.op == "=":
            given.setdefault(node.target.name, []).append(node.value)
        elif isinstance(node, ir.CallProc) and node.name in rs.procedures:
            for (name, ty), arg in zip(rs.procedures[node.name].params, node.args):
                if ty is None:
                    given.setdefault(name, []).append(arg)
    found: dict[str, object] = {}
    for _ in range(len(given) + 1):  # a name given another name's value: until nothing changes
        before = dict(found)
        for name, values in given.items():
            items = {_item(v, found) for v in values} - {NONE}
            if len(items) == 1 and None not in items:
                found[name] = items.pop()
        if found == before:
            break
    return found


def _item(value: ir.Expr, found: dict[str, object]):
    """The type of a value's items: NONE where it says none (an empty list), None where it is no list."""
    if isinstance(value, ir.Local) and value.name in found:
        return found[value.name]
    if isinstance(value.ty, ListT):
        return value.ty.item
    return None
