"""What compiling an untrusted ruleset may cost is bounded (issue 31, items 4 and 6).

Inlining counts the size of what it writes out and calls past its budgets
(interpreter/compiler/inlining.py): rules where each procedure or define calls
the one before twice no longer grow twice a level. Computing a constant before
play has a budget of work (tuning.FOLD_WORK: big binders, and every search of a
board) past which the value is left to run time. Either way the game is the
one the rules compiled as written play (the naive reference). Times are CPU
seconds of this process: what the input costs, not what the machine is doing."""
import time

import pytest
from test_language import TINY, run_once

from interpreter.compiler import tuning
from interpreter.compiler.inlining import written_out
from interpreter.engine.game import Game
from rulelang import ir, load_text

SECONDS = 5  # each compiles in about a second on a quiet machine; a minute before the budgets


def _rules(extra: str, body: str) -> str:
    return TINY.replace("setup: |", extra + "setup: |").replace("{body}", body.replace("\n", "\n          "))


def procedures(levels: int) -> str:
    """p(k) calls p(k-1) twice: written out, p(levels) is 2^levels statements."""
    text = "procedures:\n  p0():\n    do: |\n      total += 1\n"
    text += "".join(f"  p{i}():\n    do: |\n      p{i - 1}()\n      p{i - 1}()\n" for i in range(1, levels + 1))
    return _rules(text, f"p{levels}()\nwin solo")


def defines(levels: int) -> str:
    """d(k, n) = d(k-1, n) + d(k-1, n + 1): written out, d(levels) is 2^levels additions."""
    text = "define:\n  d0(number n): |\n    n + 1\n"
    text += "".join(f"  d{i}(number n): |\n    d{i - 1}(n) + d{i - 1}(n + 1)\n" for i in range(1, levels + 1))
    return _rules(text, f"total = d{levels}(size(pile))\nwin solo")


def distances(side: int) -> str:
    """A constant that searches the board for every pair of its spaces: side^4 searches."""
    text = TINY.replace("zones:\n", f"zones:\n  board: {{kind: grid, columns: {side}, rows: {side}}}\n")
    return text.replace("{body}", "total = count(a in spaces(board), b in spaces(board) where distance(a, b) > 2)"
                                  "\n          win solo")


def compile_seconds(text: str) -> float:
    start = time.process_time()
    Game(load_text(text, "t.yaml"))
    return time.process_time() - start


@pytest.mark.parametrize("make", [procedures, defines], ids=["procedures", "defines"])
def test_inlining_twice_a_level_compiles_in_bounded_time(make):
    assert compile_seconds(make(18)) < SECONDS  # 2^18 written out: tens of seconds without budgets


@pytest.mark.parametrize("make", [procedures, defines], ids=["procedures", "defines"])
def test_what_is_called_past_the_budget_plays_as_written(make, monkeypatch):
    monkeypatch.setattr(tuning, "INLINE_MOST", 100)  # small budgets: most of them called, some written out
    monkeypatch.setattr(tuning, "INLINE_BUDGET", 50)
    text = make(8)
    rs = load_text(text, "t.yaml")
    called, whole = written_out(rs, (rs.setup, rs.modes["main"].round))
    assert called.procedures or called.defines
    assert whole > 2 ** 8  # everything written out is exponential in the levels
    optimised = run_once(text).vars[0]
    assert optimised == run_once(text, optimize=False).vars[0]
    if make is procedures:
        assert optimised == 2 ** 8


def test_a_constant_past_its_budget_of_work_is_left_to_run_time():
    assert compile_seconds(distances(30)) < SECONDS  # 810,000 searches: days, once


def test_a_constant_left_to_run_time_has_the_value_it_would_have_had(monkeypatch):
    text = distances(5)
    assert isinstance(_assigned(text), ir.Const)  # computed before play
    folded = run_once(text).vars[0]
    monkeypatch.setattr(tuning, "FOLD_WORK", 10)
    assert isinstance(_assigned(text), ir.Quantified)  # past the budget: computed in play
    assert run_once(text).vars[0] == folded == run_once(text, optimize=False).vars[0] > 0


def _assigned(text: str) -> ir.Expr:
    """The value `total` is given, as the compiler left it."""
    (step,) = Game(load_text(text, "t.yaml")).rules.program.steps
    return next(s.value for s in step.body if isinstance(s, ir.Assign))
