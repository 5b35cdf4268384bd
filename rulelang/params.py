"""Parameter values given on the command line (`--set NAME=VALUE`)."""
from __future__ import annotations

import dataclasses

from . import ir
from .errors import Diagnostic, RulesetError, did_you_mean
from .types import BOOL, INT

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def parse_assignments(items: list[str]) -> dict[str, str]:
    """`["a=1", "b=true"]` -> {"a": "1", "b": "true"}; errors name the bad item."""
    result = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RulesetError([Diagnostic(None, f"--set expects NAME=VALUE, not '{item}'",
                                           "for example: --set trial_modifiers=true")])
        result[name.strip()] = value.strip()
    return result


def apply_params(ruleset: ir.Ruleset, overrides: dict[str, str | object]) -> ir.Ruleset:
    """The ruleset with parameter values set; every bad one is reported."""
    if not overrides:
        return ruleset
    values = dict(ruleset.param_values)
    problems = []
    for name, raw in overrides.items():
        param = ruleset.params.get(name)
        if param is None:
            known = list(ruleset.params)
            problems.append(Diagnostic(None, f"unknown parameter '{name}' for {ruleset.name}",
                                       did_you_mean(name, known) or
                                       ("parameters: " + ", ".join(known) if known else "this ruleset has no parameters")))
            continue
        value, problem = convert(param, raw)
        if problem:
            problems.append(Diagnostic(None, f"parameter '{name}': {problem}"))
        else:
            values[name] = value
    if problems:
        raise RulesetError(problems)
    return dataclasses.replace(ruleset, param_values=ir.frozen_map(values))


def convert(param: ir.ParamDef, raw) -> tuple[object, str | None]:
    if not isinstance(raw, str):
        raw = str(raw).lower() if isinstance(raw, bool) else str(raw)
    text = raw.strip()
    if param.type == BOOL:
        if text.lower() in _TRUE:
            return True, None
        if text.lower() in _FALSE:
            return False, None
        return None, f"expected true or false, not '{raw}'"
    if param.type == INT:
        try:
            value = int(text)
        except ValueError:
            return None, f"expected a whole number, not '{raw}'"
        if param.low is not None and value < param.low or param.high is not None and value > param.high:
            return None, f"{value} is outside {param.low}..{param.high}"
        return value, None
    if text not in param.choices:
        return None, f"'{raw}' is not one of: {', '.join(param.choices)}"
    return text, None
