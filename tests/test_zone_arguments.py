"""Zones (and lists of zones) as the arguments of defines and procedures, as
locals and as the options of a decision; optimised and plain alike."""
import random

import pytest
from helpers import position, refusal

from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_text

PILES = """
game: piles
title: Piles
roles: [alice, bob]
cards:
  gem:
    fields: {value: 1..5}
    table: |
      value count
      1     3
      5     3
  rock:
    fields: {weight: 1..3}
    table: |
      weight count
      2      4
  marker: {count: 2}
zones:
  gems: {holds: [gem]}
  rocks: {holds: [rock]}
  markers: {holds: [marker]}
  hand: {owner: each, kind: hand}
  pile: {owner: each}
  vault: {}
  board: {kind: grid, columns: 2, rows: 1}
vars:
  gems_taken: 0
  rocks_taken: 0
define:
  worth(zone z): sum(c.value if c is gem else c.weight if c is rock else 0 for c in z)
  cards_in(zones): sum(size(z) for z in zones)
  fullest(p): size(hand of p) >= size(pile of p)
procedures:
  take(zone src, p): |
    for c in src:
      if c is gem:
        gems_taken += 1
        move c to vault
      else:
        rocks_taken += 1
        move c to pile of p
  deal(zone source, zone dest, n): |
    draw n from source to dest
  give(p, z): |
    p chooses c in z as give:
      move c to (pile of p if fullest(p) else hand of p)
setup: |
  move all c in box where c is gem to gems
  move all c in box where c is rock to rocks
  move all c in box where c is marker to markers
  shuffle gems
  deal(markers, space(board, 2, 1), 1)
  take(rocks, bob)
  deal(gems, hand of alice, 2)
modes:
  m:
    round:
      - step: Place
        do: |
          for p in [alice, bob]:
            let z = hand of p
            if round % 2 == 0:
              z = pile of p
            p chooses where in [hand of p, pile of p, space(board, 1, 1)] as place:
              if not empty(gems) and (where != space(board, 1, 1) or p == alice):
                move top(gems) to where
            if not empty(z):
              give(p, z)
          if round == 3:
            take(gems, alice)
            end game as done
    score:
      alice: |
        worth(vault) * 100 + worth(hand of alice) + cards_in([hand of alice, pile of alice])
        + count(c in board where c is gem)
      bob: worth(pile of bob) * 10 + count(c in pile of bob where c is rock) + rocks_taken
"""


def random_games(game: Game, seeds=range(40)) -> list:
    outcomes = []
    for seed in seeds:
        st, pick = game.new_state(seed), random.Random(seed)
        while not game.is_terminal(st):
            game.apply(st, pick.randrange(len(game.legal_actions(st))))
        outcomes.append(game.outcome(st))
    return outcomes


def test_zone_arguments_play_the_same_optimised_and_plain():
    rs = load_text(PILES, "piles.yaml")
    fast, plain = random_games(Game(rs)), random_games(Game(rs, optimize=False))
    assert fast == plain
    # `take(rocks, bob)` took the four rocks (`rocks_taken`, the last of bob's score's parts)
    assert min(o["scores"]["bob"] % 10 for o in fast) >= 4 and len({str(o) for o in fast}) > 10


def test_a_procedure_given_two_zones_is_analysed_for_both():
    """`take` moves gems to the vault and rocks to piles, called first with
    rocks (its body checked with rocks) and then with gems: the optimiser must
    not trust the types its body was checked with for the first call only."""
    program = Game(load_text(PILES, "piles.yaml")).rules.program
    assert program.possible["vault"] == {"gem"} and "rock" in program.possible["pile"]
    # a zone bound to a name is followed: the board gets gems (`place`) and the marker (`deal`), no rock
    assert program.possible["board"] == {"gem", "marker"}


def test_zones_are_options_named_as_zones():
    game = Game(load_text(PILES, "piles.yaml"))
    st = game.new_state(0)
    viewer = Viewer(game)
    assert game.decision(st).label == "place"
    assert [viewer.option(st, i) for i in game.legal_actions(st)] == ["hand of alice", "pile of alice", "board 1,1"]


@pytest.mark.parametrize("change, needle, message", [
    (("deal(markers, space(board, 2, 1), 1)", "deal(markers, board, 1)"), "board, 1)",
     "a board cannot be an argument"),
    (("let z = hand of p", "let z = board"), "board\n", "a board cannot be a local"),
    (("cards_in([hand of alice, pile of alice])", "cards_in([hand of alice, board])"), "board])",
     "a board cannot be in a list"),
    (("  cards_in(zones)", "  cards_in(board zones)"), "cards_in(board",
     "a board cannot be a parameter: its spaces are found by its name"),
    (("worth(pile of bob)", "worth(3)"), "3)", "argument 'z' of 'worth' must be zone, but this is number"),
    (("fullest(p): size(hand of p) >= size(pile of p)", "fullest(p): size(hand of p) >= size(pile of p)\n"
      "  one(x): size(x)"), None, None),
])
def test_what_cannot_be_passed_is_located(change, needle, message):
    text = PILES.replace(*change)
    assert text != PILES
    if message is None:  # (a define nobody calls is checked leniently: no error)
        load_text(text, "ok.yaml")
        return
    (d,) = refusal(text)
    assert d.message == message and (d.span.line, d.span.col) == position(text, needle), d.format()


def test_a_parameter_is_a_zone_in_every_call_or_in_none():
    text = PILES.replace("cards_in([hand of alice, pile of alice])", "cards_in(hand of alice) + cards_in([1])")
    ds = refusal(text)
    d = next(d for d in ds if "in another call" in d.message)
    assert d.message.startswith("'zones' of 'cards_in' is a zone in another call")
    assert d.span.line == position(text, "cards_in([1])")[0] and "every call or in none" in d.hint


def test_an_error_in_a_body_checked_for_several_calls_is_reported_once():
    text = PILES.replace("for c in z)", "for c in z) + nope", 1)
    (d,) = refusal(text)
    assert d.message == "unknown name 'nope'" and d.span.line == position(text, "+ nope")[0]


def test_the_locals_that_always_hold_a_card():
    from interpreter.compiler.always_cards import locals_always_cards
    from interpreter.compiler.optimize import program_for
    from interpreter.compiler.options import NAIVE
    text = PILES.replace("          if round == 3:", """          for c in pile of alice:
            let d = c
            let e = top(gems)
            let f = d
            f = e
          for g in [x for x in vault where x is gem]:
            let h = g
          if round == 3:""")
    rs = load_text(text, "piles.yaml")
    found = locals_always_cards(program_for(rs, rs.modes["m"], NAIVE, None), rs)
    # c: a binder over a zone; d: a copy of it; g: over a list of a zone's cards; h: its copy
    # e may be none (top of an empty zone); f is assigned e; p is bound over a list of roles
    assert {"c", "d", "g", "h"} <= found and not {"e", "f", "p", "z"} & found
    for optimize in (True, False):  # the games stay the same
        assert random_games(Game(rs, optimize=optimize), range(10)) == random_games(Game(load_text(PILES, "piles.yaml"),
                                                                                             optimize=optimize), range(10))
