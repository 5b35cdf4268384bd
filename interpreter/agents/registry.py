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
`random` and `greedy` take `always=LABEL:OPTION`: that option at every
decision so labelled (`greedy:always=approach:together`), to measure what
one fixed choice is worth.
Agents written elsewhere come in as a Python file that calls `register`
(`--agents-from FILE`, `load_plugin`); what they answer is never trusted
(asking.py).
"""
from __future__ import annotations

import re
import sys
import types
from pathlib import Path
from typing import Callable

from rulelang.files import Unreadable, read_bytes
from rulelang.params import decimal, whole_number

from .base import Agent, AgentSpecError
from .greedy import GreedyAgent
from .mcts import MCTSAgent
from .simple import FirstAgent, RandomAgent

AGENTS: dict[str, Callable[..., Agent]] = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent,
                                           "mcts": MCTSAgent}
BUILT_IN = frozenset({*AGENTS, "human"})  # what summaries and logs mean by these names
OWN = frozenset(AGENTS.values())  # rulelang's own agent classes: their quick answers and rule errors are trusted
PLUGIN_BYTES = 4_000_000  # an agents file is code, not a model: it may load its model itself


def register(name: str, factory: Callable[..., Agent]) -> None:
    """A factory is called as factory(seed, role, **options); its `OPTIONS`
    (if any) says which options a spec may set. A name is registered once:
    an agent that took over `random` would play under a name that says otherwise."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,63}", name):
        raise AgentSpecError(f"an agent's name is a word of letters, digits, - and _, not {name!r}")
    if name in BUILT_IN:
        raise AgentSpecError(f"agent '{name}' is built in; give yours another name")
    if name in AGENTS:
        raise AgentSpecError(f"agent '{name}' is registered already, by another agents file")
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
        code = compile(read_bytes(path, PLUGIN_BYTES, "an agents file"), path, "exec")
        module = types.ModuleType(name)
        module.__file__ = path
        sys.modules[name] = module  # so its classes pickle (agents in spawned workers)
        exec(code, module.__dict__)
    except Unreadable as exc:
        raise AgentSpecError(str(exc)) from None
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        problem = str(exc) if isinstance(exc, AgentSpecError) else f"it raised {type(exc).__name__}: {exc}"
        raise AgentSpecError(f"cannot load agents from {path}: {problem}") from None
    PLUGINS.append(path)


_OPTION_TYPES = {int: (whole_number, "a whole number"), float: (decimal, "a finite number")}


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
        read, what = _OPTION_TYPES.get(allowed[name], (allowed[name], allowed[name].__name__))
        try:  # numbers in ASCII and finite: `c=nan` would make every choice the same
            parsed = read(value)
        except ValueError:
            parsed = None
        if parsed is None:
            raise AgentSpecError(f"option {name} of agent '{kind}' must be {what}, not '{value}'")
        options[name] = parsed
    return kind, options


def make_agent(spec: str, seed: int, role: str) -> Agent:
    return agent_maker(spec)(seed, role)


def answers_maker(spec: str) -> Callable[[int, str], Callable] | None:
    """`(seed, role) -> quick answer` of the agents `agent_maker(spec)` makes, made without them, when
    those agents are rulelang's own and answer every decision from its number and count alone, never
    looking at the game nor declining (match.never_looks): a simulation of them makes no agent a game.
    None for any other spec (its class says so by an `answering(**options)` that returns None, or none)."""
    kind, options = parse_spec(spec)
    factory = AGENTS[kind]
    answering = getattr(factory, "answering", None) if factory in OWN else None
    return answering(**options) if answering is not None else None


def agent_maker(spec: str) -> Callable[[int, str], Agent]:
    """`make_agent` with its spec read once: a simulation makes an agent per role and game."""
    kind, options = parse_spec(spec)
    factory = AGENTS[kind]

    def make(seed: int, role: str) -> Agent:
        agent = factory(seed, role, **options)
        agent.spec = spec  # how errors name it
        return agent
    return make
