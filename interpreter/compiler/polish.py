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

Lines = list[tuple[str, str | None]]

_RESET = re.compile(r"\s*(h\d+) = UNSET")
_NESTED = re.compile(r"( *)def ((?:q|hl)\d+)\(\):(.*)")
_ANY_NESTED = re.compile(r"^ +def (?:q|hl)\d+\(\):", re.M)
_USE = re.compile(r"\b((?:q|hl)\d+)\b(\(\))?")  # a nested function's name, called or not
_CALL = re.compile(r"\b((?:q|hl)\d+)\(\)")
_CONSTANT = re.compile(r"k\d+")  # the unit's constants: a lifted function still reads them from around it


def drop_dead_resets(lines: Lines) -> Lines:
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
    try:
        table = symtable.symtable(text, "unit", "exec")
    except (SyntaxError, RecursionError, MemoryError):  # too deep for Python: compiling it says so, with the rule
        return lines
    reads, other = _readers(table, shared)
    defs: dict[str, list[tuple[int, int]]] = {}  # name -> (first, end) of each copy of its lines
    end = 0
    for i, (line, _) in enumerate(lines):
        # the outermost only: one inside a function lifted with it stays where it is
        if i >= end and (m := _NESTED.fullmatch(line)) and m[2] in reads and m[2] not in other:
            end, depth = i + 1, len(m[1])
            while end < len(lines) and _indent(lines[end][0]) > depth:
                end += 1
            defs.setdefault(m[2], []).append((i, end))
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
        if len(texts) == 1 and len(copies) == defined[name] and calls[name] == uses[name]:
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


def _readers(table: symtable.SymbolTable, shared: set[str]) -> tuple[dict[str, str], set[str]]:
    """({nested function: the parameters it would take}, {the others}): a nested function may be
    lifted when it sets nothing from around it and reads no lazy value (`shared`) from there."""
    reads, other = {}, set()
    for child in table.get_children():
        if child.get_type() == "function":
            if _NESTED.fullmatch(f"def {child.get_name()}():"):
                free = sorted(name for name in child.get_frees() if not _CONSTANT.fullmatch(name))
                if shared.isdisjoint(free) and reads.get(child.get_name(), ", ".join(free)) == ", ".join(free):
                    reads[child.get_name()] = ", ".join(free)
                else:
                    other.add(child.get_name())
            inner = _readers(child, shared)
            reads.update(inner[0])
            other |= inner[1]
    return reads, other


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" ")) if line.strip() else 10 ** 6


def _dedent(lines: Lines, by: int) -> Lines:
    return [(line[by:], note) for line, note in lines]
