"""The command line as a user meets it: outputs, exit codes, no tracebacks."""
import json

import pytest
from helpers import ROOT, rulelang
from helpers.commands import cli


def test_check_summarises():
    r = rulelang("check", "twenty-trials", str(ROOT / "rulesets" / "twenty-trials.yaml"))
    assert r.returncode == 0
    assert len(r.stdout.splitlines()) == 2 and "ok" in r.stdout


def test_check_counts_in_words_a_reader_would_write(capsys):
    code, out, _ = cli(capsys, "check", "oh-hell", "yacht")
    assert code == 0
    assert "52 components of 1 type; 6 zones; 2 parameters; 5 rulings" in out
    assert "1 parameter;" in out and "1 parameters" not in out


def test_check_leaves_only_the_last_ruleset_s_objects_to_the_end_of_the_command(capsys, monkeypatch):
    """Collecting what a check built walks every object it made to free cycles the process's end frees
    anyway: the last ruleset's are frozen (not the earlier ones', which would add up), and thawed again
    when `main` was called by code."""
    import gc
    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(gc.get_count()))
    code, out, _ = cli(capsys, "check", "--no-cache", "pig-race", "kuhn-poker")
    assert code == 0 and len(out.splitlines()) == 2
    assert len(frozen) == 2  # the command's start-up (`settled`), then the last ruleset's check
    assert gc.get_freeze_count() == 0


def test_check_reports_errors_with_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((ROOT / "rulesets" / "twenty-trials.yaml").read_text().replace("size(hand)", "size(hnad)"))
    r = rulelang("check", str(bad))
    assert r.returncode == 2
    assert f"{bad}:" in r.stderr and "unknown zone 'hnad'" in r.stderr and "Traceback" not in r.stderr


def test_run_prints_the_outcome():
    r = rulelang("run", "twenty-trials", "--seed", "3", "--agent", "challenger=first")
    assert r.returncode == 0 and r.stdout.startswith("challenger ")


def test_simulate_json_is_repeatable():
    args = ("simulate", "twenty-trials", "--mode", "challenger", "--games", "2000", "--seed", "1",
            "--agent", "challenger=random", "--json")
    first, second = rulelang(*args), rulelang(*args)
    assert first.returncode == 0, first.stderr
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    for key in ("games", "outcomes", "win_rate", "mean_score", "games_per_second"):
        assert key in a
    assert a["games"] == 2000 and sum(a["outcomes"].values()) == 2000
    lo, hi = a["win_rate"]["challenger"]["ci95"]
    assert lo <= a["win_rate"]["challenger"]["rate"] <= hi
    a.pop("games_per_second"), b.pop("games_per_second")
    assert a == b


@pytest.mark.parametrize("args, message", [
    (("run", "twenty-trails"), "no ruleset file or bundled ruleset named 'twenty-trails'"),
    (("run", "twenty-trials", "--mode", "challenjer"), "has no mode 'challenjer'"),
    (("run", "twenty-trials", "--set", "trial_modifiers=perhaps"), "expected true or false"),
    (("run", "twenty-trials", "--set", "nosuch=1"), "unknown parameter 'nosuch'"),
    (("run", "twenty-trials", "--set", "oops"), "--set expects NAME=VALUE"),
    (("run", "twenty-trials", "--agent", "challenger=genius"), "unknown agent 'genius'"),
    (("run", "twenty-trials", "--agent", "trialmaster=random"), "no role 'trialmaster'"),
    (("simulate", "twenty-trials", "--games", "0"), "--games: expected a whole number from 1 to 10,000,000"),
    (("run", "twenty-trials", "--seed", "x"), "--seed: expected a whole number of at most 18 digits, not 'x'"),
    (("frobnicate",), "invalid choice"),
])
def test_bad_command_lines_exit_2_without_traceback(capsys, args, message):
    code, _, err = cli(capsys, *args)  # in this process (a traceback would fail the test); as a process below
    assert code == 2, err
    assert message in err and "Traceback" not in err


def test_a_bad_command_line_exits_2_without_traceback_as_a_process():
    r = rulelang("run", "twenty-trials", "--mode", "challenjer")
    assert r.returncode == 2 and "has no mode 'challenjer'" in r.stderr and "Traceback" not in r.stderr


def test_replay_of_a_missing_log():
    r = rulelang("replay", "/nonexistent/log.jsonl")
    assert r.returncode == 1 and "cannot read the log" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("mode, agents", [
    ("challenger", ["challenger=random"]), ("trialmaster", ["trialmaster=random"]),
    ("moderator", ["moderator=random"]), ("versus", ["challenger=random", "trialmaster=random"])])
def test_simulate_every_mode(capsys, mode, agents):
    args = ["simulate", "twenty-trials", "--mode", mode, "--games", "200", "--json"]
    for a in agents:
        args += ["--agent", a]
    code, out, err = cli(capsys, *args)  # in this process: the command as a process is tested above
    assert code == 0, err
    data = json.loads(out)
    assert sum(data["outcomes"].values()) == 200 and set(data["win_rate"]) >= {a.split("=")[0] for a in agents}


def test_solve_prints_a_winning_line():
    r = rulelang("solve", "twenty-trials", "--mode", "moderator", "--seed", "2")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert "seed 2: winnable" in lines[0] and len(lines) == 21 and lines[1].startswith("  round 1: ")
    r = rulelang("solve", "twenty-trials", "--mode", "moderator", "--seed", "29")
    assert r.returncode == 0 and "not winnable" in r.stdout
    r = rulelang("solve", "twenty-trials", "--mode", "versus")
    assert r.returncode == 2 and "one role makes every decision" in r.stderr
