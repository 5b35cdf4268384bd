"""A generated function reads a zone (`zones[7]`), the variables (`st.vars`) or a state of the
cards (`st.props[0]`) once, before the loop that reads it again and again, instead of at every
pass (compiler/held.py); reads outside loops, or in a function's loop back to its start read
once a pass, stay where they are. The games are the plain rules' either way."""
import ast
import re

from helpers import assert_plays_as_plain, compiled

from interpreter.compiler.held import held, held_everywhere
from interpreter.compiler.options import NAIVE
from interpreter.compiler.pycode import Nested


def _code(text: str) -> str:
    return ast.unparse(ast.fix_missing_locations(ast.Module(held(ast.parse(text).body), [])))


def test_a_zone_read_in_a_for_loop_is_held_before_it():
    made = _code("zones = st.zones\nwhere = st.where\nif x:\n    for c in zones[3]:\n"
                 "        zones[7].append(c)\n        st.vars[2] += st.props[0][c]\nreturn zones[7]")
    assert made == ("zones = st.zones\nif x:\n    vars = st.vars\n    props0 = st.props[0]\n    zone7 = zones[7]\n"
                    "    for c in zones[3]:\n        zone7.append(c)\n        vars[2] += props0[c]\nreturn zones[7]")
    # (where, no longer read, is not read from the state at all; zones, read only to hold a zone, is not held)
    assert _code("zones = st.zones\nfor c in x:\n    zones[7].append(c)") == \
        "zone7 = st.zones[7]\nfor c in x:\n    zone7.append(c)"


def test_reads_outside_loops_and_once_a_pass_stay():
    text = "zones = st.zones\nif a:\n    y = zones[7]\nelse:\n    y = zones[7]\nwhile True:\n    if st.vars[0]:\n" \
           "        return zones[2]\n    st.vars[1] = zones[2]"
    made = _code(text)
    assert "zone7" not in made and "zone2" not in made and "vars =" not in made
    assert made.startswith("zones = st.zones\n")  # (read more than once: the shortcut stays)


def test_nested_functions_hold_their_own():
    made = _code("zones = st.zones\ndef q(st):\n    return [c for c in zones[1] if c in zones[2]]\nx = q(st)")
    assert "zone2 = zones[2]" not in made.split("def q")[0]


def test_a_lifted_function_is_held_where_it_is_written_alone():
    """A nested function written beside the constants (lifted) is held there, once: where it stood
    in its function it is left as it is (it is not written there)."""
    loop = [ast.For(ast.Name("c", ast.Store()), ast.Name("x", ast.Load()), ast.parse("zones[7].append(c)").body, [])]
    f = ast.FunctionDef("_f", ast.arguments([], [], None, [], [], None, []),
                        [Nested("q1", list(loop), ()), Nested("q2", list(loop), ())], [], None)
    done = held_everywhere(f, frozenset({"q1"}))
    assert done.body[0] is f.body[0]  # lifted: left as it is
    assert done.body[1] is not f.body[1] and _text(done.body[1].body[0]) == "zone7 = st.zones[7]"
    alone = held_everywhere(f.body[0])  # (where it is written)
    assert _text(alone.body[0]) == "zone7 = st.zones[7]"


def _text(s: ast.stmt) -> str:
    return ast.unparse(ast.fix_missing_locations(ast.Module([s], [])))


def test_oh_hells_trick_holds_the_trick_and_plays_as_written():
    fast = compiled("oh-hell", params={"players": 4})
    text = "\n".join(unit.text() for unit in fast.rules.units)
    held_zones = re.findall(r"^ +(zone\d+) = (?:st\.)?zones\[\d+\]", text, re.MULTILINE)
    assert held_zones, "the trick, read at every card played, is held before the loop"
    for name in set(held_zones):  # each held zone is read where it is held
        assert re.search(rf"\b{name}\b(?! =)", text)
    assert_plays_as_plain(fast, compiled("oh-hell", params={"players": 4}, passes=NAIVE), seeds=3, step=3)
