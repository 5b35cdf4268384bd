"""Positions as the editor counts them, and as the front end does.

The front end counts lines as YAML does (a line also ends at U+0085,
U+2028 and U+2029) and columns in characters; the Language Server Protocol
ends lines only at \\n, \\r\\n and \\r, and counts columns in UTF-16 code
units. Both meet at offsets into the text.
"""
from __future__ import annotations

import bisect
import re
from functools import cached_property

from lsprotocol import types as lsp

from queries.places import Place, Text

_BREAK = re.compile(r"\r\n|\r|\n")


class Document:
    """A file's text, with conversions between editor positions and places."""

    def __init__(self, text: str):
        self.text = text
        self.yaml = Text(text)

    @cached_property
    def starts(self) -> list[int]:
        return [0] + [m.end() for m in _BREAK.finditer(self.text)]

    def offset(self, position: lsp.Position) -> int:
        """The offset of an editor's position (past a line's end: at its end)."""
        line = min(max(position.line, 0), len(self.starts) - 1)
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        units = 0
        for i in range(start, end):
            if units >= position.character or self.text[i] in "\r\n":
                return i
            units += 2 if ord(self.text[i]) > 0xFFFF else 1
        return end

    def position(self, offset: int) -> lsp.Position:
        offset = min(max(offset, 0), len(self.text))
        line = bisect.bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        return lsp.Position(line, sum(2 if ord(c) > 0xFFFF else 1 for c in self.text[start:offset]))

    def place_at(self, position: lsp.Position) -> tuple[int, int]:
        """The front end's (line, column) of an editor's position."""
        return self.yaml.position(self.offset(position))

    def range(self, place: Place) -> lsp.Range:
        return lsp.Range(self.position(self.yaml.offset(place.line, place.col)),
                         self.position(self.yaml.offset(place.end_line, place.end_col)))
