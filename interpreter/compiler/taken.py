"""A card just chosen from a zone's list held in a local is taken off that list, not looked up again.

A decision over the cards of one zone (`p chooses c in hand of p where ...`)
lists its options from the zone's list, held in a local (`d52`); its answer
is one of them. When the move that follows takes the card off its zone, the
zone is that list: nothing in between can have moved the card.

    d52 = zones[k10[v45]]                   # Oh Hell's trick, a card played
    out50 = []
    ... for v55 in d52: ... out50.append(v55) ...
    v111 = out50[i62]
    ...
    d52.remove(v111)                        # was: zones[where[v111]].remove(v111)

Where the decision was answered by the engine and play resumes (its own block,
the card read back from the frame), nothing is known and the card is looked up.

Done on the code as written (after copies.py, before held.py), a function at a
time, only where every statement from the list's read to the move is one the
pass knows moves no card: its calls are of the queries (pure), the agent's
answer, the decision's own records, and the appends that list the options.
"""
from __future__ import annotations

import ast
import re

from .copies import _names
from .pycode import LOAD, Nested, note, note_of, parts

_SCOPES = (Nested, ast.FunctionDef, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_BLOCKS = ("body", "orelse", "finalbody")
# calls that move no card: the decision's records, a failure, pure builtins, the lifted queries
# (`q56`: an expression's function) and a quick agent's answer (`answer61`: given no state)
_HARMLESS = frozenset({"_fail", "_decision", "_decided", "len", "zip", "list", "tuple"})
_PURE = re.compile(r"(q|answer)\d+")
_STATE = frozenset({"zones", "where"})


def taken_from_known(body: list[ast.stmt], shared: tuple[str, ...] = ()) -> list[ast.stmt]:
    """A function's statements with each move of a card just chosen from a zone's held list taking it
    off that list. `shared`: the names it declares nonlocal (never these)."""
    stores, inner, _ = _names(body)
    inner |= set(shared)
    once = {n for n, k in stores.items() if k == 1 and n not in inner}
    return _block(body, once)


def _block(stmts: list, once: set[str]) -> list:
    out = list(stmts)
    changed = False
    for r, s in enumerate(stmts):
        card = _removed(s)
        if card is not None and card in once:
            held = _held_list(stmts, r, card, once)
            if held is not None:
                out[r] = note(ast.Expr(ast.Call(ast.Attribute(ast.Name(held, LOAD), "remove", LOAD),
                                                [ast.Name(card, LOAD)], [])), note_of(s))
                changed = True
                continue
        if any(getattr(s, f, None) for f in _BLOCKS) and type(s) not in _SCOPES:
            made = s.__class__.__new__(s.__class__)
            made.__dict__.update(s.__dict__)
            for f in _BLOCKS:
                value = getattr(s, f, None)
                if value:
                    setattr(made, f, _block(value, once))
            if any(getattr(made, f, None) is not getattr(s, f, None) for f in _BLOCKS):
                out[r] = made
                changed = True
    return out if changed else stmts


def _removed(s: ast.stmt) -> str | None:
    """V, if the statement is `zones[where[V]].remove(V)`."""
    if type(s) is not ast.Expr or type(s.value) is not ast.Call:
        return None
    call = s.value
    f = call.func
    if type(f) is not ast.Attribute or f.attr != "remove" or len(call.args) != 1 or call.keywords \
            or type(call.args[0]) is not ast.Name:
        return None
    v = call.args[0].id
    z = f.value
    if type(z) is ast.Subscript and _is(z.value, "zones") and type(z.slice) is ast.Subscript \
            and _is(z.slice.value, "where") and _is(z.slice.slice, v):
        return v
    return None


def _is(node, name: str) -> bool:
    return type(node) is ast.Name and node.id == name


def _held_list(stmts: list, r: int, card: str, once: set[str]) -> str | None:
    """D, if `card` was chosen among options listed from the zone list D in these statements
    before stmts[r], and nothing from D's read to stmts[r] can have moved a card."""
    c = next((i for i in range(r - 1, -1, -1) if _assigns(stmts[i], card)), None)
    if c is None:
        return None
    value = stmts[c].value
    if type(value) is not ast.Subscript or type(value.value) is not ast.Name or type(value.slice) is not ast.Name:
        return None
    options = value.value.id
    b = next((i for i in range(c) if _assigns(stmts[i], options)), None)
    if options not in once or b is None or not (type(stmts[b].value) is ast.List and not stmts[b].value.elts):
        return None
    # the list the options come from: a zone's, read once before the answer (_harmless checks that
    # every option added is one of its items, added after it is read)
    held = next((a for a in range(c - 1, -1, -1) if _zone_read(stmts[a]) in once), None)
    if held is None:
        return None
    d = stmts[held].targets[0].id
    # (from the first of the two reads; options added before the zone's list is read are not its items)
    between = [(stmts[held].value, "")] + [(stmts[i], d if i > held else "")
                                           for i in range(min(held, b), r) if i != held]
    return d if all(_harmless(s, options, items, set()) for s, items in between) else None


def _assigns(s: ast.stmt, name: str) -> bool:
    return type(s) is ast.Assign and len(s.targets) == 1 and _is(s.targets[0], name)


def _zone_read(s: ast.stmt) -> str | None:
    """D, if the statement is `D = zones[X]`."""
    if type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name \
            and type(s.value) is ast.Subscript and _is(s.value.value, "zones"):
        return s.targets[0].id
    return None


def _harmless(node, options: str, d: str, from_d: set[str]) -> bool:
    """Whether the code moves no card and changes no zone list, and adds to `options` only items of
    the zone list `d` (`options.extend(d)`, or `options.append(y)` in `for y in d`)."""
    kind = type(node)
    if kind in _SCOPES:
        return False
    if kind is ast.For:
        inner = from_d | {node.target.id} if type(node.target) is ast.Name and _is(node.iter, d) else from_d
        if not _harmless(node.target, options, d, from_d) or not _harmless(node.iter, options, d, from_d):
            return False
        return all(_harmless(s, options, d, inner) for s in (*node.body, *node.orelse))
    if kind is ast.Delete:
        return False
    if kind is ast.Name:
        return not (type(node.ctx) is not ast.Load and (node.id in _STATE or node.id == d or node.id in from_d))
    if kind in (ast.Subscript, ast.Attribute) and type(node.ctx) is not ast.Load:
        target = node.value
        if (type(target) is ast.Name and (target.id in _STATE or target.id in (d, options))) \
                or (kind is ast.Attribute and node.attr in _STATE):
            return False
    if kind is ast.Call:
        f = node.func
        if type(f) is ast.Name:
            ok = f.id in _HARMLESS or _PURE.fullmatch(f.id) is not None
        elif type(f) is ast.Attribute and _is(f.value, options):
            arg = node.args[0] if len(node.args) == 1 else None
            ok = type(arg) is ast.Name and (f.attr == "extend" and arg.id == d or f.attr == "append" and arg.id in from_d)
        elif type(f) is ast.Attribute and f.attr == "append" and type(f.value) is ast.Attribute \
                and f.value.attr == "events" and _is(f.value.value, "st"):
            ok = True
        else:
            ok = False
        if not ok:
            return False
    return all(_harmless(child, options, d, from_d) for child in _children(node))


def _children(node):
    for f in parts(node):
        value = getattr(node, f, None)
        if type(value) is list:
            yield from (v for v in value if isinstance(v, ast.AST))
        elif isinstance(value, ast.AST):
            yield value
