"""`rulelang solve`: is a solitaire deal winnable with perfect play?

Exit code 0 with the answer (winnable or not); 1 when the search stopped at
one of its bounds (positions, memory) before it knew: the answer is unknown.
"""
from __future__ import annotations

import json
import sys

from interpreter.analysis.solver import DEFAULT_BYTES, DEFAULT_POSITIONS, OtherRoleDecides, Progress, solve

from .common import MOST_STEPS, UsageError, build_game, load, name, ruleset_args, seed, whole
from .progress import wanted

MOST_MEGABYTES = 1 << 20  # a tebibyte: a bound, not a hope


def solve_arguments(p) -> None:
    ruleset_args(p)
    p.add_argument("--mode", type=name,
                   help="the mode (default: the ruleset's first); one role must make every decision")
    p.add_argument("--seed", type=seed, default=0, help="the deal (default 0)")
    p.add_argument("--max-positions", type=whole(1, MOST_STEPS), default=DEFAULT_POSITIONS, metavar="N",
                   help=f"give up after searching N positions (default {DEFAULT_POSITIONS:,})")
    p.add_argument("--max-memory", type=whole(1, MOST_MEGABYTES), default=DEFAULT_BYTES >> 20, metavar="MB",
                   help=f"give up once the search holds MB megabytes (default {DEFAULT_BYTES >> 20:,})")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(command=run)


ARGUMENTS = {"solve": solve_arguments}


def run(args) -> int:
    game = build_game(load(args), args)
    show = _Line() if wanted(args.json) else None
    try:
        result = solve(game, args.seed, max_positions=args.max_positions, max_bytes=args.max_memory << 20,
                       progress=show)
    except OtherRoleDecides as exc:
        raise UsageError(f"mode {game.mode.name}: {exc}") from None
    finally:
        if show:
            show.close()
    verdict = {True: "winnable", False: "not winnable", None: "unknown"}[result.winnable]
    why = {"positions": f"it searched {args.max_positions:,} positions (--max-positions) without an answer",
           "memory": f"it would hold more than {args.max_memory:,} MB (--max-memory) to search on"}.get(result.stopped)
    if args.json:
        print(json.dumps({"mode": game.mode.name, "seed": args.seed, "winnable": result.winnable,
                          "line": result.line, "positions": result.positions, "stopped": result.stopped,
                          "megabytes": round(result.held / 2**20, 1)}))
    else:
        print(f"{game.ruleset.title} — {game.mode.title}, seed {args.seed}: {verdict} "
              f"({result.positions:,} positions searched)")
        for step in result.line:
            print("  " + step)
    if why:
        print(f"rulelang: the search stopped: {why}; raise the bound to search further", file=sys.stderr)
        return 1
    return 0


class _Line:
    """The search as it goes, on one line of the terminal."""

    def __init__(self):
        self.stream = getattr(sys.stderr, "raw", sys.stderr)  # its \r is ours: not escaped (output.py)
        self.width = 0

    def __call__(self, p: Progress) -> None:
        text = (f"searching: {p.positions:,} positions, {p.depth:,} decisions deep, "
                f"{p.held / 2**20:,.0f} MB held, {p.seconds:,.0f} s")
        self.width = max(self.width, len(text))
        self.stream.write("\r" + text.ljust(self.width))
        self.stream.flush()

    def close(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
