"""A bad ruleset gets located errors a person can act on — all of them at once."""
import re

import pytest
from helpers import ROOT

from rulelang import RulesetError, load_text

SOURCE = (ROOT / "rulesets" / "twenty-trials.yaml").read_text()


def errors(text: str, params=None) -> list:
    with pytest.raises(RulesetError) as info:
        load_text(text, "bad.yaml", params)
    return info.value.diagnostics


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_misspelt_zone():
    bad = SOURCE.replace("while size(hand) < 4", "while size(hnad) < 4")
    (d,) = errors(bad)
    assert (d.span.line, d.span.col) == (line_of(bad, "size(hnad)"), line_of(bad, "size(hnad)") and
                                         bad.splitlines()[line_of(bad, "size(hnad)") - 1].index("hnad") + 1)
    assert d.message == "unknown zone 'hnad'"
    assert d.hint == "did you mean 'hand'?"
    text = d.format()
    assert text.startswith(f"bad.yaml:{d.span.line}:{d.span.col}: error: unknown zone 'hnad'")
    assert "while size(hnad) < 4" in text and "^~~~" in text


def test_unknown_field():
    bad = SOURCE.replace("x + y >= t.value", "x + y >= t.valeu")
    (d,) = errors(bad)
    assert d.span.line == line_of(bad, "t.valeu")
    assert "no field 'valeu'" in d.message and d.hint == "did you mean 'value'?"


def test_type_error():
    bad = SOURCE.replace("trials_completed += 1", "trials_completed += true")
    (d,) = errors(bad)
    assert d.span.line == line_of(bad, "+= true")
    assert "must be number" in d.message and "true/false" in d.message


def test_yaml_syntax_error():
    bad = SOURCE.replace("  challenger: {text: completes", "  challenger: {text: [completes")
    (d,) = errors(bad)
    assert d.span.line == line_of(bad, "[completes")
    assert d.message.startswith("invalid YAML")


def test_dsl_syntax_error_with_hint():
    bad = SOURCE.replace("if trials_completed == 20:", "if trials_completed = 20:")
    (d,) = errors(bad)
    line = line_of(bad, "trials_completed = 20")
    assert (d.span.line, d.span.col) == (line, bad.splitlines()[line - 1].index("= 20") + 1)
    assert d.hint == "use '==' to compare values; '=' sets a variable"


def test_case_as_a_statement_says_to_write_if():
    """A designer choosing what a card does by its name writes `case c.name:` among statements."""
    bad = SOURCE.replace("            if trials_completed == 20:\n              win challenger as finished",
                         "            case trials_completed:\n              20: win challenger as finished")
    (d,) = errors(bad)
    line = line_of(bad, "case trials_completed:")
    assert (d.span.line, d.span.col, d.span.end_col) == (line, 13, 17)  # the word `case`
    assert d.message.startswith("`case` is not a statement") and "elif" in d.hint


@pytest.mark.parametrize("written, hint", [
    ("trials_completed // 2 == 10", "`/` divides and rounds down"),
    ("trials_completed ** 2 == 400", "no power operator"),
    ("trials_completed == 20 && true", "write `and`"),
    ("trials_completed == 20 || false", "write `or`"),
    ("!(trials_completed != 20)", "write `not`")])
def test_an_operator_of_other_programming_languages_is_told_what_the_rules_write(written, hint):
    bad = SOURCE.replace("if trials_completed == 20:", f"if {written}:")
    (d,) = errors(bad)
    assert d.span.line == line_of(bad, written) and hint in d.hint


def test_all_errors_reported_in_one_run():
    bad = (SOURCE.replace("while size(hand) < 4", "while size(hnad) < 4")
           .replace("x + y >= t.value", "x + y >= t.valeu")
           .replace("trials_completed += 1", "trials_completed += true"))
    found = errors(bad)
    assert len(found) == 3
    assert [d.span.line for d in found] == sorted(d.span.line for d in found)


def test_holds_is_checked_for_moves():
    bad = SOURCE.replace("move all c in chamber where c is not action to trial_discard",
                         "move chamber to trial_discard")
    (d,) = errors(bad)
    assert "action cards cannot go to trial_discard" in d.message
    assert "holds:" in d.hint


def test_duplicate_key():
    bad = SOURCE.replace("  removed:        {holds", "  reserve: {}\n  removed:        {holds")
    (d,) = errors(bad)
    assert d.message == "duplicate key 'reserve'"


def test_bad_table_cell():
    bad = SOURCE.replace("      strength     13\n", "      strenght     13\n")
    (d,) = errors(bad)
    assert d.span.line == line_of(bad, "strenght")
    assert "'strenght' is not a trial_kind" in d.message and d.hint == "did you mean 'strength'?"


def test_unknown_top_level_key():
    bad = SOURCE.replace("rulings:\n", "rullings:\n")
    (d,) = errors(bad)
    assert d.message == "unknown key 'rullings' in the ruleset" and d.hint == "did you mean 'rulings'?"


def test_a_key_spelled_as_other_tools_spell_it_is_told_ours():
    bad = SOURCE.replace("rulings:\n", "parameters:\n  rounds: {default: 3}\nrulings:\n")
    (d,) = errors(bad)
    assert d.message == "unknown key 'parameters' in the ruleset" and d.hint == "did you mean 'params'?"
    assert d.span.line == line_of(bad, "parameters:")


def test_unknown_and_badly_typed_parameters():
    found = errors(SOURCE, {"trial_modifier": "true", "action_modifiers": "maybe"})
    messages = sorted(d.message for d in found)
    assert messages == ["parameter 'action_modifiers': expected true or false, not 'maybe'",
                        "unknown parameter 'trial_modifier' for twenty-trials"]
    assert any(d.hint == "did you mean 'trial_modifiers'?" for d in found)


def test_recursive_define_is_rejected():
    bad = SOURCE.replace("    value: exists r in reserve where r is refresh and face_up(r)",
                         "    value: exists r in reserve where r is refresh and refresh_ready()")
    (d,) = errors(bad)
    assert "'refresh_ready' uses itself" in d.message


def test_case_must_be_exhaustive():
    bad = SOURCE.replace("      versatility: abs(x - y) >= t.value\n", "")
    (d,) = errors(bad)
    assert d.message == "case does not cover versatility"


def test_not_utf8():
    from rulelang.files import decode
    with pytest.raises(RulesetError) as info:
        decode("game: x\ntitle: caf\xe9\n".encode("latin-1"), "latin.yaml")
    (d,) = info.value.diagnostics
    assert (d.span.line, d.span.col) == (2, 11) and "UTF-8" in d.message


def test_error_format_is_file_line_col():
    bad = SOURCE.replace("while size(hand) < 4", "while size(hnad) < 4")
    text = errors(bad)[0].format()
    assert re.match(r"^bad\.yaml:\d+:\d+: error: ", text)


def test_a_field_hint_never_names_the_refused_field():
    """Some of the card types have the field: the hint says to narrow, not 'did you mean' the same name."""
    define = "trials_met_by_hand(): count(t in trial_deck where t is trial and"
    bad = SOURCE.replace(define, define.replace("count(", "count(t in trial_deck where t.kind == strength) + count(",
                                                1))
    (d,) = errors(bad)
    assert d.message == "trial_modifier cards have no field 'kind'"
    assert "'kind'" not in (d.hint or "") and d.hint.startswith("narrow first, e.g. `t is trial and ...`")


def test_a_define_under_procedures_and_a_procedure_under_define_say_where_they_belong():
    bad = SOURCE.replace("procedures:\n", "procedures:\n  best_value(): |\n    max(c.value for c in hand)\n", 1)
    (d,) = errors(bad)
    assert d.message == "'best_value()' is a value, not statements: it is a define, under `procedures:`"
    assert d.span.line == line_of(bad, "best_value(): |") and "under `define:`" in d.hint
    bad = SOURCE.replace("define:\n", "define:\n  draw_two():\n    do: |\n      draw 2 from action_deck to hand\n", 1)
    (d,) = errors(bad)
    assert d.message == "'draw_two()' is statements, not a value: it is a procedure, under `define:`"
    assert d.span.line == line_of(bad, "    do: |") and "under `procedures:`" in d.hint


def test_a_value_on_a_line_of_its_own_is_not_a_statement():
    bad = SOURCE.replace("      refreshes_used += 1\n", "      refreshes_used += 1\n      size(hand)\n", 1)
    (d,) = errors(bad)
    assert d.message == "'size' is built in (a value), not a procedure; use it in a condition"
    assert d.span.line == line_of(bad, "      size(hand)")


@pytest.mark.parametrize("old, new, message", [
    ("        move c to hand\n", "        move c to hand\n          shuffle hand\n",
     "this line is indented further than the line before it"),
    ("      else:\n        move c to hand\n", "      else:\n        move c to hand\n       shuffle hand\n",
     "this line's indentation matches no block around it"),
    ("      else:\n        move c to hand\n", "      else:\n      move c to hand\n",
     "this line is not indented, but the line before opens a block (it ends with ':')"),
])
def test_a_mis_indented_line_is_named_at_its_first_word(old, new, message):
    bad = SOURCE.replace(old, new, 1)
    assert bad != SOURCE
    (d,) = errors(bad)
    line = bad[:bad.index(new)].count("\n") + new.count("\n")  # the last line of `new`
    moved = bad.splitlines()[line - 1]
    indent = len(moved) - len(moved.lstrip())
    assert d.message == message
    assert (d.span.line, d.span.col, d.span.end_col) == (line, indent + 1, indent + 1 + len(moved.split()[0]))
    assert "indent" in d.hint or "line it up" in d.hint


def test_a_printed_field_of_any_card_expression_cannot_change():
    line = "      refreshes_used += 1\n"
    bad = SOURCE.replace(line, line + "      top(action_deck).value += 1\n", 1)
    (d,) = errors(bad)
    assert d.message == "'value' is printed on the card and cannot change"
    assert d.span.line == line_of(bad, "top(action_deck).value")


def test_a_board_function_of_an_unknown_name_is_reported_not_an_internal_error():
    """(The checker once crashed reading the board of `neighbours(x)` when x was unknown.)"""
    bad = SOURCE.replace("while size(hand) < 4", "while size(neighbours(nowhere)) + distance(nowhere, nowhere) < 4")
    assert [d.message for d in errors(bad)] == ["unknown name 'nowhere'"] * 3


def test_a_parameters_bounds_are_whole_numbers():
    """(`min: abc` was taken as it was, and `--set` then failed comparing a number with it.)"""
    bad = SOURCE.replace("params:\n", "params:\n  n: {default: 3, min: abc, max: 2.5}\n", 1)
    assert [(d.message, d.span.line) for d in errors(bad)] == [
        ("parameter 'n': `min:` must be a whole number", line_of(bad, "min: abc")),
        ("parameter 'n': `max:` must be a whole number", line_of(bad, "min: abc"))]


REFUSED = """language: 2
game: refused
roles: [solo]
types:
  face: [up, down]
cards:
  coin:
    fields: {side: face}
    table: |
      side
      up
      down
  round:
    count: 2
zones:
  pile: {holds: [coin, round]}
vars:
  shown: {type: face, initial: up}
setup: |
  move box to pile
modes:
  m:
    round:
      - step: S
        do: |
          end game as done
"""


def test_a_reserved_word_refused_as_a_name_is_said_once_not_again_at_each_use():
    # was: the refusal, then "unknown field type 'face'", "unknown column 'side'", "unknown type 'face'" and
    # "unknown card type 'round'": each use of the name said the refusal again, less clearly
    assert [d.message for d in errors(REFUSED)] == ["'face' is a reserved word and cannot name a type",
                                                     "'round' is a reserved word and cannot name a card type"]
