"""A statement's list (a decision's options, a `let` of a list, a loop's rows) is built by
lines of the block itself (binders.inline_call), not by a function made and called each
time the statement runs; the games are the plain rules' (the optimised-vs-plain tests)."""
import re

import pytest
from helpers import bundled

from interpreter.engine.game import Game

CALLED = re.compile(r"^\s*(opts|rows)\d+ = q\d+\([\w, ]*\)", re.M)  # a decision's or a loop's list from a function


@pytest.mark.parametrize("name", ["twenty-trials", "gauntlet-gobbots"])
def test_options_and_rows_are_built_in_the_block(name):
    game = Game(bundled(name))
    text = "\n".join(unit.text() for unit in game.rules.units)
    assert "_combinations(" in text or name != "twenty-trials"
    assert not CALLED.findall(text)
    assert re.search(r"\bif .*\bq\d+\(", text)  # a quantifier inside a test keeps its function
    assert CALLED.search("    rows12 = q40()  # rules.yaml:7") and CALLED.search("    opts3 = q4(st, env)")
