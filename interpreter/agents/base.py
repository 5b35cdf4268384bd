"""What an agent is, and what it sees: a `PlayerView`, never the game state."""
from __future__ import annotations

import weakref

from ..engine.game import Game
from ..engine.view import Viewer
from ..runtime.state import State

_SAMPLERS: "weakref.WeakKeyDictionary[Viewer, object]" = weakref.WeakKeyDictionary()


class PlayerView:
    """What one role may know at one decision."""

    __slots__ = ("game", "viewer", "_state", "role", "label", "count", "number", "_obs", "_hidden", "_sampler")

    def __init__(self, game: Game, viewer: Viewer, st: State):
        self.game, self.viewer, self._state = game, viewer, st
        d = game.decision(st)
        self.role, self.label, self.count = d.role, d.label, len(d.options)
        self.number = st.decisions  # how many decisions came before this one
        self._obs = self._hidden = self._sampler = None

    @property
    def observation(self) -> dict:
        if self._obs is None:
            self._obs = self.viewer.observe(self._state, self.role)
        return self._obs

    @property
    def options(self) -> list[str]:
        return self.observation["decision"]["options"]

    def sample(self, seed: int) -> State:
        """A whole state consistent with what this role sees (see sampling.py):
        what search agents play ahead on, instead of the real state."""
        sampler = self._sampler
        if sampler is None:  # the viewer's, and what the role cannot see: the same for every sample of this decision
            from .sampling import Sampler
            sampler = self._sampler = _SAMPLERS.get(self.viewer)
            if sampler is None:
                sampler = self._sampler = _SAMPLERS[self.viewer] = Sampler(self.game, self.viewer)
            self._hidden = sampler.hidden(self._state, self.role)
        return sampler.sample(self._state, self.role, seed, self._hidden)


class Agent:
    name = "agent"
    OPTIONS: dict[str, type] = {}  # what a spec may set: name -> int, float, ...
    guarded = True  # answers are checked and timed (asking.py); a person at the terminal is not

    def choose(self, view: PlayerView) -> int:
        raise NotImplementedError

    # An agent whose answer needs only the decision's number, its count of options and its
    # label may also define `quick(number, count, label) -> int | None`: the same answer as
    # `choose`, or None to be asked with a view after all. Games call it without a view or a
    # clock (simulations ask millions); a plug-in's answers are checked all the same
    # (asking.checked_quick), and with --decision-timeout it is asked with a view instead.
    # An agent may set `self.quick` to a function that gives the same answers in one call
    # (the random agent: `rng.picker`, its stream bound); `match.quick_of` takes the agent's own.


def always_rule(text: str) -> tuple[str, str]:
    """An `always=LABEL:OPTION` option: at every decision labelled LABEL, the
    option OPTION when it is offered (`_` and spaces alike) — a fixed policy for
    one decision, to measure what that choice is worth against the agent's own."""
    label, sep, option = text.partition(":")
    if not sep or not label or not option:
        raise ValueError(text)
    return label.replace(" ", "_"), option.replace("_", " ")


always_rule.__name__ = "LABEL:OPTION"  # how a bad value is named in the error


def fixed_choice(view: "PlayerView", always: tuple[str, str] | None) -> int | None:
    """The option an `always=` rule picks at this decision, if any."""
    if always is None or view.label != always[0]:
        return None
    options = [o.replace("_", " ") for o in view.options]
    return options.index(always[1]) if always[1] in options else None


class AgentSpecError(ValueError):
    """A bad agent spec (unknown kind or option, a value of the wrong type)."""
