"""Loops that only collect, written as list comprehensions.

A quantifier that lists values (`[x for ...]`, a decision's options, rows to
sort) is generated as nested loops around one `OUT.append(VALUE)`, tested by
at most one `if`. Written as `OUT += [VALUE for ... if TEST]`, each value is
added by one bytecode instead of a method call: the same values, in the same
order, computed by the same expressions (an assignment expression in the test
binds in the function around the comprehension, as the loop's did).
"""
from __future__ import annotations

import re

_LIST = re.compile(r" *(\w+) = \[\]")  # a list a function collects into


def collecting(body: list[str], notes: dict[int, str]) -> tuple[list[str], dict[int, str]]:
    """The body with the loops filling each list it starts empty as comprehensions."""
    for out in [m[1] for line in body if (m := _LIST.fullmatch(line))]:
        body, notes = comprehensions(body, out, notes)
    return body, notes


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def comprehensions(body: list[str], out: str, notes: dict[int, str]) -> tuple[list[str], dict[int, str]]:
    """`body` with every loop nest that only appends to `out` as one comprehension, and its
    notes (line index -> rule) moved with the lines."""
    lines, moved, i = [], {}, 0
    while i < len(body):
        found = _nest(body, i, out)
        if found is None:
            if i in notes:
                moved[len(lines)] = notes[i]
            lines.append(body[i])
            i += 1
            continue
        end, text = found
        note = next((notes[j] for j in range(i, end) if j in notes), None)
        if note is not None:
            moved[len(lines)] = note
        lines.append(text)
        i = end
    return lines, moved


def _nest(body: list[str], i: int, out: str) -> tuple[int, str] | None:
    """(the index after it, its comprehension) if a collecting loop nest starts at line i."""
    if not body[i].lstrip(" ").startswith("for "):
        return None
    indent, clauses, j = _indent(body[i]), [], i  # the clauses: `for ...` and `if ...`, in order
    while j < len(body):
        line = body[j]
        if _indent(line) != indent + 4 * (j - i):
            return None
        text = line.lstrip(" ")
        if text.startswith("for ") and text.endswith(":") and ":=" not in text:  # (Python forbids that there)
            clauses.append(text[:-1])
        elif text.startswith("if ") and text.endswith(":"):
            clauses.append(text[:-1])
        elif text.startswith(f"{out}.append(") and text.endswith(")"):
            end = j + 1
            if end < len(body) and _indent(body[end]) > indent:  # more in the loops than the append
                return None
            value = text[len(out) + len(".append("):-1]
            return end, " " * indent + f"{out} += [{value} {' '.join(clauses)}]"
        else:
            return None
        j += 1
    return None
