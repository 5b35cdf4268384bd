"""`rulelang simulate` and `rulelang compare`: many games, and what they add up to."""
from __future__ import annotations

import json
import re
import sys
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

from interpreter.analysis.backends import BackendError
from interpreter.analysis.simulate import available_cores, outcomes, simulate
from interpreter.analysis.tally import format_tally
from rulelang import parse_assignments, version
from rulelang.collector import collector_paused

from .common import (
    MOST_GAMES,
    MOST_JOBS,
    UsageError,
    agent_kinds,
    build_game,
    game_args,
    load,
    refuse_inputs,
    ruleset_args,
    scenario,
    whole,
)
from .main import settled
from .progress import Progress, wanted

if TYPE_CHECKING:  # (rows, comparisons and plots: their modules imported by the runs that make them)
    from interpreter.analysis.records import ParquetRows, RowWriter


def simulate_arguments(p) -> None:
    ruleset_args(p)
    game_args(p)
    _many_games(p)
    p.set_defaults(command=cmd_simulate)


def compare_arguments(p) -> None:
    p.description = "Each RULESET may carry its own parameters: twenty-trials:action_modifiers=true,trial_modifiers=true"
    ruleset_args(p, many=True)
    game_args(p)
    _many_games(p)
    p.set_defaults(command=cmd_compare)


ARGUMENTS = {"simulate": simulate_arguments, "compare": compare_arguments}


def _many_games(p) -> None:
    p.add_argument("--games", type=whole(1, MOST_GAMES), required=True, metavar="N",
                   help="how many games (of each ruleset)")
    p.add_argument("--jobs", type=whole(1, MOST_JOBS), default=available_cores(), metavar="N",
                   help=f"worker processes (default: every core, here {available_cores()}); "
                        "the results do not depend on it")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", metavar="FILE",
                   help="write one row per game: FILE.csv, FILE.jsonl, FILE.json or FILE.parquet (needs pyarrow)")
    p.add_argument("--resume", action="store_true",
                   help="continue the --out FILE an interrupted run left (the same command, plus --resume)")
    p.add_argument("--plot", metavar="FILE", help="draw the distributions: FILE.png or FILE.svg (needs matplotlib)")


def check_args(args) -> None:
    """Before any game is played (simulate, compare and sweep): the seed,
    that --resume has a file to continue, and that the plot can be drawn."""
    args.seed = args.seed or 0
    if args.resume and not args.out:
        raise UsageError("--resume continues the file of --out; name it")
    if args.resume:
        from interpreter.analysis.resume import saved
        if not saved(args.out):
            raise UsageError(f"--resume: there is no {args.out} to continue")
    if args.plot:
        from interpreter.analysis.plots import PlotError, check_plot_path
        try:
            check_plot_path(args.plot)
        except PlotError as exc:
            raise UsageError(str(exc)) from None


def rows_writer(stack: ExitStack, path: str | None, fields: dict[str, type],
                run: str = "", runs: list[dict] = ()) -> RowWriter | ParquetRows | None:
    """The writer of --out, its file locked (started later: a resumed run reads it first);
    `runs` (each a row's provenance) go into a Parquet file's metadata."""
    if not path:
        return None
    from interpreter.analysis.records import open_rows
    try:
        writer = open_rows(path, fields, run, {"version": version(), "runs": list(runs)})
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    stack.callback(writer.close)
    return writer


def save_plot(draw, path: str) -> None:
    from interpreter.analysis.plots import PlotError
    try:
        draw()
    except PlotError as exc:
        raise UsageError(str(exc)) from None
    print(f"plot: {path}", file=sys.stderr)


@contextmanager
def rows_kept(path: str | None):
    """A run that stops because a worker died says where its rows are, and how to go on."""
    try:
        yield
    except BackendError as exc:
        if path:
            raise BackendError(f"{exc}. The games before are in {path}; once the cause is gone, the same "
                               "command with --resume plays on from there") from None
        raise


def _playable(ruleset, args):
    game = build_game(ruleset, args)
    kinds = agent_kinds(game, args.agent)
    if "human" in kinds.values():
        raise UsageError("a simulation has no person in it; use `rulelang play`")
    return game, kinds


def cmd_simulate(args) -> int:
    check_args(args)
    if args.scenario and args.resume:
        raise UsageError("--resume continues the rows of --out; play the scenario's games again without it")
    with collector_paused():  # the ruleset and its game, kept for every game
        found = scenario(args)
        ruleset = load(args)
        refuse_inputs({"--out": args.out, "--plot": args.plot}, ruleset, args)
        game, kinds = _playable(ruleset, args)
    settled()
    if found is not None:
        found.placed(game)  # its problems, located, before any game
    with ExitStack() as stack:
        writer, row_of, done = _rows(stack, args, ruleset, game, kinds) if args.out else (None, None, [])
        progress = Progress(args.games - len(done)) if wanted(args.json) else None
        if progress:
            stack.callback(progress.close)

        def on_game(seed: int, outcome: dict) -> None:
            if writer:
                writer.write(row_of(seed, outcome))
            if progress:
                progress.step()

        with rows_kept(args.out):
            summary = simulate(game, args.games, args.seed, kinds, args.jobs, on_game, args.decision_timeout, done,
                               found)
        if writer:
            writer.finish()
    print(json.dumps(summary.to_json()) if args.json else format_tally(summary))
    if args.plot and summary.completed:
        from interpreter.analysis.plots import plot_tally
        save_plot(lambda: plot_tally(summary, ruleset.title, args.plot), args.plot)
    return _every_game_failed(summary)


def _rows(stack: ExitStack, args, ruleset, game, kinds):
    """--out's writer, started (after what an interrupted run left in it, with --resume), what makes a
    game's row, and the outcomes of the rows already there. Only a run with rows imports their module
    and asks for rulelang's version (importlib.metadata, 30 ms)."""
    from interpreter.analysis.records import (
        columns,
        measure_kinds,
        param_types,
        provenance,
        provenance_fields,
        recorded,
        row,
        run_name,
    )
    lead = provenance(args.ruleset, ruleset, game.mode.name, kinds)
    fields = columns(game.roles, measure_kinds(game.mode), provenance_fields(param_types([ruleset]), game.roles))
    run = run_name(ruleset.source_hash, game.mode.name, dict(ruleset.param_values), kinds)
    writer = rows_writer(stack, args.out, fields, run, [lead])
    rows = _resumed(game, kinds, args, fields, run, lead) if args.resume else []
    writer.start(rows)
    done = [recorded(values, args.out, game.roles, game.mode.score, measure_kinds(game.mode)) for values in rows]
    return writer, lambda seed, outcome: row(seed, outcome, lead), done


def _every_game_failed(summary, label: str | None = None) -> int:
    """The exit code: 1 when no game finished (an agent failed every one), so a script notices."""
    if summary.completed:
        return 0
    print(f"rulelang: no game {f'of {label} ' if label else ''}finished: an agent failed every one of the "
          f"{summary.games:,} games (first, seed {summary.errors[0][0]}: {summary.errors[0][1]})", file=sys.stderr)
    return 1


def _resumed(game, kinds, args, fields, run: str, lead: dict) -> list[dict]:
    """The rows an interrupted run of this very command left in --out, checked (resume.resumed)."""
    from interpreter.analysis.records import row
    from interpreter.analysis.resume import resumed

    def again(values: dict) -> dict:
        seed = int(values["seed"])
        (outcome,) = outcomes(game, kinds, seed, 1, 1, args.decision_timeout)
        return row(seed, outcome, lead)
    return resumed(args.out, fields, ["seed"], ((s,) for s in range(args.seed, args.seed + args.games)), again,
                   args.games, run)


def split_entry(text: str) -> tuple[str, dict[str, str]]:
    """`RULESET:P=V,P=V` -> (RULESET, {P: V}); a plain RULESET has no parameters of its own."""
    ref, sep, tail = text.rpartition(":")
    if sep and ref and re.fullmatch(r"\w+=[^,]*(,\w+=[^,]*)*", tail):
        return ref, parse_assignments(tail.split(","))
    return text, {}


def cmd_compare(args) -> int:
    from interpreter.analysis.compare import compare, comparison_json, format_comparison
    from interpreter.analysis.records import columns, measure_kinds, param_types, provenance, provenance_fields, row

    if args.scenario:
        raise UsageError("--scenario is for run, play and simulate: a scenario is written for one ruleset")
    if args.resume:
        raise UsageError("--resume continues a simulate run; compare plays every ruleset again")
    check_args(args)
    if len(args.ruleset) < 2:
        raise UsageError("compare needs at least two rulesets (or one with two sets of parameters)")
    common = parse_assignments(args.set)
    plays = []
    with collector_paused():  # the rulesets and their games, kept for every game
        for entry in args.ruleset:
            ref, own = split_entry(entry)
            ruleset = load(args, ref, common | own)
            refuse_inputs({"--out": args.out, "--plot": args.plot}, ruleset, args)
            plays.append((entry, *_playable(ruleset, args)))
    settled()
    roles = dict.fromkeys(r for _, g, _ in plays for r in g.roles)
    fields = columns(roles, {m: b for _, g, _ in plays for m, b in measure_kinds(g.mode).items()},
                     provenance_fields(param_types(g.ruleset for _, g, _ in plays), roles))
    leads = [provenance(label, game.ruleset, game.mode.name, kinds) for label, game, kinds in plays]
    summaries = []
    with ExitStack() as stack:
        writer = rows_writer(stack, args.out, fields, runs=leads)
        if writer:
            writer.start()
        progress = Progress(args.games * len(plays)) if wanted(args.json) else None
        if progress:
            stack.callback(progress.close)
        for (label, game, kinds), lead in zip(plays, leads):
            def on_game(seed: int, outcome: dict, lead=lead) -> None:
                if writer:
                    writer.write(row(seed, outcome, lead))
                if progress:
                    progress.step()

            summaries.append(simulate(game, args.games, args.seed, kinds, args.jobs, on_game, args.decision_timeout))
        if writer:
            writer.finish()
    labels = [label for label, _, _ in plays]
    metrics = compare(summaries)
    print(json.dumps(comparison_json(labels, summaries, metrics)) if args.json
          else format_comparison(labels, summaries, metrics))
    if args.plot:
        from interpreter.analysis.plots import plot_comparison
        save_plot(lambda: plot_comparison(labels, metrics, args.plot), args.plot)
    return max(_every_game_failed(summary, label) for label, summary in zip(labels, summaries))
