"""One check for every pass over the IR: it handles each statement and
expression class, or declares that it does not (and why).

A pass declares what it handles with a `rulelang.walk.Dispatch` table (its
`handlers` and `declines`), or, for a visitor with a method per class
(`expr_binary`), with `rulelang.walk.handled_by_methods` and a dictionary of
the classes it declines. A new IR class then fails this check in every pass
that says nothing about it, instead of being skipped in one of them.
"""
from __future__ import annotations

from typing import Collection, Mapping

from rulelang import ir


def ir_classes(base: type) -> tuple[type, ...]:
    """The IR's classes of statements (`ir.Stmt`) or expressions (`ir.Expr`)."""
    return {ir.Stmt: ir.STATEMENTS, ir.Expr: ir.EXPRESSIONS}[base]


def uncovered(base: type, handled: Collection[type], declines: Mapping[type, str] | None = None) -> list[str]:
    """What is wrong with a pass's declaration: classes neither handled nor
    declined, declined without a reason, or both handled and declined."""
    declines = declines or {}
    classes = ir_classes(base)
    problems = [f"{c.__name__}: neither handled nor declined" for c in classes
                if c not in handled and c not in declines]
    problems += [f"{c.__name__}: declined without saying why" for c, why in declines.items() if not why.strip()]
    problems += [f"{c.__name__}: both handled and declined" for c in declines if c in handled]
    problems += [f"{c.__name__}: not an IR class under {base.__name__}" for c in [*handled, *declines]
                 if c not in classes and c.__module__.startswith("rulelang.")]
    return problems


def assert_covers(name: str, base: type, handled: Collection[type],
                  declines: Mapping[type, str] | None = None) -> None:
    problems = uncovered(base, handled, declines)
    assert not problems, f"{name} over {base.__name__}: " + "; ".join(problems)
