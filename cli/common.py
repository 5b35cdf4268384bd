"""What the commands share: usage errors, building a game, choosing agents."""
from __future__ import annotations

from interpreter.agents import AGENTS
from interpreter.engine import Game
from rulelang.errors import did_you_mean


class UsageError(Exception):
    """A mistake on the command line (exit code 2)."""


def build_game(ruleset, args) -> Game:
    if args.step_limit < 1:
        raise UsageError("--step-limit must be at least 1")
    return Game(ruleset, args.mode, step_limit=args.step_limit)


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
        if kind not in AGENTS and kind != "human":
            raise UsageError(f"unknown agent '{kind}' (agents: {', '.join([*AGENTS, 'human'])})")
        kinds[role] = kind
    return kinds
