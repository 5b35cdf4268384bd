"""Benchmark: the interpreter's speed, in one run.

    python benchmarks/bench_speed.py [--games N] [--rounds R] [--quick] [--out benchmarks/results/FILE.json]
                                     [--compare benchmarks/results/speed-before.json] [--load FILE.json]

For each of two games of different shape, Twenty Trials (Challenger mode)
and the Gauntlet against the Gobbots (the standard game), a random player:

- games per second through the interpreter, through the hand-written game
  that plays the same games move for move (`baseline_*.py`, the project's
  own RNG) and through the one a Python programmer would write apart from
  this project (`stdlib_*.py`, `random.Random`). The three take turns in
  one process, in chunks of 50 games on the same seeds, each first in turn,
  so that a change in the machine's load falls on all three alike; a round
  plays every seed on each side, and the ratios are the medians of each
  round's ratio. A sample of seeds checks that the interpreter and the
  move-for-move baseline still agree;
- MCTS iterations per second (the registry's `mcts:iterations=I` agent; its
  decisions with a choice to make are timed, and their iterations divided
  by that time), median of rounds over the same decisions. These rounds have
  no side taking turns with them, so they follow the machine's load (±30% on
  a shared machine): to compare two versions, `bench_versions.py` runs them in
  paired processes;

and the time to load and check each bundled ruleset (`rulesets/*.yaml`, its
default parameters) and to compile each of its modes (median of repeats,
after the parser's one-time construction, which is reported apart).

Times are this process's CPU time (`time.process_time`): on a shared
machine, the time other work holds the core is not counted.
"""
from __future__ import annotations

import argparse
import datetime
import json
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import baseline_gobbots  # noqa: E402
import baseline_twenty_trials  # noqa: E402
import stdlib_gobbots  # noqa: E402
import stdlib_twenty_trials  # noqa: E402

from interpreter.agents.base import PlayerView  # noqa: E402
from interpreter.agents.match import play  # noqa: E402
from interpreter.agents.registry import make_agent  # noqa: E402
from interpreter.agents.simple import RandomAgent  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.engine.view import Viewer  # noqa: E402
from rulelang import load_ruleset  # noqa: E402


@dataclass(frozen=True)
class Bench:
    title: str
    ruleset: str
    role: str
    mirror: ModuleType  # the same games move for move
    stdlib: ModuleType  # the standard library's random, written apart


CHUNK = 50  # games a side plays before the next side's turn

GAMES = (Bench("Twenty Trials, Challenger mode", "twenty-trials", "challenger", baseline_twenty_trials,
               stdlib_twenty_trials),
         Bench("Gauntlet against the Gobbots, standard game", "gauntlet-gobbots", "commander", baseline_gobbots,
               stdlib_gobbots))


def outcome(game: Game, viewer: Viewer, role: str, seed: int) -> dict:
    """One game through the interpreter with the random agent, reported as the baselines report it."""
    o = play(game, seed, {role: RandomAgent(seed, role)}, viewer=viewer).outcome
    return {"result": o["results"][role], "reason": o["reason"], "score": o["scores"][role],
            "rounds": o["rounds"], "decisions": o["decisions"]}


def timed(one_game: Callable[[int], dict], seeds: range) -> tuple[float, list[dict]]:
    """CPU seconds (this process's: what other work on a shared machine takes is not counted) and outcomes."""
    start = time.process_time()
    outcomes = [one_game(s) for s in seeds]
    return time.process_time() - start, outcomes


def summary(outcomes: list[dict]) -> dict:
    n = len(outcomes)
    return {"win_rate": sum(o["result"] == "win" for o in outcomes) / n,
            "mean_rounds": sum(o["rounds"] for o in outcomes) / n,
            "mean_score": sum(o["score"] for o in outcomes) / n}


def bench_random_games(b: Bench, games: int, rounds: int, check: int) -> dict:
    game = Game(load_ruleset(b.ruleset))
    viewer = Viewer(game)
    interpreted = lambda seed: outcome(game, viewer, b.role, seed)  # noqa: E731
    differ = [s for s in range(check) if interpreted(s) != b.mirror.play(s)]
    sides = {"interpreter": interpreted, "mirror": b.mirror.play, "stdlib": b.stdlib.play}
    speeds: dict[str, list[float]] = {name: [] for name in sides}
    seen: dict[str, list[dict]] = {name: [] for name in sides}
    for r in range(rounds):
        # a round plays every seed once on each side, in chunks taken in turn (each side first in turn),
        # so that a change in the machine's load falls on all three alike
        seconds = dict.fromkeys(sides, 0.0)
        for i, start in enumerate(range(0, games, CHUNK)):
            seeds = range(start, min(start + CHUNK, games))
            order = list(sides)[(i + r) % 3:] + list(sides)[:(i + r) % 3]
            for name in order:
                spent, outcomes = timed(sides[name], seeds)
                seconds[name] += spent
                if r == 0:
                    seen[name] += outcomes
        for name in sides:
            speeds[name].append(games / seconds[name])
    ratios = {f"interpreter/{other}": [x / y for x, y in zip(speeds["interpreter"], speeds[other])]
              for other in ("mirror", "stdlib")}
    return {"games": games, "rounds": rounds,
            "games_per_second": {name: statistics.median(v) for name, v in speeds.items()},
            "ratios": {name: statistics.median(v) for name, v in ratios.items()},
            "rounds_measured": {"games_per_second": speeds, "ratios": ratios},
            "checked": check, "differ": differ,
            "outcomes": {name: summary(v) for name, v in seen.items()}}


def mcts_decisions(game: Game, viewer: Viewer, role: str, spec: str, decisions: int, seconds: list[float]) -> int:
    """Play games with the MCTS agent until `decisions` of its decisions with a choice have been
    timed (appended to `seconds`); the number of games it took."""
    seed = 0
    while len(seconds) < decisions:
        agent, st = make_agent(spec, seed, role), game.new_state(seed)
        while st.outcome is None and len(seconds) < decisions:
            if st.chance is not None:
                game.apply_chance(st, game.sample_chance(st))
                continue
            view = PlayerView(game, viewer, st)
            start = time.process_time()
            index = agent.choose(view)
            if view.count > 1:
                seconds.append(time.process_time() - start)
            game.apply(st, index)
        seed += 1
    return seed


def bench_mcts(b: Bench, iterations: int, decisions: int, rounds: int) -> dict:
    game = Game(load_ruleset(b.ruleset))
    viewer = Viewer(game)
    spec = f"mcts:iterations={iterations}"
    per_round = []
    for _ in range(rounds):
        seconds: list[float] = []
        games = mcts_decisions(game, viewer, b.role, spec, decisions, seconds)
        per_round.append(decisions * iterations / sum(seconds))
    return {"agent": spec, "decisions": decisions, "games": games, "rounds": rounds,
            "iterations_per_second": statistics.median(per_round), "rounds_measured": per_round}


def bench_compile(repeats: int) -> dict:
    start = time.process_time()
    load_ruleset("twenty-trials")  # the first load in a process also builds the parser
    first = time.process_time() - start
    rulesets = {}
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        loads, compiles = [], {}
        for _ in range(repeats):
            start = time.process_time()
            rs = load_ruleset(path.stem)
            loads.append(time.process_time() - start)
            for mode in rs.modes:
                start = time.process_time()
                Game(rs, mode)
                compiles.setdefault(mode, []).append(time.process_time() - start)
        rulesets[path.stem] = {"load_and_check_ms": 1000 * statistics.median(loads),
                               "compile_ms": {m: 1000 * statistics.median(t) for m, t in compiles.items()}}
    return {"first_load_ms": 1000 * first, "repeats": repeats, "rulesets": rulesets}


def report(results: dict) -> None:
    print(f"rulelang speed, {results['date']}, commit {results['commit']}, Python {results['python']}")
    for b in GAMES:
        r = results["random_games"][b.ruleset]
        g, q = r["games_per_second"], r["ratios"]
        print(f"\n{b.title}, random player; {r['rounds']} alternating rounds of {r['games']} games "
              f"(medians; games per CPU second)")
        for name, what in (("interpreter", "interpreter"), ("mirror", "hand-written, same games"),
                           ("stdlib", "hand-written, stdlib random")):
            o = r["outcomes"][name]
            print(f"  {what:28} {g[name]:8,.0f} games/s   (win rate {o['win_rate']:.3f}, "
                  f"mean rounds {o['mean_rounds']:.2f}, mean score {o['mean_score']:.2f})")
        for name, ratios in r["rounds_measured"]["ratios"].items():
            print(f"  ratio {name:22} {q[name]:5.2f}  (rounds: {', '.join(f'{x:.2f}' for x in ratios)})")
        print(f"  games that differ from the move-for-move baseline: {len(r['differ'])} of {r['checked']} checked"
              + (f" (seeds {r['differ'][:10]})" if r["differ"] else ""))
    print()
    for b in GAMES:
        m = results["mcts"][b.ruleset]
        print(f"MCTS ({m['agent']}), {b.title}: {m['iterations_per_second']:,.0f} iterations/s "
              f"(median of {m['rounds']} rounds of {m['decisions']} decisions; "
              f"rounds: {', '.join(f'{x:,.0f}' for x in m['rounds_measured'])})")
    c = results["compile"]
    print(f"\nLoad and check (default parameters), compile each mode; median of {c['repeats']}, in ms "
          f"(the first load of a process also builds the parser: {c['first_load_ms']:.0f} ms)")
    for name, r in c["rulesets"].items():
        modes = ", ".join(f"{m} {t:.0f}" for m, t in r["compile_ms"].items())
        print(f"  {name:30} load and check {r['load_and_check_ms']:5.0f}   compile: {modes}")


def headline(results: dict) -> dict[str, float]:
    """The figures to compare across runs. Ratios hold across machines and loads; games and iterations
    per second do not, so MCTS is also given per mirror game (its iterations/s over the move-for-move
    baseline's games/s, both measured in the same run)."""
    figures = {}
    for b in GAMES:
        r, m = results["random_games"][b.ruleset], results["mcts"][b.ruleset]
        for name, ratio in r["ratios"].items():
            figures[f"{b.ruleset}: {name}"] = ratio
        figures[f"{b.ruleset}: interpreter games/s"] = r["games_per_second"]["interpreter"]
        figures[f"{b.ruleset}: MCTS iterations/s"] = m["iterations_per_second"]
        figures[f"{b.ruleset}: MCTS iterations per mirror game"] = \
            m["iterations_per_second"] / r["games_per_second"]["mirror"]
    c = results["compile"]["rulesets"]
    figures["all rulesets: load, check and compile (ms)"] = sum(
        r["load_and_check_ms"] + sum(r["compile_ms"].values()) for r in c.values())
    return figures


def compare(before: dict, now: dict) -> None:
    print(f"\nAgainst {before['date']}, commit {before['commit']} (now / before):")
    old, new = headline(before), headline(now)
    for name, value in new.items():
        if name in old:
            print(f"  {name:58} {old[name]:10,.2f} -> {value:10,.2f}   {value / old[name]:5.2f}x")


def commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="random games per round and per side (default 2000, quick 300)")
    parser.add_argument("--rounds", type=int, help="alternating rounds (default 5, quick 3)")
    parser.add_argument("--quick", action="store_true", help="fewer games, decisions and repeats: a smoke run")
    parser.add_argument("--mcts-iterations", type=int, default=100, help="MCTS iterations a decision (default 100)")
    parser.add_argument("--mcts-decisions", type=int, help="MCTS decisions timed a round (default 20, quick 4)")
    parser.add_argument("--out", help="also write the figures as JSON (e.g. benchmarks/results/speed-before.json)")
    parser.add_argument("--compare", metavar="JSON", help="compare the headline figures with an earlier run's --out")
    parser.add_argument("--load", metavar="JSON", help="report a run written by --out instead of running one")
    args = parser.parse_args()
    if args.load:
        results = json.loads(Path(args.load).read_text())
        report(results)
        if args.compare:
            compare(json.loads(Path(args.compare).read_text()), results)
        return
    games = args.games or (300 if args.quick else 2000)
    rounds = args.rounds or (3 if args.quick else 5)
    decisions = args.mcts_decisions or (4 if args.quick else 20)
    results = {"date": datetime.date.today().isoformat(), "commit": commit(), "python": platform.python_version(),
               "machine": platform.machine(), "quick": args.quick,
               "random_games": {b.ruleset: bench_random_games(b, games, rounds, min(games, 300)) for b in GAMES},
               "mcts": {b.ruleset: bench_mcts(b, args.mcts_iterations, decisions, rounds) for b in GAMES},
               "compile": bench_compile(1 if args.quick else 5)}
    report(results)
    if args.compare:
        compare(json.loads(Path(args.compare).read_text()), results)
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
        print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
