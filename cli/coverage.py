"""`rulelang coverage`: which rules the games never ran, and how often the others did."""
from __future__ import annotations

import json
import sys

from interpreter.analysis.coverage import measure
from interpreter.analysis.coverage_report import as_json, page, text
from interpreter.analysis.simulate import available_cores

from .common import MOST_GAMES, MOST_JOBS, UsageError, agent_kinds, build_game, game_args, load, refuse_inputs, \
    ruleset_args, whole


def coverage_arguments(p) -> None:
    p.description = ("Every step, branch, loop, decision, procedure, ability, watch and ending that the games "
                     "never ran, located, then how often each ran. The rules are counted in a copy of their own: "
                     "`run` and `simulate` pay nothing for it.")
    ruleset_args(p)
    game_args(p)
    p.add_argument("--games", type=whole(1, MOST_GAMES), default=20, metavar="N", help="how many games (default 20)")
    p.add_argument("--jobs", type=whole(1, MOST_JOBS), default=1, metavar="N",
                   help=f"worker processes (this machine has {available_cores()} cores); the counts do not depend "
                        "on it")
    p.add_argument("--html", metavar="FILE", help="also write the report as an HTML page")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--unreached", action="store_true", help="print only what never ran")
    p.set_defaults(command=cmd_coverage)


ARGUMENTS = {"coverage": coverage_arguments}


def cmd_coverage(args) -> int:
    ruleset = load(args)
    refuse_inputs({"--html": args.html}, ruleset, args)
    game = build_game(ruleset, args)  # the mode, the agents and every option checked as `simulate` checks them
    kinds = agent_kinds(game, args.agent)
    if "human" in kinds.values():
        raise UsageError("coverage plays without a person; use `rulelang play`")
    cov = measure(ruleset, game.mode.name, args.games, args.seed or 0, kinds, args.jobs, args.step_limit,
                  args.decision_timeout)
    if args.html:
        try:
            with open(args.html, "w", encoding="utf-8") as f:
                f.write(page(cov))
        except OSError as exc:
            raise UsageError(f"cannot write {args.html}: {exc.strerror}") from None
        print(f"html: {args.html}", file=sys.stderr)
    if args.json:
        print(json.dumps(as_json(cov)))
    else:
        print(text(cov, all_places=not args.unreached), end="")
    return 0
