"""What the commands share: their arguments, usage errors, loading a ruleset,
building a game, choosing agents, and which files they may write."""
from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from rulelang.errors import did_you_mean
from rulelang.limits import DEFAULT

if TYPE_CHECKING:
    from interpreter.compiler.options import CompileOptions
    from interpreter.engine.game import Game
    from interpreter.engine.scenarios import Scenario
    from rulelang import ir

# The interpreter is imported by the functions that play: `check` and the printing commands
# need only the front end when nothing is to be compiled.

# The bounds of the numbers a command line gives: far above any real use, and
# low enough that nothing grows without bound before the first game.
MOST_GAMES = 10_000_000  # a summary keeps a few numbers per game
MOST_JOBS = 256
MOST_STEPS = 10**12
MOST_SECONDS = 86_400.0  # a day for one decision


class UsageError(Exception):
    """A mistake on the command line (exit code 2)."""


# ------------------------------------------------------------------ argument types


def _shown(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def whole(low: int, high: int):
    """An argparse type: a whole number in ASCII digits from `low` to `high`."""
    def parse(text: str) -> int:
        from rulelang.params import whole_number  # (params reads the IR: imported when a number is given)
        number = whole_number(text, 19)
        if number is None or not low <= number <= high:
            raise argparse.ArgumentTypeError(f"expected a whole number from {low:,} to {high:,}, "
                                             f"not '{_shown(text)}'")
        return number
    return parse


def seed(text: str) -> int:
    from rulelang.params import whole_number
    number = whole_number(text, 18)
    if number is None:
        raise argparse.ArgumentTypeError(f"expected a whole number of at most 18 digits, not '{_shown(text)}'")
    return number


def seconds(text: str) -> float:
    from rulelang.params import decimal
    number = decimal(text)
    if number is None or not 0 < number <= MOST_SECONDS:
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0 and at most {MOST_SECONDS:,.0f} "
                                         f"(a day), not '{_shown(text)}'")
    return number


def passes(text: str) -> CompileOptions:
    """An argparse type: the compiler's passes to run (`all`, `none`, `all,-merge`, `fold,inline`)."""
    from interpreter.compiler.options import CompileOptions
    try:
        return CompileOptions.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def passes_arg(p) -> None:
    p.add_argument("--passes", type=passes, metavar="LIST",
                   help="the compiler's passes to run: all (the default), none (the rules compiled as written), "
                        "or names to add and -names to take away, e.g. all,-merge (`rulelang docs architecture`)")


def name(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a name, not nothing")
    return text


# ------------------------------------------------------------------ arguments


def loading_args(p) -> None:
    """What decides how a ruleset is read."""
    p.add_argument("--limit", action="append", default=[], metavar="NAME=N",
                   help="raise a limit of what a ruleset may ask (e.g. components=50000; `rulelang docs reliability` lists them)")
    p.add_argument("--extends-dir", action="append", default=[], metavar="DIR",
                   help="a folder whose files `extends:` may name, besides the ruleset's own folder "
                        "and the bundled rulesets (repeatable)")


def ruleset_args(p, many: bool = False) -> None:
    p.add_argument("ruleset", nargs="+" if many else None, metavar="RULESET",
                   help="a ruleset file, or the name of a bundled ruleset (e.g. twenty-trials)")
    p.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                   help="set a parameter of the ruleset (repeatable)")
    loading_args(p)


def game_args(p, agent_lists: bool = False) -> None:
    """`agent_lists`: each --agent names a list of agents to try in turn (a sweep)."""
    from interpreter.agents.registry import AGENTS
    from interpreter.engine.game import DEFAULT_STEP_LIMIT
    p.add_argument("--mode", type=name, help="the mode to play (default: the ruleset's first)")
    p.add_argument("--seed", type=seed, help="the seed (default 0)")
    if agent_lists:
        p.add_argument("--agent", action="append", default=[], metavar="ROLE=KIND[,KIND...]",
                       help=f"the agents to sweep for a role, of {', '.join(AGENTS)}, e.g. "
                            "challenger=random,greedy:samples=2 (default random; repeatable)")
    else:
        p.add_argument("--agent", action="append", default=[], metavar="ROLE=KIND[:OPT=V,...]",
                       help=f"who plays a role: {', '.join(AGENTS)}, with options such as "
                            "mcts:iterations=200 (default random; repeatable)")
    p.add_argument("--agents-from", action="append", default=[], metavar="FILE.py",
                   help="a Python file that registers agents of its own (interpreter.agents.register; "
                        "repeatable)")
    p.add_argument("--step-limit", type=whole(1, MOST_STEPS), default=DEFAULT_STEP_LIMIT,
                   help=f"stop a game whose rules run more steps than this (default {DEFAULT_STEP_LIMIT})")
    p.add_argument("--decision-timeout", type=seconds, metavar="SECONDS",
                   help="the time an agent has for each decision (default: no limit)")
    p.add_argument("--check-invariants", action="store_true",
                   help="check after every effect that each component is in exactly one zone (slower)")
    passes_arg(p)
    if not agent_lists:
        p.add_argument("--scenario", metavar="FILE",
                       help="start every game from the position a scenario file sets up (docs/playground.md)")


# ------------------------------------------------------------------ rulesets and games


def limits(args):
    """The front end's limits with the command line's `--limit NAME=N` applied."""
    return DEFAULT.changed(getattr(args, "limit", None) or [])


def load(args, ref: str | None = None, params: dict | None = None) -> ir.Ruleset:
    """The ruleset the command line names (or `ref`), read as its options say (or, when
    this text was read so before, its IR from the cache of rulesets read: read_cache.py)."""
    from rulelang.params import parse_assignments

    from .read_cache import load as load_ruleset
    return load_ruleset(ref or args.ruleset, parse_assignments(args.set) if params is None else params,
                        limits(args), getattr(args, "extends_dir", ()))


def scenario(args) -> Scenario | None:
    """The scenario of --scenario, read and its shape checked; its mode and parameters become
    the command line's, which may add to them but not contradict them."""
    path = getattr(args, "scenario", None)
    if not path:
        return None
    from interpreter.engine.scenarios import load_scenario
    if getattr(args, "resume", None):
        raise UsageError("--scenario starts a new game; a saved game (--resume) carries its own scenario")
    found = load_scenario(path, limits(args))
    from rulelang import parse_assignments
    given = parse_assignments(args.set)
    conflicts = [f"--set {k}={given[k]} (the scenario's: {v})" for k, v in found.params.items()
                 if k in given and given[k] != v]
    if found.mode is not None and args.mode not in (None, found.mode):
        conflicts.append(f"--mode {args.mode} (the scenario's: {found.mode})")
    if conflicts:
        raise UsageError(f"{path} sets its own mode and parameters, which the command line contradicts: "
                         + "; ".join(conflicts))
    args.set = [*args.set, *(f"{k}={v}" for k, v in found.params.items() if k not in given)]
    args.mode = args.mode or found.mode
    return found


def load_agents(args) -> None:
    """Run the files of `--agents-from`, which register agents of their own."""
    from interpreter.agents.base import AgentSpecError
    from interpreter.agents.registry import load_plugin
    for path in getattr(args, "agents_from", None) or []:
        try:
            load_plugin(path)
        except AgentSpecError as exc:
            raise UsageError(f"--agents-from: {exc}") from None


def build_game(ruleset, args, history: bool = False) -> Game:
    """The game a command plays; `history`: one that keeps every decision, for a person to be told of."""
    from interpreter.engine.game import DEFAULT_STEP_LIMIT, Game
    load_agents(args)  # before any --agent names one of theirs
    return Game(ruleset, args.mode, step_limit=getattr(args, "step_limit", DEFAULT_STEP_LIMIT),
                check_invariants=getattr(args, "check_invariants", False), history=history,
                passes=getattr(args, "passes", None), cached=True)


def agent_kinds(game: Game, specs: list[str]) -> dict[str, str]:
    from interpreter.agents.base import AgentSpecError
    from interpreter.agents.registry import make_agent
    kinds = {role: "random" for role in game.roles}
    given: dict[str, str] = {}
    for spec in specs:
        role, sep, kind = spec.partition("=")
        if not sep:
            raise UsageError(f"--agent expects ROLE=KIND, not '{spec}'")
        if role not in game.roles:
            hint = did_you_mean(role, game.roles)
            raise UsageError(f"no role '{role}' in mode {game.mode.name}"
                             + (f"; {hint}" if hint else f" (roles: {', '.join(game.roles)})"))
        if role in given and given[role] != kind:
            raise UsageError(f"--agent {role} is given twice, as {given[role]} and as {kind}; keep one")
        given[role] = kind
        if kind != "human":
            try:
                make_agent(kind, 0, role)  # checks the kind and its options
            except AgentSpecError as exc:
                raise UsageError(f"--agent {role}: {exc}") from None
        kinds[role] = kind
    return kinds


# ------------------------------------------------------------------ outputs


def refuse_inputs(outputs: dict[str, str | None], ruleset: ir.Ruleset, args) -> None:
    """An output that is one of the command's inputs — a file of the ruleset
    (its whole `extends:` chain) or an agents file — would be written over:
    a usage error, before anything is written. `outputs`: option -> path."""
    inputs = [*ruleset.files, *(getattr(args, "agents_from", None) or [])]
    for option, path in outputs.items():
        same = next((i for i in inputs if path and _same_file(path, i)), None)
        if same is not None:
            raise UsageError(f"{option} {path} is {same}, which this command reads; write it elsewhere")


def distinct_outputs(outputs: dict[str, str | None]) -> None:
    """Two outputs of one command named alike (`--save X --log X`) would write over
    each other: a usage error, before anything is written. `outputs`: option -> path."""
    named = [(option, path) for option, path in outputs.items() if path]
    for i, (option, path) in enumerate(named):
        for other, second in named[:i]:
            if os.path.abspath(path) == os.path.abspath(second) or _same_file(path, second):
                raise UsageError(f"{other} and {option} both name {path}; give each its own file")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)  # the same inode: a link or another name counts
    except (OSError, ValueError):
        return False  # one of them is not there (yet)
