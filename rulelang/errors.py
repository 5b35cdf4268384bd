"""Source positions and the errors a person can act on.

Every problem in a ruleset becomes a `Diagnostic` with a `Span`; all of a
file's diagnostics are collected and raised together as one `RulesetError`,
printed as

    FILE:LINE:COL: error: MESSAGE
        the source line
        ^~~~
    hint: what to do about it
"""
from __future__ import annotations

import functools
import re
from dataclasses import field

from .records import record

QUOTE = 160  # characters of a source line quoted under an error
SHOWN = 100  # errors printed from one run (a mangled file can have thousands)
# where a line ends, as YAML counts lines (str.splitlines also ends one at \v, \f and \x1c-\x1e)
LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


@record
class Source:
    """The text of one file, kept so errors can quote the offending line."""

    name: str
    text: str

    @property
    def quotable(self) -> bool:
        """Whether errors quote its lines: only a ruleset's file (.yaml, .yml). Any
        other file named by mistake (/proc/self/environ, .env, a key) is reported
        by its path, line and column, never by what it holds."""
        return self.name.lower().endswith((".yaml", ".yml"))

    def lines(self) -> list[str]:
        return LINE_BREAK.split(self.text)

    def line(self, number: int) -> str:
        lines = self.lines()
        return lines[number - 1] if 0 < number <= len(lines) else ""


@record
class Span:
    """A range in a source file; lines and columns count from 1."""

    source: Source = field(repr=False, compare=False)
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    @property
    def file(self) -> str:
        return self.source.name

    def __str__(self) -> str:
        return f"{self.source.name}:{self.line}:{self.col}"


@record
class Diagnostic:
    span: Span | None
    message: str
    hint: str | None = None
    severity: str = "error"  # or "warning": `check` prints it and still succeeds

    def format(self) -> str:
        where = f"{self.span}: " if self.span else ""
        out = [f"{where}{self.severity}: {self.message}"]
        if self.span and self.span.source.quotable:
            text = self.span.source.line(self.span.line)
            if text.strip():
                width = 1
                if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
                    width = self.span.end_col - self.span.col
                width = max(1, min(width, len(text) - self.span.col + 1, QUOTE))
                col = self.span.col
                if len(text) > QUOTE:  # quote a window of a very long line around the column
                    start = max(0, min(col - 1 - QUOTE // 4, len(text) - QUOTE))
                    text, col = text[start:start + QUOTE], col - start
                out.append(f"    {text}")
                out.append("    " + " " * (col - 1) + "^" + "~" * (width - 1))
        if self.hint:
            out.append(f"hint: {self.hint}")
        return "\n".join(out)


def _remade(cls, args):
    return cls.__new__(cls, *args)  # (BaseException.__new__ keeps the args; __init__ is not run again)


class Crosses:
    """An exception that crosses to another process (a pool's worker to its parent) as it is: made
    again from its args and fields. Python's own way calls `cls(*args)`, and the args of an error
    whose `__init__` takes other parameters than its message do not fit them: unpickling fails, and
    a multiprocessing pool waits for ever for the result it cannot read."""

    def __reduce__(self):
        return _remade, (type(self), self.args), self.__dict__


class RulesetError(Crosses, Exception):
    """One or more problems in a ruleset (or parameters, or a command line)."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = sorted(
            diagnostics,
            key=lambda d: (d.span.file, d.span.line, d.span.col) if d.span else ("", 0, 0),
        )
        super().__init__(self.format())

    def format(self) -> str:
        shown = [d.format() for d in self.diagnostics[:SHOWN]]
        if len(self.diagnostics) > SHOWN:
            shown.append(f"... and {len(self.diagnostics) - SHOWN} more errors")
        return "\n".join(shown)


class Diagnostics:
    """A sink that collects diagnostics so one run reports all of them."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []
        self.seen: set[Diagnostic] = set()

    def error(self, span: Span | None, message: str, hint: str | None = None) -> None:
        d = Diagnostic(span, message, hint)
        if d not in self.seen:  # rules checked once per call of a define can fail alike each time
            self.seen.add(d)
            self.items.append(d)

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise RulesetError(self.items)


HINT_NAME = 64  # a name longer than this gets no hint: no one mistypes so long a name
HINT_POOL = 500  # the candidates a hint looks at, at most
HINT_SHORTLIST = 8  # of those, the ones difflib compares in full, picked by a cheap likeness first


def did_you_mean(name: str, candidates) -> str | None:
    """A hint naming the closest known name, if one is close; never the name
    itself (it was just refused: it exists, but not where it was used).

    Its cost is bounded whatever a ruleset names (a hint is made for every
    unknown name of a file from anyone): names of about the same length only,
    a shortlist of those sharing the most pairs of letters with the name (set
    operations, in C), and difflib's quadratic ratio on the shortlist alone."""
    if not isinstance(name, str) or not name or len(name) > HINT_NAME:
        return None
    slack = max(2, len(name) // 3)
    pool = [c for c in candidates if isinstance(c, str) and c != name and abs(len(c) - len(name)) <= slack]
    pool = pool[:HINT_POOL]
    if len(pool) > HINT_SHORTLIST:
        pairs = _pairs(name)
        pool = sorted(pool, key=lambda c: -len(pairs & _pairs(c)) / (len(c) + len(name)))[:HINT_SHORTLIST]
    import difflib  # (only for a name refused: not a cost of every process that reads a ruleset)
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


@functools.lru_cache(maxsize=1 << 16)
def _pairs(text: str) -> frozenset:
    """The pairs of neighbouring letters of a name, and its first letter (made once per name)."""
    return frozenset(zip(text, text[1:])) | {text[:1]}
