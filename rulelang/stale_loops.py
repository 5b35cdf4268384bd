"""Loops whose list is fixed when they start while their body changes what it was made from.

`for p in players where bridge_down(): ...` takes its bindings once, when
the loop starts: the players for whom the Drawbridge was down *then*. If the
body raises the bridge for the first of them, the second is still offered to
raise it (16-7 did, in 38 games of 300). The checker warns of a `for` whose
`where` reads what its body may change — a variable, a card's state, where
cards of the kinds it counts lie — for another binding than the current one:
the body changing the current player's own values (`knocked_out of p`) or
moving the current card itself is what a loop is for, and is not warned of.
A `where` the body tests again first (`for p in players where C: if C: ...`,
or at the start of a procedure the body calls first) is the idiom that
re-tests each binding when its turn comes: no warning.

The list a loop goes through is fixed the same way (`for q in parties`, a
`let` made before): a list built by a define or a comprehension that reads
what the body changes is warned of too.
"""
from __future__ import annotations

from . import ir
from .effects import Effects
from .errors import Diagnostic
from .substitute import conjuncts, substitute
from .types import ZoneT
from .walk import walk


def warnings(rs: ir.Ruleset) -> list[Diagnostic]:
    finder = _Stale(rs)
    out, seen = [], set()
    for block in _blocks(rs):
        for n in walk(block):
            if isinstance(n, ir.For):
                for d in finder.loop(n):
                    if d.span not in seen:
                        seen.add(d.span)
                        out.append(d)
    return out


def _blocks(rs: ir.Ruleset) -> list:
    return [rs.setup, *(m.setup for m in rs.modes.values()),
            *(s.body for m in rs.modes.values() for s in m.round),
            *(w.body for m in rs.modes.values() for w in m.watches),
            *(p.body for p in rs.procedures.values()), *(a.body for a in rs.abilities.values())]


class _Stale:
    def __init__(self, rs: ir.Ruleset):
        self.rs, self.fx = rs, Effects(rs)

    def loop(self, s: ir.For) -> list[Diagnostic]:
        names = s.binder.names
        if len(names) != 1:
            return []
        name = names[0]
        own, shared = self.writes(s.body, name)
        out = []
        tested = self.retested(s.body, name)
        for c in sorted(conjuncts(s.binder.where), key=lambda c: (c.span.line, c.span.col) if c.span else (0, 0)):
            changed = self.changed(c, name, own, shared)
            if changed and c not in tested:
                out.append(self.diagnostic(c, changed, "is tested for every binding when the loop starts",
                                           "test it again at the start of the body (`for x in D where C:` → "
                                           "`for x in D:` then `if C:`), so each binding is tested when its turn "
                                           "comes"))
        domain = s.binder.groups[0].domain
        if not isinstance(domain.ty, ZoneT) and isinstance(domain, (ir.DefineCall, ir.Quantified)):
            changed = self.changed(domain, name, own, shared)
            if changed:
                out.append(self.diagnostic(domain, changed, "is made once, when the loop starts",
                                           "go through a list that does not change (`players`), and test each "
                                           "item at the start of the body"))
        return out

    def diagnostic(self, e: ir.Expr, changed: tuple[str, int], what: str, hint: str) -> Diagnostic:
        thing, line = changed
        return Diagnostic(e.span, f"`{_text(e)}` {what}, but the loop's body changes {thing} (line {line}): "
                                  f"the bindings after the first are gone through as they stood when it started",
                          hint, severity="warning")

    # ------------------------------------------------------------ what the body changes
    def writes(self, body, name: str) -> tuple[dict, dict]:
        """(own, shared): what the body writes for the current binding only, and for others, each kind
        with a line that writes it. A write is the current binding's own when what it writes to is made
        from the binding alone: `knocked_out of p`, `p.damage`, `health of m` for `m in members(p)`,
        moving `bottom(plan of p)` or moving a card onto `space(gauntlet, x, 6)` in a loop over x."""
        own: dict = {}
        shared: dict = {}
        self._block(body, {}, {name}, own, shared, set())
        return own, shared

    def _block(self, stmts, env: dict, mine: set, own: dict, shared: dict, seen: set) -> None:
        mine = set(mine)
        for s in stmts:
            self._stmt(s, env, mine, own, shared, seen)

    def _stmt(self, s, env: dict, mine: set, own: dict, shared: dict, seen: set) -> None:
        line = s.span.line if s.span is not None else 0

        def ours(e) -> bool:
            return e is not None and _made_from(substitute(e, env), mine)

        if isinstance(s, (ir.For, ir.Choose, ir.Take)):
            inner = set(mine)
            for g in s.binder.groups:
                for n in g.names:
                    (inner.add if ours(g.domain) else inner.discard)(n)
            self._block(s.body, env, inner, own, shared, seen)
            return
        if isinstance(s, ir.Let):
            (mine.add if ours(s.value) else mine.discard)(s.name)
        target = s.target if isinstance(s, (ir.Assign, ir.Roll)) else None
        if isinstance(target, ir.Var):
            (own if ours(target.owner) else shared).setdefault(("var", target.name), line)
        elif isinstance(target, ir.Field):
            (own if ours(target.obj) else shared).setdefault(("state", target.name), line)
        elif isinstance(s, ir.Move):
            place, dest = ours(s.dest), _zone(s.dest)
            for card in s.cards:
                for kind in getattr(card.ty, "kinds", ()):
                    for zone in {_zone(card), dest}:
                        (own if place or ours(card) else shared).setdefault(("cards", kind, zone), line)
            if s.every is not None:
                domain = s.every.groups[0].domain
                for kind in _narrowed(s.every, self.rs) or getattr(domain.ty, "kinds", ()):
                    for zone in {_zone(domain), dest}:
                        (own if place else shared).setdefault(("cards", kind, zone), line)
        elif isinstance(s, ir.Draw):
            for kind in getattr(s.source.ty, "kinds", ()):
                for zone in {_zone(s.source), _zone(s.dest)}:
                    (own if ours(s.dest) and ours(s.source) else shared).setdefault(("cards", kind, zone), line)
        elif isinstance(s, ir.Swap):  # each side's cards where the other's are: both zones, if it says them
            place = ours(s.first) and ours(s.second)
            kinds = set(getattr(s.first.ty, "kinds", ())) | set(getattr(s.second.ty, "kinds", ()))
            for one in (s.first, s.second):
                for kind in kinds:
                    (own if place else shared).setdefault(("cards", kind, _zone(one)), line)
        elif isinstance(s, ir.Shuffle):  # the order of a zone: what top, bottom, first and last read
            (own if ours(s.zone) else shared).setdefault(("order", _zone(s.zone)), line)
        elif isinstance(s, ir.Flip):
            (own if ours(s.card) else shared).setdefault(("face",), line)
        elif isinstance(s, ir.Eliminate):
            (own if ours(s.role) else shared).setdefault(("seats",), line)
        elif isinstance(s, ir.If):
            for _, body in s.branches:
                self._block(body, env, mine, own, shared, seen)
            if s.otherwise is not None:
                self._block(s.otherwise, env, mine, own, shared, seen)
        elif isinstance(s, (ir.While, ir.Repeat)):
            self._block(s.body, env, mine, own, shared, seen)
        elif isinstance(s, ir.Menu):
            for option in s.options:
                self._block(option.body, env, mine, own, shared, seen)
        elif isinstance(s, ir.CallProc) and s.name in self.rs.procedures:
            proc = self.rs.procedures[s.name]
            inner = {p: substitute(a, env) for (p, _), a in zip(proc.params, s.args)}
            key = (s.name, tuple(sorted((k, _made_from(v, mine)) for k, v in inner.items())))
            if key not in seen:
                seen.add(key)
                self._block(proc.body, {}, {p for p, a in inner.items() if _made_from(a, mine)}, own, shared, seen)
        elif isinstance(s, ir.Trigger):
            event = self.rs.events.get(s.event)
            for ability in self.rs.abilities.values():
                if ability.on == s.event and event is not None:
                    inner = {p: substitute(a, env) for (p, _), a in zip(event.params, s.args)}
                    key = ("ability", ability.name, tuple(sorted((k, _made_from(v, mine)) for k, v in inner.items())))
                    if key not in seen:
                        seen.add(key)
                        # `this`, the card that answers, is any card: not the binding's own
                        self._block(ability.body, {}, {p for p, a in inner.items() if _made_from(a, mine)},
                                    own, shared, seen)

    def changed(self, e: ir.Expr, name: str, own: dict, shared: dict) -> tuple[str, int] | None:
        """What of e's reads the body changes for another binding than the current one: (what, a line),
        or None. Its reads are all the binding's (a `where` is a test of it): only what the body writes
        for others counts."""
        for n in self.fx.nodes(e):
            if isinstance(n, ir.Var) and ("var", n.name) in shared:
                return f"*{n.name}*", shared[("var", n.name)]
            if isinstance(n, ir.Field) and ("state", n.name) in shared:
                return f"*{n.name}* (a card's state)", shared[("state", n.name)]
            what = _order_face_seats(n)
            if what is not None:
                for key, line in shared.items():
                    if key[0] == what[0] and (len(key) == 1 or key[1] is None or what[1] is None
                                              or key[1] == what[1]):
                        return {"order": "the order of cards", "face": "which way up cards lie",
                                "seats": "who is still in the game"}[what[0]], line
            counted = []
            if isinstance(n, ir.Quantified):
                counted = [(g.domain, _narrowed(n.binder, self.rs)) for g in n.binder.groups]
            elif isinstance(n, ir.BuiltinCall) and n.name in ("size", "empty", "top", "bottom") and n.args:
                counted = [(n.args[0], frozenset())]
            for domain, narrowed in counted:
                for kind in narrowed or getattr(domain.ty, "kinds", ()):
                    for key, line in shared.items():
                        if key[0] == "cards" and key[1] == kind \
                                and (key[2] is None or _zone(domain) is None or key[2] == _zone(domain)):
                            return f"where {kind} cards are", line
        return None

    # ------------------------------------------------------------ the re-test idiom
    def retested(self, body, name: str, depth: int = 0, env: dict | None = None) -> set:
        """The conditions the body tests first: an `if` that opens it (its first branch's conjuncts), or one
        that opens the procedure the body calls first (its parameters replaced by the call's arguments)."""
        if not body or depth > 4:
            return set()
        first = body[0]
        env = env or {}
        if isinstance(first, ir.If):
            found = set()
            for c in conjuncts(first.branches[0][0]):
                found |= {substitute(c, env)}
                if isinstance(c, ir.DefineCall):  # a define's body tested is the test
                    found |= self._expand(substitute(c, env))
            return found
        if isinstance(first, ir.CallProc) and first.name in self.rs.procedures:
            proc = self.rs.procedures[first.name]
            inner = {p: substitute(a, env) for (p, _), a in zip(proc.params, first.args)}
            return self.retested(proc.body, name, depth + 1, inner)
        return set()

    def _expand(self, call: ir.DefineCall) -> set:
        define = self.rs.defines.get(call.name)
        if define is None:
            return set()
        return conjuncts(substitute(define.body, {p: a for (p, _), a in zip(define.params, call.args)}))


def _order_face_seats(n) -> tuple | None:
    """What of the order of a zone, the faces of cards or the seats a node reads: ("order", zone),
    ("face", None), ("seats", None)."""
    if isinstance(n, ir.Quantified) and n.kind in ("first", "last"):
        return ("order", _zone(n.binder.groups[0].domain))
    if isinstance(n, ir.BuiltinCall):
        if n.name in ("top", "bottom") and n.args:
            return ("order", _zone(n.args[0]))
        if n.name in ("face_up", "face_down"):
            return ("face", None)
        if n.name in ("in_game", "left_of", "right_of", "clockwise"):
            return ("seats", None)
    return None


def _zone(e) -> str | None:
    """The zone (a board, for its spaces) an expression is or takes a card from, if it says."""
    if isinstance(e, ir.ZoneRef):
        return e.zone
    if isinstance(e, ir.BuiltinCall) and e.name in ("top", "bottom", "spaces") and e.args:
        return _zone(e.args[0])
    board = getattr(e.ty, "board", None)
    return board


def _made_from(e, names: set) -> bool:
    """Whether e is made from these locals alone (and constants): it names no other local, no game
    variable left unowned... in short, its free locals are among `names` and it has one."""
    free = {n.name for n in walk(e) if isinstance(n, ir.Local)}
    bound = {name for n in walk(e) if isinstance(n, ir.Binder) for name in n.names}
    free -= bound
    return bool(free) and free <= names


def _narrowed(binder: ir.Binder, rs: ir.Ruleset) -> frozenset:
    """The card kinds a one-name binder's `where` keeps: `c is T`, or a printed field compared with a
    value only some kinds' cards have (`c.effect == wall`: the green cards, by the card tables)."""
    if len(binder.names) != 1:
        return frozenset()
    name = binder.names[0]
    kinds = frozenset(getattr(binder.groups[0].domain.ty, "kinds", ()))
    for c in conjuncts(binder.where):
        if isinstance(c, ir.IsType) and not c.negated and c.subject == ir.Local(name):
            return frozenset({c.kind})
        if isinstance(c, ir.Binary) and c.op == "==" and isinstance(c.left, ir.Field) \
                and c.left.obj == ir.Local(name) and isinstance(c.right, (ir.EnumValue, ir.Const)):
            value = c.right.value
            having = frozenset(card.kind for card in rs.cards if card.values.get(c.left.name, object()) == value)
            if kinds and having:
                return kinds & having
    return frozenset()


def _text(e: ir.Expr) -> str:
    span = e.span
    if span is not None and span.line == span.end_line:
        text = span.source.line(span.line)[span.col - 1:span.end_col - 1].strip()
        if text and len(text) <= 60:
            return text
    return "the loop's test"
