"""Printed conditions and values keep their grouping: no sentence can be read two ways.

Hypothesis builds typed IR expression trees directly (and, or, not,
conditional values, arithmetic, comparisons, quantifiers, defines), the
English generator renders each in the slots sentences put it in, and
`phrases.problems` checks the settled phrase tree: every open phrase stands
between boundaries strong enough for it. The checker is tested on trees
that are ambiguous, so that a pass means something.
"""
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generators.document import plain
from generators.english import context, expr, phrase, slots
from generators.normalize import normal
from generators.phrases import Cases, Clause, Join, Op, Words, inline, problems, settle
from rulelang import ir, load_text
from rulelang.types import BOOL, INT, CardT, ZoneT
from rulelang.walk import walk

GAME = """
game: grouping
title: Grouping
roles: [player]
params:
  bold: {default: false}
  risky: {default: true}
  limit: {default: 3, min: 0, max: 9}
cards:
  gem:
    fields: {rank: 1..9, red: bool}
    table: |
      rank red
      1    yes
      2    no
zones:
  deck: {facing: down, holds: [gem]}
  hand: {kind: hand, holds: [gem]}
vars:
  score: 0
  bonus: 0
  done: false
define:
  shiny(gem g):
    text: "{g} is shiny"
    value: g.rank > 5
  worth(gem g):
    text: "the worth of {g}"
    value: g.rank * 2
  lucky(): score > 3
setup: |
  move box to deck
modes:
  play:
    round:
      - step: Go
        do: |
          end game
"""
RS = load_text(GAME, "grouping.yaml")
GEM = CardT(frozenset({"gem"}))
DECK = ir.ZoneRef("deck", ty=ZoneT(frozenset({"gem"})))
HAND = ir.ZoneRef("hand", ty=ZoneT(frozenset({"gem"})))
C = ir.Local("c", ty=GEM)


def number_atoms():
    return st.sampled_from([
        ir.Const(0, ty=INT), ir.Const(1, ty=INT), ir.Const(7, ty=INT), ir.Var("score", ty=INT),
        ir.Var("bonus", ty=INT), ir.Param("limit", ty=INT), ir.BuiltinCall("size", (DECK,), ty=INT),
        ir.Field(ir.BuiltinCall("top", (HAND,), ty=GEM), "rank", ty=INT),
        ir.BuiltinCall("max", (ir.Var("score", ty=INT), ir.Const(2, ty=INT)), ty=INT),
        ir.Quantified("count", ir.Binder((ir.BinderGroup(("c",), DECK),), ir.DefineCall("shiny", (C,), ty=BOOL),
                                         types=(GEM,)), ty=INT),
    ])


def bool_atoms():
    return st.sampled_from([
        ir.Param("bold", ty=BOOL), ir.Param("risky", ty=BOOL), ir.Var("done", ty=BOOL),
        ir.BuiltinCall("empty", (DECK,), ty=BOOL), ir.BuiltinCall("empty", (HAND,), ty=BOOL),
        ir.DefineCall("lucky", (), ty=BOOL),
        ir.DefineCall("shiny", (ir.BuiltinCall("top", (DECK,), ty=GEM),), ty=BOOL),
        ir.IsType(ir.BuiltinCall("top", (DECK,), ty=GEM), "gem", ty=BOOL),
        ir.Quantified("exists", ir.Binder((ir.BinderGroup(("c",), HAND),), ir.DefineCall("shiny", (C,), ty=BOOL),
                                          types=(GEM,)), ty=BOOL),
        ir.Quantified("all", ir.Binder((ir.BinderGroup(("c",), DECK),), None, types=(GEM,)),
                      ir.Field(C, "red", ty=BOOL), ty=BOOL),
    ])


def as_condition(e):
    return e if e.ty == BOOL else ir.Binary(">", e, ir.Const(0, ty=INT), ty=BOOL)


def as_number(e):
    """A number from a condition: how many gems in the deck it holds for (no conditional added)."""
    if e.ty == INT:
        return e
    return ir.Quantified("count", ir.Binder((ir.BinderGroup(("c",), DECK),), e, types=(GEM,)), ty=INT)


def like(e, model):
    return as_condition(e) if model.ty == BOOL else as_number(e)


def combined(inner):
    """One more operator over expressions of either type, each made to fit where it goes."""
    return st.one_of(
        st.builds(lambda op, a, b: ir.Binary(op, as_condition(a), as_condition(b), ty=BOOL),
                  st.sampled_from(["and", "or"]), inner, inner),
        st.builds(lambda a: ir.Unary("not", as_condition(a), ty=BOOL), inner),
        st.builds(lambda op, a, b: ir.Binary(op, as_number(a), as_number(b), ty=BOOL),
                  st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), inner, inner),
        st.builds(lambda c, a, b: ir.IfExpr(as_condition(c), a, like(b, a), ty=a.ty), inner, inner, inner),
        st.builds(lambda w: ir.Quantified("exists", ir.Binder((ir.BinderGroup(("c",), DECK),), as_condition(w),
                                                             types=(GEM,)), ty=BOOL), inner),
        st.builds(lambda op, a, b: ir.Binary(op, as_number(a), as_number(b), ty=INT), st.sampled_from("+-*/%"),
                  inner, inner),
        st.builds(lambda a: ir.Unary("-", as_number(a), ty=INT), inner),
    )


def expressions():
    """Typed expression trees of true/false values and numbers, up to a dozen leaves."""
    return st.recursive(st.one_of(bool_atoms(), number_atoms()), combined, max_leaves=12)


EXAMPLES = int(os.environ.get("RULELANG_GROUPING_EXAMPLES", "250"))


def check_every_slot(e: ir.Expr) -> None:
    """The expression alone (with and without room for a list), and in the slots of sentences."""
    ctx = context(RS, RS.modes["play"])
    said = phrase(ctx, e)
    for lists in (True, False):
        settled = settle(said, lists=lists)
        assert not problems(settled), (problems(settled), inline(settled))
    for frame in (("if ", e, ":"), ("set ", ir.Var("score", ty=INT), " to ", e), ("repeat while ", e),
                  ("add ", e, " to ", ir.Var("bonus", ty=INT))):
        settled = settle(slots(ctx, *frame))
        assert not problems(settled), (problems(settled), inline(settled))
    text = inline(settle(said))
    for name in {n.name for n in walk(normal(e, RS)) if isinstance(n, (ir.Var, ir.Param))}:
        assert name.replace("_", " ") in text, f"{name} was dropped from {text!r}"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_generated_expressions_have_one_reading(e):
    check_every_slot(e)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions())
def test_many_generated_expressions_have_one_reading(e):
    check_every_slot(e)


# ------------------------------------------------------------ the checker finds what is ambiguous


A, B, X = Words("a"), Words("b"), Words("x")


@pytest.mark.parametrize("tree", [
    Join("and", (Join("or", (A, B), clauses=True), X), clauses=True),  # a or b and x
    Join("and", (Clause(A, "is not", Join("or", (B, X))), Words("y")), clauses=True),  # a is not b or x and y
    Op("+", 1, Cases(((A, B),), X), Words("1")),  # a if b; otherwise x + 1
    Op("×", 2, Op("+", 1, A, B), X),  # a + b × x
    Join("or", (A, B), opener="both"),  # both a or b
])
def test_the_checker_finds_two_readings(tree):
    assert problems(tree)


def test_settling_fixes_what_the_checker_finds():
    tree = Join("and", (Join("or", (A, B), clauses=True), Join("or", (X, Words("y")), clauses=True)), clauses=True)
    assert problems(tree)
    assert not problems(settle(tree)) and inline(settle(tree)) == "(a or b) and either x or y"
    listed = settle(tree, lists=True)
    assert not problems(listed) and inline(listed) == "all of the following hold"


def test_a_conditional_inside_arithmetic_is_lifted():
    """(200 if bold else 100 if risky else 0) + score: the conditional is said once, around the sum."""
    e = ir.Binary("+", ir.IfExpr(ir.Param("bold", ty=BOOL), ir.Const(200, ty=INT), ir.IfExpr(
        ir.Param("risky", ty=BOOL), ir.Const(100, ty=INT), ir.Const(0, ty=INT), ty=INT), ty=INT),
        ir.Var("score", ty=INT), ty=INT)
    text = plain(expr(context(RS), e))
    assert text == ("200 + score if the bold option is on; otherwise 100 + score if the risky option is on; "
                    "otherwise 0 + score")
