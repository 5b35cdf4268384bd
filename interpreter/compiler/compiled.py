"""What the compiler gives the engine: compiled rules, as records the engine
reads and the cache of compiled modes (engine/compiled_cache.py) keeps.

Nothing here compiles: this module imports no pass and no code generator, so
a game whose rules come from the cache never loads the compiler. Its names
are those the engine and generated code share: the programs' names, what a
block returns besides the next block's index, a unit of generated code and
the watch check (which says what it is made of, so that compiled rules can
be kept as data).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from operator import itemgetter
from types import CodeType
from typing import TYPE_CHECKING, Callable

from rulelang.errors import Span
from rulelang.records import record

from ..runtime.chance import ChanceSite
from ..runtime.decision import DecisionSite
from ..runtime.errors import WatchFired
from .notes import origin
from .options import CompileOptions

if TYPE_CHECKING:
    from .nodes import Program

SUSPEND = -1  # a decision is pending
CALL = -2  # a frame was pushed
EXIT = -3  # the program is done (what the extra block after its last returns)
SHARED_SETUP = "setup:shared"  # the program of the setup statements every game runs alike, if any
UNITS = itertools.count(1)  # file names of generated units are unique in the process


def watch_program(index: int) -> str:
    """The name of the program that runs a watch's statements."""
    return f"watch:{index}"


@record
class StepStart:
    block: int  # the main program's block where the step starts
    name: str


@record
class CompiledRules:
    program_of: Callable[[], Program]  # what was compiled (asked for when needed: a cached mode reads it then)
    options: CompileOptions  # with which passes
    programs: dict[str, list[Callable]]  # program name -> its basic blocks
    sites: tuple[DecisionSite, ...]  # where decisions are asked, by index
    chance_sites: tuple[ChanceSite, ...]  # where the rules roll, pick at random and shuffle, by index
    steps: tuple[StepStart, ...]  # Setup, then the round's steps, in order
    round_start: int  # the block a new round starts at
    crossing: frozenset[int]  # the main program's blocks whose function runs other steps' blocks (sets st.at)
    row_flags: dict[str, tuple[bool, ...]]  # a loop's rows local -> which values are cards
    score: dict[str, Callable]  # role -> f(st, env)
    measures: dict[str, Callable]
    heuristics: dict[str, Callable]
    ranking: tuple[tuple[bool, dict[str, Callable]], ...]  # (lowest first?, role -> f) per key of `ranking:`
    units: tuple[Unit, ...]  # the generated code, annotated when asked
    labels: dict[int, Callable]  # a decision site -> f(st, env of an option's names): how the option reads
    # a mode of turns: the index in `steps` of its last turn step, and the block where the next turn is found
    last_turn: tuple[int, int] | None
    remembers: bool  # whether the rules roll, pick at random, reveal or announce: a game keeps its events

    @property
    def program(self) -> Program:
        return self.program_of()


def watch_check(conditions: tuple[Callable, ...]) -> Callable:
    """The check run after every change to the game: the first watch whose
    condition holds fires (none while a watch's own statements run). A plain
    function, as it runs after every effect; it says what it was made of
    (`watch_conditions`), which is how the cache of compiled modes keeps it."""
    running = frozenset(watch_program(i) for i in range(len(conditions)))

    def check(st) -> None:
        stack = st.stack
        if len(stack) > 1 and stack[1].program in running:
            return
        for i, holds in enumerate(conditions):
            if holds(st, {}):
                raise WatchFired(i)
    check.watch_conditions = conditions  # type: ignore[attr-defined]
    return check


@dataclass
class Unit:
    """One compiled piece of generated code, with its notes.

    It is the `__loader__` of the namespace the code runs in, which is how
    `linecache` (and so a traceback) finds the annotated text; its file name
    is not `<...>`, which linecache would not ask a loader about."""
    name: str  # the file name the code is compiled under
    what: str  # what it is, in words
    lines: list[tuple[str, str | None]]
    consts: list
    code: CodeType | None = None  # the compiled text (what the cache of compiled modes keeps)

    def get_source(self, _module: str) -> str:
        notes = [_comment(note, 1000) if note else note for _, note in self.lines]  # (a chain of origins: whole)
        notes[1:1 + len(self.consts)] = [_comment(_describe(c)) for c in self.consts]
        return "".join(line + (f"  # {note}" if note else "") + "\n" for (line, _), note in zip(self.lines, notes))

    def text(self) -> str:
        return f"# {self.what} ({self.name})\n" + self.get_source(self.name)


def _comment(text: str, most: int = 70) -> str:
    """Text as a one-line comment: control characters escaped, long values cut."""
    text = text if text.isprintable() else text.encode("unicode_escape").decode("ascii")
    return text if len(text) <= most else text[:most - 3] + "..."


def _describe(value) -> str:
    """A constant as its note says it."""
    if callable(value) and not isinstance(value, itemgetter):  # (an `ordered by`'s sort key says what it takes)
        return getattr(value, "rules_title", "a generated function")
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], Span):  # an error: (span, message)
        return f"error at {origin(value[0])}: {value[1]}"
    if isinstance(value, Span):  # where a loop or binder is, for the step limit's message
        return origin(value)
    if isinstance(value, DecisionSite):
        return f"the decision '{value.label}' at {value.at}"
    if isinstance(value, ChanceSite):
        return f"the {value.kind}{' of ' + value.die if value.die else ''} at {value.at}"
    return repr(value)
