"""Any ruleset and mode as a registered OpenSpiel game.

    game = load_game("twenty-trials", "versus", trial_modifiers=True)
    pyspiel.load_game("rulelang_twenty_trials_versus(trial_modifiers=True)")   # once registered

Players are the mode's roles, in order. Every shuffle step, die and random
pick is an explicit chance node with its outcomes and probabilities;
`state.sample_chance()` gives the outcome the game's own RNG would draw
(parameter `seed`), which plays the game `rulelang run --seed N` plays.
Information is imperfect where the mode can hide a card. Strings: the
observation is the role's view (JSON); the information state is its record
of every decision (what it saw at its own, the labels of the others', what
it chose). Tensors: the observation (`rulelang show --observation`); no
information-state tensor, since a perfect-recall record of a game with no
bound on its length has no fixed size. `resample_from_infostate` deals the
cards the player cannot see again with the project's sampler.

A game that runs past the step limit (a runaway rule) or past `max_moves`
ends there, as a draw for every player (OpenSpiel has no truncation).
"""
from __future__ import annotations

import json
import re

import numpy as np
import pyspiel

from rulelang import find_ruleset, ir, load_ruleset
from rulelang.types import BOOL, INT

from ..agents.sampling import Sampler
from ..engine.game import DEFAULT_STEP_LIMIT, Game
from ..engine.view import Viewer
from ..runtime.chance import CHANCE
from .domains import Domains, rule_nodes, span_key
from .driver import DEFAULT_MAX_MOVES, Driver, Episode

_REGISTERED: dict[str, type] = {}  # short name -> its game class (which names the ruleset it plays)


def load_game(ruleset: str, mode: str | None = None, **params) -> pyspiel.Game:
    """A ruleset (bundled name or path) and mode as an OpenSpiel game; `params`
    are the ruleset's parameters, and `seed` (0), `max_moves` and `step_limit`."""
    source = str(find_ruleset(ruleset))
    rs = load_ruleset(source)
    mode = mode or rs.default_mode
    name = _register(source, rs, mode)
    return pyspiel.load_game(name, params)


def _register(source: str, rs: ir.Ruleset, mode: str) -> str:
    name = "rulelang_" + re.sub(r"\W", "_", f"{rs.name}_{mode}")
    if name in _REGISTERED and _REGISTERED[name].SOURCE != source:  # another file under the same game name
        name += "_" + rs.source_hash[:8]
    if name in _REGISTERED:
        return name
    game = Game(rs, mode)  # a mode that does not exist is refused here, by name
    spec = {p.name: _spiel_value(p, p.default) for p in rs.params.values()}
    spec.update(seed=0, max_moves=DEFAULT_MAX_MOVES, step_limit=DEFAULT_STEP_LIMIT)
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"{rs.title}: {rs.modes[mode].title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION if hides(game)
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=16, min_num_players=1,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spec)
    # a class, not a closure: OpenSpiel keeps what it is given past the interpreter's exit, and a
    # function freed then aborts the process
    cls = type(name, (RulelangGame,), {"TYPE": game_type, "SOURCE": source, "MODE": mode})
    pyspiel.register_game(game_type, cls)
    _REGISTERED[name] = cls
    return name


def _spiel_value(p: ir.ParamDef, value):
    """A parameter's value as OpenSpiel holds it: bool, int or str."""
    return bool(value) if p.type == BOOL else int(value) if p.type == INT else str(value)


class RulelangGame(pyspiel.Game):
    """One ruleset and mode (a subclass per registered name says which)."""
    TYPE: pyspiel.GameType
    SOURCE: str
    MODE: str

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        seed, max_moves, step_limit = params.pop("seed", 0), params.pop("max_moves", DEFAULT_MAX_MOVES), \
            params.pop("step_limit", DEFAULT_STEP_LIMIT)
        texts = {k: ("true" if v else "false") if isinstance(v, bool) else str(v) for k, v in params.items()}
        rs = load_ruleset(self.SOURCE, texts)
        game = Game(rs, self.MODE, step_limit=step_limit, explicit_chance=True)
        self.driver = Driver(game, max_moves, record=True)
        self.sampler = Sampler(game, self.driver.viewer)
        self.seed = seed
        info = pyspiel.GameInfo(num_distinct_actions=len(self.driver.actions),
                                max_chance_outcomes=max_chance_outcomes(game), num_players=len(game.roles),
                                min_utility=-1.0, max_utility=1.0, utility_sum=None, max_game_length=max_moves)
        super().__init__(self.TYPE, info, {**params, "seed": seed, "max_moves": max_moves, "step_limit": step_limit})

    def new_initial_state(self, episode: Episode | None = None) -> "RulelangState":
        return RulelangState(self, episode)

    def make_py_observer(self, iig_obs_type=None, params=None):
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.driver, recall)


class RulelangState(pyspiel.State):
    def __init__(self, game: RulelangGame, episode: Episode | None = None):
        super().__init__(game)
        self._driver = _Shared(game.driver, game.sampler)
        self._ep = episode if episode is not None else game.driver.new(game.seed)

    # ------------------------------------------------------------ OpenSpiel's state API
    def current_player(self) -> int:
        role = self._driver.driver.current(self._ep)
        if role is None:
            return pyspiel.PlayerId.TERMINAL
        if role == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return self._driver.driver.roles.index(role)

    def _legal_actions(self, player: int) -> list[int]:
        return self._driver.driver.legal(self._ep)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._driver.driver.chance(self._ep).outcomes

    def _apply_action(self, action: int) -> None:
        driver = self._driver.driver
        if driver.chance(self._ep) is not None:
            driver.apply_chance(self._ep, action)
        else:
            driver.apply(self._ep, action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return self._driver.driver.actions.actions[action].text

    def is_terminal(self) -> bool:
        return self._driver.driver.is_over(self._ep)

    def returns(self) -> list[float]:
        return self._driver.driver.returns(self._ep) if self.is_terminal() else [0.0] * self.num_players()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "RulelangState":
        """A state the player cannot tell from this one: the cards it cannot see
        dealt again (agents/sampling.py), the RNG seeded afresh."""
        driver, ep = self._driver.driver, self._ep
        if driver.game.decision(ep.st) is None:
            raise ValueError("resample_from_infostate needs a decision pending (not a chance node or the end)")
        seed = int(probability_sampler() * 2 ** 31)
        sample = self._driver.sampler.sample(ep.st, driver.roles[player_id], seed)
        twin = Episode(sample, ep.chosen, ep.moves, ep.truncated,
                       {r: list(h) for r, h in ep.records.items()},
                       driver.actions.answers(driver.game.decision(sample), sample))
        return self.get_game().new_initial_state(twin)

    def __str__(self) -> str:
        ep = self._ep
        return json.dumps({"state": ep.st.to_json(), "chosen": ep.chosen, "truncated": ep.truncated},
                          sort_keys=True, default=str)

    # ------------------------------------------------------------ beyond OpenSpiel's API
    def sample_chance(self) -> int:
        """The outcome the game's own RNG gives this chance node (as `rulelang run --seed` draws it)."""
        return self._driver.driver.sample_chance(self._ep)

    def option_actions(self, index: int) -> tuple[int, ...]:
        """The action ids that answer the pending decision with its option `index` (rulelang's numbering)."""
        return self._ep.answers[index]

    @property
    def episode(self) -> Episode:
        return self._ep


class _Shared:
    """What every state of one game shares; never copied when OpenSpiel clones a state."""

    def __init__(self, driver: Driver, sampler: Sampler):
        self.driver, self.sampler = driver, sampler

    def __deepcopy__(self, memo) -> "_Shared":
        return self


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
        if not self.recall:
            self.tensor.fill(0)
            self.driver.tensor(state.episode, self.driver.roles[player], self.tensor)

    def string_from(self, state: RulelangState, player: int) -> str:
        role = self.driver.roles[player]
        if self.recall:
            return self.driver.information_text(state.episode, role)
        return self.driver.observation_text(state.episode, role)


def hides(game: Game) -> bool:
    """Whether the mode can hide a card from a role: an owner's zone another
    role plays beside, a zone no one sees, or face-down cards in a zone all see."""
    rs, viewer = game.ruleset, Viewer(game)
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
