"""A card state that holds a player (not who played the card: `generators/marks.py`) is whose the card is, as a
player says it: "the flag becomes yours", "flags that belong to the player", not "set the owner of the flag to
you" (Reversi, tests/printing/, read "Set the side of the top disc of that space to you")."""
from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: flags
language: 2
players: {count: 2, names: [red, blue]}
cards:
  flag: {component: token, count: 6, state: {holder: {type: role, initial: none}}}
zones:
  field: {holds: [flag], text: the field}
define:
  flags(role p):
    text: "{p}'s flags"
    value: count(f in field where f.holder == p)
  lost(role p):
    text: "{p} has lost a flag"
    value: exists f in field where f.holder != p
setup: |
  for n in 1..2:
    move first(f in box) to field
    first(f in field where f.holder == none).holder = red if n == 1 else blue
modes:
  game:
    turns: {steps: [Claim]}
    round:
      - step: Claim
        do: |
          current chooses f in field as flag:
            f.holder = current
          if flags(current) == 3 and lost(blue):
            win current as claimed
    score: flags
"""


def test_a_card_that_holds_a_player_is_whose_it_is():
    text = to_markdown([summary(load_text(GAME, "flags.yaml"))])
    assert "Each flag belongs to a player (its *holder*), to no one at the start." in text  # was "keeps *holder*"
    assert "You choose a flag in the field, then it becomes yours." in text  # was "set the holder of that flag to you"
    assert "The first flag in the field that belongs to no one becomes Red's if N is 1; otherwise Blue's." in text
    assert "**a player's flags**: the number of flags in the field that belong to the player." in text
    assert "**a player has lost a flag**: there is a flag in the field that does not belong to the player." in text
    assert "holder of" not in text
