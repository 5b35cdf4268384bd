"""Whoever answers decisions, and playing a game with them.

An agent sees a `PlayerView` (its role's observation and the options as
text), never the state, and answers an option's index; `asking.ask`
checks every answer. Plug-ins call `register(name, factory)`."""
from .base import Agent, AgentSpecError, PlayerView
from .registry import AGENTS, load_plugin, make_agent, parse_spec, register

__all__ = ["AGENTS", "Agent", "AgentSpecError", "PlayerView", "load_plugin", "make_agent", "parse_spec", "register"]
