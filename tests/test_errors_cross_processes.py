"""Errors cross from a worker process to its parent as they are (errors.Crosses).

Python pickles an exception as `cls(*args)`; an error whose `__init__` takes
other parameters than its message cannot be read back, and a multiprocessing
pool then waits for ever for a result it cannot read."""
import ast
import importlib
import multiprocessing
import pickle

import pytest
from helpers import ROOT

from rulelang import RulesetError, load_text
from rulelang.errors import Crosses

PACKAGES = ("rulelang", "interpreter", "generators", "cli", "queries", "langserver", "playground")


def own_init_errors():
    """(module, class name) of every exception class of rulelang's with an `__init__` of its own."""
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text())
            for node in tree.body:
                if isinstance(node, ast.ClassDef) and any(
                        isinstance(b, ast.Name) and (b.id.endswith(("Error", "Exception")) or b.id in ("RuleError",))
                        for b in node.bases) and \
                        any(isinstance(f, ast.FunctionDef) and f.name == "__init__" for f in node.body):
                    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
                    yield module, node.name


def test_every_error_with_its_own_init_crosses_processes():
    found = list(own_init_errors())
    assert len(found) >= 8
    for module, name in found:
        cls = getattr(importlib.import_module(module), name)
        assert issubclass(cls, Crosses), f"{module}.{name}: an error with its own __init__ must be errors.Crosses"


def _load(text):
    return load_text(text, "bad.yaml")


def test_a_ruleset_error_in_a_worker_reaches_the_parent():
    with multiprocessing.get_context("fork").Pool(1) as pool:
        with pytest.raises(RulesetError) as info:
            pool.apply_async(_load, ("game: x\nroles: [a]\nmodes: {m: {round: [{step: S, do: 'frobnicate 3'}]}}\n",)
                             ).get(timeout=60)
    d = info.value.diagnostics[0]
    assert d.span is not None and d.span.file == "bad.yaml" and pickle.loads(pickle.dumps(info.value)).diagnostics
