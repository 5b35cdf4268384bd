"""Loop unswitching (compiler/binders.py): a `where` that first tests a value no binding
changes runs one set of loops per outcome of that test, and still plays exactly as the
plain rules do, lazily (nothing is computed that the original would not have computed)."""
import re

import pytest
from helpers import assert_plays_as_plain

from interpreter.engine.game import Game
from interpreter.runtime.errors import RuleError
from rulelang import load_text

MATCHES = """
game: matches
title: Matches
roles: [solo]
types:
  test_kind: [sum_at_least, sum_at_most, equal, apart]
cards:
  tile:
    fields: {value: 1..6}
    table: |
      value count
      1     2
      2     2
      3     2
      4     2
      5     2
      6     2
  test:
    fields: {kind: test_kind, value: 0..12}
    table: |
      kind          value
      sum_at_least  8
      sum_at_most   5
      equal         0
      apart         3
zones:
  deck: {holds: [tile]}
  tests: {holds: [test]}
  table: {holds: [test]}
  hand: {holds: [tile]}
  done: {}
define:
  the_test(): first(t in table where t is test)
  meets(tile a, tile b): |
    case the_test().kind:
      sum_at_least: a.value + b.value >= the_test().value
      sum_at_most: a.value + b.value <= the_test().value
      equal: a.value == b.value
      else: abs(a.value - b.value) >= the_test().value
  hard(): the_test().value > 4
setup: |
  move all c in box where c is tile to deck
  move all c in box where c is test to tests
  shuffle deck
  shuffle tests
modes:
  m:
    round:
      - step: Play
        do: |
          if not empty(tests):
            move top(tests) to table
          while size(hand) < 4 and not empty(deck):
            move top(deck) to hand
          if exists a, b in hand where meets(a, b):
            solo chooses a, b in hand where meets(a, b) as pair:
              move a, b to done
          if size(hand) >= 2:
            if exists c in hand where (c.value > 3 if hard() else c.value <= 3):
              solo chooses c in hand where (c.value > 3 if hard() else c.value <= 3) as one:
                move c to done
            if exists c in hand where hard() and c.value % 2 == 0:
              solo chooses c in hand where hard() and c.value % 2 == 0 as even:
                move c to done
          move all c in hand to deck
          if empty(tests):
            end game as done
          move all c in table to done
          shuffle deck
    score:
      solo: size(done)
"""


def games(optimize: bool):
    return Game(load_text(MATCHES, "matches.yaml"), optimize=optimize)


def test_unswitched_loops_play_the_same_as_the_plain_rules():
    fast, plain = games(True), games(False)
    # a loop over the pairs per case arm (a block's code copied into several functions counts once)
    loops = [len({line.strip() for u in g.rules.units for line in u.text().splitlines() if "_combinations(" in line})
             for g in (fast, plain)]
    assert loops[0] > loops[1] + 4
    assert_plays_as_plain(fast, plain, seeds=60, step=7)


def test_what_every_branch_computes_first_is_computed_once_without_a_test():
    # the case's subject (the test card's kind) is computed before the branches, each branch's
    # value (its `value`) at the branch's top: plain lines, no lazy `is not UNSET` test left
    main = next(u.text() for u in games(True).rules.units if "the main program" in u.what)
    assert main.count("_combinations(") >= 8
    computed = [line for line in main.splitlines() if re.match(r"\s*h\d+ = ", line) and "= UNSET" not in line]
    assert len(computed) >= 8 and not [line for line in computed if "UNSET" in line]


def test_a_test_is_evaluated_only_when_the_original_evaluates_it():
    # no test card anywhere: `the_test()` fails wherever it is evaluated
    for optimize in (True, False):
        game = games(optimize)
        tiles = game.cards("tile")
        st = game.new_state(1)
        game.arrange(st, "tests", [])
        game.arrange(st, "table", [])
        game.arrange(st, "hand", [])
        game.arrange(st, "deck", tiles[:1])
        game.start_step(st, "Play")  # one card in hand: no pair, so the `case` is never reached
        assert game.outcome(st)["reason"] == "done", optimize
        st = game.new_state(1)
        game.arrange(st, "tests", [])
        game.arrange(st, "table", [])
        game.arrange(st, "hand", [])
        game.arrange(st, "deck", tiles[:2])
        with pytest.raises(RuleError, match=r"first\(\): no card or value matches"):
            game.start_step(st, "Play")  # a pair: the `case` looks for the test
