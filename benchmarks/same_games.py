"""Same games before and after a change: N random games of every bundled ruleset and mode, compared.

    python benchmarks/same_games.py record OUT.json [--tree DIR] [--games 10000] [--jobs 2] [--cached]
    python benchmarks/same_games.py compare BEFORE.json AFTER.json

`record` plays, with the checkout at DIR (default: this one), `--games` random games of every
bundled ruleset and example and every mode, their parameter sets sharing the seeds as the
invariant tests share them (each player count, all options, each option alone), and writes a
digest of each game: its answers and its outcome (not its step count, which is the compiler's
own bookkeeping). `compare` names every configuration whose games differ and the first seed
that does. The compiler rewrite of issue 34 was checked this way against the code before it
(10,000 games a mode). Only the engine's public API is used, so any two checkouts compare.
`--cached`: each configuration is compiled once into the cache of compiled modes first
(interpreter/engine/compiled_cache.py), and every game is played by a game whose rules came
back from it, as a command's do.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def parameter_sets(ruleset) -> list[dict]:
    """No options and every player count; all options; each option alone (as tests/helpers does)."""
    from rulelang.types import BOOL
    flags = [name for name, p in ruleset.params.items() if p.type == BOOL]
    counts = range(ruleset.players.low, ruleset.players.high + 1) if ruleset.players else ()
    sets = ([{"players": str(n)} for n in counts] or [{}]) + ([{f: "true" for f in flags}] if len(flags) > 1 else [])
    return sets + [{f: "true"} for f in flags]


def tasks(games: int) -> list[tuple]:
    from rulelang import bundled_names, load_ruleset
    out = []
    for name in bundled_names():
        rs = load_ruleset(name)
        sets = parameter_sets(rs)
        share = -(-games // len(sets))
        for mode in rs.modes:
            for i, params in enumerate(sets):
                out.append((name, mode, params, i * share, (i + 1) * share))
    return out


_GAMES: dict = {}
_OPTIONS: dict = {}  # how games are made: {"cached": True} with --cached (set before the workers fork)


def play(task) -> tuple[str, list[str]]:
    from interpreter.engine.game import Game
    from interpreter.runtime import rng
    from rulelang import load_ruleset
    name, mode, params, first, end = task
    key = (name, mode, tuple(sorted(params.items())))
    if key not in _GAMES:
        _GAMES[key] = Game(load_ruleset(name, params), mode, **_OPTIONS)
    game, digests = _GAMES[key], []
    for seed in range(first, end):
        st = game.new_state(seed)
        streams = {role: rng.derive(seed, "agent:" + role) for role in game.roles}
        while not game.is_terminal(st):
            p = game.decision(st)
            game.apply(st, rng.pick(streams[p.role], st.decisions, len(p.options)))
        text = json.dumps([st.answers(), game.outcome(st)], sort_keys=True, default=str)
        digests.append(hashlib.sha256(text.encode()).hexdigest()[:12])
    label = f"{name} {mode} {','.join(f'{k}={v}' for k, v in sorted(params.items())) or '-'} {first}"
    return label, digests


def record(out: Path, games: int, jobs: int, cached: bool = False) -> None:
    work = sorted(tasks(games), key=lambda t: t[0] not in ("hand-of-fate-ordeals", "gauntlet-race-crossfire"))
    if cached:
        from interpreter.engine.game import Game
        from rulelang import load_ruleset
        _OPTIONS["cached"] = True
        for name, mode, params in {(n, m, tuple(sorted(p.items()))) for n, m, p, _, _ in work}:
            Game(load_ruleset(name, dict(params)), mode, cached=True)  # compiled into the cache
    chunks = [(n, m, p, s, min(s + 250, e)) for n, m, p, first, e in work for s in range(first, e, 250)]
    found = {}
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for label, digests in pool.imap_unordered(play, chunks):
            found[label] = digests
            print(label, len(digests), flush=True)
    out.write_text(json.dumps(dict(sorted(found.items())), indent=0))


def compare(before: Path, after: Path) -> int:
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    differ = 0
    for label in sorted(set(a) | set(b)):
        if a.get(label) != b.get(label):
            differ += 1
            x, y = a.get(label) or [], b.get(label) or []
            seed = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
            print(f"DIFFER {label}: first at game {seed} of the chunk")
    games = sum(len(v) for v in a.values())
    print(f"{len(a)} chunks, {games:,} games: {'the same' if not differ else f'{differ} chunks differ'}")
    return 1 if differ else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record")
    r.add_argument("out", type=Path)
    r.add_argument("--tree", type=Path, default=ROOT)
    r.add_argument("--games", type=int, default=10_000)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--cached", action="store_true", help="games from the cache of compiled modes")
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "compare":
        return compare(args.before, args.after)
    tree = args.tree.resolve()
    if os.environ.get("SAME_GAMES_TREE") != str(tree):  # run again with the other checkout first on the path
        env = {**os.environ, "SAME_GAMES_TREE": str(tree), "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
        return subprocess.run([sys.executable, __file__, *sys.argv[1:]], cwd=tree, env=env).returncode
    record(args.out.resolve(), args.games, args.jobs, args.cached)
    return 0


if __name__ == "__main__":
    sys.exit(main())
