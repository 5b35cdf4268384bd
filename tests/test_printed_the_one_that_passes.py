"""A thing taken by rule where the rules make it the only one that can pass is said as the one, not "the first in
seat order" (Goofspiel, tests/printing/, read "If a player takes the prize: For the first player in seat order that
takes the prize: move …"), checked on a small game of bids of its own."""
from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: bids
language: 2
players: {count: 2..4}
cards:
  chip: {component: token, fields: {value: number}, table: "value count\\n1 12"}
zones:
  pot: {holds: [chip], text: the pot}
  won: {owner: each, holds: [chip], text: chips won}
vars:
  bid: {initial: 0, owner: each}
define:
  best(): max(bid of p for p in players)
  takes(role p):
    text: "{p} takes the pot"
    value: bid of p == best() and count(q in players where bid of q == best()) == 1
  ahead(role p):
    text: "{p} is ahead"
    value: bid of p == best()
setup: |
  move all c in box to pot
modes:
  game:
    round:
      - step: Bid
        do: |
          for p in players:
            p chooses n in 0..3 as amount:
              bid of p = n
          if exists p in players where takes(p):
            take first p in players where takes(p):
              move top(pot) to won of p
          if exists p in players where ahead(p):
            take first p in players where ahead(p):
              move top(pot) to won of p
          if empty(pot):
            end game as done
    score: bid
"""


def test_the_one_player_the_rules_allow_is_not_the_first_of_them():
    text = to_markdown([summary(load_text(GAME, "bids.yaml"))])
    assert "- If a player takes the pot: move the top chip of the pot to that player's chips won." in text
    # several may be ahead: the first of them in seat order is meant, and said
    assert "For the first player in seat order that is ahead: move the top chip of the pot to that player's chips won." \
        in text
