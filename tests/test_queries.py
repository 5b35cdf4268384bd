"""The shared analysis (`queries`): what `rulelang check --format json`, the
language server and the playground ask of a ruleset, asked directly."""
import json
import re

import pytest
from helpers import ROOT, rulelang

from queries import analyse
from queries.places import Place
from rulelang.files import bundled, bundled_names

TWENTY = ROOT / "rulesets" / "twenty-trials.yaml"

# one error, `hnad`, in rules written in each way YAML writes a string
STYLES = """\
game: styles
roles: [p]
zones:
  hand: {}
define:
  plain(): size(hnad) > 0
  single(): 'size(hnad) > 0'
  double(): "size(hnad) > 0 and size(hand) > \\u0030"
  folded(): >
    size(hand) > 0 and
      size(hnad) > 0
  block(): |
    size(hand) > 0
      and size(hnad) > 0
  wrapped(): size(hand) > 0
    and size(hnad) > 0
modes:
  solo:
    round:
      - step: Play
        do: pass
"""


def position(text: str, written: str, nth: int = 0) -> tuple[int, int]:
    index = -1
    for _ in range(nth + 1):
        index = text.index(written, index + 1)
    line = text.count("\n", 0, index) + 1
    return line, index - text.rfind("\n", 0, index)


def test_an_error_is_placed_exactly_in_every_style_of_yaml_string(tmp_path):
    path = str(tmp_path / "styles.yaml")
    problems = analyse(STYLES, path).problems
    assert [p.message for p in problems] == ["unknown zone 'hnad'"] * 6
    expected = [Place(path, *position(STYLES, "hnad", n), *position(STYLES, "hnad", n)) for n in range(6)]
    assert [p.place for p in problems] == [Place(e.file, e.line, e.col, e.line, e.col + 4) for e in expected]


def test_check_json_gives_each_problem_as_data(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(STYLES, encoding="utf-8")
    r = rulelang("check", "--format", "json", str(bad), "pig-race")
    assert r.returncode == 2 and r.stderr == ""
    data = json.loads(r.stdout)
    assert [(x["ruleset"], x["ok"]) for x in data["rulesets"]] == [(str(bad), False), ("pig-race", True)]
    first = data["problems"][0]
    line, col = position(STYLES, "hnad")
    assert first == {"file": str(bad), "severity": "error", "message": "unknown zone 'hnad'",
                     "hint": "did you mean 'hand'?",
                     "range": {"start": {"line": line, "column": col}, "end": {"line": line, "column": col + 4}}}
    unplaced = json.loads(rulelang("check", "--format", "json", "pig-race", "--set", "nope=1").stdout)
    assert unplaced["problems"][0]["range"] is None and "unknown parameter 'nope'" in unplaced["problems"][0]["message"]


def test_a_broken_rule_leaves_the_rest_of_the_file_answerable():
    text = TWENTY.read_text(encoding="utf-8").replace("until can_complete():", "until can_complete(:", 1)
    a = analyse(text, str(TWENTY))
    assert [p.message for p in a.problems] == ["unexpected ':'"]
    line, col = position(text, "draw_action()", 1)
    assert "(procedure) **draw_action**" in a.hover(line, col + 2)
    assert a.definition(line, col + 2)[0].line == position(text, "draw_action():")[0]


@pytest.mark.parametrize("typed, expected", [
    ("          if c.", {"value", "icon"}),  # a bound card's fields
    ("          draw_action(); roll ", {"d6"}),
    ("          move c to ", {"hand", "reserve", "c", "trials_completed"}),
    ("          move all x in hand where x is ", {"action", "trial", "refresh"}),
])
def test_completion_at_a_cursor_in_rules_being_typed(typed, expected):
    text = TWENTY.read_text(encoding="utf-8")
    anchor = re.search(r"\n( +)draw_action\(\)\n\1if c is action:", text)  # typed in, at its indentation
    typed = anchor.group(1) + typed.lstrip(" ")
    text = text[:anchor.start()] + anchor.group().replace("()\n", "()\n" + typed + "\n", 1) + text[anchor.end():]
    line, _ = position(text, "\n" + typed + "\n")
    found = {c.label for c in analyse(text, str(TWENTY)).completions(line + 1, len(typed) + 1)}
    assert expected <= found


def test_the_outline_and_the_colours_of_a_file():
    a = analyse(TWENTY.read_text(encoding="utf-8"), str(TWENTY))
    sections = {o.name: o for o in a.outline()}
    assert [c.name for c in sections["modes"].children] == ["challenger", "trialmaster", "moderator", "versus"]
    assert "Engage the trial" in [s.name for s in sections["modes"].children[0].children]
    assert "can_complete" in [c.name for c in sections["define"].children]
    kinds = {a.text.at(t.place): t.kind for t in a.tokens()}
    assert kinds["until"] == "keyword" and kinds["action_deck"] == "zone" and kinds["can_complete"] == "define"
    assert kinds["draw_action"] == "procedure" and kinds["size"] == "built-in"


def test_places_become_editor_positions_across_wide_characters_and_yaml_only_line_breaks():
    from lsprotocol import types as lsp

    from langserver.positions import Document
    text = 'game: x\ntext: "a 𝄞\u2028b"\nroles: [p]\ndefine:\n  f(): size(hnad) > 0 # 𝄞\nmodes: {m: {round: [{step: s, do: pass}]}}\n'
    problem = analyse(text, "x.yaml").problems[0]
    assert problem.message == "unknown zone 'hnad'"
    doc = Document(text)
    # YAML counts the U+2028 as a line break (line 6 here); the protocol does not (line 4 from 0)
    assert (problem.place.line, problem.place.col) == (6, 13)
    assert doc.range(problem.place) == lsp.Range(lsp.Position(4, 12), lsp.Position(4, 16))
    assert doc.place_at(lsp.Position(1, 11)) == (2, 11)  # after the 𝄞: two UTF-16 units, one character
    assert doc.place_at(lsp.Position(1, 12)) == (3, 1)  # after the U+2028: a new line to YAML
    assert doc.place_at(lsp.Position(4, 14)) == (6, 15)


@pytest.mark.parametrize("name", [pytest.param(n, marks=[] if n in ("twenty-trials-costly-refresh", "gauntlet-race")
                                                 else [pytest.mark.slow]) for n in bundled_names()])
def test_every_name_a_bundled_ruleset_uses_leads_to_its_declaration(name):
    path = bundled(name)
    a = analyse(path.read_text(encoding="utf-8"), str(path))
    assert not [p for p in a.problems if p.severity == "error"], name
    lost = {(s.kind, s.name) for o in a.occurrences if not o.declares for s in o.symbols
            if s.kind != "built-in" and s.name != "d6" and not a.declarations(s)}
    assert not lost, f"{name}: {sorted(lost)[:5]} lead nowhere"
