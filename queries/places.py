"""Places in ruleset files, and the text around them.

A `Place` is a range of one file as the front end counts it: lines and
columns from 1, columns in characters, the end just after the last
character. Editors count otherwise (the language server converts at its
edge); everything in `queries` speaks in places.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import cached_property

from rulelang.errors import LINE_BREAK, Span

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, order=True)
class Place:
    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    @classmethod
    def of(cls, span: Span) -> Place:
        """A span's place; a span that marks a point covers the word there (or one character)."""
        if span.end_line > span.line or span.end_line == span.line and span.end_col > span.col:
            return cls(span.file, span.line, span.col, span.end_line, span.end_col)
        text = span.source.line(span.line)
        word = WORD.match(text, span.col - 1) if span.col >= 1 else None
        return cls(span.file, span.line, span.col, span.line, word.end() + 1 if word else span.col + 1)

    def holds(self, line: int, col: int) -> bool:
        """Whether the position is inside, or just after its end (where a cursor stands after a word)."""
        return (self.line, self.col) <= (line, col) <= (self.end_line, self.end_col)

    def within(self, other: Place) -> bool:
        return self.file == other.file and (other.line, other.col) <= (self.line, self.col) \
            and (self.end_line, self.end_col) <= (other.end_line, other.end_col)

    @property
    def size(self) -> tuple[int, int]:
        """How large it is, to find the innermost of places that hold one position."""
        return self.end_line - self.line, (self.end_col - self.col) if self.end_line == self.line else self.end_col

    def as_json(self) -> dict:
        return {"start": {"line": self.line, "column": self.col}, "end": {"line": self.end_line, "column": self.end_col}}

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class Text:
    """A file's text, read by lines and offsets."""

    def __init__(self, text: str):
        self.text = text

    @cached_property
    def starts(self) -> list[int]:
        return [0] + [m.end() for m in LINE_BREAK.finditer(self.text)]

    @cached_property
    def lines(self) -> list[str]:
        return LINE_BREAK.split(self.text)

    def offset(self, line: int, col: int) -> int:
        """The offset of a position (a position past a line's end is kept at its end)."""
        line = min(max(line, 1), len(self.starts))
        start = self.starts[line - 1]
        end = self.starts[line] if line < len(self.starts) else len(self.text)
        length = len(self.lines[line - 1])
        return min(start + max(col, 1) - 1, start + length, end)

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def at(self, place: Place) -> str:
        return self.text[self.offset(place.line, place.col):self.offset(place.end_line, place.end_col)]

    def word(self, line: int, col: int) -> tuple[str, Place] | None:
        """The name the position is in or just after, and its place; None between names."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        for m in WORD.finditer(text):
            if m.start() < col <= m.end() + 1:
                return m.group(), Place("", line, m.start() + 1, line, m.end() + 1)
        return None

    def find(self, name: str, within: Place, last: bool = False) -> Place | None:
        """Where `name` is written as a whole word inside a place: its first (or last) occurrence."""
        start, end = self.offset(within.line, within.col), self.offset(within.end_line, within.end_col)
        found = [m for m in re.finditer(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", self.text[start:end])]
        if not found:
            return None
        m = found[-1] if last else found[0]
        line, col = self.position(start + m.start())
        end_line, end_col = self.position(start + m.end())
        return Place(within.file, line, col, end_line, end_col)
