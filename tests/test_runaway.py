"""Runaway rules: a game whose rounds never end it, a loop that never changes
what it tests, a binder with too many combinations. Each stops at the step
limit (`--step-limit`, `Game(step_limit=...)`) with an error that names the
loop, the step and the round, located at the loop in the ruleset file:
never a hang, optimised or not."""
import re

import pytest
from helpers import ROOT, rulelang
from test_language import tiny

from interpreter.agents.match import play
from interpreter.agents.simple import FirstAgent
from interpreter.engine.game import DEFAULT_STEP_LIMIT, Game
from interpreter.runtime.errors import Runaway
from rulelang import load_ruleset, load_text

CASES = {
    # name: (rules, the line the error points at, what the message says)
    "a loop that never changes its condition": (
        "while total < 5:\n  pass\nwin solo", "while total < 5:", "`while total < 5` never ends"),
    "an until loop that moves cards round and round": (
        "until empty(pile):\n  move top(pile) to out\n  move top(out) to pile\nwin solo", "until empty(pile):",
        "`until empty(pile)` never ends"),
    "a loop inside a loop": (
        "repeat 3 times:\n  while true:\n    total += 1\nwin solo", "  while true:", "`while true` never ends"),
    "a loop that asks a decision every time": (
        "while total < 5:\n  solo chooses c in pile as look:\n    pass\nwin solo", "while total < 5:",
        "`while total < 5` never ends"),
    # the `if` is the loop's last statement: its test failing goes straight on to the jump back,
    # which counts the pass (once, a jump to it was taken straight to the loop's start: a hang)
    "a loop whose decision is never reached": (
        "while total < 5:\n  if total > 100:\n    solo chooses c in pile as look:\n      pass\nwin solo",
        "while total < 5:", "`while total < 5` never ends"),
    "rounds that never end the game": ("total += 1", None, "its rounds repeat forever"),
    "rounds that ask a decision forever": ("solo chooses c in pile as look:\n  pass", None,
                                           "its rounds repeat forever"),
    # the step past the limit is the loop's, but each round runs it only a few times: the rounds are at fault
    "rounds that never end, a short loop in each": ("for c in pile:\n  total += 1", None, "its rounds repeat forever"),
    "a binder with too many combinations": (
        "move box to pile\ntotal = count(a, b, c, d, e, f in pile where a.value > 900)\nwin solo",
        "total = count(a, b, c, d, e, f in pile where a.value > 900)", "goes through too many combinations"),
}
MANY = "chip:\n    fields: {value: number}\n    table: |\n      value  count\n      1      400\n"


def ruleset(rules: str) -> str:
    text = tiny(rules)
    if "move box to pile\n" in rules:  # the binder case: 400 chips, C(400, 6) combinations
        text = text.replace("chip:\n    fields: {value: number}\n    table: |\n      value\n      1\n      2\n"
                            "      3\n      4\n", MANY).replace("setup: |\n  move box to pile", "setup: |\n  pass")
    return text


@pytest.mark.parametrize("optimize", [True, False], ids=["optimised", "plain"])
@pytest.mark.parametrize("name", list(CASES))
def test_runaway_stops_at_the_limit_naming_the_loop_step_and_round(name, optimize):
    rules, line, words = CASES[name]
    text = ruleset(rules)
    game = Game(load_text(text, "t.yaml"), step_limit=2000, optimize=optimize)
    with pytest.raises(Runaway) as info:
        play(game, 0, {r: FirstAgent(0, r) for r in game.roles})
    d = info.value.diagnostic
    assert "the game ran 2,000 steps without ending" in d.message and words in d.message, d.message
    assert "(in step 'Only', round " in d.message
    assert d.span.file == "t.yaml"
    expected = text.splitlines().index("          " + line) + 1 if line else text.splitlines().index("  main:") + 1
    assert d.span.line == expected and d.span.col >= 1
    assert "--step-limit" in d.hint or "`win`, `lose` or `end game`" in d.hint


@pytest.mark.parametrize("optimize", [True, False], ids=["optimised", "plain"])
def test_the_work_of_big_binders_is_bounded_between_two_decisions_not_over_a_whole_game(optimize):
    # A board game looks over the board at every move: 1,770 pairs of 60 chips a round, 10 rounds, a limit
    # of 5,000. With a decision each round the game plays out (a 10 by 10 Reversi was stopped at its 13th
    # round as if it ran away); with none, the same work is one stretch, and a runaway.
    sixty = MANY.replace("      1      400\n", "      1      60\n")
    pairs = "total = count(a, b in pile where a.value > 900)\nif round == 10:\n  win solo"
    for rules, runs_away in ((f"solo chooses c in pile as look:\n  pass\n{pairs}", False), (pairs, True)):
        text = ruleset("move box to pile\n" + rules).replace(MANY, sixty)
        game = Game(load_text(text, "t.yaml"), step_limit=5000, optimize=optimize)
        if runs_away:
            with pytest.raises(Runaway, match="goes through too many combinations"):
                play(game, 0, {r: FirstAgent(0, r) for r in game.roles})
        else:
            st = play(game, 0, {r: FirstAgent(0, r) for r in game.roles})
            assert game.outcome(st)["results"] == {"solo": "win"} and st.round == 10
    # and over a whole game, at most tuning.WORK_WINDOWS limits' worth: a decision each round does not let
    # 1,000 rounds spend 1.77 million bindings (a limit's worth in each of a million rounds, unbounded)
    text = ruleset("move box to pile\nsolo chooses c in pile as look:\n  pass\n" + pairs.replace("10", "1000"))
    game = Game(load_text(text.replace(MANY, sixty), "t.yaml"), step_limit=5000, optimize=optimize)
    with pytest.raises(Runaway, match="goes through too many combinations"):
        play(game, 0, {r: FirstAgent(0, r) for r in game.roles})


def test_the_command_line_reports_it_located_with_exit_code_2(tmp_path):
    path = tmp_path / "stuck.yaml"
    text = ruleset(CASES["a loop that never changes its condition"][0])
    path.write_text(text)
    r = rulelang("run", str(path), "--step-limit", "5000")
    line = text.splitlines().index("          while total < 5:") + 1
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"{path}:{line}:11: error: the game ran 5,000 steps without ending: `while total < 5` never ends " \
           "(in step 'Only', round 1)" in r.stderr, r.stderr
    assert "raise the limit with --step-limit" in r.stderr


def test_the_default_limit_stops_a_game_that_never_ends_within_seconds(tmp_path):
    path = tmp_path / "forever.yaml"
    path.write_text(ruleset("total += 1"))
    r = rulelang("run", str(path))
    assert r.returncode == 2 and f"the game ran {DEFAULT_STEP_LIMIT:,} steps without ending: its rounds repeat " \
                                 "forever" in r.stderr, r.stderr


def test_simulate_stops_at_the_first_runaway_with_its_seed(tmp_path):
    path = tmp_path / "stuck.yaml"
    path.write_text(ruleset(CASES["a loop that never changes its condition"][0]))
    r = rulelang("simulate", str(path), "--games", "10", "--step-limit", "1000")
    assert r.returncode == 2 and "(in the game with seed 0)" in r.stderr and "never ends" in r.stderr


def test_a_bundled_game_is_far_below_the_default_limit():
    game = Game(load_ruleset("twenty-trials"), "versus")
    st = play(game, 0, {r: FirstAgent(0, r) for r in game.roles})
    assert st.steps < DEFAULT_STEP_LIMIT / 100


def test_the_limit_option_is_documented():
    docs = (ROOT / "docs" / "reliability.md").read_text() + (ROOT / "docs" / "language.md").read_text()
    assert "--step-limit" in docs and f"{DEFAULT_STEP_LIMIT:,}" in docs
    r = rulelang("run", "--help")
    assert "--step-limit" in r.stdout


# ---------------------------------------------------------------- watches (issue 20, item 1)

def watched(steps: str, watches: str) -> str:
    """The tiny game with a step and a mode's `watch:` entries (YAML, indented as a mode's keys)."""
    return tiny(steps) + "    watch:\n" + "".join(f"      {line}\n" for line in watches.strip().splitlines())


WATCH_LOOPS = {
    # name: (the step, the watches, the watch the error names, its condition)
    "a watch that makes its own condition true again": (
        "total += 1\nif total > 5:\n  win solo", "- when: total >= 0\n  do: total += 1", 1, "`total >= 0`"),
    "a watch whose do: changes nothing it tests": (
        "total += 1\nif total > 5:\n  win solo", "- when: total >= 0\n  do: shuffle pile", 1, "`total >= 0`"),
    "two watches that set each other off": (
        "total += 1\nif total > 5:\n  win solo",
        "- when: size(out) == 0\n  do: move out to pile\n- when: size(out) > 0\n  do: move pile to out",
        1, "`size(out) == 0`"),
}


@pytest.mark.parametrize("optimize", [True, False], ids=["optimised", "plain"])
@pytest.mark.parametrize("name", list(WATCH_LOOPS))
def test_a_watch_that_fires_for_ever_stops_at_the_limit_naming_the_watch(name, optimize):
    steps, watches, number, cond = WATCH_LOOPS[name]
    text = watched(steps, watches)
    game = Game(load_text(text, "t.yaml"), step_limit=100, optimize=optimize)
    with pytest.raises(Runaway) as info:
        play(game, 0, {r: FirstAgent(0, r) for r in game.roles})
    d = info.value.diagnostic
    assert d.message.startswith(f"the game ran 100 steps without ending: watch {number} ({cond}) fires again "
                                "and again (in step 'Only', round "), d.message
    assert d.span.file == "t.yaml" and text.splitlines()[d.span.line - 1].strip().startswith("- when:")
    assert "--step-limit" in d.hint


def test_watches_that_let_the_game_end_count_a_step_each_and_play_on():
    # fires once a round (its do: makes its condition false) and cuts the step short: 3 firings, then a win
    text = watched("if total > 5:\n  win solo\ntotal += 1", "- when: total % 2 == 1\n  do: total += 1")
    game = Game(load_text(text, "t.yaml"), step_limit=100)
    st = play(game, 0, {r: FirstAgent(0, r) for r in game.roles})
    assert st.outcome["results"] == {"solo": "win"} and st.vars[0] == 6 and st.round == 4


def test_the_command_line_stops_a_watch_loop_with_exit_code_2(tmp_path):
    path = tmp_path / "loop.yaml"
    path.write_text(watched(*WATCH_LOOPS["a watch that makes its own condition true again"][:2]))
    r = rulelang("run", str(path), "--step-limit", "100")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "the game ran 100 steps without ending: watch 1 (`total >= 0`) fires again and again" in r.stderr


CHECK_WARNS = {
    # name: (the watches, the warnings' watch numbers)
    "re-triggers itself": ("- when: total >= 0\n  do: total += 1", [1]),
    "changes nothing it tests": ("- when: total >= 0\n  do: shuffle pile", [1]),
    "two that set each other off": (
        "- when: size(out) == 0\n  do: move out to pile\n- when: size(out) > 0\n  do: move pile to out", [1, 2]),
    "two through variables, each making its own condition false": (
        "- when: total == 1\n  do: |\n    total = 0\n    flag = 1\n- when: flag == 1\n  do: |\n    flag = 0\n"
        "    total = 1", [1, 2]),
    "sets what it tests to a value that makes it false": ("- when: total >= 10\n  do: total = 0", []),
    "ends the game": ("- when: total >= 0\n  do: win solo", []),
    "asks a decision": ("- when: total >= 0\n  do: |\n    solo chooses c in pile as look:\n      pass", []),
}


@pytest.mark.parametrize("name", list(CHECK_WARNS))
def test_check_warns_of_a_watch_that_may_set_itself_off_with_no_decision_between(name):
    from rulelang import lint
    watches, numbers = CHECK_WARNS[name]
    text = watched("total += 1", watches).replace("  total: 0\n", "  total: 0\n  flag: 0\n")
    found = lint.warnings(load_text(text, "w.yaml"))
    assert [int(d.message.split()[1]) for d in found] == numbers, found
    for d in found:
        assert d.severity == "warning" and d.span.file == "w.yaml" and "ask a decision in it" in d.hint
        assert text.splitlines()[d.span.line - 1].strip().startswith("- when:")


def test_check_prints_the_warning_and_succeeds(tmp_path):
    path = tmp_path / "w.yaml"
    path.write_text(watched("total += 1", CHECK_WARNS["re-triggers itself"][0]))
    r = rulelang("check", str(path))
    assert r.returncode == 0 and ": ok — " in r.stdout, r.stderr
    assert f"{path}:" in r.stderr and ": warning: watch 1 of mode 'main' asks no decision" in r.stderr, r.stderr


def test_no_bundled_ruleset_has_a_warning():
    from rulelang import lint
    for path in sorted((ROOT / "rulesets").rglob("*.yaml")):
        assert lint.warnings(load_ruleset(str(path))) == [], path


# steps run in one function (merge.py): the step each part's code is in is said only where a runaway
# may read it (said.py), and a runaway still names its own step, not the one said before it
STEPS = """
      - step: Deal
        do: |
          move top(pile) to out
      - step: Spin
        do: |
          while total < 5:
            total = total * 1
      - step: Count
        do: |
          total += 1
          if total > 3:
            win solo
"""


@pytest.mark.parametrize("optimize", [True, False], ids=["optimised", "plain"])
def test_a_runaway_in_a_step_run_with_others_names_its_step(optimize):
    text = ruleset("pass").replace("      - step: Only\n        do: |\n          pass\n", STEPS)
    game = Game(load_text(text, "t.yaml"), step_limit=2000, optimize=optimize)
    with pytest.raises(Runaway) as info:
        play(game, 0, {r: FirstAgent(0, r) for r in game.roles})
    assert "`while total < 5` never ends (in step 'Spin', round 1)" in info.value.diagnostic.message
    if optimize:  # (said in the loop's runaway branch, not before it)
        main = next(u.text() for u in game.rules.units if "the main program" in u.what)
        assert re.search(r"if st\.steps > 2000:\n +st\.at = \d+\n +_runaway", main), main
