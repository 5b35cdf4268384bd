"""Agents: whoever answers decisions.

An agent sees a `PlayerView` — its role's observation and the decision's
options as text — never the game state. It answers with an option's index.

    random  uniform over the options; draws from a stream derived from the
            game's seed, its role and the decision's number, so a game
            resumed from a saved state plays on exactly as it would have
    first   always the first option (handy for tests and tutorials)
    human   asks a person at the terminal (see terminal.py)
"""
from __future__ import annotations

from typing import Callable

from . import rng
from .engine import Game
from .state import State
from .view import Viewer


class PlayerView:
    """What one role may know at one decision."""

    __slots__ = ("game", "viewer", "_state", "role", "label", "count", "number", "_obs")

    def __init__(self, game: Game, viewer: Viewer, st: State):
        self.game, self.viewer, self._state = game, viewer, st
        p = st.pending
        self.role, self.label, self.count = p["role"], p["label"], len(p["options"])
        self.number = st.decisions  # how many decisions came before this one
        self._obs = None

    @property
    def observation(self) -> dict:
        if self._obs is None:
            self._obs = self.viewer.observe(self._state, self.role)
        return self._obs

    @property
    def options(self) -> list[str]:
        return self.observation["decision"]["options"]


class Agent:
    name = "agent"

    def choose(self, view: PlayerView) -> int:
        raise NotImplementedError


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int, role: str):
        self.stream = rng.derive(seed, "agent:" + role)

    def choose(self, view: PlayerView) -> int:
        return rng.pick(self.stream, view.number, view.count)


class FirstAgent(Agent):
    name = "first"

    def __init__(self, seed: int, role: str):
        pass

    def choose(self, view: PlayerView) -> int:
        return 0


AGENTS: dict[str, Callable[[int, str], Agent]] = {"random": RandomAgent, "first": FirstAgent}


def register(name: str, factory: Callable[[int, str], Agent]) -> None:
    AGENTS[name] = factory


def make_agent(kind: str, seed: int, role: str) -> Agent:
    return AGENTS[kind](seed, role)
