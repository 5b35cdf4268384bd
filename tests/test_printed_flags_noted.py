"""A true/false value the rules set to a condition's truth is noted as the question its words ask ("Note whether
the last round was won: yes if …"), not set by its name ("Set *round won* to whether …"; Hand of Fate's *combat
won*, 16-7's *fights*), checked on a small game of its own."""
from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: flags-noted
language: 2
players: {count: 2}
cards:
  coin: {component: token, count: 4, state: {spent: false}}
zones:
  pot: {holds: [coin], text: the pot}
  purse: {owner: each, holds: [coin], text: purse}
vars:
  won: {initial: false, text: the last round was won}
  ready: {initial: false, owner: each, text: is ready to play}
  plain: {initial: false}
setup: |
  move all c in box to pot
modes:
  game:
    round:
      - step: Play
        do: |
          for p in players:
            ready of p = empty(purse of p)
          won = size(pot) > 2
          plain = size(pot) > 1
          for c in pot:
            c.spent = won
          if won and plain and ready of first(p in players):
            move top(pot) to purse of first(p in players)
          repeat (1 if won else size(purse of first(p in players))) times:
            if not empty(pot):
              move top(pot) to purse of first(p in players)
          if empty(pot):
            end game as done
"""


def test_a_flag_set_to_a_condition_is_noted_by_its_words():
    text = to_markdown([summary(load_text(GAME, "flags.yaml"))])
    assert "Note whether the last round was won: yes if the pot holds more than 2 coins, otherwise no." in text
    assert "Note whether that player is ready to play: yes if their purse is empty, otherwise no." in text
    assert "Note whether that coin is spent: yes if the last round was won, otherwise no." in text
    assert "Set *plain* to whether the pot holds more than 1 coin." in text  # no words of its own: its name


def test_a_count_by_cases_ends_with_any_count():
    text = to_markdown([summary(load_text(GAME, "flags.yaml"))])
    # was "Repeat as many times as 1 if the last round was won; otherwise the number of coins in …" (Hand of Fate)
    assert "Repeat once if the last round was won, otherwise as many times as the number of coins in the purse of " \
        "the first player in seat order:" in text
