"""Simulation and analysis: statistics, jobs, rows per game, measures, compare, plots."""
import csv
import io
import json
import math
import random
import re

import pytest
from helpers import ROOT, game_for, rulelang
from helpers.commands import cli

from cli.progress import Progress
from interpreter.analysis.compare import compare
from interpreter.analysis.simulate import simulate
from interpreter.analysis.stats import (
    holm,
    mean_interval,
    paired_difference,
    quartiles,
    t_quantile,
    t_two_sided_p,
    welch_difference,
    wilson,
)
from interpreter.engine.game import Game
from rulelang import RulesetError, load_ruleset, load_text, version

SOURCE = (ROOT / "rulesets" / "twenty-trials.yaml").read_text()


def without_speed(data: dict) -> dict:
    return data | {"games_per_second": None}


# ------------------------------------------------------------------ statistics


def test_intervals_match_textbook_values():
    lo, hi = wilson(10, 100)  # Wilson 95%: 5.52% .. 17.44%
    assert (round(lo, 4), round(hi, 4)) == (0.0552, 0.1744)
    m, lo, hi = mean_interval([1, 2, 3, 4, 5])  # t(4) = 2.7764, sd = 1.5811
    assert m == 3 and math.isclose(hi - m, 2.776445 * 1.5811388 / math.sqrt(5), rel_tol=1e-6)
    assert quartiles([5, 1, 4, 2, 3]) == (1, 2, 3, 4, 5)


def test_paired_and_welch_differences():
    d = paired_difference([0, 1, 0, 1], [1, 1, 1, 1])
    assert d.value == 0.5 and d.paired and d.low < 0.5 < d.high
    same = paired_difference([3, 4, 5], [3, 4, 5])
    assert (same.value, same.low, same.high, same.p) == (0, 0, 0, 1.0)
    w = welch_difference([1, 2, 3, 4], [11, 12, 13, 14])
    assert w.value == 10 and not w.paired and math.isclose(w.p, 3.4364e-5, rel_tol=1e-4)  # t = 10.95, 6 df
    assert welch_difference([1], [2, 3]) is None


def test_student_t_matches_known_values():
    # quantiles from tables (and scipy.stats.t.ppf), p-values from scipy.stats.t.sf
    for p, df, t in [(0.975, 1, 12.7062), (0.975, 5, 2.5706), (0.975, 29, 2.0452), (0.975, 30, 2.0423),
                     (0.975, 31, 2.0395), (0.975, 40, 2.0211), (0.975, 120, 1.9799), (0.975, 10_000, 1.9602),
                     (0.995, 10, 3.1693), (0.9, 3, 1.6377)]:
        assert round(t_quantile(p, df), 4) == t, (p, df)
    for p, df in [(0.975, 2.5), (0.975, 17.3), (0.9, 251.7)]:  # Welch's df are not whole: the density integrated
        assert math.isclose(integrated_t_cdf(t_quantile(p, df), df), p, abs_tol=1e-9), (p, df)
    assert math.isclose(t_quantile(0.975, 10 ** 9), 1.959964, rel_tol=1e-6)  # the normal's, at the limit
    assert t_quantile(0.025, 7) == -t_quantile(0.975, 7)
    for t, df, p in [(2.0, 5, 0.1019), (2.0, 40, 0.0523), (1.0, 1, 0.5), (3.5, 12, 0.0044), (0.0, 8, 1.0)]:
        assert round(t_two_sided_p(t, df), 4) == p, (t, df)
    assert math.isclose(t_two_sided_p(2.0, 5), 0.101939, rel_tol=1e-5)


def integrated_t_cdf(x: float, df: float, steps: int = 20_000) -> float:
    """Student's t CDF by Simpson's rule over its density: a check independent of stats.py's continued fraction."""
    scale = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    density = [scale * (1 + (i * x / steps) ** 2 / df) ** (-(df + 1) / 2) for i in range(steps + 1)]
    inner = sum((4 if i % 2 else 2) * density[i] for i in range(1, steps))
    return 0.5 + (density[0] + density[-1] + inner) * x / steps / 3


def test_a_difference_is_significant_exactly_when_its_interval_leaves_out_zero():
    """The issue's 1,005 disagreements in 12,000 small comparisons: none now, paired or Welch."""
    rng = random.Random(18)
    checked = 0
    for _ in range(3000):
        n = rng.randint(2, 60)
        a = [rng.randint(0, 6) for _ in range(n)]
        b = [rng.randint(0, 6) + rng.choice((0, 0, 1)) for _ in range(rng.randint(2, 60))]
        for d in (paired_difference(a, b[:n]) if len(b) >= n else None, welch_difference(a, b)):
            if d is None or d.low == d.high:
                continue
            assert (d.p < 0.05) == (d.low > 0 or d.high < 0), d
            checked += 1
    assert checked > 4000


def test_holm_is_stricter_than_each_test_alone():
    # 0.01 <= 0.05/4, 0.02 > 0.05/3: only the first survives
    assert holm([0.02, 0.01, 0.03, 0.04]) == [False, True, False, False]
    assert holm([0.001, 0.01, 0.04]) == [True, True, True]
    assert holm([]) == []


# ------------------------------------------------------------------ simulate


def test_jobs_do_not_change_any_number():
    game = game_for()
    seen = []
    one = simulate(game, 300, seed=7, jobs=1, on_game=lambda s, o: seen.append((s, o)))
    again = []
    two = simulate(game, 300, seed=7, jobs=2, on_game=lambda s, o: again.append((s, o)))
    assert without_speed(one.to_json()) == without_speed(two.to_json())
    assert seen == again and [s for s, _ in seen] == list(range(7, 307))


def test_measures_of_twenty_trials():
    summary = simulate(game_for(), 300, seed=0)
    data = summary.to_json()
    exhausted = summary.measures["exhausted_at_trial"]
    for won, rounds, value in zip(summary.won["challenger"], summary.rounds, exhausted):
        # lost in round r: r - 1 trials completed, the r-th being engaged; a win has no such trial
        assert value == (None if won else rounds)
    assert data["measures"]["exhausted_at_trial"]["games"] == 300 - sum(summary.won["challenger"])
    # the rulebook's rules always use both refreshes: a win needs more than 32 action cards
    assert data["measures"]["refreshes_used"]["counts"] == {"2": 300}
    assert set(data["score"]["challenger"]) >= {"mean", "ci95", "median", "counts"}


def test_a_true_false_measure_is_a_rate(tmp_path):
    text = SOURCE.replace("    measures:\n", "    measures:\n      long_game: rounds_over(12)\n"
                          "      won_fast:\n        value: round < 20\n        when: trials_completed == 20\n")
    text = text.replace("define:\n", "define:\n  rounds_over(number n): round > n\n")
    rs = load_text(text, str(tmp_path / "m.yaml"))
    from interpreter.engine.game import Game
    data = simulate(Game(rs), 200).to_json()["measures"]
    assert 0 < data["long_game"]["rate"] < 1 and data["long_game"]["games"] == 200
    assert data["won_fast"]["games"] < 200 and data["won_fast"]["rate"] == 0.0


@pytest.mark.parametrize("measure, message", [
    ("hand", "a measure is a number or true/false, not zone"),
    ("{value: 1, when: 3}", "a measure's `when:` must be true/false"),
    ("{value: 1, wen: true}", "unknown key 'wen' in measure 'bad'"),
    ("size(hnad)", "unknown zone 'hnad'"),
])
def test_bad_measures_are_located(measure, message):
    text = SOURCE.replace("    measures:\n", f"    measures:\n      bad: {measure}\n")
    with pytest.raises(RulesetError) as info:
        load_text(text, "bad.yaml")
    (d,) = info.value.diagnostics
    assert d.message.startswith(message) and d.span.line == text.splitlines().index(f"      bad: {measure}") + 1


def test_a_rule_error_in_a_worker_names_the_game(tmp_path):
    # a move from the action discard, empty in round 1, before the trial's loop (at its indentation, whatever it is)
    text, n = re.subn(r"\n( +)move top\(trial_deck\) to chamber\n\1while",
                      r"\n\1move top(trial_deck) to chamber\n\1if round == 1:\n"
                      r"\1  move top(action_discard) to hand\n\1while",
                      SOURCE)
    assert n == 1
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    r = rulelang("simulate", str(bad), "--games", "20", "--jobs", "2")
    assert r.returncode == 2 and "there is no card to move" in r.stderr and "(in the game with seed 0)" in r.stderr
    assert "Traceback" not in r.stderr


# ------------------------------------------------------------------ the command line


def test_simulate_rows_and_jobs_from_the_command_line(tmp_path):
    runs = {}
    for jobs, out in (("1", "games.csv"), ("2", "games.json"), ("2", "games.jsonl")):
        r = rulelang("simulate", "twenty-trials", "--games", "200", "--seed", "3", "--jobs", jobs, "--json",
                     "--out", str(tmp_path / out))
        assert r.returncode == 0, r.stderr
        assert r.stderr == ""  # no progress bar when piped
        runs[out] = without_speed(json.loads(r.stdout))
    assert runs["games.csv"] == runs["games.json"] == runs["games.jsonl"]
    rows = list(csv.DictReader((tmp_path / "games.csv").open()))
    as_json = json.loads((tmp_path / "games.json").read_text())
    lines = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert [int(r["seed"]) for r in rows] == [r["seed"] for r in as_json] == list(range(3, 203))
    assert as_json == lines
    first = as_json[0]
    assert set(first) == {"rulelang", "ruleset", "ruleset_hash", "mode", "param_trial_modifiers",
                          "param_action_modifiers", "agent_challenger",
                          "seed", "outcome", "ended_by", "reason", "ranked_by", "result_challenger",
                          "place_challenger", "score_challenger", "rating_challenger", "rounds", "decisions",
                          "measure_exhausted_at_trial", "measure_refreshes_used", "error", "check"}
    # where each game comes from, in every row: what a table of games from many runs needs
    assert (first["ruleset"], first["mode"], first["param_action_modifiers"], first["agent_challenger"]) == \
        ("twenty-trials", "challenger", False, "random")
    assert first["rulelang"] == version() and len(first["ruleset_hash"]) == 16
    assert sum(r["result_challenger"] == "win" for r in as_json) == round(
        runs["games.csv"]["win_rate"]["challenger"]["rate"] * 200)
    assert rows[0]["rounds"] == str(first["rounds"])


def test_the_text_report():
    r = rulelang("simulate", "twenty-trials", "--games", "300")
    assert r.returncode == 0, r.stderr
    for part in ("win rate (95% interval):", "score (challenger): mean", "rounds: mean", "decisions: mean",
                 "exhausted_at_trial — the trial the Challenger", "games/s"):
        assert part in r.stdout


def test_progress_bar_shows_rate_and_time_left():
    out = io.StringIO()
    bar = Progress(4, stream=out, every=0.01)
    for _ in range(4):
        bar.step()
    bar.draw()
    bar.close()
    text = out.getvalue()
    assert "4/4 games" in text and "games/s" in text and "0s left" in text and "#" * 28 in text
    assert text.endswith("\r")  # the bar is cleared when done
    assert Progress(10, stream=io.StringIO()).line(2.0).startswith("[" + "." * 28 + "] 0/10 games  0 games/s  ? left")


@pytest.mark.slow  # whole commands, several times over: the default run stays under 4 minutes
def test_compare_prints_a_table_and_a_plot_and_the_same_numbers_for_any_jobs(tmp_path):
    args = ("compare", "twenty-trials", "twenty-trials-tempered", "--games", "2000", "--seed", "11")
    one = rulelang(*args, "--jobs", "1", "--plot", str(tmp_path / "one.png"))
    two = rulelang(*args, "--jobs", "2", "--plot", str(tmp_path / "two.svg"))
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert one.stdout == two.stdout
    assert (tmp_path / "one.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "two.svg").read_text().lstrip().startswith("<?xml")
    text = one.stdout
    assert "A  twenty-trials\nB  twenty-trials-tempered\n2000 games each, seeds 11..2010" in text
    assert "challenger win rate" in text and "B − A" in text and "Holm" in text
    assert "B (twenty-trials-tempered): challenger win rate is higher" in text


def test_compare_parameter_sets_and_json(tmp_path):
    args = ("compare", "twenty-trials", "twenty-trials:action_modifiers=true", "twenty-trials", "--games", "300",
            "--json")
    r = rulelang(*args, "--out", str(tmp_path / "rows.csv"))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert [e["label"] for e in data["rulesets"]] == ["twenty-trials", "twenty-trials:action_modifiers=true",
                                                      "twenty-trials"]
    assert data["rulesets"][1]["summary"]["params"]["action_modifiers"] is True
    win = next(d for d in data["differences"] if d["metric"] == "challenger win rate")
    modifiers, same = win["versus_first"]
    assert modifiers["paired"] and modifiers["difference"] > 0
    assert same["difference"] == 0 and not same["significant"]  # the same ruleset: the same games
    rows = list(csv.DictReader((tmp_path / "rows.csv").open()))
    assert len(rows) == 900 and rows[300]["ruleset"] == "twenty-trials:action_modifiers=true"


def test_identical_rulesets_differ_in_nothing():
    summaries = [simulate(game_for(), 200), simulate(game_for(), 200)]
    assert not any(any(m.significant) for m in compare(summaries))


@pytest.mark.parametrize("args, message", [
    (("compare", "twenty-trials", "--games", "10"), "compare needs at least two rulesets"),
    (("compare", "twenty-trials", "twenty-trials:nosuch=1", "--games", "10"), "unknown parameter 'nosuch'"),
    (("compare", "twenty-trials", "twenty-trials", "--games", "10", "--set", "action_modifiers=maybe"),
     "expected true or false"),
    (("simulate", "twenty-trials", "--games", "10", "--jobs", "0"), "--jobs: expected a whole number from 1 to 256"),
    (("simulate", "twenty-trials", "--games", "10", "--plot", "x.pdf"), "--plot draws .png or .svg files"),
    (("simulate", "twenty-trials", "--games", "10", "--out", "x.txt"),
     "--out writes .csv, .jsonl, .json, .parquet files"),
    (("simulate", "twenty-trials", "--games", "10", "--out", "/nonexistent/x.csv"), "cannot write /nonexistent/x.csv"),
])
def test_bad_simulation_command_lines(capsys, args, message):
    code, _, err = cli(capsys, *args)  # in this process: test_cli.py runs a bad command line as a process
    assert code == 2 and message in err and "Traceback" not in err


def test_plots_without_matplotlib_say_how_to_get_it(tmp_path):
    import subprocess
    import sys
    code = ("import sys; sys.modules['matplotlib'] = None; from cli.main import main; "
            f"sys.exit(main(['simulate', 'twenty-trials', '--games', '5', '--plot', '{tmp_path / 'p.png'}']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "pip install 'rulelang[plot]'" in r.stderr and r.stdout == ""


@pytest.mark.slow  # whole commands, several times over: the default run stays under 4 minutes
def test_simulate_plot_is_reproducible(tmp_path):
    pytest.importorskip("matplotlib")
    for name in ("a.svg", "b.svg"):
        r = rulelang("simulate", "twenty-trials", "--games", "100", "--plot", str(tmp_path / name))
        assert r.returncode == 0, r.stderr
    assert (tmp_path / "a.svg").read_text() == (tmp_path / "b.svg").read_text()


def test_plots_bin_wide_distributions_on_whole_number_ticks_with_a_results_panel(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from interpreter.analysis import plots
    fig, (wide, narrow, one, flags) = plt.subplots(4, 1)
    plots._bars(wide, {str(v): 1 + v % 7 for v in range(300)}, "300 values")  # a barcode, before
    plots._bars(narrow, {"3": 5, "4": 2, "6": 1}, "three values")
    plots._bars(one, {"80": 60}, "one value")
    plots._bars(flags, {"True": 3, "False": 1}, "a yes/no measure")
    fig.canvas.draw()
    assert len(wide.patches) <= plots.MOST_BARS and wide.get_xlabel() == "in bins of 8"
    assert sum(p.get_height() for p in wide.patches) == pytest.approx(100)
    for ax in (wide, narrow, one):
        assert all(float(t).is_integer() for t in ax.get_xticks()), ax.get_title()
    assert list(one.get_xticks()) == [80] and [t.get_text() for t in flags.get_xticklabels()] == ["no", "yes"]
    plt.close(fig)
    summary = simulate(Game(load_ruleset("pig-race", {"players": "3"})), 20)
    seen = {}
    real = plots._save
    plots._save = lambda fig, path: seen.setdefault("titles", [ax.get_title() for ax in fig.axes]) and real(fig, path)
    try:
        plots.plot_tally(summary, "Pig Race", str(tmp_path / "pig.png"))
    finally:
        plots._save = real
    assert seen["titles"][0] == "results: each role's win rate (95% interval)"
