"""The mcts agent: Monte Carlo tree search that respects hidden information.

Information-set MCTS with one tree for the deciding role: every iteration
samples a whole state from what the role sees (sampling.py — hidden cards
dealt again, the RNG seeded afresh), walks the tree choosing by UCB1 among
the options this sample offers, adds one node, plays the rest of the game at
random and credits each node with the result for the role that chose it. An
option is known across samples by its decision's label and its values, so
statistics gathered under one sample serve the others. The answer is the
option tried most often.

Options: iterations (per decision, default 200), seconds (a time budget per
decision instead — then the play depends on the machine's speed), c (the
exploration constant, default 0.7).
"""
from __future__ import annotations

import math
import time

from ..runtime import rng
from .base import Agent, AgentSpecError, PlayerView


class Node:
    __slots__ = ("role", "children", "visits", "total", "seen")

    def __init__(self, role: str | None):
        self.role = role  # who chose the move into this node
        self.children: dict = {}
        self.visits = 0
        self.total = 0.0  # the sum of results (1 win, 0.5 draw, 0 loss) for `role`
        self.seen: dict = {}  # option key -> how often it was available here


MOST_ITERATIONS = 1_000_000  # minutes a decision on a large game; more is a typo


class MCTSAgent(Agent):
    name = "mcts"
    OPTIONS = {"iterations": int, "seconds": float, "c": float}

    def __init__(self, seed: int, role: str, iterations: int = 200, seconds: float = 0.0, c: float = 0.7):
        # bounded above too: an option is a command line's, and a decision must end (a day at most)
        if not (1 <= iterations <= MOST_ITERATIONS and 0 <= seconds <= 86_400 and 0 <= c <= 1_000):
            raise AgentSpecError(f"mcts needs iterations from 1 to {MOST_ITERATIONS:,}, seconds from 0 to 86,400 "
                                 "(a day) and c from 0 to 1,000")
        self.stream, self.role = rng.derive(seed, "mcts:" + role), role
        self.iterations, self.seconds, self.c = iterations, seconds, c

    def choose(self, view: PlayerView) -> int:
        if view.count == 1:
            return 0
        game, root = view.game, Node(None)
        state = rng.derive(self.stream, f"decision:{view.number}")
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        n = 0
        while (n < self.iterations) if deadline is None else (time.perf_counter() < deadline):
            state, seed = rng.below(state, 1 << 62)
            state = self.iterate(game, root, view.sample(seed), state)
            n += 1
        visits = [root.children[i].visits if i in root.children else -1 for i in range(view.count)]
        return visits.index(max(visits))

    def iterate(self, game, root: Node, st, state: int) -> int:
        node, path, top = root, [], True
        while st.outcome is None:
            d = game.decision(st)
            options = d.options
            if top:
                keys = range(len(options))
            else:
                label = d.site.label
                keys = [(label, o) for o in options]
            children, seen = node.children, node.seen
            untried = [i for i, k in enumerate(keys) if k not in children]
            for k in keys:
                seen[k] = seen.get(k, 0) + 1
            if untried:
                state, j = rng.below(state, len(untried))
                i = untried[j]
                child = children[keys[i]] = Node(d.role)
                game.apply(st, i)
                path.append(child)
                break
            i = self.select(node, keys)
            node = children[keys[i]]
            game.apply(st, i)
            path.append(node)
            top = False
        state = self.rollout(game, st, state)
        results = game.returns(st)
        for visited in path:
            visited.visits += 1
            visited.total += (results.get(visited.role, 0.0) + 1) / 2
        return state

    def select(self, node: Node, keys) -> int:
        best, best_i = -1.0, 0
        children, seen, c, log, sqrt = node.children, node.seen, self.c, math.log, math.sqrt
        for i, k in enumerate(keys):
            child = children[k]
            value = child.total / child.visits + c * sqrt(log(seen[k]) / child.visits)
            if value > best:
                best, best_i = value, i
        return best_i

    @staticmethod
    def rollout(game, st, state: int) -> int:
        """Play to the end at random; the engine answers every decision inside its loop."""
        draw, now = rng.drawer(state)
        everyone = dict.fromkeys(game.roles, draw)
        while st.outcome is None:
            game.apply(st, draw(None, len(game.decision(st).options)), everyone)
        return now()
