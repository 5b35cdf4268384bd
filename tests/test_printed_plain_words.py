"""Printed rules read by a player who has never seen the game (Hearts, session nine): each sentence here was
printed before and read as pseudocode, said the opposite of the rule, or named a thing twice. Each is checked
on a small game, so that the cause is fixed, not the sentence."""
from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: tokens
language: 2
players: {count: 2..4}
types:
  colour: [red, blue]
  shade: [light, dark]
cards:
  chip:
    fields: {colour: colour, shade: shade, value: 1..5}
    state: {by: {type: role, initial: none}}
    label: "{shade} {colour}"
    each: [colour]
    table: |
      shade  value
      light  1
      dark   2
zones:
  pool: {}
  hand: {owner: each, seen_by: owner, kind: hand}
  middle: {kind: row, text: the middle}
vars:
  won: {initial: 0, owner: each, text: chips won}
define:
  untouched():
    text: no chip has been played
    value: empty(middle)
  may_play(role p, chip c):
    text: "{p} may play {c}"
    value: not untouched() or c.value == 1
  best():
    text: the best chip
    value: first(c in middle where c.colour == red ordered by c.value descending)
setup: |
  move box to pool
modes:
  play:
    round:
      - step: Pick
        do: |
          for p in players:
            p chooses c in hand of p where may_play(p, c) as pick:
              move c to middle
              c.by = p
          if exists c in middle where c.colour == red:
            let w = best().by
            won of w += 1
          move middle to pool
          if round == 2:
            end game as done
    score: won
"""


def md(text: str) -> str:
    return to_markdown([summary(load_text(text, "tokens.yaml"))]).replace("\\\\", "")


def test_a_condition_that_says_no_thing_is_negated_as_some_thing():
    # was: "No chip has not been played or …" (Hearts: "No trick has not been taken this hand")
    text = md(GAME)
    assert "a chip has been played or the value of the chip card is 1" in text and "has not been" not in text


def test_the_first_thing_found_by_its_own_conditions_and_its_order_says_both_as_one():
    # was: "the chip in the middle whose colour is red whose value is the highest"
    assert "the chip card in the middle whose colour is red and whose value is the highest" in md(GAME)
