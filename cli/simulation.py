"""`rulelang simulate` and `rulelang compare`: many games, and what they add up to."""
from __future__ import annotations

import json
import re
import sys
from contextlib import ExitStack, contextmanager

from interpreter.analysis.compare import compare, comparison_json, format_comparison
from interpreter.analysis.plots import PlotError, check_plot_path, plot_comparison, plot_tally
from interpreter.analysis.backends import BackendError
from interpreter.analysis.records import columns, measure_kinds, open_rows, outcome_of, resumed, row, saved
from interpreter.analysis.simulate import available_cores, outcomes, simulate
from interpreter.analysis.tally import format_tally
from rulelang import load_ruleset, parse_assignments

from .common import UsageError, agent_kinds, build_game, limits
from .progress import Progress, wanted


def add_commands(sub, ruleset_args, game_args) -> None:
    p = sub.add_parser("simulate", help="play many games and summarise the outcomes")
    ruleset_args(p)
    game_args(p)
    _many_games(p)
    p.set_defaults(command=cmd_simulate)

    p = sub.add_parser("compare", help="play the same seeds under several rulesets and compare them",
                       description="Each RULESET may carry its own parameters: "
                                   "twenty-trials:action_modifiers=true,trial_modifiers=true")
    ruleset_args(p, many=True)
    game_args(p)
    _many_games(p)
    p.set_defaults(command=cmd_compare)


def _many_games(p) -> None:
    p.add_argument("--games", type=int, required=True, metavar="N", help="how many games (of each ruleset)")
    p.add_argument("--jobs", type=int, default=available_cores(), metavar="N",
                   help=f"worker processes (default: every core, here {available_cores()}); "
                        "the results do not depend on it")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--out", metavar="FILE",
                   help="write one row per game: FILE.csv, FILE.jsonl, FILE.json or FILE.parquet (needs pyarrow)")
    p.add_argument("--resume", action="store_true",
                   help="continue the --out FILE an interrupted run left (the same command, plus --resume)")
    p.add_argument("--plot", metavar="FILE", help="draw the distributions: FILE.png or FILE.svg (needs matplotlib)")


def check_args(args, counts=("games", "jobs")) -> None:
    """Before any game is played: the numbers that must be at least 1, and that the plot can be drawn."""
    for name in counts:
        if getattr(args, name) is not None and getattr(args, name) < 1:
            raise UsageError(f"--{name} must be at least 1")
    if args.plot:
        try:
            check_plot_path(args.plot)
        except PlotError as exc:
            raise UsageError(str(exc)) from None


def rows_writer(stack: ExitStack, path: str | None, fields: dict[str, type], rows: list[dict] = ()):
    if not path:
        return None
    try:
        writer = open_rows(path, fields, rows)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    stack.callback(writer.close)
    return writer


def save_plot(draw, path: str) -> None:
    try:
        draw()
    except PlotError as exc:
        raise UsageError(str(exc)) from None
    print(f"plot: {path}", file=sys.stderr)


def _playable(ruleset, args):
    game = build_game(ruleset, args)
    kinds = agent_kinds(game, args.agent)
    if "human" in kinds.values():
        raise UsageError("a simulation has no person in it; use `rulelang play`")
    return game, kinds


def cmd_simulate(args) -> int:
    check_args(args)
    ruleset = load_ruleset(args.ruleset, parse_assignments(args.set), limits(args))
    game, kinds = _playable(ruleset, args)
    fields = columns(game.roles, measure_kinds(game.mode))
    rows = _resumed(game, kinds, args, fields) if args.resume else []
    with ExitStack() as stack:
        writer = rows_writer(stack, args.out, fields, rows)
        progress = Progress(args.games - len(rows)) if wanted(args.json) else None
        if progress:
            stack.callback(progress.close)

        def on_game(seed: int, outcome: dict) -> None:
            if writer:
                writer.write(row(seed, outcome))
            if progress:
                progress.step()

        done = [outcome_of(r, game.roles, game.mode.score, measure_kinds(game.mode)) for r in rows]
        with rows_kept(args.out):
            summary = simulate(game, args.games, args.seed, kinds, args.jobs, on_game, args.decision_timeout, done)
        if writer:
            writer.finish()
    print(json.dumps(summary.to_json()) if args.json else format_tally(summary))
    if args.plot:
        save_plot(lambda: plot_tally(summary, ruleset.title, args.plot), args.plot)
    return 0


def check_resume(args) -> None:
    if not args.out:
        raise UsageError("--resume continues the file of --out; name it")
    if not saved(args.out):
        raise UsageError(f"--resume: there is no {args.out} to continue")


def _resumed(game, kinds, args, fields) -> list[dict]:
    """The rows an interrupted run of this very command left in --out, checked (records.resumed)."""
    check_resume(args)

    def again(values: dict) -> dict:
        seed = int(values["seed"])
        (outcome,) = outcomes(game, kinds, seed, 1, 1, args.decision_timeout)
        return row(seed, outcome)
    return resumed(args.out, fields, ["seed"], ((s,) for s in range(args.seed, args.seed + args.games)), again)


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


def split_entry(text: str) -> tuple[str, dict[str, str]]:
    """`RULESET:P=V,P=V` -> (RULESET, {P: V}); a plain RULESET has no parameters of its own."""
    ref, sep, tail = text.rpartition(":")
    if sep and ref and re.fullmatch(r"\w+=[^,]*(,\w+=[^,]*)*", tail):
        return ref, parse_assignments(tail.split(","))
    return text, {}


def cmd_compare(args) -> int:
    check_args(args)
    if args.resume:
        raise UsageError("--resume continues a simulate run; compare plays every ruleset again")
    if len(args.ruleset) < 2:
        raise UsageError("compare needs at least two rulesets (or one with two sets of parameters)")
    common = parse_assignments(args.set)
    plays = []
    for entry in args.ruleset:
        ref, own = split_entry(entry)
        ruleset = load_ruleset(ref, common | own, limits(args))
        plays.append((entry, *_playable(ruleset, args)))
    fields = columns(dict.fromkeys(r for _, g, _ in plays for r in g.roles),
                     {m: b for _, g, _ in plays for m, b in measure_kinds(g.mode).items()}, lead={"ruleset": str})
    summaries = []
    with ExitStack() as stack:
        writer = rows_writer(stack, args.out, fields)
        progress = Progress(args.games * len(plays)) if wanted(args.json) else None
        if progress:
            stack.callback(progress.close)
        for label, game, kinds in plays:
            def on_game(seed: int, outcome: dict, label=label) -> None:
                if writer:
                    writer.write(row(seed, outcome, {"ruleset": label}))
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
        save_plot(lambda: plot_comparison(labels, metrics, args.plot), args.plot)
    return 0
