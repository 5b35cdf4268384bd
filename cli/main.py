"""The `rulelang` command: check, run, play, replay, simulate, compare, sweep and show rulesets, and print them.

Every mistake in a ruleset, a parameter or the command line ends in a located
message and exit code 2, never a Python traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import traceback

from interpreter.agents.registry import AGENTS, make_agent
from interpreter.agents.asking import AgentError
from interpreter.engine.game import DEFAULT_STEP_LIMIT, Game
from interpreter.runtime.errors import IllegalAction, RuleError
from interpreter.engine.invariants import InvariantBroken
from interpreter.engine.logs import GameLog, ReplayError, header, read_log, replay
from interpreter.agents.match import play
from interpreter.analysis.backends import BackendError
from interpreter.analysis.records import RowsError
from interpreter.engine.saves import SaveError, check_same_ruleset, load as load_save, save as save_state
from interpreter.analysis.tally import outcome_label
from interpreter.agents.terminal import HumanAgent, Quit, render_board
from interpreter.engine.view import Viewer

from rulelang import RulesetError, load_ruleset, parse_assignments

from . import printing, show, simulation, solve, sweep
from .common import UsageError, agent_kinds, build_game, limits


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.command(args)
    except RulesetError as exc:
        print(exc.format(), file=sys.stderr)
        return 2
    except RuleError as exc:
        print(exc.diagnostic.format(), file=sys.stderr)
        print("the rules failed while running: this is a mistake in the ruleset", file=sys.stderr)
        return 2
    except UsageError as exc:
        print(f"rulelang: error: {exc}", file=sys.stderr)
        return 2
    except (ReplayError, SaveError, IllegalAction, AgentError, RowsError, BackendError) as exc:
        print(f"rulelang: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception:  # a bug in rulelang itself, not the user's input
        if os.environ.get("RULELANG_DEBUG"):
            traceback.print_exc()
        else:
            print(f"rulelang: internal error ({sys.exc_info()[1]!r}); this is a bug in rulelang. "
                  "Run with RULELANG_DEBUG=1 for the details.", file=sys.stderr)
        return 3


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulelang", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    def ruleset_args(p, many=False):
        p.add_argument("ruleset", nargs="+" if many else None, metavar="RULESET",
                       help="a ruleset file, or the name of a bundled ruleset (e.g. twenty-trials)")
        p.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                       help="set a parameter of the ruleset (repeatable)")
        p.add_argument("--limit", action="append", default=[], metavar="NAME=N",
                       help="raise a limit of what a ruleset may ask (e.g. components=50000; "
                            "see docs/reliability.md)")

    def game_args(p, sweep=False):
        p.add_argument("--mode", help="the mode to play (default: the ruleset's first)")
        p.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
        p.add_argument("--agent", action="append", default=[],
                       metavar="ROLE=KIND[,KIND...]" if sweep else "ROLE=KIND[:OPT=V,...]",
                       help=f"the agents to sweep for a role, of {', '.join(AGENTS)}, e.g. "
                            "challenger=random,greedy:samples=2 (default random; repeatable)" if sweep else
                            f"who plays a role: {', '.join(AGENTS)}, with options such as "
                            "mcts:iterations=200 (default random; repeatable)")
        p.add_argument("--agents-from", action="append", default=[], metavar="FILE.py",
                       help="a Python file that registers agents of its own (interpreter.agents.register; "
                            "repeatable)")
        p.add_argument("--step-limit", type=int, default=DEFAULT_STEP_LIMIT,
                       help=f"stop a game whose rules run more steps than this (default {DEFAULT_STEP_LIMIT})")
        p.add_argument("--decision-timeout", type=float, metavar="SECONDS",
                       help="the time an agent has for each decision (default: no limit)")
        p.add_argument("--check-invariants", action="store_true",
                       help="check after every effect that each component is in exactly one zone (slower)")

    p = sub.add_parser("check", help="check rulesets and summarise them")
    ruleset_args(p, many=True)
    p.set_defaults(command=cmd_check)

    p = sub.add_parser("run", help="play one game headless and print its outcome")
    ruleset_args(p)
    game_args(p)
    p.add_argument("--log", metavar="FILE", help="write the game as a JSON Lines log (replay it later)")
    p.add_argument("--log-as", metavar="ROLE", help="write one role's log instead: what that role may know "
                                                    "(the others' options left out; not a replay)")
    p.add_argument("--save", metavar="FILE", help="save the game state to FILE when it stops")
    p.add_argument("--stop-at", type=int, metavar="N", help="stop at decision N (with --save to keep it)")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.set_defaults(command=cmd_run)

    p = sub.add_parser("play", help="play in the terminal")
    ruleset_args(p)
    game_args(p)
    p.add_argument("--as", dest="role", metavar="ROLE", help="the role you play (default: the first)")
    p.add_argument("--log", metavar="FILE", help="write the game as a JSON Lines log")
    p.add_argument("--resume", metavar="FILE", help="continue a saved game")
    p.set_defaults(command=cmd_play)

    p = sub.add_parser("replay", help="replay a game log and check it still plays the same")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.add_argument("--as", dest="role", metavar="ROLE",
                   help="print ROLE's log instead (JSON Lines): only what that role may know, "
                        "as `run --log-as ROLE` writes it")
    p.set_defaults(command=cmd_replay)

    simulation.add_commands(sub, ruleset_args, game_args)
    sweep.add_command(sub, ruleset_args, game_args)
    show.add_commands(sub, ruleset_args)
    printing.register(sub)  # summary, cards
    solve.add_parser(sub, ruleset_args, lambda args: build_game(load(args), args), UsageError)
    return parser


# ------------------------------------------------------------------ helpers


def load(args):
    return load_ruleset(args.ruleset, parse_assignments(args.set), limits(args))


def zone_title(zone) -> str:
    title = zone.text or zone.name.replace("_", " ")
    title = title[:1].upper() + title[1:]
    return f"{title} ({zone.owner})" if zone.owner not in (None, "each") else title


def describe(outcome: dict) -> str:
    parts = [outcome_label(outcome)]
    for role, score in outcome["scores"].items():
        rating = outcome["ratings"].get(role)
        parts.append(f"{role} score {score}" + (f", rating {rating}" if rating else ""))
    parts.append(f"{outcome['rounds']} rounds, {outcome['decisions']} decisions")
    return " — ".join(parts)


def open_log(path: str | None, head: dict, role: str | None = None):
    if not path:
        return None, None
    try:
        f = open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write the log {path}: {exc.strerror}") from None
    return f, GameLog(f, head, role)


def resume(path: str, ruleset) -> dict:
    data = load_save(path)
    check_same_ruleset(data, ruleset)
    return data


# ------------------------------------------------------------------ commands


def cmd_check(args) -> int:
    params = parse_assignments(args.set)
    failed = 0
    for ref in args.ruleset:
        try:
            rs = load_ruleset(ref, params, limits(args))
            for mode in rs.modes:  # compiling finds what only the code generator can (Python's bounds)
                Game(rs, mode)
        except RulesetError as exc:
            print(exc.format(), file=sys.stderr)
            failed += 1
            continue
        modes = ", ".join(rs.modes)
        print(f"{ref}: ok — {rs.title}; modes: {modes}; roles: {', '.join(r.name for r in rs.roles)}; "
              f"{len(rs.cards)} components of {len(rs.card_types)} types; {len(rs.zones)} zones; "
              f"{len(rs.params)} parameters; {len(rs.rulings)} rulings")
    return 2 if failed else 0


def start(args) -> tuple:
    """The ruleset, the game, and where it starts: a new game or a saved one (--resume)."""
    ruleset = load(args)
    seed, state = args.seed, None
    if args.resume:
        data = resume(args.resume, ruleset)
        args.mode, seed, state = data["mode"], data["seed"], data["state"]
    game = build_game(ruleset, args)
    if state is not None:
        try:  # a saved file is input like any other: never play on from a damaged state
            game.check_state(state)
        except InvariantBroken as exc:
            raise SaveError(f"{args.resume} holds a damaged game state: {exc.diagnostic.message}") from None
    return ruleset, game, seed, state


def cmd_run(args) -> int:
    ruleset, game, seed, state = start(args)
    kinds = agent_kinds(game, args.agent)
    if "human" in kinds.values():
        raise UsageError("`run` plays headless; use `rulelang play` to play as a person")
    agents = {role: make_agent(kind, seed, role) for role, kind in kinds.items()}
    if args.log_as is not None and args.log_as not in game.roles:
        raise UsageError(f"--log-as: no role '{args.log_as}' in mode {game.mode.name} (roles: {', '.join(game.roles)})")
    log_file, log = open_log(args.log, header(ruleset, args.ruleset, game.mode.name, seed, kinds), args.log_as)
    try:
        st = play(game, seed, agents, state=state, log=log, stop_at=args.stop_at, timeout=args.decision_timeout)
    finally:
        if log_file:
            log_file.close()
    if args.save:
        save_state(args.save, ruleset, args.ruleset, game.mode.name, seed, kinds, st)
    if st.outcome is None:
        print(f"stopped at decision {st.decisions} (round {st.round}, {game.step_name(st)})"
              + (f"; saved to {args.save}" if args.save else ""))
        return 0
    print(json.dumps(st.outcome) if args.json else describe(st.outcome))
    return 0


def cmd_play(args) -> int:
    ruleset, game, seed, state = start(args)
    role = args.role or game.roles[0]
    if role not in game.roles:
        raise UsageError(f"no role '{role}' in mode {game.mode.name} (roles: {', '.join(game.roles)})")
    kinds = agent_kinds(game, args.agent)
    kinds[role] = "human"
    possible = game.compiler.program.possible  # zones no card can reach in this mode are not shown
    titles = {z.name: zone_title(z) for z in ruleset.zones.values() if possible is None or possible.get(z.name)}
    viewer = Viewer(game)
    current: dict = {}

    def save(path: str) -> str:
        try:
            save_state(path, ruleset, args.ruleset, game.mode.name, seed, kinds, current["state"])
        except SaveError as exc:
            return str(exc)
        return f"saved to {path}; continue with: rulelang play {args.ruleset} --resume {path}"

    agents = {r: HumanAgent(titles, save=save) if k == "human" else make_agent(k, seed, r) for r, k in kinds.items()}
    st = state if state is not None else game.new_state(seed)
    current["state"] = st
    print(f"{ruleset.title} — {game.mode.title}. You play the {role}. Type ? for help.")
    log_file, log = open_log(args.log, header(ruleset, args.ruleset, game.mode.name, seed, kinds))
    try:
        play(game, seed, agents, state=st, log=log, viewer=viewer, timeout=args.decision_timeout)
    except Quit:
        print("\nYou left the game.")
        return 0
    finally:
        if log_file:
            log_file.close()
    print("\n" + render_board(viewer.observe(st, role), titles, role))
    print("\nGame over: " + describe(st.outcome))
    return 0


def cmd_replay(args) -> int:
    logged = read_log(args.log)
    head = logged.head
    ref = head.get("path") or head["ruleset"]
    try:
        ruleset = load_ruleset(ref, {k: v for k, v in head["params"].items()})
    except RulesetError:
        if ref == head["ruleset"]:
            raise
        ruleset = load_ruleset(head["ruleset"], dict(head["params"]))
    game = Game(ruleset, head["mode"])
    if args.role is not None and args.role not in game.roles:
        raise UsageError(f"--as: no role '{args.role}' in mode {game.mode.name} (roles: {', '.join(game.roles)})")
    st = replay(game, logged, GameLog(sys.stdout, head, args.role) if args.role is not None else None)
    if args.role is not None:
        return 0  # stdout holds the player's log
    if st.outcome is None:
        print(f"the log ends at decision {st.decisions}; the game is not over")
        return 0
    print(json.dumps(st.outcome) if args.json else describe(st.outcome))
    if ruleset.source_hash != head["hash"]:
        print("note: the ruleset has changed since the log was written, but it still plays the same game")
    return 0
