"""The two agents that need no search: random and first."""
from __future__ import annotations

from ..runtime import rng
from .base import Agent, PlayerView


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
