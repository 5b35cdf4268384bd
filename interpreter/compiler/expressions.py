"""Expressions -> Python expressions, as data (pycode.py).

`expr(e, fn, ctx)` is a Python expression computing `e` inside the function
`fn` being generated; `ctx.scope` holds the names bound by the binders around
(in Python locals); other locals of the rules live in `env`, the frame's dict,
so that they outlive a decision (`EnvRef`). Constants that come from the
ruleset go through the constants table (`const`), never into the code. The
built-in functions are calls.py's; quantifiers are binders.py's; lazy values
(computed once, the first time they are asked) are lazy.py's.
"""
from __future__ import annotations

import ast

from rulelang import ir
from rulelang.types import BoardT, ListT, ZoneT
from rulelang.walk import dispatch

from . import pycode as code
from . import tuning
from .context import Bound, Ctx, LazyBound, Part
from .nodes import Hoisted
from .prelude import MAX_LIST
from .pycode import LOAD

_ARITHMETIC = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult}
_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE,
            "in": ast.In, "not in": ast.NotIn}
_LOGIC = {"and": ast.And, "or": ast.Or}


def binary(op: str, left: ast.expr, right: ast.expr) -> ast.expr:
    """`left op right` for the language's operators (`/` and `%` aside: see expr_binary)."""
    if op in _ARITHMETIC:
        return ast.BinOp(left, _ARITHMETIC[op](), right)
    if op in _COMPARE:
        return ast.Compare(left, [_COMPARE[op]()], [right])
    return ast.BoolOp(_LOGIC[op](), [left, right])


def negated(e: ast.expr) -> ast.expr:
    if type(e) is ast.UnaryOp and type(e.op) is ast.Not and type(e.operand) is ast.UnaryOp \
            and type(e.operand.op) is ast.Not:  # (not (not not x): not x)
        return ast.UnaryOp(ast.Not(), e.operand.operand)
    return ast.UnaryOp(ast.Not(), e)


class Expressions(Part):
    DECLINES = {c: "the checker resolves every name before the compiler sees the rules" for c in ir.PARSER_ONLY}

    def __init__(self, gen):
        super().__init__(gen)
        self.always_cards: frozenset[str] = gen.always_cards  # locals of the rules that never hold none
        self._slots: dict[int, dict[str, int]] = {}  # a base slot -> the slots of each player's own (seat_offset)

    def expr(self, e: ir.Expr, fn, ctx: Ctx) -> ast.expr:
        return dispatch(self, "expr", e, fn, ctx)

    def expr_const(self, e, fn, ctx):
        v = e.value
        if v is None or isinstance(v, bool) or (isinstance(v, int) and -tuning.LITERAL_NUMBER < v < tuning.LITERAL_NUMBER):
            return code.const(v)
        return self.const(v)

    def expr_local(self, e, fn, ctx):
        bound = ctx.scope.get(e.name)
        if bound is not None:
            return code.name(bound.var)
        return self.local(e.name)

    def expr_var(self, e, fn, ctx):
        return code.expr("st.vars[SLOT]", SLOT=self.var_slot(e, fn, ctx))

    def var_slot(self, e: ir.Var, fn, ctx) -> ast.expr:
        """The slot of a variable; of a player's own variable, the slot for that player."""
        first = self.L.var_slot[e.name]
        return code.const(first) if e.owner is None else self.seat_offset(first, e.owner, fn, ctx, e.span)

    def seat_offset(self, base: int, owner: ir.Expr, fn, ctx, span) -> ast.expr:
        """`base` + a player's index in seat order (the slot of a player's own zone or variable): where the
        index is looked up by player, the slot is, in a table of the slots (one addition fewer)."""
        seat = self.seat_index(owner, fn, ctx, span)
        lookup = seat.body if type(seat) is ast.IfExp else seat  # (`SEATS[T] if (T := P) is not None else ...`)
        if base and type(lookup) is ast.Subscript and type(lookup.value) is ast.Name \
                and lookup.value.id == self.const(self.L.role_index).id:
            if base not in self._slots:  # (one table for each base: a constant is shared by its identity)
                self._slots[base] = {p: base + i for p, i in self.L.role_index.items()}
            lookup.value = self.const(self._slots[base])
            return seat
        return ast.BinOp(code.const(base), ast.Add(), seat)

    def seat_index(self, owner: ir.Expr, fn, ctx, span) -> ast.expr:
        """A player's index in seat order (its zones' and variables' offset); none is a rule error."""
        if isinstance(owner, ir.RoleRef):
            return code.const(self.L.role_index[owner.role])
        if isinstance(owner, ir.BuiltinCall) and owner.name in ("left_of", "right_of") and not self.g.puts_out \
                and self.options.idioms:  # no one is ever out: the seat next to it
            return code.expr("(SEAT + STEP) % N", SEAT=self.seat_index(owner.args[0], fn, ctx, owner.span),
                             STEP=1 if owner.name == "left_of" else -1, N=len(self.L.roles))
        if self.never_none(owner, ctx) or self.options.cards and isinstance(owner, ir.BuiltinCall) \
                and owner.name in ("left_of", "right_of"):  # a player, never none
            return code.expr("SEATS[P]", SEATS=self.const(self.L.role_index), P=self.expr(owner, fn, ctx))
        t, err = self.fresh("t"), self.error(span, "there is no player here (it is none)")
        return code.expr("SEATS[T] if (T := OWNER) is not None else _fail(ERR)", SEATS=self.const(self.L.role_index),
                         T=t, OWNER=self.expr(owner, fn, ctx), ERR=err)

    def expr_param(self, e, fn, ctx):
        return self.const(self.L.rs.param_values[e.name])

    def expr_enumvalue(self, e, fn, ctx):
        return self.const(e.value)

    def expr_roleref(self, e, fn, ctx):
        return self.const(e.role)

    def expr_zoneref(self, e, fn, ctx):
        base = self.L.zone_base[e.zone]
        if e.owner is None:
            return code.const(base)
        return self.seat_offset(base, e.owner, fn, ctx, e.span)

    def cards_of(self, e: ir.Expr, fn, ctx) -> ast.expr:
        """A zone, board or list expression as a Python list."""
        if isinstance(e.ty, BoardT):  # every space, bottom row first, left to right
            base, n = self.L.board_range(e.zone)
            few = self.g.boards.few_on_board(e.zone, n) if self.options.boards else None
            if few is not None:  # a board of many spaces that few cards can reach: find those
                return code.call("_on_board", "st", self.const(few), base, base + n)
            if n > tuning.SPACES_WRITTEN_OUT or not self.options.idioms:
                return code.expr("list(_chain(zones[A:B]))", A=base, B=base + n)
            # each space's cards put in one list in turn: twice as quick as chaining the spaces
            # (an iterator made for each), the same order
            return ast.List([ast.Starred(code.expr("zones[Z]", Z=z), LOAD) for z in range(base, base + n)], LOAD)
        if isinstance(e.ty, ZoneT):
            return code.expr("zones[Z]", Z=self.expr(e, fn, ctx))
        return self.expr(e, fn, ctx)

    def never_none(self, e: ir.Expr, ctx: Ctx) -> bool:
        """A name that always holds a card or a player (always_cards.py), or a card picked from a zone
        (`first(c in trial)`, a lazy value of one), which is never none: with none to pick it fails."""
        if isinstance(e, Hoisted):
            lazy = ctx.scope.get(e.name)
            return isinstance(lazy, LazyBound) and _picks_a_card(lazy.value)
        if isinstance(e, ir.Quantified):
            return _picks_a_card(e)
        if not isinstance(e, ir.Local):
            return False
        bound = ctx.scope.get(e.name)
        return bound.card if isinstance(bound, Bound) else bound is None and e.name in self.always_cards

    def card(self, e: ir.Expr, fn, ctx: Ctx) -> tuple[ast.expr, str | None]:
        """(expression, temp): where temp is not None, the expression is `(temp := e)`, to be
        tested for none before temp is read."""
        if self.never_none(e, ctx):
            return self.expr(e, fn, ctx), None
        t = self.fresh("t")
        return code.expr("(T := E)", T=t, E=self.expr(e, fn, ctx)), t

    def on_grid(self, e: ir.Expr, ctx: Ctx) -> str | None:
        """The grid board a card is surely on, if e is a name bound to one there (boards.py)."""
        bound = ctx.bound(e.name) if isinstance(e, ir.Local) else None
        return bound.grid if bound is not None else None

    def expr_field(self, e, fn, ctx):
        if isinstance(e.obj.ty, ZoneT):  # a space's mark, by zone instance
            return code.expr("MARKS[Z]", MARKS=self.const(self.L.marks[e.name]), Z=self.expr(e.obj, fn, ctx))
        if e.name in self.L.state_slot:  # a state value changes in play: read it from the state
            col = code.expr("st.props[S]", S=self.L.state_slot[e.name])
        else:
            col = self.const(self.L.columns.get(e.name, []))
        if isinstance(e.obj, ir.BuiltinCall) and e.obj.name in ("top", "bottom") and self.options.idioms:
            # of a zone's top or bottom card, which is none only when the zone is empty: the zone tested
            return code.expr("COL[T[END]] if (T := CARDS) else _fail(ERR)", COL=col, T=self.fresh("t"),
                             END=-1 if e.obj.name == "top" else 0, CARDS=self.cards_of(e.obj.args[0], fn, ctx),
                             ERR=self.error(e.span, f"there is no card here to read '{e.name}' from"))
        value, check = self.card(e.obj, fn, ctx)
        if check is None:
            return code.expr("COL[C]", COL=col, C=value)
        err = self.error(e.span, f"there is no card here to read '{e.name}' from")
        return code.expr("COL[T] if C is not None else _fail(ERR)", COL=col, T=check, C=value, ERR=err)

    def expr_definecall(self, e, fn, ctx):
        define = self.g.stmts.define_function(e.name)
        params = [p for p, _ in self.L.rs.defines[e.name].params]
        args = ast.Dict([self.const(p) for p in params], [self.expr(a, fn, ctx) for a in e.args])
        return code.call(self.const(define), "st", args)

    def expr_builtincall(self, e, fn, ctx):
        return getattr(self.g.calls, "builtin_" + e.name)(e, fn, ctx)  # one per entry of rulelang.builtins

    def expr_unary(self, e, fn, ctx):
        if e.op == "not" and isinstance(e.operand, ir.Unary) and e.operand.op == "not":
            return code.truth(self.expr(e.operand.operand, fn, ctx))
        if e.op == "not" and isinstance(e.operand, ir.Quantified) and e.operand.kind == "exists" \
                and (none := self.g.quants.exists_of_kind(e.operand, fn, ctx, invert=True)) is not None:
            return none
        operand = self.expr(e.operand, fn, ctx)
        return negated(operand) if e.op == "not" else ast.UnaryOp(ast.USub(), operand)

    def expr_binary(self, e, fn, ctx):
        op = e.op
        if op in ("in", "not in") and isinstance(e.right.ty, (ZoneT, BoardT)):
            value, check = self.card(e.left, fn, ctx)
            place = code.expr("where[C]", C=code.name(check) if check else value)
            if isinstance(e.right.ty, BoardT):
                base, n = self.L.board_range(e.right.zone)
                test = code.expr("A <= P < B", A=base, P=place, B=base + n)
            else:
                test = code.expr("P == Z", P=place, Z=self.expr(e.right, fn, ctx))
            if check is not None:
                test = code.expr("C is not None and TEST", C=value, TEST=test)
            return negated(test) if op == "not in" else test
        left, right = self.expr(e.left, fn, ctx), self.expr(e.right, fn, ctx)
        if op == "+" and isinstance(e.ty, ListT):
            return code.call("_join", left, right, self.error(e.span, f"a list of more than {MAX_LIST:,} items"))
        if op in ("/", "%"):
            return code.call("_divide", left, right, op == "/", self.error(e.span, "division by zero"))
        return binary(op, left, right)

    def expr_istype(self, e, fn, ctx):
        table = self.const(self.L.is_kind[e.kind])
        value, check = self.card(e.subject, fn, ctx)
        if check is None:
            test = code.expr("KIND[C]", KIND=table, C=value)
        else:
            test = code.expr("C is not None and KIND[T]", C=value, KIND=table, T=check)
        return negated(test) if e.negated else test

    def expr_ifexpr(self, e, fn, ctx):
        cond = self.expr(e.cond, fn, ctx)
        return ast.IfExp(cond, self.expr(e.then, fn, ctx), self.expr(e.otherwise, fn, ctx))

    def expr_case(self, e, fn, ctx):
        t = self.fresh("t")
        subject = self.expr(e.subject, fn, ctx)
        arms = [(values, self.expr(value, fn, ctx)) for values, value in self.case_arms(e)[0]]
        default = self.case_default(e, fn, ctx)
        if not arms:
            return code.expr("(S, D)[1]", S=subject, D=default)
        out = default
        for i in range(len(arms) - 1, -1, -1):
            values, value = arms[i]
            # the subject is evaluated once, in the first test
            probe = code.expr("(T := S)", T=t, S=subject) if i == 0 else code.name(t)
            out = ast.IfExp(self.case_test(probe, values), value, out)
        return out

    @staticmethod
    def case_arms(e: ir.Case) -> tuple[list[tuple[list, ir.Expr]], ir.Expr | None]:
        """The arms with patterns (their values, what the arm gives) and the `else` arm's value, if any."""
        arms, default = [], None
        for arm in e.arms:
            if arm.patterns:
                arms.append(([p.role if isinstance(p, ir.RoleRef) else p.value for p in arm.patterns], arm.value))
            else:
                default = arm.value
        return arms, default

    def case_default(self, e: ir.Case, fn, ctx) -> ast.expr:
        """What a `case` gives when no arm matches: its `else`, or an error."""
        default = self.case_arms(e)[1]
        if default is not None:
            return self.expr(default, fn, ctx)
        return code.call("_fail", self.error(e.span, "no case arm matches"))

    def case_test(self, probe: ast.expr, values: list) -> ast.expr:
        if len(values) == 1:
            return binary("==", probe, self.expr_const(ir.Const(values[0]), None, None))
        return binary("in", probe, self.const(frozenset(values)))

    def expr_listexpr(self, e, fn, ctx):
        return ast.List([self.expr(i, fn, ctx) for i in e.items], LOAD)

    def expr_rangeexpr(self, e, fn, ctx):
        if isinstance(e.low, ir.Const) and isinstance(e.high, ir.Const) \
                and e.high.value - e.low.value < tuning.CONSTANT_RANGE:
            return self.const(list(range(e.low.value, e.high.value + 1)))
        err = self.error(e.span, f"a range of more than {MAX_LIST:,} numbers")
        return code.call("_range", self.expr(e.low, fn, ctx), self.expr(e.high, fn, ctx), err)

    def expr_typevalues(self, e, fn, ctx):
        return self.const(list(self.L.rs.enums[e.enum].values))

    def expr_index(self, e, fn, ctx):
        err = self.error(e.span, "no such item of the list")
        return code.call("_item", self.expr(e.obj, fn, ctx), self.expr(e.index, fn, ctx), err)

    def expr_lookup(self, e, fn, ctx):  # a table computed before play (tables.py)
        return ast.Subscript(self.expr(e.table, fn, ctx), self.expr(e.key, fn, ctx), LOAD)

    def expr_letin(self, e, fn, ctx):
        v = self.fresh("v")
        value = self.expr(e.value, fn, ctx)
        body = self.expr(e.body, fn, ctx.bind({e.name: Bound(v)}))
        return code.expr("(V := VALUE, BODY)[1]", V=v, VALUE=value, BODY=body)

    # what other parts generate
    def expr_quantified(self, e, fn, ctx):
        return self.g.quants.quantified(e, fn, ctx)

    def expr_options(self, e, fn, ctx):
        return self.g.quants.listed(e, fn, ctx)

    def expr_template(self, e, fn, ctx):
        return self.g.telling.template(e, fn, ctx)

    def expr_hoisted(self, e, fn, ctx):
        return self.g.lazy.hoisted(e, fn, ctx)

    def expr_hoistlet(self, e, fn, ctx):
        return self.g.lazy.hoist_let(e, fn, ctx, inline=False)


def _picks_a_card(e: ir.Expr) -> bool:
    """`first`/`last` of the cards of one zone: a card, or an error (quantifiers.py)."""
    return isinstance(e, ir.Quantified) and e.kind in ("first", "last") and len(e.binder.names) == 1 \
        and len(e.binder.groups) == 1 and isinstance(e.binder.groups[0].domain.ty, ZoneT)
