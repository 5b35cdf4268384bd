"""Many games, one summary: outcome counts, win rates with intervals, scores.

Game i of a simulation with seed S is the game `rulelang run --seed S+i`
plays, so any game in a simulation can be replayed on its own.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from .agents import make_agent
from .engine import Game
from .match import play
from .stats import mean, wilson
from .view import Viewer


def outcome_label(outcome: dict) -> str:
    who = outcome.get("role")
    reason = f" ({outcome['reason']})" if outcome.get("reason") else ""
    if outcome["ended_by"] == "win":
        return f"{who} wins{reason}"
    if outcome["ended_by"] == "lose":
        return f"{who} loses{reason}"
    winners = [r for r, res in outcome["results"].items() if res == "win"]
    return (f"{winners[0]} wins on score" if winners else "draw") + reason


@dataclass
class Summary:
    games: int
    seed: int
    mode: str
    agents: dict
    params: dict
    roles: tuple
    outcomes: Counter = field(default_factory=Counter)
    wins: Counter = field(default_factory=Counter)
    scores: dict = field(default_factory=dict)  # role -> list of scores
    ratings: Counter = field(default_factory=Counter)
    rounds: list = field(default_factory=list)
    decisions: list = field(default_factory=list)
    seconds: float = 0.0

    def add(self, outcome: dict) -> None:
        self.outcomes[outcome_label(outcome)] += 1
        for role, result in outcome["results"].items():
            self.wins[role] += result == "win"
        for role, score in outcome["scores"].items():
            self.scores.setdefault(role, []).append(score)
        for role, rating in outcome["ratings"].items():
            self.ratings[f"{role}: {rating}"] += 1
        self.rounds.append(outcome["rounds"])
        self.decisions.append(outcome["decisions"])

    def to_json(self) -> dict:
        n = self.games
        return {
            "games": n, "seed": self.seed, "mode": self.mode, "agents": self.agents, "params": self.params,
            "outcomes": dict(self.outcomes.most_common()),
            "win_rate": {r: {"rate": self.wins[r] / n if n else 0.0, "ci95": list(wilson(self.wins[r], n))}
                         for r in self.roles},
            "mean_score": {r: mean(self.scores[r]) if r in self.scores else None for r in self.roles},
            "ratings": dict(sorted(self.ratings.items())),
            "mean_rounds": mean(self.rounds), "mean_decisions": mean(self.decisions),
            "games_per_second": n / self.seconds if self.seconds > 0 else None,
        }


def simulate(game: Game, games: int, seed: int = 0, agents: dict[str, str] | None = None) -> Summary:
    kinds = {role: (agents or {}).get(role, "random") for role in game.roles}
    summary = Summary(games, seed, game.mode.name, kinds, dict(game.ruleset.param_values), game.roles)
    viewer = Viewer(game)
    start = time.perf_counter()
    for i in range(games):
        s = seed + i
        players = {role: make_agent(kind, s, role) for role, kind in kinds.items()}
        summary.add(play(game, s, players, viewer=viewer).outcome)
    summary.seconds = time.perf_counter() - start
    return summary


def format_summary(summary: Summary) -> str:
    data = summary.to_json()
    lines = [f"{data['games']} games of mode {data['mode']}, seeds {data['seed']}..{data['seed'] + data['games'] - 1}, "
             f"agents: {', '.join(f'{r}={k}' for r, k in data['agents'].items())}"]
    lines.append("outcomes:")
    width = max((len(k) for k in data["outcomes"]), default=0)
    for label, count in data["outcomes"].items():
        lines.append(f"  {label:<{width}}  {count:>7}  {count / data['games']:7.1%}")
    lines.append("win rate (95% interval):")
    for role, w in data["win_rate"].items():
        lo, hi = w["ci95"]
        lines.append(f"  {role}: {w['rate']:.1%}  [{lo:.1%}, {hi:.1%}]")
    scored = {r: s for r, s in data["mean_score"].items() if s is not None}
    if scored:
        lines.append("mean score: " + ", ".join(f"{r} {s:.2f}" for r, s in scored.items()))
    if data["ratings"]:
        lines.append("ratings: " + ", ".join(f"{k} {v}" for k, v in data["ratings"].items()))
    lines.append(f"mean length: {data['mean_rounds']:.1f} rounds, {data['mean_decisions']:.1f} decisions")
    if data["games_per_second"]:
        lines.append(f"speed: {data['games_per_second']:,.0f} games/s")
    return "\n".join(lines)
