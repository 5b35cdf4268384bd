"""Moving many cards at once (statements.move_many): what stays in their zone is kept by C
(`filterfalse`), and every moved card lies where and how the plain rules put it, whether
its zone's facing or its type's own decides."""
import pytest

from interpreter.engine.game import Game
from rulelang import load_text

PICKS = """
game: picks
title: Picks
roles: [solo]
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
  stone:
    fields: {weight: 1..3}
    table: |
      weight count
      1      2
      3      2
zones:
  bag: {facing: down}
  hand: {}
  kept: {}
  gone: {}
vars:
  turns: 0
setup: |
  for c in box where c is tile:
    move c to bag
  move all c in box where c is stone to bag
  shuffle bag
modes:
  m:
    round:
      - step: Draw
        do: |
          repeat 4 times:
            if not empty(bag):
              move top(bag) to hand
      - step: Keep
        do: |
          let tiles = [c for c in hand where c is tile]
          if size(tiles) >= 2:
            solo chooses a, b in hand as pair:
              move a, b to kept
          elif not empty(hand):
            solo chooses c in hand as one:
              move c to kept
          move all c in hand where c is stone to gone
          move all c in hand to bag
          turns += 1
          if turns == 8 or empty(bag):
            end game as done
          if exists c in kept where c is tile and c.value >= 5:
            turns += 0
    score:
      solo: sum(c.value for c in kept where c is tile and c.value >= 2)
"""


def games(text: str = PICKS):
    return Game(load_text(text, "picks.yaml"), optimize=True), Game(load_text(text, "picks.yaml"), optimize=False)


@pytest.mark.parametrize("own_way", [False, True])
def test_moved_cards_lie_where_and_how_the_plain_rules_put_them(own_way):
    text = PICKS.replace("  stone:\n", "  stone:\n    facing: up\n") if own_way else PICKS
    fast, plain = games(text)
    main = next(u.text() for u in fast.rules.units if "the main program" in u.what)
    assert "_filterfalse(" in main and "[x for x in" not in main
    for seed in range(12):
        a, b = fast.new_state(seed), plain.new_state(seed)
        while True:
            assert (a.zones, a.where, a.face_up) == (b.zones, b.where, b.face_up), seed
            if fast.is_terminal(a):
                break
            i = seed % len(fast.decision(a).options)
            fast.apply(a, i)
            plain.apply(b, i)

