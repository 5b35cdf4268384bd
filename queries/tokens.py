"""The words of a file's rules text, classified for colouring: keywords,
numbers, text in quotes, comments, operators, and names by what they name
(a zone, a card type, a local ...) as the index resolved them.

The text is cut into words by a pattern, not parsed, so rules being typed
are coloured too; a name the index did not resolve keeps no colour but
its grammar's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from rulelang.parser import KEYWORDS

from .places import Place

LEXEME = re.compile(r"""(?P<comment>\#.*)|(?P<string>"(?:[^"\\\n]|\\.)*"?)|(?P<number>\b[0-9]+\b)
                        |(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<operator>==|!=|<=|>=|\+=|-=|\.\.|[-+*/%<>=])""", re.VERBOSE)


@dataclass(frozen=True)
class Token:
    place: Place  # on one line
    kind: str  # keyword, number, string, comment, operator, or a symbol's kind (zone, local, ...)
    declares: bool = False


def tokens(analysis) -> list[Token]:
    names = {o.place: o for o in analysis.occurrences if o.place.file == analysis.path and o.symbols}
    out = []
    for rt in analysis.rules_texts:
        node = rt.node
        for row, text in enumerate(node.rows, 1):
            for m in LEXEME.finditer(text):
                kind = m.lastgroup
                span = node.span_at(row, m.start() + 1, row, m.end() + 1)
                if span.file != analysis.path or span.line != span.end_line:
                    continue  # text another file wrote (a variant's table), or folded over lines
                place = Place(span.file, span.line, span.col, span.end_line, span.end_col)
                if kind == "word":
                    found = names.get(place)
                    if found is not None:
                        out.append(Token(place, found.symbols[0].kind, found.declares))
                    elif m.group() in KEYWORDS:
                        out.append(Token(place, "keyword"))
                else:
                    out.append(Token(place, kind))
    return sorted(out, key=lambda t: t.place)
