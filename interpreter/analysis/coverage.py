"""Rule coverage: which rules a set of games ran, and how often.

A designer needs to know which rules their games never reach: the branch no
agent takes, the ability no card's moment ever comes for, the ending nobody
gets to. `measure` plays the games and counts, for the mode's rules:

    step       each step of the round (and the setups)
    branch     each arm of an `if` (its `elif`s and `else`), each menu option
    loop       the body of each `for`, `while`, `until`, `repeat`
    choice     the body of each decision and automatic choice (`take`)
    procedure  each procedure, ability and watch, by its body
    end        each `win`, `lose` and `end game`

and, from the outcomes, how each game ended (the reason, and the ranking key
that decided) and, through each ruling's steps, the rulings that never
applied.

Normal play pays nothing for it: the counting is done by an instrumented copy
of the rules — each counted place starts with `$cov<i> += 1`, a game variable
no rule reads (a `$` name is the engine's own, never a watch's concern) and
a measure of the same name — compiled plain (unoptimised), and played by the
simulation machinery on the same seeds as `rulelang simulate`: the same games
(the plain and the optimised code play alike), on any number of jobs.
"""
from __future__ import annotations

import dataclasses
import os
from collections import Counter
from dataclasses import dataclass, field

from rulelang import ir
from rulelang.errors import Span
from rulelang.walk import walk
from rulelang.types import INT

from ..engine.game import DEFAULT_STEP_LIMIT, Game
from .simulate import simulate

PREFIX = "$cov"
PLAIN_STEPS = 30  # how much more work (bindings) the plain code may do than the limit given (docs/reliability.md)


def located(span: Span | None) -> str:
    if span is None:
        return "?"
    if not span.file:
        return f"line {span.line}"
    path = os.path.relpath(span.file) if os.path.isabs(span.file) else span.file
    return f"{span.file if path.startswith('..') else path}:{span.line}"


@dataclass(frozen=True)
class Site:
    """A counted place of the rules."""
    index: int
    kind: str  # step, branch, loop, choice, procedure, ability, watch, setup, end
    what: str  # what runs there, as a reader finds it ("`if t.rank == king:`", "step 'Fatigue'")
    inside: str  # the step, procedure, ability or watch it is part of
    span: Span | None

    @property
    def counter(self) -> str:
        return f"{PREFIX}{self.index}"

    def at(self) -> str:
        """`FILE:LINE` (or '?'), the file as the working folder names it when it is under it."""
        return located(self.span)


@dataclass
class Coverage:
    """What games ran: per site, the runs and the games that ran it; the endings."""
    ruleset: ir.Ruleset
    mode: str
    sites: list[Site]
    games: int = 0
    seed: int = 0
    agents: dict = field(default_factory=dict)
    runs: list[int] = field(default_factory=list)
    reached: list[int] = field(default_factory=list)  # games in which each site ran
    endings: Counter = field(default_factory=Counter)  # (how it ended, the reason) -> games
    decided: Counter = field(default_factory=Counter)  # ranking key -> games it decided
    errors: list = field(default_factory=list)  # (seed, message) of games an agent failed

    def add(self, outcome: dict) -> None:
        if "error" in outcome:
            self.errors.append((self.seed + self.games + len(self.errors), outcome["error"]))
            return
        self.games += 1
        counts = outcome.get("measures", {})
        for site in self.sites:
            n = counts.get(site.counter, 0) or 0
            self.runs[site.index] += n
            self.reached[site.index] += 1 if n else 0
        self.endings[(outcome["ended_by"], outcome.get("reason"))] += 1
        if outcome.get("ranked_by"):
            self.decided[outcome["ranked_by"]] += 1

    def unreached(self) -> list[Site]:
        return [s for s in self.sites if self.runs[s.index] == 0]

    def rulings(self) -> list[tuple[ir.Ruling, list[tuple[str, int]]]]:
        """Each ruling of the mode that names steps (or the setup), with the runs of each of them."""
        steps = {s.what.removeprefix("step ").strip("'"): self.runs[s.index] for s in self.sites if s.kind == "step"}
        steps["setup"] = sum(self.runs[s.index] for s in self.sites if s.kind == "setup") or self.games
        out = []
        for ruling in self.ruleset.rulings:
            named = [n for n in ruling.applies_to if n in steps]
            if named:
                out.append((ruling, [(n, steps[n]) for n in named]))
        return out


def measure(ruleset: ir.Ruleset, mode: str | None = None, games: int = 20, seed: int = 0,
            agents: dict[str, str] | None = None, jobs: int = 1, step_limit: int = DEFAULT_STEP_LIMIT,
            timeout: float | None = None) -> Coverage:
    """Play `games` games (seeds seed.., the simulation's) of the instrumented rules and count."""
    mode = mode or ruleset.default_mode
    counted, sites = instrument(ruleset, mode)
    # plain code goes through more bindings than the optimised code the limit is set for (docs/reliability.md)
    game = Game(counted, mode, step_limit * PLAIN_STEPS, optimize=False)
    kinds = {role: (agents or {}).get(role, "random") for role in game.roles}
    cov = Coverage(ruleset, mode, sites, seed=seed, agents=kinds, runs=[0] * len(sites), reached=[0] * len(sites))
    simulate(game, games, seed, kinds, jobs, on_game=lambda s, outcome: cov.add(outcome), timeout=timeout)
    return cov


# ---------------------------------------------------------------- instrumenting the rules

def instrument(rs: ir.Ruleset, mode_name: str) -> tuple[ir.Ruleset, list[Site]]:
    """The ruleset with a counter at every place `Site` lists, and the sites."""
    counter = _Counter()
    mode = rs.modes[mode_name]
    setup = counter.block(rs.setup, "the setup", counter.site("setup", "the setup", "the setup", rs.setup))
    mode_setup = counter.block(mode.setup, f"the setup of {mode.title}",
                               counter.site("setup", f"the setup of {mode.title}", "the setup", mode.setup)) \
        if mode.setup else mode.setup
    steps = tuple(dataclasses.replace(
        s, body=counter.block(s.body, f"step '{s.name}'", counter.site("step", f"step '{s.name}'", f"step '{s.name}'",
                                                                        s.body, s.span)))
        for s in mode.round)
    watches = tuple(dataclasses.replace(
        w, body=counter.block(w.body, f"watch {i + 1}", counter.site("watch", f"watch {i + 1} (`{_first_line(w.when)}`)",
                                                                     f"watch {i + 1}", w.body, w.span)))
        for i, w in enumerate(mode.watches))
    used = _reached(rs, mode)  # a procedure or ability this mode never calls is not the mode's to count
    procedures = {name: dataclasses.replace(
        p, body=counter.block(p.body, f"procedure {name}", counter.site("procedure", f"procedure {name}",
                                                                         f"procedure {name}", p.body, p.span)))
        if ("procedure", name) in used else p for name, p in rs.procedures.items()}
    abilities = {name: dataclasses.replace(
        a, body=counter.block(a.body, f"ability {name}", counter.site("ability", f"ability {name} (on {a.on})",
                                                                       f"ability {name}", a.body, a.span)))
        if ("ability", name) in used else a for name, a in rs.abilities.items()}
    sites = counter.sites
    measures = dict(mode.measures)
    for s in sites:
        measures[s.counter] = ir.Measure(s.counter, ir.Var(s.counter, ty=INT), span=s.span)
    counted_mode = dataclasses.replace(mode, setup=mode_setup, round=steps, watches=watches,
                                       measures=ir.frozen_map(measures))
    variables = dict(rs.vars)
    for s in sites:
        variables[s.counter] = ir.VarDef(s.counter, INT, 0, span=s.span)
    counted = dataclasses.replace(rs, setup=setup, procedures=ir.frozen_map(procedures),
                                  abilities=ir.frozen_map(abilities), vars=ir.frozen_map(variables),
                                  modes=ir.frozen_map({**rs.modes, mode_name: counted_mode}))
    return counted, sites


def _reached(rs: ir.Ruleset, mode: ir.Mode) -> set:
    """The procedures and abilities the mode's rules call or set off, through one another."""
    found, todo = set(), [rs.setup, mode.setup, *(s.body for s in mode.round), *(w.body for w in mode.watches),
                          *(w.when for w in mode.watches)]
    while todo:
        for n in walk(todo.pop()):
            if isinstance(n, ir.CallProc) and n.name in rs.procedures and ("procedure", n.name) not in found:
                found.add(("procedure", n.name))
                todo.append(rs.procedures[n.name].body)
            elif isinstance(n, ir.Trigger):
                for a in rs.abilities.values():
                    if a.on == n.event and ("ability", a.name) not in found:
                        found.add(("ability", a.name))
                        todo.append(a.body)
    return found


def _first_line(e) -> str:
    span = getattr(e, "span", None)
    if span is None or span.source is None:
        return type(e).__name__.lower()
    text = span.source.line(span.line)[span.col - 1:].strip()
    return text if len(text) <= 60 else text[:57] + "..."


class _Counter:
    def __init__(self):
        self.sites: list[Site] = []

    def site(self, kind: str, what: str, inside: str, body, span: Span | None = None) -> ir.Stmt:
        """A new site, and the statement that counts it."""
        span = span or next((s.span for s in body if s.span is not None), None)
        site = Site(len(self.sites), kind, what, inside, span)
        self.sites.append(site)
        return ir.Assign(ir.Var(site.counter, ty=INT), "+=", ir.Const(1, ty=INT), span=span)

    def block(self, stmts, inside: str, first: ir.Stmt | None = None) -> tuple:
        """The statements, each counted place in them counted; `first` before them all."""
        out = [first] if first is not None else []
        for s in stmts:
            if isinstance(s, ir.EndGame):
                out.append(self.site("end", f"`{_first_line(s)}`", inside, (s,)))
            out.append(self.stmt(s, inside))
        return tuple(out)

    def arm(self, kind: str, what: str, body, inside: str, span: Span | None = None) -> tuple:
        return self.block(body, inside, self.site(kind, what, inside, body, span))

    def stmt(self, s: ir.Stmt, inside: str) -> ir.Stmt:
        if isinstance(s, ir.If):
            branches = []
            for k, (cond, body) in enumerate(s.branches):
                word = "if" if k == 0 else "elif"
                branches.append((cond, self.arm("branch", f"`{word} {_first_line(cond)}`", body, inside, cond.span)))
            otherwise = self.arm("branch", f"the `else:` of `if {_first_line(s.branches[0][0])}`", s.otherwise, inside) \
                if s.otherwise else s.otherwise
            return dataclasses.replace(s, branches=tuple(branches), otherwise=otherwise)
        if isinstance(s, (ir.While, ir.Repeat, ir.For)):
            return dataclasses.replace(s, body=self.arm("loop", f"the body of `{_first_line(s)}`", s.body,
                                                        inside, s.span))
        if isinstance(s, (ir.Choose, ir.Take)):
            what = f"decision `{s.label}`" if isinstance(s, ir.Choose) else f"`{_first_line(s)}`"
            return dataclasses.replace(s, body=self.arm("choice", what, s.body, inside, s.span))
        if isinstance(s, ir.Menu):
            options = tuple(dataclasses.replace(o, body=self.arm("branch", f"option `{o.name}` of `{s.label}`",
                                                                 o.body, inside, o.span))
                            for o in s.options)
            return dataclasses.replace(s, options=options)
        return s
