"""Random games played straight on the engine, without the agent machinery:
each decision answered as the `random` agent would (the same stream, so the
same games), for tests and benchmarks that play tens of thousands of games."""
from __future__ import annotations

import time

from interpreter.engine.game import Game
from interpreter.runtime import rng
from rulelang import bundled_names, load_ruleset
from rulelang.types import BOOL

from . import bundled

CONFIGS = [(name, mode) for name in bundled_names() for mode in bundled(name).modes]

# rulesets whose random games run to hundreds of decisions: the suites that play
# every bundled ruleset play these only in the slow run; their own test module
# plays short games of them in the default run. Random players of the race wander
# back and forth on the track (moving backwards is allowed): thousands of decisions
LONG_GAMES = {"hand-of-fate-ordeals", "gauntlet-race", "gauntlet-race-crossfire"}
# the race's own turn limit (1000 by default), set low where tests play many random or searching games
# of it: its random players wander for hundreds of turns (people finish in about 25); a game stopped at
# the limit is placed as usual, so that ending is played too. Its own module plays whole games.
SHORT = {"gauntlet-race": {"turn_limit": "60"}, "gauntlet-race-crossfire": {"turn_limit": "60"}}


def config_params(configs=CONFIGS) -> list:
    """`configs` as pytest parameters, ids `name-mode`, the long games marked slow."""
    import pytest
    return [pytest.param(n, m, id=f"{n}-{m}", marks=[pytest.mark.slow] if n in LONG_GAMES else [])
            for n, m in configs]


def parameter_sets(ruleset) -> list[dict]:
    """No options, all of them, and each on its own; for a game of `players:`,
    with no options, every count it allows."""
    flags = [name for name, p in ruleset.params.items() if p.type == BOOL]
    counts = range(ruleset.players.low, ruleset.players.high + 1) if ruleset.players else ()
    sets = ([{"players": str(n)} for n in counts] or [{}]) + ([{f: "true" for f in flags}] if len(flags) > 1 else [])
    return [{**SHORT.get(ruleset.name, {}), **s} for s in sets + [{f: "true"} for f in flags]]


def play_random(game: Game, seed: int, on_decision=None):
    """One game to its end; `on_decision(st)` sees the state at every decision and at the end."""
    st = game.new_state(seed)
    streams = {role: rng.derive(seed, "agent:" + role) for role in game.roles}
    while not game.is_terminal(st):
        if on_decision is not None:
            on_decision(st)
        p = game.decision(st)
        game.apply(st, rng.pick(streams[p.role], st.decisions, len(p.options)))
    if on_decision is not None:
        on_decision(st)
    return st


def tasks(games: int, chunk: int = 500, configs=CONFIGS, most_sets: int | None = None) -> list[tuple]:
    """`games` seeds of every bundled ruleset and mode (or of `configs`), shared
    among its parameter sets (the first `most_sets` of them: no options and all
    of them, or the fewest players), as (ruleset, mode, params, seeds) tasks of `chunk` games; the
    slowest mode (two roles) first, so the workers finish together."""
    out = []
    for name, mode in configs:
        sets = parameter_sets(load_ruleset(name))[:most_sets]
        share = -(-games // len(sets))
        for i, params in enumerate(sets):
            seeds = range(i * share, (i + 1) * share)
            out += [(name, mode, params, seeds[k:k + chunk]) for k in range(0, share, chunk)]
    return sorted(out, key=lambda task: task[1] != "versus")


_games: dict = {}


def play_task(task, check_invariants: bool = True) -> tuple:
    """Play a task's games (in a worker: each configuration compiled once);
    (ruleset, mode, games, CPU seconds)."""
    name, mode, params, seeds = task
    key = (name, mode, tuple(sorted(params.items())), check_invariants)
    if key not in _games:
        _games[key] = Game(load_ruleset(name, params), mode, check_invariants=check_invariants)
    start = time.process_time()
    for seed in seeds:
        play_random(_games[key], seed)
    return name, mode, len(seeds), time.process_time() - start
