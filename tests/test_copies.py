"""A local that only copies another (`c64 = v121`) is read as the other where it is read, when
nothing can tell the difference (compiler/copies.py): set once, read only after the copy, the
other not set again there, neither seen by a nested function. The constant a binder binds a name to
alone goes where nothing reads it."""
import ast
import re

from helpers import compiled

from interpreter.compiler.copies import without_copies


def _code(text: str, shared=()) -> str:
    return ast.unparse(ast.fix_missing_locations(ast.Module(without_copies(ast.parse(text).body, shared), [])))


def test_a_copy_is_read_as_what_it_copies():
    assert _code("v = f()\nc = v\nzones[where[c]].remove(c)\nwhere[c] = 7") == \
        "v = f()\nzones[where[v]].remove(v)\nwhere[v] = 7"
    assert _code("while True:\n    v = g()\n    c = v\n    if c:\n        h(c)") == \
        "while True:\n    v = g()\n    if v:\n        h(v)"


def test_a_copy_that_could_differ_stays():
    kept = ["v = f()\nc = v\nv = g()\nh(c)",  # the other set again after it
            "c = 0\nv = f()\nc = v\nh(c)",  # set twice
            "while True:\n    h(c)\n    v = f()\n    c = v",  # read before it, at the loop's next pass
            "v = f()\nc = v\ndef q():\n    return c\nh(q())",  # read by a nested function
            "v = f()\nc = v\nh([(v := x) for x in c])"]  # the other set by a comprehension's :=
    for text in kept:
        assert _code(text) == ast.unparse(ast.parse(text)), text
    assert _code("c = h1\nh(c)", shared=("h1",)) == "c = h1\nh(c)"  # another function may set h1


def test_oh_hells_card_played_is_moved_as_the_answer_itself():
    text = "\n".join(unit.text() for unit in compiled("oh-hell", params={"players": 4}).rules.units)
    assert not re.search(r"^ *c\d+ = v\d+\b", text, re.MULTILINE)  # (was: c64 = v121, c65 = v121)
    # the rule the copy came from names the line that now begins the move (a traceback's, `show --python`'s)
    assert re.search(r"zones\[where\[v\d+\]\]\.remove\(v\d+\)  # rulesets/examples/oh-hell.yaml:116", text)


def _bound(text: str) -> str:
    """The code with every `v = ...` marked as a binder's constant (binders.py), copies.py's."""
    body = ast.parse(text).body
    for n in ast.walk(ast.Module(body, [])):
        if type(n) is ast.Assign and type(n.targets[0]) is ast.Name and n.targets[0].id == "v":
            n.constant = True
    return ast.unparse(ast.fix_missing_locations(ast.Module(without_copies(body), [])))


def test_a_binders_constant_that_nothing_reads_goes():
    assert _bound("while True:\n    v = None\n    for a, b in f():\n        g((a, b))") == \
        "while True:\n    for a, b in f():\n        g((a, b))"
    kept = ["v = 2\nh(v)",  # read
            "v = None\nv = f()\nh()",  # set again
            "v = None\ndef q():\n    return v\nh(q())",  # read by a nested function
            "v = None\nh([v for x in y])"]  # read by a comprehension
    for text in kept:
        assert _bound(text) == ast.unparse(ast.parse(text)), text
    assert _code("v = None\nh()") == "v = None\nh()"  # a local of the code's own (a counter, a flag) stays


def test_a_copy_of_a_zone_held_before_a_loop_is_read_as_the_held_zone():
    from test_per_card_code import assert_plays_as_plain, games, main_program
    fast, plain = games()
    code = main_program(fast)
    # the deal draws from the deck held before its loops (zone1 = zones[1]), not from a copy made each card
    assert re.search(r"^ *zone\d+ = zones\[\d+\]$", code, re.MULTILINE)
    assert not re.search(r"^ *\w+ = zone\d+$", code, re.MULTILINE)
    assert_plays_as_plain(fast, plain, seeds=6, step=5)
