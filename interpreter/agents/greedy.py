"""The greedy agent: one step of lookahead, judged by the mode's heuristic.

For each option it plays the option on a few sampled states (never the real
one: see sampling.py; a sample on which the rules fail is dropped if it was
a redeal, reported as found by its search if it was a replay), runs the
rules to the next decision and scores what
it finds: a win or a loss outright, otherwise the mode's `heuristics:` value
for its role (higher is better), or its score when the mode declares no
heuristic. If the next decision is its own again in the same round (a
menu, then which card), it looks one more decision ahead, `depth` decisions
in all. Ties are broken at random from its own stream.

Options: samples (sampled states per decision, default 4), depth (default 2),
always (`always=LABEL:OPTION`: that option at every decision so labelled).
"""
from __future__ import annotations

from ..runtime import rng
from ..runtime.errors import RuleError
from .base import Agent, AgentSpecError, PlayerView, SearchFailed, always_rule, fixed_choice

WIN = 1_000_000


class GreedyAgent(Agent):
    name = "greedy"
    OPTIONS = {"samples": int, "depth": int, "always": always_rule}

    def __init__(self, seed: int, role: str, samples: int = 4, depth: int = 2,
                 always: tuple[str, str] | None = None):
        if not (1 <= samples <= 100_000 and 1 <= depth <= 1_000):  # more would never answer: a typo
            raise AgentSpecError("greedy needs samples from 1 to 100,000 and depth from 1 to 1,000")
        self.stream, self.role = rng.derive(seed, "greedy:" + role), role
        self.samples, self.depth, self.always = samples, depth, always

    def choose(self, view: PlayerView) -> int:
        if view.count == 1:
            return 0
        fixed = fixed_choice(view, self.always)
        if fixed is not None:
            return fixed
        totals = [0.0] * view.count
        for k in range(self.samples):
            st, replayed = view.draw(rng.derive(self.stream, f"sample:{k}"))  # the same at every decision: it plays on
            game, where = view.search_game, st.round
            try:
                values = []
                for i in range(view.count):
                    after = st.clone()
                    game.apply(after, i)
                    values.append(self.value(game, after, self.depth - 1, where))
            except RuleError as exc:
                if replayed:
                    raise SearchFailed(self, view, exc) from None
                continue  # a redealt sample the rules cannot go on from: dropped
            totals = [t + v for t, v in zip(totals, values)]
        best = max(totals)
        ties = [i for i, t in enumerate(totals) if t == best]
        return ties[rng.pick(self.stream, -1 - view.number, len(ties))] if len(ties) > 1 else ties[0]

    def value(self, game, st, depth: int, where) -> float:
        if game.is_terminal(st):
            return WIN * game.returns(st)[self.role]
        if depth > 0 and game.current_role(st) == self.role and st.round == where:
            values = []
            for i in game.legal_actions(st):
                after = st.clone()
                game.apply(after, i)
                values.append(self.value(game, after, depth - 1, where))
            return max(values)
        return self.estimate(game, st)

    def estimate(self, game, st) -> float:
        value = game.heuristic(st, self.role)
        if value is None:
            value = game.score(st, self.role)
        return value if value is not None else 0

