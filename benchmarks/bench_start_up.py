"""Benchmark: what a command costs before its first game — `rulelang --help`,
and `rulelang check` and `rulelang simulate --games 1 --jobs 1` of every
bundled ruleset with the cache of that text empty (cold) and filled (warm) —
against Python's own start-up in the same run.

    python benchmarks/bench_start_up.py [--rounds R] [--only NAME ...] [--before DIR]

Every figure is a whole process (`python -m cli ...`, as the `rulelang`
script runs it): its CPU time (user and system, from wait4, so the load of a
shared machine counts little) and its wall time. The commands take turns in
each round — the baseline, `--help`, then each ruleset cold and warm — and
the medians of the rounds are printed as a Markdown table. Cold runs get a
fresh cache folder (`RULELANG_CACHE_DIR`) holding only the grammar's tables
(kept per version of rulelang, not per text: a text never seen before finds
them there), made by one run before the rounds; warm runs the folder their
cold run filled. Nothing is written outside a temporary folder. `--before DIR`: another
checkout (e.g. `git worktree add --detach /tmp/before main`), each of whose
commands takes its turn right after the same command of this one, so the
two are measured under the same load. Every process runs as an installed package
does, with its bytecode: each checkout's modules are compiled before the rounds,
untimed, and the processes run without PYTHONDONTWRITEBYTECODE whatever the
caller's environment (installed.py).
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from installed import as_installed

ROOT = Path(__file__).resolve().parent.parent


def timed(argv: list[str], env: dict, cwd: Path = ROOT) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one whole process, which must succeed."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode() if process.stderr else ""
    if process.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}): {error}")
    return usage.ru_utime + usage.ru_stime, wall


def rulesets(only: list[str]) -> list[Path]:
    found = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "rulesets" / "examples").glob("*.yaml"))
    return [p for p in found if not only or p.stem in only]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--only", nargs="*", default=[], metavar="NAME", help="only these rulesets (by file name)")
    parser.add_argument("--before", type=Path, metavar="DIR", help="another checkout, measured in the same rounds")
    args = parser.parse_args()
    roots = [(ROOT, "")] + ([(args.before.resolve(), " (before)")] if args.before else [])
    python, cli = [sys.executable], [sys.executable, "-m", "cli"]
    cases = [("python -c pass (baseline)", python + ["-c", "pass"], None),
             ("rulelang --help", cli + ["--help"], None)]
    for path in rulesets(args.only):
        name = str(path.relative_to(ROOT / "rulesets"))
        for command in (["check", str(path)], ["simulate", str(path), "--games", "1", "--jobs", "1"]):
            cases += [(f"{command[0]} {name}, cold", cli + command, "cold"),
                      (f"{command[0]} {name}, warm", cli + command, "warm")]
    figures: dict[str, list[tuple[float, float]]] = {label + tag: [] for label, _, _ in cases for _, tag in roots}
    installed = as_installed(*(root for root, _ in roots))
    with tempfile.TemporaryDirectory() as scratch:
        for k, (root, _) in enumerate(roots):  # the grammar's tables every cold run starts with
            timed(cli + ["check", "--no-cache", "pig-race"],
                  {**installed, "RULELANG_CACHE_DIR": _grammar(scratch, k)}, root)
        for r in range(args.rounds):
            for i, (label, argv, cache) in enumerate(cases):
                for k, (root, tag) in enumerate(roots):
                    env = dict(installed)
                    if cache is not None:
                        # a cold run and the warm run after it share a folder; each round starts empty
                        env["RULELANG_CACHE_DIR"] = os.path.join(scratch, f"{r}-{i - (cache == 'warm')}-{k}")
                        tables = os.path.join(_grammar(scratch, k), "grammar")
                        if cache == "cold" and os.path.isdir(tables):
                            shutil.copytree(tables, os.path.join(env["RULELANG_CACHE_DIR"], "grammar"))
                    # the same file of the other checkout (a path inside this one names it there)
                    there = [a.replace(str(ROOT), str(root)) for a in argv]
                    figures[label + tag].append(timed(there, env, root))
            print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print(f"| command ({args.rounds} rounds, medians) | CPU s | wall s |")
    print("|---|---:|---:|")
    for label, runs in figures.items():
        print(f"| {label} | {statistics.median(c for c, _ in runs):.3f} | {statistics.median(w for _, w in runs):.3f} |")


def _grammar(scratch: str, k: int) -> str:
    return os.path.join(scratch, f"grammar-{k}")


if __name__ == "__main__":
    main()
