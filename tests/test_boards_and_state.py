"""Boards (`kind: grid`), per-component state and `ordered by`, on small rulesets."""
import json
import re

import pytest

from interpreter.agents.match import play
from interpreter.agents.simple import FirstAgent
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from interpreter.runtime.errors import RuleError
from rulelang import RulesetError, load_text

BOARD = """
game: board
title: Board
roles: [solo]
cards:
  pawn:
    fields: {rank: 1..9}
    state: {hits: 0, ready: false}
    label: "pawn {rank}"
    table: |
      rank
      3
      1
      2
      1
zones:
  pile: {}
  out: {}
  field: {kind: grid, columns: 4, rows: 3, holds: [pawn]}
vars:
  total: 0
setup: |
  move box to pile
modes:
  main:
    round:
      - step: Only
        do: |
          {body}
"""


def ruleset(body: str, **params):
    return load_text(BOARD.replace("{body}", body.replace("\n", "\n          ")), "board.yaml", params)


def run(body: str):
    """Run the body with and without the optimiser; both must agree. Returns the final states."""
    states = []
    for optimize in (True, False):
        game = Game(ruleset(body), optimize=optimize)
        states.append((game, play(game, 0, {"solo": FirstAgent(0, "solo")})))
    (g1, a), (g2, b) = states
    assert (a.vars, a.zones, a.props, a.outcome) == (b.vars, b.zones, b.props, b.outcome)
    return g1, a


@pytest.mark.parametrize("body, total", [
    # a space is a zone; column() and row() say where a card is
    ("move top(pile) to space(field, 2, 3)\ntotal = column(first(c in field)) * 10 + row(first(c in field))\nwin solo", 23),
    ("total = columns(field) * 10 + rows(field)\nwin solo", 43),
    # the board's name stands for every card on it, bottom row first, left to right
    ("move top(pile) to space(field, 1, 3)\nmove top(pile) to space(field, 4, 1)\n"
     "total = first(c in field).rank * 10 + size(field)\nwin solo", 22),
    ("let c = top(pile)\nmove c to space(field, 3, 2)\ntotal = 1 if c in field and not c in pile else 0\nwin solo", 1),
    ("move top(pile) to space(field, 1, 1)\ntotal = count(x in 1..columns(field) where empty(space(field, x, 1)))\nwin solo", 3),
    # per-component state: read like a field, changed with =, += and -=
    ("let c = top(pile)\nc.hits += 3\nc.hits -= 1\ntotal = c.hits + sum(x.hits for x in pile)\nwin solo", 4),
    ("for c in pile where c.rank == 1:\n  c.ready = true\ntotal = count(c in pile where c.ready)\nwin solo", 2),
    # through any card expression
    ("top(pile).hits += 2\nfirst(c in pile where c.rank == 3).hits = 5\n(top(pile) if true else none).hits -= 1\n"
     "total = sum(c.hits for c in pile)\nwin solo", 6),
    # ordered by: numbers, smallest first; descending; ties keep the domain's order
    ("total = first(c in pile ordered by c.rank descending).rank\nwin solo", 3),
    ("for c in pile ordered by c.rank:\n  total = total * 10 + c.rank\nwin solo", 1123),
    ("for c in pile ordered by -c.rank:\n  total = total * 10 + c.rank\nwin solo", 3211),
    ("for a, b in pile ordered by a.rank + b.rank descending:\n  total = total * 10 + a.rank + b.rank\nwin solo",
     544332),
    ("let ranks = [c.rank for c in pile where c.rank < 3 ordered by c.rank descending]\n"
     "total = first(x in ranks) * 10 + last(x in ranks)\nwin solo", 21),
])
def test_constructs(body, total):
    game, st = run(body)
    assert st.vars[0] == total, body


def test_ordered_decision_options():
    game = Game(ruleset("solo chooses c in pile ordered by c.rank descending, c.hits as pick:\n  win solo"))
    st = game.new_state(0)
    viewer = Viewer(game)
    assert [viewer.option(st, i) for i in range(4)] == ["pawn 3", "pawn 2", "pawn 1", "pawn 1"]


def test_state_is_per_card_and_shown_with_its_space():
    game = Game(ruleset("let c = top(pile)\nc.hits = 2\nc.ready = true\nmove c to space(field, 2, 1)\n"
                        "solo chooses d in field as look:\n  win solo"))
    st = game.new_state(0)
    viewer = Viewer(game)
    assert viewer.option(st, 0) == "pawn 1 (hits 2, ready) at 2,1"
    (moved,) = st.zones[game.zone_index("field", space=(2, 1))]
    assert all(game.state_of(st, c, "hits") == 0 for c in game.cards("pawn") if c != moved)
    board = viewer.observe(st, "solo")["boards"]["field"]
    assert board[0][1] == [{"id": moved, "card": "pawn 1", "state": "hits 2, ready"}]  # row 1, column 2
    assert board[2] == [[], [], [], []]  # row 3, empty
    clone = st.clone()
    game.set_state(clone, moved, "hits", 5)
    assert game.state_of(st, moved, "hits") == 2  # a clone's state is its own


def test_state_survives_save_and_resume(tmp_path):
    game = Game(ruleset("let t = top(pile)\nt.hits += 4\nsolo chooses c in pile as pick:\n  total = c.hits\n  win solo"))
    st = game.new_state(0)
    again = game.state_from_json(json.loads(json.dumps(st.to_json())))
    game.apply(again, len(game.decision(again).options) - 1)
    assert again.vars[0] == 4


@pytest.mark.parametrize("body, message", [
    ("move top(pile) to space(field, 5, 1)", "space(): field has columns 1..4 and rows 1..3"),
    ("total = column(top(pile))", "column(): the card is not on a board"),
])
def test_runtime_errors_are_located(body, message):
    with pytest.raises(RuleError) as info:
        run(body)
    assert message in info.value.diagnostic.message and info.value.diagnostic.span is not None


@pytest.mark.parametrize("body, message", [
    ("move top(pile) to field", "'field' is a board; name one of its spaces here"),
    ("total = size(space(pile, 1, 1))", "space() needs a board"),
    ("let c = top(pile)\nc.rank = 2", "'rank' is printed on the card and cannot change"),
    ("top(pile).rank += 1", "'rank' is printed on the card and cannot change"),
    ("top(pile).rank.hits = 1", "only a card's state can change; this is number, not a card"),
    ("total.hits = 1", "only a card's state can change; this is number, not a card"),
    ("let c = top(pile)\nc.wounds += 1", "pawn cards have no state 'wounds'"),
    ("let c = top(pile)\nc.ready += 1", "'ready' is true/false; += needs a number"),
    ("let c = top(pile)\nc.hits = true", "a value for 'hits' must be number"),
    ("for c in pile ordered by c.ready:\n  pass", "an `ordered by` key must be number"),
    ("total = column(3)", "column() needs a card on a board"),
    ("total = space(field, 1)", "space() takes 3 arguments, not 2"),
    ("move field to out", "a board's cards are moved one by one"),
])
def test_checker_errors(body, message):
    with pytest.raises(RulesetError, match=re.escape(message)):
        ruleset(body)


@pytest.mark.parametrize("old, new, message", [
    ("field: {kind: grid, columns: 4, rows: 3, holds: [pawn]}", "field: {kind: grid, rows: 3}",
     "grid 'field' needs `columns:`"),
    ("field: {kind: grid, columns: 4, rows: 3, holds: [pawn]}", "field: {columns: 4}", "only a grid has columns"),
    ("state: {hits: 0, ready: false}", "state: {rank: 0}", "'rank' is already a printed field"),
    ("state: {hits: 0, ready: false}", "state: {hits: [1]}", "state 'hits' needs an initial value"),
])
def test_declaration_errors(old, new, message):
    text = BOARD.replace("{body}", "pass").replace(old, new)
    with pytest.raises(RulesetError, match=message):
        load_text(text, "board.yaml")


def test_a_space_beside_a_bound_card_and_exists_of_a_kind():
    # space(B, column(c) + dx, row(c) + dy) for c bound from B is computed from c's own space, and
    # `exists p in ZONE where p is KIND` is one set test (compiler: expressions.near_card, binders.exists_of_kind)
    body = ("move top(pile) to space(field, 2, 2)\nmove top(pile) to space(field, 3, 1)\n"
            "total = count(c in field where exists p in space(field, column(c), row(c)) where p is pawn)"
            " * 100 + count(c in field where column(c) > 1 and row(c) < 3 and "
            "exists p in space(field, column(c) - 1, row(c) + 1) where p is pawn) * 10"
            " + count(c in field where not exists p in space(field, column(c), row(c)) where p is not pawn)\nwin solo")
    game, st = run(body)
    assert st.vars[0] == 212  # each card on its own space; the one at (3, 1) has the other up and to the left
    text = game.rules.units[0].text()
    assert ".isdisjoint(" in text and ".issuperset(" in text


def test_a_space_beside_a_bound_card_off_the_board_is_located():
    with pytest.raises(RuleError) as info:
        run("move top(pile) to space(field, 1, 1)\n"
            "total = count(c in field where exists p in space(field, column(c) - 1, row(c)) where p is pawn)")
    assert "space(): field has columns 1..4 and rows 1..3" in info.value.diagnostic.message


def test_a_space_beside_a_space_is_the_spaces_own_neighbour():
    # space(B, column(s) + dx, row(s) + dy) for a space s (not a card): from s's own column and row
    # (a card's way there once read a space's number as a card's, and failed past the cards' count)
    game, st = run("move top(pile) to space(field, 2, 2)\n"
                   "total = count(s in spaces(field) where row(s) > 1 and not empty(space(field, column(s), row(s) - 1)))"
                   " * 10 + count(s in spaces(field) where column(s) < 4 and empty(space(field, column(s) + 1, row(s))))\nwin solo")
    assert st.vars[0] == 1 * 10 + 8


def test_a_space_beside_a_card_held_in_a_name():
    # the same from a `let` (it may be anywhere): from its space when it is on the board, else as written
    game, st = run("let c = top(pile)\nmove c to space(field, 2, 3)\nmove top(pile) to space(field, column(c) + 1, "
                   "row(c) - 2)\ntotal = column(top(space(field, 3, 1))) * 10 + row(c)\nwin solo")
    assert st.vars[0] == 33
    with pytest.raises(RuleError) as info:
        run("let c = top(pile)\nmove top(pile) to space(field, column(c), row(c))")
    assert "column(): the card is not on a board" in info.value.diagnostic.message


@pytest.mark.parametrize("body, total", [
    # pawn 4 (rank 1) first in the board's order, pawn 2 (rank 1) last, though the cards' own order is the other way
    ("move top(pile) to space(field, 7, 1)\nmove top(pile) to space(field, 2, 1)\nmove top(pile) to space(field, 9, 2)\n"
     "total = column(first(c in field where c.rank == 1)) * 100 + column(last(c in field where c.rank == 1)) * 10"
     " + count(c in field where c.rank < 3)\nif exists c in field where c.rank == 2:\n  total += 1000\nwin solo", 1793),
    # two pawns on one space: in the space's own order
    ("move top(pile) to space(field, 3, 1)\nmove top(pile) to space(field, 3, 1)\n"
     "total = first(c in field where c.rank < 3).rank * 10 + last(c in field where c.rank < 3).rank\nwin solo", 12),
])
def test_a_big_board_few_cards_reach_is_searched_card_by_card_in_the_boards_order(body, total):
    # 20 spaces and 4 pawns: the pawns are looked at in their own order, each tested for being on the
    # board (binders.board_scan); first and last still follow the board's order
    text = BOARD.replace("columns: 4, rows: 3", "columns: 10, rows: 2")
    states = []
    for optimize in (True, False):
        game = Game(load_text(text.replace("{body}", body.replace("\n", "\n          ")), "board.yaml"),
                    optimize=optimize)
        states.append(play(game, 0, {"solo": FirstAgent(0, "solo")}))
        if optimize:
            code = "".join(u.text() for u in game.rules.units)
            assert "_board_order(" in code and "_on_board(" not in code
    assert [s.vars[0] for s in states] == [total, total]
