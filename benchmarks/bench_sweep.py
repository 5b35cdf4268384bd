"""Benchmark: a sweep's throughput on each backend, against `simulate --jobs 1`.

    python benchmarks/bench_sweep.py [--games N] [--rounds R] [--small GAMES]

Plays the same sweep — Twenty Trials, small-hand variant, hand_size 3, 4, 5
and 6, a random Challenger, N games each — on:

    simulate, 1 job     the reference: `simulate()` once per configuration, in this process
    in process          `sweep --jobs 1`
    1 local worker      a pool of one worker process (what a worker costs)
    2 local workers     `sweep --jobs 2`
    Dask, 2 workers     `sweep --dask local --jobs 2` (the cluster started once, beforehand)

in alternating rounds, and checks that every backend gives the same
figures. Each backend runs twice a round: with its default chunks and with
chunks of --small games; the extra cost over the extra chunks is its
overhead per chunk (shipping, the worker's bookkeeping, taking the results
back in order). Last, the parent's own cost per game — counting a game into
its configuration's summary and writing its row — which bounds how many
games a second one sweep can take in, however many workers play.

The machine is shared, so besides the wall-clock rate (which says as much
about the neighbours as about rulelang) the CPU time of every process is
accounted — this one, its finished workers, and the Dask workers (asked
with `client.run`) — and the CPU per game is the figure to compare:
workers ÷ (CPU per game) is the rate on idle cores. Medians of the rounds.
"""
from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_simulate_jobs import cpu_seconds as cpu_here  # noqa: E402  (this process and its finished children)

from interpreter.analysis.backends import Dask, InProcess, Processes  # noqa: E402
from interpreter.analysis.records import open_rows, row  # noqa: E402
from interpreter.analysis.simulate import simulate  # noqa: E402
from interpreter.analysis.sweep import plan, run  # noqa: E402
from rulelang import load_ruleset  # noqa: E402

GRID = {"hand_size": ["3", "4", "5", "6"]}


def figures(points) -> list:
    return [(p.configuration.index, p.figures) for p in points]


def _cpu_of_process() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    return me.ru_utime + me.ru_stime


def cpu_seconds(backend) -> float:
    """CPU seconds so far of this process, its finished workers and a Dask backend's workers."""
    remote = sum(backend.client.run(_cpu_of_process).values()) if isinstance(backend, Dask) else 0.0
    return cpu_here() + remote


def timed(sweep, backend, size=None):
    """(wall seconds, CPU seconds, the figures, chunks)."""
    start, cpu = time.perf_counter(), cpu_seconds(backend)
    points = run(sweep, backend, size=size)
    wall = time.perf_counter() - start
    return wall, cpu_seconds(backend) - cpu, figures(points), len(sweep.chunks(backend.workers, size))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per configuration (default 2000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (default 5)")
    parser.add_argument("--small", type=int, default=25, help="games per chunk for the overhead (default 25)")
    args = parser.parse_args()
    ruleset = load_ruleset("twenty-trials-small-hand")
    sweep = plan([("twenty-trials-small-hand", ruleset)], GRID, {}, args.games)
    if sweep.chunks(2)[0].count <= args.small:
        parser.error("--small must be below the default chunk (play more --games)")
    games = sweep.total
    start = time.perf_counter()
    dask = Dask(workers=2)
    print(f"Dask LocalCluster of 2 workers started in {time.perf_counter() - start:.2f} s")
    backends = {"in process": InProcess(), "1 local worker": Processes(1), "2 local workers": Processes(2),
                "Dask, 2 workers": dask}
    names = ["simulate, 1 job", *backends]
    rates, cpus = {n: [] for n in names}, {n: [] for n in names}
    overheads: dict[str, list] = {name: [] for name in backends}
    try:
        for r in range(args.rounds):
            start, cpu = time.perf_counter(), cpu_here()
            for c in sweep.configurations:
                simulate(c.setup.game(), args.games, 0, dict(c.setup.kinds))
            rates[names[0]].append(games / (time.perf_counter() - start))
            cpus[names[0]].append((cpu_here() - cpu) / games)
            line = [f"round {r + 1}: simulate {1e6 * cpus[names[0]][-1]:4.0f} µs"]
            reference = None
            for name, backend in backends.items():
                wall, cpu, result, chunks = timed(sweep, backend)
                _, cpu_small, again, many = timed(sweep, backend, args.small)
                reference = reference or result
                assert result == again == reference, f"{name} changed the results"
                rates[name].append(games / wall)
                cpus[name].append(cpu / games)
                overheads[name].append((cpu_small - cpu) / (many - chunks))
                line.append(f"{name} {1e6 * cpu / games:4.0f} µs ({1e3 * overheads[name][-1]:+.1f} ms/chunk)")
            print("   ".join(line) + "   (CPU per game)", flush=True)
    finally:
        dask.close()
    base = statistics.median(cpus[names[0]])
    print(f"\nmedians of {args.rounds} rounds, {len(sweep.configurations)} configurations × {args.games} games "
          f"({games:,} games; default chunks of {sweep.chunks(2)[0].count} games with 2 workers, "
          f"{sweep.chunks(1)[0].count} with 1):")
    print(f"  {'':<18} {'wall':>12} {'CPU per game':>14} {'vs simulate':>12} {'on idle cores':>15} "
          f"{'overhead per chunk (CPU)':>26}")
    for name in names:
        cpu = statistics.median(cpus[name])
        workers = backends[name].workers if name in backends else 1
        extra = f"{1e3 * statistics.median(overheads[name]):8.2f} ms" if name in overheads else ""
        print(f"  {name:<18} {statistics.median(rates[name]):8,.0f} g/s {1e6 * cpu:10.0f} µs {cpu / base:11.2f}x "
              f"{workers / cpu:9,.0f} g/s {extra:>26}")
    parent_cost(sweep)


def parent_cost(sweep) -> None:
    """The parent's cost per game: count it and write its row, with the games already played."""
    played = [(chunk, results) for chunk, results in InProcess().run([c.setup for c in sweep.configurations],
                                                                      sweep.chunks(1))]

    class Replay:  # a backend that hands back games played before
        workers = 1

        def run(self, setups, chunks):
            yield from played

    for suffix in ("", ".csv", ".jsonl"):
        with tempfile.TemporaryDirectory() as folder:
            writer = open_rows(f"{folder}/rows{suffix}", sweep.fields(), sweep.run_name()) if suffix else None
            if writer:
                writer.start()

            def on_game(configuration, seed, outcome):
                if writer:
                    writer.write(row(seed, outcome, configuration.lead(sweep)))
            start = time.perf_counter()
            run(sweep, Replay(), on_game=on_game)
            seconds = time.perf_counter() - start
            if writer:
                writer.finish()
        print(f"  the parent's cost per game, {'rows to ' + suffix if suffix else 'no rows'}: "
              f"{1e6 * seconds / sweep.total:.1f} µs ({sweep.total / seconds:,.0f} games/s at most)")


if __name__ == "__main__":
    main()
