"""Fuzzing the front end: every mutant of a bundled ruleset ends in a checked
ruleset or in located errors, never a traceback or a hang (tests/fuzzing.py).

The default run is modest and derandomized; RULELANG_FUZZ_EXAMPLES=N runs N
random examples a test (docs/reliability.md has the figures of a long run).
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import ROOT, rulelang
from helpers.fuzzing import (
    CORPUS,
    DEEP_RULES,
    DEEP_YAML,
    byte_mutants,
    check,
    deep_mutants,
    fuzz_settings,
    generated_mutants,
    limit_settings,
    param_settings,
    tree_mutants,
)
from helpers.hostile import define_chain, rules
from hypothesis import assume, given, note
from hypothesis import strategies as st

from rulelang import RulesetError
from rulelang.limits import DEFAULT, MOST


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("mutants")


def holds(mutant, folder) -> None:
    note(f"{mutant.seed.name}: {mutant.how}")
    mutant.holds(folder)


# one test a kind of mutant, so each has its own examples, seed and statistics

@fuzz_settings(examples=12)
@given(mutant=tree_mutants())
def test_mutated_yaml_trees_end_in_located_errors(mutant, folder):
    holds(mutant, folder)


@fuzz_settings(examples=12)
@given(mutant=tree_mutants(rules_only=True))
def test_mutated_rules_text_ends_in_located_errors(mutant, folder):
    holds(mutant, folder)


@fuzz_settings(examples=25)
@given(mutant=byte_mutants())
def test_mutated_bytes_end_in_located_errors(mutant, folder):
    holds(mutant, folder)


@fuzz_settings(examples=8)
@given(mutant=generated_mutants())
def test_generated_rules_end_in_located_errors(mutant, folder):
    holds(mutant, folder)


@fuzz_settings(examples=12)
@given(mutant=deep_mutants())
def test_deep_nesting_ends_in_located_errors(mutant, folder):
    holds(mutant, folder)


@fuzz_settings(examples=8)
@given(param_settings())
def test_parameter_values_end_in_clear_errors(setting):
    path, params = setting
    note(f"{path.name} --set {params}")
    check(path, params)


@fuzz_settings(examples=50)
@given(limit_settings())
def test_limit_values_end_in_clear_errors(items):
    """`--limit NAME=N`: new limits, or a clear error (`nesting=²`, a digit to str.isdigit
    that int() refuses, once ended in an internal error)."""
    try:
        DEFAULT.changed(items)
    except RulesetError as exc:
        assert all(d.message.startswith("--limit") for d in exc.diagnostics), exc.format()


@fuzz_settings(examples=3, share=0.05)  # a process each: slower
@given(mutant=st.one_of(tree_mutants(), tree_mutants(rules_only=True), byte_mutants(), deep_mutants()))
def test_the_command_line_reports_mutants_without_a_traceback(mutant, folder):
    note(f"{mutant.seed.name}: {mutant.how}")
    path = mutant.write(folder)
    r = rulelang("check", str(path))
    assert r.returncode in (0, 2), r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    if r.returncode == 2:
        assert f"{path}:" in r.stderr or f"{path.name}" in r.stderr


@fuzz_settings(examples=2, share=0.05)
@given(param_settings())
def test_the_command_line_reports_bad_parameters_without_a_traceback(setting):
    path, params = setting
    sets = [arg for name, value in params.items() for arg in ("--set", f"{name}={value}")]
    assume(all(_can_pass(arg) for arg in sets))
    r = rulelang("check", str(path), *sets)
    assert r.returncode in (0, 2), r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr


def _can_pass(arg: str) -> bool:
    """A command line holds no NUL, and bytes only (a lone surrogate stands for an undecodable byte)."""
    try:
        os.fsencode(arg)
    except UnicodeEncodeError:
        return False
    return "\x00" not in arg


CASES = sorted(p for p in CORPUS.iterdir() if p.name != "README.md")


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_corpus_case_holds(path):
    """The nastiest inputs the fuzzer found: each once ended in a traceback or a wrong position."""
    check(path)


# Rules YAML folds, unescapes or shifts (a plain or quoted scalar over several
# lines, `>`, escapes, '' in single quotes, a `|` block's blank first line or
# indentation indicator): the fuzzer found their errors placed past the end of
# the line or a line too low; each now points at the word itself.
FOLDED = [
    ("plain over two lines", "  d(y): {text: x, value: 1 if\n      true else nope}\n", (10, 17)),
    ("double quotes with escapes", '  d(y): "\\t1 + \\u0031 + nope"\n', (9, 25)),
    ("single quotes with ''", "  d(y): 'size(''a'') + nope'\n", (9, 24)),
    ("double quotes over lines", '  d(y): "1 +\n    2 + \\\n    nope"\n', (11, 5)),
    ("a > block", "  d(y): >\n    1 +\n    nope\n", (11, 5)),
    ("the second line of a | block", "  d(y): |\n    1 +\n    nope\n", (11, 5)),
    ("CRLF line ends", "  d(y): 1 +\n      nope\n", (10, 7)),
    ("a | block with a blank first line", "  d(y): |\n\n    1 +\n    nope\n", (12, 5)),
    ("a |2 block", "  d(y): |2\n      1 +\n    nope\n", (11, 5)),
]


@pytest.mark.parametrize("what, define, where", FOLDED, ids=[f[0] for f in FOLDED])
def test_errors_in_folded_rules_text_point_at_the_word(what, define, where, tmp_path):
    text = rules("x = d(1)").replace("  d(y): y\n", define)
    if what == "CRLF line ends":
        text = text.replace("\n", "\r\n")
    path = tmp_path / "folded.yaml"
    path.write_bytes(text.encode("utf-8"))
    error = check(path)
    assert isinstance(error, RulesetError)
    d = next(d for d in error.diagnostics if "nope" in d.message)
    assert (d.span.line, d.span.col) == where, d.format()
    assert d.span.source.line(d.span.line)[d.span.col - 1:].startswith("nope")


DEEP = {**{f"rules: {kind}": make for kind, make in DEEP_RULES.items()},
        **{f"YAML: {kind}": make for kind, make in DEEP_YAML.items()}, "a chain of defines": None}


@pytest.mark.parametrize("kind", DEEP)
def test_deep_input_at_the_highest_limits_ends_in_located_errors(kind, tmp_path):
    """`--limit` raises the depths only as far as every pass over the input
    can go without exhausting Python's stack (a RecursionError is no located error)."""
    limits = DEFAULT.changed([f"{name}={most}" for name, most in MOST.items()])
    for n in (MOST["nesting"] // 2, MOST["nesting"], MOST["nesting"] + 1, 3 * MOST["nesting"]):
        if kind == "a chain of defines":
            text = define_chain(n)
        elif kind.startswith("YAML"):
            text = rules("pass") + "extra: " + DEEP[kind](n).replace("\n", "\n  ") + "\n"
        elif "blocks" in kind:
            text = rules(DEEP[kind](n, "").replace("\n", "\n" + " " * 10))
        else:
            text = rules("x = d(1)").replace("  d(y): y\n", "  d(y): |\n    " + DEEP[kind](n, "y") + "\n")
        path = tmp_path / f"deep-{n}.yaml"
        path.write_text(text)
        check(path, limits=limits)


def test_limits_are_whole_numbers_within_their_ceilings():
    with pytest.raises(RulesetError, match="expected a whole number"):
        DEFAULT.changed(["nesting=²"])  # a digit to str.isdigit, not to int()
    with pytest.raises(RulesetError, match="at most 200"):
        DEFAULT.changed(["nesting=100000"])
    assert DEFAULT.changed(["components=50000"]).components == 50_000


@pytest.mark.slow
def test_a_long_fuzzing_run_ends_every_mutant_in_a_located_error():
    """Every fuzzing test of this file with 150 examples a test (derandomized:
    the same inputs in every CI run), in a process of its own."""
    env = dict(os.environ, RULELANG_FUZZ_EXAMPLES="150", RULELANG_FUZZ_DERANDOMIZE="1")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow", __file__],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=1500)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
