"""Boards drawn as text maps, and graphs of places: spaces, gaps, marks,
neighbours, distance and the way toward a space; their errors, their picture."""
from __future__ import annotations

import pytest
from helpers import rulelang

from interpreter.agents.terminal import board_drawings, render_board
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from interpreter.runtime.errors import RuleError
from rulelang import RulesetError, ir, load_text
from rulelang.builtins import BUILTINS
from rulelang.walk import walk

BOARDS = """
game: boards
title: Boards
roles: [runner]
types:
  terrain: [start, plain, brick, finish]
  kind: [normal, elite]
cards:
  pawn: {fields: {n: 1..2}, table: "n\\n1\\n2"}
zones:
  track:
    kind: grid
    holds: [pawn]
    marks: {terrain: terrain}
    map: |
      S..B
      .  .
      F...
    legend: {S: start, ".": plain, B: brick, F: finish}
  rooms:
    kind: graph
    holds: [pawn]
    marks: {kind: kind}
    places:
      r1: {kind: normal}
      r2: {kind: normal}
      r3: {kind: elite}
      r4: {kind: normal}
      r5: {kind: elite}
    links: |
      r1 - r2 - r3 - r4 - r5
      r2 -> r5        # a shortcut, one way
vars:
  far: 0
  back: 0
  next_kind: normal
  hop: 0
modes:
  main:
    setup: |
      move all c in box where c.n == 1 to first(s in spaces(track) where s.terrain == start)
      move all c in box where c.n == 2 to place(rooms, r1)
    round:
      - step: Look
        do: |
          let here = first(s in spaces(track) where not empty(s))
          far = distance(here, first(s in spaces(track) where s.terrain == finish))
          back = distance(place(rooms, r5), place(rooms, r1))
          next_kind = toward(place(rooms, r2), place(rooms, r5)).kind
          hop = seat(runner) + count(s in neighbours(place(rooms, r2)))
          end game
"""


def game(text: str = BOARDS) -> Game:
    return Game(load_text(text, "boards.yaml"))


def test_a_map_gives_the_spaces_gaps_and_marks_and_a_graph_its_places_and_links():
    g = game()
    z = g.ruleset.zones
    assert (z["track"].columns, z["track"].rows) == (4, 3)
    assert z["track"].gaps == {5, 6}  # the middle row's blanks: (2, 2) and (3, 2)
    assert z["rooms"].places == ("r1", "r2", "r3", "r4", "r5")
    assert (1, 4) in z["rooms"].links and (4, 1) not in z["rooms"].links  # r2 -> r5 only one way
    st = g.new_state(0)
    v = Viewer(g).observe(st, None)["vars"]
    assert v["far"] == 2  # start (1,3) -> (1,2) -> finish (1,1)
    assert v["back"] == 4  # r5 back to r1 the long way: the shortcut is one way
    assert v["next_kind"] == "elite"  # from r2 toward r5: straight through the shortcut
    assert v["hop"] == 1 + 3  # r2 leads to r1, r3 and r5


def test_neighbours_leave_out_gaps_and_distance_without_a_way_is_a_rule_error():
    g = game()
    layout = g.layout
    base = layout.zone_base["track"]
    # (2, 3) (top row) is next to (1, 3) and (3, 3); below it is a gap
    top = base + 2 * 4 + 1
    assert sorted(layout.neighbours[top]) == sorted([base + 2 * 4, base + 2 * 4 + 2])
    text = BOARDS.replace("back = distance(place(rooms, r5), place(rooms, r1))",
                          "back = distance(place(rooms, r1), first(s in spaces(track)))")
    with pytest.raises(RuleError, match="no way from the one space to the other"):
        game(text).new_state(0)


def test_space_on_a_gap_is_a_rule_error():
    text = BOARDS.replace("          end game\n", "          move all c in box to space(track, 2, 2)\n          end game\n")
    with pytest.raises(RuleError, match="no space there"):
        game(text).new_state(0)


@pytest.mark.parametrize("old, new, message", [
    ("S..B", "S..X", "'X' is not in the legend"),
    ("legend: {S: start,", "legend: {S: starts,", "'starts' is not a terrain"),
    ("r2 -> r5", "r2 -> r9", "graph 'rooms' has no place 'r9'"),
    ("marks: {kind: kind}", "marks: {kind: kinds}", "unknown type 'kinds'"),
    ("    links: |", "    columns: 3\n    links: |", "only a grid has columns"),
])
def test_map_and_graph_mistakes_are_located(old, new, message):
    text = BOARDS.replace(old, new)
    with pytest.raises(RulesetError) as info:
        load_text(text, "boards.yaml")
    d = next(d for d in info.value.diagnostics if message in d.message)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if new.split("\n")[0].strip() in row)
    assert d.span is not None and d.span.line == line
    if "'X'" in message:
        assert d.span.col == text.splitlines()[line - 1].index("X") + 1


def test_a_space_s_marks_are_checked_and_fields_of_other_zones_refused():
    with pytest.raises(RulesetError, match="have no mark 'colour'"):
        load_text(BOARDS.replace("s.terrain == finish", "s.colour == finish"), "boards.yaml")
    with pytest.raises(RulesetError, match="needs a space of a board"):
        load_text(BOARDS.replace("neighbours(place(rooms, r2))", "neighbours(track)"), "boards.yaml")


def test_the_terminal_draws_a_map_s_marks_and_a_graph_s_links():
    g = game()
    st = g.new_state(0)
    text = render_board(Viewer(g).observe(st, "runner"), {}, "runner", board_drawings(g))
    # a map as drawn, its pawn after the character of its space, and a key
    assert "  3 Sp .  .  B" in text and "  1 F  .  .  ." in text
    assert "S start" in text and "F finish" in text and "p pawn 1" in text
    assert "r2" in text and "→ r1, r3, r5" in text and "[elite]" in text


def test_a_variant_draws_another_map(tmp_path):
    base = tmp_path / "boards.yaml"
    base.write_text(BOARDS)
    variant = tmp_path / "short.yaml"
    variant.write_text("extends: boards.yaml\ngame: short\nzones:\n  track:\n    map: |\n      SF\n")
    r = rulelang("run", str(variant), "--json")
    assert r.returncode == 0, r.stderr
    r = rulelang("show", str(variant))
    assert "SF" in r.stdout


def test_column_and_row_of_a_space_and_of_a_card_on_it():
    text = BOARDS.replace("          end game\n", """          let fin = first(s in spaces(track) where s.terrain == finish)
          far = column(fin) * 10 + row(fin)
          back = count(s in spaces(track) where row(s) == 2)
          hop = column(first(c in track)) * 10 + row(first(c in track))
          end game
""")
    st = game(text).new_state(0)
    v = Viewer(game(text)).observe(st, None)["vars"]
    assert v["far"] == 11  # the finish: column 1, row 1 (the bottom row)
    assert v["back"] == 2  # the middle row holds two spaces, the rest are gaps
    assert v["hop"] == 13  # the pawn on the start: column 1, row 3


def test_column_of_a_graph_place_is_refused():
    with pytest.raises(RulesetError, match="'rooms' is a graph, whose places have no columns"):
        load_text(BOARDS.replace("hop = seat(runner)", "hop = column(place(rooms, r1)) + seat(runner)"), "boards.yaml")


MANY_SPACES = """
game: lane
title: Lane
roles: [runner]
types:
  terrain: [start, plain, finish]
cards:
  pawn: {fields: {n: 1..3}, table: "n\\n1\\n2\\n3"}
zones:
  track:
    kind: grid
    holds: [pawn]
    marks: {terrain: terrain}
    map: |
      S..................F
    legend: {S: start, ".": plain, F: finish}
vars:
  order: 0
  far: 0
modes:
  main:
    setup: |
      move all c in box where c.n != 2 to first(s in spaces(track) where s.terrain == start)
      move all c in box to first(s in spaces(track) where s.terrain == start)
    round:
      - step: Look
        do: |
          for c in track:
            order = order * 10 + c.n
          far = distance(first(s in spaces(track) where s.terrain == start),
                         first(s in spaces(track) where s.terrain == finish))
          end game
"""


def test_quick_paths_on_a_big_board_give_what_the_plain_rules_give():
    """A board of many spaces that few cards reach is searched card by card,
    a quantifier over its spaces and marks alone is computed once, and
    distances are remembered: the game is the one the plain rules play."""
    rs = load_text(MANY_SPACES, "lane.yaml")
    for g in (Game(rs), Game(rs, optimize=False)):
        v = Viewer(g).observe(g.new_state(0), None)["vars"]
        assert v == {"order": 132, "far": 19}  # both pawns share the start, in the order they came
    program = Game(rs).rules.program
    constants = [n.value for n in walk(program.steps) if isinstance(n, ir.Const)]
    assert not [n for n in walk(program.steps) if isinstance(n, ir.Quantified)]  # both `first`s computed
    assert 19 in constants  # the distance from the start to the finish, found when compiling


def test_a_map_whose_first_line_starts_with_a_gap():
    text = BOARDS.replace("    map: |\n      S..B\n", "    map: |2\n       ..B\n      S...\n")
    assert load_text(text, "boards.yaml").zones["track"].gaps == {12, 5, 6}  # top-left, and the second row's two
    without = text.replace("map: |2", "map: |")
    with pytest.raises(RulesetError) as info:
        load_text(without, "boards.yaml")
    assert "write `|2`" in info.value.diagnostics[0].hint


ARGUMENTS = ["rooms", "track", "r1", "1", "runner", "top(box)", "[1, 2]", "place(rooms, r1)"]


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_built_in_with_any_arguments_is_checked_or_refused_at_its_place(name):
    """No count or kind of arguments makes the checker fail: a built-in that
    reads its first argument to type the next must check that it has one.
    (One file of every call: the checker reports each, or fails on one.)"""
    calls = {", ".join([first, *ARGUMENTS][:n]) for n in range(4) for first in ARGUMENTS}
    probes = "".join(f"let probe{i} = {name}({args})\n          " for i, args in enumerate(sorted(calls)))
    try:
        load_text(BOARDS.replace("hop = seat(runner)", probes + "hop = seat(runner)"), "boards.yaml")
    except RulesetError as error:
        assert all(d.span is not None for d in error.diagnostics), error
