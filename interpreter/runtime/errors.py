"""What can stop a running game, besides a decision."""
from __future__ import annotations

import sys
from types import FrameType

from rulelang.errors import Crosses, Diagnostic, Span
from rulelang.files import location


class GameEnded(Crosses, Exception):
    """Raised by `win`, `lose` and `end game`; caught by the engine."""

    def __init__(self, kind: str, role: str | None, reason: str | None):
        super().__init__(kind)
        self.kind, self.role, self.reason = kind, role, reason


class WatchFired(Crosses, Exception):
    """Raised by the check that follows a change to the game when a `watch:`
    condition holds; the engine then runs the watch's statements."""

    def __init__(self, index: int):
        super().__init__(index)
        self.index = index


class RuleError(Crosses, Exception):
    """The rules did something impossible while running (a ruleset bug that
    only shows in play, e.g. moving the top card of an empty deck)."""

    def __init__(self, span: Span | None, message: str, hint: str | None = None, calls: str | None = None):
        super().__init__(message)
        self.reason = message  # what went wrong, without the calls it was reached through
        self.calls = called(span) if calls is None else calls
        self.diagnostic = Diagnostic(span, f"{message} ({self.calls})" if self.calls else message, hint)


def called(span: Span | None) -> str:
    """For rules written in place from a define or a procedure (compiler/notes.Via: a span of
    its body that knows the call it was written at), the calls they were reached through, so an
    error names the rule a person can change as well as the line that failed:
    `in can_complete, called at rulesets/twenty-trials.yaml:348`. A define or procedure compiled
    as a function of its own (the naive compile; one too big to write in place) is found by the
    Python frames the error is raised through instead (`_functions_called`)."""
    calls = []
    while getattr(span, "call", None) is not None:
        calls.append(f"in {span.name}, called at {location(span.call)}")  # type: ignore[union-attr]
        span = span.call  # type: ignore[union-attr]
    return "; ".join(calls + _functions_called())


def _functions_called() -> list[str]:
    """The calls of defines and procedures compiled as functions that the running code is in,
    innermost first: a frame of generated code knows its unit (the `__loader__` of its globals,
    compiler/unit.Unit: what it is, and each line's note, the rule it comes from), and the frame
    that called a define's unit is at the line of the call. Only errors pay for this walk."""
    calls = []
    inner = None  # the unit of the generated frame seen last
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        unit = frame.f_globals.get("__loader__")
        lines, what = getattr(unit, "lines", None), getattr(unit, "what", None)
        if isinstance(lines, list) and isinstance(what, str) and unit is not inner:
            kind, _, name = getattr(inner, "what", "").partition(" ")
            note = lines[frame.f_lineno - 1][1] if 0 < frame.f_lineno <= len(lines) else None
            if kind in ("define", "procedure") and note:
                calls.append(f"in {name}, called at {note}")
            inner = unit
        frame = frame.f_back
    return calls


class Runaway(RuleError):
    """The game ran past its step limit: a loop that never ends, rounds that
    never end the game, or a binder with far too many combinations. The engine
    adds where it happened: the step and the round."""

    def __init__(self, span: Span | None, limit: int, kind: str = "loop", where: str | None = None,
                 watch: int | None = None, calls: str | None = None):
        self.span, self.limit, self.kind, self.watch = span, limit, kind, watch
        step = f"in step {where}" if where else ""
        calls = called(span) if calls is None else calls
        said, hint = self._said(_aside(step, calls))  # the calls go in the aside that says where
        super().__init__(span, said, hint, calls="")
        self.reason, self.calls = self._said(_aside(step))[0], calls

    def _said(self, at: str) -> tuple[str, str]:
        """The message and the hint, with `at` (where it happened) where it goes."""
        span, kind = self.span, self.kind
        ran = f"the game ran {self.limit:,} steps without ending"
        if kind == "rounds":
            return f"{ran}: its rounds repeat forever{at}", \
                "a step must end the game some time (`win`, `lose` or `end game`)"
        if kind == "dice":
            return f"{ran}: {_quote(span, 'this roll')} rolls too many dice{at}", \
                "roll fewer dice, or raise the limit with --step-limit"
        if kind == "watch":
            return f"{ran}: watch {self.watch} ({_quote(span, 'its condition')}) fires again and again{at}", \
                ("a watch's `do:` must make its `when:` false (or end the game, or ask a decision): "
                 "each time it fires counts as a step against --step-limit")
        if kind == "binder":
            return f"{ran}: {_quote(span, 'this binder')} goes through too many combinations{at}", \
                "bind fewer names over a large zone, or raise the limit with --step-limit"
        return f"{ran}: {_quote(span, 'this loop')} never ends{at}", \
            "make sure the loop changes what its condition tests, or raise the limit with --step-limit"

    def at(self, where: str, kind: str | None = None) -> "Runaway":
        return Runaway(self.span, self.limit, kind or self.kind, where, self.watch, self.calls)


def _aside(*parts: str) -> str:
    said = "; ".join(p for p in parts if p)
    return f" ({said})" if said else ""


def _quote(span: Span | None, otherwise: str) -> str:
    """The rules text at a span (a loop's first line), if short enough to quote."""
    if span is None:
        return otherwise
    line = span.source.line(span.line)
    text = line[span.col - 1:span.end_col - 1] if span.end_line == span.line else line.strip().rstrip(":")
    return f"`{text.strip()}`" if text.strip() and len(text) <= 80 else otherwise


class IllegalAction(Exception):
    """An answer that is not one of the offered options."""
