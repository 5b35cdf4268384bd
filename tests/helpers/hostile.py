"""Hostile rulesets: text written to exhaust the front end.

Each case is (name, what it attacks, a function making the ruleset text (or
bytes), a piece of the error it must end in). `tests/test_hostile_inputs.py` checks every one is refused
quickly with a located error; `benchmarks/bench_hostile_inputs.py` measures
the time and memory each takes to be refused (docs/reliability.md).
"""
from __future__ import annotations

HEAD = "game: hostile\nroles: [p]\n"

# a small valid ruleset whose parts the cases below replace
TINY = HEAD + """\
vars: {x: {initial: 0}, b: {initial: false}}
zones:
  pile: {}
cards:
  chip: {count: 3}
define:
  d(y): y
modes:
  m:
    round:
      - step: Play
        do: |
          RULES
          end game
"""


def rules(line: str) -> str:
    return TINY.replace("RULES", line)


def tiny(old: str, new: str) -> str:
    """The tiny ruleset with one piece of its declarations replaced."""
    return rules("pass").replace(old, new)


def billion_laughs(levels: int = 9, fan: int = 10) -> str:
    lines = ["a0: &a0 [lol]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * fan) + "]")
    return HEAD + "\n".join(lines) + "\n"


def define_chain(n: int) -> str:
    chain = "".join(f"  d{i}(y): d{i + 1}(y) + 1\n" for i in range(n)) + f"  d{n}(y): y\n"
    return rules("x = d0(1)").replace("  d(y): y\n", chain)


CASES = [
    ("billion-laughs", "an alias bomb: 9 levels of 10 aliases (10^9 nodes written out)",
     lambda: billion_laughs(), "YAML values (aliases counted as written out)"),
    ("quadratic-aliases", "1,000 aliases of a list of 1,000 aliases",
     lambda: HEAD + "a: &a [" + ", ".join(["x"] * 1000) + "]\nb: [" + ", ".join(["*a"] * 1000) + "]\n",
     "YAML values"),
    ("huge-scalar", "a 20 MB title",
     lambda: HEAD + "title: " + "x" * 20_000_000 + "\n", "more than a ruleset may be"),
    ("many-nodes", "60,000 small YAML values",
     lambda: HEAD + "".join(f"k{i}: [1, 2]\n" for i in range(20_000)), "YAML values"),
    ("deep-yaml", "100,000 nested YAML lists",
     lambda: HEAD + "x: " + "[" * 100_000 + "]" * 100_000 + "\n", "YAML nested more than"),
    ("deep-yaml-maps", "1,000 nested YAML mappings",
     lambda: HEAD + "".join(" " * i + f"k{i}:\n" for i in range(1000)), "YAML nested more than"),
    ("million-copies", "a card type with count: 100,000,000",
     lambda: tiny("chip: {count: 3}", "chip: {count: 100000000}"), "more than 10,000 components"),
    ("card-table", "a table of 20,000 cards",
     lambda: tiny("chip: {count: 3}", "chip:\n    fields: {n: number}\n    table: |\n      n\n"
                          + "".join(f"      {i}\n" for i in range(20_000))), "more than 10,000 components"),
    ("huge-board", "a board of 10^12 spaces",
     lambda: tiny("pile: {}", "pile: {kind: grid, columns: 1000000, rows: 1000000}"), "spaces, more than"),
    ("deep-parentheses-sum", "1 + 1 + ... + 1, 5,000 times",
     lambda: rules("x = " + "1 + " * 5000 + "1"), "nest more than 100 levels"),
    ("deep-not", "not not ... true, 3,000 times", lambda: rules("b = " + "not " * 3000 + "true"),
     "nest more than 100 levels"),
    ("deep-lists", "2,000 nested lists", lambda: rules("x = size(" + "[" * 2000 + "1" + "]" * 2000 + ")"),
     "nest more than 100 levels"),
    ("deep-blocks", "300 nested if statements",
     lambda: rules("".join(" " * (10 + 2 * i) + "if x < 5:\n" for i in range(300)).strip() + "\n"
                   + " " * 610 + "x += 1"), "nest more than 100 levels"),
    ("define-chain", "3,000 defines, each calling the next", lambda: define_chain(3000),
     "counting the defines and procedures they call"),
    ("recursive-define", "a define that calls itself",
     lambda: rules("x = d(1)").replace("d(y): y", "d(y): d(y) + 1"), "uses itself"),
    ("loops-in-loops", "25 nested for loops (Python allows 20)",
     lambda: rules("".join(" " * (10 + 2 * i) + f"for a{i} in pile:\n" for i in range(25)).strip() + "\n"
                   + " " * 60 + "x += 1"), "nest too deeply to compile"),
    ("long-number", "a number of 5,000 digits", lambda: rules("x = " + "9" * 5000), "at most 18 digits"),
    ("long-yaml-number", "a YAML number of 5,000 digits",
     lambda: tiny("{x: {initial: 0}", "{x: {initial: " + "9" * 5000 + "}"), "invalid YAML value"),
    ("bad-escape", "an invalid escape in rules text", lambda: rules('let t = "\\N{nothing}"'), "bad escape"),
    ("invalid-utf8", "bytes that are not UTF-8", lambda: rules("pass").encode() + b"\xff\xfe\x80",
     "not valid UTF-8"),
    ("many-errors", "5,000 unknown names",
     lambda: rules("x = n\n" + "".join(f"          x = n{i}\n" for i in range(5_000))), "unknown name"),
    ("similar-long-names", "500 unknown names of 60 letters, like 200 declared ones (hints compared them all: 28 s)",
     lambda: similar_names(200, 500), "unknown variable"),
]


def similar_names(declared: int, unknown: int) -> str:
    """Names of a two-letter alphabet, all alike: the worst case for "did you mean" hints."""
    import random
    pick = random.Random(3)

    def name() -> str:
        return "v" + "".join(pick.choice("ab") for _ in range(59))
    head = HEAD + "vars:\n" + "".join(f"  {name()}: {{initial: 0}}\n" for _ in range(declared))
    body = "".join(f"          {name()} = 1\n" for _ in range(unknown))
    return head + "modes:\n  m:\n    round:\n      - step: Play\n        do: |\n" + body + "          end game\n"
