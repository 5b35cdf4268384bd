"""The two agents that need no search: random and first."""
from __future__ import annotations

from ..runtime import rng
from .base import Agent, PlayerView, always_rule, fixed_choice


class RandomAgent(Agent):
    name = "random"
    OPTIONS = {"always": always_rule}  # `random:always=LABEL:OPTION`: that option at every decision so labelled

    def __init__(self, seed: int, role: str, always: tuple[str, str] | None = None):
        self.stream, self.always = rng.derive(seed, "agent:" + role), always
        self.looks = always is not None  # with `always`, the option's text decides (match.never_looks)
        if always is None and type(self).quick is RandomAgent.quick:  # the method below's answer, in one call
            self.quick = rng.picker(self.stream)

    @staticmethod
    def answering(always: tuple[str, str] | None = None):
        """`(seed, role) -> RandomAgent(seed, role).quick`, made without the agent (registry.answers_maker);
        None with `always` (the option's text decides: the agent looks)."""
        return _random_answers if always is None else None

    def choose(self, view: PlayerView) -> int:
        fixed = fixed_choice(view, self.always)
        return fixed if fixed is not None else rng.pick(self.stream, view.number, view.count)

    def quick(self, number: int, count: int, label: str) -> int | None:
        if self.always is not None and label == self.always[0]:
            return None  # the option's text decides: ask with a view
        return rng.pick(self.stream, number, count)


def _random_answers(seed: int, role: str):
    return rng.picker(rng.derive(seed, "agent:" + role))


class FirstAgent(Agent):
    name = "first"
    looks = False  # (match.never_looks)

    def __init__(self, seed: int, role: str):
        pass

    def choose(self, view: PlayerView) -> int:
        return 0

    def quick(self, number: int, count: int, label: str) -> int:
        return 0

    @staticmethod
    def answering():
        """(see RandomAgent.answering)"""
        return _first_answers


def _first_answers(seed: int, role: str):
    return _first


def _first(number: int, count: int, label: str | None = None) -> int:
    return 0
