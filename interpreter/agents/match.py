"""Playing one game with agents: ask whoever decides, apply, until the end
(chance events of a game with explicit chance are drawn from its own RNG)."""
from __future__ import annotations

from ..engine.game import Game
from ..engine.logs import GameLog
from ..engine.view import Viewer
from ..runtime.state import State
from .asking import ask
from .base import Agent, PlayerView


def play(game: Game, seed: int, agents: dict[str, Agent], state: State | None = None,
         log: "GameLog | None" = None, viewer: Viewer | None = None, stop_at: int | None = None,
         timeout: float | None = None) -> State:
    """Play until the game ends (or until `stop_at` decisions have been made).

    An agent that fails a decision (see asking.py) raises AgentError and
    leaves `st` as it was at that decision."""
    viewer = viewer or Viewer(game)
    st = state if state is not None else game.new_state(seed)
    while st.outcome is None and (stop_at is None or st.decisions < stop_at):
        if st.chance is not None:
            game.apply_chance(st, game.sample_chance(st))
            continue
        view = PlayerView(game, viewer, st)
        index = ask(agents[view.role], view, timeout)
        if log is not None:
            log.decision(game, viewer, st, index)
        game.apply(st, index)
    if log is not None and st.outcome is not None:
        log.outcome(viewer, st)
    return st
