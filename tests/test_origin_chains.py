"""Generated code keeps where it comes from through every pass (issue 34): a line written in
place from a define or procedure is noted with the rule that called it and each define or
procedure on the way (`t.yaml:20 via can_take :12`), and the lines that ask a decision with
the decision's own line, even where a guard's test listed its options (the `share` pass).
`rulelang show --python` prints these notes; a traceback through generated code shows them."""
from test_language import TINY

from interpreter.engine.game import Game
from rulelang import load_text

RULES = TINY.replace("setup: |", """define:
  can_take(): |
    exists c in pile where c.value > 2
procedures:
  score_one():
    do: |
      bump()
  bump():
    do: |
      total += 1
setup: |""").replace("{body}", """score_one()
          if can_take():
            solo chooses c in pile where c.value > 2 as take:
              move c to out
          win solo""")


def line_of(text: str, words: str) -> int:
    """The line of the rules that is these words."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.strip() == words)


def noted_lines() -> list[tuple[str, str | None]]:
    game = Game(load_text(RULES, "t.yaml"))
    return [pair for unit in game.rules.units for pair in unit.lines]


def test_code_written_in_place_is_noted_with_its_chain_of_origins():
    notes = {note for _, note in noted_lines() if note}
    calls, bump = line_of(RULES, "score_one()"), line_of(RULES, "total += 1")
    via_both = f"t.yaml:{calls} via score_one :{line_of(RULES, 'bump()')} via bump :{bump}"
    assert via_both in notes, sorted(notes)
    test = line_of(RULES, "exists c in pile where c.value > 2")
    guard = f"t.yaml:{line_of(RULES, 'if can_take():')} via can_take :{test}"
    assert guard in notes, sorted(notes)


def test_the_lines_that_ask_a_decision_are_noted_with_its_line():
    decision = f"t.yaml:{line_of(RULES, 'solo chooses c in pile where c.value > 2 as take:')}"
    last = None
    for text, note in noted_lines():
        last = note or last
        if "_decision((" in text:
            assert last == decision, (text, last)
            break
    else:
        raise AssertionError("no decision asked")
