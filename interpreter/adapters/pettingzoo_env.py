"""Any ruleset and mode as PettingZoo environments: `aec_env` (turn by turn,
behind PettingZoo's order-enforcing wrapper: `step` before `reset` is its
clear error, not an AttributeError) and `parallel_env` (simultaneous
decisions as one step).

Agents are the mode's roles. An observation is a dict: "observation", the
role's tensor (`rulelang show --observation`), and "action_mask", 1 for each
legal action id (none for an agent that is not to move). Chance is drawn
from the game's own RNG, so `reset(seed=N)` and the same actions play the
game `rulelang run --seed N` plays (`reset()` without a seed plays the next
seed). At the end every agent is rewarded its result (+1 win, -1 loss, 0
draw); a game cut short by the step limit or `max_moves` is truncated. An
action the mask does not allow ends the game as its agent's forfeit
(returns.py: -1 for it, `infos[agent]["illegal_action"]`), as PettingZoo's
classic games do; in a parallel step, the actions of agents not deciding
are ignored. `render_mode="ansi"`: `render()` gives the text of what a
spectator sees. The environments pickle (their ruleset is loaded and
compiled again, the game in play kept).

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
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ..engine.game import DEFAULT_STEP_LIMIT
from .driver import DEFAULT_MAX_MOVES, Episode, Made

GROUP_TRIES = 1024  # combinations of earlier answers tried before a step stays one agent's


def aec_env(ruleset: str, mode: str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
            step_limit: int = DEFAULT_STEP_LIMIT, render_mode: str | None = None, **params) -> AECEnv:
    return OrderEnforcingWrapper(RulelangAEC(Made(ruleset, mode, max_moves, step_limit, params), render_mode))


def parallel_env(ruleset: str, mode: str | None = None, max_moves: int = DEFAULT_MAX_MOVES,
                 step_limit: int = DEFAULT_STEP_LIMIT, render_mode: str | None = None,
                 **params) -> "RulelangParallel":
    return RulelangParallel(Made(ruleset, mode, max_moves, step_limit, params), render_mode)


class _Spaces:
    """What both environments share: the spaces, seeds, the dict observations, rendering and pickling."""

    def _setup(self, made: Made, render_mode: str | None) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: rulelang's environments render text (\"ansi\") or nothing")
        self.made = made
        self.driver = driver = made.driver()
        game = driver.game
        self.metadata = {"name": f"rulelang_{game.ruleset.name}_{game.mode.name}", "render_modes": ["ansi"],
                         "is_parallelizable": True}
        self.render_mode = render_mode
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

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.driver.observation_text(self.ep, None)

    def close(self) -> None:
        pass  # nothing is held open

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "driver"}  # the compiled game is made again

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.driver = self.made.driver()


class RulelangAEC(_Spaces, AECEnv):
    def __init__(self, made: Made, render_mode: str | None = None):
        super().__init__()
        self._setup(made, render_mode)

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
        if self.driver.play(self.ep, action, agent):  # an illegal action is the agent's forfeit
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
            ending = driver.ending(ep)
            for a in self.agents:
                self.infos[a] = dict(ending)
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
    def __init__(self, made: Made, render_mode: str | None = None):
        self._setup(made, render_mode)

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
                if m.role not in actions:
                    raise ValueError(f"no action for {m.role}, whose decision this step is")
                try:
                    action = int(actions[m.role])
                except (TypeError, ValueError, OverflowError):
                    action = None
                if action not in driver.actions.legal(m.ep.answers, m.chosen):
                    self.ep.forfeit = m.role  # an illegal action: the agent's forfeit (returns.py)
                    break
                m.chosen += (action,)
        if self.ep.forfeit is None and all(len(m.chosen) == self._width(m) for m in self.members):
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
            infos = {a: driver.ending(self.ep) for a in agents}
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
        if driver.is_over(ep) or ep.forfeit is not None:
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
