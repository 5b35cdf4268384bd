"""`rulelang solve`: is a solitaire deal winnable with perfect play?"""
from __future__ import annotations

import json

from interpreter.analysis.solver import OtherRoleDecides, solve

from .common import MOST_STEPS, UsageError, build_game, load, name, ruleset_args, seed, whole


def add_parser(sub) -> None:
    p = sub.add_parser("solve", help="tell whether a solitaire deal is winnable, and how")
    ruleset_args(p)
    p.add_argument("--mode", type=name,
                   help="the mode (default: the ruleset's first); one role must make every decision")
    p.add_argument("--seed", type=seed, default=0, help="the deal (default 0)")
    p.add_argument("--max-positions", type=whole(1, MOST_STEPS), default=2_000_000, metavar="N",
                   help="give up after searching N positions (default 2,000,000)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(command=run)


def run(args) -> int:
    game = build_game(load(args), args)
    try:
        result = solve(game, args.seed, max_positions=args.max_positions)
    except OtherRoleDecides as exc:
        raise UsageError(f"mode {game.mode.name}: {exc}") from None
    verdict = {True: "winnable", False: "not winnable", None: "unknown"}[result.winnable]
    if args.json:
        print(json.dumps({"mode": game.mode.name, "seed": args.seed, "winnable": result.winnable,
                          "line": result.line, "positions": result.positions}))
        return 0
    print(f"{game.ruleset.title} — {game.mode.title}, seed {args.seed}: {verdict} "
          f"({result.positions:,} positions searched)")
    if result.winnable is None:
        print(f"gave up after {args.max_positions:,} positions; raise --max-positions to search further")
    for step in result.line:
        print("  " + step)
    return 0
