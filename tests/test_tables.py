"""Defines over few values as tables (tables.py): `beside(a, b)` of two spaces computed for every
pair when the rules are compiled, and read by index; a binder asking such a table of its name
goes through the spaces the table allows; a define that fails for any value is not a table, and
its error stays where it was. Every game here is played with and without the optimiser alike."""
import pytest

from interpreter.agents.match import play
from interpreter.agents.simple import FirstAgent
from interpreter.engine.game import Game
from interpreter.runtime.errors import RuleError
from rulelang import load_text

RULES = """
game: tables
title: Tables
roles: [solo]
cards:
  pawn:
    fields: {tint: [red, blue]}
    table: |
      tint
      red
      blue
      red
zones:
  pile: {}
  field: {kind: grid, columns: 4, rows: 3, holds: [pawn]}
vars:
  total: 0
define:
  beside(zone a, zone b):
    value: a != b and abs(column(a) - column(b)) + abs(row(a) - row(b)) == 1
  tilt(zone a):
    value: 12 / (column(a) - 2)
  warm(tint t, role p):
    value: t == red and p == solo
setup: |
  move box to pile
modes:
  main:
    round:
      - step: Only
        do: |
          {body}
"""


def run(body: str):
    """The game's end with and without the optimiser (the same), and the optimised game's code."""
    states = []
    for optimize in (True, False):
        game = Game(load_text(RULES.replace("{body}", body.replace("\n", "\n          ")), "tables.yaml"),
                    optimize=optimize)
        states.append((game, play(game, 0, {"solo": FirstAgent(0, "solo")})))
    (g1, a), (_, b) = states
    assert (a.vars, a.zones, a.outcome) == (b.vars, b.zones, b.outcome)
    return a, "\n".join(u.text() for u in g1.rules.units)


def test_a_define_of_two_spaces_is_a_table_and_a_binder_goes_through_its_neighbours():
    st, text = run("move top(pile) to space(field, 2, 2)\nmove top(pile) to space(field, 1, 2)\n"
                   "total = count(c in field, s in spaces(field) where beside(space(field, column(c), row(c)), s)"
                   " and empty(s))\nwin solo")
    assert st.vars[0] == 3 + 2  # (2, 2) has 3 empty neighbours, (1, 2) 2
    assert "abs(" not in text  # computed before play
    assert "[where[" in text  # the neighbours of each card's space, looked up


def test_choosing_among_a_tables_neighbours_offers_the_same_options_in_the_same_order():
    st, text = run("move top(pile) to space(field, 3, 2)\n"
                   "solo chooses c in field, s in spaces(field) where empty(s) and beside(space(field, column(c), row(c)), s)"
                   " as step:\n  move c to s\ntotal = column(first(c in field)) * 10 + row(first(c in field))\nwin solo")
    assert st.vars[0] == 31  # the first option: (3, 1), before (2, 2), (4, 2) and (3, 3)


def test_a_define_that_fails_for_one_value_is_not_a_table_and_fails_where_it_did():
    st, text = run("total = tilt(space(field, 1, 1)) + tilt(space(field, 4, 3))\nwin solo")
    assert st.vars[0] == -12 + 6
    with pytest.raises(RuleError) as info:
        run("move top(pile) to space(field, 2, 1)\ntotal = sum(tilt(s) for s in spaces(field) where not empty(s))")
    assert info.value.diagnostic.message.startswith("division by zero (in tilt, called at tables.yaml:")
    assert info.value.diagnostic.span.line == 22  # the define's line


def test_a_define_of_an_enum_and_a_role_is_a_table():
    st, text = run("total = count(c in pile where warm(c.tint, solo))\nwin solo")
    assert st.vars[0] == 2
