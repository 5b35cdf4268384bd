"""What the rules keep for themselves, taken out of the printed rules: loop flags and temporaries.

A rulebook never says "let *again* be true; repeat while *again*"; it says
"repeat: … stop". Before a block is printed, each `let` in it is read for
what it is (by analysis of the block, not of names):

* a **loop flag**: a true/false name that a `while` tests and that is only
  ever set to a constant, or to a condition as the loop's last statement. The `let` goes, the `while` loses the flag from
  its condition, and setting the flag so that the loop ends becomes `Stop`
  ("stop"; a condition: "if N is not 6: stop"). A flag that starts as a condition (`let buying = not done`)
  makes the loop an `if`: "if …: repeat: … stop".
* a **temporary**: a name for a value used later, never set again. Where
  nothing between the `let` and a use can change what the value reads
  (the cards' places, the variables and card states it depends on), the
  value itself is printed at the use, and the `let` goes: "if the symbol of
  the card played is Swords", not "let *k* be …; if *k* is Swords".
* anything else stays a `let`, printed as "note …" (`statements.py`).

The result is still IR (with `Stop` added), so the English of each
statement is the one it always has; `tests/test_flow.py` checks that a
rewritten block means what the rules do.
"""
from __future__ import annotations

from collections.abc import Container
from dataclasses import replace

from rulelang import ir
from rulelang.records import record
from rulelang.types import BOOL
from rulelang.walk import map_children, walk

from .effects import clash, reads_of, writes_of
from .marks import is_mark
from .normalize import conjuncts, negate


@record
class Stop(ir.Stmt):
    """Leave the loop around (what setting a loop's flag does)."""


@record
class Unsaid(ir.Stmt):
    """A statement that says nothing to a player (setting a loop's flag so that it goes on)."""


@record
class Counted(ir.Stmt):
    """`v = c; repeat n times: v += 1; …`: the body for each value of `v` from `low` to `high`."""
    var: ir.Expr
    low: int
    high: int
    body: ir.Block


def tidy(rs: ir.Ruleset, block: ir.Block) -> ir.Block:
    """The block as printed: its loop flags, movable temporaries and marks (`marks.py`) gone."""
    out = list(block)
    i = 0
    while i < len(out):
        s = out[i]
        if s.prose is not None:  # the ruleset's own words say these: they are printed as they are
            i += s.prose.count
            continue
        if is_mark(rs, s):
            del out[i]
            continue
        s = out[i] = _filtered(rs, s) or s
        hoisted = _hoisted(rs, s)
        if hoisted is not None:
            out[i] = hoisted
        counted = _counted(s, out[i + 1]) if i + 1 < len(out) else None
        if counted is not None:
            out[i:i + 2] = [counted]
        elif isinstance(s, ir.Let):
            rest = _flag_loops(rs, s, tuple(out[i + 1:]))
            if rest is None:
                rest = _substituted(rs, s, tuple(out[i + 1:]))
            if rest is not None:
                out[i:] = list(rest)
                continue
        i += 1
    return tuple(out)


@record
class Again(ir.Stmt):
    """`S` then `while C: S`: the same statements once, then again until `stop` (a re-roll)."""
    body: ir.Block
    stop: ir.Expr
    loop: ir.While  # the loop as written, for where the statements are not one sentence


def again(block: ir.Block) -> ir.Block:
    """Statements followed by a loop that does the same again, said once: "roll a die for *die*
    until *die* is more than 2", not the roll and then the same roll in a loop."""
    out: list[ir.Stmt] = []
    for s in block:
        if isinstance(s, ir.While) and s.prose is None and 0 < len(s.body) <= len(out) \
                and tuple(out[-len(s.body):]) == s.body and all(t.prose is None for t in out[-len(s.body):]):
            stop = s.cond if s.until else negate(s.cond)
            out[-len(s.body):] = [Again(s.body, stop, s, span=s.span)]
            continue
        out.append(s)
    return tuple(out)


def together(block: ir.Block) -> ir.Block:
    """Moves one after another to the same place said as one move ("move every action card in the
    Chamber and all cards in the Action Discard Pile to the Action Deck"), where that reads the
    same: each move takes whole zones or the cards of zones that match (conditions reading no
    term), and no later move takes from a zone an earlier one took from or filled."""
    out: list[ir.Stmt] = []
    for s in block:
        last = out[-1] if out else None
        if isinstance(last, ir.Move) and isinstance(s, ir.Move) and s.prose is None \
                and (s.dest, s.position) == (last.dest, last.position):
            first, then = _taken(last), _taken(s)
            if first is not None and then is not None and not then & (first | _zones(s.dest)):
                out[-1] = replace(last, cards=_cards(last) + _cards(s), every=None)
                continue
        out.append(s)
    return tuple(out)


def _taken(m: ir.Move) -> set[str] | None:
    """The zones a move takes from, or None where what it takes could depend on more than them."""
    parts = [m.every] if m.every is not None else list(m.cards)
    if m.every is not None and any(not isinstance(g.domain, ir.ZoneRef) for g in m.every.groups):
        return None
    if m.every is None and not all(isinstance(c, ir.ZoneRef) for c in m.cards):
        return None
    if any(isinstance(n, (ir.DefineCall, ir.BuiltinCall)) for p in parts for n in walk(p)):
        return None  # a term or a count could read what the earlier move changed (a variable cannot)
    return {n.zone for p in parts for n in walk(p) if isinstance(n, ir.ZoneRef)}


def _zones(e: ir.Expr) -> set[str]:
    return {n.zone for n in walk(e) if isinstance(n, ir.ZoneRef)}


def _cards(m: ir.Move) -> tuple[ir.Expr, ...]:
    """What a move takes, as card expressions: `move all c in Z where P` is the list of those cards."""
    if m.every is None:
        return m.cards
    return (ir.Quantified("list", m.every, ir.Local(m.every.names[0]), span=m.span),)


def resets(rs: ir.Ruleset, body: ir.Block, listed: Container[str] | None = None) -> tuple[ir.Block, tuple[str, ...]]:
    """A step's body without the variables it sets back to their starting values (at its top
    level, or every player's at the top level of a loop over every player): a player knows a
    flag "this turn" or tricks "taken this hand" start again; the variables' list says when.
    `listed`: only these variables (the list names them), where the list is not of every one."""
    kept: list[ir.Stmt] = []
    names: list[str] = []
    for s in body:
        if _reset(rs, s, None, listed):
            names.append(s.target.name)  # type: ignore[attr-defined]
            continue
        if isinstance(s, ir.For) and s.prose is None and len(s.binder.names) == 1 and s.binder.where is None \
                and s.binder.groups[0].domain == ir.BuiltinCall("players", ()):
            each = ir.Local(s.binder.names[0])
            back = [t for t in s.body if _reset(rs, t, each, listed)]
            names += [t.target.name for t in back]  # type: ignore[attr-defined]
            if back:
                rest = tuple(t for t in s.body if not any(t is b for b in back))
                if rest:
                    kept.append(replace(s, body=rest))
                continue
        kept.append(s)
    return tuple(kept), tuple(names)


def _reset(rs: ir.Ruleset, s: ir.Stmt, owner: ir.Expr | None, listed: Container[str] | None = None) -> bool:
    """`s` sets a variable (of `owner`, or the game's; one of `listed`) back to its starting value."""
    if not (isinstance(s, ir.Assign) and isinstance(s.target, ir.Var)) \
            or listed is not None and s.target.name not in listed:
        return False
    v = rs.vars.get(s.target.name)
    if v is None or s.prose is not None or s.op != "=" or s.target.owner != owner:
        return False
    if isinstance(s.value, ir.EnumValue):
        return s.value.value == v.initial
    return isinstance(s.value, ir.Const) and type(s.value.value) is type(v.initial) and s.value.value == v.initial


def _counted(s: ir.Stmt, after: ir.Stmt) -> Counted | None:
    """`v = c` then `repeat n times` whose body starts with `v += 1` (and sets it nowhere else)."""
    if not (isinstance(s, ir.Assign) and s.op == "=" and isinstance(s.value, ir.Const) and type(s.value.value) is int
            and isinstance(after, ir.Repeat) and isinstance(after.count, ir.Const) and after.body):
        return None
    first = after.body[0]
    if not (isinstance(first, ir.Assign) and first.target == s.target and first.op == "+="
            and first.value == ir.Const(1)):
        return None
    if any(isinstance(n, ir.Assign) and n.target == s.target for n in walk(after.body[1:])):
        return None
    return Counted(s.target, s.value.value + 1, s.value.value + after.count.value, after.body[1:], span=after.span)


# ------------------------------------------------------------ loop flags


def _flag_loops(rs: ir.Ruleset, let: ir.Let, rest: ir.Block) -> ir.Block | None:
    """`rest` with the flag `let` names turned into stops, or None if it is not a loop flag."""
    name = let.name
    if let.value.ty != BOOL:
        return None
    loops = [n for n in walk(rest) if isinstance(n, ir.While) and _running(n, name) is not None]
    repeats = [body for n in walk(rest) if (body := _flag_repeat(n, name)) is not None]  # "repeat twice: if rolling: …"
    last = {id(w.body[-1]) for w in loops if w.body}  # `again = n == 6` last in the loop: "if N is not 6: stop"
    if any(isinstance(n, ir.Assign) and n.target == ir.Local(name) and not isinstance(n.value, ir.Const)
           and (id(n) not in last or name in {x.name for x in walk(n.value) if isinstance(x, ir.Local)})
           for n in walk(rest)):
        return None
    targets = {id(n.target) for n in walk(rest) if isinstance(n, ir.Assign)}
    reads = [n for n in walk(rest) if isinstance(n, ir.Local) and n.name == name and id(n) not in targets]
    in_loop_conditions = len(repeats) + \
        sum(1 for w in loops for n in walk(w.cond) if isinstance(n, ir.Local) and n.name == name)
    if not in_loop_conditions or len(reads) != in_loop_conditions:  # read anywhere but a loop's condition: a real value
        return None
    sets = sum(1 for n in walk(rest) if isinstance(n, ir.Assign) and n.target == ir.Local(name))
    if sets != sum(_direct_sets(b, name) for b in [w.body for w in loops] + repeats):  # set outside its loop, or in one inside
        return None
    out: list[ir.Stmt] = []
    for s in rest:
        out.append(_unflag(s, name, let.value))
    return tuple(out)


def _unflag(s: ir.Stmt, name: str, start: ir.Expr) -> ir.Stmt:
    """A statement with `while FLAG and C` made `while C` (stops where the flag is set to end it)."""
    body = _flag_repeat(s, name)
    if body is not None and isinstance(s, ir.Repeat):  # "repeat up to twice: … stop"
        loop: ir.Stmt = replace(s, body=tuple(_stops(b, name, True) for b in body))
        return loop if start == ir.Const(True) else Unsaid() if start == ir.Const(False) else \
            ir.If(((start, (loop,)),), span=s.span)
    running = _running(s, name) if isinstance(s, ir.While) else None  # the flag's value that keeps it going
    if isinstance(s, ir.While) and running is not None:
        parts = disjuncts(s.cond) if s.until else conjuncts(s.cond)
        others = [c for c in parts if _polarity(c, name) is None]
        body = tuple(_stops(b, name, running) for b in s.body)
        if others:
            cond = (_join("or", others) if s.until else _conjoin(others))
            loop = replace(s, cond=cond, body=body)
        else:
            loop = replace(s, cond=ir.Const(True, ty=BOOL), body=body, until=False)
        first = start if running else negate(start)
        if isinstance(first, ir.Const):
            return loop if first.value else Unsaid()  # a loop that never starts is no rule
        return ir.If(((first, (loop,)),), span=s.span)
    return _map_statements(s, lambda c: _unflag(c, name, start))


def _flag_repeat(s: ir.Node, name: str) -> ir.Block | None:
    """What `repeat N times: if FLAG: …` does while the flag is on: a loop of at most N times."""
    only = s.body[0] if isinstance(s, ir.Repeat) and len(s.body) == 1 else None
    if isinstance(only, ir.If) and len(only.branches) == 1 and only.otherwise is None \
            and only.branches[0][0] == ir.Local(name):
        return only.branches[0][1]
    return None


def _direct_sets(block: ir.Block, name: str) -> int:
    """How often the flag is set in a loop's body, not counting loops inside it."""
    count = 0
    for s in block:
        if isinstance(s, ir.Assign) and s.target == ir.Local(name):
            count += 1
        elif not isinstance(s, ir.While):
            count += sum(_direct_sets(b, name) for b in _blocks(s))
    return count


def _blocks(s: ir.Stmt):
    if isinstance(s, ir.If):
        yield from (b for _, b in s.branches)
        if s.otherwise is not None:
            yield s.otherwise
    elif isinstance(s, ir.Menu):
        yield from (o.body for o in s.options)
    elif isinstance(s, (ir.Repeat, ir.For, ir.Choose, ir.Take)):
        yield s.body


def _stops(s: ir.Stmt, name: str, running: bool) -> ir.Stmt:
    if isinstance(s, ir.Assign) and isinstance(s.target, ir.Local) and s.target.name == name:
        if not isinstance(s.value, ir.Const):  # the loop's last statement: it ends the loop where the value does
            return ir.If(((s.value if not running else negate(s.value), (Stop(span=s.span),)),), span=s.span)
        return Stop(span=s.span) if s.value.value != running else Unsaid(span=s.span)
    if isinstance(s, ir.While):  # a loop inside has its own ending
        return s
    return _stop_last(_map_statements(s, lambda c: _stops(c, name, running)))


def _stop_last(s: ir.Stmt) -> ir.Stmt:
    """The statement with each of its blocks saying "stop" after what follows it there: the flag set ends the
    loop when the loop next tests it, so what comes after in the block still happens ("Show every cup. …
    Stop.", not "Stop." first)."""
    def last(block: ir.Block) -> ir.Block:
        stops = [x for x in block if isinstance(x, Stop)]
        return block if not stops or block[-1] is stops[0] else \
            tuple(x for x in block if not isinstance(x, Stop)) + (stops[0],)
    if isinstance(s, ir.If):
        return replace(s, branches=tuple((c, last(b)) for c, b in s.branches),
                       otherwise=last(s.otherwise) if s.otherwise is not None else None)
    if isinstance(s, ir.Menu):
        return replace(s, options=tuple(replace(o, body=last(o.body)) for o in s.options))
    if isinstance(s, (ir.Repeat, ir.For, ir.Choose, ir.Take)):
        return replace(s, body=last(s.body))
    return s


def _map_statements(s: ir.Stmt, f) -> ir.Stmt:
    """The statement with `f` applied to the statements of its blocks (a menu's options' too)."""
    def child(c):
        if isinstance(c, ir.Stmt):
            return f(c)
        if isinstance(c, ir.MenuOption):
            return map_children(c, child)
        return c
    return map_children(s, child)


def _running(loop: ir.While, name: str) -> bool | None:
    """The flag's value that keeps the loop going: `while flag and …` True, `until flag or …` False."""
    if loop.until:
        found = next((_polarity(c, name) for c in disjuncts(loop.cond) if _polarity(c, name) is not None), None)
        return None if found is None else not found
    return _polarity(loop.cond, name)


def disjuncts(e: ir.Expr) -> list[ir.Expr]:
    if isinstance(e, ir.Binary) and e.op == "or":
        return disjuncts(e.left) + disjuncts(e.right)
    return [e]


def _join(op: str, parts: list[ir.Expr]) -> ir.Expr:
    out = parts[0]
    for p in parts[1:]:
        out = ir.Binary(op, out, p, ty=BOOL, span=out.span)
    return out


def _polarity(cond: ir.Expr, name: str) -> bool | None:
    """True if `cond` (or one of its conjuncts) is the flag itself, False if it is `not flag`."""
    for c in conjuncts(cond):
        if isinstance(c, ir.Local) and c.name == name:
            return True
        if isinstance(c, ir.Unary) and c.op == "not" and isinstance(c.operand, ir.Local) and c.operand.name == name:
            return False
    return None


def _conjoin(parts: list[ir.Expr]) -> ir.Expr:
    out = parts[0]
    for p in parts[1:]:
        out = ir.Binary("and", out, p, ty=BOOL, span=out.span)
    return out


def _filtered(rs: ir.Ruleset, s: ir.Stmt) -> ir.For | None:
    """`for x in D: if C: body` (no `else`, nothing else in the loop, nothing the body does changing
    C) as a rulebook says it: "For every space of the board whose kind is pit: …", not "For every
    space of the board: if the kind of that space is pit: …"."""
    if not (isinstance(s, ir.For) and len(s.body) == 1 and isinstance(s.body[0], ir.If)):
        return None
    test = s.body[0]
    if test.otherwise is not None or len(test.branches) != 1 or test.prose is not None:
        return None
    cond, body = test.branches[0]
    said = reads_of(rs, cond)
    if said is None or clash(said, writes_of(rs, body)):
        return None
    where = cond if s.binder.where is None else _conjoin([s.binder.where, cond])
    return replace(s, binder=replace(s.binder, where=where), body=body)


def _hoisted(rs: ir.Ruleset, s: ir.Stmt) -> ir.If | None:
    """`for p in D where A(p) and B`, with B not about p and nothing the loop does changing it, as a
    rulebook says it: "If B: for every player whose …", not "for every player such that their cargo is
    the best cargo and the best cargo is more than 0"."""
    if not isinstance(s, ir.For) or s.binder.where is None:
        return None
    names = set(s.binder.names)
    parts = conjuncts(s.binder.where)
    free = [c for c in parts if not any(isinstance(n, ir.Local) and n.name in names for n in walk(c))]
    reads: set[str] = set()
    for c in free:
        said = reads_of(rs, c)
        if said is None:
            return None
        reads |= said
    if not free or clash(reads, writes_of(rs, s.body)):
        return None
    tied = [c for c in parts if c not in free]
    loop = replace(s, binder=replace(s.binder, where=_conjoin(tied) if tied else None))
    return ir.If(((_conjoin(free), (loop,)),))


# ------------------------------------------------------------ temporaries


def _substituted(rs: ir.Ruleset, let: ir.Let, rest: ir.Block) -> ir.Block | None:
    """`rest` with the value written where the name is used, or None where it cannot be:
    the name is set again, bound again, or something before a use changes what the value reads."""
    name = let.name
    if any(isinstance(n, (ir.Assign, ir.Roll)) and isinstance(n.target, ir.Local) and n.target.name == name
           for n in walk(rest)) or any(isinstance(n, ir.Let) and n.name == name for n in walk(rest)):
        return None
    reads = reads_of(rs, let.value)
    if reads is None or not _stable(rs, name, reads, rest, dirty=False):
        return None
    return tuple(_put(s, name, let.value) for s in rest)


def _put(node, name: str, value: ir.Expr):
    if isinstance(node, ir.Local) and node.name == name:
        return value
    if isinstance(node, ir.Binder) and name in node.names:  # bound again inside: another thing
        return node
    return map_children(node, lambda c: _put(c, name, value))


def _stable(rs: ir.Ruleset, name: str, reads: set[str], block: ir.Block, dirty: bool) -> bool:
    """Whether every use of `name` in `block` sees the value the `let` computed, `dirty`
    saying whether something before the block may already have changed it."""
    for s in block:
        uses = [n for n in walk(s) if isinstance(n, ir.Local) and n.name == name]
        if uses and dirty:
            return False
        if uses and not _stable_in(rs, name, reads, s):
            return False
        dirty = dirty or clash(reads, writes_of(rs, s))
    return True


def _stable_in(rs: ir.Ruleset, name: str, reads: set[str], s: ir.Stmt) -> bool:
    """A statement using the name: its own tests are evaluated first, then its blocks run."""
    if isinstance(s, (ir.While, ir.Repeat, ir.For)):  # a loop runs its body again: its writes come first
        return not clash(reads, writes_of(rs, s))
    if isinstance(s, ir.If):
        return all(_stable(rs, name, reads, body, False) for _, body in s.branches) and \
            (s.otherwise is None or _stable(rs, name, reads, s.otherwise, False))
    if isinstance(s, (ir.Choose, ir.Take)):
        return _stable(rs, name, reads, s.body, False)
    if isinstance(s, ir.Menu):
        return all(_stable(rs, name, reads, o.body, False) for o in s.options)
    return True  # a simple statement reads before it writes


_CHANGED: dict[int, tuple[ir.Ruleset, frozenset[str]]] = {}  # id of a ruleset -> (it, the locals its rules change)


def changed_locals(rs: ir.Ruleset) -> frozenset[str]:
    """The names of the noted values (`let`) the rules give another value later, anywhere."""
    got = _CHANGED.get(id(rs))
    if got is None or got[0] is not rs:
        if len(_CHANGED) > 64:  # (a long run prints many rulesets: keep the last few)
            _CHANGED.clear()
        got = _CHANGED[id(rs)] = (rs, frozenset(n.target.name for n in walk(every_rule(rs))
                                                if isinstance(n, ir.Assign) and isinstance(n.target, ir.Local)))
    return got[1]


def every_rule(rs: ir.Ruleset) -> tuple:
    """What `walk` reaches every rule from: the ruleset, its procedures, abilities and modes (held in
    mappings)."""
    return rs, tuple(rs.procedures.values()), tuple(rs.abilities.values()), tuple(rs.modes.values())
