"""Generated functions: the function being written, and a unit of them compiled.

A `Function` is a Python function being generated, as data (pycode.py): its
prelude (nested functions, lazy values) comes before its body. `Units` turns
one into a callable: a wrapper `_make(K)` binds the constants `k0, k1, ...`
from the table `K`, and the text render.py writes is compiled and executed in
a namespace holding only the helpers of prelude.py.

Safety: the executed text holds only names the generator makes (`v3`, `t7`,
`k2`, ...), small integers and operators. Every value that comes from a
ruleset reaches the code through `K`, never as source text, so a ruleset
cannot inject code.

Readability: every generated statement carries a note, `FILE:LINE` of the
rule it comes from, and each constant the value it stands for. The notes are
not in the executed text; a `Unit` keeps them and renders the annotated text
(same lines, comments added) only when asked: by `linecache`, so a traceback
through generated code shows the annotated line, and by `rulelang show
--python`, which prints every unit.
"""
from __future__ import annotations

import ast
from typing import Any

from rulelang.errors import Diagnostic, RulesetError, Span

from . import render
from .compiled import UNITS, Unit
from .held import held_everywhere
from .lift import liftable
from .notes import origin
from .prelude import GLOBALS
from .pycode import LOAD, STORE, EnvRef, Lazy, Nested, note, own_of

_SHORTCUTS = (("zones", "zones"), ("where", "where"), ("face", "face_up"))  # name = st.attribute


class Function:
    """A function being generated: its prelude (nested functions, lazy resets) comes before its
    body. What is known of the code written so far lives here too (codegen's flow facts)."""

    def __init__(self, name: str, params: tuple[str, ...] = (), note: str | None = None):
        self.name, self.params, self.note = name, params, note
        self.nonlocals: list[str] = []
        self.prelude: list[ast.stmt] = []
        self.body: list[ast.stmt] = []
        self.lazy: dict[str, ast.expr] = {}  # a lazy value -> its value's code in this function
        self.made: tuple | None = None  # the nested function made last for it: (it, its index in the prelude)

    def code(self) -> list[ast.stmt]:
        """The function's statements: the shortcuts its own code reads (`zones = st.zones`), then
        its prelude and its body."""
        own = self.prelude + self.body
        used = {n.id for n in own_of(own, ast.Name)}
        return [ast.Assign([ast.Name(short, STORE)], ast.Attribute(ast.Name("st", LOAD), attr, LOAD))
                for short, attr in _SHORTCUTS if short in used] + own

    def nested(self) -> Nested:
        """The function as a nested one (a quantifier's, a lazy value's)."""
        return note(Nested(self.name, self.code(), tuple(self.nonlocals)), self.note)

    def definition(self) -> ast.FunctionDef:
        made = ast.FunctionDef(self.name, ast.arguments([], [ast.arg(p) for p in self.params], None, [], [], None, []),
                               self.code(), [], None)
        return note(made, self.note)


class Units:
    """Names, constants and compiling: what every part of the code generator shares."""

    def __init__(self, title: str, keep: bool = True, lift: bool = True, idioms: bool = True):
        self.title = title  # the game, for file names: "twenty-trials/challenger"
        self.keep = keep  # keep the units (listing, tracebacks); not for constants being folded
        self.lift = lift  # nested functions that only read what is around them made once (lift.py)
        self.idioms = idioms  # a card looked at on top of a zone and moved at once popped off it (peeks.py)
        self.units: list[Unit] = []  # every generated unit, in the order made
        self.consts: list = []  # the constants of the unit being generated
        self._const_index: dict = {}
        self._count = 0
        # what the code of the unit being generated holds, noted as it is made: the locals of the
        # rules it reads or sets in env (by their constants: since the block being made began, see
        # blocks.py), the lazy values it asks about, its nested functions
        self.locals: set[str] = set()
        self.asked: set[str] = set()
        self.nested: dict[str, Nested] = {}

    def fresh(self, prefix: str) -> str:
        self._count += 1
        return f"{prefix}{self._count}"

    def const(self, value) -> ast.Name:
        key = (type(value), value) if isinstance(value, (int, str, bool, type(None))) else ("id", id(value))
        if key not in self._const_index:
            self._const_index[key] = len(self.consts)
            self.consts.append(value)
        return ast.Name(f"k{self._const_index[key]}", LOAD)

    def error(self, span, message: str) -> ast.Name:
        return self.const((span, message))

    def local(self, name: str, ctx=LOAD) -> EnvRef:
        """A local of the rules in the frame, to be read (or stored to, with ctx STORE)."""
        key = self.const(name).id
        self.locals.add(key)
        return EnvRef(key, ctx)

    def lazy(self, var: str, value: ast.expr) -> Lazy:
        self.asked.add(var)
        return Lazy(var, value)

    def nested_function(self, fn: Function) -> Nested:
        made = self.nested[fn.name] = fn.nested()
        return made

    def build(self, fill, span: Span | None, what: str):
        """Generate a function `_f(st, env)` with `fill(top)` and return it compiled; `what` says
        what it is, in the listing. `fill` may return the constants naming the locals of the rules
        kept in Python locals (merge.locals_not_in_env)."""
        # re-entrant: compiling a define or procedure may start in the middle of another
        saved = self.consts, self._const_index, self.locals, self.asked, self.nested
        self.consts, self._const_index, self.locals, self.asked, self.nested = [], {}, set(), set(), {}
        try:
            top = Function("_f", ("st", "env"), note=origin(span) if span is not None else None)
            localized = fill(top) or frozenset()
            return self._finish(top, span, what, localized)
        finally:
            self.consts, self._const_index, self.locals, self.asked, self.nested = saved

    def _finish(self, top: Function, span: Span | None, what: str, localized: frozenset):
        f = top.definition()
        constants = frozenset(f"k{i}" for i in range(len(self.consts)))
        shared = {name for made in self.nested.values() for name in made.nonlocals}  # names set from inside one
        found: dict[str, Nested] = {}
        lifted = liftable(f.body, localized, constants, shared, found) if self.lift else {}
        w = render.Written(localized, _asked(f) if self.asked else frozenset(), lifted)
        f = held_everywhere(f, frozenset(lifted), self.idioms)  # (the lifted functions in it are not written there)
        nested = {name: held_everywhere(found[name], peeks=self.idioms) for name in lifted}
        lines: list[tuple[str, str | None]] = [("def _make(K):", None)]
        lines += [(f"    k{i} = K[{i}]", None) for i in range(len(self.consts))]  # notes: Unit.get_source
        for name in lifted:
            lines += render.nested_def(nested[name], w, "    ")
        lines += render.lines([f], w, "    ")
        lines.append(("    return _f", None))
        name = f"rulelang-generated:{self.title}#{next(UNITS)}"
        try:
            code = compile("\n".join(line for line, _ in lines), name, "exec")
        except (SyntaxError, RecursionError, MemoryError) as exc:
            # Python's own bounds (20 loops inside one another, 100 levels of
            # indentation): the rules are valid but too deep to generate
            reason = exc.msg if isinstance(exc, SyntaxError) else "too deep"
            raise RulesetError([Diagnostic(span, f"these rules nest too deeply to compile ({reason})",
                                           "nest fewer loops and binders (x in ZONE, ...) inside one another: "
                                           "Python allows 20")]) from None
        namespace: dict[str, Any] = dict(GLOBALS)
        if self.keep:
            unit = Unit(name, what, lines, self.consts, code)
            self.units.append(unit)
            namespace.update(__name__=name, __loader__=unit)
        exec(code, namespace)  # noqa: S102 - our own text only
        made = namespace["_make"](self.consts)
        made.rules_title = what
        return made


def _asked(f: ast.FunctionDef) -> frozenset[str]:
    """The lazy values whose resets the code needs, once written: those a `Lazy` still asks about,
    and those a nested function declares nonlocal (bound where it is defined). Others were asked
    about as the code was made (a copy of it made and dropped, a function taken back into its
    caller) but are now always computed before they are read, by a plain assignment."""
    found: set[str] = set()
    for n in own_of([f], (Lazy, Nested), scopes=()):  # (one walk for both)
        found.update(n.nonlocals if type(n) is Nested else (n.var,))
    return frozenset(found)
