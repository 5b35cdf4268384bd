"""Agents that misbehave, loaded as a plug-in (`--agents-from tests/helpers/misbehaving_agents.py`).

Each plays like `random` until decision `at` (counted from 0; option
`at=N`), then misbehaves there; `every=K` misbehaves only in the games whose
seed is a multiple of K, so a simulation has good and bad games.
"""
import os
import time

from interpreter.agents import register
from interpreter.agents.base import Agent
from interpreter.agents.simple import RandomAgent


class Misbehaving(Agent):
    OPTIONS = {"at": int, "every": int}

    def __init__(self, seed: int, role: str, at: int = 0, every: int = 1):
        self.honest = RandomAgent(seed, role)
        self.armed = seed % every == 0
        self.at = at

    def choose(self, view):
        if self.armed and view.number >= self.at:
            return self.misbehave(view)
        return self.honest.choose(view)


class Wrong(Misbehaving):
    name = "wrong"

    def misbehave(self, view):
        return view.count  # one past the last option


class NotAnIndex(Misbehaving):
    name = "not-an-index"

    def misbehave(self, view):
        return view.options[0]  # the option's text, not its index


class Raising(Misbehaving):
    name = "raising"

    def misbehave(self, view):
        raise ValueError("the model file is missing")


class Hanging(Misbehaving):
    """Never answers, and swallows every exception on the way."""
    name = "hanging"

    def misbehave(self, view):
        while True:
            try:
                time.sleep(60)
            except Exception:  # noqa: BLE001 - on purpose: the timer's interruption is no Exception
                pass


class Late(Misbehaving):
    """Answers, but only after `delay` seconds."""
    name = "late"
    OPTIONS = dict(Misbehaving.OPTIONS, delay=float)

    def __init__(self, seed, role, at=0, every=1, delay=0.3):
        super().__init__(seed, role, at, every)
        self.delay = delay

    def misbehave(self, view):
        time.sleep(self.delay)
        return 0


class Exiting(Misbehaving):
    """Ends the process it plays in, as a crashing extension or the out-of-memory killer would."""
    name = "exiting"

    def misbehave(self, view):
        os._exit(3)


for kind in (Wrong, NotAnIndex, Raising, Hanging, Late, Exiting):
    register(kind.name, kind)
