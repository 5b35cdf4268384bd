"""Record how a compatibility corpus file plays (tests/compat/): the outcome of
`rulelang run FILE --seed S --json` for a few seeds, at the players counts the
test plays, with the code of a checkout — today's, or the one the file was
written for, when today's no longer checks it. The corpus test then holds
every later version of rulelang to those games.

    python scripts/compat_expected.py tests/compat/feast-of-rolls.yaml --code /tmp/old --label 47c57e4
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

SEEDS = (0, 1, 2)
EXPECTED = Path(__file__).resolve().parent.parent / "tests" / "compat" / "expected.json"
KEPT = ("results", "scores", "rounds", "decisions")  # what every version's outcome says


def counts(path: Path) -> list[int | None]:
    """The players counts to play: none for named roles, else the fewest and the most."""
    import yaml
    players = (yaml.safe_load(path.read_text()) or {}).get("players")
    if players is None:
        return [None]
    if isinstance(players, int):
        return [players]
    low, _, high = str(players.get("count")).partition("..")
    return sorted({int(low), int(high or low)})


def played(path: Path, code: Path, seed: int, players: int | None) -> dict:
    args = [sys.executable, "-m", "cli", "run", str(path.resolve()), "--seed", str(seed), "--json"]
    args += ["--set", f"players={players}"] if players is not None else []
    done = subprocess.run(args, cwd=code, capture_output=True, text=True, check=True)
    outcome = json.loads(done.stdout)
    return {k: outcome[k] for k in KEPT}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="the files to play (none: only record the new files' hashes)")
    ap.add_argument("--code", type=Path, default=Path(__file__).resolve().parent.parent,
                    help="the checkout whose rulelang plays the games (default: this one)")
    ap.add_argument("--label", help="which version that is (a commit), kept with the games")
    args = ap.parse_args()
    expected = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}
    for path in args.files:
        games = {}
        for n in counts(path):
            for seed in SEEDS:
                games[f"{seed}" if n is None else f"{seed}/players={n}"] = played(path, args.code, seed, n)
        expected[path.name] = {"played_by": args.label, "games": games}
        print(f"{path.name}: {len(games)} games")
    files = expected.setdefault("$files", {})  # every corpus file's hash: the test holds it to it
    for path in sorted(EXPECTED.parent.rglob("*.yaml")):
        name, digest = str(path.relative_to(EXPECTED.parent)), hashlib.sha256(path.read_bytes()).hexdigest()
        if files.setdefault(name, digest) != digest:
            sys.exit(f"{name} was edited: a corpus file never is (add a new one instead)")
    EXPECTED.write_text(json.dumps(dict(sorted(expected.items())), indent=1) + "\n")


if __name__ == "__main__":
    main()
