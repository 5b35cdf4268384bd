"""Benchmark: machine instructions a game, counted by valgrind — the measure the machine's noise does not touch.

    python benchmarks/bench_instructions.py [--before DIR] [--games 300] [RULESET ROLE ...]

Plays the games of a random player under `valgrind --tool=cachegrind` twice, with 0 and
with N games after one warm-up game, and reports the difference / N: what a game costs,
start-up and compiling left out. Counts repeat within about 0.3% (PYTHONHASHSEED is fixed),
so a change of 1% shows, where timing on this shared machine swings 5–30%. They are not
time (a cache miss costs more than an add), so a change that counts less is still timed
(bench_speed.py, bench_versions.py) before it is claimed. `--before DIR`: another checkout
(e.g. `git worktree add --detach /tmp/before HEAD~1`), counted the same way. Needs valgrind.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("twenty-trials", "challenger"), ("gauntlet-gobbots", "commander")]

PLAY = """
import sys
from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_ruleset
name, role, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
game = Game(load_ruleset(name))
viewer = Viewer(game)
roles = game.roles if role == "all" else [role]
play(game, 10 ** 6, {r: RandomAgent(10 ** 6, r) for r in roles}, viewer=viewer)  # the first game's one-off work
for seed in range(n):
    play(game, seed, {r: RandomAgent(seed, r) for r in roles}, viewer=viewer)
"""


def instructions(tree: Path, name: str, role: str, games: int, script: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={tmp}/out",
             sys.executable, str(script), name, role, str(games)],
            cwd=tree, capture_output=True, text=True, check=True,
            # (the cache of compiled modes off: the run of 0 games would fill it and that of N read it)
            env={**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0", "RULELANG_CACHE": "off"}).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", out)[1].replace(",", ""))


def per_game(tree: Path, name: str, role: str, games: int, script: Path) -> float:
    return (instructions(tree, name, role, games, script) - instructions(tree, name, role, 0, script)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="another checkout of the project, counted the same way")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("games_to_play", nargs="*", metavar="RULESET ROLE",
                        help="default: Twenty Trials, Gobbots (ROLE `all`: every role a random player)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions: valgrind is not installed")
    pairs = list(zip(args.games_to_play[::2], args.games_to_play[1::2])) or GAMES
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "play.py"
        script.write_text(PLAY)
        for name, role in pairs:
            now = per_game(ROOT, name, role, args.games, script)
            line = f"{name:24} {now:>12,.0f} instructions a game"
            if args.before is not None:
                before = per_game(args.before.resolve(), name, role, args.games, script)
                line += f"   before {before:>12,.0f}   now/before {now / before:.3f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
