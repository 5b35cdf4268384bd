"""The hand-written games of `benchmarks/`, the yardsticks of the interpreter's
speed, against the interpreter: the move-for-move Gobbots plays the same games
(Twenty Trials' is held to it in test_determinism.py), and the two written with
the standard library's `random` play the same game in distribution (win rate,
mean rounds, score and decisions within a 99.9% confidence interval).
A yardstick that plays another game measures nothing."""
from __future__ import annotations

import importlib.util
import math
import subprocess
import sys
from functools import cache

import pytest
from helpers import ROOT, bundled

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.game import Game

Z = 3.29  # two-sided 99.9%
STATISTICS = ("win", "rounds", "score", "decisions")


@cache
def benchmark(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def interpreted(game: Game, role: str, seed: int) -> dict:
    o = play(game, seed, {role: RandomAgent(seed, role)}).outcome
    return {"result": o["results"][role], "reason": o["reason"], "score": o["scores"][role],
            "rounds": o["rounds"], "decisions": o["decisions"]}


def test_interpreter_plays_the_hand_written_gobbots_move_for_move():
    baseline, game = benchmark("baseline_gobbots"), Game(bundled("gauntlet-gobbots"))
    outcomes = set()
    for seed in range(300):
        mine = interpreted(game, "commander", seed)
        assert mine == baseline.play(seed), seed
        outcomes.add((mine["result"], mine["reason"]))
    # the seeds reach every way the game ends
    assert outcomes == {("win", "overrun"), ("win", "all_soldiers_done"), ("lose", "overrun"),
                        ("lose", "all_soldiers_done")}


def values(outcomes: list[dict], statistic: str) -> list[float]:
    return [float(o["result"] == "win") if statistic == "win" else float(o[statistic]) for o in outcomes]


def z_score(a: list[float], b: list[float]) -> float:
    """The difference of two means in standard errors (Welch; for 0/1 values, the unpooled two-proportion test)."""
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    va = sum((x - ma) ** 2 for x in a) / (len(a) - 1)
    vb = sum((x - mb) ** 2 for x in b) / (len(b) - 1)
    se = math.sqrt(va / len(a) + vb / len(b))
    return 0.0 if se == 0 and ma == mb else (ma - mb) / se if se else math.inf


def test_z_score_tells_the_same_from_different():
    same = [0.0, 1.0] * 500
    assert z_score(same, same) == 0
    assert abs(z_score(same, [0.0, 1.0, 1.0] * 333)) > Z  # a half against two thirds, in a thousand games


@pytest.mark.parametrize("ruleset, role, name, games", [
    ("twenty-trials", "challenger", "stdlib_twenty_trials", 1000),
    ("gauntlet-gobbots", "commander", "stdlib_gobbots", 600),
    pytest.param("twenty-trials", "challenger", "stdlib_twenty_trials", 20000, marks=pytest.mark.slow),
    pytest.param("gauntlet-gobbots", "commander", "stdlib_gobbots", 20000, marks=pytest.mark.slow),
])
def test_the_standard_library_baseline_plays_the_same_game(ruleset, role, name, games):
    game, baseline = Game(bundled(ruleset)), benchmark(name)
    ours = [interpreted(game, role, seed) for seed in range(games)]
    theirs = [baseline.play(seed) for seed in range(games)]
    for statistic in STATISTICS:
        a, b = values(ours, statistic), values(theirs, statistic)
        z = z_score(a, b)
        assert abs(z) < Z, (f"{name}: mean {statistic} {sum(b) / games:.4f} against the interpreter's "
                            f"{sum(a) / games:.4f} ({z:+.1f} standard errors)")


@pytest.mark.slow
def test_the_speed_benchmark_runs(tmp_path):
    out = tmp_path / "speed.json"
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_speed.py"), "--quick", "--games", "40",
                          "--rounds", "1", "--mcts-iterations", "5", "--mcts-decisions", "1", "--out", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "games that differ from the move-for-move baseline: 0 of 40 checked" in run.stdout
    assert "gauntlet-gobbots" in out.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("bench, args", [
    ("bench_oh_hell.py", ["--players", "3,5", "--check-games", "1500"]),
    ("bench_three_mens_morris.py", ["--check-games", "4000"]),
])
def test_the_trick_taking_and_grid_benchmarks_find_their_baselines_play_the_ruleset(bench, args):
    """Their hand-written simulators have the ruleset's distribution of outcomes (the
    benchmark fails otherwise), and the run prints a ratio. About 15 s each."""
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / bench), "--games", "20", "--rounds", "1", *args],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "DIFFERENT" not in run.stdout and "ratio" in run.stdout


def test_the_distribution_check_tells_other_rules_apart():
    """A Three Men's Morris whose men may not move along the diagonals is told apart from the
    real one in 8,000 games a side (the benchmarks' check, distributions.py)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    morris, distributions = benchmark("stdlib_three_mens_morris"), benchmark("distributions")
    real = [morris.play(s) for s in range(8000)]
    orthogonal = [[j for j in nxt if abs(j - i) in (1, 3)] for i, nxt in enumerate(morris.NEXT)]
    saved, morris.NEXT[:] = morris.NEXT[:], orthogonal
    try:
        other = [morris.play(s + 10 ** 6) for s in range(8000)]
    finally:
        morris.NEXT[:] = saved
    by = benchmark("bench_three_mens_morris").statistics_of
    lines = distributions.same_distributions(by(real), by(other))
    assert any(line.startswith("DIFFERENT") for line in lines), lines
