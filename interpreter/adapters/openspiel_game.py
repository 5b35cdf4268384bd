"""Any ruleset and mode as an OpenSpiel game: the game `rulelang`, registered
when this module is imported.

    game = load_game("twenty-trials", "versus", trial_modifiers=True)
    pyspiel.load_game("rulelang(ruleset=twenty-trials,mode=versus,params=set(trial_modifiers=True))")

`ruleset` is a bundled ruleset's name or a file's path; `mode` the mode (the
ruleset's first if left out); `params=set(...)` the ruleset's parameters;
`seed` (0), `max_moves` and `step_limit` as below. A game's string names
all of this, so it loads again — `pyspiel.load_game(str(game))`,
`pyspiel.deserialize_game_and_state`, `pickle` — in any process that has
imported this module (`import interpreter.adapters.openspiel_game`).

Players are the mode's roles, in order. Every shuffle step, die and random
pick is an explicit chance node with its outcomes and probabilities;
`state.sample_chance()` gives the outcome the game's own RNG would draw
(parameter `seed`), which plays the game `rulelang run --seed N` plays.
A re-roll written as a loop (`roll d6 into die`, then `while die <= 2:`
rolling again) is one chance node over the faces it keeps (rerolls.py), so
a search that takes the first outcome ends. Information is imperfect where
the mode can hide a card; the utility is
zero-sum where every end of the mode sums to zero (returns.py), else
general-sum. Strings: the observation is the role's view (JSON); the
information state is its record of every decision (what it saw at its own,
the labels of the others', what it chose). Tensors: the observation
(`rulelang show --observation`). There is no information-state tensor: a
perfect-recall record of a game with no bound on its length has no fixed
size, and asking for one is an error that says so. `resample_from_infostate`
deals the cards the player cannot see again with the project's sampler.

A game that runs past the step limit (a runaway rule) or past `max_moves`
ends there, as a draw for every player (OpenSpiel has no truncation). An
illegal action ends it as the mover's forfeit (returns.py).

A state's Python attributes are its episode alone (plain data, pickled when
OpenSpiel serialises a state); the compiled game is the game's, found
through `get_game()`.
"""
from __future__ import annotations

import json
import re

import numpy as np
import pyspiel

from rulelang import find_ruleset, ir, load_ruleset

from ..agents.sampling import Sampler
from ..engine.game import DEFAULT_STEP_LIMIT, Game
from ..engine.view import Viewer
from ..runtime.chance import CHANCE
from .domains import Domains, rule_nodes, span_key
from .driver import DEFAULT_MAX_MOVES, Driver, Episode, kept_driver
from .rerolls import collapsed

NAME = "rulelang"
SETTINGS = "set"  # the nested game string of the ruleset's parameters: params=set(trial_modifiers=True)
DEFAULTS = {"ruleset": "kuhn-poker", "mode": "", "params": {"name": SETTINGS}, "seed": 0,
            "max_moves": DEFAULT_MAX_MOVES, "step_limit": DEFAULT_STEP_LIMIT}
_UNSAFE = re.compile(r"[(),=]")  # what OpenSpiel's game strings cannot hold in a value


def _game_type(long_name: str, information, utility) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=NAME, long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information, utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=16, min_num_players=1,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=DEFAULTS)


def load_game(ruleset: str, mode: str | None = None, **params) -> pyspiel.Game:
    """A ruleset (bundled name or path) and mode as an OpenSpiel game; `params`
    are the ruleset's parameters, and `seed` (0), `max_moves` and `step_limit`."""
    own = {k: params.pop(k) for k in ("seed", "max_moves", "step_limit") if k in params}
    ref = ruleset if "/" not in ruleset and "\\" not in ruleset else str(find_ruleset(ruleset).resolve())
    for what, text in [("the ruleset's name", ref), ("the mode", mode or ""),
                       *((f"parameter {k}", f"{k}={v}") for k, v in params.items())]:
        if _UNSAFE.search(text.partition("=")[2] if what.startswith("parameter") else text):
            raise ValueError(f"{what} {text!r} holds one of ( ) , = which an OpenSpiel game string cannot")
    settings = {"name": SETTINGS, **{k: _spiel_value(v) for k, v in params.items()}}
    return pyspiel.load_game(NAME, {"ruleset": ref, "mode": mode or "", "params": settings, **own})


def _spiel_value(value):
    """A parameter's value as OpenSpiel holds it: bool, int, float or str."""
    return value if isinstance(value, (bool, int, float)) else str(value)


def _texts(settings: dict) -> dict[str, str]:
    """The ruleset's parameters as the loader reads them, from OpenSpiel's values."""
    return {k: ("true" if v else "false") if isinstance(v, bool) else str(v) for k, v in settings.items()
            if k != "name"}


def _driver(ref: str, texts: dict, mode: str | None, step_limit: int, max_moves: int) -> Driver:
    """A game string loaded again (as deserialising each state does) is neither read nor compiled again
    while its files are unchanged (driver.kept_driver)."""
    def make() -> Driver:
        rs, kept = collapsed(load_ruleset(ref, texts))  # a re-roll loop: one chance node, not one per roll
        return Driver(Game(rs, mode, step_limit=step_limit, explicit_chance=True, cached=True), max_moves, True, kept)
    return kept_driver(("openspiel", ref, tuple(sorted(texts.items())), mode, step_limit, max_moves), make)


class RulelangGame(pyspiel.Game):
    """One ruleset and mode, as its parameters name them."""

    def __init__(self, params: dict | None = None):
        params = {**DEFAULTS, **(params or {})}
        settings = dict(params["params"])
        self.driver = _driver(params["ruleset"], _texts(settings), params["mode"] or None, params["step_limit"],
                              params["max_moves"])
        game = self.driver.game
        rs = game.ruleset
        self.sampler = Sampler(game, self.driver.viewer)
        self.seed = params["seed"]
        zero = self.driver.zero_sum
        game_type = _game_type(f"{rs.title}: {game.mode.title}",
                               pyspiel.GameType.Information.IMPERFECT_INFORMATION if hides(game)
                               else pyspiel.GameType.Information.PERFECT_INFORMATION,
                               pyspiel.GameType.Utility.ZERO_SUM if zero else pyspiel.GameType.Utility.GENERAL_SUM)
        info = pyspiel.GameInfo(num_distinct_actions=len(self.driver.actions),
                                max_chance_outcomes=max_chance_outcomes(game), num_players=len(game.roles),
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0 if zero else None,
                                max_game_length=params["max_moves"])
        params["mode"] = game.mode.name
        params["params"] = {"name": SETTINGS, **{k: v for k, v in settings.items() if k != "name"}}
        super().__init__(game_type, info, params)

    def new_initial_state(self, episode: Episode | None = None) -> "RulelangState":
        return RulelangState(self, episode)

    def make_py_observer(self, iig_obs_type=None, params=None):
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.driver, recall)


class RulelangState(pyspiel.State):
    def __init__(self, game: RulelangGame, episode: Episode | None = None):
        super().__init__(game)
        self._ep = episode if episode is not None else game.driver.new(game.seed)

    @property
    def _driver(self) -> Driver:
        return self.get_game().driver

    # ------------------------------------------------------------ OpenSpiel's state API
    def current_player(self) -> int:
        driver = self._driver
        role = driver.current(self._ep)
        if role is None:
            return pyspiel.PlayerId.TERMINAL
        if role == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return driver.roles.index(role)

    def _legal_actions(self, player: int) -> list[int]:
        return self._driver.legal(self._ep)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._driver.chance(self._ep).outcomes

    def _apply_action(self, action: int) -> None:
        driver = self._driver
        if driver.chance(self._ep) is not None:
            driver.apply_chance(self._ep, action)
        else:
            driver.play(self._ep, action)  # an illegal action is a forfeit (returns.py)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        actions = self._driver.actions.actions
        return actions[action].text if 0 <= action < len(actions) else f"action {action} (no such action)"

    def is_terminal(self) -> bool:
        return self._driver.is_over(self._ep)

    def returns(self) -> list[float]:
        return self._driver.returns(self._ep) if self.is_terminal() else [0.0] * self.num_players()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "RulelangState":
        """A state the player cannot tell from this one: the cards it cannot see
        dealt again (agents/sampling.py), the RNG seeded afresh."""
        game = self.get_game()
        driver, ep = game.driver, self._ep
        if driver.game.decision(ep.st) is None:
            raise ValueError("resample_from_infostate needs a decision pending (not a chance node or the end)")
        seed = int(probability_sampler() * 2 ** 31)
        sample = game.sampler.sample(ep.st, driver.roles[player_id], seed)
        twin = Episode(sample, ep.chosen, ep.moves, ep.truncated,
                       {r: list(h) for r, h in ep.records.items()},
                       driver.actions.answers(driver.game.decision(sample), sample))
        return game.new_initial_state(twin)

    def __str__(self) -> str:
        ep = self._ep
        return json.dumps([ep.st.to_json(), ep.chosen, ep.truncated, ep.forfeit], separators=(",", ":"),
                          default=str)

    # ------------------------------------------------------------ beyond OpenSpiel's API
    def sample_chance(self) -> int:
        """The outcome the game's own RNG gives this chance node (as `rulelang run --seed` draws it)."""
        return self._driver.sample_chance(self._ep)

    def option_actions(self, index: int) -> tuple[int, ...]:
        """The action ids that answer the pending decision with its option `index` (rulelang's numbering)."""
        return self._ep.answers[index]

    @property
    def episode(self) -> Episode:
        return self._ep


class Observer:
    """OpenSpiel's observer: the observation tensor and string, or (perfect
    recall) the information-state string."""

    def __init__(self, driver: Driver, recall: bool):
        self.driver, self.recall = driver, recall
        encoding = driver.encoding
        self.tensor = np.zeros(0 if recall else encoding.size, np.float32)
        self.dict = {} if recall else {s.name: self.tensor[s.offset:s.offset + s.size].reshape(s.shape)
                                       for s in encoding.sections}

    def set_from(self, state: RulelangState, player: int) -> None:
        if self.recall:
            raise pyspiel.SpielError(
                "rulelang games have no information-state tensor: a player's whole record of a game with no "
                "bound on its length has no fixed size. Use information_state_string, or observation_tensor "
                "(what the player sees now)")
        self.tensor.fill(0)
        self.driver.tensor(state.episode, self.driver.roles[player], self.tensor)

    def string_from(self, state: RulelangState, player: int) -> str:
        role = self.driver.roles[player]
        if self.recall:
            return self.driver.information_text(state.episode, role)
        return self.driver.observation_text(state.episode, role)


def hides(game: Game) -> bool:
    """Whether the mode can hide something from a role: an owner's zone another
    role plays beside, a zone no one sees, face-down cards in a zone all see,
    a variable not everyone sees, or a reveal or announcement to one player."""
    rs, viewer = game.ruleset, Viewer(game)
    if any(v.seen_by != "all" for v in rs.vars.values()) or any(
            s.to is not None for kind in (ir.Reveal, ir.Announce) for s in rule_nodes(rs, kind).values()):
        return True
    flips = bool(rule_nodes(rs, ir.Flip))
    for zi, (name, owner) in enumerate(game.layout.instances[1:], 1):
        seen = viewer.seen_by[zi]
        if seen == "none" or seen == "owner" and any(r != owner for r in game.roles):
            return True
        if seen == "all" and (rs.zones[name].facing == "down" or flips):
            return True
    return False


def max_chance_outcomes(game: Game) -> int:
    """The most outcomes one chance node can have: a shuffle step of the
    whole deck, a die's faces, a random pick's bindings."""
    rs = game.ruleset
    domains, takes = Domains(rs), rule_nodes(rs, ir.Take)
    most = 1
    for site in game.rules.chance_sites:
        if site.kind == "shuffle":
            n = len(rs.cards)
        elif site.kind == "roll":
            n = len(site.faces)
        else:
            binder = takes[span_key(site.span)].binder
            n = domains.count(binder, domains.slots(binder, f"random pick at {site.at}"))
        most = max(most, n)
    return most


# registered once, when the module is imported: a game string names a ruleset, not a class made for it
pyspiel.register_game(_game_type("rulelang: a ruleset and mode", pyspiel.GameType.Information.IMPERFECT_INFORMATION,
                                 pyspiel.GameType.Utility.GENERAL_SUM), RulelangGame)
