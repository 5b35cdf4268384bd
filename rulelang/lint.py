"""Warnings about a checked ruleset: rules that are legal but likely wrong.

`rulelang check` prints them and still succeeds. Besides `first(...)` that
may find nothing (first_matches.py) and loops whose list is fixed while
their body changes it (stale_loops.py), two kinds: decisions whose
options, or their words, depend on cards their chooser may not see (hidden.py), and watches
that may fire again and again with no decision between them — a watch's
`do:` runs, the next change to the game checks the watches again, and if a
condition still holds (its own, or another's that the `do:` made true) play
never reaches a decision. At run time that ends at the step limit (each
firing is a step); here it is said before anyone plays.

The analysis is coarse on purpose: what a condition reads and a `do:` writes
is named by kind (a variable, a card state, where cards are), and a condition
counts as made false only when the `do:` sets every variable it reads to a
constant that makes it false. So a warning says "may".
"""
from __future__ import annotations

from . import first_matches, hidden, ir, pins, printed, stale_loops
from .effects import Effects
from .errors import Diagnostic
from .walk import walk


def warnings(rs: ir.Ruleset) -> list[Diagnostic]:
    out: list[Diagnostic] = list(rs.notes)  # what reading and checking it noted (a built-in a name hides)
    out += pins.stale(rs)  # hand-written text whose rules changed since it was checked
    out += printed.warnings(rs)  # what the printed rules would lose or not say in words
    for mode in rs.modes.values():
        out += _watch_loops(rs, mode)
    out += first_matches.warnings(rs) + stale_loops.warnings(rs)
    seen = set()
    for mode in rs.modes.values():
        for d in _telling_options(rs, mode):
            if d not in seen:  # a procedure's decision is the same in every mode that sees it alike
                seen.add(d)
                out.append(d)
    return out


# ---------------------------------------------------------------- options that tell what their chooser cannot see

def _telling_options(rs: ir.Ruleset, mode: ir.Mode) -> list[Diagnostic]:
    """Decisions whose options (which exist, in what order, what values) depend on
    cards their chooser may not see (hidden.py follows what cards' properties flow
    into): a `where` or `ordered by` over a hidden place, a menu option's guard, a
    list of values read off hidden cards. Showing such options as places (the 3rd
    card of the deck) is not enough: that an option is there tells the chooser what
    the card is."""
    out = []
    findings = hidden.told(rs, mode)
    for found in findings.decisions:
        who = found.who
        out.append(Diagnostic(
            found.node.span, f"which options decision '{found.node.label}' offers depends on cards {who} may not "
                             f"see (in {', '.join(sorted(found.places))}): the options alone tell {who} about them",
            "offer every card of a hidden place (the player picks one unseen), or test only what the "
            "chooser sees (a visible zone, a count, a variable)", severity="warning"))
    for told in findings.words.values():
        if told.places and told.node.labelled is not None:
            out.append(Diagnostic(
                told.node.labelled.span or told.node.span,
                f"the words of decision '{told.node.label}' may name or read cards its chooser may not see "
                f"(in {', '.join(sorted(told.places))}): the chooser is shown its options without them",
                "say in the words only the option's own values and what the chooser sees", severity="warning"))
    return out


def _watch_loops(rs: ir.Ruleset, mode: ir.Mode) -> list[Diagnostic]:
    fx = Effects(rs)
    # watches that can finish without a decision and without ending the game
    free = [i for i, w in enumerate(mode.watches) if not fx.asks(w.body) and not fx.always_ends(w.body)]
    edges: dict[int, set[int]] = {i: set() for i in free}
    for i in free:
        body = mode.watches[i].body
        written = fx.writes(body)
        for j in free:
            when = mode.watches[j].when
            if (i == j or written & fx.reads(when)) and not _made_false(when, body, rs):
                edges[i].add(j)
    out = []
    for i in free:
        loop = _cycle_through(i, edges)
        if not loop:
            continue
        w = mode.watches[i]
        cond = _text(w.when)
        if loop == [i]:
            message = (f"watch {i + 1} of mode '{mode.name}' asks no decision and may fire again as soon as it has "
                       f"run: if {cond} still holds after its `do:`, the next change fires it again, and play never "
                       f"reaches a decision")
        else:
            others = [str(j + 1) for j in loop if j != i]
            them = f"watch {others[0]}" if len(others) == 1 else \
                f"watches {', '.join(others[:-1])} and {others[-1]}"
            message = (f"watch {i + 1} of mode '{mode.name}' asks no decision and may set off {them}, and be set "
                       f"off in turn, for ever: their `do:`s change what the others' `when:`s read")
        out.append(Diagnostic(w.when.span or w.span, message,
                              "make the watch's `do:` make its `when:` false (set what it tests), end the game, "
                              "or ask a decision in it; a game that never reaches one stops at --step-limit",
                              severity="warning"))
    return out


def _cycle_through(start: int, edges: dict[int, set[int]]) -> list[int]:
    """The watches of a shortest cycle from `start` back to itself (empty: none)."""
    if start in edges[start]:
        return [start]
    paths, seen = [[start]], {start}
    while paths:
        grown = []
        for path in paths:
            for j in sorted(edges[path[-1]]):
                if j == start:
                    return path
                if j not in seen:
                    seen.add(j)
                    grown.append(path + [j])
        paths = grown
    return []


def _text(expr: ir.Expr) -> str:
    span = expr.span
    if span is not None and span.line == span.end_line:
        text = span.source.line(span.line)[span.col - 1:span.end_col - 1].strip()
        if text and len(text) <= 60:
            return f"`{text}`"
    return "its condition"


def _made_false(when: ir.Expr, body: ir.Block, rs: ir.Ruleset) -> bool:
    """Whether `body` surely leaves `when` false: it sets, at its top level, every
    variable `when` reads to a constant, and `when` is false with them."""
    known: dict[str, object] = {}
    for s in body:
        if isinstance(s, ir.Assign) and isinstance(s.target, ir.Var) and s.target.owner is None:
            if s.op == "=" and isinstance(s.value, ir.Const):
                known[s.target.name] = s.value.value
            elif isinstance(was := known.get(s.target.name), int) and isinstance(s.value, ir.Const) \
                    and isinstance(s.value.value, int):
                sign = 1 if s.op == "+=" else -1
                known[s.target.name] = was + sign * s.value.value
            else:
                known.pop(s.target.name, None)
        else:
            for n in walk(s):  # a nested or indirect write: that variable is unknown again
                if isinstance(n, (ir.Assign, ir.Roll)) and isinstance(n.target, ir.Var):
                    known.pop(n.target.name, None)
    try:
        return _value(when, known, rs) is False
    except _Unknown:
        return False


class _Unknown(Exception):
    pass


_OPS = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _value(e: ir.Expr, known: dict, rs: ir.Ruleset):
    """The value of a condition made only of constants, parameters and known variables."""
    if isinstance(e, ir.Const):
        return e.value
    if isinstance(e, ir.Param) and e.name in rs.param_values:
        return rs.param_values[e.name]
    if isinstance(e, ir.Var) and e.owner is None and e.name in known:
        return known[e.name]
    if isinstance(e, ir.Unary):
        v = _value(e.operand, known, rs)
        if e.op == "not" and isinstance(v, bool):
            return not v
        if e.op == "-" and isinstance(v, int) and not isinstance(v, bool):
            return -v
    if isinstance(e, ir.Binary):
        left = _value(e.left, known, rs)
        if e.op in ("and", "or") and isinstance(left, bool):
            if (e.op == "and") != left:  # false and …, true or …
                return left
            right = _value(e.right, known, rs)
            if isinstance(right, bool):
                return right
        elif e.op in _OPS:
            right = _value(e.right, known, rs)
            if type(left) is type(right) and left is not None:
                return _OPS[e.op](left, right)
    raise _Unknown
