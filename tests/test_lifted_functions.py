"""A quantifier's nested function that only reads what it uses from around it is made once,
beside the unit's constants, and called with those values (compiler/lift.py), instead of
being made again every time the lines that hold it run; one that sets a lazy value of the
lines around it stays where it is. The games are the plain rules' either way."""
import re

import pytest
from helpers import ROOT, assert_plays_as_plain, compiled
from helpers.random_games import CONFIGS, LONG_GAMES

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.compiler.options import ALL
from interpreter.engine.game import Game
from interpreter.runtime.errors import RuleError
from rulelang import load_text

COUNTS = """
game: counts
title: Counts
roles: [solo]
cards:
  tile:
    fields: {value: 1..6}
    table: |
      value count
      1     3
      3     3
      5     3
zones:
  deck: {}
  hand: {}
  done: {}
vars:
  turns: 0
setup: |
  move all c in box to deck
  shuffle deck
modes:
  m:
    round:
      - step: Play
        do: |
          while size(hand) < 3 and not empty(deck):
            move top(deck) to hand
          for c in hand:
            if count(d in hand where d.value > c.value) >= 1:
              move c to done
          if exists e in hand where e.value == 5:
            solo chooses k in hand where k.value >= 3 as keep:
              move k to done
          move all e in hand to deck
          turns += 1
          if empty(deck) or turns == 6:
            end game as over
    score:
      solo: size(done)
"""

NESTED_DEF = re.compile(r"^( +)def (q\d+|hl\d+)\((.*)\):", re.M)


def units(game: Game) -> str:
    return "\n".join(u.text() for u in game.rules.units)


def test_what_reads_only_from_around_it_is_made_once_and_plays_as_before():
    fast, plain = Game(load_text(COUNTS, "counts.yaml")), Game(load_text(COUNTS, "counts.yaml"), optimize=False)
    text = units(fast)
    lifted = [(name, params) for indent, name, params in NESTED_DEF.findall(text) if len(indent) == 4]
    assert lifted, text
    # the count over the hand reads the card of the loop around it: a parameter, passed at the call
    assert any(set(params.split(", ")) > {"st"} for _, params in lifted)
    for name, params in lifted:
        assert f"{name}({params})" in text and f"{name}()" not in text
    assert_plays_as_plain(fast, plain, seeds=30, step=5)


@pytest.mark.parametrize("name", ["gauntlet-gobbots", "twenty-trials", "gauntlet-race", "hand-of-fate-ordeals"])
def test_the_bundled_games_make_their_quantifiers_once(name):
    defs = NESTED_DEF.findall(units(compiled(name)))
    assert sum(len(indent) == 4 for indent, _, _ in defs) >= 3
    if name == "gauntlet-gobbots":  # its quantifiers set no lazy value of the lines around them
        assert all(len(indent) == 4 for indent, _, _ in defs)


def test_a_lifted_function_fails_where_the_nested_one_failed():
    # the count reads c.value of a card that is none: the same error, from the same line, lifted or nested
    broken = COUNTS.replace("for c in hand:\n            if count(",
                            "let c = (first(x in done) if not empty(done) else none)\n"
                            "          if true:\n            if count(")

    def error(passes=ALL) -> tuple:
        game = Game(load_text(broken, "counts.yaml"), passes=passes)
        with pytest.raises(RuleError) as err:
            st = game.new_state(0)
            while not game.is_terminal(st):
                game.apply(st, 0)
        return units(game), err.value.diagnostic
    lifted, lifted_error = error()
    nested, nested_error = error(ALL.replace(lift=False))
    assert re.search(r"^    def q\d+\(env_k\d+, st\):", lifted, re.M) and not re.search(r"^    def q", nested, re.M)
    assert lifted_error == nested_error and lifted_error.span.line == 31  # the count's line


EXAMPLES = [(str(path), None) for path in sorted((ROOT / "rulesets" / "examples").glob("*.yaml"))]


# the race and 16-7 compile in a second or so, twice here: in the slow run
@pytest.mark.parametrize("name, mode", [pytest.param(n, m, marks=[pytest.mark.slow] if n.startswith(("gauntlet-race",
                                                                                                   "gauntlet-16-7")) else [])
                                        for n, m in CONFIGS if n not in LONG_GAMES - {"gauntlet-race"}] + EXAMPLES)
def test_every_ruleset_plays_the_same_with_its_functions_lifted_or_not(name, mode):
    lifted, nested = compiled(name, mode), compiled(name, mode, passes=ALL.replace(lift=False))
    assert units(lifted) != units(nested) or "def q" not in units(nested)
    for seed in range(8):
        games = [play(g, seed, {r: RandomAgent(seed, r) for r in g.roles}) for g in (lifted, nested)]
        assert games[0].outcome == games[1].outcome and games[0].answers() == games[1].answers(), seed
