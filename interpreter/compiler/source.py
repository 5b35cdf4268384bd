"""Generated functions as source text: building, naming and executing them.

A `Function` is a Python function being written: its prelude (nested
functions, lazy values) comes before its body. `Source` turns one into a
callable: a wrapper `_make(K)` binds the constants `k0, k1, ...` from the
table `K`, and the text is compiled and executed in a namespace holding only
the helpers of prelude.py.

Safety: the executed text holds only names the generator makes (`v3`, `t7`,
`k2`, ...), small integers and operators. Every value that comes from a
ruleset reaches the code through `K`, never as source text, so a ruleset
cannot inject code.

Readability: every generated statement carries a note, `FILE:LINE` of the
rule it comes from, and each constant the value it stands for. The notes
are not in the executed text; a `Unit` keeps them and renders the annotated
text (same lines, comments added) only when asked: by `linecache`, so a
traceback through generated code shows the annotated line, and by
`rulelang show --python`, which prints every unit.
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from operator import itemgetter

from rulelang.errors import Diagnostic, RulesetError, Span
from rulelang.files import location

from ..runtime.chance import ChanceSite
from ..runtime.decision import DecisionSite
from .polish import drop_dead_resets, lift_closed_functions
from .prelude import GLOBALS

_SHORTCUTS = (("zones", "zones"), ("where", "where"), ("face", "face_up"))
_UNITS = itertools.count(1)  # file names of generated units are unique in the process


@dataclass
class Unit:
    """One compiled piece of generated code, with its notes.

    It is the `__loader__` of the namespace the code runs in, which is how
    `linecache` (and so a traceback) finds the annotated text; its file name
    is not `<...>`, which linecache would not ask a loader about."""
    name: str  # the file name the code is compiled under
    what: str  # what it is, in words
    lines: list[tuple[str, str | None]]
    consts: list

    def get_source(self, _module: str) -> str:
        notes = [note for _, note in self.lines]
        notes[1:1 + len(self.consts)] = [_comment(_describe(c)) for c in self.consts]
        return "".join(line + (f"  # {_comment(note)}" if note else "") + "\n"
                       for (line, _), note in zip(self.lines, notes))

    def text(self) -> str:
        return f"# {self.what} ({self.name})\n" + self.get_source(self.name)


class Function:
    """A function being generated: its prelude (nested functions, lazy
    values) comes before its body; `notes` gives body lines their rule's place."""

    def __init__(self, name: str, params: str = "", nonlocals=(), note: str | None = None):
        self.name = name
        self.header = f"def {name}({params}):"
        self.note = note
        self.nonlocals = list(nonlocals)
        self.prelude: list[tuple[str, str | None]] = []  # (line, note), indented from the function's body
        self.body: list[str] = []
        self.notes: dict[int, str] = {}  # body line index -> FILE:LINE
        self.shortcuts_in: list[str] | None = None  # the text that needs `zones = st.zones`...: the body

    def mark(self, start: int, span: Span | None) -> None:
        """Note the rule that made the body lines from `start` on (if it made any)."""
        if span is not None and start < len(self.body) and start not in self.notes:
            self.notes[start] = location(span)

    def render(self, indent: str = "") -> list[tuple[str, str | None]]:
        inner = indent + "    "
        lines = [(indent + self.header, self.note)]
        if self.nonlocals:
            lines.append((inner + "nonlocal " + ", ".join(self.nonlocals), None))
        # statements live in the body; nested functions bind their own
        text = "\n".join(self.body if self.shortcuts_in is None else self.shortcuts_in)
        lines += [(f"{inner}{name} = st.{attr}", None) for name, attr in _SHORTCUTS
                  if re.search(rf"(?<![.\w]){name}\[", text)]
        lines += [(inner + line, note) for line, note in self.prelude]
        lines += [(inner + line, self.notes.get(i)) for i, line in enumerate(self.body)]
        if len(lines) == 1:
            lines.append((inner + "pass", None))
        return lines


def _comment(text: str) -> str:
    """Text as a one-line comment: control characters escaped, long values cut."""
    text = text if text.isprintable() else text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= 70 else text[:67] + "..."


def _describe(value) -> str:
    """A constant as its note says it."""
    if callable(value) and not isinstance(value, itemgetter):  # (an `ordered by`'s sort key says what it takes)
        return getattr(value, "rules_title", "a generated function")
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Span):  # an error: (span, message)
        return f"error at {location(value[0])}: {value[1]}"
    if isinstance(value, Span):  # where a loop or binder is, for the step limit's message
        return location(value)
    if isinstance(value, DecisionSite):
        return f"the decision '{value.label}' at {value.at}"
    if isinstance(value, ChanceSite):
        return f"the {value.kind}{' of ' + value.die if value.die else ''} at {value.at}"
    return repr(value)


class Source:
    """The text side of the code generator: names, constants, compiling."""

    def __init__(self, title: str, keep: bool = True, lift: bool = True):
        self.title = title
        self.lift = lift  # nested functions that only read what is around them made once (polish.py)  # the game, for file names: "twenty-trials/challenger"
        self.keep = keep  # keep the units (listing, tracebacks); not for constants being folded
        self.units: list[Unit] = []  # every generated unit, in the order made
        self._consts: list = []
        self._const_index: dict = {}
        self._count = 0

    def fresh(self, prefix: str) -> str:
        self._count += 1
        return f"{prefix}{self._count}"

    def const(self, value) -> str:
        key = (type(value), value) if isinstance(value, (int, str, bool, type(None))) else ("id", id(value))
        if key not in self._const_index:
            self._const_index[key] = len(self._consts)
            self._consts.append(value)
        return f"k{self._const_index[key]}"

    def error(self, span, message: str) -> str:
        return self.const((span, message))

    def build(self, fill, span: Span | None, what: str):
        """Generate a function `_f(st, env)` with `fill(top)` and return it
        compiled; `what` says what it is, in the listing."""
        # re-entrant: compiling a define or procedure may start in the middle of another
        saved = self._consts, self._const_index
        self._consts, self._const_index = [], {}
        try:
            top = Function("_f", "st, env", note=location(span) if span is not None else None)
            fill(top)
            return self._finish(top, span, what)
        finally:
            self._consts, self._const_index = saved

    def _finish(self, top: Function, span: Span | None, what: str):
        lines = [("def _make(K):", None)]
        lines += [(f"    k{i} = K[{i}]", None) for i in range(len(self._consts))]  # notes: Unit.get_source
        lines += drop_dead_resets(top.render("    "))
        if self.lift:
            lines = lift_closed_functions(lines, 1 + len(self._consts))
        lines.append(("    return _f", None))
        name = f"rulelang-generated:{self.title}#{next(_UNITS)}"
        try:
            code = compile("\n".join(line for line, _ in lines), name, "exec")
        except (SyntaxError, RecursionError, MemoryError) as exc:
            # Python's own bounds (20 loops inside one another, 100 levels of
            # indentation): the rules are valid but too deep to generate
            reason = exc.msg if isinstance(exc, SyntaxError) else "too deep"
            raise RulesetError([Diagnostic(span, f"these rules nest too deeply to compile ({reason})",
                                           "nest fewer loops and binders (x in ZONE, ...) inside one another: "
                                           "Python allows 20")]) from None
        namespace = dict(GLOBALS)
        if self.keep:
            unit = Unit(name, what, lines, self._consts)
            self.units.append(unit)
            namespace.update(__name__=name, __loader__=unit)
        exec(code, namespace)  # noqa: S102 - our own text only
        made = namespace["_make"](self._consts)
        made.rules_title = what
        return made
