"""The command line says what it is and what it ships (`--version`,
`rulelang rulesets`, `rulelang docs`, found in a checkout and in an install),
refuses options that contradict each other instead of taking the last, and
never lets two outputs — of one command, or of two runs — write one file."""
import sys
import tomllib

import pytest
from helpers import ROOT

import cli.about
from helpers.commands import cli as cli_
from interpreter.analysis.locks import LockedText
from rulelang.files import bundled_names


def test_version(capsys):
    code, out, _ = cli_(capsys, "--version")
    assert code == 0 and out.startswith("rulelang ") and out.split()[1][0].isdigit()


def test_rulesets_lists_every_bundled_ruleset(capsys):
    code, out, _ = cli_(capsys, "rulesets")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == bundled_names()
    assert "Kuhn Poker — modes: duel; roles: alice, bob" in out


def test_docs_lists_and_prints_the_guides(capsys):
    code, out, _ = cli_(capsys, "docs")
    assert code == 0 and "reliability" in out and "readme" in out
    code, out, _ = cli_(capsys, "docs", "reliability")
    assert code == 0 and out == (ROOT / "docs" / "reliability.md").read_text()
    code, _, err = cli_(capsys, "docs", "relaibility")
    assert code == 2 and "did you mean 'reliability'" in err


def test_an_install_has_the_guides_the_help_names(capsys, tmp_path, monkeypatch):
    # pip installs them as data files: every guide, and the README, where `rulelang docs` looks
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["data-files"]
    assert data == {"share/doc/rulelang": ["README.md", "docs/*.md"]}
    installed = tmp_path / "share" / "doc" / "rulelang"
    installed.mkdir(parents=True)
    for path in (ROOT / "docs").glob("*.md"):
        (installed / path.name).write_text(path.read_text())
    (installed / "README.md").write_text((ROOT / "README.md").read_text())
    monkeypatch.setattr(cli.about, "HERE", tmp_path / "site-packages" / "cli")  # no checkout around the code
    monkeypatch.setattr(sys, "prefix", str(tmp_path))
    code, out, _ = cli_(capsys, "docs", "agents")
    assert code == 0 and out == (ROOT / "docs" / "agents.md").read_text()
    # every guide a help text names is one of them
    code, out, _ = cli_(capsys, "show", "--help")
    assert "`rulelang docs agents`" in out and "docs/" not in out


@pytest.mark.parametrize("args, says", [
    (["--set", "action_modifiers=true", "--set", "action_modifiers=false"],
     "--set action_modifiers is given twice, as 'true' and as 'false'"),
    (["--agent", "challenger=random", "--agent", "challenger=first"],
     "--agent challenger is given twice, as random and as first"),
    (["--limit", "components=20000", "--limit", "components=30000"],
     "--limit components is given twice, as 20,000 and as 30,000"),
])
def test_an_option_given_twice_with_two_values_is_refused(capsys, args, says):
    code, _, err = cli_(capsys, "run", "twenty-trials", *args)
    assert code == 2 and says in err, err


def test_the_same_value_twice_is_no_contradiction(capsys):
    code, _, err = cli_(capsys, "run", "twenty-trials", "--set", "action_modifiers=true",
                        "--set", "action_modifiers=true")
    assert code == 0, err


def test_save_and_log_to_one_file_is_refused_before_anything_is_written(capsys, tmp_path):
    same = tmp_path / "game.json"
    code, _, err = cli_(capsys, "run", "twenty-trials", "--stop-at", "3", "--save", same, "--log", same)
    assert code == 2 and f"--log and --save both name {same}" in err
    assert not same.exists()


def test_two_runs_writing_one_log_are_refused(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    first = LockedText(str(log))  # another run, writing its log
    try:
        code, _, err = cli_(capsys, "run", "twenty-trials", "--log", log)
    finally:
        first.close()
    assert code == 2 and f"another rulelang run is writing the log {log}" in err
    code, _, err = cli_(capsys, "run", "twenty-trials", "--log", log)  # once it has ended
    assert code == 0, err
