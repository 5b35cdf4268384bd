"""The compatibility corpus (tests/compat/): rulesets written against earlier
versions of the language — the bundled rulesets as they were at earlier
commits (history/), and games written the way a user of an older version
would have, with names the language has since taken for itself. None is ever
edited (their hashes are recorded): each must keep checking, and keep playing
the games it played then (expected.json, recorded by
scripts/compat_expected.py with the code of the version it was written for).
"""
import hashlib
import json
from pathlib import Path

import pytest

from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.engine.game import Game
from rulelang import load_ruleset

HERE = Path(__file__).parent / "compat"
EXPECTED = json.loads((HERE / "expected.json").read_text())
FILES = sorted(p for p in HERE.rglob("*.yaml"))
LONG = {"hand-of-fate-ordeals@e97edc0.yaml", "gauntlet-16-7@a952964.yaml", "gauntlet-race@15b16b6.yaml",
        "gauntlet-gobbots@4d633b2.yaml"}


def test_the_corpus_is_never_edited():
    recorded = EXPECTED["$files"]
    assert sorted(recorded) == sorted(str(p.relative_to(HERE)) for p in FILES)
    for path in FILES:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        assert recorded[str(path.relative_to(HERE))] == digest, f"{path.name} was edited: the corpus never is"


def games_of(path: Path, every: bool):
    """(seed, players count or None, the expected outcome) of the file's recorded games."""
    games = EXPECTED.get(path.name, {}).get("games", {})
    for key, outcome in games.items():
        seed, _, count = key.partition("/players=")
        if every or seed == "0":
            yield int(seed), int(count) if count else None, outcome


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name, marks=[pytest.mark.slow] if p.name in LONG else [])
                                  for p in FILES])
def test_every_corpus_ruleset_checks_and_plays_the_games_it_played(path):
    """Checked at its default players count, and its recorded games of seed 0 played (all seeds
    and every count in the slow run, below)."""
    ruleset = load_ruleset(str(path))
    for mode in ruleset.modes:
        Game(ruleset, mode)
    same_games(path, every=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in FILES])
def test_every_corpus_ruleset_checks_at_every_count_and_plays_every_recorded_game(path):
    base = load_ruleset(str(path))
    counts = [None] if base.players is None else range(base.players.low, base.players.high + 1)
    for n in counts:
        ruleset = base if n is None else load_ruleset(str(path), {"players": str(n)})
        for mode in ruleset.modes:
            Game(ruleset, mode)
    same_games(path, every=True)


def same_games(path: Path, every: bool) -> None:
    for seed, count, expected in games_of(path, every):
        ruleset = load_ruleset(str(path), {"players": str(count)} if count is not None else None)
        game = Game(ruleset)
        st = play(game, seed, {r: make_agent("random", seed, r) for r in game.roles})
        got = {k: st.outcome[k] for k in expected}
        assert got == expected, f"{path.name}, seed {seed}" + (f", {count} players" if count else "")
