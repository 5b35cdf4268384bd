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
            except Exception:
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


class QuickWrong(Misbehaving):
    """Answers the engine's quick question (no view) with `answer`: -1, a float, one past the options."""
    name = "quick-wrong"
    OPTIONS = dict(Misbehaving.OPTIONS, answer=str)

    def __init__(self, seed, role, at=0, every=1, answer="-1"):
        super().__init__(seed, role, at, every)
        self.answer, self.stream = answer, seed

    def choose(self, view):
        return self.quick(view.number, view.count, view.label)

    def quick(self, number, count, label):
        if self.armed and number >= self.at:
            if self.answer == "raise":
                raise ZeroDivisionError("division by zero")
            return {"-1": -1, "float": 0.0, "past": count + 7}[self.answer]
        return (self.stream + number) % count


class CountRaiser(Misbehaving):
    """Raises the view's count of options, then answers past the real ones."""
    name = "count-raiser"

    def misbehave(self, view):
        real = view.count
        view.count = real + 10
        return real + 5


class RuleRaiser(Misbehaving):
    """Raises a RuleError of its own, as if the rules had failed."""
    name = "rule-raiser"

    def misbehave(self, view):
        from interpreter.runtime.errors import RuleError
        raise RuleError(None, "not the rules' fault at all")


class Unprintable(Misbehaving):
    """Raises an exception that cannot say what it is."""
    name = "unprintable"

    def misbehave(self, view):
        class Odd(Exception):
            def __str__(self):
                raise RuntimeError("no words")
        raise Odd()


class NumpyAnswer(Misbehaving):
    """Answers with numpy's whole number, as a model's argmax does."""
    name = "numpy-answer"

    def misbehave(self, view):
        import numpy
        return numpy.int64(view.count - 1)


class AlarmOff(Misbehaving):
    """Turns the timer signal off, then never answers."""
    name = "alarm-off"

    def misbehave(self, view):
        import signal
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        signal.setitimer(signal.ITIMER_REAL, 0)
        n = 0
        while True:
            n += 1


for kind in (Wrong, NotAnIndex, Raising, Hanging, Late, Exiting, QuickWrong, CountRaiser, RuleRaiser, Unprintable,
             NumpyAnswer, AlarmOff):
    register(kind.name, kind)
