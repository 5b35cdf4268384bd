"""Benchmark: `rulelang simulate` as a whole process — start-up, loading and compiling
included — against a whole process playing as many games of the hand-written simulator.

    python benchmarks/bench_whole_process.py [--games 12000] [--rounds 5] [--before DIR] [GAME ...]

GAME is `twenty-trials` (the default; `stdlib_twenty_trials.py`), `oh-hell` (4 players,
`stdlib_oh_hell.py`), `gobbots` or `three-mens-morris`. Each round runs, in turn, the
hand-written process (it plays seeds 0..N-1 and prints its win rate), `rulelang simulate
... --games N --jobs 1`, and `rulelang simulate ... --games 1 --jobs 1` (what the command
costs before and around its games: start-up). Every figure is CPU time (user and system,
from wait4: another process's load counts little); the medians of the rounds are printed,
with the ratio hand-written / rulelang of each round (1.0: as fast; higher is better) and
that of the games alone (each side's time less its start-up: Python's own for the
hand-written side). The hand-written simulators play other games for a seed; that they play
the ruleset's game is checked by `bench_oh_hell.py`, `bench_three_mens_morris.py` and
`tests/test_baseline_agreement.py`. `--before DIR`: another checkout (`git worktree add
--detach /tmp/before HEAD~1`), whose `simulate` takes its turn in each round too.
rulelang's cache folder (`RULELANG_CACHE_DIR`) is a temporary one, filled by one
untimed `simulate` before the rounds: the figures are those of a command run again
on a text it has read before (the grammar's tables, the ruleset's IR and its compiled
mode kept). Every process runs as an installed package does, with its bytecode:
each tree's modules are compiled before the rounds, untimed, and the processes run
without PYTHONDONTWRITEBYTECODE whatever the caller's environment (installed.py).
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from installed import as_installed

ROOT = Path(__file__).resolve().parent.parent
CACHE = tempfile.TemporaryDirectory(prefix="bench-whole-process-")  # every process's cache folder

# name -> (the simulate arguments, the hand-written module, its play call for seed s)
GAMES = {
    "twenty-trials": (["twenty-trials"], "stdlib_twenty_trials", "play(s)"),
    "oh-hell": (["oh-hell", "--set", "players=4"], "stdlib_oh_hell", "play(s, 4)"),
    "gobbots": (["gauntlet-gobbots"], "stdlib_gobbots", "play(s)"),
    "three-mens-morris": (["three-mens-morris"], "stdlib_three_mens_morris", "play(s)"),
}

BY_HAND = """
import sys
sys.path.insert(0, {folder!r})
from collections import Counter
from {module} import play
results = Counter()
for s in range({games}):
    o = {call}
    results[str(o.get("result", o.get("places", "")))] += 1
print(results.most_common(3))
"""


def cpu(argv: list[str], tree: Path = ROOT, env: dict[str, str] | None = None) -> float:
    """CPU seconds of one whole process, run in `tree`, which must succeed."""
    process = subprocess.Popen(argv, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**(env or os.environ), "RULELANG_CACHE_DIR": CACHE.name})
    _, status, usage = os.wait4(process.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{' '.join(argv)} failed: {process.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12000, help="games a process plays (default 12000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--before", type=Path, help="another checkout, whose simulate is timed too")
    parser.add_argument("game", nargs="*", metavar="GAME", help=f"of {', '.join(GAMES)} (default twenty-trials)")
    args = parser.parse_args()
    if set(args.game) - set(GAMES):
        parser.error(f"no such game: {', '.join(sorted(set(args.game) - set(GAMES)))} (games: {', '.join(GAMES)})")
    python = sys.executable
    for name in args.game or ["twenty-trials"]:
        ruleset, module, call = GAMES[name]
        simulate = [python, "-m", "cli", "simulate", *ruleset, "--jobs", "1", "--games"]
        sides = {
            "python -c pass": [python, "-c", "pass"],
            "hand-written": [python, "-c", BY_HAND.format(folder=str(ROOT / "benchmarks"), module=module,
                                                          games=args.games, call=call)],
            "rulelang simulate": simulate + [str(args.games)],
            "rulelang simulate, 1 game": simulate + ["1"],
        }
        before = {"rulelang simulate, before": (args.before, sides["rulelang simulate"])} if args.before else {}
        times: dict[str, list[float]] = {side: [] for side in [*sides, *before]}
        trees = [ROOT, *(args.before.resolve() for _ in before)]
        env = as_installed(*trees)
        for tree in trees:  # the cache filled, untimed
            cpu(sides["rulelang simulate, 1 game"], tree, env)
        for r in range(args.rounds):
            for side, argv in sides.items():
                times[side].append(cpu(argv, ROOT, env))
            for side, (tree, argv) in before.items():
                times[side].append(cpu(argv, tree.resolve(), env))
            print(f"{name}: round {r + 1} of {args.rounds} done", file=sys.stderr)
        base, hand, ours, start = (times[s] for s in sides)
        whole = [h / o for h, o in zip(hand, ours)]
        alone = [(h - b) / (o - s) for h, o, b, s in zip(hand, ours, base, start)]
        print(f"{name}, {args.games:,} games a process, {args.rounds} rounds (CPU s, medians)")
        for side, runs in times.items():
            print(f"  {side:28} {statistics.median(runs):7.3f}")
        print(f"  whole process, hand-written / rulelang: {statistics.median(whole):.2f} "
              f"(rounds {', '.join(f'{x:.2f}' for x in whole)})")
        print(f"  the games alone (less start-up):        {statistics.median(alone):.2f} "
              f"(rounds {', '.join(f'{x:.2f}' for x in alone)})")
        if before:
            now = [b / o for b, o in zip(times["rulelang simulate, before"], ours)]
            print(f"  simulate, before / now:                 {statistics.median(now):.2f} "
                  f"(rounds {', '.join(f'{x:.2f}' for x in now)})")


if __name__ == "__main__":
    main()
