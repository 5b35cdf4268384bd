"""`rulelang solve`: is a solitaire deal winnable with perfect play?"""
from __future__ import annotations

import json

from interpreter.analysis.solver import OtherRoleDecides, solve


def add_parser(sub, ruleset_args, make_game, usage_error) -> None:
    """`make_game(args)` builds the game from the parsed arguments (cli/main.py)."""
    p = sub.add_parser("solve", help="tell whether a solitaire deal is winnable, and how")
    ruleset_args(p)
    p.add_argument("--mode", help="the mode (default: the ruleset's first); one role must make every decision")
    p.add_argument("--seed", type=int, default=0, help="the deal (default 0)")
    p.add_argument("--max-positions", type=int, default=2_000_000, metavar="N",
                   help="give up after searching N positions (default 2,000,000)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(command=lambda args: run(args, make_game, usage_error))


def run(args, make_game, usage_error) -> int:
    if args.max_positions < 1:
        raise usage_error("--max-positions must be at least 1")
    game = make_game(args)
    try:
        result = solve(game, args.seed, max_positions=args.max_positions)
    except OtherRoleDecides as exc:
        raise usage_error(f"mode {game.mode.name}: {exc}") from None
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
