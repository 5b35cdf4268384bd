"""Benchmark: this checkout against another version of the project, in paired processes.

    python benchmarks/bench_versions.py --before DIR [--pairs 5] [--only mcts|games]

DIR is another checkout (e.g. `git worktree add --detach /tmp/before 25bc839`).
Each measure runs as a child process of each version in turn, A B A B ...
(after one warm-up pair), so that a change in the machine's load falls on both
alike; a child's CPU time is what `resource` accounts for it. Two measures:

- MCTS iterations per second (`mcts:iterations=100`), Twenty Trials and the
  Gobbots: the agent's decisions with a choice are timed inside the child,
  which also prints a digest of its choices (the two versions must agree);
- random games of every bundled rulebook through `rulelang simulate`, the
  whole process (start-up and compiling included), in CPU seconds.

It prints each pair's figures and the median of the pairs' ratios. Slow
(minutes): not part of any test run.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MCTS_CHILD = """
import hashlib, sys, time
sys.path.insert(0, sys.argv[1])
from interpreter.agents.base import PlayerView
from interpreter.agents.registry import make_agent
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_ruleset
name, role, decisions = sys.argv[2], sys.argv[3], int(sys.argv[4])
game = Game(load_ruleset(name))
viewer = Viewer(game)
seconds, choices, seed = [], [], 0
while len(seconds) < decisions:
    agent, st = make_agent("mcts:iterations=100", seed, role), game.new_state(seed)
    while st.outcome is None and len(seconds) < decisions:
        view = PlayerView(game, viewer, st)
        start = time.process_time()
        i = agent.choose(view)
        if view.count > 1:
            seconds.append(time.process_time() - start)
            choices.append(i)
        game.apply(st, i)
    seed += 1
print(decisions * 100 / sum(seconds), hashlib.sha256(repr(choices).encode()).hexdigest()[:12])
"""

MCTS_GAMES = (("twenty-trials", "challenger", 40), ("gauntlet-gobbots", "commander", 20))
SIMULATIONS = (("twenty-trials", 4000), ("gauntlet-gobbots", 2000), ("gauntlet-race", 150),
               ("gauntlet-16-7", 200), ("hand-of-fate-ordeals", 150))


def child(args: list[str], tree: Path) -> tuple[float, str]:
    """Run a child process in `tree`; its CPU seconds and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, *args], cwd=tree, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(tree)}).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def paired(measure, trees: dict[str, Path], pairs: int) -> dict[str, list[float]]:
    """`measure(tree) -> value` for each version in turn, one warm-up pair first."""
    values: dict[str, list[float]] = {name: [] for name in trees}
    for i in range(pairs + 1):
        order = list(trees) if i % 2 else list(reversed(trees))
        for name in order:
            value = measure(trees[name])
            if i:
                values[name].append(value)
    return values


def report(title: str, values: dict[str, list[float]], unit: str) -> None:
    now, before = values["this"], values["before"]
    ratios = [a / b for a, b in zip(now, before)]
    print(f"{title}: before {statistics.median(before):,.2f} {unit}, now {statistics.median(now):,.2f}; "
          f"now/before {statistics.median(ratios):.2f} (pairs: {', '.join(f'{r:.2f}' for r in ratios)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, type=Path, help="another checkout of the project")
    parser.add_argument("--pairs", type=int, default=5, help="counted pairs of runs (default 5)")
    parser.add_argument("--only", choices=("mcts", "games"), help="one of the two measures")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "this": ROOT}
    if args.only != "games":
        for name, role, decisions in MCTS_GAMES:
            digests = set()

            def mcts(tree: Path) -> float:
                out = child(["-c", MCTS_CHILD, str(tree), name, role, str(decisions)], tree)[1].split()
                digests.add(out[1])
                return float(out[0])
            report(f"MCTS iterations/s, {name}", paired(mcts, trees, args.pairs), "iterations/s")
            print(f"  the two versions chose {'the same' if len(digests) == 1 else 'differently'}")
    if args.only != "mcts":
        for name, games in SIMULATIONS:
            cli = ["-c", "import sys; from cli.main import main; sys.exit(main(sys.argv[1:]))",
                   "simulate", name, "--games", str(games), "--jobs", "1"]
            report(f"rulelang simulate {name} --games {games}, CPU s",
                   paired(lambda tree: child(cli, tree)[0], trees, args.pairs), "s")


if __name__ == "__main__":
    main()
