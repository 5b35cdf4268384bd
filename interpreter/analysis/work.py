"""Chunks of games, and how a worker plays them.

Simulations and sweeps are cut into chunks: one configuration and a run of
consecutive seeds. A `Setup` is all a worker needs to play a configuration —
the ruleset's IR with its parameters set, the mode, the agents, the limits —
and it pickles (the IR is plain frozen data), so a worker in another process,
or on another machine, compiles it and plays exactly the games `rulelang run
--seed` plays here. Each process keeps the games it compiled, so a
configuration is compiled once per worker, not once per chunk; a worker
forked after the parent compiled a game (`prepare`) inherits it.
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from rulelang import ir
from rulelang.errors import Diagnostic, RulesetError
from rulelang.records import record

from ..agents.asking import AgentError
from ..agents.match import play
from ..agents.registry import PLUGINS, agent_maker, answers_maker, load_plugin
from ..compiler.options import ALL, CompileOptions
from ..engine.game import DEFAULT_STEP_LIMIT, Game
from ..engine.view import Viewer
from ..runtime.errors import RuleError

if TYPE_CHECKING:  # (a scenario is read, with YAML, only when a command names one)
    from ..engine.scenarios import Scenario


@record
class Chunk:
    """Games seeds start..start+count-1 of configuration `config`."""
    config: int
    start: int
    count: int

    @property
    def seeds(self) -> range:
        return range(self.start, self.start + self.count)

    def describe(self) -> str:
        return f"seeds {self.start}..{self.start + self.count - 1}"


@record
class Setup:
    ruleset: ir.Ruleset
    mode: str
    kinds: tuple[tuple[str, str], ...]  # (role, agent spec), in the mode's order of roles
    label: str = ""  # how errors name the configuration ("" for a plain simulation)
    step_limit: int = DEFAULT_STEP_LIMIT
    passes: CompileOptions = ALL
    check_invariants: bool = False
    timeout: float | None = None  # seconds an agent has for each decision
    plugins: tuple[str, ...] = ()  # files of agents (--agents-from), run again in a fresh worker
    explicit_chance: bool = False  # Game(explicit_chance=...): a worker's game rolls as the parent's does
    scenario: Scenario | None = None  # every game starts from the position it sets up
    cached: bool = False  # Game(cached=...): a worker's compiled rules from the cache of compiled modes too

    @classmethod
    def of(cls, game: Game, kinds: dict[str, str], timeout: float | None = None, label: str = "",
           scenario: Scenario | None = None) -> "Setup":
        return cls(game.ruleset, game.mode.name, tuple(kinds.items()), label, game.step_limit, game.passes,
                   game.check_invariants, timeout, tuple(PLUGINS), game.explicit_chance, scenario, game.cached)

    @property
    def key(self) -> str:
        """Names the games a setup plays: what a worker's cache of compiled games is keyed by."""
        r = self.ruleset
        text = repr((r.source_hash, sorted(r.param_values.items()), self.mode, self.kinds, self.step_limit,
                     str(self.passes), self.check_invariants, self.timeout, self.plugins, self.explicit_chance,
                     self.scenario.hash if self.scenario is not None else None))
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    def game(self) -> Game:
        return Game(self.ruleset, self.mode, self.step_limit, check_invariants=self.check_invariants,
                    explicit_chance=self.explicit_chance, passes=self.passes, cached=self.cached)


@record
class Failure:
    """The rules failed in a worker — while a game ran (`seed`) or while the
    configuration compiled — as plain data: it travels back by pickle."""
    diagnostics: tuple[Diagnostic, ...]
    seed: int | None = None

    def error(self, label: str = "") -> Exception:
        """The exception to raise in the parent: a RuleError or a RulesetError."""
        if self.seed is None:
            return RulesetError(list(self.diagnostics))
        d = self.diagnostics[0]
        where = f" of {label}" if label else ""
        return RuleError(d.span, f"{d.message} (in the game with seed {self.seed}{where})", d.hint)


class Player:
    """Plays the games of one setup, one seed at a time."""

    def __init__(self, setup: Setup, game: Game):
        self.setup, self.game, self.viewer = setup, game, Viewer(game)
        self.makers = [(role, agent_maker(kind)) for role, kind in setup.kinds]  # each spec read once
        # a scenario is checked against the game once; each game starts from its placement
        self.placement = setup.scenario.placed(game) if setup.scenario is not None else None
        # agents that never look at the game (the random agent, the first): only their quick answers are made,
        # and the game plays itself to its end in `new_state`, as `play` would have it (nothing to watch)
        answers = [(role, make) for role, kind in setup.kinds if (make := answers_maker(kind)) is not None]
        self.answers = answers if self.placement is None and len(answers) == len(setup.kinds) else None

    def play(self, seed: int):
        """The game's outcome, `{"error": ...}` if an agent failed, or a Failure if the rules broke."""
        state = None
        if self.answers is not None:
            try:
                state = self.game.new_state(seed, {role: make(seed, role) for role, make in self.answers}, False)
            except RuleError as error:
                return Failure((error.diagnostic,), seed)
            if state.outcome is not None:
                return state.outcome
            # (stopped by a chance event, or a decision no agent answers: played on as `play` plays it)
        agents = {role: make(seed, role) for role, make in self.makers}
        try:
            if self.placement is not None:
                state = self.placement.start(seed)
            return play(self.game, seed, agents, state=state, viewer=self.viewer,
                        timeout=self.setup.timeout, history=False).outcome
        except AgentError as error:
            return {"error": str(error)}
        except RuleError as error:
            return Failure((error.diagnostic,), seed)


# compiled games, by Setup.key (and by thread off the main thread: a Dask
# worker may run chunks in several threads, and a game's viewer is not shared)
_players: OrderedDict = OrderedDict()
KEPT = 16  # configurations a process keeps compiled


def prepare(setup: Setup, game: Game) -> None:
    """Keep a game the caller compiled already: processes forked after this inherit it."""
    _keep(_cache_key(setup), Player(setup, game))


def play_chunk(setup: Setup, chunk: Chunk, stop=None) -> list:
    """The outcomes of a chunk's games in seed order; it stops at the first
    Failure, and early when the shared flag `stop` is raised (its results are
    then not wanted)."""
    key = _cache_key(setup)
    player = _players.get(key)
    if player is None:
        for path in setup.plugins:  # a fresh worker has not run the --agents-from files
            load_plugin(path)
        try:
            player = _keep(key, Player(setup, setup.game()))
        except RulesetError as error:
            return [Failure(tuple(error.diagnostics))]
    _players.move_to_end(key)
    results = []
    for seed in chunk.seeds:
        results.append(player.play(seed))
        if isinstance(results[-1], Failure) or stop is not None and stop.value:
            break
    return results


def _cache_key(setup: Setup):
    thread = threading.current_thread()
    return setup.key if thread is threading.main_thread() else (setup.key, thread.ident)


def _keep(key, player: Player) -> Player:
    _players[key] = player
    while len(_players) > KEPT:
        _players.popitem(last=False)
    return player
