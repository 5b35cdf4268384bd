"""A card looked at on top of a zone and moved at once: taken off the end of that zone's list.

`let c = top(action_deck)` then `move c to hand` (Twenty Trials' draw) is written as a look at
the zone's last card, a test that there was one, and a move that searches the card's zone
for it:

    v107 = t38[-1] if (t38 := zones[2]) else None     # was the same, then
    if v107 is None:                                    #   the same test, then
        _fail(k24)                                      #   zones[where[v107]].remove(v107):
    zones[2].pop()                                      #   a search of the whole deck

Where nothing stands between the look and the move but that test, a copy of the card (`c3 =
v107`) or another look at the same zone, no rule has moved a card: the card is still the last
(or, for `bottom`, the first) of the zone it was seen in, where `where` says it is, and a card
is in one place once. A second look at the same zone in that run is a copy of the first
(`let c = top(deck)` and a procedure's own `let c = top(deck)`): copies.py then reads it as
the first. Where only copies and the test stand between, the card is taken off at the look,
after a test of the zone instead (`if not zones[2]: _fail(k24)`, `v107 = zones[2].pop()`):
nothing between reads the zone. Done on the code as written (unit.py, with held.py), a
function at a time.

Likewise the cards of a decision a quick agent answered at once (blocks.suspend), where its
names came from a zone (`a, b in hand`: each a different card of the hand, listed just
before): the code that goes on (merge.py) moves them before any other card moves, so each is
taken off that zone's list (`zones[7].remove(c)`), not the one `where` names, and not turned
where every card of that zone lies as it does and it goes to one that lies alike (`known_zones`).
Not in the block a decision answered later resumes at: its names were bound from options
that code outside the rules may have outdated since (`arrange`, a save).
"""
from __future__ import annotations

import ast

from .pycode import BLOCKS, LOAD, EnvRef, Nested, note, note_of

_SCOPES = (Nested, ast.FunctionDef, ast.Lambda)


def taken_off(stmts: list) -> list:
    """The statements (and those inside them, not inside nested functions) with each card moved
    just after it was looked at on top (or bottom) of a zone taken off that end of the zone."""
    out, changed, i = [], False, 0
    while i < len(stmts):
        s = stmts[i]
        seen = _look(s)
        if seen is not None:
            run, i, made_any = _run(stmts, i, seen)
            changed = changed or made_any
            out += run
            continue
        inner = {f: taken_off(v) for f in BLOCKS if type(v := getattr(s, f, None)) is list and v} \
            if type(s) not in _SCOPES else {}
        inner = {f: v for f, v in inner.items() if v is not getattr(s, f)}
        if inner:
            made = s.__class__.__new__(s.__class__)
            made.__dict__.update(s.__dict__)
            made.__dict__.update(inner)
            s, changed = made, True
        out.append(s)
        i += 1
    return out if changed else stmts


def _look(s) -> tuple[str, int, int] | None:
    """(the card's local, the zone's index, the end: -1 or 0) of `v = t[END] if (t := zones[N]) else
    None`, N a constant: the same list for the game's life, whatever the code sets."""
    if type(s) is not ast.Assign or len(s.targets) != 1 or type(s.targets[0]) is not ast.Name:
        return None
    v = s.value
    if type(v) is not ast.IfExp or type(v.test) is not ast.NamedExpr or type(v.body) is not ast.Subscript \
            or type(v.orelse) is not ast.Constant or v.orelse.value is not None:
        return None
    t, zone, end = v.test.target.id, _fixed_zone(v.test.value), _end(v.body.slice)
    if end is None or zone is None or type(v.body.value) is not ast.Name or v.body.value.id != t:
        return None
    return s.targets[0].id, zone, end


def _end(e) -> int | None:
    if type(e) is ast.Constant and e.value in (0, -1) and type(e.value) is int:
        return e.value
    if type(e) is ast.UnaryOp and type(e.op) is ast.USub and type(e.operand) is ast.Constant and e.operand.value == 1:
        return -1
    return None


def _fixed_zone(e) -> int | None:
    """N of `zones[N]`, N a constant."""
    if type(e) is ast.Subscript and type(e.value) is ast.Name and e.value.id == "zones" \
            and type(e.slice) is ast.Constant and type(e.slice.value) is int:
        return e.slice.value
    return None


def _run(stmts: list, i: int, seen: tuple[str, int, int]) -> tuple[list, int, bool]:
    """The look at stmts[i] and what follows it while no card can have moved, with the move of
    the card looked at (or a copy of it) made a pop; the index after them; whether any changed."""
    card, zone, end = seen
    names, changed = {card}, False  # the locals holding the card
    tested: int | None = None  # where `out` tests that the card is not none
    only_copies = True  # nothing but copies and tests between: no statement reads the zone there
    out = [stmts[i]]
    i += 1
    while i < len(stmts):
        s = stmts[i]
        again = _look(s)
        if again is not None and again[1:] == (zone, end):
            copy = note(ast.Assign([ast.Name(again[0], ast.Store())], ast.Name(card, LOAD)), note_of(s))
            names.add(again[0])
            out.append(copy)
            changed = True
        elif type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name \
                and type(s.value) is ast.Name and s.value.id in names and s.targets[0].id not in names:
            names.add(s.targets[0].id)
            out.append(s)
        elif _tests_none(s, names):
            tested = len(out) if tested is None else tested
            out.append(s)
        elif _harmless(s, names):
            only_copies = False
            out.append(s)
        elif tested is not None and _removes(s, names):
            pop = _pop(zone, end)
            if only_copies:  # the test asks the zone, the look pops: one look at the list, not two
                test = out.pop(tested)
                empty = ast.If(ast.UnaryOp(ast.Not(), _zone(zone)), test.body, [])
                rule = next(filter(None, map(note_of, [test, *reversed(out[1:tested])])), None)  # (or its move's copy's)
                taken = ast.Assign([ast.Name(card, ast.Store())], pop)
                return [note(empty, rule), note(taken, note_of(out[0])), *out[1:]], i + 1, True
            out.append(note(ast.Expr(pop), note_of(s)))
            return out, i + 1, True
        else:
            break
        i += 1
    return out, i, changed


def known_zones(stmts: list, placed: dict[str, tuple[int, bool | None]]) -> list:
    """The statements with each card of `placed` (the frame's key of a name -> the zone it is in and,
    where every card there lies as the zone's do, how: each a different card) taken off that zone's
    list where it is moved, and not turned where it is laid as it lies, up to the first statement
    that may move another card or is not understood."""
    placed, holders = dict(placed), dict[str, str]()  # holders: a Python local -> its key
    lying: dict[str, bool] = {}  # a card taken off (its local) -> how it lies, known
    out, changed = [], False
    for i, s in enumerate(stmts):
        turned = _turned(s)
        if type(s) is ast.Assign and len(s.targets) == 1 and type(s.targets[0]) is ast.Name \
                and type(s.value) is EnvRef and s.value.key in placed:
            holders[s.targets[0].id] = s.value.key  # (`c96 = env[k17]`, read from its Python local once aliased)
            lying.pop(s.targets[0].id, None)
        elif _removes(s, set(holders)):
            card = s.value.args[0].id
            key = holders.pop(card)
            zone, lies = placed.pop(key)
            remove = ast.Call(ast.Attribute(_zone(zone), "remove", LOAD), [ast.Name(card, LOAD)], [])
            s, changed = note(ast.Expr(remove), note_of(s)), True
            holders = {h: k for h, k in holders.items() if k != key}
            if lies is not None:
                lying[card] = lies
        elif turned is not None and lying.get(turned[0]) is turned[1] and note_of(s) is None:
            changed = True  # (laid as it lies)
            continue
        elif _tests_none(s, set(holders)) or _placing(s, set(holders)):
            for t in s.targets if type(s) is ast.Assign else [s.target] if type(s) is ast.AugAssign else ():
                if type(t) is ast.Subscript and type(t.value) is ast.Name and t.value.id == "face":  # (turned)
                    lying.clear()
                elif type(t) is ast.Name:  # (another card in the local)
                    lying.pop(t.id, None)
        else:
            out += stmts[i:]
            break
        out.append(s)
    return out if changed else stmts


def _turned(s) -> tuple[str, object] | None:
    """(c, V) of `face[c] = V`, V a constant."""
    if type(s) is ast.Assign and len(s.targets) == 1 and type(t := s.targets[0]) is ast.Subscript \
            and type(t.value) is ast.Name and t.value.id == "face" and type(t.slice) is ast.Name \
            and type(s.value) is ast.Constant:
        return t.slice.id, s.value.value
    return None


def _placing(s, holders: set[str]) -> bool:
    """What moves no card but one taken off its zone: a value that calls nothing set in a local (no
    holder), an attribute (`st.at = 16`) or a card's place or facing (`where[c] = 4`);
    `zones[N].append(c)` (or `insert`), c no holder."""
    if type(s) in (ast.Assign, ast.AugAssign):
        targets = s.targets if type(s) is ast.Assign else [s.target]
        return all(type(t) is ast.Name and t.id not in holders or type(t) is ast.Attribute
                   or type(t) is ast.Subscript and type(t.value) is ast.Name and t.value.id in ("where", "face")
                   for t in targets) and not any(type(n) is ast.Call for t in (*targets, s.value) for n in ast.walk(t))
    if type(s) is not ast.Expr or type(call := s.value) is not ast.Call or type(call.func) is not ast.Attribute \
            or call.func.attr not in ("append", "insert") or type(zone := call.func.value) is not ast.Subscript \
            or type(zone.value) is not ast.Name or zone.value.id != "zones":
        return False
    return all(type(n) is not ast.Call and not (type(n) is ast.Name and n.id in holders)
               for a in call.args for n in ast.walk(a)) and not any(type(n) is ast.Call for n in ast.walk(zone.slice))


def _zone(zone: int) -> ast.Subscript:
    return ast.Subscript(ast.Name("zones", LOAD), ast.Constant(zone), LOAD)


def _pop(zone: int, end: int) -> ast.Call:
    return ast.Call(ast.Attribute(_zone(zone), "pop", LOAD), [] if end == -1 else [ast.Constant(0)], [])


_READS = (ast.Name, ast.Constant, ast.Subscript, ast.Attribute, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare,
          ast.IfExp, ast.NamedExpr, ast.Tuple, ast.operator, ast.unaryop, ast.boolop, ast.cmpop, ast.expr_context)


def _harmless(s, names: set[str]) -> bool:
    """`x = VALUE` that only reads (where a move's destination is worked out, `d7 = k7[v5]`): it calls
    nothing but `_fail`, which leaves; it sets none of the card's locals, nor what the move reads."""
    if type(s) is not ast.Assign or len(s.targets) != 1 or type(s.targets[0]) is not ast.Name \
            or s.targets[0].id in names or s.targets[0].id in ("zones", "where"):
        return False
    for n in ast.walk(s.value):
        if type(n) is ast.Call:
            if type(n.func) is not ast.Name or n.func.id != "_fail":
                return False
        elif not isinstance(n, _READS) or type(n) is ast.NamedExpr and n.target.id in names | {"zones", "where"}:
            return False
    return True


def _tests_none(s, names: set[str]) -> bool:
    """`if v is None: _fail(...)`: the rules fail there, or v holds a card."""
    return type(s) is ast.If and not s.orelse and type(s.test) is ast.Compare and type(s.test.left) is ast.Name \
        and s.test.left.id in names and len(s.test.ops) == 1 and type(s.test.ops[0]) is ast.Is \
        and type(s.test.comparators[0]) is ast.Constant and s.test.comparators[0].value is None \
        and len(s.body) == 1 and type(s.body[0]) is ast.Expr and type(call := s.body[0].value) is ast.Call \
        and type(call.func) is ast.Name and call.func.id == "_fail"


def _removes(s, names: set[str]) -> bool:
    """`zones[where[v]].remove(v)`, v one of the card's locals."""
    if type(s) is not ast.Expr or type(call := s.value) is not ast.Call or len(call.args) != 1 \
            or type(call.func) is not ast.Attribute or call.func.attr != "remove":
        return False
    arg, zone = call.args[0], call.func.value
    return type(arg) is ast.Name and arg.id in names and type(zone) is ast.Subscript \
        and type(zone.value) is ast.Name and zone.value.id == "zones" and type(zone.slice) is ast.Subscript \
        and type(zone.slice.value) is ast.Name and zone.slice.value.id == "where" \
        and type(zone.slice.slice) is ast.Name and zone.slice.slice.id == arg.id
