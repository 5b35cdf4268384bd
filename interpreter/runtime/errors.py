"""What can stop a running game, besides a decision."""
from __future__ import annotations

from rulelang.errors import Diagnostic, Span


class GameEnded(Exception):
    """Raised by `win`, `lose` and `end game`; caught by the engine."""

    def __init__(self, kind: str, role: str | None, reason: str | None):
        super().__init__(kind)
        self.kind, self.role, self.reason = kind, role, reason


class WatchFired(Exception):
    """Raised by the check that follows a change to the game when a `watch:`
    condition holds; the engine then runs the watch's statements."""

    def __init__(self, index: int):
        super().__init__(index)
        self.index = index


class RuleError(Exception):
    """The rules did something impossible while running (a ruleset bug that
    only shows in play, e.g. moving the top card of an empty deck)."""

    def __init__(self, span: Span | None, message: str, hint: str | None = None):
        super().__init__(message)
        self.diagnostic = Diagnostic(span, message, hint)


class Runaway(RuleError):
    """The game ran past its step limit: a loop that never ends, rounds that
    never end the game, or a binder with far too many combinations. The engine
    adds where it happened: the step and the round."""

    def __init__(self, span: Span | None, limit: int, kind: str = "loop", where: str | None = None,
                 watch: int | None = None):
        self.span, self.limit, self.kind, self.watch = span, limit, kind, watch
        at = f" (in step {where})" if where else ""
        ran = f"the game ran {limit:,} steps without ending"
        if kind == "rounds":
            message, hint = f"{ran}: its rounds repeat forever{at}", "a step must end the game some time " \
                "(`win`, `lose` or `end game`)"
        elif kind == "dice":
            message, hint = f"{ran}: {_quote(span, 'this roll')} rolls too many dice{at}", \
                "roll fewer dice, or raise the limit with --step-limit"
        elif kind == "watch":
            message, hint = f"{ran}: watch {watch} ({_quote(span, 'its condition')}) fires again and again{at}", \
                "a watch's `do:` must make its `when:` false (or end the game, or ask a decision): " \
                "each time it fires counts as a step against --step-limit"
        elif kind == "binder":
            message, hint = f"{ran}: {_quote(span, 'this binder')} goes through too many combinations{at}", \
                "bind fewer names over a large zone, or raise the limit with --step-limit"
        else:
            message, hint = f"{ran}: {_quote(span, 'this loop')} never ends{at}", \
                "make sure the loop changes what its condition tests, or raise the limit with --step-limit"
        super().__init__(span, message, hint)

    def at(self, where: str, kind: str | None = None) -> "Runaway":
        return Runaway(self.span, self.limit, kind or self.kind, where, self.watch)


def _quote(span: Span | None, otherwise: str) -> str:
    """The rules text at a span (a loop's first line), if short enough to quote."""
    if span is None:
        return otherwise
    line = span.source.line(span.line)
    text = line[span.col - 1:span.end_col - 1] if span.end_line == span.line else line.strip().rstrip(":")
    return f"`{text.strip()}`" if text.strip() and len(text) <= 80 else otherwise


class IllegalAction(Exception):
    """An answer that is not one of the offered options."""
