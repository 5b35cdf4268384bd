"""One ruleset file, read and indexed: the questions every front door asks.

    from queries import analyse
    a = analyse(text, "rulesets/my-variant.yaml")
    a.problems                 # every error and warning, located
    a.at(12, 9)                # what is written there (an Occurrence)
    a.hover(12, 9)             # what it is and means, in Markdown
    a.definition(12, 9)        # where it is declared (in a base file too)
    a.references(12, 9)        # everywhere it is named, across `extends:`
    a.completions(12, 9)       # what may be written there
    a.outline(); a.tokens()    # the file's structure; its rules' words, classified

Positions are lines and columns from 1 in this file, as the front end's
errors give them; the answers are `Place`s, which may be in the files a
variant extends.
"""
from __future__ import annotations

from functools import cached_property, lru_cache

from rulelang.errors import RulesetError
from rulelang.limits import DEFAULT, Limits
from rulelang.yamltree import YNode, load_yaml

from .completion import Completion, completions
from .hover import hover
from .outline import Outline, outline
from .places import Place, Text
from .problems import Problem
from .reading import Reading, read
from .symbols import Occurrence, Rule, Symbol, Texts, from_yaml, occurrences
from .tokens import Token, tokens
from .yamlnames import RulesText, rules_texts, written


def analyse(text: str, path: str, limits: Limits = DEFAULT, extends_dirs=()) -> Analysis:
    """The analysis of a ruleset's text; `path` names its file (see `reading.read`)."""
    return Analysis(read(text, path, limits, extends_dirs))


class Analysis:
    def __init__(self, reading: Reading):
        self.reading = reading
        self.path = reading.path
        self.text = Text(reading.text)
        self.ruleset = reading.ruleset

    # ------------------------------------------------------------ problems
    @cached_property
    def problems(self) -> tuple[Problem, ...]:
        return tuple(Problem.of(d, self.path) for d in self.reading.diagnostics)

    # ------------------------------------------------------------ the index
    @cached_property
    def _index(self) -> tuple[list[Occurrence], list[Rule]]:
        texts = Texts()
        found, rules = occurrences(self.ruleset, texts) if self.ruleset is not None else ([], [])
        names = [w for root in self.yaml_files.values() for w in written(root)]
        known = {s for o in found for s in o.symbols} | {Symbol(w.kinds[0], w.name, w.owner) for w in names
                                                         if w.declares}
        found += from_yaml(names, known)
        found += self._seats(found)
        unique = {(o.place, o.symbols): o for o in reversed(found)}  # a mode copied by `extends:` repeats its rules
        return sorted(unique.values(), key=lambda o: o.place), rules

    def _seats(self, found: list[Occurrence]) -> list[Occurrence]:
        """Seats named by their number (player_1, ...) are declared by `players:`, which makes them."""
        rs = self.ruleset
        if rs is None or rs.players is None or rs.players.span is None:
            return []
        named = {s for o in found if o.declares for s in o.symbols if s.kind == "role"}
        seats = tuple(s for r in rs.roles for s in [Symbol("role", r.name)] if s not in named)
        return [Occurrence(Place.of(rs.players.span), seats, True)] if seats else []

    @property
    def occurrences(self) -> list[Occurrence]:
        return self._index[0]

    @property
    def rules(self) -> list[Rule]:
        return self._index[1]

    @property
    def files(self) -> dict[str, str]:
        """The text of each file read: the bases this one extends, then this one."""
        sources = self.reading.tree.sources if self.reading.tree is not None else ()
        return {**{s.name: s.text for s in sources}, self.path: self.reading.text}

    @cached_property
    def yaml_files(self) -> dict[str, YNode]:
        """Each file's own YAML: this one, and the bases it extends."""
        files: dict[str, YNode] = {}
        if self.reading.tree is not None:
            for source in self.reading.tree.sources:
                if source.name != self.path:
                    root = _yaml(source.text, source.name)
                    if root is not None:
                        files[source.name] = root
        if self.reading.own is not None:
            files[self.path] = self.reading.own
        return files

    @cached_property
    def rules_texts(self) -> list[RulesText]:
        """The YAML strings of this file that hold rules."""
        return rules_texts(self.reading.own) if self.reading.own is not None else []

    # ------------------------------------------------------------ questions
    def at(self, line: int, col: int, file: str | None = None) -> Occurrence | None:
        """The innermost name written at a position of this file (or of a base it extends)."""
        file = file or self.path
        here = [o for o in self.occurrences if o.place.file == file and o.place.holds(line, col)]
        return min(here, key=lambda o: o.place.size) if here else None

    def rule_at(self, line: int, col: int) -> Rule | None:
        """The innermost statement or expression at a position of this file."""
        here = [r for r in self.rules if r.place.file == self.path and r.place.holds(line, col)]
        return min(here, key=lambda r: r.place.size) if here else None

    def declarations(self, symbol: Symbol) -> list[Place]:
        """Where a symbol is declared: in the base first, then in the variants that declare it again."""
        order = {name: i for i, name in enumerate(self.yaml_files)}
        places = [o.place for o in self.occurrences if o.declares and symbol in o.symbols]
        return sorted(places, key=lambda p: (order.get(p.file, -1), p))

    def uses(self, symbol: Symbol) -> list[Place]:
        return [o.place for o in self.occurrences if not o.declares and symbol in o.symbols]

    def definition(self, line: int, col: int) -> list[Place]:
        """Where the name at a position is declared; a variant's own declaration first."""
        found = self.at(line, col)
        if found is None:
            return self._extends_target(line, col)
        places = [p for s in found.symbols for p in self.declarations(s)]
        return list(dict.fromkeys(reversed(places)))

    def references(self, line: int, col: int, declarations: bool = True, file: str | None = None) -> list[Place]:
        """Every place the name at a position of this file (or of a base: `file`) names the
        same thing, in every file of the chain."""
        found = self.at(line, col, file)
        if found is None:
            return []
        places = [p for s in found.symbols for p in (self.uses(s) + (self.declarations(s) if declarations else []))]
        return sorted(dict.fromkeys(places))

    def _extends_target(self, line: int, col: int) -> list[Place]:
        """`extends: BASE` leads to the base file's first line."""
        own = self.reading.own
        node = own.get("extends") if own is not None and hasattr(own, "get") else None
        if node is None or not Place.of(node.span).holds(line, col) or self.reading.tree is None:
            return []
        bases = [s.name for s in self.reading.tree.sources if s.name != self.path]
        return [Place(bases[-1], 1, 1, 1, 1)] if bases else []

    # the questions answered in modules of their own
    def hover(self, line: int, col: int) -> str | None:
        return hover(self, line, col)

    def completions(self, line: int, col: int) -> list[Completion]:
        return completions(self, line, col)

    def outline(self) -> list[Outline]:
        return outline(self)

    def tokens(self) -> list[Token]:
        return tokens(self)


@lru_cache(maxsize=64)
def _yaml(text: str, name: str) -> YNode | None:
    """A base file's own YAML (the same text is read once)."""
    try:
        return load_yaml(text, name)
    except RulesetError:
        return None
