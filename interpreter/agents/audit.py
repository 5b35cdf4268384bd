"""Whether a game log's header says truly who played: the agents it names.

A log replays from its choices alone, so the agents its header names are
only a claim. rulelang's own agents are deterministic — each derives its
choices from the game's seed, its role and the decision's number — so where
the header names one, the claim is checked: that agent, asked at each of
its role's decisions, must make the logged choice. A person (`human`) and a
plug-in agent cannot be asked again; their decisions are taken as logged.
"""
from __future__ import annotations

from ..engine.game import Game
from ..engine.view import Viewer
from .asking import ask
from .base import AgentSpecError, PlayerView
from .registry import OWN, make_agent


def false_claim(game: Game, seed: int, agents: dict, decisions: list[dict]) -> str | None:
    """What is untrue in the header's `agents`, if anything: a role no agent of the
    mode plays, or a decision that agent would not have made as logged."""
    if not isinstance(agents, dict) or any(not isinstance(k, str) or not isinstance(v, str)
                                           for k, v in agents.items()):
        return "its agents are not a mapping of roles to agents"
    unknown = sorted(set(agents) - set(game.roles))
    if unknown:
        return f"its agents name {', '.join(unknown)}, which mode {game.mode.name} has no role for"
    players = {}
    for role, spec in agents.items():
        try:
            agent = make_agent(spec, seed, role)
        except AgentSpecError:
            continue  # a plug-in's, or a person: cannot be asked again
        if type(agent) in OWN:
            players[role] = agent
    if not players:
        return None
    viewer, st = Viewer(game), game.new_state(seed)
    for record in decisions:
        d = game.decision(st)
        if d is None or not 0 <= record["choice"] < len(d.options):
            return None  # the choices themselves do not replay: replay says where
        agent = players.get(d.role)
        if agent is not None:
            answer = ask(agent, PlayerView(game, viewer, st))
            if answer != record["choice"]:
                return (f"decision {record['n']} ('{d.label}'): its header says {d.role} was played by "
                        f"'{agents[d.role]}', which chooses option {answer + 1} there, not option "
                        f"{record['choice'] + 1} as logged")
        game.apply(st, record["choice"])
    return None
