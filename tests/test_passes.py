"""Every front-end pass over the IR handles every statement and expression
class or says it does not; a node it has no rule for is an error, never a
silent skip. (The compiler's passes are checked the same way, with the same
helper: tests/helpers/passes.py.)"""
from __future__ import annotations

import dataclasses
import types
import typing

import pytest

from rulelang import ir, load_ruleset
from rulelang.checker import Checker, Scope
from rulelang.checker.expressions import EXPRESSIONS, expr
from rulelang.checker.statements import STATEMENTS, block
from rulelang.walk import Dispatch, Unhandled, children, handled_by_methods
from helpers.passes import assert_covers, uncovered


def test_the_ir_lists_its_statement_and_expression_classes():
    assert ir.Move in ir.STATEMENTS and ir.Pass in ir.STATEMENTS and ir.Stmt not in ir.STATEMENTS
    assert ir.Binary in ir.EXPRESSIONS and ir.Quantified in ir.EXPRESSIONS and ir.Expr not in ir.EXPRESSIONS
    assert set(ir.PARSER_ONLY) <= set(ir.EXPRESSIONS)
    assert not {ir.Binder, ir.CaseArm, ir.MenuOption} & {*ir.STATEMENTS, *ir.EXPRESSIONS}


def test_the_checker_has_a_rule_for_every_statement_and_expression():
    assert_covers("the checker", ir.Stmt, STATEMENTS.handlers, STATEMENTS.declines)
    assert_covers("the checker", ir.Expr, EXPRESSIONS.handlers, EXPRESSIONS.declines)


class Teleport(ir.Stmt):
    """A statement class no pass knows."""


class Glow(ir.Expr):
    """An expression class no pass knows."""


def test_a_node_the_checker_has_no_rule_for_is_an_error_not_a_skip():
    ck = Checker(load_ruleset("twenty-trials"))
    with pytest.raises(Unhandled, match="the checker has no rule for Teleport"):
        block(ck, (ir.Pass(), Teleport()), Scope())
    with pytest.raises(Unhandled, match="the checker has no rule for Glow"):
        expr(ck, Glow(), Scope())


def test_the_coverage_check_finds_what_a_pass_leaves_out():
    table: Dispatch = Dispatch("a pass", ir.Stmt, declines={ir.Pass: "", ir.Move: "never reaches it"})
    table.on(*[c for c in ir.STATEMENTS if c not in (ir.Draw, ir.Pass)])(lambda s: s)
    problems = uncovered(ir.Stmt, table.handlers, table.declines)
    assert "Draw: neither handled nor declined" in problems
    assert "Pass: declined without saying why" in problems
    assert "Move: both handled and declined" in problems
    with pytest.raises(ValueError, match="two rules for Move"):
        table.on(ir.Move)(lambda s: s)


def test_a_visitor_with_a_method_per_class_is_checked_the_same_way():
    class Visitor:
        def stmt_move(self, s):
            return s

    assert handled_by_methods(Visitor, "stmt", ir.STATEMENTS) == {ir.Move}
    assert "Draw: neither handled nor declined" in uncovered(ir.Stmt, handled_by_methods(Visitor, "stmt",
                                                                                          ir.STATEMENTS))


# ------------------------------------------------------------------ walk.py: every child is one it walks
def _node_types(hint) -> bool:
    """Whether a field's type can hold a node."""
    if isinstance(hint, type):
        return issubclass(hint, ir.Node)
    return any(_node_types(a) for a in typing.get_args(hint) if a is not Ellipsis)


def _walkable(hint) -> bool:
    """Whether every node a field's type can hold is one `walk.children` reaches:
    a node, or a tuple (or optional, or union) of such; never a mapping or a list."""
    if isinstance(hint, type):
        return True
    origin = typing.get_origin(hint)
    if origin in (tuple, typing.Union, types.UnionType):
        return all(_walkable(a) for a in typing.get_args(hint) if a is not Ellipsis)
    return not _node_types(hint)


def _reachable() -> list[type]:
    """Statement and expression classes and every node class their fields hold."""
    found, todo = [], [*ir.STATEMENTS, *ir.EXPRESSIONS]
    while todo:
        cls = todo.pop()
        if cls in found:
            continue
        found.append(cls)
        for hint in typing.get_type_hints(cls).values():
            todo += [c for c in _flatten(hint) if isinstance(c, type) and issubclass(c, ir.Node)]
    return found


def _flatten(hint):
    yield hint
    for a in typing.get_args(hint):
        yield from _flatten(a)


def test_walk_reaches_every_child_of_every_statement_and_expression():
    """walk.py's visitors are generic: they go through a node's fields. That
    holds only while every field that holds nodes is a node or a tuple of them."""
    bad = []
    for cls in _reachable():
        for f in dataclasses.fields(cls):
            hint = typing.get_type_hints(cls)[f.name]
            if f.name not in ("span", "ty") and not _walkable(hint):
                bad.append(f"{cls.__name__}.{f.name}: {hint}")
    assert not bad, "walk.children would miss the nodes of: " + ", ".join(bad)


def test_walk_finds_the_nodes_the_fields_hold():
    s = ir.If(((ir.Const(True), (ir.Pass(),)),), (ir.Let("x", ir.Const(1)),))
    assert [type(n).__name__ for n in children(s)] == ["Const", "Pass", "Let"]


def test_the_effects_analysis_says_what_every_statement_changes():
    """(The warnings of lint.py, first_matches.py and stale_loops.py read it.)"""
    from rulelang.effects import WRITES
    assert_covers("what rules write", ir.Stmt, WRITES.handlers, WRITES.declines)
