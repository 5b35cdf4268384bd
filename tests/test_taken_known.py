"""A card just chosen among options listed from a zone's list held in a local is taken off that
list, not looked up again (compiler/taken.py), where nothing from the list's read to the move can
have moved a card; where a decision is resumed (the card read back from the frame) it is looked up."""
import ast
import re

from helpers import assert_plays_as_plain, compiled

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.compiler.options import NAIVE
from interpreter.compiler.taken import taken_from_known

CHOSEN = ("d = zones[k1[p]]\nout = []\nfor v in d:\n    if q5(env, st):\n        out.append(v)\n"
          "if not out:\n    _fail(k2)\nif not ((answer6 := st.quick[p]) is not None and (i := answer6(st.decisions, len(out), k3))"
          " is not None):\n    return -1\nc = out[i]\nst.decisions += 1\nif st.watched:\n"
          "    st.events.append(_decided((p, k4, (out[i],), ())))\n")
MOVE = "zones[where[c]].remove(c)\nzones[7].append(c)\nwhere[c] = 7"


def _code(text: str) -> str:
    return ast.unparse(ast.fix_missing_locations(ast.Module(taken_from_known(ast.parse(text).body), [])))


def test_a_card_chosen_from_a_held_zone_is_taken_off_it():
    made = _code(CHOSEN + MOVE)
    assert "d.remove(c)\nzones[7].append(c)" in made and "where[c]]" not in made
    # all of the zone (`out.extend(d)`), in a loop's pass
    looped = "while True:\n    out = []\n    d = zones[k1[p]]\n    out.extend(d)\n    c = out[i]\n" \
             "    zones[where[c]].remove(c)\n    zones[7].append(c)"
    assert "    d.remove(c)" in _code(looped)


def test_a_card_that_may_have_moved_or_come_from_elsewhere_is_looked_up():
    kept = [CHOSEN + "zones[3].append(zones[2].pop())\n" + MOVE,  # something moves a card in between
            CHOSEN + "h(st)\n" + MOVE,  # a call the pass does not know
            CHOSEN.replace("out.append(v)", "out.append(w)") + MOVE,  # an option not from the zone
            CHOSEN.replace("out = []\n", "out = []\nout.append(x)\n") + MOVE,  # one added before it
            CHOSEN + "c = out[0]\n" + MOVE,  # the card set again
            CHOSEN + "zones[2] = []\n" + MOVE,  # a zone's list replaced
            "c = env[k38]\n" + MOVE]  # a resumed decision: the card read back from the frame
    for text in kept:
        assert "where[c]]" in _code(text), text


def test_oh_hells_card_played_is_taken_off_the_hand_and_plays_as_written():
    fast = compiled("oh-hell", params={"players": 4})
    text = "\n".join(unit.text() for unit in fast.rules.units)
    taken = re.findall(r"^ +(d\d+)\.remove\(v\d+\)  # rulesets/examples/oh-hell.yaml:116", text, re.MULTILINE)
    assert len(taken) == 1  # the decision answered at once (blocks.suspend) ...
    assert re.search(r"zones\[where\[(c\d+)\]\]\.remove\(\1\)\n", text)  # ... and resumed: looked up
    assert re.search(rf"^ +{taken[0]} = zones\[", text, re.MULTILINE)
    plain = compiled("oh-hell", params={"players": 4}, passes=NAIVE)
    assert_plays_as_plain(fast, plain, seeds=3, step=3)  # decisions resumed through the engine
    for seed in range(4):  # answered at once, in the generated code
        agents = {role: RandomAgent(seed, role) for role in fast.roles}
        a = play(fast, seed, agents, history=False)
        b = play(plain, seed, {role: RandomAgent(seed, role) for role in plain.roles}, history=False)
        assert fast.outcome(a) == plain.outcome(b) and a.decisions == b.decisions and a.steps == b.steps
