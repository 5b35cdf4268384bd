"""Design sweeps: every combination of rulesets, parameter values and agents, on the same seeds.

A sweep plays the same seeds S..S+N-1 under every configuration — common
random numbers: the same deals and the same random players' draws, so a
difference between two configurations is the rules', not luck's. The
configurations are each ruleset named, times every combination of the
grid's values for the parameters that ruleset declares, times every
combination of the agents given for each role. Configuration k's game with
seed s is the game `rulelang run RULESET --set P=V ... --agent ROLE=KIND ...
--seed s` plays.

The games ship as chunks (work.py) to a backend (backends.py), and come back
in configuration and seed order, so the rows and the summary are the same
on every backend and any number of workers. A configuration is summarised
(`Point`: its figures with 95% intervals) as soon as its last game is in,
and its per-game values are dropped.
"""
from __future__ import annotations

import itertools
import json
import math
from contextlib import closing
from dataclasses import dataclass, field
from typing import Callable

from rulelang import apply_params, ir
from rulelang.errors import did_you_mean

from ..agents.registry import PLUGINS
from ..engine.game import DEFAULT_STEP_LIMIT
from .backends import chunk_size
from .records import columns, measure_kinds, param_types, provenance, provenance_fields, run_name
from .tally import Tally
from .target import Target
from .work import Chunk, Failure, Setup


class SweepError(ValueError):
    """A sweep that cannot be planned (a usage error)."""


@dataclass(frozen=True)
class Configuration:
    index: int
    entry: str  # the ruleset as named
    params: dict  # the grid's values this ruleset takes, as it takes them (int, bool, text)
    agents: dict  # role -> agent spec
    setup: Setup = field(repr=False)

    def lead(self, sweep: "Sweep") -> dict:
        """The columns that start each of its rows: its number, and what plays its games."""
        return {"config": self.index} | provenance(self.entry, self.setup.ruleset, self.setup.mode, self.agents)


@dataclass
class Sweep:
    configurations: list[Configuration]
    grid: dict[str, list[str]]  # parameter -> the values swept
    roles: list[str]  # of every configuration's mode
    measures: dict[str, bool]  # name -> true/false (else a number)
    scored: list[str]  # the roles with a score
    param_types: dict[str, type]  # every parameter of the rulesets swept, and the type of its values
    games: int
    seed: int

    @property
    def total(self) -> int:
        return self.games * len(self.configurations)

    def fields(self) -> dict[str, type]:
        lead = {"config": int} | provenance_fields(self.param_types, self.roles)
        return columns(self.roles, self.measures, lead)

    def run_name(self) -> str:
        """What names the sweep, and starts the chain of checks of its rows: each configuration's run."""
        return json.dumps([run_name(c.setup.ruleset.source_hash, c.setup.mode, dict(c.setup.ruleset.param_values),
                                    c.agents) for c in self.configurations])

    def figure_names(self) -> list[str]:
        """What a summary reports of each configuration, and a target may name."""
        return ([f"win_rate.{r}" for r in self.roles] + [f"score.{r}" for r in self.scored] + ["rounds", "decisions"]
                + [f"measure.{n}" for n in self.measures])

    def chunks(self, workers: int, size: int | None = None, skip: int = 0) -> list[Chunk]:
        """The chunks in order, after the first `skip` games (played by an interrupted run)."""
        size = size or chunk_size(self.games, len(self.configurations), workers)
        chunks = []
        for k in range(skip // self.games, len(self.configurations)):
            first = self.seed + max(0, skip - k * self.games)
            chunks += [Chunk(k, s, min(size, self.seed + self.games - s))
                       for s in range(first, self.seed + self.games, size)]
        return chunks

    def is_rate(self, name: str) -> bool:
        """Whether a figure is a rate (a win rate, a true/false measure)."""
        return name.startswith("win_rate.") or self.measures.get(name.removeprefix("measure."), False)

    def varying(self, configuration: Configuration) -> str:
        """A configuration in a few words: what sets it apart in this sweep."""
        entries = {c.entry for c in self.configurations}
        roles = [r for r in self.roles if len({c.agents.get(r) for c in self.configurations}) > 1]
        return describe(configuration.entry if len(entries) > 1 else "", configuration.params,
                        {r: configuration.agents.get(r) for r in roles}).strip() or configuration.entry

    def tally(self, configuration: Configuration) -> Tally:
        setup = configuration.setup
        return Tally.for_mode(setup.ruleset, setup.ruleset.modes[setup.mode], self.games, self.seed,
                              configuration.agents)


def plan(rulesets: list[tuple[str, ir.Ruleset]], grid: dict[str, list[str]], agents: dict[str, list[str]],
         games: int, seed: int = 0, mode: str | None = None, step_limit: int = DEFAULT_STEP_LIMIT,
         check_invariants: bool = False, timeout: float | None = None, explicit_chance: bool = False,
         cached: bool = False) -> Sweep:
    """Every configuration, in order: ruleset, then grid values, then agents.
    A grid parameter applies to the rulesets that declare it; a RulesetError
    names a value a parameter cannot take. `cached`: each configuration's game compiled through the
    cache of compiled modes (a command's sweep; engine/compiled_cache.py)."""
    declared = {name: p for _, rs in reversed(rulesets) for name, p in rs.params.items()}
    for name in grid:
        if name not in declared:
            raise SweepError(f"--grid: no ruleset of the sweep has a parameter '{name}'; "
                             + (did_you_mean(name, declared) or "parameters: " + (", ".join(declared) or "none")))
    if "players" in grid and any(rs.players is not None for _, rs in rulesets):
        raise SweepError("--grid players: the number of players makes the roles, so it is set as a ruleset is "
                         "read, not swept; name the ruleset once for each count instead, e.g. "
                         "RULESET:players=3 RULESET:players=4")
    roles, measures, scored, configurations = {}, {}, {}, []
    for entry, ruleset in rulesets:
        name = mode or ruleset.default_mode
        if name not in ruleset.modes:
            raise SweepError(f"{entry} has no mode '{name}'; "
                             + (did_you_mean(name, ruleset.modes) or "modes: " + ", ".join(ruleset.modes)))
        the_mode = ruleset.modes[name]
        for role in agents:
            if role not in the_mode.roles:
                raise SweepError(f"--agent: no role '{role}' in mode {name} of {entry}; "
                                 + (did_you_mean(role, the_mode.roles) or "roles: " + ", ".join(the_mode.roles)))
        roles |= dict.fromkeys(the_mode.roles)
        measures |= measure_kinds(the_mode)
        scored |= dict.fromkeys(the_mode.score)
        swept = [p for p in grid if p in ruleset.params]
        for values in itertools.product(*(grid[p] for p in swept)):
            configured = apply_params(ruleset, dict(zip(swept, values)))
            for kinds in itertools.product(*(agents.get(r, ["random"]) for r in the_mode.roles)):
                chosen = dict(zip(the_mode.roles, kinds))
                params = {p: configured.param_values[p] for p in swept}
                index = len(configurations)
                label = f"configuration {index} ({describe(entry, params, chosen)})"
                setup = Setup(configured, name, tuple(chosen.items()), label, step_limit,
                              check_invariants=check_invariants, timeout=timeout, plugins=tuple(PLUGINS),
                              explicit_chance=explicit_chance, cached=cached)
                configurations.append(Configuration(index, entry, params, chosen, setup))
    types = param_types(rs for _, rs in rulesets)
    return Sweep(configurations, grid, list(roles), measures, list(scored), types, games, seed)


def describe(entry: str, params: dict, agents: dict) -> str:
    return " ".join([entry, *(f"{p}={_text(v)}" for p, v in params.items()),
                     *(f"{r}={k}" for r, k in agents.items())])


def _text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# ------------------------------------------------------------------ running


@dataclass
class Point:
    """One configuration's result: each figure as (value, low, high), a 95%
    interval (None where no game gave it), and the games an agent failed."""
    configuration: Configuration
    figures: dict
    errors: int
    met: bool = True
    distance: float = 0.0

    @classmethod
    def of(cls, configuration: Configuration, tally: Tally, target: Target | None) -> "Point":
        data, figures = tally.to_json(), {}
        finished = tally.games - len(tally.errors)
        for role, w in data["win_rate"].items():
            figures[f"win_rate.{role}"] = (w["rate"], *w["ci95"]) if finished else None
        for role, d in data["score"].items():
            figures[f"score.{role}"] = _mean(d)
        figures["rounds"], figures["decisions"] = _mean(data["rounds"]), _mean(data["decisions"])
        for name, m in data["measures"].items():
            figures[f"measure.{name}"] = _mean(m) if "rate" not in m else \
                None if m["rate"] is None else (m["rate"], *m["ci95"])
        point = cls(configuration, figures, len(tally.errors))
        if target is not None:
            point.met, point.distance = target.distance({n: v[0] for n, v in figures.items() if v is not None})
        return point


def _mean(d: dict):
    return None if d.get("mean") is None else (d["mean"], *d["ci95"])


def run(sweep: Sweep, backend, target: Target | None = None, on_game: Callable | None = None,
        done: list[dict] = (), size: int | None = None) -> list[Point]:
    """Play the sweep; `on_game(configuration, seed, outcome)` sees each game in
    order. `done`: the outcomes of its first games, played before (a resumed
    run), counted and not played again."""
    setups = [c.setup for c in sweep.configurations]
    points, tallies = [], {}

    def count(configuration: Configuration, outcome: dict) -> None:
        tally = tallies.get(configuration.index)
        if tally is None:
            tally = tallies[configuration.index] = sweep.tally(configuration)
        tally.add(outcome)
        if len(tally.rounds) == sweep.games:  # its last game: keep the figures only
            points.append(Point.of(configuration, tallies.pop(configuration.index), target))

    for i, outcome in enumerate(done):
        count(sweep.configurations[i // sweep.games], outcome)
    chunks = sweep.chunks(backend.workers, size, skip=len(done))
    with closing(backend.run(setups, chunks)) as results:  # closing stops the workers now, not when collected
        for chunk, chunk_results in results:
            configuration = sweep.configurations[chunk.config]
            for seed, outcome in zip(chunk.seeds, chunk_results):
                if isinstance(outcome, Failure):
                    raise outcome.error(configuration.setup.label)
                count(configuration, outcome)
                if on_game is not None:
                    on_game(configuration, seed, outcome)
    return points


def ranked(points: list[Point]) -> list[Point]:
    """Those meeting the target first (in sweep order), then the nearest misses."""
    return sorted(points, key=lambda p: (not p.met, p.distance, p.configuration.index))


# ------------------------------------------------------------------ reports


def sweep_json(sweep: Sweep, points: list[Point], target: Target | None) -> dict:
    return {
        "games": sweep.games, "seed": sweep.seed, "configurations": len(points),
        "grid": sweep.grid, "target": target.text if target else None,
        "results": [{"config": p.configuration.index, "ruleset": p.configuration.entry,
                     "params": p.configuration.params, "agents": p.configuration.agents,
                     "errors": p.errors,
                     "figures": {n: None if v is None else {"value": v[0], "ci95": [v[1], v[2]]}
                                 for n, v in p.figures.items()},
                     **({"target": {"met": p.met, "distance": p.distance}} if target else {})}
                    for p in (ranked(points) if target else points)],
    }


def format_sweep(sweep: Sweep, points: list[Point], target: Target | None) -> str:
    configurations = sweep.configurations
    entries = list(dict.fromkeys(c.entry for c in configurations))
    varied = [r for r in sweep.roles if len({c.agents.get(r) for c in configurations}) > 1]
    fixed = [f"{r}={configurations[0].agents.get(r)}" for r in sweep.roles if r not in varied]
    lines = [f"{len(configurations)} configurations × {sweep.games} games, the same seeds for each "
             f"({sweep.seed}..{sweep.seed + sweep.games - 1})" + (f"; agents: {', '.join(fixed)}" if fixed else "")]
    if target:
        met = sum(p.met for p in points)
        lines.append(f"target: {target.text} — met by {met} of {len(points)} configuration(s)"
                     + ("; the nearest first" if not met else "; those first, then the nearest"))
    names = sweep.figure_names()
    header = ["#"] + (["ruleset"] if len(entries) > 1 else []) + list(sweep.grid) + [f"agent {r}" for r in varied] \
        + names + (["errors"] if any(p.errors for p in points) else []) + (["target"] if target else [])
    table = [header]
    for p in ranked(points) if target else points:
        c = p.configuration
        cells = [str(c.index)] + ([c.entry] if len(entries) > 1 else [])
        cells += ["—" if p_ not in c.params else _text(c.params[p_]) for p_ in sweep.grid]
        cells += [c.agents.get(r, "—") for r in varied]
        cells += [_figure(n, p.figures.get(n)) for n in names]
        cells += [str(p.errors)] if "errors" in header else []
        cells += [("met" if p.met else "off by " + ("—" if math.isinf(p.distance) else f"{p.distance:.3g}"))
                  ] if target else []
        table.append(cells)
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    lines.append("")
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table]
    lines.append("")
    lines.append("win rates with 95% intervals; the other figures are means (rates of true/false measures); "
                 "--json gives every interval")
    return "\n".join(lines)


def _figure(name: str, value) -> str:
    if value is None:
        return "—"
    if name.startswith("win_rate."):  # the other rates are fractions, as a target compares them
        return f"{value[0]:.1%} [{value[1]:.1%}, {value[2]:.1%}]"
    return f"{value[0]:.2f}"
