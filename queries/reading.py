"""A ruleset's text read by the front end, as far as it goes.

`read` never raises for a ruleset's mistakes: it returns what it could read
(the file's own YAML, the tree with its bases merged, the checked IR of
whatever could be read) and every diagnostic, warnings included. It checks
the default number of players and compiles nothing: that is what an editor
needs on every keystroke. `rulelang check` does more (every number of
players, every mode compiled); an editor asks it when the file is saved.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rulelang import ir, lint
from rulelang.errors import Diagnostic, RulesetError
from rulelang.files import Folders
from rulelang.limits import DEFAULT, Limits
from rulelang.loader import read_partly, read_ruleset
from rulelang.variants import Tree, resolve
from rulelang.yamltree import YNode, load_yaml


@dataclass(frozen=True)
class Reading:
    path: str
    text: str
    own: YNode | None  # this file's YAML (None: it is not YAML)
    tree: Tree | None  # with the bases it `extends:` merged in (None: they could not be)
    ruleset: ir.Ruleset | None  # checked; with errors, whatever could be read (for questions, never to run)
    diagnostics: tuple[Diagnostic, ...]  # the errors `rulelang check` gives, else its warnings
    limits: Limits = DEFAULT  # how it was read
    extends_dirs: tuple = ()

    @property
    def ok(self) -> bool:
        return not any(d.severity == "error" for d in self.diagnostics)


def read(text: str, path: str, limits: Limits = DEFAULT, extends_dirs=()) -> Reading:
    """`path` names the file (its folder is where `extends:` finds a base
    file, with `extends_dirs`); the text need not be saved there."""
    own = tree = None
    how = (limits, tuple(extends_dirs))
    try:
        own = load_yaml(text, path, limits)
        tree = resolve(own, Path(path), (), limits, Folders.around(Path(path), extends_dirs))
        ruleset, problems = read_partly(tree, limits)
    except RulesetError as exc:
        return Reading(path, text, own, tree, None, tuple(exc.diagnostics), *how)
    except Exception:  # noqa: BLE001 - a checker tripped by what it was never given (rules that did not read)
        return Reading(path, text, own, tree, None, _strict(tree, limits), *how)
    if problems:
        return Reading(path, text, own, tree, ruleset, tuple(problems), *how)
    return Reading(path, text, own, tree, ruleset, tuple(lint.warnings(ruleset)), *how)


def _strict(tree: Tree, limits: Limits) -> tuple[Diagnostic, ...]:
    """The diagnostics of the command line's own reading, where the partial one failed."""
    try:
        return tuple(lint.warnings(read_ruleset(tree, None, limits)))
    except RulesetError as exc:
        return tuple(exc.diagnostics)
