"""What the generated code pays at every step, card and decision (issue 36), and that it plays
exactly as the plain rules do: a loop's place carried in Python locals while its function goes
round it (carried.py), the answer's record written out, the slot of a player's own zone or
variable looked up at once, a field of a zone's top card read with one test, and lazy values
that a value computes first (a pick's key, a sum's term) computed before the loops."""
import re
from functools import lru_cache

import pytest
from helpers import assert_plays_as_plain
from test_per_card_code import PICKS, games, main_program

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.game import Game
from interpreter.runtime.errors import RuleError
from rulelang import load_text


@lru_cache(maxsize=None)
def compiled(text: str = PICKS, players: int = 4, deals: int = 2) -> list[Game]:
    """The optimised and the plain program, compiled once for the tests of this file."""
    return games(text, players=players, deals=deals)


def _loop_keys(game: Game) -> set[str]:
    """The constants naming the locals where the main program's loops keep their place."""
    unit = next(u for u in game.rules.units if "the main program" in u.what)
    return {f"k{i}" for i, c in enumerate(unit.consts) if isinstance(c, str) and c.startswith(("$i", "$rows"))}


def _functions(code: str) -> list[str]:
    return re.split(r"\n(?=        def b\d+\(st, env\):)", code)


def test_a_function_that_goes_round_a_loop_reads_its_place_once_and_writes_it_where_it_leaves():
    game = compiled()[0]
    keys, looping = _loop_keys(game), 0
    for fn in _functions(main_program(game)):
        if "while True:" not in fn:
            continue
        looping += 1
        before, inside = fn.split("while True:", 1)
        inside_lines = inside.splitlines()
        for k in keys:
            assert not re.search(rf"= env\[{k}\]", inside), fn  # no pass reads it from the frame
            for i, line in enumerate(inside_lines):  # and it is written back only just before a return (after
                if re.match(rf"\s+env\[{k}\] = ", line):  # other locals put in the frame there, live.py)
                    then = next(s for s in inside_lines[i + 1:] if not re.fullmatch(r"\s*env\[k\d+\] = \w+", s))
                    assert then.strip().startswith("return"), fn
    assert looping, "the decision loop of Play goes round in one function"


def test_quick_answers_play_and_record_as_the_plain_rules_do():
    # answered in the generated code itself (no stop for the engine), the answers kept as events
    fast, plain = compiled()
    for seed in range(12):
        a, b = (play(g, seed, {r: RandomAgent(seed, r) for r in g.roles}) for g in (fast, plain))
        assert a.answers() == b.answers() and fast.outcome(a) == plain.outcome(b), seed
        assert [tuple(e) for e in a.events] == [tuple(e) for e in b.events], seed
        assert any(type(e).__name__ == "Decided" for e in a.events)


def test_stopping_inside_a_carried_loop_resumes_where_it_stopped():
    assert_plays_as_plain(*compiled(), seeds=10, step=3)


def test_a_players_own_slot_is_looked_up_at_once():
    code = main_program(compiled()[0])
    assert "hand of" in PICKS and not re.search(r"\b\d+ \+ k\d+\[", code)  # not `2 + SEATS[p]`


EMPTY = """
game: empty_top
title: Empty top
players:
  count: 2
cards:
  tile:
    fields: {value: 1..3}
    table: |
      value
      1
      2
zones:
  deck: {}
  pile: {}
vars:
  seen: {initial: 0}
setup: |
  move all c in box to deck
modes:
  m:
    round:
      - step: Look
        do: |
          seen = top(deck).value
          move all c in deck to pile
          seen = bottom(deck).value
"""


@pytest.mark.parametrize("optimize", [True, False])
def test_a_field_of_an_empty_zones_top_card_fails_where_the_rules_do(optimize):
    game = Game(load_text(EMPTY, "empty.yaml"), optimize=optimize)
    with pytest.raises(RuleError, match="there is no card here to read 'value' from") as raised:
        game.new_state(0)
    assert raised.value.diagnostic.span.line == 27  # `bottom(deck)`, once the deck is empty


KEYS = PICKS.replace("  led(): bottom(pile).suit\n",
                     "  led(): bottom(pile).suit\n"
                     "  best(): first(c in pile ordered by c.value + (10 if c.suit == led() else 0) descending)\n"
                     ).replace("            if round % 5 == 0:\n              move highest() to hand of dealer\n",
                               "            if round % 5 == 0:\n              move best() to hand of dealer\n")


def test_a_lazy_value_a_key_computes_first_is_computed_before_the_loop():
    fast, plain = compiled(KEYS, players=3)
    assert_plays_as_plain(fast, plain, seeds=10, step=3)
    code = "\n".join(u.text() for u in fast.rules.units)
    at = code.index("+ (10 if")
    pick = code[code.rfind("    def q", 0, at):at]  # the pick's function, up to its key
    loop = pick.index("        for ")
    assert re.search(r"if d\d+:\n\s+h\d+ = ", pick[:loop]) and "is not UNSET" not in pick[loop:]


def test_a_reset_is_written_only_for_a_lazy_value_still_asked_about():
    for game in (compiled()[0], compiled(KEYS, players=3)[0]):
        code = "\n".join(u.text() for u in game.rules.units)
        reset = set(re.findall(r"^\s+(h\d+) = UNSET", code, re.M))
        asked = set(re.findall(r"\((h\d+) if \1 is not UNSET", code)) | \
            {n for line in re.findall(r"nonlocal (.+)", code) for n in line.split(", ")}
        assert reset and reset <= asked
