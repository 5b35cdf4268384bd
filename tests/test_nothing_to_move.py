"""A move of every card of a zone `where` a test that folds to false (the zone can never hold
that type: zones.py) writes nothing: no list built, no filter, no move (statements.no_rows).
One over a zone whose test may hold is written as it was. The games are the plain rules'."""
from helpers import assert_plays_as_plain
from test_per_card_code import main_program

from interpreter.engine.game import Game
from rulelang import load_text

SORTING = """
game: sorting
title: Sorting
players:
  count: 2
cards:
  gem:
    fields: {value: 1..6}
    table: |
      value
      1
      2
      3
      4
      5
      6
  rock: {count: 4}
zones:
  gems: {}
  rocks: {}
  pile: {}
  tray: {}
setup: |
  move all c in box where c is gem to gems
  move all c in box where c is rock to rocks
modes:
  m:
    round:
      - step: Take
        do: |
          for p in players:
            if not empty(gems):
              p chooses g in gems as take:
                move g to pile
          move all c in pile where c is rock to rocks
          move all c in pile where c is gem to tray
          move all c in tray where c is rock to rocks
          move all c in tray where c is gem and c.value > 5 to rocks
          if empty(gems):
            end game as done
"""


def games() -> list[Game]:
    return [Game(load_text(SORTING, "sorting.yaml"), optimize=o) for o in (True, False)]


def test_a_move_whose_test_cannot_hold_is_not_written():
    fast, plain = games()
    code = main_program(fast)
    lines = SORTING.splitlines()
    at = {what: f"sorting.yaml:{lines.index('          ' + what) + 1}" for what in (
        "move all c in pile where c is rock to rocks", "move all c in pile where c is gem to tray",
        "move all c in tray where c is rock to rocks", "move all c in tray where c is gem and c.value > 5 to rocks")}
    gone, kept = list(at.values())[::2], list(at.values())[1::2]
    # the pile and the tray only ever hold gems: each move of their rocks is gone; of their gems, the
    # pile's whole list is moved (its test holds of every card), the tray's gems are moved as they were
    assert not any(line in code for line in gone) and all(line in code for line in kept)
    assert_plays_as_plain(fast, plain, seeds=8, step=3)
