"""The game's flow as programs that can stop at any decision.

Statements that contain a decision are lowered to a flat list of items —
runs of decision-free statements, and `branch`, `jump`, `decide`, `menu`,
`call` and loop items — with labels. `codegen.py` then turns each basic
block of that list into one Python function that runs the block and returns
the index of the next block (or SUSPEND at a decision, CALL to enter a
procedure).

The flow position is therefore plain data — a stack of frames
`[program name, block index, locals]` — which is what lets a state be
cloned and saved to JSON at every decision.

Programs: "main" (setup, then the mode's round of steps, repeated until the
game ends) and "proc:NAME" for each procedure that asks for decisions.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulelang import ir
from rulelang.errors import Span
from rulelang.types import BoardT, CardT, ListT, ZoneT

from .rules import Compiler, has_decision

SUSPEND = -1  # a decision is pending
CALL = -2  # a frame was pushed


@dataclass(frozen=True)
class DecisionSite:
    """A place in the rules where a decision is asked (its index is in the
    pending decision, so states stay plain data)."""
    label: str
    names: tuple[str, ...]  # bound by the options, in order (empty for a menu)
    is_card: tuple[bool, ...]  # which of them are cards
    span: Span | None


def watch_program(index: int) -> str:
    """The name of the program that runs a watch's statements."""
    return f"watch:{index}"


def card_flags(b: ir.Binder) -> tuple[bool, ...]:
    """Which of a binder's names are bound to cards."""
    flags = []
    for g in b.groups:
        t = g.domain.ty
        card = isinstance(t, (ZoneT, BoardT)) or (isinstance(t, ListT) and isinstance(t.item, CardT))
        flags += [card] * len(g.names)
    return tuple(flags)


class Label:
    __slots__ = ("at",)

    def __init__(self):
        self.at = -1  # item index, set by Lowered.here


class Lowered:
    """A program as items; labels mark item indexes."""

    def __init__(self):
        self.items: list[tuple] = []
        self.step_labels: list[tuple[Label, str]] = []

    def here(self, label: Label) -> None:
        label.at = len(self.items)

    def add(self, *item) -> None:
        self.items.append(item)


class FlowBuilder:
    def __init__(self, compiler: Compiler):
        self.c = compiler
        self.program = compiler.program
        self.programs: dict[str, list] = {}
        self.step_starts: list[tuple[int, str]] = []
        self.sites: list[DecisionSite] = []
        self.row_flags: dict[str, tuple[bool, ...]] = {}  # a loop's rows temp -> which values are cards
        self._temps = 0

    def build(self, mode: ir.Mode) -> dict[str, list]:
        main = Lowered()
        start = Label()
        main.here(start)
        main.step_labels.append((start, "Setup"))
        self.block(main, self.program.setup)
        top = Label()
        main.here(top)
        main.add("round")
        for step in self.program.steps:
            label = Label()
            main.here(label)
            main.step_labels.append((label, step.name))
            self.block(main, step.body)
        main.add("jump", top, mode.span)
        blocks, block_of = self.c.codegen.compile_program(main.items, [top] + [l for l, _ in main.step_labels])
        self.programs["main"] = blocks
        self.step_starts = [(block_of[label.at], name) for label, name in main.step_labels]
        self.round_start = block_of[top.at]
        for i, watch in enumerate(self.program.watches):
            prog = Lowered()
            self.block(prog, watch.body)
            self.programs[watch_program(i)] = self.c.codegen.compile_program(prog.items, [])[0]
        return self.programs

    def temp(self, what: str) -> str:
        self._temps += 1
        return f"${what}{self._temps}"

    def block(self, prog: Lowered, stmts) -> None:
        run: list = []
        for s in stmts:
            if has_decision([s], self.program.procedures):
                if run:
                    prog.add("stmts", tuple(run))
                run = []
                self.lower(prog, s)
            else:
                run.append(s)
        if run:
            prog.add("stmts", tuple(run))

    def site(self, site: DecisionSite) -> int:
        self.sites.append(site)
        return len(self.sites) - 1

    def lower(self, prog: Lowered, s: ir.Stmt) -> None:
        if isinstance(s, ir.Choose):
            site = DecisionSite(s.label, s.binder.names, card_flags(s.binder), s.span)
            prog.add("decide", s.role, self.site(site), site, self.c.options_of(s))
            self.block(prog, s.body)
        elif isinstance(s, ir.Take):
            prog.add("take", s)
            self.block(prog, s.body)
        elif isinstance(s, ir.Menu):
            end = Label()
            choices = [(o.name, o.guard, Label()) for o in s.options]
            site = DecisionSite(s.label, (), (), s.span)
            prog.add("menu", s.role, self.site(site), site, choices)
            for (_, _, label), option in zip(choices, s.options):
                prog.here(label)
                self.block(prog, option.body)
                prog.add("jump", end, option.span)
            prog.here(end)
        elif isinstance(s, ir.If):
            end = Label()
            for cond, body in s.branches:
                skip = Label()
                prog.add("branch", cond, True, skip)
                self.block(prog, body)
                prog.add("jump", end, s.span)
                prog.here(skip)
            if s.otherwise is not None:
                self.block(prog, s.otherwise)
            prog.here(end)
        elif isinstance(s, ir.While):
            top, end = Label(), Label()
            prog.here(top)
            prog.add("branch", s.cond, not s.until, end)
            self.block(prog, s.body)
            prog.add("jump", top, s.span)
            prog.here(end)
        elif isinstance(s, (ir.Repeat, ir.For)):
            rows, index = self.temp("rows"), self.temp("i")
            if isinstance(s, ir.Repeat):
                names, source = (), ("repeat", s.count)
            else:
                names, source = s.binder.names, ("rows", s.binder)
                self.row_flags[rows] = card_flags(s.binder)
            prog.add("loop_init", rows, index, source)
            top, end = Label(), Label()
            prog.here(top)
            prog.add("for_next", rows, index, names, end)
            self.block(prog, s.body)
            prog.add("jump", top, s.span)
            prog.here(end)
        elif isinstance(s, ir.CallProc):
            name = self.procedure(s.name)
            params = [p for p, _ in self.c.rs.procedures[s.name].params]
            prog.add("call", name, tuple(zip(params, s.args)))
        else:
            raise AssertionError(type(s).__name__)

    def procedure(self, name: str) -> str:
        key = "proc:" + name
        if key not in self.programs:
            self.programs[key] = []  # placeholder: procedures are never recursive
            prog = Lowered()
            self.block(prog, self.program.procedures[name])
            self.programs[key] = self.c.codegen.compile_program(prog.items, [])[0]
        return key
