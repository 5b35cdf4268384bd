"""Whether a zone has a card (`exists c in Z`, `not empty(Z)`, `not not x`) is written
`not not x`, which a test does not compute at all and a value computes without a call,
never `bool(x)`; and `not` of it is `not x`."""
import ast

from helpers import compiled

from interpreter.compiler import pycode as code
from interpreter.compiler.expressions import negated


def test_twenty_trials_reveals_its_trial_without_a_call():
    text = "\n".join(unit.text() for unit in compiled("twenty-trials").rules.units)
    assert "bool(" not in text
    assert "while not zones[" in text  # while not exists t in chamber where t is trial (every card there is one)


def test_not_of_a_truth_is_one_not():
    x = ast.Name("x", ast.Load())
    assert ast.unparse(code.truth(x)) == "not not x"
    assert ast.unparse(negated(code.truth(x))) == "not x"
    assert ast.unparse(negated(negated(x))) == "not not x"
