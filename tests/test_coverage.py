"""Rule coverage (`rulelang coverage`): what the agents' games never ran, for every bundled
ruleset and example, is checked in under docs/coverage/, each line with its reason, and kept
current here. An ability or an ending the agents never reach is reached by a test position:
its reason names the test, and the test must be there.

After a change to a ruleset, write the reports again and give every new line its reason:

    RULELANG_UPDATE_COVERAGE=1 python -m pytest -q -m "slow or not slow" tests/test_coverage.py
"""
from __future__ import annotations

import json
import os
import re
import sys

import pytest
from helpers import ROOT, rulelang

from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.analysis.coverage import instrument, measure
from interpreter.analysis.coverage_report import never_ran
from interpreter.engine.game import Game
from rulelang import load_ruleset

sys.path.insert(0, str(ROOT / "tests"))
import helpers.hand_of_fate_player  # noqa: E402,F401  (registers the scripted Hand of Fate player)

REPORTS = ROOT / "docs" / "coverage"
UPDATE = os.environ.get("RULELANG_UPDATE_COVERAGE") == "1"
TODO = "REASON?"
SCRIPTED = "tests/helpers/hand_of_fate_player.py"

MODIFIERS = {"trial_modifiers": "true", "action_modifiers": "true"}
# ruleset -> (mode, games, parameters, agents) per report section; slow ones marked
CONFIGS = {
    "kuhn-poker": [("duel", 200, {}, {})],
    "pig-race": [("race", 100, {}, {})],
    "blackjack": [("table", 200, {}, {})],
    "oh-hell": [("standard", 30, {}, {})],
    # the modifiers (off by default: the rulebook's first game) on, so that their rules are played too
    "twenty-trials": [(m, 100, MODIFIERS, {}) for m in ("challenger", "trialmaster", "moderator", "versus")],
    "twenty-trials-tempered": [("challenger", 100, MODIFIERS, {})],
    "twenty-trials-small-hand": [("challenger", 100, MODIFIERS, {})],
    "twenty-trials-costly-refresh": [("challenger", 100, MODIFIERS, {})],
    "gauntlet-gobbots": [("solitaire", 100, {}, {})],
    "gauntlet-race": [("race", 10, {"players": "3"}, {})],
    "gauntlet-race-crossfire": [("race", 10, {"players": "3"}, {})],
    "gauntlet-16-7": [("race", 20, {"players": "4"}, {})],
    "hand-of-fate-ordeals": [("competitive", 10, {"players": "2", "round_limit": "100"},
                              {"player_1": "scripted", "player_2": "scripted"})],
}
QUICK = {"kuhn-poker", "pig-race", "blackjack"}  # a few seconds: the default run; the others in the slow one


def command(name: str, mode: str, games: int, params: dict, agents: dict) -> str:
    args = [f"rulelang coverage {name}", f"--mode {mode}", f"--games {games}"]
    args += [f"--set {k}={v}" for k, v in params.items()]
    if any(kind == "scripted" for kind in agents.values()):
        args.append(f"--agents-from {SCRIPTED}")
    args += [f"--agent {r}={k}" for r, k in agents.items()]
    return " ".join(args)


def documented(name: str) -> dict[str, dict[str, str]]:
    """mode -> {what never ran: its reason} of the checked-in report."""
    path = REPORTS / f"{name}.md"
    out: dict[str, dict[str, str]] = {}
    mode = None
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        if line.startswith("## Mode "):
            mode = line.removeprefix("## Mode ").strip()
            out[mode] = {}
        elif line.startswith("- ") and mode is not None and " — " in line:
            head, reason = line[2:].split(" — ", 1)
            what = head.rsplit(" @ ", 1)[0]
            out[mode][what] = reason.strip()
    return out


def write_report(name: str, sections: list[tuple[str, str, list[tuple[str, str]]]]) -> None:
    old = documented(name)
    lines = [f"# Rule coverage: {name}", "",
             "What the games of each command below never ran, and why. `tests/test_coverage.py` plays them",
             "again and fails when this list is not what they leave unreached; a reason that names a test",
             "(`tests/FILE.py::test_name`) is a position that reaches it, and the test must exist.", ""]
    for mode, cmd, missing in sections:
        lines += [f"## Mode {mode}", "", f"`{cmd}`", ""]
        if not missing:
            lines.append("Every place counted ran.")
        for what, where in missing:
            where = where.replace(str(ROOT) + "/", "")
            lines.append(f"- {what} @ {where} — {old.get(mode, {}).get(what, TODO)}")
        lines.append("")
    (REPORTS / f"{name}.md").write_text("\n".join(lines), encoding="utf-8")


def test_an_instrumented_game_is_the_game_the_engine_plays():
    """The counters change nothing: the same seeds end the same in the counted copy and in the real
    rules (whose optimised code plays as the plain)."""
    rs = load_ruleset("gauntlet-16-7", {"players": "3"})
    counted, sites = instrument(rs, "race")
    plain, real = Game(counted, "race", optimize=False), Game(rs, "race")
    for seed in range(3):
        a = play(plain, seed, {r: make_agent("random", seed, r) for r in plain.roles}).outcome
        b = play(real, seed, {r: make_agent("random", seed, r) for r in real.roles}).outcome
        assert {k: v for k, v in a.items() if k != "measures"} == {k: v for k, v in b.items() if k != "measures"}
        assert {k: v for k, v in a["measures"].items() if not k.startswith("$")} == b["measures"]
    assert {s.kind for s in sites} >= {"step", "branch", "loop", "choice", "procedure", "ability", "end"}


def test_coverage_counts_runs_and_games_and_names_what_never_ran():
    cov = measure(load_ruleset("pig-race"), games=30)
    steps = [s for s in cov.sites if s.kind == "step"]
    assert steps and all(cov.runs[s.index] >= cov.reached[s.index] == 30 for s in steps)
    missing = dict(never_ran(cov))
    assert all(cov.runs[s.index] == 0 for s in cov.unreached())
    assert all(k in missing for k in (f"{s.kind} in {s.inside}: {s.what}" for s in cov.unreached()))


def test_the_command_prints_text_json_and_html(tmp_path):
    page = tmp_path / "coverage.html"
    r = rulelang("coverage", "pig-race", "--games", "20", "--html", str(page))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Rule coverage of Pig Race (pig-race), mode race: 20 games, seeds 0..19")
    assert "Every place counted (runs, games that ran it):" in r.stdout and "Endings:" in r.stdout
    assert "<table>" in page.read_text() and "Rule coverage: Pig Race" in page.read_text()
    r = rulelang("coverage", "pig-race", "--games", "5", "--json")
    data = json.loads(r.stdout)
    assert data["games"] == 5 and data["places"] and {"what", "at", "runs", "games"} <= set(data["places"][0])
    r = rulelang("coverage", "pig-race", "--games", "5", "--html", str(ROOT / "rulesets" / "examples" / "pig-race.yaml"))
    assert r.returncode == 2 and "which this command reads" in r.stderr


def params(names):
    return [pytest.param(n, marks=[] if n in QUICK else [pytest.mark.slow]) for n in names]


@pytest.mark.parametrize("name", params(CONFIGS))
def test_the_checked_in_report_is_what_the_games_leave_unreached(name):
    sections, found = [], {}
    for mode, games, values, agents in CONFIGS[name]:
        cov = measure(load_ruleset(name, values), mode, games, 0, agents)
        missing = never_ran(cov)
        found[mode] = {what for what, _ in missing}
        sections.append((mode, command(name, mode, games, values, agents), missing))
    if UPDATE:
        REPORTS.mkdir(exist_ok=True)
        write_report(name, sections)
    docs = documented(name)
    for mode, what in found.items():
        assert set(docs.get(mode, {})) == what, \
            f"docs/coverage/{name}.md, mode {mode}, is not current: write it again (see this module)"
        for item, reason in docs[mode].items():
            assert reason and reason != TODO, f"docs/coverage/{name}.md: no reason for {item}"
            for test in re.findall(r"tests/([\w/]+\.py)::(\w+)", reason):
                assert f"def {test[1]}(" in (ROOT / "tests" / test[0]).read_text(), f"{name}: no test {test}"
            if item.startswith(("ability ", "end ", "outcome ")):  # reached by a test position, named
                assert "tests/" in reason, f"{name}: {item} is reached by no test the reason names"
