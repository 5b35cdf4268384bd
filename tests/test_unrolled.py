"""`exists`, `all` and `any` over a list known before play, written out item by item (unroll.py):
the same values and the same errors, in the same order, as the loop; and a board's lines, a
constant, computed once when the rules are compiled, not at every question."""
import pytest
from test_boards_and_state import run

from interpreter.compiler import tuning
from interpreter.runtime.errors import RuleError

LINE = "exists line in lines(field, 3) where all(not empty(s) and top(s).rank == 1 for s in line)"


@pytest.mark.parametrize("body, total", [
    # three cards of rank 1 in a row across: a line; a card of rank 3 between them: none; the card
    # of rank 2 at column 2, row 1 is on 4 lines (2 across, 1 up, 1 diagonal)
    ("move all c in pile where c.rank == 1 to space(field, 1, 2)\nmove top(pile) to space(field, 2, 2)\n"
     f"total = 1 if {LINE} else 0\nwin solo", 0),
    ("move first(c in pile where c.rank == 1) to space(field, 1, 3)\n"
     "move first(c in pile where c.rank == 1) to space(field, 2, 3)\n"
     "move first(c in pile where c.rank == 2) to space(field, 3, 3)\n"
     f"total = (1 if {LINE} else 0) * 10 + (1 if exists s in spaces(field) where empty(s) else 0)\nwin solo", 1),
    ("for x in 1..3:\n  move top(pile) to space(field, x, 1)\n"
     "total = count(line in lines(field, 3) where any(not empty(s) and top(s).rank == 2 for s in line))\nwin solo", 4),
])
def test_written_out_quantifiers_say_what_the_loop_says(body, total):
    game, st = run(body)  # (run: with and without the optimiser, the same game)
    assert st.vars[0] == total


def test_a_written_out_question_stops_with_the_loops_error_at_its_place():
    # the first space (column 1, row 1) is empty: top(s) is none there, and its rank an error,
    # before the space whose card would have answered
    with pytest.raises(RuleError) as info:
        run("move top(pile) to space(field, 2, 1)\n"
            "total = 1 if exists s in spaces(field) where top(s).rank == 3 else 0\nwin solo")
    assert "there is no card" in info.value.diagnostic.message


def test_a_boards_lines_are_computed_once_and_the_question_written_out():
    game, st = run("move top(pile) to space(field, 1, 1)\n"
                   f"total = 1 if {LINE} else 0\nwin solo")
    text = game.rules.units[0].text()
    assert "_lines(" not in text  # a constant of the compiled rules
    assert "zones[1]" in text and "zones[12]" in text  # each space of each line tested in place


def test_a_question_too_big_to_write_out_stays_a_loop(monkeypatch):
    monkeypatch.setattr(tuning, "UNROLLED_NODES", 10)
    game, st = run("move top(pile) to space(field, 1, 1)\n"
                   f"total = 1 if {LINE} else 0\nwin solo")
    assert "for " in game.rules.units[0].text() and st.vars[0] == 0


def test_the_rules_write_out_at_most_so_much_in_all(monkeypatch):
    monkeypatch.setattr(tuning, "UNROLLED_TOTAL", 10)
    game, st = run("move top(pile) to space(field, 1, 1)\n"
                   f"total = 1 if {LINE} else 0\nwin solo")
    assert "for " in game.rules.units[0].text() and st.vars[0] == 0
