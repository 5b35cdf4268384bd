"""Every pass of the compiler handles every class of statement and expression, or
declares (its `DECLINES`: class -> why) that it never meets one: a new node the
passes were not taught is an error where it is met, never a statement silently
skipped (the zone analysis once ignored what it did not know, and type tests
then folded wrongly). The check is the front end's (tests/helpers/passes.py),
here also over the compiler's own classes of node (nodes.py). A new statement
or expression is added by giving it a method in each pass this test lists
(docs/architecture.md, "Adding a statement")."""
import pytest
from helpers.passes import assert_covers

from interpreter.compiler import nodes
from interpreter.compiler.always_cards import _Binds
from interpreter.compiler.blocks import Blocks
from interpreter.compiler.expressions import Expressions
from interpreter.compiler.flow import ITEMS, Lowering, _Suspends
from interpreter.compiler.fold import Folder
from interpreter.compiler.reuse import Reuse
from interpreter.compiler.statements import Changes, Statements
from interpreter.compiler.zones import ZoneAnalysis
from rulelang import ir
from rulelang.walk import Unhandled, dispatch, handled_by_methods

OURS = {ir.Stmt: (nodes.Decide, nodes.TakeFrom), ir.Expr: (nodes.LetIn, nodes.Hoisted, nodes.HoistLet, nodes.Options,
                                                                nodes.Lookup)}
PASSES = [(Folder, "stmt", ir.Stmt), (Folder, "expr", ir.Expr), (ZoneAnalysis, "stmt", ir.Stmt),
          (Reuse, "stmt", ir.Stmt), (_Binds, "binds", ir.Stmt), (_Suspends, "suspends", ir.Stmt),
          (Lowering, "lower", ir.Stmt), (Statements, "stmt", ir.Stmt), (Changes, "changes", ir.Stmt),
          (Expressions, "expr", ir.Expr)]


@pytest.mark.parametrize("pass_class, prefix, base", PASSES, ids=[f"{p.__name__}-{x}" for p, x, _ in PASSES])
def test_every_pass_handles_every_node_or_declines_it(pass_class, prefix, base):
    classes = (*(ir.STATEMENTS if base is ir.Stmt else ir.EXPRESSIONS), *OURS[base])
    handled, declines = handled_by_methods(pass_class, prefix, classes), getattr(pass_class, "DECLINES", {})
    assert_covers(pass_class.__name__, base, handled, {c: why for c, why in declines.items()
                                                       if issubclass(c, base) and c.__module__.startswith("rulelang")})
    ours = [c.__name__ for c in OURS[base] if c not in handled and c not in declines]
    assert not ours, f"{pass_class.__name__} says nothing of the compiler's {', '.join(ours)}"


def test_the_code_generator_has_a_rule_for_every_flow_item_and_drawing_statement():
    assert handled_by_methods(Blocks, "flow", ITEMS) == set(ITEMS)
    assert handled_by_methods(Blocks, "draw", (ir.Roll, ir.Shuffle, nodes.TakeFrom)) == {ir.Roll, ir.Shuffle,
                                                                                          nodes.TakeFrom}


class Juggle(ir.Stmt):
    """A statement the compiler has never heard of."""


def test_a_node_a_pass_was_not_taught_is_an_error_where_it_is_met():
    with pytest.raises(Unhandled, match="ZoneAnalysis has no rule for Juggle"):
        dispatch(ZoneAnalysis.__new__(ZoneAnalysis), "stmt", Juggle(), {})
    with pytest.raises(Unhandled, match="Folder has no rule for Trigger: triggers and windows are written out"):
        dispatch(Folder.__new__(Folder), "stmt", ir.Trigger("e", ()), {})
