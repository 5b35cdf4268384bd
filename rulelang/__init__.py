"""rulelang front end: ruleset text -> checked, immutable IR.

    from rulelang import load_ruleset
    rs = load_ruleset("twenty-trials", {"trial_modifiers": "true"})

Knows nothing about running or printing games: see `interpreter` and
`generators`, which both depend on this IR only.
"""
from .errors import Diagnostic, RulesetError, Source, Span
from .files import bundled_names, find_ruleset
from .loader import load_ruleset, load_text
from .params import apply_params, parse_assignments

__all__ = ["Diagnostic", "RulesetError", "Source", "Span", "bundled_names", "find_ruleset",
           "load_ruleset", "load_text", "apply_params", "parse_assignments", "version"]


def version() -> str:
    """rulelang's version, as installed (a checkout never installed has none to say)."""
    from importlib import metadata as _metadata  # (a fifth of the front end's import time: only when asked)
    try:
        return _metadata.version("rulelang")
    except _metadata.PackageNotFoundError:
        return "unknown"
