"""`first(...)` and `last(...)` that may find nothing: a warning where the checker cannot prove a match.

`first(B)` with no binding stops the game with an error. Where that can
happen only by a slip (a card the setup forgot) a test finds it; where it
happens in the middle of play, once in a thousand games, it is a rule with
a hole: Hand of Fate asked for "the Royalty of this level" after the King had
left the Royalty row. So the checker warns, unless it can prove a match:

* it looks at binders that follow the game's state over a zone their matches
  can leave: a `where` that reads a variable, a card's state or where cards
  lie (`r.rank == level_rank()`; the space where the King token is), over a
  zone, board or space from which the rules (after the setup) take cards of
  the kinds it looks for — `royals` loses Royalty cards to the combat and to
  the defeated. A binder over a zone its cards never leave (the cubes on the
  track), a `where` of printed fields only (the weapon on the Player Board,
  which the rules keep there), or a list built by other rules is not
  questioned: those are the rules' own bookkeeping, kept true by them;
* a `where` that every card at an end of the zone passes (`c.suit == led()`, where the suit led is that
  of the trick's bottom card) matches whenever the zone holds a card: it is not questioned, as a binder
  with no `where` is not;
* and it accepts as proof what the rules have tested just before, at that
  point of play, through the defines and procedures that lead there (their
  parameters replaced by the arguments): an `exists` over the same binder
  (its `where` the same or stronger), `not empty(Z)` or a size or count of at
  least one, a card known to be in the zone that passes the `where` (`c in
  hand and first(d in hand where d.name == c.name) == c`), a card of a board
  that passes the test of the space finder `first(s in spaces(B) where exists
  k in s where ...)`, or an `or` whose other side is known false. A statement
  that may change what a test read ends what it proves.

The way to say what happens otherwise is `first(B else VALUE)` (or `last`):
VALUE when nothing matches, which is `first(B) if exists B else VALUE`.
The setup is not questioned: a setup that asks for a card it has not put in
place stops every game at once.
"""
from __future__ import annotations

from . import ir
from .effects import CARDS, Effects
from .card_moves import card_moves, card_reads, cards_on, disturbs, follows_state, moves_after_setup, narrowed
from .substitute import conjuncts, inlined, substitute
from .errors import Diagnostic, Span
from .types import BOOL, ZoneT
from .walk import children, every_rule, rule_roots, walk


def warnings(rs: ir.Ruleset) -> list[Diagnostic]:
    prover = _Prover(rs)
    return [Diagnostic(span, f"`{_text(e)}` may find nothing here: {why}, and no test just before it proves a "
                                   "match",
                       f"say what happens then with `{e.kind}(... else VALUE)` (VALUE when nothing matches), or "
                       "test first (`if exists ...:`)", severity="warning")
            for span, (e, why) in sorted(prover.run().items(), key=lambda kv: (kv[0].file or "", kv[0].line,
                                                                                   kv[0].col))]


def _text(e: ir.Expr) -> str:
    span = e.span
    if span is not None and span.line == span.end_line:
        text = span.source.line(span.line)[span.col - 1:span.end_col - 1].strip()
        if text and len(text) <= 70:
            return text
        if text:
            return text[:60].rstrip() + " ...)"
    return f"{e.kind}(...)"


class _Prover:
    def __init__(self, rs: ir.Ruleset):
        self.rs, self.fx = rs, Effects(rs)
        self.leaving, self.moved = moves_after_setup(rs)
        self.unproven: dict[Span, tuple[ir.Expr, str]] = {}
        self._done: set = set()
        self._reads: dict = {}
        self._writes: dict = {}
        self._leads: dict = {}
        self.candidates: set = set()

    def run(self) -> dict[Span, tuple[ir.Expr, str]]:
        rs = self.rs
        # the binders that may need a proof: those whose `where` follows the game's state (cheap to find);
        # the analysis goes only where the rules lead to one
        self.candidates = {n.span for n in walk(every_rule(rs)) if isinstance(n, ir.Quantified)
                           and n.kind in ("first", "last") and follows_state(n.binder.where, "", rs)}
        if not self.candidates:
            return {}
        called = {n.name for n in walk(rule_roots(rs)) if isinstance(n, ir.CallProc)}
        called |= {n.name for p in rs.procedures.values() for n in walk(p.body) if isinstance(n, ir.CallProc)}
        for mode in rs.modes.values():
            for step in mode.round:
                self.block(step.body, frozenset(), {})
            for w in mode.watches:
                self.expr(w.when, frozenset(), {})
                self.block(w.body, self.conj(w.when, {}), {})
            for m in mode.measures.values():
                facts = frozenset() if m.when is None else self.conj(m.when, {})
                self.expr(m.value, facts, {})
            for e in [*mode.score.values(), *mode.heuristics.values()]:
                self.expr(e, frozenset(), {})
        for name, p in rs.procedures.items():
            if name not in called:
                self.block(p.body, frozenset(), {})
        return self.unproven

    def leads_to(self, node) -> bool:
        """Whether a candidate binder is in node, or in what it calls or sets off."""
        cached = self._leads.get(id(node))
        if cached is None or cached[0] is not node:
            spans = self.candidates
            found = self.fx.fold(node, "candidates", lambda n: frozenset({True}) if isinstance(n, ir.Quantified)
                                 and n.span in spans else frozenset())
            cached = self._leads[id(node)] = (node, bool(found))
        return cached[1]

    # ------------------------------------------------------------ statements
    def block(self, stmts, facts: frozenset, env: dict) -> frozenset:
        if not self.leads_to(stmts):
            return facts
        for s in stmts:
            self.stmt(s, facts, env)
            facts = self.after(s, facts, env)
        return facts

    def after(self, s: ir.Stmt, facts: frozenset, env: dict) -> frozenset:
        """The facts still true after s: those that read nothing s may change."""
        if not facts:
            return facts
        local = s.name if isinstance(s, ir.Let) else s.target.name if isinstance(s, (ir.Assign, ir.Roll)) \
            and isinstance(s.target, ir.Local) else None
        if local is not None:
            env.pop(local, None)
        return frozenset(f for f in self.lasting(facts, (s,))
                         if local is None or ir.Local(local) not in set(walk(f)))

    def lasting(self, facts: frozenset, stmts) -> frozenset:
        """The facts nothing in stmts may change: what they read of variables and card states is not
        written, and no card of a kind they count leaves the zone they count it in."""
        cached = self._writes.get(id(stmts))
        if cached is None or cached[0] is not stmts:
            cached = self._writes[id(stmts)] = (stmts, (self.fx.writes(stmts) - {CARDS}, card_moves(self.fx, stmts)))
        written, moves = cached[1]
        return frozenset(f for f in facts if not (written & self.reads(f)[0]) and not disturbs(moves, self.reads(f)[1]))

    def reads(self, fact: ir.Expr) -> tuple[set, list]:
        cached = self._reads.get(id(fact))  # by identity: hashing a fact walks all of it
        if cached is None or cached[0] is not fact:
            cached = self._reads[id(fact)] = (fact, (self.fx.reads(fact) - {CARDS}, card_reads(fact, self.rs)))
        return cached[1]

    def stmt(self, s: ir.Stmt, facts: frozenset, env: dict) -> None:
        if isinstance(s, ir.If):
            negated = frozenset()
            for cond, body in s.branches:
                self.expr(cond, facts | negated, env)
                self.block(body, facts | negated | self.conj(cond, env), dict(env))
                negated |= {self.negate(self.sub(cond, env))}
            if s.otherwise is not None:
                self.block(s.otherwise, facts | negated, dict(env))
        elif isinstance(s, ir.While):
            self.expr(s.cond, facts, env)
            held = self.loop_facts(facts, s.body)
            test = self.sub(s.cond, env)
            self.block(s.body, held | (frozenset({self.negate(test)}) if s.until else self.conj(s.cond, env)),
                       dict(env))
        elif isinstance(s, ir.Repeat):
            self.expr(s.count, facts, env)
            self.block(s.body, self.loop_facts(facts, s.body), dict(env))
        elif isinstance(s, (ir.For, ir.Choose, ir.Take)):
            if isinstance(s, ir.Choose):
                self.expr(s.role, facts, env)
            inner = dict(env)
            bound = self.binder(s.binder, facts, inner)
            held = self.loop_facts(facts, s.body) if isinstance(s, ir.For) else facts
            self.block(s.body, held | bound, inner)
        elif isinstance(s, ir.Menu):
            self.expr(s.role, facts, env)
            for option in s.options:
                guard = frozenset()
                if option.guard is not None:
                    self.expr(option.guard, facts, env)
                    guard = self.conj(option.guard, env)
                self.block(option.body, facts | guard, dict(env))
        elif isinstance(s, ir.CallProc):
            for a in s.args:
                self.expr(a, facts, env)
            proc = self.rs.procedures.get(s.name)
            if proc is not None and self.leads_to(proc.body):
                self.call("procedure", proc, s.args, facts, env)
        elif isinstance(s, ir.Trigger):
            for a in s.args:
                self.expr(a, facts, env)
            event = self.rs.events.get(s.event)
            for ability in self.rs.abilities.values():
                if ability.on == s.event and event is not None and self.leads_to((ability.where, ability.body)):
                    inner = {name: self.sub(a, env) for (name, _), a in zip(event.params, s.args)}
                    key = ("ability", ability.name, _key(inner), facts)
                    if key in self._done:
                        continue
                    self._done.add(key)
                    where = frozenset()
                    if ability.where is not None:
                        self.expr(ability.where, facts, inner)
                        where = self.conj(ability.where, inner)
                    self.block(ability.body, facts | where, inner)
        else:
            for child in _exprs_of(s):
                self.expr(child, facts, env)
            if isinstance(s, ir.Let):
                env.pop(s.name, None)

    def loop_facts(self, facts: frozenset, body) -> frozenset:
        """The facts that hold at every pass of a loop: those its body cannot change."""
        return self.lasting(facts, body)

    def call(self, kind: str, callee, args, facts: frozenset, env: dict) -> None:
        inner = {name: self.sub(a, env) for (name, _), a in zip(callee.params, args)}
        key = (kind, callee.name, _key(inner), facts)
        if key in self._done:
            return
        self._done.add(key)
        if kind == "procedure":
            self.block(callee.body, facts, inner)
        else:
            self.expr(callee.body, facts, inner)

    def binder(self, b: ir.Binder, facts: frozenset, env: dict) -> frozenset:
        """Walk a binder's parts (env loses the names it binds); the facts its bindings make true."""
        bound = set()
        for g in b.groups:
            self.expr(g.domain, facts | bound, env)
            domain = self.sub(g.domain, env)
            for name in g.names:
                env.pop(name, None)
                bound.add(ir.Binary("in", ir.Local(name), domain))
        if b.where is not None:
            self.expr(b.where, facts | bound, env)
            bound |= self.conj(b.where, env)
        for k in b.order:
            self.expr(k.value, facts | bound, env)
        return frozenset(bound)

    # ------------------------------------------------------------ expressions
    def expr(self, e, facts: frozenset, env: dict) -> None:
        if e is None:
            return
        if isinstance(e, ir.Binary) and e.op in ("and", "or"):
            self.expr(e.left, facts, env)
            more = self.conj(e.left, env) if e.op == "and" else frozenset({self.negate(self.sub(e.left, env))})
            self.expr(e.right, facts | more, env)
        elif isinstance(e, ir.IfExpr):
            self.expr(e.cond, facts, env)
            self.expr(e.then, facts | self.conj(e.cond, env), env)
            self.expr(e.otherwise, facts | {self.negate(self.sub(e.cond, env))}, env)
        elif isinstance(e, ir.Quantified):
            inner = dict(env)
            bound = self.binder(e.binder, facts, inner)
            self.expr(e.value, facts | bound, inner)
            if e.kind in ("first", "last"):
                self.check(e, facts, env)
        elif isinstance(e, ir.DefineCall):
            for a in e.args:
                self.expr(a, facts, env)
            define = self.rs.defines.get(e.name)
            if define is not None and self.leads_to(define.body):
                self.call("define", define, e.args, facts, env)
        else:
            for child in _subexpressions(e):
                self.expr(child, facts, env)

    # ------------------------------------------------------------ facts
    def sub(self, e, env: dict):
        return substitute(e, env) if env else e

    def conj(self, cond, env: dict) -> frozenset:
        """What a condition known true says: its conjuncts, a true define's body's (expanded),
        and the other side of an `or` one side of which is known false."""
        out: set = set()
        self._conj(self.sub(cond, env), out, 0)
        return frozenset(out)

    def _conj(self, e, out: set, depth: int) -> None:
        if isinstance(e, ir.Binary) and e.op == "and":
            self._conj(e.left, out, depth)
            self._conj(e.right, out, depth)
            return
        out.add(e)
        if isinstance(e, ir.Unary) and e.op == "not" and isinstance(e.operand, ir.Unary) and e.operand.op == "not":
            self._conj(e.operand.operand, out, depth)
        if isinstance(e, ir.DefineCall) and depth < 8 and e.name in self.rs.defines:
            define = self.rs.defines[e.name]
            if define.body.ty == BOOL:
                self._conj(substitute(define.body, {n: a for (n, _), a in zip(define.params, e.args)}), out,
                           depth + 1)

    def negate(self, e):
        if isinstance(e, ir.Unary) and e.op == "not":
            return e.operand
        if isinstance(e, ir.Binary) and e.op in _OPPOSITE:
            return ir.Binary(_OPPOSITE[e.op], e.left, e.right, ty=e.ty)
        return ir.Unary("not", e, ty=BOOL)

    def known(self, facts: frozenset) -> frozenset:
        """The facts, and what `A or B` with A known false adds."""
        out = set()
        for f in facts:
            self._conj(f, out, 0)
        for f in list(out):
            if isinstance(f, ir.Binary) and f.op == "or":
                if self.negate(f.left) in out:
                    self._conj(f.right, out, 0)
                elif self.negate(f.right) in out:
                    self._conj(f.left, out, 0)
        return frozenset(out)

    # ------------------------------------------------------------ the proof
    def check(self, e: ir.Quantified, facts: frozenset, env: dict) -> None:
        span = e.span
        if span is None or span in self.unproven:  # one place it is not proven is enough
            return
        binder = substitute(e.binder, env)
        g = binder.groups[0]
        name, domain, where = g.names[0], g.domain, binder.where
        why = self.leaky(domain, where, name)
        if why is not None and not self.proves(self.known(facts), name, domain, where):
            self.unproven[span] = (e, why)

    def proves(self, facts: frozenset, name: str, domain, where) -> bool:
        if _contradictory(facts):  # a way play never goes: `e.kind == ambush` and, later, `e.kind == boss`
            return True
        wanted = conjuncts(where)
        for f in facts:
            # exists over the same domain, its `where` as strong
            if isinstance(f, ir.Quantified) and f.kind == "exists" and len(f.binder.groups) == 1 \
                    and len(f.binder.groups[0].names) == 1 and f.binder.groups[0].domain == domain:
                other = f.binder.groups[0].names[0]
                mine = {substitute(c, {name: ir.Local(other)}) for c in wanted}
                if mine <= conjuncts(f.binder.where):
                    return True
            # a card known to be in the zone that passes the `where`
            if isinstance(f, ir.Binary) and f.op == "in" and f.right == domain:
                if all(_trivial(c) or c in facts for c in (substitute(w, {name: f.left}) for w in wanted)):
                    return True
            if not wanted and _not_empty(f, domain, self.rs):
                return True
            # the space finder: a card of the board that passes the test proves a space holds one
            if _on_board(f, domain, name, wanted):
                return True
        return False

    def leaky(self, domain, where, name: str) -> str | None:
        """Why the binder's matches may be gone (its `where` follows the game's state, and cards of the
        kinds it looks for leave the zone after the setup), or None when they stay (or the binder goes
        through no zone: a list is not questioned)."""
        if not follows_state(where, name, self.rs) or _met_at_an_end(domain, where, name, self.rs):
            return None
        ty = domain.ty
        if isinstance(domain, ir.BuiltinCall) and domain.name == "spaces":
            board = domain.args[0].zone if isinstance(domain.args[0], ir.ZoneRef) else None
            for kinds in cards_on(where, name):
                for kind in sorted(kinds):
                    if board is not None and kind in self.leaving.get(board, {}):
                        return f"{kind} cards leave {board} (line {self.leaving[board][kind]})"
            return None
        if not isinstance(ty, ZoneT):
            return None
        kinds = narrowed(where, name) or ty.kinds
        if isinstance(domain, ir.ZoneRef):
            leaving = self.leaving.get(domain.zone, {})
            for kind in sorted(kinds):
                if kind in leaving:
                    return f"{kind} cards leave {domain.zone} (line {leaving[kind]})"
            return None
        for kind in sorted(kinds):  # a space, or a zone given as a value: any move may take its cards
            if kind in self.moved:
                return f"{kind} cards move from place to place (line {self.moved[kind]})"
        return None


_OPPOSITE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def _key(env: dict) -> tuple:
    return tuple(sorted(env.items(), key=lambda kv: kv[0]))


def _contradictory(facts: frozenset) -> bool:
    """Whether the facts cannot all hold: one thing equal to two different values, or a fact and its
    negation."""
    values: dict = {}
    for f in facts:
        if isinstance(f, ir.Const) and f.value is False:  # `if royal:` with royal false
            return True
        if isinstance(f, ir.Unary) and f.op == "not" and f.operand in facts:
            return True
        if isinstance(f, ir.Binary) and f.op == "==" and isinstance(f.right, (ir.Const, ir.EnumValue, ir.RoleRef)):
            if values.setdefault(f.left, f.right) != f.right:
                return True
    return False


def _met_at_an_end(domain, where, name: str, rs: ir.Ruleset) -> bool:
    """Whether the domain's own top or bottom card passes every part of the `where` (defines read
    through): then the binder finds that card whenever the domain holds one."""
    parts = conjuncts(where)
    for end in ("top", "bottom"):
        card = ir.BuiltinCall(end, (domain,))
        if parts and all(_trivial(inlined(substitute(c, {name: card}), rs)) for c in parts):
            return True
    return False


def _trivial(e) -> bool:
    return isinstance(e, ir.Binary) and e.op in ("==", "<=", ">=") and e.left == e.right


def _not_empty(f, domain, rs: ir.Ruleset) -> bool:
    """Whether fact f says that `domain` (or a list made from it) holds something."""
    if isinstance(f, ir.Unary) and f.op == "not" and isinstance(f.operand, ir.BuiltinCall) \
            and f.operand.name == "empty":
        return _made_from(f.operand.args[0], domain, rs)
    if isinstance(f, ir.Binary) and isinstance(f.right, ir.Const) and isinstance(f.right.value, int) \
            and not isinstance(f.right.value, bool):
        k, left = f.right.value, f.left
        at_least_one = f.op == ">" and k >= 0 or f.op in (">=", "==") and k >= 1 or f.op == "!=" and k == 0
        if at_least_one and isinstance(left, ir.BuiltinCall) and left.name == "size":
            return _made_from(left.args[0], domain, rs)
        if at_least_one and isinstance(left, ir.Quantified) and left.kind == "count" \
                and len(left.binder.groups) == 1:
            return _made_from(left.binder.groups[0].domain, domain, rs)
    return False


def _made_from(e, domain, rs: ir.Ruleset, depth: int = 0) -> bool:
    """Whether e is `domain`, or a list of its items (a comprehension over it, a define's): e holding
    something means domain does."""
    if e == domain:
        return True
    if depth > 8:
        return False
    if isinstance(e, ir.DefineCall) and e.name in rs.defines:
        define = rs.defines[e.name]
        return _made_from(substitute(define.body, {n: a for (n, _), a in zip(define.params, e.args)}), domain, rs,
                          depth + 1)
    if isinstance(e, ir.Quantified) and e.kind == "list" and len(e.binder.groups) == 1:
        return _made_from(e.binder.groups[0].domain, domain, rs, depth + 1)
    return False


def _on_board(f, domain, space: str, wanted: set) -> bool:
    """Whether fact f, `exists k in B where W`, proves `first(s in spaces(B) where exists k in s where W')`
    (W' no stronger than W)."""
    if not (isinstance(domain, ir.BuiltinCall) and domain.name == "spaces" and len(wanted) == 1
            and isinstance(f, ir.Quantified) and f.kind == "exists" and len(f.binder.groups) == 1):
        return False
    (inner,) = wanted
    if not (isinstance(inner, ir.Quantified) and inner.kind == "exists" and len(inner.binder.groups) == 1
            and inner.binder.groups[0].domain == ir.Local(space) and f.binder.groups[0].domain == domain.args[0]):
        return False
    mine, theirs = inner.binder.groups[0].names[0], f.binder.groups[0].names[0]
    return {substitute(c, {mine: ir.Local(theirs)}) for c in conjuncts(inner.binder.where)} \
        <= conjuncts(f.binder.where)


def _subexpressions(e) -> list:
    """The expressions directly under e (through the records between: a case's arms)."""
    out = []
    for c in children(e):
        out += [c] if isinstance(c, ir.Expr) else _subexpressions(c)
    return out


def _exprs_of(s: ir.Stmt) -> list:
    """The expressions directly in a statement (not in the blocks it holds)."""
    out = []
    for c in children(s):
        if isinstance(c, ir.Expr):
            out.append(c)
        elif isinstance(c, ir.Binder):
            out += [g.domain for g in c.groups] + ([c.where] if c.where is not None else [])
    return out

