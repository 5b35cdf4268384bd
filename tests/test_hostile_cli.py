"""What a careless or hostile user can give the command line: files that are
not what they seem, numbers without end, escape sequences, outputs that are
inputs, runs that collide. Each ends in a clear message and an exit code —
never a traceback, an internal error, a hang, a read of a file the user did
not give, or a silent wrong result (docs/reliability.md, issue 20)."""
import csv
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, rulelang

from helpers.commands import cli
from cli.output import CONTROLS, escape
from interpreter.agents.asking import deadline
from interpreter.analysis.records import CHECK, RowWriter, chained, columns, run_name
from rulelang import load_ruleset

SECRET = "hunter2-do-not-print"
BUNDLED = ROOT / "rulesets" / "twenty-trials.yaml"


def clean(out: str, err: str) -> None:
    assert "Traceback" not in out + err and "internal error" not in out + err, err


def variant(folder: Path, base: str, name: str = "v.yaml") -> Path:
    path = folder / name
    path.write_text(f"extends: {base}\ngame: {path.stem}-variant\n")
    return path


# ------------------------------------------------------------------ extends: reads only what the user chose


@pytest.fixture
def secrets(tmp_path):
    """Files a variant might name: beside it, above it, elsewhere."""
    (tmp_path / "project").mkdir()
    (tmp_path / "keys.yaml").write_text(f"password: {SECRET}\n")
    (tmp_path / "project" / "config.yaml").write_text(f"aws_secret: {SECRET}\nother: 1\n")
    (tmp_path / "project" / ".env").write_text(f"TOKEN={SECRET}\n")
    (tmp_path / "project" / "broken.yaml").write_text(f"a: [{SECRET}\n")
    (tmp_path / "project" / "out.yaml").symlink_to(tmp_path / "keys.yaml")
    return tmp_path


@pytest.mark.parametrize("ref, message", [
    ("/etc/passwd", "outside the folders a ruleset may read"),
    ("/proc/self/environ", "outside the folders a ruleset may read"),
    ("../keys.yaml", "outside the folders a ruleset may read"),
    ("../../../../../../../etc/hostname", "outside the folders a ruleset may read"),
    ("out.yaml", "outside the folders a ruleset may read"),  # a link that leads out
    ("config.yaml", "has no `game:` name"),
    (".env", "has no `game:` name"),
    ("broken.yaml", "line 2, column 1 of"),
])
def test_extends_reads_only_rulesets_in_the_folders_the_user_chose(capsys, secrets, ref, message):
    path = variant(secrets / "project", ref)
    code, out, err = cli(capsys, "check", path)
    assert code == 2 and message in err and f"{path}:1:10: error:" in err, err
    assert SECRET not in err and "root:" not in err and "PATH=" not in err  # nothing of what it names
    clean(out, err)


def test_extends_dir_lets_a_variant_name_a_base_elsewhere(capsys, tmp_path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "mine").mkdir()
    base = tmp_path / "shared" / "base.yaml"
    base.write_text(BUNDLED.read_text())
    path = variant(tmp_path / "mine", "../shared/base.yaml")
    assert cli(capsys, "check", path)[0] == 2
    code, out, err = cli(capsys, "check", path, "--extends-dir", tmp_path / "shared")
    assert code == 0 and "ok" in out, err


def test_a_file_that_is_not_a_ruleset_is_reported_by_place_never_quoted(tmp_path):
    (tmp_path / "keys").write_text(f"password: [{SECRET}\n")  # broken YAML
    (tmp_path / ".env").write_text(f"TOKEN={SECRET}\n")
    r = rulelang("check", "/proc/self/environ", str(tmp_path / "keys"), str(tmp_path / ".env"),
                 env=dict(os.environ, TOKEN=SECRET))
    assert r.returncode == 2 and "/proc/self/environ:1:1: error:" in r.stderr and f"{tmp_path}/keys:2:1:" in r.stderr
    assert SECRET not in r.stderr + r.stdout and "PATH=" not in r.stderr, r.stderr
    clean(r.stdout, r.stderr)


def special_files(tmp_path) -> list[Path]:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)  # nobody writes to it: reading it would block for ever
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock.yaml"))
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")  # never ends
    (tmp_path / "folder.yaml").mkdir()
    return [fifo, tmp_path / "sock.yaml", tmp_path / "zero.yaml", tmp_path / "folder.yaml"]


REFUSED = ("not a regular file", "cannot read", "cannot write", "outside the folders", "no ruleset file")


class Hung(BaseException):
    """Raised by the guard: not an Exception, so the command line does not report it as its own."""


@pytest.mark.parametrize("command", [
    ["check", "{f}"], ["check", "{v}"], ["run", "twenty-trials", "--resume", "{f}"], ["replay", "{f}"],
    ["run", "twenty-trials", "--agents-from", "{f}"],
    ["simulate", "twenty-trials", "--games", "3", "--out", "{f}.csv", "--resume"]])
def test_special_files_are_refused_before_a_byte_is_read(capsys, tmp_path, command):
    for special in special_files(tmp_path):
        Path(f"{special}.csv").symlink_to(special)
        path = variant(tmp_path, special.name, "v.yaml")
        args = [a.format(f=special, v=path) for a in command]
        with deadline(10, Hung):  # a read that blocks is stopped, and fails the test
            code, out, err = cli(capsys, *args)
        assert code in (1, 2) and any(words in err for words in REFUSED), (args, err)
        clean(out, err)
        assert err.count("\n") <= 4, err  # one error: the line it is at, a hint


def test_dev_stdin_is_read_only_when_it_is_a_file(tmp_path):
    r = rulelang("check", "/dev/stdin", input="game: x\n")  # a pipe
    assert r.returncode == 2 and "not a regular file (a pipe)" in r.stderr, r.stderr
    with open(BUNDLED) as f:
        r = subprocess.run([sys.executable, "-m", "cli", "check", "/dev/stdin"], stdin=f, capture_output=True,
                           text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0 and "ok" in r.stdout, r.stderr


@pytest.mark.parametrize("command, message", [
    (["run", "twenty-trials", "--resume", "{f}"], "more than a saved game may be (16,777,216)"),
    (["replay", "{f}"], "more than a game log may be (67,108,864)"),
    (["run", "twenty-trials", "--agents-from", "{f}"], "more than an agents file may be (4,000,000)"),
])
def test_huge_files_are_refused_unread(capsys, tmp_path, command, message):
    huge = tmp_path / "huge"
    with open(huge, "wb") as f:
        f.truncate(10**9)  # sparse: a gigabyte that costs no disk
    code, out, err = cli(capsys, *[a.format(f=huge) for a in command])
    assert code in (1, 2) and message in err, err
    clean(out, err)


def test_replay_opens_no_file_a_log_names(capsys, tmp_path):
    rules = tmp_path / "mine.yaml"
    rules.write_text(BUNDLED.read_text().replace("game: twenty-trials", "game: mine"))
    log = tmp_path / "game.jsonl"
    assert cli(capsys, "run", rules, "--log", log)[0] == 0
    code, out, err = cli(capsys, "replay", log)
    assert code == 2 and "replay opens no file a log names: give it with --ruleset FILE" in err, err
    code, out, err = cli(capsys, "replay", log, "--ruleset", rules)
    assert code == 0 and out.startswith("challenger"), err

    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    os.mkfifo(tmp_path / "fifo")
    for path in ("/proc/self/environ", str(tmp_path / "fifo")):  # and a bundled name, to make it look right
        log.write_text("\n".join([json.dumps(dict(head, ruleset="twenty-trials", path=path)), *lines[1:]]) + "\n")
        code, out, err = cli(capsys, "replay", log)
        assert code == 2 and f"'{path}'" in err and "PATH=" not in err, err

    bundled = tmp_path / "bundled.jsonl"  # played from the bundled file's path: the same text, replayed
    assert cli(capsys, "run", BUNDLED, "--log", bundled)[0] == 0
    code, out, err = cli(capsys, "replay", bundled)
    assert code == 0 and out.startswith("challenger"), err


# ------------------------------------------------------------------ what reaches a terminal


def test_escape_shows_controls_and_keeps_text():
    assert escape("a\x1b]0;x\x07b\x1b[2J\x9b\x7f\u202eZ\u2066\r\x00") == \
        "a\\x1b]0;x\\x07b\\x1b[2J\\x9b\\x7f\\u202eZ\\u2066\\r\\x00"
    kept = "line\n\ttab é ² — █ 漢字 🂡"
    assert escape(kept) == kept


def test_control_characters_in_ruleset_text_are_located_errors(capsys, tmp_path):
    for bad in ("\\x1b]0;pwned\\x07", "\\x01", "\\0", "\\e[2J", "\\x9b"):
        path = tmp_path / "t.yaml"
        path.write_text(BUNDLED.read_text().replace('title: "Gauntlet: The Twenty Trials"',
                                                    f'title: "Gauntlet {bad}"'))
        for command in (["check", path], ["cards", path, "-o", tmp_path / "cards.html"]):
            code, out, err = cli(capsys, *command)
            assert code == 2 and f"{path}:5:" in err and "a control character" in err, err
            clean(out, err)
            assert not CONTROLS.search(out + err)


def test_what_rulelang_prints_holds_no_terminal_controls(capsys, tmp_path):
    rules = tmp_path / "bidi.yaml"  # bidi controls are printable text to YAML: accepted, shown escaped
    rules.write_text(BUNDLED.read_text().replace('title: "Gauntlet: The Twenty Trials"',
                                                 'title: "Gauntlet \u202eslairT\u202c"')
                     .replace("text: hand}", "text: \"hand \u2066\u202e\"}", 1))
    odd = "\x1b]0;pwned\x07\x1b[2J\u202e"
    commands = [["check", rules], ["show", rules], ["summary", rules], ["run", rules, "--json"],
                ["check", tmp_path / f"no{odd}.yaml"], ["run", "twenty-trials", "--agent", f"challenger=x{odd}"],
                ["run", "twenty-trials", "--mode", odd], ["run", "twenty-trials", "--set", f"{odd}=1"],
                ["replay", tmp_path / f"{odd}.jsonl"], ["simulate", rules, "--games", "2", "--mode", odd]]
    for command in commands:
        code, out, err = cli(capsys, *command)
        assert not CONTROLS.search(out + err), (command, out + err)
        clean(out, err)
    r = rulelang("play", str(rules), input="1\nb\nq\n")  # the board, through a real terminal's stdout
    assert r.returncode == 0 and "\\u202e" in r.stdout and not CONTROLS.search(r.stdout + r.stderr), r.stdout


# ------------------------------------------------------------------ numbers and names on the command line


@pytest.mark.parametrize("args, message", [
    (["run", "twenty-trials", "--decision-timeout", "inf"], "--decision-timeout: expected a number of seconds"),
    (["run", "twenty-trials", "--decision-timeout", "1e300"], "--decision-timeout: expected a number of seconds"),
    (["run", "twenty-trials", "--decision-timeout", "nan"], "--decision-timeout: expected a number of seconds"),
    (["run", "twenty-trials", "--decision-timeout", "-1"], "--decision-timeout: expected a number of seconds"),
    (["simulate", "twenty-trials", "--games", "99999999999999999999999"], "--games: expected a whole number"),
    (["simulate", "twenty-trials", "--games", "5", "--seed", "9" * 4300], "--seed: expected a whole number"),
    (["simulate", "twenty-trials", "--games", "5", "--jobs", "100000"], "--jobs: expected a whole number"),
    (["run", "twenty-trials", "--seed", "٣"], "--seed: expected a whole number"),
    (["run", "twenty-trials", "--step-limit", "0"], "--step-limit: expected a whole number"),
    (["run", "twenty-trials", "--stop-at", "-3"], "--stop-at: expected a whole number from 0"),
    (["solve", "twenty-trials", "--max-positions", "1" + "0" * 30], "--max-positions: expected a whole number"),
    (["run", "twenty-trials", "--mode", ""], "--mode: expected a name, not nothing"),
    (["play", "twenty-trials", "--as", " "], "--as: expected a name, not nothing"),
    (["run", "twenty-trials", "--log-as", "challenger"], "--log-as ROLE writes that role's log: it goes with --log"),
    (["run", "twenty-trials", "--agent", "challenger=mcts:c=nan"], "must be a finite number, not 'nan'"),
    (["run", "twenty-trials", "--agent", "challenger=mcts:c=inf"], "must be a finite number, not 'inf'"),
    (["run", "twenty-trials", "--agent", "challenger=mcts:iterations=²"], "must be a whole number, not '²'"),
    (["run", "twenty-trials", "--limit", "nesting=٣"], "expected a whole number of at least 1"),
])
def test_bad_numbers_and_names_are_usage_errors(capsys, args, message):
    start = time.monotonic()
    code, out, err = cli(capsys, *args)
    assert code == 2 and message in err, err
    assert time.monotonic() - start < 10
    clean(out, err)


def test_a_non_ascii_digit_at_the_play_prompt_is_not_a_number():
    r = rulelang("play", "twenty-trials", input="²\n٣\n" + "9" * 5000 + "\nq\n")
    assert r.returncode == 0 and r.stdout.count("please type a number from 1 to") == 3, r.stdout
    clean(r.stdout, r.stderr)


def test_resume_refuses_a_command_line_that_contradicts_the_save(capsys, tmp_path):
    save = tmp_path / "s.json"
    assert cli(capsys, "run", "twenty-trials", "--seed", "4", "--set", "action_modifiers=true",
               "--stop-at", "3", "--save", save)[0] == 0
    whole = cli(capsys, "run", "twenty-trials", "--seed", "4", "--set", "action_modifiers=true")[1]
    for given in (["--mode", "versus"], ["--seed", "5"], ["--set", "action_modifiers=false"]):
        code, out, err = cli(capsys, "run", "twenty-trials", "--resume", save, *given)
        assert code == 2 and "contradicts" in err and given[1] in err, err
    for same in ([], ["--seed", "4", "--mode", "challenger", "--set", "action_modifiers=true"]):
        code, out, err = cli(capsys, "run", "twenty-trials", "--resume", save, *same)
        assert code == 0 and out == whole, err  # the saved parameters, without --set


# ------------------------------------------------------------------ YAML 1.1's booleans are names


def test_on_off_yes_no_are_names_not_booleans(tmp_path):
    from test_language import DUEL

    from rulelang import RulesetError, load_text
    text = (DUEL.replace("roles: [alice, bob]", "roles: [yes, no]").replace("[alice, bob]", "[yes, no]")
            .replace("won of alice", "won of yes").replace("won of bob", "won of no").replace("bob chooses", "no chooses")
            .replace("alice:", "yes:").replace("bob:", "no:").replace("  deck:", "  on:").replace("to deck", "to on")
            .replace("from deck", "from on").replace("shuffle deck", "shuffle on").replace("passes", "off"))
    rs = load_text(text, "duel.yaml")
    assert [r.name for r in rs.roles] == ["yes", "no"] and "on" in rs.zones and "off" in rs.vars
    with pytest.raises(RulesetError) as info:
        load_text(text.replace("rounds: {default: 3", "flag: {default: yes}\n  rounds: {default: 3"), "duel.yaml")
    assert info.value.diagnostics[0].span.line > 1


# ------------------------------------------------------------------ outputs


def test_an_output_that_is_an_input_is_refused(capsys, tmp_path):
    base = tmp_path / "base.yaml"
    base.write_text(BUNDLED.read_text())
    rules = variant(tmp_path, "base.yaml")
    agents = tmp_path / "agents.py"
    agents.write_text("")
    (tmp_path / "link.jsonl").symlink_to(base)
    (tmp_path / "link.md").symlink_to(base)
    os.link(rules, tmp_path / "hard.yaml")
    before = {p: p.read_bytes() for p in (base, rules, agents)}
    for command in (["run", rules, "--log", rules], ["run", rules, "--log", tmp_path / "link.jsonl"],
                    ["run", rules, "--stop-at", "2", "--save", base], ["run", rules, "--save", tmp_path / "hard.yaml"],
                    ["run", rules, "--agents-from", agents, "--log", agents],
                    ["simulate", rules, "--games", "2", "--out", tmp_path / "link.jsonl"],
                    ["summary", rules, "-o", tmp_path / "link.md"]):
        code, out, err = cli(capsys, *command)
        assert code == 2 and "which this command reads; write it elsewhere" in err, (command, err)
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.parametrize("args", [["run", "twenty-trials"], ["run", "twenty-trials", "--log", "/dev/full"],
                                  ["simulate", "twenty-trials", "--games", "3", "--out", "/dev/full.csv"]])
def test_a_full_disk_is_an_io_error(tmp_path, args):
    args = [a.replace("/dev/full.csv", str(tmp_path / "full.csv")) for a in args]
    if "full.csv" in args[-1]:
        (tmp_path / "full.csv").symlink_to("/dev/full")
    with open("/dev/full", "w") as full:
        r = subprocess.run([sys.executable, "-m", "cli", *args], stdout=full, stderr=subprocess.PIPE, text=True,
                           cwd=ROOT, timeout=120)
    assert r.returncode == 1 and "No space left on device" in r.stderr, r.stderr
    assert r.stderr.count("\n") == 1 and "Exception ignored" not in r.stderr
    clean("", r.stderr)


# ------------------------------------------------------------------ simulations


AGENTS = """
import sys
from interpreter.agents import register
from interpreter.agents.base import Agent

class Exiting(Agent):
    def __init__(self, seed, role):
        self.seed = seed
    def choose(self, view):
        if self.seed % 2 == 0:
            sys.exit(0)
        return 0

register("exiting", Exiting)
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_agent_that_calls_sys_exit_fails_its_games_like_any_other(tmp_path, jobs):
    agents = tmp_path / "agents.py"
    agents.write_text(AGENTS)
    r = rulelang("simulate", "twenty-trials", "--games", "6", "--jobs", jobs, "--agents-from", str(agents),
                 "--agent", "challenger=exiting", "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["errors"]["games"] == 3 and "it raised SystemExit" in data["errors"]["first"][0]["error"]


def test_plugins_cannot_replace_an_agent_or_exit(capsys, tmp_path):
    for n, (body, message) in enumerate((("register('random', object)", "agent 'random' is built in"),
                                         ("register('human', object)", "agent 'human' is built in"),
                                         ("register('a b', object)", "an agent's name is a word"),
                                         ("import sys; sys.exit(3)", "it raised SystemExit: 3"))):
        agents = tmp_path / f"agents{n}.py"
        agents.write_text("from interpreter.agents import register\n" + body + "\n")
        code, out, err = cli(capsys, "run", "twenty-trials", "--agents-from", agents)
        assert code == 2 and f"cannot load agents from {agents}: {message}" in err, err


def test_a_simulation_whose_every_game_fails_says_so(tmp_path):
    agents = tmp_path / "agents.py"
    agents.write_text(AGENTS.replace("self.seed % 2 == 0", "True"))
    common = ["simulate", "twenty-trials", "--games", "4", "--jobs", "1", "--agents-from", str(agents),
              "--agent", "challenger=exiting"]
    text, data = rulelang(*common), rulelang(*common, "--json")
    assert text.returncode == 1 and "challenger: no game finished" in text.stdout, text.stderr
    assert "no game finished: an agent failed every one of the 4 games" in text.stderr
    assert data.returncode == 1
    summary = json.loads(data.stdout)
    assert summary["win_rate"]["challenger"] == {"rate": None, "ci95": None} and summary["errors"]["games"] == 4
    clean(text.stdout, text.stderr)


def test_sigterm_ends_a_simulation_quietly_with_a_valid_file(tmp_path):
    out = tmp_path / "rows.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "cli", "simulate", "twenty-trials", "--games", "1000000",
                             "--jobs", "2", "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.exists() and out.read_bytes().count(b"\n") > 50):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 143 and stderr.strip() == "terminated", stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in rows] == list(range(len(rows)))


def test_two_runs_writing_one_file_do_not_tear_it(capsys, tmp_path):
    out = tmp_path / "rows.csv"
    writer = RowWriter(str(out), columns(["challenger"], {"exhausted_at_trial": False, "refreshes_used": False}))
    try:  # another run holds the file
        code, _, err = cli(capsys, "simulate", "twenty-trials", "--games", "3", "--out", out)
        assert code == 1 and f"another rulelang run is writing {out}" in err, err
        assert out.read_text() == ""
    finally:
        writer.close()
    assert cli(capsys, "simulate", "twenty-trials", "--games", "3", "--out", out)[0] == 0


def changed(rows: list[str], k: int, column: str, value) -> str:
    """Line k of a CSV file (`rows`, its header first) with one cell changed."""
    i = rows[0].split(",").index(column)
    cells = rows[k].split(",")
    cells[i] = value(cells[i]) if callable(value) else value
    return ",".join(cells)


def other_outcome(outcome: str) -> str:
    return "challenger wins (finished)" if "loses" in outcome else "challenger loses (exhausted)"


@pytest.mark.parametrize("forge, message", [
    (lambda rows: rows[:5] + [changed(rows, 5, "outcome", other_outcome)] + rows[6:],
     "row 5 (seed 4) is not as this run writes it: it was changed"),
    (lambda rows: rows[:4] + rows[5:], "row 4 (seed 4) is not as this run writes it: it was changed"),
    (lambda rows: rows[:3] + [rows[4], rows[3]] + rows[5:], "row 3 (seed 3) is not as this run writes it: it was changed"),
    (lambda rows: rows + [changed(rows, -1, "seed", "12")], "row 13 (seed 12) is not as this run writes it: it was changed"),
])
def test_forged_rows_are_refused_on_resume(capsys, tmp_path, forge, message):
    out = tmp_path / "rows.csv"
    assert cli(capsys, "simulate", "twenty-trials", "--games", "12", "--out", out)[0] == 0
    forged = "\n".join(forge(out.read_text().splitlines())) + "\n"
    out.write_text(forged)
    code, _, err = cli(capsys, "simulate", "twenty-trials", "--games", "20", "--out", out, "--resume")
    assert code == 1 and message in err, err
    assert out.read_text() == forged  # left as it was


@pytest.mark.parametrize("column, value", [("outcome", "challenger wins (finished)"), ("rounds", "many"),
                                           ("result_challenger", "")])
def test_a_row_that_contradicts_itself_is_refused_even_with_its_checks_made_again(capsys, tmp_path, column, value):
    out = tmp_path / "rows.csv"
    assert cli(capsys, "simulate", "twenty-trials", "--games", "6", "--out", out)[0] == 0
    rows = list(csv.DictReader(out.open()))
    fields = list(rows[0])
    rows[2][column] = value if rows[2][column] != value else "challenger loses (exhausted)"
    check = run_name(load_ruleset("twenty-trials").source_hash, "challenger",
                     {"trial_modifiers": False, "action_modifiers": False}, {"challenger": "random"})
    for values in rows:  # a forger who knows how the checks are made
        values[CHECK] = check = chained(check, values, fields)
    with out.open("w", newline="") as f:
        writer = csv.DictWriter(f, fields)
        writer.writeheader()
        writer.writerows(rows)
    code, _, err = cli(capsys, "simulate", "twenty-trials", "--games", "10", "--out", out, "--resume")
    assert code == 1 and "the row of seed 2 is damaged; it cannot be resumed" in err, err
