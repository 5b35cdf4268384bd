"""Which passes the compiler runs: one flag per pass, and the naive compile with none.

    CompileOptions()                       # every pass: what games run with
    NAIVE                                  # no pass at all: the rules compiled as written
    CompileOptions.parse("all,-merge")     # what `--passes` reads

The naive compile is the reference: each pass, alone and with all the others,
must play the same games as it, with the same steps counted at every decision
(tests/test_naive_reference.py). A miscompile is found by switching passes off until
the game is the naive one again (docs/architecture.md).
"""
from __future__ import annotations

import dataclasses

from rulelang.records import record

# name -> what it does, in the order the compiler runs them (the first six rewrite the rules,
# the rest choose how code is generated for them)
PASSES = {
    "fold": "parameters become constants; what depends only on constants is computed before play",
    "inline": "defines and procedures are written in place (within a budget of size)",
    "zones": "which card types can reach each zone: type tests that cannot hold fold away",
    "reuse": "a quantifier that the next statements compute again is computed once",
    "setup": "the setup statements every game runs alike run once per compiled game",
    "hoist": "what does not depend on a binder's names is computed once, lazily",
    "share": "a guard that asks whether a decision has options lists them for it",
    "unswitch": "a `where` that first tests what no binding changes is tested before the loops",
    "boards": "a board is gone through by the few cards that can be there, and in the order asked",
    "lists": "a list a statement uses is built by its own lines, not by a nested function",
    "lift": "a nested function that only reads what is around it is made once, not at every call",
    "merge": "straight-line runs of blocks are one function, loops back to its start a Python loop",
    "locals": "a local used in one function is a Python local, not an entry of the frame",
    "cards": "a local that always holds a card is read without a test for none",
    "quick": "quick agents are answered in the generated code, without returning to the engine",
    "idioms": "work done in C: pairs by combinations, type tests by sets, zones copied and filtered whole",
}


@record
class CompileOptions:
    fold: bool = True
    inline: bool = True
    zones: bool = True
    reuse: bool = True
    setup: bool = True
    hoist: bool = True
    share: bool = True
    unswitch: bool = True
    boards: bool = True
    lists: bool = True
    lift: bool = True
    merge: bool = True
    locals: bool = True
    cards: bool = True
    quick: bool = True
    idioms: bool = True

    @classmethod
    def only(cls, *names: str) -> CompileOptions:
        """These passes and no other."""
        return cls(**{name: name in names for name in PASSES})

    @classmethod
    def parse(cls, text: str) -> CompileOptions:
        """`all`, `none`, or a list of names separated by commas, each added (`merge`) or taken
        away (`-merge`) in turn: `all,-merge` is every pass but merging. ValueError names a
        word that is not a pass."""
        on: set[str] = set()
        for word in (w.strip() for w in text.split(",")):
            name = word.lstrip("-")
            if word == "all":
                on = set(PASSES)
            elif word == "none":
                on = set()
            elif name in PASSES:
                (on.discard if word.startswith("-") else on.add)(name)
            else:
                raise ValueError(f"'{word}' is not a pass: the passes are {', '.join(PASSES)} (or all, none)")
        return cls.only(*on)

    @property
    def names(self) -> tuple[str, ...]:
        """The passes switched on, in PASSES order."""
        return tuple(name for name in PASSES if getattr(self, name))

    def __str__(self) -> str:
        names = self.names
        return "all" if len(names) == len(PASSES) else ",".join(names) or "none"

    def replace(self, **changes) -> CompileOptions:
        return dataclasses.replace(self, **changes)


ALL = CompileOptions()
NAIVE = CompileOptions.only()
