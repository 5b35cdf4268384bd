"""What an agent is, and what it sees: a `PlayerView`, never the game state."""
from __future__ import annotations

import weakref

from ..engine.game import Game
from ..engine.view import Viewer
from ..runtime.errors import RuleError
from ..runtime.state import State

_SAMPLERS: "weakref.WeakKeyDictionary[Viewer, object]" = weakref.WeakKeyDictionary()


class PlayerView:
    """What one role may know at one decision."""

    __slots__ = ("game", "viewer", "_state", "role", "label", "count", "number", "_obs", "_belief", "_sampler",
                 "_samples")

    def __init__(self, game: Game, viewer: Viewer, st: State):
        self.game, self.viewer, self._state = game, viewer, st
        d = game.decision(st)
        self.role, self.label, self.count = d.role, d.label, len(d.options)
        self.number = st.decisions  # how many decisions came before this one
        self._obs = self._belief = self._sampler = None
        self._samples: dict = {}

    @property
    def observation(self) -> dict:
        if self._obs is None:
            self._obs = self.viewer.observe(self._state, self.role)
        return self._obs

    @property
    def options(self) -> list[str]:
        return self.observation["decision"]["options"]

    def sample(self, seed: int) -> State:
        """A whole state consistent with what this role has seen (see sampling.py):
        what search agents play ahead on, with `search_game`, instead of the real state."""
        return self.draw(seed)[0]

    def draw(self, seed: int) -> tuple[State, bool]:
        """A sample, and whether it is a state the rules reach (a replay of the game) rather
        than a redeal of this one, which may not be (a search drops a play-out that fails on
        one). The same seed gives the same sample: a copy of it, to play on."""
        kept = self._samples.get(seed)
        if kept is None:
            sampler, belief = self._prepared()
            kept = self._samples[seed] = sampler.draw(self._state, self.role, seed, belief)
        return kept[0].clone(), kept[1]

    @property
    def search_game(self) -> Game:
        """The game the samples are states of: play ahead on them with it."""
        return self._prepared()[1].game

    def _prepared(self):
        """The viewer's sampler, and what the role knows: the same for every sample of this decision."""
        if self._belief is None:
            from .sampling import Sampler
            sampler = self._sampler = _SAMPLERS.get(self.viewer)
            if sampler is None:
                sampler = self._sampler = _SAMPLERS[self.viewer] = Sampler(self.game, self.viewer)
            self._belief = sampler.prepare(self._state, self.role)
        return self._sampler, self._belief


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


class SearchFailed(RuleError):
    """The rules failed while a search agent played ahead, on a sample that is a replay of
    the game (a state the rules reach): found by that agent's search, not in the game played."""

    def __init__(self, agent: Agent, view: PlayerView, error: RuleError):
        name = getattr(agent, "spec", None) or agent.name
        d = error.diagnostic
        super().__init__(d.span, f"{d.message} (while agent '{name}', playing {view.role}, searched ahead "
                                 f"from decision {view.number + 1}: in a game the rules can reach, "
                                 "not the one being played)", d.hint)
        self.agent, self.role, self.error = name, view.role, error
