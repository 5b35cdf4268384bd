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

from .agents import make_agent
from .engine import Game
from .errors import RuleError
from .match import play
from .summary import Summary
from .view import Viewer


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def simulate(game: Game, games: int, seed: int = 0, agents: dict[str, str] | None = None, jobs: int = 1,
             on_game: Callable[[int, dict], None] | None = None) -> Summary:
    """Play seeds seed..seed+games-1; `on_game(seed, outcome)` sees each game in seed order."""
    kinds = {role: (agents or {}).get(role, "random") for role in game.roles}
    summary = Summary.for_game(game, games, seed, kinds)
    summary.jobs = jobs
    start = time.perf_counter()
    for s, outcome in zip(range(seed, seed + games), outcomes(game, kinds, seed, games, jobs)):
        summary.add(outcome)
        if on_game is not None:
            on_game(s, outcome)
    summary.seconds = time.perf_counter() - start
    return summary


def outcomes(game: Game, kinds: dict[str, str], seed: int, games: int, jobs: int) -> Iterator[dict]:
    """The outcomes of the games, in seed order."""
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        player = _Player(game, kinds)
        results = (player.play(s) for s in range(seed, seed + games))
    else:
        results = _in_workers(game, kinds, seed, games, jobs)
    for outcome in results:
        if isinstance(outcome, _Failure):
            raise RuleError(outcome.span, f"{outcome.message} (in the game with seed {outcome.seed})", outcome.hint)
        yield outcome


def _in_workers(game: Game, kinds: dict[str, str], seed: int, games: int, jobs: int) -> Iterator:
    # runs of consecutive seeds: large enough that passing results back costs
    # little, small enough to keep every worker busy to the end
    size = max(1, min(200, games // (jobs * 8)))
    runs = [(s, min(size, seed + games - s)) for s in range(seed, seed + games, size)]
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods:  # the workers inherit the compiled game: nothing to rebuild
        context, recipe = multiprocessing.get_context("fork"), (game, kinds)
        gc.freeze()  # the collector leaves inherited objects alone, so their pages stay shared
    else:  # the ruleset IR is plain data and pickles; each worker compiles it
        context = multiprocessing.get_context("spawn")
        recipe = ((game.ruleset, game.mode.name, game.step_limit, game.optimized), kinds)
    with context.Pool(jobs, initializer=_start_worker, initargs=recipe) as pool:
        try:
            for results in pool.imap(_play_run, runs):
                yield from results
        finally:
            gc.unfreeze()


class _Player:
    def __init__(self, game: Game, kinds: dict[str, str]):
        self.game, self.kinds, self.viewer = game, kinds, Viewer(game)

    def play(self, s: int):
        """The game's outcome, or a _Failure if the rules broke."""
        agents = {role: make_agent(kind, s, role) for role, kind in self.kinds.items()}
        try:
            return play(self.game, s, agents, viewer=self.viewer).outcome
        except RuleError as error:
            return _Failure(s, error)


class _Failure:
    """A rule error in a worker, as plain data (it travels back by pickle)."""

    def __init__(self, seed: int, error: RuleError):
        d = error.diagnostic
        self.seed, self.span, self.message, self.hint = seed, d.span, d.message, d.hint


_worker: _Player | None = None


def _start_worker(game, kinds: dict[str, str]) -> None:
    global _worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    if not isinstance(game, Game):
        ruleset, mode, step_limit, optimized = game
        game = Game(ruleset, mode, step_limit, optimized)
    _worker = _Player(game, kinds)


def _play_run(run: tuple[int, int]) -> list:
    start, count = run
    results = []
    for s in range(start, start + count):
        results.append(_worker.play(s))
        if isinstance(results[-1], _Failure):
            break
    return results
