"""Parameter values given on the command line (`--set NAME=VALUE`), and
numbers as a command line writes them."""
from __future__ import annotations

import dataclasses
import hashlib
import math
import re
from typing import Mapping

from . import ir
from .errors import Diagnostic, RulesetError, did_you_mean
from .types import BOOL, INT

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def whole_number(text: str, digits: int = 18) -> int | None:
    """A whole number in ASCII digits, at most `digits` of them, or None —
    not `²` (a digit to str.isdigit, not to int), `٣` (one to int), `1_000`,
    or 5,000 digits (which int() refuses to read)."""
    t = text.strip()
    return int(t) if re.fullmatch(rf"[-+]?[0-9]{{1,{digits}}}", t) else None


def decimal(text: str) -> float | None:
    """A finite number in ASCII (`0.7`, `2`, `1e-3`), or None: not nan, inf, or 1e999."""
    t = text.strip()
    if not re.fullmatch(r"[-+]?([0-9]{1,18}\.?[0-9]{0,18}|\.[0-9]{1,18})([eE][-+]?[0-9]{1,3})?", t):
        return None
    value = float(t)
    return value if math.isfinite(value) else None


def parse_assignments(items: list[str]) -> dict[str, str]:
    """`["a=1", "b=true"]` -> {"a": "1", "b": "true"}; errors name the bad item."""
    result = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RulesetError([Diagnostic(None, f"--set expects NAME=VALUE, not '{item}'",
                                           "for example: --set trial_modifiers=true")])
        name, value = name.strip(), value.strip()
        if result.get(name, value) != value:  # which one was meant? not the last by accident
            raise RulesetError([Diagnostic(None, f"--set {name} is given twice, as '{result[name]}' and as '{value}'",
                                           f"keep one --set {name}=VALUE")])
        result[name] = value
    return result


def apply_params(ruleset: ir.Ruleset, overrides: Mapping[str, object]) -> ir.Ruleset:
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
    configured = dataclasses.replace(ruleset, param_values=ir.frozen_map(values))
    if ruleset.digest:  # what it is made from: the text read, then these values (a sweep's configurations)
        said = f"{ruleset.digest}\0{sorted(values.items())!r}"
        object.__setattr__(configured, "digest", hashlib.sha256(said.encode()).hexdigest())
    return configured


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
        value = whole_number(text)
        if value is None:
            return None, f"expected a whole number, not '{raw}'"
        if param.low is not None and value < param.low or param.high is not None and value > param.high:
            return None, f"{value} is outside {param.low}..{param.high}"
        return value, None
    if text not in param.choices:
        return None, f"'{raw}' is not one of: {', '.join(param.choices)}"
    return text, None
