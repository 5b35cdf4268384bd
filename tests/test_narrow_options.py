"""A decision's options built as tuples of the names that vary (issue 36): a name bound to one
constant (`ma in uses_for(a)` where no modifier can be in play) is left out of each option as
it is listed, and put back only where someone sees the options — the Decision play stops for,
a watched game's record — and bound as the rules bind it. Each plays exactly as the plain rules."""
import re

from test_frame_stores import _assert_stops_as_plain
from test_per_card_code import games, main_program

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.game import Game
from rulelang import load_text

PAIRS = """
game: pairs
title: Pairs
players:
  count: 2..3
  default: 2
cards:
  tile:
    fields: {value: 1..5}
    table: |
      value
      1
      2
      3
      4
      5
      1
      2
      3
      4
      5
      3
      4
zones:
  deck: {}
  hand: {owner: each}
  pile: {}
vars:
  score: {initial: 0, owner: each}
setup: |
  move all c in box to deck
modes:
  m:
    round:
      - step: Deal
        do: |
          shuffle deck
          for p in players:
            repeat 4 times:
              if not empty(deck):
                draw 1 from deck to hand of p
      - step: Play
        do: |
          for p in players:
            if exists a, b in hand of p, m in [2] where a.value + b.value + m >= 6:
              p chooses a, b in hand of p, m in [2] where a.value + b.value + m >= 6 as pair:
                move a, b to pile
                score of p += m
            elif exists k in [1], c in hand of p:
              p chooses k in [1], c in hand of p as single:
                move c to pile
                score of p += k
      - step: Gather
        do: |
          move pile to deck
          for p in players:
            move hand of p to deck
          if round == 4:
            end game as done
"""


def test_options_are_listed_without_the_names_bound_to_one_constant():
    fast, plain = games(PAIRS)
    code = main_program(fast)
    # the pairs as pairs, the singles as 1-tuples: the constant is not in the tuples built
    assert re.search(r"out\d+\.append\(\(v\d+, v\d+\)\)", code) and re.search(r"out\d+\.append\(\(v\d+,\)\)", code)
    assert not re.search(r"append\(\(v\d+, v\d+, v\d+\)\)|append\(\(v\d+, v\d+\)\)\n.*single", code)
    # where play stops, the Decision lists every name, the constant in its place (last, first)
    assert re.search(r"_decision\(\(k\d+, v\d+, \[\(o0, o1, 2\) for o0, o1 in out\d+\]", code)
    assert re.search(r"_decision\(\(k\d+, v\d+, \[\(1, o0\) for o0, in out\d+\]", code)
    st = plain.new_state(0)
    while not plain.is_terminal(st):
        d = plain.decision(st)
        assert all(len(o) == (3 if d.label == "pair" else 2) for o in d.options)
        plain.apply(st, 0)


def test_narrow_options_play_record_and_stop_as_the_plain_rules():
    for players in (2, 3):
        fast, plain = games(PAIRS, players=players)
        _assert_stops_as_plain(fast, plain)
        kept = [Game(load_text(PAIRS, "pairs.yaml", {"players": str(players)}), optimize=o, history=True)
                for o in (True, False)]
        for seed in range(12):  # answered at once in the generated code, the events kept: the same records
            a, b = (play(g, seed, {r: RandomAgent(seed, r) for r in g.roles}) for g in kept)
            assert a.events and a.outcome == b.outcome and a.events == b.events, seed
            assert any(getattr(e, "label", None) == "pair" or "pair" in repr(e) for e in a.events)
