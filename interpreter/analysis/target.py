"""Targets for a sweep: `--target "0.25 <= win_rate.challenger <= 0.35"`.

A target is a condition on a configuration's figures (sweep.py names them:
`win_rate.ROLE`, `score.ROLE`, `rounds`, `decisions`, `measure.NAME`):
comparisons, chained as in Python (`a <= x <= b`), of sums, differences,
products and quotients of figures and numbers (`25%` is 0.25; `abs(x)`),
joined with `and` and `or`. It is parsed with its own small grammar, never
evaluated as Python.

Every configuration gets a distance to the target, 0 when it meets it: a
comparison is off by how far its sides are from holding, `and` adds, `or`
takes the nearest. The summary ranks by it, so the configurations that meet
the target come first, then the nearest misses.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from lark import Lark, Transformer, UnexpectedInput
from lark.exceptions import VisitError

from rulelang.errors import did_you_mean

GRAMMAR = r"""
?start: disjunction
?disjunction: conjunction ("or" conjunction)*
?conjunction: comparison ("and" comparison)*
?comparison: sum (COMPARE sum)*
?sum: product (ADD product)*
?product: unary (MULTIPLY unary)*
?unary: "-" unary -> negative
      | atom
?atom: NUMBER "%" -> percent
     | NUMBER -> number
     | NAME ("." NAME)* -> name
     | "abs" "(" sum ")" -> absolute
     | "(" disjunction ")"
COMPARE: "<=" | ">=" | "==" | "<" | ">"
ADD: "+" | "-"
MULTIPLY: "*" | "/"
NAME: /[A-Za-z_][A-Za-z_0-9]*/
NUMBER: /[0-9]+(\.[0-9]*)?|\.[0-9]+/
%ignore /[ \t]+/
"""

_parser = Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)

EXAMPLE = '"0.25 <= win_rate.challenger <= 0.35"'


class TargetError(ValueError):
    """A target that cannot be read (a usage error)."""


# ------------------------------------------------------------------ the tree


@dataclass(frozen=True)
class Number:
    value: float

    def value_in(self, figures: dict) -> float | None:
        return self.value


@dataclass(frozen=True)
class Figure:
    name: str

    def value_in(self, figures: dict) -> float | None:
        return figures.get(self.name)


@dataclass(frozen=True)
class Arithmetic:
    op: str  # + - * / abs neg
    parts: tuple

    def value_in(self, figures: dict) -> float | None:
        values = [p.value_in(figures) for p in self.parts]
        if None in values:
            return None  # a figure no game gave (a measure that never applied)
        if self.op == "abs":
            return abs(values[0])
        if self.op == "neg":
            return -values[0]
        a, b = values
        if self.op == "/":
            return a / b if b else None
        return a + b if self.op == "+" else a - b if self.op == "-" else a * b


@dataclass(frozen=True)
class Comparison:
    sides: tuple  # arithmetic, one more than ops
    ops: tuple[str, ...]

    def distance(self, figures: dict) -> tuple[bool, float]:
        values = [s.value_in(figures) for s in self.sides]
        if None in values:
            return False, math.inf
        met, off = True, 0.0
        for a, op, b in zip(values, self.ops, values[1:]):
            holds = {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b}[op]
            met = met and holds
            off += 0.0 if holds else abs(a - b)
        return met, off


@dataclass(frozen=True)
class Logic:
    op: str  # and, or
    parts: tuple

    def distance(self, figures: dict) -> tuple[bool, float]:
        results = [p.distance(figures) for p in self.parts]
        if self.op == "and":
            return all(m for m, _ in results), sum(d for _, d in results)
        return any(m for m, _ in results), min(d for _, d in results)


# ------------------------------------------------------------------ reading


class _Build(Transformer):
    def __init__(self, text: str, names: list[str]):
        super().__init__()
        self.text, self.names = text, names

    def number(self, items):
        return Number(float(items[0]))

    def percent(self, items):
        return Number(float(items[0]) / 100)

    def name(self, items):
        name = ".".join(items)
        if name not in self.names:
            hint = did_you_mean(name, self.names) or "figures: " + ", ".join(self.names)
            raise TargetError(_located(self.text, items[0].column, f"no figure '{name}'", hint))
        return Figure(name)

    def negative(self, items):
        return Arithmetic("neg", (self._number(items[0]),))

    def absolute(self, items):
        return Arithmetic("abs", (self._number(items[0]),))

    def sum(self, items):
        return self._chain(items)

    product = sum

    def _chain(self, items):
        result = self._number(items[0])
        for op, right in zip(items[1::2], items[2::2]):
            result = Arithmetic(str(op), (result, self._number(right)))
        return result

    def comparison(self, items):
        return Comparison(tuple(self._number(i) for i in items[::2]), tuple(str(op) for op in items[1::2]))

    def conjunction(self, items):
        return Logic("and", tuple(self._condition(i) for i in items))

    def disjunction(self, items):
        return Logic("or", tuple(self._condition(i) for i in items))

    def _number(self, node):
        if isinstance(node, (Comparison, Logic)):
            raise TargetError(f"--target {self.text!r}: a condition where a number was expected; "
                              "compare numbers, and join conditions with `and` and `or`")
        return node

    def _condition(self, node):
        if not isinstance(node, (Comparison, Logic)):
            raise TargetError(f"--target {self.text!r}: a number where a condition was expected; "
                              f"a target compares figures with numbers, e.g. {EXAMPLE}")
        return node


@dataclass(frozen=True)
class Target:
    text: str
    condition: Comparison | Logic

    def distance(self, figures: dict) -> tuple[bool, float]:
        """(whether the figures meet the target, how far they are from it: 0 when they do)."""
        return self.condition.distance(figures)

    def names(self) -> list[str]:
        """The figures it names, in order."""
        found: dict[str, None] = {}

        def walk(node):
            if isinstance(node, Figure):
                found[node.name] = None
            for child in getattr(node, "parts", ()) or getattr(node, "sides", ()):
                walk(child)
        walk(self.condition)
        return list(found)

    def bands(self) -> dict[str, tuple[float, float]]:
        """The range each figure must lie in where the target says so plainly
        (comparisons of a figure with numbers, joined by `and`): for plots."""
        parts = self.condition.parts if isinstance(self.condition, Logic) and self.condition.op == "and" \
            else (self.condition,)
        bands: dict[str, tuple[float, float]] = {}
        for part in parts:
            if not isinstance(part, Comparison):
                continue
            for a, op, b in zip(part.sides, part.ops, part.sides[1:]):
                for figure, bound, op in ((a, b, op), (b, a, _MIRROR[op])):
                    if isinstance(figure, Figure) and isinstance(bound, Number):
                        low, high = bands.get(figure.name, (-math.inf, math.inf))
                        if op in ("<", "<=", "=="):
                            high = min(high, bound.value)
                        if op in (">", ">=", "=="):
                            low = max(low, bound.value)
                        bands[figure.name] = (low, high)
        return bands


_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "=="}


def parse_target(text: str, names: list[str]) -> Target:
    """The target `text`, whose names must be among `names`; TargetError if it cannot be read."""
    try:
        tree = _parser.parse(text)
    except UnexpectedInput as exc:
        token = getattr(exc, "token", None) or getattr(exc, "char", None)  # a token, or a character no token has
        ended = token is None or getattr(token, "type", None) == "$END"
        raise TargetError(_located(text, len(text) + 1 if ended else exc.column,
                                   "the target ends too soon" if ended else f"unexpected '{token}'",
                                   f"a target compares figures with numbers, e.g. {EXAMPLE}")) from None
    try:
        condition = _Build(text, names).transform(tree)
    except VisitError as exc:  # lark wraps what the builder raises
        raise exc.orig_exc from None
    if not isinstance(condition, (Comparison, Logic)):
        raise TargetError(f"--target {text!r}: a number, not a condition; "
                          f"a target compares figures with numbers, e.g. {EXAMPLE}")
    return Target(text, condition)


def _located(text: str, column: int, message: str, hint: str) -> str:
    return f"--target: {message} (column {column})\n    {text}\n    {' ' * (column - 1)}^\nhint: {hint}"
