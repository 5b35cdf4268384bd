"""What each adapter costs against the bare engine, measured in one run.

Random games, the same seeds through each way of playing them, in
alternating rounds (the median of the rounds' games per second):

    engine           Game, inline chance, a random option per decision
    engine+chance    Game(explicit_chance=True), chance from sample_chance
    openspiel        the OpenSpiel game: an outcome at random at each chance node, a random legal id
                     per move, the mover's observation tensor read at each move (an observer)
    pettingzoo       the AEC environment: env.last() (tensor and mask) and a random legal id
    gymnasium        the Gymnasium environment: a random legal id for the first role,
                     the `random` agent for the others; step returns the tensor

    python benchmarks/bench_adapters.py [--games 200] [--rounds 5]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from interpreter.adapters import aec_env, gymnasium_env, load_game  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.runtime import rng  # noqa: E402
from rulelang import load_ruleset  # noqa: E402

CONFIGS = [("twenty-trials", "challenger"), ("twenty-trials", "versus"), ("pig-race", "race")]


def engine(name, mode, seeds, explicit=False):
    game = Game(load_ruleset(name), mode, explicit_chance=explicit)

    def play():
        for seed in seeds:
            st = game.new_state(seed)
            streams = {r: rng.derive(seed, "agent:" + r) for r in game.roles}
            while not game.is_terminal(st):
                if game.chance(st) is not None:
                    game.apply_chance(st, game.sample_chance(st))
                    continue
                d = game.decision(st)
                game.apply(st, rng.pick(streams[d.role], st.decisions, len(d.options)))
    return play


def openspiel(name, mode, seeds):
    game = load_game(name, mode)  # chance nodes resolved from outside: the seed parameter plays no part
    observer = make_observation(game)  # OpenSpiel's way to read tensors move after move

    def play():
        for seed in seeds:
            pick = random.Random(seed)
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[pick.randrange(len(outcomes))][0])
                    continue
                observer.set_from(state, state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[pick.randrange(len(legal))])
    return play


def pettingzoo(name, mode, seeds):
    env = aec_env(name, mode)

    def play():
        for seed in seeds:
            pick = random.Random(seed)
            env.reset(seed=seed)
            for _ in env.agent_iter():
                obs, _, done, cut, _ = env.last()
                if done or cut:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[pick.randrange(len(legal))]))
    return play


def gymnasium(name, mode, seeds):
    env = gymnasium_env(name, mode=mode)

    def play():
        for seed in seeds:
            pick = random.Random(seed)
            _, info = env.reset(seed=seed)
            done = False
            while not done:
                legal = np.flatnonzero(info["action_mask"]) if info["action_mask"].any() else [0]
                _, _, terminated, truncated, info = env.step(int(legal[pick.randrange(len(legal))]))
                done = terminated or truncated
    return play


WAYS = {"engine": engine, "engine+chance": lambda n, m, s: engine(n, m, s, True), "openspiel": openspiel,
        "pettingzoo": pettingzoo, "gymnasium": gymnasium}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args(argv)
    warnings.simplefilter("ignore")
    seeds = list(range(args.games))
    print(f"{args.games} random games a round, {args.rounds} rounds, median games/s (ratio to the bare engine)")
    for name, mode in CONFIGS:
        players = {way: make(name, mode, seeds) for way, make in WAYS.items()}
        rates = {way: [] for way in WAYS}
        for _ in range(args.rounds):
            for way, play in players.items():
                start = time.process_time()
                play()
                rates[way].append(args.games / (time.process_time() - start))
        base = statistics.median(rates["engine"])
        cells = [f"{way} {statistics.median(r):,.0f} ({statistics.median(r) / base:.2f})" for way, r in rates.items()]
        print(f"{name} {mode}: " + " · ".join(cells))


if __name__ == "__main__":
    main()
