"""Reuse (compiler/reuse.py): a quantifier's value that the next statements compute again,
with nothing between that changes what it reads, is computed once — and the game is the
one the plain rules play, errors included."""
import pytest
from helpers import assert_plays_as_plain

from interpreter.engine.game import Game
from interpreter.runtime.errors import RuleError
from rulelang import ir, load_text
from rulelang.walk import walk

PICKS = """
game: picks
title: Picks
roles: [solo]
cards:
  tile:
    fields: {value: 1..6}
    table: |
      value count
      1     3
      2     3
      3     3
      4     3
      5     3
      6     3
  goal:
    fields: {value: 1..6}
    table: |
      value count
      3     2
      5     1
zones:
  deck: {holds: [tile]}
  goals: {holds: [goal]}
  table: {holds: [goal]}
  hand: {holds: [tile]}
  done: {}
vars:
  taken: {type: number, initial: 0}
define:
  aim(): first(g in table where g is goal)
  near(number v): "[c for c in hand where abs(c.value - v) <= 1]"
  high(): "[c for c in hand where c.value > aim().value]"
  mid(): "[c for c in hand where c.value >= 3 and c.value <= 4]"
setup: |
  move all c in box where c is tile to deck
  move all c in box where c is goal to goals
  shuffle deck
modes:
  m:
    round:
      - step: Play
        do: |
          if not empty(goals):
            move top(goals) to table
          while size(hand) < 4 and not empty(deck):
            move top(deck) to hand
          let v = aim().value
          let h = size(high())
          let m = mid()
          if size(mid()) > 2:
            taken = taken + size(m)
          if size(near(v)) == 1:
            move first(c in near(v)) to done
          elif size(near(v)) > 1:
            let w = v
            solo chooses c in near(v) as near:
              move c to done
          if size(high()) > 0:
            let n = size(high())
            taken = taken + n + h
            if size(high()) > 2:
              solo chooses c in high() as high:
                move c to done
          v = v + 1
          if size(near(v)) > 0:
            move top(deck) to hand
            if size(near(v)) > 1:
              solo chooses c in near(v) as again:
                move c to done
          move all c in hand to deck
          if empty(goals):
            end game as done
          move all c in table to done
          shuffle deck
    score:
      solo: size(done) + taken
"""


def games():
    rs = load_text(PICKS, "picks.yaml")
    return Game(rs), Game(rs, optimize=False)


def holders(game: Game) -> set[str]:
    return {n.name for n in walk(game.rules.program.steps) if isinstance(n, ir.Let) and n.name.startswith("$reuse")}


def test_reused_values_play_the_same_as_the_plain_rules():
    fast, plain = games()
    # near(v) and high() (the variable set between does not change it); near(v + 1) after the move
    assert len(holders(fast)) == 3
    assert_plays_as_plain(fast, plain, seeds=80, step=5)


def test_each_reused_value_is_computed_once_and_nothing_after_a_change_reuses_it():
    fast, plain = games()

    def calls(tree) -> int:
        return sum(1 for n in walk(tree) if isinstance(n, ir.DefineCall) and n.name == "near")
    steps = plain.rules.program.steps  # a decision carries its binder twice: as written and as its options
    written = calls(steps) - calls(tuple(n.options for n in walk(steps) if isinstance(n, ir.Choose)))
    computed = sum(1 for n in walk(fast.rules.program.steps)  # `[c for c in hand where abs(...) <= 1]`
                   if isinstance(n, ir.Quantified) and n.kind == "list" and "abs" in repr(n.binder.where))
    mids = sum(1 for n in walk(fast.rules.program.steps)  # `let m = mid()` holds it for the `if` after
               if isinstance(n, ir.Quantified) and n.kind == "list" and ">=" in repr(n.binder.where))
    assert mids == 1
    # as written: near(v) four times, near(v + 1) three times; reused: once before the first `if`, and
    # twice after `v = v + 1` (the move between its two tests changes the hand they read)
    assert (written, computed) == (7, 3)


ERRORS = PICKS.replace("  high(): \"[c for c in hand where c.value > aim().value]\"",
                       "  high(): \"[c for c in hand where c.value > first(g in done where g is goal).value]\"")


def test_an_error_in_a_reused_value_stops_the_game_where_the_plain_rules_stop():
    rs = load_text(ERRORS, "picks.yaml")
    errors = []
    for game in (Game(rs), Game(rs, optimize=False)):
        with pytest.raises(RuleError) as raised:
            game.new_state(3)  # the first round looks for a goal in `done`
        errors.append(raised.value)
    fast, plain = ((e.reason, e.diagnostic.span.line, e.diagnostic.span.col) for e in errors)
    assert fast == plain
    assert fast[:2] == ("first(): no card or value matches", 33)  # in high()
    assert "(in high, called at picks.yaml:" in errors[0].diagnostic.message  # written in place: from where
