"""Reuse: a quantifier's value that the next statements compute again is computed once.

Rules say `if size(targets_of(g)) == 1: attack(g, first(s in targets_of(g)))
elif size(targets_of(g)) > 1: commander chooses s in targets_of(g) ...`: written
out, the same list is built up to three times, and nothing between the three
changes what it reads. When the first thing a statement's test (an `if`) or value
(a `let`) evaluates is a quantifier, and a statement after it, before anything
that may change the game or the locals the quantifier reads, evaluates one equal
to it (the same up to the names bound inside), the value is bound to a local just
before that statement and both read the local.

That is the same game: the value is computed at the point it was computed first
(nothing else is evaluated before it there, so an error stops the game where it
did), and the later statements would have computed it again from the same state.
Between them only tests, `let`s and assignments are allowed, to locals, variables
and card states it does not read (a nested `if` counts as long as its branches
hold only those); loops, decisions and anything that moves a card end the run.
Expressions have no effects in the language (dice are statements), so computing a
value once instead of twice changes nothing but the steps counted against
runaway rules (fewer).
"""
from __future__ import annotations

import dataclasses

from rulelang import ir
from rulelang.walk import dispatch, map_children, walk

from .hoist import bound_names, free_locals
from .nodes import Decide, TakeFrom
from .share import canonical


@dataclasses.dataclass(frozen=True)
class Known:
    """A quantifier's value held by a local: `form` is its canonical expression."""
    form: ir.Expr
    kind: str
    reads: frozenset  # what it reads that statements may change: ("local"|"var"|"field", name)
    holder: str


class Reuse:
    DECLINES = {ir.Trigger: "triggers and windows are written out before reuse (abilities.py)",
                Decide: "a decision's options are attached after reuse", TakeFrom: "a take's options, likewise"}

    def __init__(self, fresh):
        self.fresh = fresh
        self.memo: dict = {}
        self.holders: list[str] = []  # in the order they were made
        self.skip: set[int] = set()  # which of them not to make

    def program_block(self, stmts: ir.Block) -> ir.Block:
        """A whole block (a step, a procedure, a watch, the setup), with reuse. A holder read only by
        the statement it was made for gains nothing: the block is rewritten again without those
        (the same holders are considered in the same order, each unused one now not made)."""
        self.holders, self.skip = [], set()
        out, _ = self.block(stmts, ())
        uses = dict.fromkeys(self.holders, 0)
        for n in walk(out):
            if isinstance(n, ir.Local) and n.name in uses:
                uses[n.name] += 1
        self.skip = {i for i, h in enumerate(self.holders) if uses[h] <= 1}
        if not self.skip:
            return out
        self.holders = []
        return self.block(stmts, ())[0]

    # ------------------------------------------------------------ statements
    def block(self, stmts, known: tuple[Known, ...]) -> tuple[ir.Block, tuple[Known, ...]]:
        """The block rewritten, and what is still known after it (nothing if it was not quiet)."""
        out: list[ir.Stmt] = []
        for s in stmts:
            s, known, before = self.stmt(s, known)
            out += before
            out.append(s)
        return tuple(out), known

    def stmt(self, s: ir.Stmt, known: tuple[Known, ...]):
        """(the statement rewritten, what is known after it, statements to put before it)."""
        return dispatch(self, "stmt", s, known)

    def stmt_let(self, s: ir.Let | ir.Assign, known: tuple[Known, ...]):
        value = self.reused(s.value, known)
        first, before, new = _first_evaluated(value), [], ()
        if isinstance(s, ir.Let) and first is value:
            new = (self.known(value, s.name),)  # `let x = Q`: x holds it
        elif first is not None and (held := self.hold(first)) is not None:
            let, k = held
            value, before, new = _replace_node(value, first, k), [let], (k,)
        s = dataclasses.replace(s, value=value)
        writes = _writes(s)  # what it sets is set after its value is computed
        return s, _forget(known, writes) + tuple(k for k in new if writes is not None and not k.reads & writes), before

    stmt_assign = stmt_let

    def stmt_while(self, s, known: tuple[Known, ...]):
        """A loop or a decision: what is evaluated before it may reuse; its body starts afresh."""
        head = {} if isinstance(s, ir.While) else {f: self.reused(getattr(s, f), known)
                                                   for f in ("binder", "count", "role") if hasattr(s, f)}
        return dataclasses.replace(s, body=self.block(s.body, ())[0], **head), (), []

    stmt_for = stmt_repeat = stmt_choose = stmt_take = stmt_while

    def stmt_menu(self, s: ir.Menu, known: tuple[Known, ...]):
        options = tuple(dataclasses.replace(o, guard=self.reused(o.guard, known) if o.guard is not None else None,
                                            body=self.block(o.body, ())[0]) for o in s.options)
        return dataclasses.replace(s, role=self.reused(s.role, known), options=options), (), []

    def changes_anything(self, s: ir.Stmt, known: tuple[Known, ...]):
        """A statement without blocks: its expressions are evaluated first, then it may change anything."""
        return map_children(s, lambda n: self.reused(n, known)), (), []

    stmt_move = stmt_draw = stmt_swap = stmt_shuffle = stmt_flip = stmt_roll = stmt_endgame = stmt_eliminate = stmt_callproc = \
        stmt_pass = changes_anything

    def tells(self, s: ir.Stmt, known: tuple[Known, ...]):
        """A statement that tells players something: it changes nothing a quantifier reads."""
        return map_children(s, lambda n: self.reused(n, known)), known, []

    stmt_reveal = stmt_announce = tells

    def stmt_if(self, s: ir.If, known: tuple[Known, ...]):
        before = []
        first = _first_evaluated(self.reused(s.branches[0][0], known))
        if first is not None and (held := self.hold(first)) is not None:
            let, k = held
            before, known = [let], known + (k,)
        # every test is evaluated before any branch runs, and each branch starts from what they knew
        branches = tuple((self.reused(cond, known), self.block(body, known)[0]) for cond, body in s.branches)
        otherwise = self.block(s.otherwise, known)[0] if s.otherwise is not None else None
        s = dataclasses.replace(s, branches=branches, otherwise=otherwise)
        return s, _forget(known, _writes(s)), before

    # ------------------------------------------------------------ expressions
    def hold(self, value: ir.Quantified) -> tuple[ir.Let, Known] | None:
        """A new local holding value, and what it knows (None: not made, see program_block)."""
        if len(self.holders) in self.skip:
            self.holders.append("")
            return None
        holder = self.fresh("$reuse")
        self.holders.append(holder)
        return ir.Let(holder, value, span=value.span), self.known(value, holder)

    def known(self, value: ir.Quantified, holder: str) -> Known:
        reads = {("local", name) for name in free_locals(value, self.memo)}
        reads |= {("var", n.name) for n in walk(value) if isinstance(n, ir.Var)}
        reads |= {("field", n.name) for n in walk(value) if isinstance(n, ir.Field)}
        return Known(canonical(value), value.kind, frozenset(reads), holder)

    def reused(self, n, known: tuple[Known, ...], shadowed: frozenset = frozenset()):
        """n with every part equal to a known value read from its holder (where no binder
        inside n binds a local the value reads)."""
        if not known:
            return n
        if isinstance(n, ir.Quantified) and _costly(n):
            form = None
            for k in known:
                if k.kind == n.kind and not k.reads & shadowed:
                    form = form if form is not None else canonical(n)
                    if form == k.form:
                        return ir.Local(k.holder, span=n.span, ty=n.ty)
        inner = shadowed | {("local", name) for name in bound_names(n)}
        return map_children(n, lambda c: self.reused(c, known, inner))


def _costly(e: ir.Quantified) -> bool:
    """Worth a local: not a plain `exists/count/first/last c in ZONE` (a length or an index)."""
    b = e.binder
    return b.where is not None or bool(b.order) or len(b.groups) > 1 or len(b.groups[0].names) > 1 \
        or e.kind not in ("exists", "count", "first", "last")


def _first_evaluated(e: ir.Expr | None) -> ir.Quantified | None:
    """The costly quantifier evaluating e computes before anything else, if there is one."""
    while e is not None:
        if isinstance(e, ir.Quantified):
            if _costly(e):
                return e
            e = e.binder.groups[0].domain  # `first(s in L)`: L first
        if isinstance(e, ir.Binary):
            e = e.left
        elif isinstance(e, ir.Unary):
            e = e.operand
        elif isinstance(e, ir.BuiltinCall) and e.args:
            e = e.args[0]
        elif isinstance(e, ir.Field):
            e = e.obj
        else:
            return None
    return None


def _writes(s: ir.Stmt) -> frozenset | None:
    """What a statement may change, as Known.reads names it; None: anything."""
    if isinstance(s, ir.Let):
        return frozenset({("local", s.name)})
    if isinstance(s, ir.Assign):
        t = s.target
        kind = "local" if isinstance(t, ir.Local) else "var" if isinstance(t, ir.Var) else \
            "field" if isinstance(t, ir.Field) else None
        return frozenset({(kind, t.name)}) if kind is not None else None
    if isinstance(s, ir.Pass):
        return frozenset()
    if isinstance(s, ir.If):
        out = frozenset()
        for body in [b for _, b in s.branches] + ([s.otherwise] if s.otherwise is not None else []):
            for inner in body:
                w = _writes(inner)
                if w is None:
                    return None
                out |= w
        return out
    return None


def _forget(known: tuple[Known, ...], writes: frozenset | None) -> tuple[Known, ...]:
    if writes is None:
        return ()
    return tuple(k for k in known if not k.reads & writes and ("local", k.holder) not in writes)


def _replace_node(e, target, k: Known):
    """e with the node `target` (by identity) read from k's holder."""
    if e is target:
        return ir.Local(k.holder, span=e.span, ty=e.ty)
    return map_children(e, lambda n: _replace_node(n, target, k))
