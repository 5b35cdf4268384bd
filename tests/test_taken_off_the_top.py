"""A card looked at on top (or bottom) of a zone and moved at once is taken off that end of the
zone's list, not searched for (compiler/peeks.py); a second look at the same zone in between is
the first card. Not where a card may have moved between the look and the move. The games are the
same as the plain rules'."""
import re

import pytest
from helpers import assert_plays_as_plain
from test_per_card_code import main_program

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.game import Game
from rulelang import load_text

DRAWS = """
game: draws
title: Draws
players:
  count: 2
cards:
  tile:
    fields: {value: 1..6}
    table: |
      value
      1
      2
      3
      4
      5
      6
      1
      2
      3
      4
zones:
  deck: {}
  hand: {owner: each}
  out: {}
setup: |
  move all c in box to deck
modes:
  m:
    round:
      - step: Draw
        do: |
          for p in players:
            DRAW
            p chooses x in hand of p as drop:
              move x to out
          if size(deck) < 3:
            end game as done
    score:
      each: size(hand of it)
"""

FROM_TOP = "let c = top(deck)\n            let d = top(deck)\n            move d to out\n            move c to hand of p"
FROM_BOTTOM = "let c = bottom(deck)\n            move c to hand of p\n            move top(deck) to out"
MOVED_BETWEEN = "let c = top(deck)\n            move top(deck) to out\n            if not empty(deck):\n" \
                "              move top(deck) to hand of p\n            move c to hand of p"


def games(draw: str) -> list[Game]:
    text = DRAWS.replace("DRAW", draw).replace("    score:\n      each: size(hand of it)\n", "")
    return [Game(load_text(text, "draws.yaml"), optimize=o) for o in (True, False)]


# (at the top, only a copy between the look and the move: the card is popped at the look, after a
# test of the zone; at the bottom, the destination is worked out between: looked at, then popped)
@pytest.mark.parametrize("draw,popped,searched,looks", [(FROM_TOP, ".pop()", 1, 0), (FROM_BOTTOM, ".pop(0)", 0, 1)])
def test_a_card_looked_at_and_moved_is_taken_off_its_end_of_the_zone(draw, popped, searched, looks):
    fast, plain = games(draw)
    draws = main_program(fast).split("_decision")[0]  # the draw, before the first player's decision
    assert draws.count(popped) == 1 and len(re.findall(r"= t\d+\[(-1|0)\] if", draws)) == looks  # not two
    assert bool(looks) != bool(re.search(r"if not zones\[\d+\]:.*\n +_fail\(k\d+\)\n +\w+ = zones\[\d+\]\.pop\(\)", draws))
    # (at the top: the card moved a second time, from the hand it went to, is searched for there)
    assert len(re.findall(r"zones\[where\[(\w+)\]\]\.remove\(\1\)", draws)) == searched
    _plays_as_plain(fast, plain)


def test_a_card_that_may_have_moved_since_it_was_looked_at_is_searched_for():
    fast, plain = games(MOVED_BETWEEN)
    code = main_program(fast).split("_decision")[0]
    assert re.search(r"zones\[where\[(\w+)\]\]\.remove\(\1\)", code)  # (the card c: searched for)
    _plays_as_plain(fast, plain)


def _plays_as_plain(fast: Game, plain: Game) -> None:
    assert_plays_as_plain(fast, plain, seeds=8, step=3)
    for seed in range(8):
        a, b = (play(g, seed, {r: RandomAgent(seed, r) for r in g.roles}) for g in (fast, plain))
        assert a.answers() == b.answers() and fast.outcome(a) == plain.outcome(b), seed
