"""Any ruleset and mode as a Gymnasium environment for one learning role;
the other roles are played by rulelang agents (`random` unless told).

    env = gymnasium_env("twenty-trials", role="challenger", mode="versus",
                        opponents={"trialmaster": "greedy"})
    env = gymnasium.make("rulelang/twenty-trials-v0", role="challenger", mode="versus")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(info["action_mask"].argmax())

Importing this module registers every bundled ruleset with Gymnasium
(`rulelang/NAME-v0`), and `rulelang/Ruleset-v0`, which takes any ruleset
file (`ruleset="my-game.yaml"`); `gymnasium.make("interpreter.adapters.
gymnasium_learner:rulelang/pig-race-v0")` imports it on the way.

An observation is the role's tensor (`rulelang show --observation`); the
legal action ids are `info["action_mask"]` (and `env.action_masks()`).
Chance is drawn from the game's own RNG and each opponent is the agent
`rulelang run` makes for that seed, so `reset(seed=N)` and the same actions
play the game `rulelang run --seed N` plays. The reward is the role's
result at the end (+1 win, -1 loss, 0 draw); a game that ends before the
role's first decision (others' luck) gives it on the first step, whatever
the action. An action the mask does not allow ends the episode as the
learner's forfeit (returns.py: -1, `info["illegal_action"]`), as in the
PettingZoo and OpenSpiel adapters; a game cut short by the step limit or
`max_moves` is truncated. `render_mode="ansi"` renders the learner's view
as text. The environment pickles (the game in play kept; its ruleset is
loaded and compiled again).
"""
from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from rulelang.files import bundled_names

from ..agents import make_agent
from ..agents.asking import ask
from ..agents.base import PlayerView
from ..engine.game import DEFAULT_STEP_LIMIT
from .driver import DEFAULT_MAX_MOVES, Made


def gymnasium_env(ruleset: str, role: str | None = None, opponents: dict[str, str] | None = None,
                  mode: str | None = None, max_moves: int = DEFAULT_MAX_MOVES, step_limit: int = DEFAULT_STEP_LIMIT,
                  render_mode: str | None = None, **params) -> "RulelangEnv":
    """`opponents` maps roles to agent specs (`"mcts:iterations=50"`); `role` defaults to the mode's first."""
    return RulelangEnv(Made(ruleset, mode, max_moves, step_limit, params), role, opponents or {}, render_mode)


class RulelangEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, made: Made, role: str | None, opponents: dict[str, str], render_mode: str | None = None):
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: rulelang's environments render text (\"ansi\") or nothing")
        self.made, self.driver = made, made.driver()
        driver = self.driver
        role = role or driver.roles[0]
        if role not in driver.roles:
            raise ValueError(f"'{role}' is not a role of this mode (roles: {', '.join(driver.roles)})")
        unknown = set(opponents) - set(driver.roles) - {role}
        if unknown:
            raise ValueError(f"no role {', '.join(sorted(unknown))} to play (roles: {', '.join(driver.roles)})")
        self.role = role
        self.specs = {r: opponents.get(r, "random") for r in driver.roles if r != role}
        game = driver.game
        self.metadata = {"render_modes": ["ansi"], "name": f"rulelang_{game.ruleset.name}_{game.mode.name}"}
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, (driver.encoding.size,), np.float32)
        self.action_space = spaces.Discrete(len(driver.actions))
        self._next_seed = None
        self.seed_played = None

    def reset(self, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is None:  # the next seed, or one from Gymnasium's generator on the first reset
            seed = self._next_seed if self._next_seed is not None else int(self.np_random.integers(2 ** 31))
        self._next_seed, self.seed_played = seed + 1, seed
        self.agents = self._agents(seed)
        self.ep = self.driver.new(seed)
        self._play_others()
        return self._observation(), self._info()

    def step(self, action):
        driver, ep = self.driver, self.ep
        if not driver.is_over(ep):  # over before the learner's first decision: the result, whatever the action
            if driver.play(ep, action, self.role):  # an illegal action is the learner's forfeit
                self._play_others()
        over = driver.is_over(ep)
        reward = dict(zip(driver.roles, driver.returns(ep)))[self.role] if over and not ep.truncated else 0.0
        return self._observation(), reward, over and not ep.truncated, ep.truncated is not None, self._info()

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(len(self.driver.actions), np.int8)
        if self.driver.current(self.ep) == self.role:
            mask[self.driver.legal(self.ep)] = 1
        return mask

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.driver.observation_text(self.ep, self.role)

    def _agents(self, seed: int) -> dict:
        return {r: make_agent(spec, seed, r) for r, spec in self.specs.items()}

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
            info.update(self.driver.ending(self.ep))
        return info

    # pickling: the compiled game and the agents are made again (agents derive every answer from the seed)
    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("driver", "agents")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.driver = self.made.driver()
        if self.seed_played is not None:
            self.agents = self._agents(self.seed_played)


def make(ruleset: str, **kwargs) -> RulelangEnv:
    """The entry point Gymnasium's registry calls (`gymnasium.make`)."""
    return gymnasium_env(ruleset, **kwargs)


def _register() -> None:
    """Every bundled ruleset as `rulelang/NAME-v0`, and `rulelang/Ruleset-v0` for a file of one's own."""
    for name in bundled_names():
        if f"rulelang/{name}-v0" not in gymnasium.registry:
            gymnasium.register(f"rulelang/{name}-v0", entry_point=f"{__name__}:make", kwargs={"ruleset": name})
    if "rulelang/Ruleset-v0" not in gymnasium.registry:
        gymnasium.register("rulelang/Ruleset-v0", entry_point=f"{__name__}:make")


_register()
