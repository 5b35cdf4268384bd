"""Benchmark: what writing a game's log costs — a logged game against the same game unlogged.

    python benchmarks/bench_logs.py [--games 6] [--players 2,3,4] [--in-process] [RULESET ...]

By default it runs `rulelang run RULESET --seed S --set players=N` with and without `--log FILE`
(random players), the two alternating seed by seed so that the shared machine's load falls on both
alike, and reports the CPU seconds of each process (start-up included, as a user pays it) and
their ratio; the target is at most 1.3. `--in-process` plays the games in this process instead,
a log file a game, and reports the CPU seconds of the games alone: the log's own cost per game,
where a game of random players costs milliseconds. Default ruleset: Hand of Fate, whose log cost
five times its game before one view of the game served every record.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents.match import play  # noqa: E402
from interpreter.agents.simple import RandomAgent  # noqa: E402
from interpreter.engine.game import Game  # noqa: E402
from interpreter.engine.logs import GameLog, header  # noqa: E402
from rulelang import load_ruleset  # noqa: E402


def cli_seconds(name: str, players: str, seed: int, log: str | None) -> float:
    """The CPU seconds (user and system) of one `rulelang run`."""
    args = [sys.executable, "-m", "cli", "run", name, "--seed", str(seed), "--set", f"players={players}"]
    proc = subprocess.Popen(args + (["--log", log] if log else []), cwd=ROOT, stdout=subprocess.DEVNULL,
                            env={k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
    _, status, usage = os.wait4(proc.pid, 0)
    if status:
        raise SystemExit(f"bench_logs: `{' '.join(args)}` failed")
    return usage.ru_utime + usage.ru_stime


def game_seconds(game: Game, seed: int, log: str | None) -> float:
    """The CPU seconds of one game played in this process (and its log written, with `log`)."""
    agents = {r: RandomAgent(seed, r) for r in game.roles}
    start = time.process_time()
    if log is None:
        play(game, seed, agents)
    else:
        with open(log, "w") as f:
            play(game, seed, agents, log=GameLog(f, header(game.ruleset, None, game.mode.name, seed, {}), batch=256))
    return time.process_time() - start


def paired(measure, games: int, log: str) -> tuple[float, float]:
    """Mean (unlogged, logged) of `measure(seed, log or None)`, alternating which goes first."""
    plain = logged = 0.0
    for seed in range(games):
        for with_log in ((True, False) if seed % 2 else (False, True)):
            t = measure(seed, log if with_log else None)
            logged, plain = (logged + t, plain) if with_log else (logged, plain + t)
    return plain / games, logged / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated ('-': a ruleset of roles)")
    parser.add_argument("--in-process", action="store_true", help="the games alone, played in this process")
    parser.add_argument("rulesets", nargs="*", default=["hand-of-fate-ordeals"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "game.jsonl")
        for name in args.rulesets:
            for players in args.players.split(","):
                params = {"players": players} if players != "-" else {}
                if args.in_process:
                    game = Game(load_ruleset(name, params))
                    game_seconds(game, 10 ** 6, None)  # the first game's one-off work
                    plain, logged = paired(lambda seed, to: game_seconds(game, seed, to), args.games, log)
                else:
                    plain, logged = paired(lambda seed, to: cli_seconds(name, players, seed, to), args.games, log)
                what = "game" if args.in_process else "`rulelang run`"
                print(f"{name} players={players}, {args.games} seeds: CPU s a {what} unlogged {plain:.4f}, "
                      f"logged {logged:.4f}, logged/unlogged {logged / plain:.2f}", flush=True)


if __name__ == "__main__":
    main()
