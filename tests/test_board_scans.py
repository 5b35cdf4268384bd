"""How the generated code looks over a board, and that it plays as the rules are written.

Each case runs with and without the optimiser (the plain program lists a board space by
space): the same total, the same options in the same order, the same error. The board
is 3 by 3; two kinds of card, and two cards may share a space (a space lists them bottom
first), so every order the code relies on is exercised.
"""
import pytest

from interpreter.agents.match import play
from interpreter.agents.simple import FirstAgent
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from interpreter.runtime.errors import RuleError
from rulelang import load_text

BOARD = """
game: scans
title: Scans
roles: [solo]
cards:
  pawn:
    fields: {rank: 1..9}
    label: "pawn {rank}"
    table: |
      rank
      1
      2
      3
      4
  rock:
    label: rock
    count: 3
zones:
  pile: {}
  stones: {}
  field: {kind: grid, columns: 3, rows: 3, holds: [pawn, rock]}
  side: {kind: grid, columns: 2, rows: 1, holds: [pawn]}
vars:
  total: 0
setup: |
  move all p in box where p is pawn to pile
  move all r in box where r is rock to stones
  # pawns 4 and 3 share (2, 2), 4 at the bottom; pawn 2 at (3, 1); pawn 1 at (1, 3); rocks at (1, 1) and (2, 2)
  move top(stones) to space(field, 1, 1)
  move top(pile) to space(field, 2, 2)
  move top(stones) to space(field, 2, 2)
  move top(pile) to space(field, 2, 2)
  move top(pile) to space(field, 3, 1)
  move top(pile) to space(field, 1, 3)
modes:
  main:
    round:
      - step: Only
        do: |
          {body}
"""


def game_pair(body: str) -> tuple[Game, Game]:
    text = BOARD.replace("{body}", body.replace("\n", "\n          "))
    return Game(load_text(text, "scans.yaml")), Game(load_text(text, "scans.yaml"), optimize=False)


def total(body: str) -> int:
    """The total both programs reach (they must agree)."""
    totals = []
    for game in game_pair(body + "\nwin solo"):
        st = play(game, 0, {"solo": FirstAgent(0, "solo")})
        totals.append(st.vars[0])
    assert totals[0] == totals[1], body
    return totals[0]


def code(game: Game) -> str:
    return "".join(u.text() for u in game.rules.units)


def test_a_board_is_listed_space_by_space_bottom_first():
    # the cards of each space in turn, in one list (no iterator made per space)
    body = "for p in field where p is pawn:\n  total = total * 10 + p.rank"
    assert total(body) == 2431
    fast, _ = game_pair(body + "\nwin solo")
    assert "*zones[" in code(fast) and "_chain(" not in code(fast)


@pytest.mark.parametrize("order, expected", [
    ("row(p), column(p)", 2431),  # the board's own order: ties in a space keep its order
    ("row(p) * 3 + column(p)", 2431),
    ("row(p), column(p) descending", 2431),
    ("row(p) descending, column(p)", 1432),
    ("column(p)", 1432),
    ("p.rank", 1234),
])
def test_ordered_by_a_cards_place(order, expected):
    body = f"for p in field where p is pawn ordered by {order}:\n  total = total * 10 + p.rank"
    assert total(body) == expected


def listed(game: Game, *spaces) -> str:
    return ", ".join(f"*zones[{game.zone_index('field', space=s)}]" for s in spaces)


def test_an_order_of_the_cards_places_lists_the_spaces_in_that_order():
    fast, _ = game_pair("for p in field ordered by row(p), column(p):\n  total += 1\nwin solo")
    assert ".sort(" not in code(fast) and listed(fast, (1, 1), (2, 1), (3, 1), (1, 2)) in code(fast)
    fast, _ = game_pair("for p in field ordered by column(p):\n  total += 1\nwin solo")
    assert ".sort(" not in code(fast) and listed(fast, (1, 1), (1, 2), (1, 3), (2, 1)) in code(fast)
    fast, _ = game_pair("for p in field where p is pawn ordered by p.rank:\n  total += 1\nwin solo")
    assert ".sort(" in code(fast)


@pytest.mark.parametrize("where, sorted_", [
    # the space to the left is looked at only where there is one: the test cannot fail
    ("column(p) == 1 or empty(space(field, column(p) - 1, row(p)))", False),
    ("column(p) > 1 and exists r in space(field, column(p) - 1, row(p)) where r is rock", False),
    ("not (row(p) >= 3 or exists r in space(field, column(p), row(p) + 1) where r is rock)", False),
    # here it may be off the board: the cards are tested in the board's order, then sorted
    ("empty(space(field, column(p) - 1, row(p)))", True),
    ("column(p) > 1 or empty(space(field, column(p) - 1, row(p)))", True),
])
def test_a_listing_in_another_order_tests_as_written_where_a_test_may_fail(where, sorted_):
    body = f"for p in field where p is pawn and ({where}) ordered by column(p) descending:\n  total = total * 10 + p.rank"
    fast, _ = game_pair(body + "\nwin solo")
    assert (".sort(" in code(fast)) == sorted_, where
    try:
        total(body)
    except RuleError:  # off the board: both stop there
        for game in game_pair(body + "\nwin solo"):
            with pytest.raises(RuleError, match="space"):
                play(game, 0, {"solo": FirstAgent(0, "solo")})


def test_decision_options_over_a_board_in_its_order():
    for game in game_pair("solo chooses p in field where p is pawn as pick:\n  total = p.rank\n  win solo"):
        st = game.new_state(0)
        viewer = Viewer(game)
        assert [viewer.option(st, i) for i in range(4)] == ["pawn 2 at 3,1", "pawn 4 at 2,2", "pawn 3 at 2,2",
                                                           "pawn 1 at 1,3"]
        assert game.decision(st).options == [(c,) for c in (1, 3, 2, 0)]  # what a pending decision holds
        game.apply(st, 2)
        assert st.vars[0] == 3


@pytest.mark.parametrize("test, expected", [
    ("count(p in field where p is pawn)", 4),
    ("count(p in field where p is pawn and row(p) == 2)", 2),
    ("count(r in field where r is rock and column(r) < 2)", 1),
    ("count(p in side where p is pawn)", 0),
    ("1 if exists p in field where p is pawn and row(p) == 3 and column(p) == 1 else 0", 1),
    ("1 if exists p in field where p is pawn and p.rank > 4 else 0", 0),
    ("1 if not exists r in field where r is rock and row(r) == 3 else 0", 1),
])
def test_exists_and_count_of_a_kind_look_at_its_cards(test, expected):
    assert total(f"total = {test}") == expected


def test_exists_of_a_kind_on_a_board_tests_where_its_cards_are():
    fast, _ = game_pair("total = count(p in field where p is pawn and row(p) == 2)\nwin solo")
    assert "for v" in code(fast) and "<= where[v" in code(fast)


@pytest.mark.parametrize("test", [
    # the rest of the test may fail (here: no space below the bottom row), so it runs in the board's order
    "count(p in field where p is pawn and empty(space(field, column(p), row(p) - 1)))",
    # a card not on the board has neither column nor row: the first one read fails, in either order
    "count(p in field where p is pawn and (column(top(pile)) == column(p) or row(top(pile)) == row(p)))",
])
def test_a_test_that_may_fail_fails_as_written(test):
    messages = []
    for game in game_pair(f"total = {test}\nwin solo"):
        with pytest.raises(RuleError) as info:
            play(game, 0, {"solo": FirstAgent(0, "solo")})
        messages.append(info.value.diagnostic.message)
    assert messages[0] == messages[1]


def test_the_column_and_row_of_a_card_fail_together():
    # `column(c) == column(p) or row(c) == row(p)`: the row of c is read only for some cards,
    # but it is there whenever its column is, so any order of the cards gives the same count
    body = ("let c = first(p in field where p is pawn and p.rank == 2)\n"
            "total = count(p in field where p is pawn and (column(c) == column(p) or row(c) == row(p)))")
    assert total(body) == 1
    fast, _ = game_pair(body + "\nwin solo")
    assert "<= where[v" in code(fast)


@pytest.mark.parametrize("body, expected", [
    ("let c = first(p in field where p is pawn and p.rank == 2)\n"
     "total = size(space(field, column(c) - 1, row(c) + 1))", 3),  # pawns 4 and 3 and a rock at (2, 2)
    ("let c = first(p in field where p is pawn and p.rank == 1)\n"
     "total = size(space(field, column(c) + 2, row(c) - 2))", 1),  # pawn 2 at (3, 1)
    ("let c = first(p in field where p is pawn and p.rank == 1)\n"
     "move c to space(side, 1, 1)\ntotal = size(space(field, column(c) + 1, row(c) + 1))", 3),  # from side's space
])
def test_a_space_beside_a_card(body, expected):
    assert total(body) == expected


@pytest.mark.parametrize("body, message", [
    ("let c = first(p in field where p is pawn and p.rank == 2)\ntotal = size(space(field, column(c) + 1, row(c)))",
     "space(): field has columns 1..3 and rows 1..3"),
    ("let c = top(stones)\ntotal = size(space(field, column(c) + 1, row(c)))", "column(): the card is not on a board"),
    ("total = count(p in field where p is pawn and empty(space(field, column(p), row(p) + 1)))",
     "space(): field has columns 1..3 and rows 1..3"),
])
def test_a_space_beside_a_card_off_the_board(body, message):
    for game in game_pair(body + "\nwin solo"):
        with pytest.raises(RuleError) as info:
            play(game, 0, {"solo": FirstAgent(0, "solo")})
        assert message in info.value.diagnostic.message
