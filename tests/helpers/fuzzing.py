"""Fuzzing the front end: mutated rulesets, and the property each must hold.

Every bundled ruleset is a seed, and so is each ruleset in `seeds/` beside
this file: small games written with the constructs the bundled ones do not
use (decks built with `each:`, unprinted components, zones as arguments), so
that mutants reach those parts of the front end too. A mutant changes a seed
at one of three levels:

* the YAML tree: a node deleted, duplicated, retyped, swapped with another,
  a key misspelt (so every DSL use of a declared name breaks too);
* the rules text inside it: tokens dropped, duplicated or swapped, operators
  exchanged, brackets unbalanced, indentation broken, names misspelt;
* the bytes of the file: truncated, random or invalid UTF-8 bytes, NULs,
  BOMs, CRLF, tabs, lines dropped or repeated — and very deep nesting of
  YAML and of rules.

The property (`check`): what `rulelang check` does (load, check, compile
every mode) ends in a ruleset or in a `RulesetError` whose every diagnostic
is located inside the input, quickly; never any other exception.
`tests/test_fuzz_front_end.py` runs it; `tests/corpus/` keeps the nastiest
mutants found as regression cases.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import yaml
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

from interpreter.agents.asking import deadline
from interpreter.engine.game import Game
from rulelang import RulesetError, load_ruleset
from rulelang.builtins import BUILTINS
from rulelang.limits import DEFAULT, Limits
from rulelang.yamltree import dump

from . import ROOT

SEEDS = sorted([*(ROOT / "rulesets").glob("*.yaml"), *(ROOT / "rulesets" / "examples").glob("*.yaml")]) \
    + sorted((Path(__file__).parent / "seeds").glob("*.yaml"))
CORPUS = ROOT / "tests" / "corpus"
FAILURES = ROOT / ".hypothesis" / "failures"  # every failing mutant, to pick corpus cases from (ignored by git)

DEADLINE = 30  # seconds for one example (a bundled ruleset is checked in under one; CI machines are shared)
HANG = 60  # seconds after which an example is stopped and counted a hang

# ------------------------------------------------------------------ settings

# RULELANG_FUZZ_EXAMPLES=N: a long run, random, N examples a test, failures kept
# in .hypothesis/ so the next run tries them first. Otherwise a modest,
# derandomized run (the same examples every time, so CI is reproducible).
LONG = int(os.environ.get("RULELANG_FUZZ_EXAMPLES", "0") or 0)
# a long run that is the same every time (the slow run CI makes), without the failures database
FIXED = os.environ.get("RULELANG_FUZZ_DERANDOMIZE") == "1"
_COMMON = dict(deadline=timedelta(seconds=DEADLINE), print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.function_scoped_fixture])


def fuzz_settings(examples: int, share: float = 1) -> settings:
    """`examples` in the default run; `share` of RULELANG_FUZZ_EXAMPLES in a long run."""
    if LONG:
        database = None if FIXED else DirectoryBasedExampleDatabase(str(ROOT / ".hypothesis" / "examples"))
        return settings(max_examples=max(examples, int(LONG * share)), derandomize=FIXED, database=database,
                        **_COMMON)
    return settings(max_examples=examples, derandomize=True, database=None, **_COMMON)


# ------------------------------------------------------------------ the property


class Hang(Exception):
    """An example ran past HANG seconds."""


def check(path: Path | str, params: dict[str, str] | None = None, limits: Limits = DEFAULT):
    """What `rulelang check` does with one file: the ruleset, or the
    RulesetError (asserted located); any other exception propagates."""
    try:
        with deadline(HANG, Hang):
            rs = load_ruleset(str(path), params, limits)
            for mode in rs.modes:  # compiling finds what only the code generator can
                Game(rs, mode)
            return rs
    except RulesetError as exc:
        assert_located(exc, {str(path), *map(str, SEEDS)}, params_given=bool(params))
        return exc


def assert_located(exc: RulesetError, files: set[str], params_given: bool = False) -> None:
    """Every diagnostic has a message and a range inside one of `files` (a
    variant's errors may be in its base); one about a `--set` value may have
    no position: it is on the command line."""
    assert exc.diagnostics, "a RulesetError with no diagnostics"
    for d in exc.diagnostics:
        assert d.message.strip(), d
        if d.span is None:
            assert params_given and "parameter" in d.message, f"no position: {d.message}"
            continue
        assert d.span.file in files, d.format()
        lines = d.span.source.lines()
        for line, col in [(d.span.line, d.span.col)] + [(d.span.end_line, d.span.end_col)] * bool(d.span.end_line):
            assert 1 <= line <= len(lines), f"line {line} of {len(lines)}: {d.format()}"
            assert 1 <= col <= len(lines[line - 1]) + 1, f"column {col} of {len(lines[line - 1])}: {d.format()}"
        assert (d.span.end_line, d.span.end_col) >= (d.span.line, d.span.col) or not d.span.end_line, d.format()
        d.format()  # an error must print


# ------------------------------------------------------------------ the seeds


@dataclass(frozen=True)
class Seed:
    path: Path
    data: bytes
    tree: object  # the YAML as plain data
    words: tuple[str, ...]  # every word in the file
    names: tuple[str, ...]  # the names it declares: roles, zones, variables, fields, defines, values ...
    lines: tuple[str, ...]  # every line of its rules, to put in other places


def _seed(path: Path) -> Seed:
    data = path.read_bytes()
    tree = yaml.safe_load(data)
    words = sorted(set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", data.decode("utf-8"))))
    lines = sorted({line.strip() for p in _rules_texts(tree) for line in get(tree, p).splitlines() if line.strip()})
    return Seed(path, data, tree, tuple(words), tuple(sorted(_declared(tree))) or ("x",), tuple(lines) or ("pass",))


def _declared(tree) -> set[str]:
    """The names a ruleset declares, with those of the ruleset it extends."""
    if not isinstance(tree, dict):
        return set()
    base = ROOT / "rulesets" / f"{tree.get('extends')}.yaml"
    names = _declared(yaml.safe_load(base.read_bytes())) if "extends" in tree and base.is_file() else set()
    for key in ("roles", "params", "types", "cards", "zones", "vars", "dice", "define", "procedures"):
        section = tree.get(key)
        for name, spec in section.items() if isinstance(section, dict) else ():
            names.add(str(name).split("(")[0])
            if key == "types":  # and the values of the type
                values = spec.get("values") if isinstance(spec, dict) else spec
                names.update(str(v) for v in values or () if isinstance(v, (str, int)))
            if key == "cards" and isinstance(spec, dict):
                names.update(str(field) for part in ("fields", "state") for field in spec.get(part) or {})
    return names


def _rules_texts(tree) -> list[tuple]:
    """Paths of the rules in a tree: define bodies, procedures, steps, setup, scores."""
    return [p for p in paths(tree) if isinstance(get(tree, p), str)
            and (p[0] in ("define", "procedures", "setup") or p[-1] in ("do", "when", "value", "score", "setup"))]


# ---- paths in a tree of plain data


def paths(tree, prefix=()) -> list[tuple]:
    """Every node below the root, parents before children."""
    found = []
    items = tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(tree, list) else ()
    for key, value in items:
        found.append((*prefix, key))
        found.extend(paths(value, (*prefix, key)))
    return found


def get(tree, path):
    for key in path:
        tree = tree[key]
    return tree


def put(tree, path, value):
    get(tree, path[:-1])[path[-1]] = value


def copy(tree):
    if isinstance(tree, dict):
        return {k: copy(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [copy(v) for v in tree]
    return tree


def rename(mapping: dict, old, new) -> dict:
    """The mapping with one key renamed, in place of the old one."""
    return {(new if k == old else k): v for k, v in mapping.items()}


SEED_DATA = [_seed(p) for p in SEEDS]


# ------------------------------------------------------------------ mutants


@dataclass(frozen=True)
class Mutant:
    seed: Path  # the bundled file it was made from
    how: str  # what was done, for the failure report
    data: bytes = field(repr=False)

    def write(self, folder: Path) -> Path:
        """The mutant under the seed's name (so a variant still finds its base)."""
        path = folder / self.seed.name
        path.write_bytes(self.data)
        return path

    def holds(self, folder: Path) -> None:
        """`check` the mutant; one that fails is kept in FAILURES."""
        try:
            result = check(self.write(folder))
            event("refused with located errors" if isinstance(result, RulesetError) else "checked and compiled")
        except Exception:
            FAILURES.mkdir(parents=True, exist_ok=True)
            name = f"{self.seed.stem}-{hashlib.sha256(self.data).hexdigest()[:10]}.yaml"
            (FAILURES / name).write_bytes(self.data)
            raise


# ---- small edits

_OPERATORS = ["==", "!=", "<=", ">=", "<", ">", "=", "+=", "-=", "+", "-", "*", "/", "%", "..", ".",
              ",", ":", "and", "or", "not", "is", "in", "of", "where", "if", "else", "for"]
_BRACKETS = ["(", ")", "[", "]", "((", "))", ":", '"', "'", "\\"]
_KEYWORDS = ["move", "to", "draw", "from", "let", "if", "elif", "else", "while", "until", "repeat", "times",
             "chooses", "exists", "count", "first", "last", "sum", "case", "none", "true", "false", "pass",
             "end game", "win", "lose", "take first", "ordered by", "descending", "all", "face", "at",
             "end game in a draw", "eliminate", "players", "left_of", "right_of", "clockwise", "seat", "in_game",
             "roll", "into", "take random", "d6"]
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+|==|!=|<=|>=|\+=|-=|\.\.|\n[ \t]*|[ \t]+|\"[^\"\n]*\"|'[^'\n]*'|.",
                    re.S)
_ODD_SCALARS = ["", " ", "\t", "~", "null", "yes", "no", "on", "0", "-1", "1e9", "0x1F", "1_000", ".inf", ".nan",
                "9" * 30, "-" * 3, "é", "\u202e", "\u2028", "{", "[", "*a", "&a", "!!binary", "2001-13-45",
                "a: b", "- x", "# not a comment", "x" * 2000]


@st.composite
def misspelt(draw, word: str) -> str:
    """The word with one small typing error."""
    if not word:
        return draw(st.sampled_from(["x", "_", "0"]))
    i = draw(st.integers(0, len(word) - 1))
    how = draw(st.sampled_from(["drop", "double", "swap", "case", "insert", "dash"]))
    if how == "drop":
        return word[:i] + word[i + 1:]
    if how == "double":
        return word[:i] + word[i] + word[i:]
    if how == "swap" and i + 1 < len(word):
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if how == "case":
        return word[:i] + word[i].swapcase() + word[i + 1:]
    if how == "dash":
        return word[:i] + "-" + word[i:]
    return word[:i] + draw(st.sampled_from("abcxyz_0 ")) + word[i:]


@st.composite
def retyped(draw, value):
    """The value as another YAML type: scalar <-> list <-> mapping, int <-> text, or an odd scalar."""
    options = [[value], {"x": value}, None, True, 0, -(10 ** 20), 3.5, draw(st.sampled_from(_ODD_SCALARS))]
    if isinstance(value, bool):
        options.append(str(value).lower())
    elif isinstance(value, int):
        options += [str(value), value + 1, -value, value * 10 ** 12]
    elif isinstance(value, str):
        options += [len(value), value.split()]
        if re.fullmatch(r"-?[0-9]{1,30}", value.strip()):
            options.append(int(value))
    elif isinstance(value, list):
        options += [value[0] if value else "", {str(i): v for i, v in enumerate(value)}, ", ".join(map(str, value))]
    elif isinstance(value, dict):
        options += [list(value), list(value.values()), next(iter(value.values()), None)]
    return draw(st.sampled_from(options))


@st.composite
def mutated_rules(draw, text: str, seed: Seed) -> str:
    """Rules text with one to three token-level mistakes, or lines and
    expressions of other rules put in the wrong place."""
    tokens = _TOKEN.findall(text) or [""]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(tokens) - 1))
        token = tokens[i]
        how = draw(st.sampled_from(["drop", "duplicate", "operator", "bracket", "indent", "name", "misspell",
                                    "keyword", "number", "swap", "line", "transplant", "expression"]))
        if how == "drop":
            tokens[i] = ""
        elif how == "duplicate":
            tokens[i] = token + " " + token
        elif how == "operator":
            tokens[i] = draw(st.sampled_from(_OPERATORS))
        elif how == "bracket":
            tokens.insert(i, draw(st.sampled_from(_BRACKETS)))
        elif how == "indent":
            indents = [j for j, t in enumerate(tokens) if t.startswith("\n")] or [i]
            j = draw(st.sampled_from(indents))
            tokens[j] = "\n" + draw(st.sampled_from(["", " ", "  ", "   ", "\t", " \t", "        "])) \
                + tokens[j].lstrip("\n")[draw(st.integers(0, 4)):]
        elif how == "name":
            tokens[i] = draw(st.sampled_from(seed.names))
        elif how == "expression":  # a name becomes a whole expression from elsewhere
            tokens[i] = "(" + draw(st.sampled_from(seed.lines)).rstrip(":") + ")"
        elif how == "transplant":  # a line of other rules, at this line's indentation
            lines = "".join(tokens).split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k] = lines[k][:len(lines[k]) - len(lines[k].lstrip())] + draw(st.sampled_from(seed.lines))
            tokens = _TOKEN.findall("\n".join(lines)) or [""]
        elif how == "misspell":
            names = [j for j, t in enumerate(tokens) if re.match(r"[A-Za-z_]", t)] or [i]
            j = draw(st.sampled_from(names))
            tokens[j] = draw(misspelt(tokens[j]))
        elif how == "keyword":
            tokens.insert(i, " " + draw(st.sampled_from(_KEYWORDS)) + " ")
        elif how == "number":
            tokens[i] = draw(st.sampled_from(["0", "-1", "9" * 19, "1" * 5000, "007", "1.5", "-0"]))
        elif how == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        else:  # a line repeated or cut in half
            lines = "".join(tokens).split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            if draw(st.booleans()):
                lines.insert(k, lines[k])
            else:
                lines[k] = lines[k][:draw(st.integers(0, len(lines[k])))]
            tokens = _TOKEN.findall("\n".join(lines)) or [""]
    return "".join(tokens)


# ---- mutants of the YAML tree


@st.composite
def tree_mutants(draw, rules_only: bool = False) -> Mutant:
    """A bundled ruleset with one to three changes to its YAML tree (or, with
    `rules_only`, to the rules text in it), written out as YAML."""
    seed = draw(st.sampled_from(SEED_DATA))
    tree, done = copy(seed.tree), []
    for _ in range(draw(st.integers(1, 3))):
        nodes = paths(tree)
        if not nodes:
            break
        if rules_only:
            texts = _rules_texts(tree) or [p for p in nodes if isinstance(get(tree, p), str)]
            path = draw(st.sampled_from(texts))
            put(tree, path, draw(mutated_rules(get(tree, path), seed)))
            done.append(f"rules at {_where(path)}")
            continue
        path = draw(st.sampled_from(nodes))
        parent, key, value = get(tree, path[:-1]), path[-1], get(tree, path)
        how = draw(st.sampled_from(["delete", "duplicate", "retype", "misspell key", "swap", "rules"]))
        if how == "delete":
            del parent[key]
        elif how == "duplicate":
            if isinstance(parent, list):
                parent.insert(key, copy(value))
            else:  # the same entry again under a near name: a second declaration
                parent[draw(misspelt(str(key)))] = copy(value)
        elif how == "retype":
            put(tree, path, draw(retyped(value)))
        elif how == "misspell key" and isinstance(parent, dict):
            renamed = rename(parent, key, draw(misspelt(str(key))))
            if len(path) == 1:
                tree = renamed
            else:
                put(tree, path[:-1], renamed)
        elif how == "swap":
            other = draw(st.sampled_from(nodes))
            if other[:len(path)] != path and path[:len(other)] != other:  # neither inside the other
                put(tree, path, get(tree, other))
                put(tree, other, value)
        elif how == "rules" and isinstance(value, str):
            put(tree, path, draw(mutated_rules(value, seed)))
        done.append(f"{how} at {_where(path)}")
    return Mutant(seed.path, "; ".join(done), dump(tree).encode("utf-8"))


def _where(path) -> str:
    return "/".join(map(str, path))


# ---- mutants of the bytes

_ODD_BYTES = [b"\x00", b"\xef\xbb\xbf", b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80",
              b"\t", b"\r", b"\r\n", b"\x85", "\u2028".encode(), "\u2029".encode(), b"\x0b", b"\x0c", b"\x1b[2J",
              b"\x7f", b"&a ", b"*a", b"<<: *a\n", b"!!python/object/apply:os.system ['true']", b"!!binary ",
              b"!!set ", b"!!timestamp ", b"---\n", b"...\n", b"%YAML 1.1\n", b"%TAG ! tag:x,2000:\n", b"? ",
              b": ", b"- ", b"|", b">-", b"'", b'"', b"#", b"{", b"}", b"[", b"]", b",", b"\\", b"\\N{", b"\\x",
              "\U0001F600".encode(), "é".encode("latin-1")]


@st.composite
def byte_mutants(draw) -> Mutant:
    """A bundled ruleset file with one to three changes to its bytes."""
    seed = draw(st.sampled_from(SEED_DATA))
    data, done = seed.data, []
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(["truncate", "insert", "replace", "odd", "odd", "line", "whole"]))
        if how == "truncate":
            data = data[:at]
        elif how == "insert":
            data = data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at:]
        elif how == "replace":
            data = data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at + draw(st.integers(1, 64)):]
        elif how == "odd":
            data = data[:at] + draw(st.sampled_from(_ODD_BYTES)) + data[at:]
        elif how == "line":
            how, data = draw(_line_edit(data))
        else:
            how, data = draw(_whole_file(data))
        done.append(f"{how} at byte {at}")
    return Mutant(seed.path, "; ".join(done), data)


@st.composite
def _line_edit(draw, data: bytes) -> tuple[str, bytes]:
    lines = data.split(b"\n")
    i = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["drop line", "repeat line", "indent line", "dedent line", "swap lines"]))
    if how == "drop line":
        del lines[i]
    elif how == "repeat line":
        lines.insert(i, lines[i])
    elif how == "indent line":
        lines[i] = b" " * draw(st.integers(1, 9)) + lines[i]
    elif how == "dedent line":
        indent = len(lines[i]) - len(lines[i].lstrip(b" "))
        lines[i] = lines[i][max(1, indent // 2):]
    else:
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    return how, b"\n".join(lines)


@st.composite
def _whole_file(draw, data: bytes) -> tuple[str, bytes]:
    how = draw(st.sampled_from(["crlf", "cr", "tabs", "bom", "utf-16", "latin-1", "no final newline", "nul"]))
    text = data.decode("utf-8", errors="replace")
    if how == "crlf":
        return how, data.replace(b"\n", b"\r\n")
    if how == "cr":
        return how, data.replace(b"\n", b"\r")
    if how == "tabs":
        return how, re.sub(rb"(?m)^(  )+", lambda m: b"\t" * (len(m.group()) // 2), data)
    if how == "bom":
        return how, b"\xef\xbb\xbf" + data
    if how == "utf-16":
        return how, text.encode("utf-16")
    if how == "latin-1":
        return how, text.encode("latin-1", errors="replace")
    if how == "no final newline":
        return how, data.rstrip(b"\n")
    return how, data.replace(b" ", b"\x00", 1)


# ---- deep nesting


DEEP_RULES = {
    "parentheses": lambda n, text: "(" * n + text + ")" * n,
    "not": lambda n, text: "not " * n + "true",
    "minus": lambda n, text: "-" * n + "1",
    "lists": lambda n, text: "size(" + "[" * n + "1" + "]" * n + ")",
    "sum": lambda n, text: "1 + " * n + "1",
    "if-else": lambda n, text: "1 if true else " * n + "1",
    "blocks": lambda n, text: "".join(" " * (2 * i) + "if true:\n" for i in range(n)) + " " * (2 * n) + "pass\n",
    "calls": lambda n, text: "abs(" * n + "1" + ")" * n,
    "unclosed": lambda n, text: "(" * n + text,
}
DEEP_YAML = {
    "flow lists": lambda n: "[" * n + "]" * n,
    "flow maps": lambda n: "{a: " * n + "1" + "}" * n,
    "unclosed lists": lambda n: "[" * n,
    "block lists": lambda n: "\n" + "".join(" " * (2 * i) + "-\n" for i in range(1, n)) + " " * (2 * n) + "- 1",
    "block maps": lambda n: "\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, n)) + " " * n + "k: 1",
}
DEPTHS = st.one_of(st.integers(1, 130), st.integers(1, 5000), st.sampled_from([49, 50, 51, 99, 100, 101, 1000, 3000]))


@st.composite
def deep_mutants(draw) -> Mutant:
    """A bundled ruleset with rules or YAML nested very deep in one place."""
    seed = draw(st.sampled_from(SEED_DATA))
    n = draw(DEPTHS)
    tree = copy(seed.tree)
    if _rules_texts(tree) and draw(st.booleans()):
        path = draw(st.sampled_from(_rules_texts(tree)))
        kind = draw(st.sampled_from(sorted(DEEP_RULES)))
        put(tree, path, DEEP_RULES[kind](n, get(tree, path)))
        return Mutant(seed.path, f"{kind} {n} deep at {_where(path)}", dump(tree).encode("utf-8"))
    lines = seed.data.split(b"\n")
    values = [i for i, line in enumerate(lines) if re.match(rb"^ *[A-Za-z_]\w*: +\S", line)]
    i = draw(st.sampled_from(values))
    kind = draw(st.sampled_from(sorted(DEEP_YAML)))
    key = lines[i].split(b":")[0]
    lines[i] = key + b": " + DEEP_YAML[kind](n).replace("\n", "\n" + " " * (len(key) - len(key.lstrip()))).encode()
    return Mutant(seed.path, f"{kind} {n} deep at line {i + 1}", b"\n".join(lines))


# ---- well-formed rules in the wrong place

_FUNCTIONS = [b.name for b in BUILTINS.values() if not b.bare]  # every built-in called with parentheses
_INFIX = ["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in", "..", "of"]


def expressions(words) -> st.SearchStrategy[str]:
    """Expressions the grammar accepts, of names from the ruleset: mostly
    wrong in type or meaning, so they reach the checker, and some the
    optimiser and code generator."""
    atoms = st.one_of(st.integers(-3, 40).map(str), st.sampled_from(words),
                      st.sampled_from(["true", "false", "none", '"x"', "round", "box", "v", "9" * 18]))

    def bigger(inner):
        binder = st.builds(lambda d, w: f"v in {d}" + (f" where {w}" if w else ""), inner, st.none() | inner)
        return st.one_of(
            st.builds(lambda a, op, b: f"({a} {op} {b})", inner, st.sampled_from(_INFIX), inner),
            st.builds(lambda op, a: f"{op}{a}", st.sampled_from(["not ", "-"]), inner),
            st.builds(lambda a, c, b: f"({a} if {c} else {b})", inner, inner, inner),
            st.builds(lambda items: "[" + ", ".join(items) + "]", st.lists(inner, max_size=3)),
            st.builds(lambda f, args: f"{f}({', '.join(args)})", st.sampled_from(_FUNCTIONS + list(words)),
                      st.lists(inner, max_size=3)),
            st.builds(lambda a, name: f"{a}.{name}", inner, st.sampled_from(words)),
            st.builds(lambda a, name: f"({a} is {name})", inner, st.sampled_from(words)),
            st.builds(lambda q, b: f"{q}({b})", st.sampled_from(["count", "first", "last"]), binder),
            st.builds(lambda a, q, b: f"{q}({a} for {b})", inner, st.sampled_from(["sum", "min", "max", "any", "all"]),
                      binder),
            st.builds(lambda a, b: f"[{a} for {b}]", inner, binder),
            st.builds(lambda b: f"(exists {b})", binder),
        )
    return st.recursive(atoms, bigger, max_leaves=12)


def blocks(words, depth: int = 0) -> st.SearchStrategy[str]:
    """Statement blocks the grammar accepts (lines ending in a newline), of names from the ruleset."""
    e, name = expressions(words), st.sampled_from(words)
    simple = st.one_of(
        st.builds(lambda a, b: f"move {a} to {b}", e, e),
        st.builds(lambda a, b: f"move all v in {a} to {b}", e, e),
        st.builds(lambda a, b, c: f"draw {a} from {b} to {c}", e, e, e),
        st.builds(lambda a: f"shuffle {a}", e),
        st.builds(lambda d, n: f"roll {d} into {n}", st.sampled_from(["d6", *words]), name),
        st.builds(lambda a, d, n: f"roll {a} {d} into {n}", e, st.sampled_from(["d6", *words]), name),
        st.builds(lambda a: f"flip {a} face up", e),
        st.builds(lambda a: f"let v = {a}", e),
        st.builds(lambda n, op, a: f"{n} {op} {a}", name, st.sampled_from(["=", "+=", "-="]), e),
        st.builds(lambda n, f, a: f"{n}.{f} = {a}", name, name, e),
        st.builds(lambda kind, n: f"{kind} {n}", st.sampled_from(["win", "lose", "eliminate"]), name),
        st.builds(lambda n, o, op, a: f"{n} of {o} {op} {a}", name, name, st.sampled_from(["=", "+=", "-="]), e),
        st.builds(lambda n, args: f"{n}({', '.join(args)})", name, st.lists(e, max_size=2)),
        st.sampled_from(["pass", "end game", "end game in a draw"]),
    ).map(lambda line: [line])
    if depth < 3:
        inner = blocks(words, depth + 1).map(lambda text: ["  " + line for line in text.splitlines()])
        header = st.one_of(
            e.map(lambda c: f"if {c}:"), e.map(lambda c: f"while {c}:"), e.map(lambda c: f"repeat {c} times:"),
            e.map(lambda d: f"for v in {d}:"), st.builds(lambda r, d: f"{r} chooses v in {d} as pick:", name, e),
            e.map(lambda d: f"take first v in {d}:"), e.map(lambda d: f"take random v in {d}:"))
        simple = st.one_of(simple, st.builds(lambda h, body: [h, *body], header, inner))
    return st.lists(simple, min_size=1, max_size=4).map(lambda lines: "".join(l + "\n" for ls in lines for l in ls))


@st.composite
def generated_mutants(draw) -> Mutant:
    """A bundled ruleset with a define body, procedure or step replaced by generated rules."""
    seed = draw(st.sampled_from([s for s in SEED_DATA if _rules_texts(s.tree)]))
    tree = copy(seed.tree)
    path = draw(st.sampled_from(_rules_texts(tree)))
    block = path[-1] in ("do", "setup") or path[0] in ("procedures", "setup")
    put(tree, path, draw(blocks(seed.names) if block else expressions(seed.names)))
    return Mutant(seed.path, f"generated rules at {_where(path)}", dump(tree).encode("utf-8"))


# ---- parameter values (`--set NAME=VALUE`)

_VALUES = ["", " ", "true", "false", "TRUE", "yes", "no", "0", "1", "-1", "2", "3", "8", "9", "100", "-0", "+3",
           "1_000", "٣", "²", "1.5", "1e3", "0x10", "9" * 19, "9" * 5000, "-" + "9" * 30, "none", "'3'", "a=b",
           "\x00", "\u2028", "é", "nan", "inf"]


@st.composite
def param_settings(draw) -> tuple[Path, dict[str, str]]:
    """A bundled ruleset and one to three `--set` values: real names or near ones, odd values."""
    seed = draw(st.sampled_from(SEED_DATA))
    declared = sorted({*(_params(seed.tree)), "trial_modifiers", "hand_size"})
    params = {}
    for _ in range(draw(st.integers(1, 3))):
        name = draw(st.sampled_from(declared))
        if draw(st.integers(0, 5)) == 0:
            name = draw(misspelt(name))
        params[name] = draw(st.one_of(st.sampled_from(_VALUES), st.text(max_size=12),
                                      st.integers(-10 ** 30, 10 ** 30).map(str)))
    return seed.path, params


def _params(tree) -> list[str]:
    declared = tree.get("params") if isinstance(tree, dict) else None
    return list(declared) if isinstance(declared, dict) else []


def limit_settings() -> st.SearchStrategy[list[str]]:
    """One to three `--limit NAME=N` items: real names or near ones, odd values."""
    names = st.sampled_from([f.name for f in dataclasses.fields(Limits)]).flatmap(
        lambda name: st.one_of(st.just(name), misspelt(name)))
    values = st.one_of(st.sampled_from(_VALUES), st.text(max_size=8), st.integers(-10 ** 20, 10 ** 20).map(str))
    return st.lists(st.builds(lambda name, value: f"{name}={value}", names, values), min_size=1, max_size=3)
