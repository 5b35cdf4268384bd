"""Agents: whoever answers decisions.

An agent sees a `PlayerView` — its role's observation and the decision's
options as text — never the game state. It answers with an option's index.

    random  uniform over the options; draws from a stream derived from the
            game's seed, its role and the decision's number, so a game
            resumed from a saved state plays on exactly as it would have
    first   always the first option (handy for tests and tutorials)
    greedy  one-step lookahead with the mode's heuristic (greedy.py)
    mcts    Monte Carlo tree search over sampled states (mcts.py)
    human   asks a person at the terminal (terminal.py)

An agent is named by a spec `KIND` or `KIND:OPTION=VALUE,OPTION=VALUE`
(`mcts:iterations=200`); each kind declares its options and their types.
Agents written elsewhere come in as a Python file that calls `register`
(`--agents-from FILE`, `load_plugin`); what they answer is never trusted
(asking.py).
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Callable

from .base import Agent, AgentSpecError
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .simple import FirstAgent, RandomAgent

AGENTS: dict[str, Callable[..., Agent]] = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent,
                                           "mcts": MCTSAgent}


def register(name: str, factory: Callable[..., Agent]) -> None:
    """A factory is called as factory(seed, role, **options); its `OPTIONS`
    (if any) says which options a spec may set."""
    AGENTS[name] = factory


PLUGINS: list[str] = []  # the files load_plugin ran (a spawned simulate worker runs them again)


def load_plugin(path: str) -> None:
    """Run a Python file that registers agents with `register(name, factory)`.
    Its failures are an AgentSpecError: a file that does not load is a
    mistake on the command line, not a bug in rulelang."""
    path = str(Path(path).resolve())
    if path in PLUGINS:
        return
    name = "rulelang_agents_" + str(len(PLUGINS))
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise AgentSpecError(f"cannot load agents from {path}: not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # so its classes pickle (agents in spawned workers)
        spec.loader.exec_module(module)
    except AgentSpecError:
        raise
    except OSError as exc:
        raise AgentSpecError(f"cannot load agents from {path}: {exc.strerror}") from None
    except Exception as exc:  # noqa: BLE001 - someone else's code failed to load
        raise AgentSpecError(f"cannot load agents from {path}: it raised {type(exc).__name__}: {exc}") from None
    PLUGINS.append(path)


def parse_spec(spec: str) -> tuple[str, dict]:
    """`mcts:iterations=200,c=0.7` -> ("mcts", {"iterations": 200, "c": 0.7})."""
    kind, _, rest = spec.partition(":")
    if kind not in AGENTS:
        raise AgentSpecError(f"unknown agent '{kind}' (agents: {', '.join(AGENTS)})")
    allowed = getattr(AGENTS[kind], "OPTIONS", {})
    options = {}
    for item in filter(None, rest.split(",")):
        name, sep, value = item.partition("=")
        if not sep or name not in allowed:
            known = ", ".join(allowed) or "none"
            raise AgentSpecError(f"agent '{kind}' has no option '{item}' (options: {known}; "
                                 f"write {kind}:OPTION=VALUE,...)")
        try:
            options[name] = allowed[name](value)
        except ValueError:
            what = {int: "a whole number", float: "a number"}.get(allowed[name], allowed[name].__name__)
            raise AgentSpecError(f"option {name} of agent '{kind}' must be {what}, not '{value}'") from None
    return kind, options


def make_agent(spec: str, seed: int, role: str) -> Agent:
    kind, options = parse_spec(spec)
    agent = AGENTS[kind](seed, role, **options)
    agent.spec = spec  # how errors name it
    return agent
