"""The setup statements every game runs alike are run once per compiled game (compiler/shared_setup.py).

Each game then starts from a copy of the state they leave: the same games as running the
whole setup each time (the plain program does), the same errors, raised by each new game.
"""
import pytest

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.game import Game
from interpreter.runtime.errors import RuleError
from rulelang import load_ruleset, load_text

RULES = """
game: shared
title: Shared
roles: [solo]
cards:
  coin:
    fields: {value: 1..9}
    state: {spent: false}
    table: |
      value
      1
      2
      3
      4
  gem:
    fields: {colour: [red, blue]}
    table: |
      colour
      red
      blue
      red
zones:
  bag: {facing: down, holds: [coin]}
  pile: {holds: [coin]}
  hand: {holds: [coin]}
  vault: {holds: [gem]}
  spare: {holds: [gem]}
  mixed: {holds: [coin, gem]}
vars:
  total: 0
setup: |
  {setup}
modes:
  main:
    round:
      - step: Only
        do: |
          solo chooses c in hand as pick:
            total = total * 10 + c.value
            move c to pile
          if size(hand) <= 2:
            win solo
"""


def games(setup: str, **options):
    text = RULES.replace("{setup}", setup.replace("\n", "\n  "))
    return Game(load_text(text, "shared.yaml"), **options), Game(load_text(text, "shared.yaml"), optimize=False,
                                                                    **options)


def shared(game: Game) -> list[str]:
    """The setup statements the game runs once, by kind."""
    return [type(s).__name__ for s in game.rules.program.setup[:game.rules.program.fixed]]


def outcomes(game: Game, seeds=range(30)):
    return [(st.vars, st.zones, st.outcome) for st in (play(game, s, {"solo": RandomAgent(s, "solo")}) for s in seeds)]


def test_moves_every_game_makes_alike_run_once_and_games_are_the_same():
    fast, plain = games("move all c in box where c is coin to bag\nshuffle bag\n"
                        "move all g in box where g is gem and g.colour == red to vault\n"
                        "repeat 3 times:\n  move top(bag) to hand")
    assert shared(fast) == ["Move", "Move"]  # the gems move before the shuffle: it cannot tell
    assert outcomes(fast) == outcomes(plain)


@pytest.mark.parametrize("setup, alike", [
    # reads what the shuffle changed
    ("move all c in box where c is coin to bag\nshuffle bag\nmove all c in bag where c.value > 2 to pile\n"
     "move all c in bag to hand", 1),
    # may fail (no card on top): it stays where it is, after the shuffle
    ("move all g in box where g is gem to vault\nmove all c in box where c is coin to bag\nshuffle bag\n"
     "move top(vault) to spare\nmove all c in bag to hand", 2),
    # a variable the rest of setup reads
    ("move all c in box where c is coin to bag\nshuffle bag\nmove all c in bag to hand\ntotal = size(hand)", 1),
])
def test_what_the_rest_of_setup_could_tell_stays_in_its_place(setup, alike):
    fast, plain = games(setup)
    assert shared(fast) == ["Move"] * alike
    assert outcomes(fast) == outcomes(plain)


def test_a_watch_keeps_setup_as_it_is():
    text = RULES.replace("{setup}", "move all c in box where c is coin to hand").replace(
        "modes:\n  main:\n", "modes:\n  main:\n    watch:\n      - when: size(vault) > 0\n        do: |\n"
        "          lose solo\n")
    assert Game(load_text(text, "shared.yaml")).rules.program.fixed == 0


def test_an_error_in_the_shared_setup_stops_each_game_as_it_would_have():
    fast, plain = games("move all c in box where c is coin to bag\nmove top(vault) to spare")
    assert shared(fast) == ["Move", "Move"]  # compiling runs it, and keeps its error for each game
    for game in (fast, plain):
        for seed in (0, 1):
            with pytest.raises(RuleError) as info:
                game.new_state(seed)
            assert "there is no card to move" in info.value.diagnostic.message


def test_games_do_not_share_the_state_they_start_from():
    fast, _ = games("move all c in box where c is coin to hand")
    st = fast.new_state(0)
    fast.apply(st, 0)
    again = fast.new_state(0)
    assert [len(z) for z in again.zones] != [len(z) for z in st.zones]
    assert again.zones == fast.new_state(0).zones


@pytest.mark.parametrize("name, count", [("twenty-trials", 3), ("gauntlet-gobbots", 3), ("gauntlet-16-7", 3)])
def test_the_bundled_rulesets_share_their_opening_moves(name, count):
    assert Game(load_ruleset(name)).rules.program.fixed == count


def test_moves_into_one_zone_keep_their_order_whatever_the_types():
    # the coins may not go into the bag before the gem the rest of setup puts there
    fast, plain = games("move all g in box where g is gem to vault\nshuffle vault\nmove top(vault) to mixed\n"
                        "move all c in box where c is coin to mixed\nmove all c in mixed where c is coin to hand")
    assert shared(fast) == ["Move"]
    assert outcomes(fast) == outcomes(plain)


def test_a_setup_that_runs_out_of_steps_stops_at_the_same_statement():
    fast, plain = games("move all c in box where c is coin to bag\nshuffle bag\nrepeat 10 times:\n  total += 1\n"
                        "for g in box where g is gem:\n  move g to vault\nmove all c in bag to hand", step_limit=12)
    messages = []
    for game in (fast, plain):
        with pytest.raises(RuleError) as info:
            game.new_state(0)
        messages.append(info.value.diagnostic.message)
    # the loop over the gems counts the 12th step after the repeat's 10, as written (it is not moved first)
    assert "`for g in box where g is gem` never ends" in messages[0] and messages[0] == messages[1]
