"""`rulelang sweep`: every combination of rulesets, parameter values and agents, on the same seeds."""
from __future__ import annotations

import json
import sys
from contextlib import ExitStack

from interpreter.agents.base import AgentSpecError
from interpreter.agents.registry import make_agent
from interpreter.analysis.backends import Dask, DaskMissing, InProcess, Processes
from interpreter.analysis.plots import plot_sweep
from interpreter.analysis.records import measure_kinds, recorded, row
from interpreter.analysis.resume import resumed
from interpreter.analysis.simulate import available_cores
from interpreter.analysis.sweep import SweepError, format_sweep, plan, run, sweep_json
from interpreter.analysis.target import TargetError, parse_target
from interpreter.analysis.work import Chunk, Failure, play_chunk
from rulelang import parse_assignments
from rulelang.collector import collector_paused

from .common import (
    MOST_GAMES,
    MOST_JOBS,
    UsageError,
    game_args,
    load,
    load_agents,
    refuse_inputs,
    ruleset_args,
    whole,
)
from .main import settled
from .progress import Progress, wanted
from .simulation import check_args, rows_kept, rows_writer, save_plot, split_entry

DESCRIPTION = """\
Play the same seeds under every configuration: each RULESET (a variant, or
one with parameters of its own: twenty-trials:action_modifiers=true), times
every combination of the --grid values of the parameters it declares, times
every combination of the agents given for each role. Prints one row per
configuration, ranked by --target when one is given."""


def sweep_arguments(p) -> None:
    p.description = DESCRIPTION
    ruleset_args(p, many=True)
    game_args(p, agent_lists=True)
    p.add_argument("--grid", action="append", default=[], metavar="PARAM=V1,V2,...",
                   help="the values of a parameter to sweep (repeatable: every combination is played)")
    p.add_argument("--games", type=whole(1, MOST_GAMES), required=True, metavar="N",
                   help="games of each configuration")
    p.add_argument("--target", metavar="EXPR",
                   help='rank the configurations by a condition, e.g. "0.25 <= win_rate.challenger <= 0.35"')
    p.add_argument("--out", metavar="FILE", help="one row per game: FILE.parquet (needs pyarrow), FILE.csv, "
                                                 "FILE.jsonl or FILE.json")
    p.add_argument("--resume", action="store_true",
                   help="continue the --out FILE an interrupted sweep left (the same command, plus --resume)")
    p.add_argument("--plot", metavar="FILE", help="draw each configuration's figures: FILE.png or FILE.svg")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--jobs", type=whole(1, MOST_JOBS), metavar="N",
                   help=f"worker processes on this machine (default: every core, here {available_cores()}); "
                        "the results do not depend on it")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--dask", choices=["local"],
                       help="play on a Dask LocalCluster of --jobs worker processes (needs the extra `dask`)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="play on the Dask cluster whose scheduler is at ADDRESS, e.g. tcp://host:8786 "
                            "(needs the extra `dask`)")
    p.add_argument("--chunk", type=whole(1, MOST_GAMES), metavar="GAMES",
                   help="games shipped to a worker at a time (default: about 8 chunks per worker, at most "
                        "a configuration's games); the results do not depend on it")
    p.set_defaults(command=cmd_sweep)


ARGUMENTS = {"sweep": sweep_arguments}


def cmd_sweep(args) -> int:
    check_args(args)
    if args.scheduler and args.jobs:
        raise UsageError("--jobs counts worker processes on this machine; a --scheduler's cluster has its own")
    load_agents(args)
    with collector_paused():  # the rulesets, kept for every game
        sweep = _plan(args)
    settled()
    try:
        target = parse_target(args.target, sweep.figure_names()) if args.target is not None else None
    except TargetError as exc:
        raise UsageError(str(exc)) from None
    fields, named = sweep.fields(), sweep.run_name()
    leads = {}

    with ExitStack() as stack:
        writer = rows_writer(stack, args.out, fields, named, [c.lead(sweep) for c in sweep.configurations])
        rows = _resumed(sweep, args, fields, named) if args.resume else []
        if writer:
            writer.start(rows)
        backend = _backend(args)
        stack.callback(backend.close)
        progress = Progress(sweep.total - len(rows)) if wanted(args.json) else None
        if progress:
            stack.callback(progress.close)

        def on_game(configuration, seed: int, outcome: dict) -> None:
            if writer:
                lead = leads.get(configuration.index) or leads.setdefault(configuration.index,
                                                                          configuration.lead(sweep))
                writer.write(row(seed, outcome, lead))
            if progress:
                progress.step()

        done = [_outcome(sweep, values, args.out) for values in rows]
        with rows_kept(args.out):
            points = run(sweep, backend, target, on_game, done, args.chunk)
        if writer:
            writer.finish()
    print(json.dumps(sweep_json(sweep, points, target)) if args.json else format_sweep(sweep, points, target))
    if args.plot:
        title = " · ".join(dict.fromkeys(c.entry for c in sweep.configurations))
        save_plot(lambda: plot_sweep(sweep, points, target, title, args.plot), args.plot)
    return _every_game_failed(sweep, points)


def _every_game_failed(sweep, points) -> int:
    """The exit code: 1 when a configuration has no game that finished (an
    agent failed every one), as simulate and compare say it of a ruleset."""
    failed = [p.configuration for p in points if p.errors == sweep.games]
    if not failed:
        return 0
    others = f" (and so did {len(failed) - 1} other configuration{'s' if len(failed) > 2 else ''})" \
        if len(failed) > 1 else ""
    print(f"rulelang: no game of {failed[0].setup.label} finished: an agent failed every one of its "
          f"{sweep.games:,} games{others}", file=sys.stderr)
    return 1


def _plan(args):
    common = parse_assignments(args.set)
    grid = {}
    for item in args.grid:
        name, sep, values = item.partition("=")
        name = name.strip()
        if not sep or not name or not values.strip():
            raise UsageError(f"--grid expects PARAM=V1,V2,..., not '{item}'")
        if name in grid:
            raise UsageError(f"--grid {name} is given twice; list all its values in one: --grid {name}=V1,V2")
        if name in common:
            raise UsageError(f"{name} is both swept (--grid) and set (--set); keep one")
        grid[name] = list(dict.fromkeys(v.strip() for v in values.split(",")))
    rulesets = []
    for entry in args.ruleset:
        ref, own = split_entry(entry)
        if set(own) & set(grid):
            raise UsageError(f"{entry} sets {', '.join(sorted(set(own) & set(grid)))}, which --grid sweeps")
        ruleset = load(args, ref, common | own)
        refuse_inputs({"--out": args.out, "--plot": args.plot}, ruleset, args)
        rulesets.append((entry, ruleset))
    try:
        return plan(rulesets, grid, agent_lists(args.agent), args.games, args.seed, args.mode, args.step_limit,
                    args.check_invariants, args.decision_timeout, cached=True)
    except SweepError as exc:
        raise UsageError(str(exc)) from None


def agent_lists(specs: list[str]) -> dict[str, list[str]]:
    """`challenger=random,greedy:samples=8,depth=1` -> {"challenger": ["random", "greedy:samples=8,depth=1"]}:
    a piece with `=` and no `:` is another option of the agent before it."""
    lists: dict[str, list[str]] = {}
    for spec in specs:
        role, sep, text = spec.partition("=")
        if not sep or not role or not text:
            raise UsageError(f"--agent expects ROLE=KIND[,KIND...], not '{spec}'")
        kinds: list[str] = []
        for piece in text.split(","):
            if "=" in piece and ":" not in piece and kinds:
                kinds[-1] += "," + piece
            else:
                kinds.append(piece)
        for kind in kinds:
            if kind == "human":
                raise UsageError("a sweep has no person in it; use `rulelang play`")
            try:
                make_agent(kind, 0, role)  # checks the kind and its options
            except AgentSpecError as exc:
                raise UsageError(f"--agent {role}: {exc}") from None
        lists[role] = list(dict.fromkeys(lists.get(role, []) + kinds))
    return lists


def _backend(args):
    try:
        if args.dask == "local":
            return Dask(workers=args.jobs or available_cores())
        if args.scheduler:
            return Dask(args.scheduler)
    except DaskMissing as exc:
        raise UsageError(str(exc)) from None
    jobs = args.jobs or available_cores()
    return InProcess() if jobs == 1 else Processes(jobs)


def _resumed(sweep, args, fields, named: str) -> list[dict]:
    """The rows an interrupted run of this very sweep left in --out, checked (resume.resumed)."""
    def again(values: dict) -> dict:
        configuration = sweep.configurations[int(values["config"])]
        seed = int(values["seed"])
        (outcome,) = play_chunk(configuration.setup, Chunk(configuration.index, seed, 1))
        if isinstance(outcome, Failure):
            raise outcome.error(configuration.setup.label)
        return row(seed, outcome, configuration.lead(sweep))
    order = ((c.index, s) for c in sweep.configurations for s in range(sweep.seed, sweep.seed + sweep.games))
    return resumed(args.out, fields, ["config", "seed"], order, again, sweep.total, named)


def _outcome(sweep, values: dict, path: str) -> dict:
    """The outcome a row of an interrupted sweep was written from (records.recorded)."""
    setup = sweep.configurations[int(values["config"])].setup
    mode = setup.ruleset.modes[setup.mode]
    return recorded(values, path, mode.roles, mode.score, measure_kinds(mode))

