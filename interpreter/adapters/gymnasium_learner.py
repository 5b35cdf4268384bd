"""Any ruleset and mode as a Gymnasium environment for one learning role;
the other roles are played by rulelang agents (`random` unless told).

    env = gymnasium_env("twenty-trials", role="challenger", mode="versus",
                        opponents={"trialmaster": "greedy"})
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(info["action_mask"].argmax())

An observation is the role's tensor (`rulelang show --observation`); the
legal action ids are `info["action_mask"]` (and `env.action_masks()`).
Chance is drawn from the game's own RNG and each opponent is the agent
`rulelang run` makes for that seed, so `reset(seed=N)` and the same actions
play the game `rulelang run --seed N` plays. The reward is the role's
result at the end (+1 win, -1 loss, 0 draw); a game that ends before the
role's first decision (others' luck) gives it on the first step, whatever
the action. Otherwise an illegal action ends the
episode at once, as a loss (-1, `info["illegal_action"]`); a game cut short
by the step limit or `max_moves` is truncated.
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from rulelang import load_ruleset

from ..agents import make_agent
from ..agents.asking import ask
from ..agents.base import PlayerView
from ..engine.game import DEFAULT_STEP_LIMIT, Game
from .driver import DEFAULT_MAX_MOVES, Driver


def gymnasium_env(ruleset: str, role: str | None = None, opponents: dict[str, str] | None = None,
                  mode: str | None = None, max_moves: int = DEFAULT_MAX_MOVES, step_limit: int = DEFAULT_STEP_LIMIT,
                  **params) -> "RulelangEnv":
    """`opponents` maps roles to agent specs (`"mcts:iterations=50"`); `role` defaults to the mode's first."""
    texts = {k: ("true" if v else "false") if isinstance(v, bool) else str(v) for k, v in params.items()}
    game = Game(load_ruleset(ruleset, texts), mode, step_limit=step_limit)
    return RulelangEnv(Driver(game, max_moves), role or game.roles[0], opponents or {})


class RulelangEnv(gymnasium.Env):
    def __init__(self, driver: Driver, role: str, opponents: dict[str, str]):
        if role not in driver.roles:
            raise ValueError(f"'{role}' is not a role of this mode (roles: {', '.join(driver.roles)})")
        unknown = set(opponents) - set(driver.roles) - {role}
        if unknown:
            raise ValueError(f"no role {', '.join(sorted(unknown))} to play (roles: {', '.join(driver.roles)})")
        self.driver, self.role = driver, role
        self.specs = {r: opponents.get(r, "random") for r in driver.roles if r != role}
        game = driver.game
        self.metadata = {"render_modes": ["ansi"], "name": f"rulelang_{game.ruleset.name}_{game.mode.name}"}
        self.render_mode = "ansi"
        self.observation_space = spaces.Box(-np.inf, np.inf, (driver.encoding.size,), np.float32)
        self.action_space = spaces.Discrete(len(driver.actions))
        self._next_seed = None

    def reset(self, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is None:  # the next seed, or one from Gymnasium's generator on the first reset
            seed = self._next_seed if self._next_seed is not None else int(self.np_random.integers(2 ** 31))
        self._next_seed = seed + 1
        self.agents = {r: make_agent(spec, seed, r) for r, spec in self.specs.items()}
        self.ep = self.driver.new(seed)
        self._play_others()
        return self._observation(), self._info()

    def step(self, action):
        driver, ep = self.driver, self.ep
        action = int(action)
        if driver.is_over(ep):  # it ended before the learner's first decision: the result, whatever the action
            pass
        elif action not in driver.legal(ep):
            return self._observation(), -1.0, True, False, {**self._info(), "illegal_action": True}
        else:
            driver.apply(ep, action)
            self._play_others()
        over = driver.is_over(ep)
        reward = dict(zip(driver.roles, driver.returns(ep)))[self.role] if over and not ep.truncated else 0.0
        return self._observation(), reward, over and not ep.truncated, ep.truncated is not None, self._info()

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(len(self.driver.actions), np.int8)
        if self.driver.current(self.ep) == self.role:
            mask[self.driver.legal(self.ep)] = 1
        return mask

    def render(self) -> str:
        return self.driver.observation_text(self.ep, self.role)

    def _play_others(self) -> None:
        """Chance and the other roles' decisions, up to the learner's decision or the end."""
        driver, ep, game = self.driver, self.ep, self.driver.game
        while not driver.is_over(ep):
            driver.resolve_chance(ep)
            role = driver.current(ep)
            if role is None or role == self.role:
                return
            index = ask(self.agents[role], PlayerView(game, driver.viewer, ep.st))
            for a in ep.answers[index]:
                driver.apply(ep, a)

    def _observation(self) -> np.ndarray:
        tensor = np.zeros(self.driver.encoding.size, np.float32)
        self.driver.tensor(self.ep, self.role, tensor)
        return tensor

    def _info(self) -> dict:
        info = {"action_mask": self.action_masks()}
        if self.driver.is_over(self.ep):
            info["outcome"] = self.driver.game.outcome(self.ep.st)
            if self.ep.truncated:
                info["truncated"] = self.ep.truncated
        return info
