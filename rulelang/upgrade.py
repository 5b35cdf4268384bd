"""`rulelang upgrade FILE`: a ruleset of language version 1 rewritten for the current version.

A file without `language:` is of version 1, where the names the language took
later (`roll`, `seat`, `players`, ...) are the file's own. The current version
reserves them, so the upgrade renames each of the file's own names that it
reserves — its declaration and every place the rules use it, found by checking
the file, never by searching its text — to the name with `_` after it, writes
`language: 2` after `game:`, checks the result, and only then replaces the file
(written beside it and moved over it in one step: an interrupted upgrade leaves
the old file whole). It says what it changed.
"""
from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import ir
from .builtins import BUILTINS
from .errors import Diagnostic, RulesetError
from .limits import DEFAULT
from .loader import load_text, read_file
from .params import apply_params
from .sections.reader import LANGUAGE, Reader
from .variants import read_tree
from .walk import walk
from .words import CONTEXTUAL
from .yamltree import YScalar

RENAMED_KINDS = ("zone", "variable", "parameter", "define", "procedure", "die", "type", "card type")


@dataclass(frozen=True)
class Edit:
    line: int
    col: int
    old: str
    new: str


@dataclass(frozen=True)
class Upgrade:
    text: str  # the file as upgraded
    changes: tuple[str, ...]  # what changed, in words


def upgrade(path: Path) -> Upgrade | None:
    """The file upgraded to the current version (None: it is already of it); RulesetError
    if it does not check as it is, or cannot be upgraded by renaming."""
    tree = read_tree(path, DEFAULT)
    reader = Reader(tree, DEFAULT)
    if reader.language >= LANGUAGE:
        return None
    rs = apply_params(read_file(reader), {})
    source = tree.sources[-1]
    taken = set(reader.names)
    renames: dict[str, str] = {}
    for name, (what, span) in reader.names.items():
        if name not in CONTEXTUAL and name not in BUILTINS:
            continue
        if what not in RENAMED_KINDS or span.file != source.name:
            raise RulesetError([Diagnostic(span, f"'{name}' names a {what} here, a word language {LANGUAGE} "
                                                 "reserves: rename it, then upgrade",
                                           "roles, and names declared in the file a variant extends, are renamed "
                                           "by hand")])
        new, k = f"{name}_", 2
        while new in taken:
            new, k = f"{name}_{k}", k + 1
        taken.add(new)
        renames[name] = new
    edits = {Edit(span.line, span.col, name, renames[name]) for name, (_, span) in reader.names.items()
             if name in renames}
    edits |= _uses(rs, renames, source.name)
    text = source.text
    lines = text.split("\n")
    for e in sorted(edits, key=lambda e: (e.line, e.col), reverse=True):
        line = lines[e.line - 1]
        if line[e.col - 1:e.col - 1 + len(e.old)] != e.old:  # a place the check gave that is not the name: stop
            raise RulesetError([Diagnostic(None, f"{path}: cannot upgrade: line {e.line}, column {e.col} does "
                                                 f"not read '{e.old}' (the file is left as it was)")])
        lines[e.line - 1] = line[:e.col - 1] + e.new + line[e.col - 1 + len(e.old):]
    at = _after_game(tree.root)
    lines.insert(at, f"language: {LANGUAGE}")
    upgraded = "\n".join(lines)
    load_text(upgraded, str(path))  # the upgraded file checks, or nothing is written
    changes = [f"added `language: {LANGUAGE}` (line {at + 1})"]
    for name, new in renames.items():
        what = reader.names[name][0]
        n = sum(1 for e in edits if e.old == name)
        changes.append(f"renamed the {what} '{name}' to '{new}' ({n} place{'s' if n != 1 else ''}): "
                       f"'{name}' is {'a word' if name in CONTEXTUAL else 'a built-in'} of language {LANGUAGE}")
    return Upgrade(upgraded, tuple(changes))


def write(path: Path, text: str) -> None:
    """Replace the file in one step: the text is written beside it and moved over it."""
    folder = path.resolve().parent
    mode = os.stat(path).st_mode & 0o777
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".upgrade", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def _uses(rs: ir.Ruleset, renames: dict[str, str], file: str) -> set[Edit]:
    """Every place the checked rules use a renamed name, in this file."""
    parts: list[object] = [rs.setup, *rs.defines.values(), *rs.procedures.values(), *rs.abilities.values()]
    for mode in rs.modes.values():
        parts += [mode.setup, mode.round, mode.watches, tuple(mode.score.values()), tuple(mode.heuristics.values()),
                  tuple(m.value for m in mode.measures.values()), tuple(m.when for m in mode.measures.values()),
                  tuple(v for k in mode.ranking for v in k.values.values()), *([mode.turns] if mode.turns else [])]
    found = set()
    for node in walk(tuple(parts)):
        name = _name_of(node)
        span = getattr(node, "span", None)
        if name in renames and span is not None and span.file == file:
            found.add(Edit(span.line, span.col, name, renames[name]))
    return found


def _name_of(node) -> str | None:
    if isinstance(node, (ir.Var, ir.DefineCall, ir.CallProc, ir.Param)):
        return node.name
    if isinstance(node, ir.ZoneRef):
        return node.zone
    if isinstance(node, ir.TypeValues):
        return node.enum
    return None


def _after_game(root) -> int:
    """The line after `game:` (0-based: where `language:` goes), or the top of the file."""
    node = root.get("game")
    return node.span.line if isinstance(node, YScalar) and node.span is not None else 0


def describe(path: Path, result: Upgrade | None) -> str:
    if result is None:
        return f"{path} is written in language {LANGUAGE} already: nothing to change"
    return "\n".join([f"upgraded {path} to language {LANGUAGE}:", *(f"  {c}" for c in result.changes)])
