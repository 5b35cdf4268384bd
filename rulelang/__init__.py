"""rulelang front end: ruleset text -> checked, immutable IR.

    from rulelang import load_ruleset
    rs = load_ruleset("twenty-trials", {"trial_modifiers": "true"})

Knows nothing about running or printing games: see `interpreter` and
`generators`, which both depend on this IR only.

The names below are imported when first asked for: a command that needs
only a few modules of the front end (`check` answering from its cache,
cli/cache.py) does not pay for the loader, Lark and YAML.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .errors import Diagnostic, RulesetError, Source, Span
    from .files import bundled_names, find_ruleset
    from .loader import load_ruleset, load_text
    from .params import apply_params, parse_assignments

__all__ = ["Diagnostic", "RulesetError", "Source", "Span", "bundled_names", "find_ruleset",
           "load_ruleset", "load_text", "apply_params", "parse_assignments", "version"]

_MODULE_OF = {"Diagnostic": "errors", "RulesetError": "errors", "Source": "errors", "Span": "errors",
              "bundled_names": "files", "find_ruleset": "files", "load_ruleset": "loader", "load_text": "loader",
              "apply_params": "params", "parse_assignments": "params"}


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = getattr(import_module(f".{module}", __name__), name)
    return value


def version() -> str:
    """rulelang's version, as installed (a checkout never installed has none to say)."""
    from importlib import metadata as _metadata  # (a fifth of the front end's import time: only when asked)
    try:
        return _metadata.version("rulelang")
    except _metadata.PackageNotFoundError:
        return "unknown"
