"""The whole compiler in one call: a mode's rules -> compiled rules.

    rules = compile_rules(ruleset, mode, layout, CompileOptions())
    rules.programs["main"][0](st, env)   # the first basic block of setup

The steps, in order: the program (with the passes the options switch on: optimize.py), its
flow lowered to items (flow.py; with explicit chance, rolls, random picks
and shuffles stop play too), every program's basic blocks, scores,
measures and heuristics generated as Python functions (blocks.py and the
modules it builds on). `units` hold every generated function, annotated
with the rules' `FILE:LINE` when read; `rulelang show --python` prints them.
"""
from __future__ import annotations

import copy

from rulelang import ir
from rulelang.collector import collector_paused
from rulelang.walk import map_children, replaced, walk

from ..runtime.layout import Layout
from .codegen import Codegen
from .compiled import SHARED_SETUP, CompiledRules, StepStart, watch_program
from .flow import Lowering
from .hoist import free_locals
from .nodes import LetIn
from .optimize import program_for
from .options import ALL, CompileOptions


class _NoState:
    """The state a constant is computed in: it has no zones, variables or
    cards, so an expression that reads any fails (and is left to run time);
    only the work counter of binders is there (and no decision: work past the limit is a runaway)."""
    __slots__ = ("steps", "work", "work_at", "work_windows", "decisions")

    def __init__(self):
        self.steps = self.work = self.work_at = self.work_windows = self.decisions = 0


def constant_evaluator(layout: Layout, options: CompileOptions = ALL):
    """(ok, value) of an expression that depends on nothing, as the generated code computes it
    (the same expression once: folding meets most twice, in the rules written out and as called;
    and once up to the names it binds: a define inlined ten times binds fresh names each time)."""
    # each runs once: nothing to lift; past its budget of work (tuning.FOLD_WORK), a value is left to run time
    gen = Codegen(layout, None, options.replace(lift=False), keep=False, folding=True)
    known: dict = {}
    alike: dict = {}
    free: dict = {}

    def evaluate(e: ir.Expr):
        try:
            return known[e]
        except (KeyError, TypeError):  # (a constant list in it: no key)
            pass
        if free_locals(e, free):  # it reads a name from outside: no value now (not worth generating code to learn)
            return False, None
        form = _form(e)
        try:
            ok, value = alike[form]
            found = ok, copy.deepcopy(value)  # a value of its own, as if computed again (constants go by identity)
        except (KeyError, TypeError):
            try:
                found = True, gen.function(e, "a constant")(_NoState(), {})
            except Exception:  # e.g. division by zero: left to run time, where it is reported
                found = False, None
            try:
                alike[form] = found
            except TypeError:
                pass
        try:
            known[e] = found
        except TypeError:
            pass
        return found
    return evaluate


def _form(e: ir.Expr) -> tuple:
    """An expression without free names as it is up to the names it binds: the tree with them
    numbered in the order met, its constant lists as tuples (to be a key), and every node's type
    (equality leaves types out). Two expressions of one form differ only by a one-to-one renaming
    of their own names: they have one value."""
    numbers: dict[str, str] = {}

    def number(name: str) -> str:
        return numbers.setdefault(name, str(len(numbers)))

    def renamed(n):
        n = map_children(n, renamed)
        if isinstance(n, ir.Local):
            return replaced(n, {"name": number(n.name)})
        if isinstance(n, ir.BinderGroup):
            return replaced(n, {"names": tuple(number(x) for x in n.names)})
        if isinstance(n, LetIn):
            return replaced(n, {"name": number(n.name)})
        if isinstance(n, ir.Const) and isinstance(n.value, list):
            return replaced(n, {"value": _frozen(n.value)})
        return n
    tree = renamed(e)
    return tree, tuple((getattr(n, "ty", None), getattr(n, "types", None)) for n in walk(tree))


def _frozen(value):
    """A value of a constant as a key: a list as (list, its items as a tuple)."""
    return (list, tuple(_frozen(v) for v in value)) if isinstance(value, list) else value


def compile_rules(ruleset: ir.Ruleset, mode: ir.Mode, layout: Layout, options: CompileOptions = ALL,
                  invariants=None, explicit_chance: bool = False) -> CompiledRules:
    with collector_paused():  # (rulelang/collector.py: a fifth of the time, for nothing to free)
        return _compiled(ruleset, mode, layout, options, invariants, explicit_chance)


def _compiled(ruleset: ir.Ruleset, mode: ir.Mode, layout: Layout, options: CompileOptions,
              invariants, explicit_chance: bool) -> CompiledRules:
    program = program_for(ruleset, mode, options, constant_evaluator(layout, options))
    gen = Codegen(layout, program, options, invariants)
    lowering = Lowering(program, ruleset, explicit_chance)
    main, top = lowering.main(mode.span)
    step_labels = [label for label, _ in main.steps]
    programs = {}
    programs["main"], block_of = gen.blocks(main, "the main program: setup, then each round", [top] + step_labels)
    crossing = gen.crossing
    if program.fixed:
        programs[SHARED_SETUP] = gen.blocks(lowering.statements(program.setup[:program.fixed]),
                                            "the setup every game shares (run once)")[0]
    for i, watch in enumerate(program.watches):
        programs[watch_program(i)] = gen.blocks(lowering.statements(watch.body), f"the statements of watch {i + 1}")[0]
    while lowering.called:  # procedures called (not inlined) that ask decisions, as their own programs
        name = lowering.called.pop()
        if "proc:" + name not in programs:
            programs["proc:" + name] = gen.blocks(lowering.statements(program.procedures[name]), f"procedure {name}",
                                                  bound_outside=[p for p, _ in ruleset.procedures[name].params])[0]
    score = {r: gen.function(e, f"the score of {r}") for r, e in program.score.items()}
    measures = {n: gen.function(e, f"measure {n}") for n, e in program.measures.items()}
    heuristics = {r: gen.function(e, f"the heuristic of {r}") for r, e in program.heuristics.items()}
    ranking = tuple((lowest, {r: gen.function(e, f"ranking key {i + 1} of {r}") for r, e in values.items()})
                    for i, (lowest, values) in enumerate(program.ranking))
    labels = {i: gen.function(e, f"how the options of decision '{lowering.sites[i].label}' read")
              for i, e in lowering.labels.items()}
    return CompiledRules(
        lambda: program, options, programs, tuple(lowering.sites), tuple(gen.chance_sites),
        tuple(StepStart(block_of[label.at], name) for label, name in main.steps), block_of[top.at], crossing,
        lowering.row_flags, score, measures, heuristics, ranking,
        tuple(gen.compiled),  # (every unit, the labels' too: a listing and the cache of compiled modes keep them)
        labels,
        (program.turns.last + 1, block_of[lowering.next_turn.at])
        if program.turns is not None and lowering.next_turn is not None else None,
        gen.tells)
