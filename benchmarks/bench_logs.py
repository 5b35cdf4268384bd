"""Benchmark: what writing a game's log costs — a logged game against the same game unlogged.

    python benchmarks/bench_logs.py [--games 6] [--players 2] [--instructions] [RULESET ...]

Plays the same seeds with random players twice, once writing the referee's log (a file, as
`rulelang run --log` does) and once not, alternating the two game by game so that the shared
machine's load falls on both alike, and reports the CPU seconds of each and their ratio (the
target: a logged game costs at most 1.3 times an unlogged one). `--instructions` counts machine
instructions under valgrind instead (load-insensitive; slower): the difference between
playing the games and playing none, logged and unlogged. Default ruleset: Hand of Fate, whose
log cost five times the game before the log reused one view of the game for every record.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
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

PLAY = """
import sys
from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.game import Game
from interpreter.engine.logs import GameLog, header
from rulelang import load_ruleset
name, players, n, logged = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "log"
game = Game(load_ruleset(name, {"players": players} if players != "-" else {}))
def one(seed):
    agents = {r: RandomAgent(seed, r) for r in game.roles}
    if not logged:
        return play(game, seed, agents)
    with open(sys.argv[5], "w") as f:
        play(game, seed, agents, log=GameLog(f, header(game.ruleset, None, game.mode.name, seed, {})))
one(10 ** 6)  # the first game's one-off work
for seed in range(n):
    one(seed)
"""


def game_for(name: str, players: str) -> Game:
    return Game(load_ruleset(name, {"players": players} if players != "-" else {}))


def one_game(game: Game, seed: int, log_path: str | None) -> float:
    agents = {r: RandomAgent(seed, r) for r in game.roles}
    start = time.process_time()
    if log_path is None:
        play(game, seed, agents)
    else:
        with open(log_path, "w") as f:
            play(game, seed, agents, log=GameLog(f, header(game.ruleset, None, game.mode.name, seed, {})))
    return time.process_time() - start


def paired(name: str, players: str, games: int) -> tuple[float, float]:
    game = game_for(name, players)
    one_game(game, 10 ** 6, None)  # warm-up: the first game's one-off work
    plain = logged = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "game.jsonl")
        for seed in range(games):
            if seed % 2:  # alternate which goes first
                logged += one_game(game, seed, path)
                plain += one_game(game, seed, None)
            else:
                plain += one_game(game, seed, None)
                logged += one_game(game, seed, path)
    return plain / games, logged / games


def instructions(name: str, players: str, games: int, logged: bool, script: Path, log_path: str) -> int:
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={log_path}.cg",
         sys.executable, str(script), name, players, str(games), "log" if logged else "plain", log_path],
        cwd=ROOT, capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"}).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out)[1].replace(",", ""))


def counted(name: str, players: str, games: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        script, path = Path(tmp) / "play.py", os.path.join(tmp, "game.jsonl")
        script.write_text(PLAY)
        base = {logged: instructions(name, players, 0, logged, script, path) for logged in (False, True)}
        return tuple((instructions(name, players, games, logged, script, path) - base[logged]) / games
                     for logged in (False, True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", default="2", help="the players parameter ('-' for a ruleset of roles)")
    parser.add_argument("--instructions", action="store_true", help="count instructions under valgrind")
    parser.add_argument("rulesets", nargs="*", default=["hand-of-fate-ordeals"])
    args = parser.parse_args()
    if args.instructions and shutil.which("valgrind") is None:
        sys.exit("bench_logs: valgrind is not installed")
    unit = "instructions" if args.instructions else "CPU s"
    for name in args.rulesets:
        plain, logged = (counted if args.instructions else paired)(name, args.players, args.games)
        print(f"{name:24} {args.games} games: unlogged {plain:,.3f} {unit} a game, logged {logged:,.3f}, "
              f"logged/unlogged {logged / plain:.2f}", flush=True)


if __name__ == "__main__":
    main()
