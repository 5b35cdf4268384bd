"""Many games, on every core, with the same numbers whatever the number of jobs.

Game i of a simulation with seed S is the game `rulelang run --seed S+i`
plays: it depends on nothing but its seed. With several jobs, worker
processes play runs of consecutive seeds, and the results are taken back in
seed order, so the summary, the rows written with `--out` and every figure
are exactly those of one job.
"""
from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import time
from typing import Callable, Iterator

from ..agents.asking import AgentError
from ..agents.match import play
from ..agents.registry import PLUGINS, load_plugin, make_agent
from ..engine.game import Game
from ..engine.view import Viewer
from ..runtime.errors import RuleError
from .tally import Tally


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def simulate(game: Game, games: int, seed: int = 0, agents: dict[str, str] | None = None, jobs: int = 1,
             on_game: Callable[[int, dict], None] | None = None, timeout: float | None = None,
             done: list[dict] = ()) -> Tally:
    """Play seeds seed..seed+games-1; `on_game(seed, outcome)` sees each game in seed order.

    `done` holds the outcomes of the first games, played before (a resumed
    run): they are counted, and play starts after them. A game in which an
    agent fails (asking.py) is recorded as `{"error": message}`; `timeout` is
    the seconds an agent has for each decision."""
    kinds = {role: (agents or {}).get(role, "random") for role in game.roles}
    tally = Tally.for_game(game, games, seed, kinds)
    tally.jobs = jobs
    for outcome in done:
        tally.add(outcome)
    start, first = time.perf_counter(), seed + len(done)
    for s, outcome in zip(range(first, seed + games), outcomes(game, kinds, first, games - len(done), jobs, timeout)):
        tally.add(outcome)
        if on_game is not None:
            on_game(s, outcome)
    tally.seconds, tally.played = time.perf_counter() - start, games - len(done)
    return tally


def outcomes(game: Game, kinds: dict[str, str], seed: int, games: int, jobs: int,
             timeout: float | None = None) -> Iterator[dict]:
    """The outcomes of the games, in seed order."""
    if games <= 0:
        return
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        player = _Player(game, kinds, timeout)
        results = (player.play(s) for s in range(seed, seed + games))
    else:
        results = _in_workers(game, kinds, seed, games, jobs, timeout)
    try:
        for outcome in results:
            if isinstance(outcome, _Failure):
                raise RuleError(outcome.span, f"{outcome.message} (in the game with seed {outcome.seed})",
                                outcome.hint)
            yield outcome
    finally:
        results.close()  # stops the workers now, not whenever the generator is collected


def _in_workers(game: Game, kinds: dict[str, str], seed: int, games: int, jobs: int,
                timeout: float | None) -> Iterator:
    # runs of consecutive seeds: large enough that passing results back costs
    # little, small enough to keep every worker busy to the end
    size = max(1, min(200, games // (jobs * 8)))
    runs = [(s, min(size, seed + games - s)) for s in range(seed, seed + games, size)]
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods:  # the workers inherit the compiled game: nothing to rebuild
        context, recipe = multiprocessing.get_context("fork"), (game, kinds, timeout)
        gc.freeze()  # the collector leaves inherited objects alone, so their pages stay shared
    else:  # the ruleset IR is plain data and pickles; each worker compiles it
        context = multiprocessing.get_context("spawn")
        recipe = ((game.ruleset, game.mode.name, game.step_limit, game.optimized, game.check_invariants,
                   game.explicit_chance),
                  kinds, timeout, tuple(PLUGINS))
    with context.Pool(jobs, initializer=_start_worker, initargs=recipe) as pool:
        try:
            for results in pool.imap(_play_run, runs):
                yield from results
        finally:
            gc.unfreeze()


class _Player:
    def __init__(self, game: Game, kinds: dict[str, str], timeout: float | None = None):
        self.game, self.kinds, self.viewer, self.timeout = game, kinds, Viewer(game), timeout

    def play(self, s: int):
        """The game's outcome, `{"error": ...}` if an agent failed, or a _Failure if the rules broke."""
        agents = {role: make_agent(kind, s, role) for role, kind in self.kinds.items()}
        try:
            return play(self.game, s, agents, viewer=self.viewer, timeout=self.timeout).outcome
        except AgentError as error:
            return {"error": str(error)}
        except RuleError as error:
            return _Failure(s, error)


class _Failure:
    """A rule error in a worker, as plain data (it travels back by pickle)."""

    def __init__(self, seed: int, error: RuleError):
        d = error.diagnostic
        self.seed, self.span, self.message, self.hint = seed, d.span, d.message, d.hint


_worker: _Player | None = None


def _start_worker(game, kinds: dict[str, str], timeout: float | None, plugins: tuple = ()) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler: the pool ends workers with it
    for path in plugins:  # a spawned worker starts without the agents the parent loaded
        load_plugin(path)
    if not isinstance(game, Game):
        game = Game(*game)
    _worker = _Player(game, kinds, timeout)


def _play_run(run: tuple[int, int]) -> list:
    start, count = run
    results = []
    for s in range(start, start + count):
        results.append(_worker.play(s))
        if isinstance(results[-1], _Failure):
            break
    return results
