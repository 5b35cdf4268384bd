"""How much a ruleset may ask of the front end.

Rulesets are text people share and download, so reading one must end
quickly, in bounded memory, whatever the text: an alias bomb, a huge file, a
million cards or rules nested a thousand deep are rejected with a located
error before they cost anything. Every default is far above any real
ruleset (the bundled ones use a few percent of each); a ruleset that really
needs more says so on the command line (`--limit components=50000`) or in
`load_ruleset(..., limits=Limits(components=50_000))`.
"""
from __future__ import annotations

import dataclasses

from .errors import Diagnostic, RulesetError, Source, Span, did_you_mean
from .records import record


@record
class Limits:
    file_bytes: int = 1_000_000  # one ruleset file (the bundled ones: under 30 kB)
    yaml_nodes: int = 50_000  # YAML values, aliases counted as written out (the bundled: under 2,000)
    yaml_depth: int = 50  # YAML mappings and lists inside one another (the bundled: 8)
    components: int = 10_000  # cards, tokens and tiles (the bundled: under 100)
    board_spaces: int = 10_000  # spaces on one board
    nesting: int = 100  # rules inside one another: expressions, statements, and the
    #                     defines and procedures they call, counted as written out (the bundled: under 40)
    number_digits: int = 18  # a number in play: a product or sum that grows without end is stopped
    #                          (the bundled: under 4 digits; Python prints at most 4,300)

    def changed(self, assignments: list[str]) -> "Limits":
        """These limits with `NAME=N` items applied (`--limit`); bad items are a RulesetError."""
        from .params import whole_number  # (params reads the IR: not imported by what needs only the limits)
        changes, problems = {}, []
        names = [f.name for f in dataclasses.fields(self)]
        for item in assignments:
            name, sep, value = item.partition("=")
            name, number = name.strip(), whole_number(value, 15)
            if not sep or name not in names:
                problems.append(Diagnostic(None, f"--limit expects NAME=N with NAME one of {', '.join(names)}; "
                                                 f"not '{item}'", did_you_mean(name, names)))
            elif number is None or number < 1:
                problems.append(Diagnostic(None, f"--limit {name}: expected a whole number of at least 1, "
                                                 f"not '{value.strip()}'"))
            elif number > MOST.get(name, number):
                problems.append(Diagnostic(None, f"--limit {name}: at most {MOST[name]:,}, not {number:,}",
                                           WHY_MOST[name]))
            elif changes.get(name, number) != number:
                problems.append(Diagnostic(None, f"--limit {name} is given twice, as {changes[name]:,} and as "
                                                 f"{number:,}", f"keep one --limit {name}=N"))
            else:
                changes[name] = number
        if problems:
            raise RulesetError(problems)
        return dataclasses.replace(self, **changes)


DEFAULT = Limits()
# how far --limit may raise the depths: the passes over YAML and rules recurse,
# and deeper input would end in Python's RecursionError, not a located error
# (tests/test_fuzz_front_end.py tries every kind of deep input at these)
MOST = {"yaml_depth": 200, "nesting": 200, "number_digits": 4000}
DEEPER = "anything nested deeper would exhaust Python's stack while it is read"
WHY_MOST = {"yaml_depth": DEEPER, "nesting": DEEPER,
            "number_digits": "Python prints no whole number of more than 4,300 digits"}


def over(what: str, limit: int, name: str) -> str:
    """The hint of an error for a limit that was reached."""
    return f"{what}; if the ruleset really needs more, raise the limit with --limit {name}=N (now {limit:,})"


def check_size(source: Source, limits: Limits) -> None:
    size = len(source.text.encode("utf-8", errors="replace"))
    if size > limits.file_bytes:
        raise RulesetError([Diagnostic(
            Span(source, 1, 1),
            f"{source.name} is {size:,} bytes, more than a ruleset may be ({limits.file_bytes:,})",
            over("real rulesets are a few tens of kilobytes", limits.file_bytes, "file_bytes"))])
