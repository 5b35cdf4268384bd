"""The race, 16-7 and Hand of Fate played out by `rulelang simulate` at every player count, with
random and with greedy players, every effect checked (`--check-invariants`): no game may end in
an error. Issue 32's audits found crashes only whole games reach (the King's defeat); these are
the long runs that keep them found (slow: CI runs them after the default suite)."""
import json
import subprocess
import sys

import pytest
from helpers import ROOT

COUNTS = {"gauntlet-race": (2, 3, 4), "gauntlet-16-7": (3, 4, 5), "hand-of-fate-ordeals": (1, 2, 3, 4)}
# random players: several games; greedy players look ahead on every decision: one or two, and Hand
# of Fate's shortened (its greedy games cost minutes at the default 40 rounds)
GAMES = {("gauntlet-race", "random"): 4, ("gauntlet-race", "greedy"): 2, ("gauntlet-16-7", "random"): 4,
         ("gauntlet-16-7", "greedy"): 2, ("hand-of-fate-ordeals", "random"): 4, ("hand-of-fate-ordeals", "greedy"): 1}
EXTRA = {("hand-of-fate-ordeals", "greedy"): ["--set", "round_limit=10"],
         # random players of the race wander for hundreds of turns: its limit, lower, ends them sooner
         ("gauntlet-race", "random"): ["--set", "turn_limit=300"]}


@pytest.mark.slow
@pytest.mark.parametrize("name, players, agent", [(n, p, a) for n, counts in COUNTS.items() for p in counts
                                                   for a in ("random", "greedy")])
def test_simulate_plays_every_count_to_the_end_without_an_error(name, players, agent):
    roles = [f"--agent={r}={agent}" for r in (
        ("red", "blue", "yellow", "green")[:players] if name == "gauntlet-race"
        else [f"player_{i}" for i in range(1, players + 1)])]
    games = GAMES[name, agent]
    r = subprocess.run([sys.executable, "-m", "cli", "simulate", name, "--set", f"players={players}", "--games",
                        str(games), "--check-invariants", "--jobs", "2", "--json", *roles, *EXTRA.get((name, agent), [])],
                       capture_output=True, text=True, cwd=ROOT, timeout=3000)
    assert r.returncode == 0, r.stderr[-2000:]
    data = json.loads(r.stdout)
    assert data["errors"]["games"] == 0 and sum(data["outcomes"].values()) == games, data["errors"]
