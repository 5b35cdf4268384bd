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
    def __init__(self, span: Span | None, limit: int):
        super().__init__(span, f"the rules ran {limit} steps without finishing the game; this loop never ends",
                         "make sure the loop changes what its condition tests, or raise the limit with --step-limit")


class IllegalAction(Exception):
    """An answer that is not one of the offered options."""
