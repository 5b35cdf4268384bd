"""The editor's diagnostics, from the one analysis every front door shares.

A ruleset's problems are what `queries.analyse` finds — the same records
`rulelang check --format json` prints and the language server underlines
— read from the text the editor holds, as if it were the file. A
scenario's are what its reader finds when it checks the scenario against
the ruleset it names (the one open beside it, or the bundled one).
"""
from __future__ import annotations

from interpreter.engine.game import Game
from interpreter.engine.scenarios import read_scenario
from queries import analyse
from queries.problems import Problem
from rulelang.errors import Diagnostic, RulesetError
from rulelang.files import bundled

from .folder import Folder, Refused, is_scenario
from .rulesets import Named, Rulesets


def problems(rulesets: Rulesets, folder: Folder, name: str, text: str | None, ruleset: dict | None) -> list[dict]:
    if not isinstance(text, str):
        text = folder.read(name)
    path = str(folder.path_of(name))
    if is_scenario(text):
        return _scenario_problems(rulesets, text, path, ruleset)
    return [_json(rulesets, p) for p in analyse(text, path).problems]


def _scenario_problems(rulesets: Rulesets, text: str, path: str, ruleset: dict | None) -> list[dict]:
    try:
        found = read_scenario(text, path)
        named = Named.of(ruleset) if isinstance(ruleset, dict) and ruleset.get("path") else None
        if named is None or rulesets.ruleset(named).name != found.ruleset:
            if bundled(found.ruleset) is None:
                return [problem_json(rulesets, Diagnostic(
                    found.root.value_span("ruleset"), f"open the ruleset '{found.ruleset}' to check this "
                                                     "scenario against it", None, "warning"))]
            named = Named(f"bundled:{found.ruleset}")
        params = {**dict(named.params), **found.params}
        named = Named(named.name, named.text, tuple(sorted(params.items())))
        found.placed(Game(rulesets.ruleset(named), found.mode))
    except RulesetError as exc:
        return [problem_json(rulesets, d) for d in exc.diagnostics]
    except Refused as exc:
        return [{"file": None, "range": None, "severity": "error", "message": str(exc), "hint": None}]
    return []


def _json(rulesets: Rulesets, p: Problem) -> dict:
    out = p.as_json()
    out["file"] = rulesets.shown(p.file)
    return out


def problem_json(rulesets: Rulesets, d: Diagnostic) -> dict:
    """A diagnostic as the page shows it (the analysis's record)."""
    return _json(rulesets, Problem.of(d))
