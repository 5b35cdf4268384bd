"""Work C does instead of Python loops, in the same order, with the same result:

- the options, rows and lists of a binder over one small domain with no test, or for one
  card only a type test (binders.direct_rows): `zip`, `filter` and `combinations` calls;
  a binder whose bindings may be many still runs as loops counted against the step limit;
- a loop over cards whose test starts with a type test binds only cards of that type
  (binders.leading_kind_test), the rest of the test inside;
- moving many cards sets their zone and facing with one `map` each (statements.move_many),
  unless a card type lies its own way."""
import pytest
from helpers import assert_plays_as_plain

from interpreter.engine.game import Game
from interpreter.runtime.errors import Runaway
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


def test_options_rows_and_lists_are_made_by_c_and_play_as_the_loops_do():
    fast, plain = games()
    main = next(u.text() for u in fast.rules.units if "the main program" in u.what)
    assert "list(zip(zones[" in main  # `chooses c in hand`
    assert "list(_combinations(zones[" in main  # `chooses a, b in hand`
    assert main.count(".__getitem__, zones[") >= 4  # the tiles of the box, the stones, the tiles in hand; kept
    assert "map(where.__setitem__" in main and "map(face.__setitem__" in main
    assert_plays_as_plain(fast, plain, seeds=40, step=3)
    score = next(u.text() for u in fast.rules.units if "the score" in u.what)
    assert ".__getitem__, zones[" in score  # the tiles only; their value tested inside the loop


@pytest.mark.parametrize("own_way", [False, True])
def test_moved_cards_lie_where_and_how_the_plain_rules_put_them(own_way):
    text = PICKS.replace("  stone:\n", "  stone:\n    facing: up\n") if own_way else PICKS
    fast, plain = games(text)
    main = next(u.text() for u in fast.rules.units if "the main program" in u.what)
    assert ("map(face.__setitem__" in main) != own_way
    for seed in range(12):
        a, b = fast.new_state(seed), plain.new_state(seed)
        while True:
            assert (a.zones, a.where, a.face_up) == (b.zones, b.where, b.face_up), seed
            if fast.is_terminal(a):
                break
            i = seed % len(fast.decision(a).options)
            fast.apply(a, i)
            plain.apply(b, i)


def test_a_binder_over_many_bindings_still_counts_them_as_steps():
    many = PICKS.replace("      1     2\n      2     2", "      1     1000\n      2     2")  # 1,010 tiles in all
    fast, _ = games(many)
    main = next(u.text() for u in fast.rules.units if "the main program" in u.what)
    assert "list(_combinations(" not in main and "_work(" in main
    tight = Game(load_text(many, "picks.yaml"), step_limit=1_000)
    with pytest.raises(Runaway):
        tight.new_state(0)
