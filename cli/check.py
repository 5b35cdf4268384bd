"""`rulelang check`: load, check and compile rulesets, and summarise them.

Compiling finds what only the code generator can (Python's own bounds), so
`check` compiles modes — but only the compilations that can differ, so its
cost follows the text of the ruleset, not what the text multiplies:

* A ruleset with a number of players (`players: 2..4`) is read at the
  fewest and at the most players. Names that exist only from some count on
  (a mode's `roles: [player_4]`) are found at the fewest; the rules grow with
  the count (a loop over the players, a zone each player has), so Python's
  bounds are met first at the most. A count in between is read and compiled
  when a game is played at it (`--set players=N`), as any count is.
* Modes with the same rules (YAML aliases of one mode, copies under other
  names and titles) compile to the same program: each is compiled once.

`compiled` is the one place `check` compiles a mode: a cache of compiled
modes (on disk, keyed by the ruleset's hash, its parameters and the mode)
goes there.
"""
from __future__ import annotations

import dataclasses
import sys

from interpreter.engine.game import Game
from rulelang import RulesetError, ir, lint, parse_assignments

from .common import load, ruleset_args


def add_parser(sub) -> None:
    p = sub.add_parser("check", help="check rulesets and summarise them")
    ruleset_args(p, many=True)
    p.set_defaults(command=cmd_check)


def cmd_check(args) -> int:
    params = parse_assignments(args.set)
    failed = 0
    for ref in args.ruleset:
        try:
            rs, counts = checked(args, ref, params)
        except RulesetError as exc:
            print(exc.format(), file=sys.stderr)
            failed += 1
            continue
        for warning in lint.warnings(rs):
            print(warning.format(), file=sys.stderr)
        print(f"{ref}: ok — {summary(rs, counts)}")
    return 2 if failed else 0


def checked(args, ref: str, params: dict) -> tuple[ir.Ruleset, list[int | None]]:
    """The ruleset as the command line sets it (RulesetError if it, or any
    compilation that can differ, fails), and the player counts it was read at."""
    rs = load(args, ref, params)
    counts = [rs.param_values.get("players")]
    if rs.players is not None and "players" not in params:
        counts = sorted({rs.players.low, rs.players.high})
    done: set = set()
    for n in counts:
        seated = rs if n == rs.param_values.get("players") else load(args, ref, {**params, "players": str(n)})
        for mode in seated.modes.values():
            key = (n, rules_of(mode))
            if key not in done:
                done.add(key)
                compiled(seated, mode.name)
    return rs, counts


def rules_of(mode: ir.Mode) -> ir.Mode:
    """What a mode compiles from: the mode without its name and what it says to people."""
    return dataclasses.replace(mode, name="", title="", text=None, assumed=None, quick=())


def compiled(ruleset: ir.Ruleset, mode: str) -> Game:
    return Game(ruleset, mode)


def summary(rs: ir.Ruleset, counts: list) -> str:
    who = f"players: {rs.players.low}..{rs.players.high}" if rs.players is not None and len(counts) > 1 \
        else f"roles: {', '.join(r.name for r in rs.roles)}"
    return (f"{rs.title}; modes: {', '.join(rs.modes)}; {who}; {len(rs.cards)} components of "
            f"{len(rs.card_types)} types; {len(rs.zones)} zones; {len(rs.params)} parameters; "
            f"{len(rs.rulings)} rulings")
