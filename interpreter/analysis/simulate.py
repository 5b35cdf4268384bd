"""Many games, on every core, with the same numbers whatever the number of jobs.

Game i of a simulation with seed S is the game `rulelang run --seed S+i`
plays: it depends on nothing but its seed. With several jobs, worker
processes play chunks of consecutive seeds (backends.py), and the results
are taken back in seed order, so the summary, the rows written with `--out`
and every figure are exactly those of one job.
"""
from __future__ import annotations

import os
import time
from contextlib import closing
from typing import TYPE_CHECKING, Callable, Iterator

from ..engine.game import Game
from .backends import InProcess, Processes, chunk_size
from .tally import Tally
from .work import Chunk, Failure, Setup, prepare

if TYPE_CHECKING:  # (a scenario is read, with YAML, only when a command names one)
    from ..engine.scenarios import Scenario


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def simulate(game: Game, games: int, seed: int = 0, agents: dict[str, str] | None = None, jobs: int = 1,
             on_game: Callable[[int, dict], None] | None = None, timeout: float | None = None,
             done: list[dict] = (), scenario: Scenario | None = None) -> Tally:
    """Play seeds seed..seed+games-1; `on_game(seed, outcome)` sees each game in seed order.

    `done` holds the outcomes of the first games, played before (a resumed
    run): they are counted, and play starts after them. With a `scenario`, every game
    starts from the position it sets up (its seed still deals the rest). A game in which an
    agent fails (asking.py) is recorded as `{"error": message}`; `timeout` is
    the seconds an agent has for each decision."""
    kinds = {role: (agents or {}).get(role, "random") for role in game.roles}
    tally = Tally.for_game(game, games, seed, kinds)
    tally.jobs = jobs
    for outcome in done:
        tally.add(outcome)
    start, first = time.perf_counter(), seed + len(done)
    for s, outcome in zip(range(first, seed + games), outcomes(game, kinds, first, games - len(done), jobs, timeout,
                                                                         scenario)):
        tally.add(outcome)
        if on_game is not None:
            on_game(s, outcome)
    tally.seconds, tally.played = time.perf_counter() - start, games - len(done)
    return tally


def outcomes(game: Game, kinds: dict[str, str], seed: int, games: int, jobs: int,
             timeout: float | None = None, scenario: Scenario | None = None) -> Iterator[dict]:
    """The outcomes of the games, in seed order; a rule error is raised, naming the game's seed."""
    if games <= 0:
        return
    jobs = max(1, min(jobs, games))
    setup = Setup.of(game, kinds, timeout, scenario=scenario)
    prepare(setup, game)  # compiled already: this process, and workers forked from it, play it as it is
    size = chunk_size(games, 1, jobs)
    chunks = [Chunk(0, s, min(size, seed + games - s)) for s in range(seed, seed + games, size)]
    backend = InProcess() if jobs == 1 else Processes(jobs)
    with closing(backend.run([setup], chunks)) as results:  # closing stops the workers now, not when collected
        for _, chunk_results in results:
            for outcome in chunk_results:
                if isinstance(outcome, Failure):
                    raise outcome.error()
                yield outcome
