"""Playing one game with agents: ask whoever decides, apply, until the end
(chance events of a game with explicit chance are drawn from its own RNG)."""
from __future__ import annotations

from ..engine.game import Game
from ..engine.logs import GameLog
from ..engine.view import Viewer
from ..runtime.state import State
from .asking import ask, checked_quick, trusted
from .base import Agent, PlayerView


def play(game: Game, seed: int, agents: dict[str, Agent], state: State | None = None,
         log: "GameLog | None" = None, viewer: Viewer | None = None, stop_at: int | None = None,
         timeout: float | None = None, history: bool = True) -> State:
    """Play until the game ends (or until `stop_at` decisions have been made).

    An agent that fails a decision (see asking.py) raises AgentError and
    leaves `st` as it was at that decision. `history=False`: the caller reads only the
    outcome (a simulation); if no agent ever looks at the game (`never_looks`), the
    decisions are then not kept among its events (Game.new_state's `watched`)."""
    quick = {role: q for role, agent in agents.items() if (q := quick_of(agent, role, timeout)) is not None}
    # without a log to write, the game answers quick agents itself, decision after decision
    more = quick or None if log is None else None
    if log is not None and viewer is None:  # one for the whole game: a Viewer is made once, not per record
        viewer = Viewer(game)
    if state is None:
        watched = history or log is not None or not all(map(never_looks, agents.values()))
        state = game.new_state(seed, more if stop_at is None else None, watched)
    st = state
    while st.outcome is None and (stop_at is None or st.decisions < stop_at):
        p = st.pending
        if p is None:
            game.apply_chance(st, game.sample_chance(st))
            continue
        q = quick.get(p.role)
        index = q(st.decisions, len(p.options), p.site.label) if q is not None else None
        if index is None:  # the agent needs to see the decision: a view, and its answer checked
            viewer = viewer or Viewer(game)
            index = ask(agents[p.role], PlayerView(game, viewer, st), timeout)
        if log is not None:
            log.decision(game, viewer or Viewer(game), st, index)
        game.apply(st, index, more, stop_at)
    if log is not None:
        if st.outcome is not None:
            log.outcome(viewer or Viewer(game), st)
        else:
            log.stopped(viewer or Viewer(game), st)
    return st


def never_looks(agent: Agent) -> bool:
    """Whether the agent answers every decision from its number and count alone, never
    declining (rulelang's random agent without `always=`, the first agent): no view of the
    game is ever made for it, so no history of the game is ever shown to it."""
    return getattr(agent, "looks", True) is False and trusted(agent)


def quick_of(agent: Agent, role: str, timeout: float | None = None):
    """The agent's `quick` answer (see Agent.quick), if the class that gives it
    its `choose` gives it that too: a subclass that chooses otherwise is asked.
    A plug-in agent's quick answers are checked (asking.checked_quick); with a
    time limit it is asked with a view, on the clock, instead."""
    answers = _ANSWERS_QUICKLY.get(type(agent))
    if answers is None:
        answers = _ANSWERS_QUICKLY[type(agent)] = next(
            (cls.__dict__.get("quick") is not None for cls in type(agent).__mro__ if "choose" in cls.__dict__), False)
    if not answers:
        return None
    if trusted(agent):
        return agent.quick  # the agent's own, if it set one
    if timeout is not None or not getattr(agent, "guarded", True):
        return None
    quick = getattr(agent, "quick", None)
    return checked_quick(agent, role, quick) if callable(quick) else None


_ANSWERS_QUICKLY: dict[type, bool] = {}  # agent class -> whether quick_of takes its `quick`
