"""A value named by the short text that ends with its name ("*turns still knocked out*", not "that player's *knocked
out*"; The Gauntlet), its verbs agreeing with the text's noun; a term's second verb agreeing with "they" as its
first does ("the cards they hold or have planned", not "hold or has planned"); a total of the numbers a condition
picks said as one (Reversi). Checked on a small game of its own."""
from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: names-and-verbs
language: 2
players: {count: 2}
cards:
  coin: {component: token, count: 4}
zones:
  pot: {holds: [coin], text: the pot}
  purse: {owner: each, holds: [coin], text: purse}
  plan: {owner: each, holds: [coin], text: plan}
vars:
  stunned: {initial: 0, owner: each, text: turns still stunned}
define:
  coins(role p):
    text: "the coins {p} holds or has planned"
    value: size(purse of p) + size(plan of p)
  worth(role p):
    text: "how much {p} is worth"
    value: 2 * stunned of p + coins(p) + bonus(p)
  bonus(role p):
    text: "{p}'s bonus"
    value: sum(k for k in 1..3 where k <= size(purse of p))
setup: |
  move all c in box to pot
modes:
  game:
    round:
      - step: Play
        do: |
          for p in players:
            if stunned of p > 0:
              stunned of p -= 1
            elif not empty(pot):
              move top(pot) to purse of p
          if empty(pot):
            end game as done
    score: worth
"""


def test_a_value_is_named_by_the_text_that_ends_with_its_name():
    text = to_markdown([summary(load_text(GAME, "names.yaml"))])
    assert "- Each player's *turns still stunned*: 0 at the start." in text  # was "*stunned* (turns still stunned)"
    assert "If that player's *turns still stunned* are more than 0: subtract 1 from that player's " \
        "*turns still stunned*." in text
    assert "*stunned*" not in text


def test_a_second_verb_agrees_with_they_as_the_first_does():
    text = to_markdown([summary(load_text(GAME, "names.yaml"))])
    assert "the coins they hold or have planned" in text  # was "they hold or has planned"


def test_a_total_of_numbers_is_the_total_of_the_numbers():
    text = to_markdown([summary(load_text(GAME, "names.yaml"))])
    # was "the total, over every number K from 1 to 3 such that K is at most …, of K"
    assert "**a player's bonus**: the total of the numbers K from 1 to 3 that are at most the number of coins in " \
        "the player's purse." in text
