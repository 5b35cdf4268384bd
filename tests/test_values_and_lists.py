"""A type's values as a list, a value named with its type, an item of a list by
its place, options in their own words, and the near misses that say what the
language offers instead."""
import pytest

from generators.prose import english
from interpreter.agents.base import PlayerView
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import RulesetError, load_text

BASE = """
game: values
roles: [red, blue]
types:
  colour: [red, green, gold]
  suit: [hearts, spades]
cards:
  chip:
    fields: {colour: colour, n: 1..3}
    label: "{colour} chip {n}"
    table: |
      colour n
      red    1
      green  2
      gold   3
zones:
  bag: {}
  tray: {kind: row}
vars:
  total: {initial: 0}
  latest: {type: colour, initial: gold}
setup: |
  move box to bag
modes:
  m:
    round:
      - step: S
        do: |
{body}
    score: {red: total, blue: 0}
"""


def game_of(body: str) -> Game:
    return Game(load_text(BASE.replace("{body}", "\n".join("          " + line for line in body.splitlines())),
                          "values.yaml"))


def run(body: str):
    game = game_of(body + "\nend game")
    st = game.new_state(0)
    while st.outcome is None:
        game.apply(st, 0)
    return game, st


def test_a_type_by_its_name_is_its_values_in_order():
    game, st = run("for s in suit:\n  total += 1\ntotal += size(colour) * 10\nif gold in colour:\n  total += 100")
    assert st.outcome["scores"]["red"] == 132


def test_a_value_named_with_its_type():
    game, st = run("latest = colour.green\nif latest == colour.green and colour.red != latest:\n  total = 7")
    assert st.outcome["scores"]["red"] == 7
    with pytest.raises(RulesetError, match="'colour' has no value 'blue'") as info:
        game_of("latest = colour.blue")
    assert "its values: red, green, gold" in str(info.value)


def test_an_item_of_a_list_counts_from_1():
    game, st = run("let d = [5, 6, 7]\ntotal = d[1] * 100 + d[3]")
    assert st.outcome["scores"]["red"] == 507
    with pytest.raises(RulesetError, match=r"items are counted from 1: the first item is `d\[1\]`"):
        game_of("let d = [5, 6, 7]\ntotal = d[0]")
    game = game_of("let d = [5, 6, 7]\ntotal = d[size(d) + 1]\nend game")
    with pytest.raises(Exception, match="the list holds 3 items, so it has no item 4"):
        game.new_state(0)


@pytest.mark.parametrize("call, offered", [
    ("values(colour)", "a type's values are written by its name: `colour`"),
    ("len([1, 2])", "the number of items is `size(x)`"),
    ("range(3)", "`1..n`"),
    ("append([1], 2)", "joined with `+`"),
    ("random(6)", "roll d6 into x"),
    ("values(chip)", "[c for c in box where c is chip]"),
])
def test_near_misses_say_what_the_language_offers_instead(call, offered):
    with pytest.raises(RulesetError) as info:
        game_of(f"total = {call}")
    assert offered in str(info.value), str(info.value)


def test_indexing_a_zone_says_how_its_cards_are_counted():
    with pytest.raises(RulesetError, match="a zone is not a list of places"):
        game_of("let c = bag[1]")


def test_a_player_and_a_value_of_one_name_mean_what_the_place_wants():
    # `red` is a player and a colour: a colour where a colour is wanted, the player where a player is
    game, st = run("if exists c in bag where c.colour == red:\n  total = 1\nlatest = red\nwin red")
    assert st.outcome["results"]["red"] == "win" and st.vars[1] == "red"
    assert not [d for d in game.ruleset.notes if d.severity == "warning"]
    # where nothing says which: the player, and a warning that says how to write the value
    game = game_of("let x = red\nend game")
    warned = [d for d in game.ruleset.notes if d.severity == "warning"]
    assert warned and "here it means the player" in warned[0].message and "`colour.red`" in warned[0].hint


def test_options_in_their_own_words():
    game = game_of('red chooses c in bag, k in 1..2 as take labelled "{k} × {c} (worth {c.n * k})":\n'
                   '  total = c.n * k\nend game')
    st = game.new_state(0)
    view = PlayerView(game, Viewer(game), st)
    assert view.options[:3] == ["1 × red chip 1 (worth 1)", "2 × red chip 1 (worth 2)", "1 × green chip 2 (worth 2)"]
    # the printed rules are the rules, not the screen's words
    assert "worth" not in english(game.ruleset, game.ruleset.modes["m"].round[0].body).text


@pytest.mark.parametrize("optimize", [True, False])
def test_options_words_read_the_names_bound_around_the_decision(optimize):
    """A label may read a loop's name or a let (not only its own bindings): as asked, and as
    told to another player once play has gone on (the decision keeps what its words read)."""
    body = ('roll d6 into total\nfor i in 1..2:\n  let twice = i * 2\n'
            '  red chooses k in 1..2 as take labelled "{k} in pass {i} of {twice}":\n    total += k\n'
            'blue chooses k in 1..2 as answer:\n  total += k\nend game')
    game = Game(load_text(BASE.replace("{body}", "\n".join("          " + line for line in body.splitlines())),
                          "values.yaml"), optimize=optimize)
    viewer, st = Viewer(game), game.new_state(0)
    asked = []
    while game.decision(st).role == "red":
        asked.append([viewer.option(st, i, "blue") for i in range(2)])
        game.apply(st, 1)
    assert asked == [["1 in pass 1 of 2", "2 in pass 1 of 2"], ["1 in pass 2 of 4", "2 in pass 2 of 4"]]
    told = [e["option"] for e in viewer.events(st, "blue") if e["type"] == "decision"]
    assert told == ["2 in pass 1 of 2", "2 in pass 2 of 4"]
