"""Any ruleset and mode as PettingZoo environments: `aec_env` (turn by turn)
and `parallel_env` (simultaneous decisions as one step).

Agents are the mode's roles. An observation is a dict: "observation", the
role's tensor (`rulelang show --observation`), and "action_mask", 1 for each
legal action id (none for an agent that is not to move). Chance is drawn
from the game's own RNG, so `reset(seed=N)` and the same actions play the
game `rulelang run --seed N` plays (`reset()` without a seed plays the next
seed). At the end every agent is rewarded its result (+1 win, -1 loss, 0
draw); a game cut short by the step limit or `max_moves` is truncated.

**What is simultaneous.** Rulelang decisions are sequential; hidden
information makes them simultaneous. Consecutive decisions of different
roles are one parallel step when none of them can tell what the ones
before it answered: whatever those answered (every combination is tried on
clones, chance drawn from the game's RNG), the next role decides with the
same observation and the same options. Each member of a step then answers
with the ids of its decision, one sub-decision per parallel step; the
answers are applied in the rules' order once all are in. A mode whose
decisions each show the last answer (all the bundled ones) steps one
agent at a time.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from rulelang import load_ruleset

from ..engine.game import DEFAULT_STEP_LIMIT, Game
from .driver import DEFAULT_MAX_MOVES, Driver, Episode

GROUP_TRIES = 1024  # combinations of earlier answers tried before a step stays one agent's


def aec_env(ruleset: str, mode: str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
            step_limit: int = DEFAULT_STEP_LIMIT, **params) -> "RulelangAEC":
    return RulelangAEC(_driver(ruleset, mode, max_moves, step_limit, params))


def parallel_env(ruleset: str, mode: str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                 step_limit: int = DEFAULT_STEP_LIMIT, **params) -> "RulelangParallel":
    return RulelangParallel(_driver(ruleset, mode, max_moves, step_limit, params))


def _driver(ruleset: str, mode, max_moves: int, step_limit: int, params: dict) -> Driver:
    texts = {k: ("true" if v else "false") if isinstance(v, bool) else str(v) for k, v in params.items()}
    return Driver(Game(load_ruleset(ruleset, texts), mode, step_limit=step_limit), max_moves)


class _Spaces:
    """What both environments share: the spaces, seeds and the dict observations."""

    def _setup(self, driver: Driver) -> None:
        self.driver = driver
        game = driver.game
        self.metadata = {"name": f"rulelang_{game.ruleset.name}_{game.mode.name}", "render_modes": ["ansi"],
                         "is_parallelizable": True}
        self.render_mode = None
        self.possible_agents = list(driver.roles)
        n, size = len(driver.actions), driver.encoding.size
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8)})
        self._action_space = spaces.Discrete(n)
        self._next_seed = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def _seed(self, seed: int | None) -> int:
        if seed is None:
            seed = self._next_seed
        self._next_seed = seed + 1
        return seed

    def _dict(self, ep: Episode, role: str, chosen: tuple[int, ...] = (), legal=()) -> dict:
        tensor = np.zeros(self.driver.encoding.size, np.float32)
        self.driver.encoding.encode(ep.st, role, chosen, tensor)
        mask = np.zeros(len(self.driver.actions), np.int8)
        mask[list(legal)] = 1
        return {"observation": tensor, "action_mask": mask}

    def _results(self, ep: Episode) -> dict[str, float]:
        return dict(zip(self.driver.roles, self.driver.returns(ep)))

    def render(self) -> str:
        return self.driver.observation_text(self.ep, None)

    def close(self) -> None:
        pass  # nothing is held open


class RulelangAEC(_Spaces, AECEnv):
    def __init__(self, driver: Driver):
        super().__init__()
        self._setup(driver)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.ep = self.driver.new(self._seed(seed))
        self.driver.resolve_chance(self.ep)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def observe(self, agent: str) -> dict:
        legal = self.driver.legal(self.ep) if agent == self.driver.current(self.ep) else ()
        chosen = self.ep.chosen if legal else ()
        return self._dict(self.ep, agent, chosen, legal)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._clear_rewards()
        self.driver.apply(self.ep, int(action))
        self.driver.resolve_chance(self.ep)
        self._after_move()
        self._accumulate_rewards()

    def _after_move(self) -> None:
        ep, driver = self.ep, self.driver
        if driver.is_over(ep):
            if ep.truncated:
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.rewards = {a: r for a, r in self._results(ep).items() if a in self.agents}
                self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"truncated": ep.truncated} if ep.truncated else {"outcome": driver.game.outcome(ep.st)}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = driver.current(ep)


@dataclass
class _Member:
    """One role's decision in a parallel step: the state it decides in, the ids it has given."""
    role: str
    ep: Episode
    chosen: tuple[int, ...] = ()


class RulelangParallel(_Spaces, ParallelEnv):
    def __init__(self, driver: Driver):
        self._setup(driver)

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.ep = self.driver.new(self._seed(seed))
        self.driver.resolve_chance(self.ep)
        self.agents = self.possible_agents[:]
        self._group()
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict):
        driver = self.driver
        for m in self.members:
            if len(m.chosen) < self._width(m):
                action = int(actions[m.role])
                if action not in driver.actions.legal(m.ep.answers, m.chosen):
                    raise ValueError(f"action {action} is not legal for {m.role}")
                m.chosen += (action,)
        if all(len(m.chosen) == self._width(m) for m in self.members):
            for m in self.members:  # in the rules' order: each finds the decision it answered waiting
                for a in m.chosen:
                    driver.apply(self.ep, a)
                driver.resolve_chance(self.ep)
            self._group()
        agents = self.agents
        rewards, terminations, truncations = dict.fromkeys(agents, 0.0), dict.fromkeys(agents, False), \
            dict.fromkeys(agents, False)
        infos = {a: {} for a in agents}
        if driver.is_over(self.ep):
            if self.ep.truncated:
                truncations = dict.fromkeys(agents, True)
            else:
                rewards, terminations = self._results(self.ep), dict.fromkeys(agents, True)
            infos = {a: {"truncated": self.ep.truncated} if self.ep.truncated
                     else {"outcome": driver.game.outcome(self.ep.st)} for a in agents}
        observations = self._observations()
        if driver.is_over(self.ep):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _width(self, m: _Member) -> int:
        return len(m.ep.answers[0])

    def _observations(self) -> dict:
        out = {}
        members = {m.role: m for m in self.members}
        for role in self.agents:
            m = members.get(role)
            if m is None or len(m.chosen) == self._width(m):
                out[role] = self._dict(self.ep, role)
            else:
                out[role] = self._dict(m.ep, role, m.chosen, self.driver.actions.legal(m.ep.answers, m.chosen))
        return out

    def _group(self) -> None:
        """The decisions of this parallel step: the pending one, and each
        following decision of another role that cannot tell what the earlier
        ones answered."""
        driver, ep = self.driver, self.ep
        if driver.is_over(ep):
            self.members = []
            return
        self.members = [_Member(driver.current(ep), ep.clone())]
        while True:
            combos = 1
            for m in self.members:
                combos *= len(m.ep.answers)
            if combos > GROUP_TRIES:
                return
            seen, joined = set(), None
            for answers in product(*(m.ep.answers for m in self.members)):
                e = ep.clone()
                for answer in answers:
                    for a in answer:
                        driver.apply(e, a)
                    driver.resolve_chance(e)
                role = driver.current(e)
                if role is None or any(m.role == role for m in self.members):
                    return
                seen.add((role, driver.observation_text(e, role), tuple(e.answers)))
                if len(seen) > 1:
                    return
                joined = joined or _Member(role, e)
            self.members.append(joined)
