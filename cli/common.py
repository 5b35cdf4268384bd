"""What the commands share: usage errors, building a game, choosing agents."""
from __future__ import annotations

from interpreter.agents.base import AgentSpecError
from interpreter.agents.registry import load_plugin, make_agent
from interpreter.engine.game import DEFAULT_STEP_LIMIT, Game
from rulelang.errors import did_you_mean
from rulelang.limits import DEFAULT


def limits(args):
    """The front end's limits with the command line's `--limit NAME=N` applied."""
    return DEFAULT.changed(getattr(args, "limit", None) or [])


class UsageError(Exception):
    """A mistake on the command line (exit code 2)."""


def load_agents(args) -> None:
    """Run the files of `--agents-from`, which register agents of their own."""
    for path in getattr(args, "agents_from", None) or []:
        try:
            load_plugin(path)
        except AgentSpecError as exc:
            raise UsageError(f"--agents-from: {exc}") from None


def build_game(ruleset, args) -> Game:
    load_agents(args)  # before any --agent names one of theirs
    step_limit = getattr(args, "step_limit", DEFAULT_STEP_LIMIT)
    if step_limit < 1:
        raise UsageError("--step-limit must be at least 1")
    timeout = getattr(args, "decision_timeout", None)
    if timeout is not None and not timeout > 0:
        raise UsageError("--decision-timeout must be a number of seconds above 0")
    return Game(ruleset, args.mode, step_limit=step_limit, check_invariants=getattr(args, "check_invariants", False))


def agent_kinds(game: Game, specs: list[str]) -> dict[str, str]:
    kinds = {role: "random" for role in game.roles}
    for spec in specs:
        role, sep, kind = spec.partition("=")
        if not sep:
            raise UsageError(f"--agent expects ROLE=KIND, not '{spec}'")
        if role not in game.roles:
            hint = did_you_mean(role, game.roles)
            raise UsageError(f"no role '{role}' in mode {game.mode.name}"
                             + (f"; {hint}" if hint else f" (roles: {', '.join(game.roles)})"))
        if kind != "human":
            try:
                make_agent(kind, 0, role)  # checks the kind and its options
            except AgentSpecError as exc:
                raise UsageError(f"--agent {role}: {exc}") from None
        kinds[role] = kind
    return kinds
