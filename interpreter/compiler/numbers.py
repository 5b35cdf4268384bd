"""Numbers kept: the check that a number that may have grown has no more digits than numbers
may have (`--limit number_digits`), and a bounded variable kept within its bounds.

Both are left out where the compiler knows the value cannot need them: a number made of
constants and bounded variables (`tricks of p += 1` where tricks is 0..10) is never long, and
a value known to lie within a variable's bounds (`tricks of p = 0`) is stored as it is. A
value that may lie outside is kept within them in place (`V if 0 <= V <= 10 else ...`), the
call made only when it does.
"""
from __future__ import annotations

import ast
from typing import cast

from rulelang import ir
from rulelang.types import INT
from rulelang.walk import walk

from . import pycode as code
from .context import Part
from .pycode import STORE

_OPS = {"+=": ast.Add, "-=": ast.Sub}


def may_grow(e: ir.Expr) -> bool:
    """Whether a number's value may be larger than any value already kept: made with
    `+`, `-`, `*` or `sum`, or read from a local or a define (whose values are not
    checked when they are made). Only numbers: `/`, `%`, `min`, `abs`, counts and
    comparisons make nothing larger."""
    if e.ty != INT:
        return False
    for n in walk(e):
        if isinstance(n, ir.Binary) and n.op in ("+", "-", "*") and n.ty == INT or \
                isinstance(n, ir.Quantified) and n.kind == "sum" or \
                isinstance(n, ir.BuiltinCall) and n.name == "sum" or \
                isinstance(n, ir.Local) and n.ty == INT or isinstance(n, ir.DefineCall):
            return True
    return False


class Numbers(Part):
    def __init__(self, gen):
        super().__init__(gen)
        program = gen.program
        parts = () if program is None else \
            (program.setup, program.steps, tuple(program.procedures.values()), program.watches)
        # a roll that stops for chance stores its faces as they are (blocks.draw_roll): not within bounds
        self._rolled = frozenset(n.target.name for n in walk(parts) if isinstance(n, ir.Roll)
                                 and isinstance(n.target, ir.Var))

    def may_grow(self, e: ir.Expr) -> bool:
        return may_grow(e)

    def assign(self, s: ir.Assign, target: ast.expr, value: ast.expr, out: list) -> None:
        """`target op value` for an assignment; a number that may have grown is checked before it is kept."""
        if s.op == "=" and not may_grow(s.value):
            self.store(s.target, target, s.op, value, out)
            return
        new = s.value if s.op == "=" else ir.Binary(s.op[0], s.target, s.value, ty=INT)
        if s.op != "=":
            value = ast.BinOp(target, _OPS[s.op](), value)
        known = self.known_range(new) if self.options.idioms else None
        bound = 10 ** self.L.rs.number_digits - 1
        if known is None or not -bound <= known[0] <= known[1] <= bound:
            value = self.within_bound(value, s.span, out)
        self.store(s.target, target, "=", value, out, known)

    def within_bound(self, value: ast.expr, span, out: list) -> ast.expr:
        """A temporary holding `value`, after statements that stop the game with a located
        error if it has more digits than numbers may have (`--limit number_digits`)."""
        digits = self.L.rs.number_digits
        bound, t = 10 ** digits - 1, self.fresh("n")
        err = self.error(span, f"a number of more than {digits:,} digits: numbers in a game stay within "
                               f"±{bound:,}" if digits <= 30 else f"a number of more than {digits:,} digits")
        hint = self.const("a number that grows without end is a mistake in the rules (a product that multiplies "
                          "itself, a sum that never stops); if the game really needs more, raise the limit with "
                          f"--limit number_digits=N (now {digits:,})")
        out += code.stmts("T = VALUE\nif not LOW <= T <= HIGH:\n    _fail(ERR, HINT)", T=t, VALUE=value,
                          LOW=code.const(-bound), HIGH=code.const(bound), ERR=err, HINT=hint)
        return code.name(t)

    def store(self, target: ir.Expr, python: ast.expr, op: str, value: ast.expr, out: list,
              known: tuple[int, int] | None = None) -> None:
        """`python op value`, kept within a bounded variable's bounds (a change past one stops there);
        `known`: the range the value lies in, if known."""
        var = self.L.rs.vars.get(target.name) if isinstance(target, ir.Var) else None
        if var is None or var.low is None and var.high is None:
            if op == "=":
                out.append(code.assign(python, value))
                return
            # (an EnvRef, a target of our own, is one too once written out: render.py)
            stored = cast("ast.Name | ast.Attribute | ast.Subscript", code.as_expr(python, STORE))
            out.append(ast.AugAssign(stored, _OPS[op](), value))
            return
        new = value if op == "=" else ast.BinOp(python, _OPS[op](), value)
        if not self.options.idioms:
            out.append(code.assign(python, code.call("_bounded", new, var.low, var.high)))
            return
        if known is None and op == "=" and isinstance(new, ast.Constant) and type(new.value) is int:
            known = (new.value, new.value)
        low, high = var.low, var.high
        if known is not None and (low is None or low <= known[0]) and (high is None or known[1] <= high):
            out.append(code.assign(python, new))  # within the bounds already
            return
        if type(new) is not ast.Name:
            t = self.fresh("n")
            out.append(code.assign(t, new))
            new = code.name(t)
        test = "LOW <= V <= HIGH" if low is not None and high is not None else "LOW <= V" if low is not None \
            else "V <= HIGH"
        out.append(code.assign(python, code.expr(f"V if {test} else _bounded(V, LOW, HIGH)", V=new, LOW=low,
                                                 HIGH=high)))

    def known_range(self, e: ir.Expr) -> tuple[int, int] | None:
        """The lowest and highest value a number can have, where the compiler knows them: a constant,
        a bounded variable (whose every change is kept within its bounds), their sums and differences."""
        if isinstance(e, ir.Const) and type(e.value) is int:
            return e.value, e.value
        if isinstance(e, ir.Var):
            var = self.L.rs.vars.get(e.name)
            if var is None or type(var.low) is not int or type(var.high) is not int or e.name in self._rolled \
                    or type(var.initial) is not int or not var.low <= var.initial <= var.high:
                return None
            return var.low, var.high
        if isinstance(e, ir.Binary) and e.op in ("+", "-"):
            left, right = self.known_range(e.left), self.known_range(e.right)
            if left is None or right is None:
                return None
            if e.op == "+":
                return left[0] + right[0], left[1] + right[1]
            return left[0] - right[1], left[1] - right[0]
        return None
