"""What is done to a unit's finished text before it is compiled (Source._finish).

- A lazy value's reset (`h7 = UNSET`) that no line asks about is dropped:
  every use of that value reads it after a line that surely computed it
  (Expressions.compute_first).
- A nested function (a quantifier's `q12`, a lazy value's `hl3`) that only
  reads what it uses from around it, besides the unit's constants, is made
  once, beside the constants, and called with those values (`q12(st, env)`),
  instead of being made again each time the lines that hold it run: in a
  loop, at every turn. Nothing it reads changes while it runs (it sets none,
  and none is a lazy value another function may set), so reading them at the
  call is reading them as it runs.

Both work on the lines as (text, note) pairs, so every line keeps its note.
"""
from __future__ import annotations

import re
import symtable
from collections import Counter

from .prelude import GLOBALS

Lines = list[tuple[str, str | None]]

_RESET = re.compile(r"\s*(h\d+) = UNSET")
_NESTED = re.compile(r"( *)def ((?:q|hl)\d+)\(\):(.*)")
_ANY_NESTED = re.compile(r"^ +def (?:q|hl)\d+\(\):", re.M)
_USE = re.compile(r"\b((?:q|hl)\d+)\b(\(\))?")  # a nested function's name, called or not
_CALL = re.compile(r"\b((?:q|hl)\d+)\(\)")
_CONSTANT = re.compile(r"k\d+")  # the unit's constants: a lifted function still reads them from around it


def drop_dead_resets(lines: Lines) -> Lines:
    """`lines` without the lazy resets no line asks about (see the module's docstring)."""
    asked = set(re.findall(r"\b(h\d+) is not UNSET\b", "\n".join(line for line, _ in lines)))
    kept, carried = [], None
    for line, note in lines:
        if (m := _RESET.fullmatch(line)) and m[1] not in asked:
            carried = carried or note  # the statement's note goes to its next line
            continue
        kept.append((line, note or carried))
        carried = None
    return kept


_LIFTED: dict[tuple, Lines] = {}  # what lift_closed_functions made of the same lines before, in this process
_LIFTED_MOST = 2_000  # units remembered (a process that compiles the same rules again skips the analysis)


def lift_closed_functions(lines: Lines, at: int) -> Lines:
    """`lines` with the nested functions that only read from around them moved to line `at`
    (indented as the constants), each taking what it reads as parameters."""
    key = (at, tuple(lines))
    done = _LIFTED.get(key)
    if done is None:
        if len(_LIFTED) >= _LIFTED_MOST:
            _LIFTED.clear()
        done = _LIFTED[key] = _lift(lines, at)
    return list(done)


def _lift(lines: Lines, at: int) -> Lines:
    text = "\n".join(line for line, _ in lines)
    if not _ANY_NESTED.search(text):
        return lines
    shared = {name for names in re.findall(r"\bnonlocal ([\w, ]+)", text) for name in names.split(", ")}
    defs: dict[str, list[tuple[int, int]]] = {}  # name -> (first, end) of each copy of its lines
    reads: dict[str, str | None] = {}  # name -> the parameters it would take; None: not to be lifted
    seen: dict[str, frozenset | None] = {}  # a nested function's text -> what _outside said of it
    end = 0
    for i, (line, _) in enumerate(lines):
        # the outermost only: one inside a function lifted with it stays where it is
        if i < end or not (m := _NESTED.fullmatch(line)):
            continue
        last, depth = i + 1, len(m[1])
        while last < len(lines) and _indent(lines[last][0]) > depth:
            last += 1
        params = _reads(_dedent(lines[i:last], depth), shared, seen)
        if reads.setdefault(m[2], params) != params:
            reads[m[2]] = None  # two copies that read differently: leave them
        if params is not None:
            defs.setdefault(m[2], []).append((i, last))
            end = last
    defined = Counter(m[2] for line, _ in lines if (m := _NESTED.fullmatch(line)))
    uses, calls = Counter(), Counter()
    for name, called in _USE.findall(text):
        uses[name] += 1
        calls[name] += bool(called)
    lifted: dict[str, Lines] = {}
    for name, copies in defs.items():
        texts = {tuple(_dedent(lines[a:b], _indent(lines[a][0]) - 4)) for a, b in copies}
        # one text (a block copied into two functions copies its functions too), every copy of it
        # outside any function lifted, and only ever called
        if reads[name] is not None and len(texts) == 1 and len(copies) == defined[name] and calls[name] == uses[name]:
            (body,) = texts
            head = body[0][0].replace(f"def {name}():", f"def {name}({reads[name]}):", 1)
            lifted[name] = [(head, body[0][1]), *body[1:]]
    if not lifted:
        return lines
    inside = {i for name in lifted for a, b in defs[name] for i in range(a, b)}

    def with_args(line: str) -> str:
        if "()" not in line:
            return line
        return _CALL.sub(lambda m: f"{m[1]}({reads[m[1]]})" if m[1] in lifted else m[0], line)
    moved = [(with_args(line) if i else line, note) for name in lifted for i, (line, note) in enumerate(lifted[name])]
    rest = [(with_args(line), note) for i, (line, note) in enumerate(lines) if i not in inside]
    return rest[:at] + moved + rest[at:]


def _reads(function: Lines, shared: set[str], seen: dict[str, frozenset | None]) -> str | None:
    """The parameters a nested function would take, lifted: what it reads from around it besides
    the constants, as Python sees it in the function's own text (a name it does not bind, nor
    any function inside it, comes from around it). None if it cannot be lifted: it sets something
    from around it (`nonlocal`) or reads a lazy value another function may set (`shared`).
    `seen`: what `_outside` said of each text before, in this unit (a block's code copied into
    several functions repeats its nested functions)."""
    text = "\n".join(line for line, _ in function)
    if text not in seen:
        seen[text] = _outside(text)
    outside = seen[text]
    if outside is None or not shared.isdisjoint(outside):
        return None
    return ", ".join(sorted(name for name in outside if not _CONSTANT.fullmatch(name)))


def _outside(text: str) -> frozenset | None:
    """The names a function's text reads from around it, but the generated code's globals;
    None if Python refuses it alone (a nonlocal from around it; or too deep)."""
    try:
        table = symtable.symtable(text, "function", "exec")
    except (SyntaxError, RecursionError, MemoryError):
        return None
    outside = set()
    scopes = list(table.get_children())
    while scopes:
        scope = scopes.pop()
        outside.update(sym.get_name() for sym in scope.get_symbols() if sym.is_global())
        scopes += scope.get_children()
    return frozenset(outside - GLOBALS.keys())


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" ")) if line.strip() else 10 ** 6


def _dedent(lines: Lines, by: int) -> Lines:
    return [(line[by:], note) for line, note in lines]
