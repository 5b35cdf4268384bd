"""The mcts agent: Monte Carlo tree search that respects hidden information.

Information-set MCTS with one tree for the deciding role: every iteration
takes a whole state sampled from what the role has seen (sampling.py — the
game replayed with other outcomes where the role could not see them, the
RNG seeded afresh), walks the tree choosing by UCB1 among the options this
sample offers, adds one node, plays the rest of the game at random and
credits each node with the result for the role that chose it. An option is
known across samples by its decision's label and its values, so statistics
gathered under one sample serve the others. The answer is the option tried
most often.

A play-out that makes the rules fail is dropped when its sample was a
redeal (which may be a state the rules never reach); on a replayed sample
the failure is the rules' own, reported as found by this agent's search.

Options: iterations (per decision, default 200), seconds (a time budget per
decision instead — then the play depends on the machine's speed), c (the
exploration constant, default 0.7), samples (the sampled states an
iteration draws from, per decision, default 32).
"""
from __future__ import annotations

import math
import time

from ..runtime import rng
from ..runtime.errors import RuleError
from .base import Agent, AgentSpecError, PlayerView, SearchFailed


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
    OPTIONS = {"iterations": int, "seconds": float, "c": float, "samples": int}

    def __init__(self, seed: int, role: str, iterations: int = 200, seconds: float = 0.0, c: float = 0.7,
                 samples: int = 32):
        # bounded above too: an option is a command line's, and a decision must end (a day at most)
        if not (1 <= iterations <= MOST_ITERATIONS and 0 <= seconds <= 86_400 and 0 <= c <= 1_000
                and 1 <= samples <= MOST_ITERATIONS):
            raise AgentSpecError(f"mcts needs iterations from 1 to {MOST_ITERATIONS:,}, seconds from 0 to 86,400 "
                                 f"(a day), c from 0 to 1,000 and samples from 1 to {MOST_ITERATIONS:,}")
        self.stream, self.role = rng.derive(seed, "mcts:" + role), role
        self.iterations, self.seconds, self.c, self.samples = iterations, seconds, c, samples

    def choose(self, view: PlayerView) -> int:
        if view.count == 1:
            return 0
        root = Node(None)
        state = rng.derive(self.stream, f"decision:{view.number}")
        seeds = rng.derive(self.stream, "samples")  # the same seeds at every decision: a sample plays on
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        n = dropped = 0
        while (n < self.iterations) if deadline is None else (time.perf_counter() < deadline):
            st, replayed = view.draw(seeds + n % self.samples)
            n += 1
            before = state
            try:
                state = self.iterate(view.search_game, root, st, state)
            except RuleError as exc:
                if replayed:
                    raise SearchFailed(self, view, exc) from None
                state = rng.below(before, 2)[0]  # a redealt sample the rules cannot go on from: dropped
                dropped += 1
        visits = [root.children[i].visits if i in root.children else -1 for i in range(view.count)]
        if max(visits) <= 0:  # every play-out was dropped: no option is known to be better
            return rng.pick(self.stream, -1 - view.number, view.count)
        return visits.index(max(visits))

    def iterate(self, game, root: Node, st, state: int) -> int:
        """One iteration; on a failure of the rules, the tree is as it was before it."""
        path: list[Node] = []
        try:
            return self._iterate(game, root, st, state, path)
        except RuleError:
            self._forget(root, path)
            raise

    @staticmethod
    def _forget(root: Node, path: list) -> None:
        """Remove a node the failed iteration added (the last of its path, if it has no visit)."""
        if path and path[-1].visits == 0:
            parent = path[-2] if len(path) > 1 else root
            for key, child in list(parent.children.items()):
                if child is path[-1]:
                    del parent.children[key]

    def _iterate(self, game, root: Node, st, state: int, path: list) -> int:
        node, top = root, True
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
                path.append(child)
                game.apply(st, i)
                break
            i = self.select(node, keys)
            node = children[keys[i]]
            path.append(node)
            game.apply(st, i)
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
