"""The front end's diagnostics as data: what `rulelang check --format json`
prints, the language server underlines and the playground shows."""
from __future__ import annotations

from dataclasses import dataclass

from rulelang.errors import Diagnostic

from .places import Place


@dataclass(frozen=True)
class Problem:
    """An error or a warning: where (None: about no place in a file, such as a
    parameter given on the command line), what, and what to do about it."""
    file: str | None
    place: Place | None
    severity: str  # "error" or "warning"
    message: str
    hint: str | None = None

    @classmethod
    def of(cls, d: Diagnostic, file: str | None = None) -> Problem:
        """`file`: the ruleset a diagnostic without a place is about."""
        place = Place.of(d.span) if d.span is not None else None
        return cls(place.file if place else file, place, d.severity, d.message, d.hint)

    def as_json(self) -> dict:
        return {"file": self.file, "range": self.place.as_json() if self.place else None,
                "severity": self.severity, "message": self.message, "hint": self.hint}
