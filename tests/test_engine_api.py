"""The public game-state API, the generated code as a person reads it, and
the tables every pass shares (built-ins, card labels)."""
from __future__ import annotations

import io
import json
import re
import traceback

import pytest
from helpers import ROOT, game_for, rulelang

from generators.english import EXPRESSIONS, context
from interpreter.compiler.calls import Calls
from interpreter.engine.game import Game
from interpreter.engine.logs import GameLog, header
from interpreter.engine.view import Viewer
from interpreter.runtime.decision import Decision
from interpreter.runtime.errors import IllegalAction, RuleError
from rulelang import ir, load_ruleset, load_text
from rulelang.builtins import BUILTINS
from rulelang.labels import card_label


def test_the_api_answers_who_decides_what_and_where_in_the_rules():
    game = game_for("twenty-trials", "challenger")
    st = game.new_state(3)
    d = game.decision(st)
    assert isinstance(d, Decision) and d.role == game.current_role(st) == "challenger"
    assert d.label in ("discard", "complete")
    assert list(game.legal_actions(st)) == list(range(len(d.options)))
    line = int(d.at.rpartition(":")[2])
    text = (ROOT / "rulesets" / "twenty-trials.yaml").read_text().splitlines()[line - 1]
    assert d.at.startswith("rulesets/twenty-trials.yaml:") and f"as {d.label}" in text
    with pytest.raises(AttributeError):
        d.role = "someone else"  # a record, not a dict to edit
    copy = game.clone(st)
    game.apply(st, 0)
    assert game.decision(copy) == d and game.decision(st) != d  # a clone is independent
    while not game.is_terminal(st):
        game.apply(st, 0)
    assert game.decision(st) is None and game.current_role(st) is None and not game.legal_actions(st)
    assert set(game.returns(st).values()) <= {1.0, -1.0, 0.0}
    with pytest.raises(IllegalAction):
        game.apply(st, 0)


def test_two_decisions_with_one_label_are_told_apart_by_their_place():
    # Versus mode asks `turn` in two places: the Challenger's turn and the Trialmaster's
    turns = [s.at for s in game_for("twenty-trials", "versus").rules.sites if s.label == "turn"]
    assert len(turns) == 2 and len(set(turns)) == 2


def test_every_decision_record_of_a_log_says_where_the_rules_asked_it():
    game = game_for("twenty-trials", "versus")
    out = io.StringIO()
    log = GameLog(out, header(game.ruleset, None, "versus", 1, {}))
    viewer, st = Viewer(game), game.new_state(1)
    while not game.is_terminal(st):
        log.decision(game, viewer, st, 0)
        game.apply(st, 0)
    records = [json.loads(line) for line in out.getvalue().splitlines()[1:]]
    assert records and all(re.fullmatch(r"rulesets/twenty-trials\.yaml:\d+", r["at"]) for r in records)


def test_show_python_prints_the_generated_code_with_the_rule_of_every_line():
    r = rulelang("show", "twenty-trials", "--python")
    assert r.returncode == 0, r.stderr
    text = r.stdout
    compile(text, "listing", "exec")  # the listing is Python
    rules = (ROOT / "rulesets" / "twenty-trials.yaml").read_text().splitlines()
    noted = re.findall(r"# rulesets/twenty-trials\.yaml:(\d+)$", text, re.M)
    assert len(noted) > 50 and all(0 < int(n) <= len(rules) for n in noted)
    # the `complete` decision: its _decision(...) line names the site, whose note gives the line that asks
    site = re.search(r"(k\d+) = K\[\d+\]  # the decision 'complete' at rulesets/twenty-trials\.yaml:(\d+)", text)
    assert site and "as complete" in rules[int(site.group(2)) - 1]
    assert f"st.pending = _decision(({site.group(1)}, " in text
    assert rulelang("show", "twenty-trials", "--mode", "versus").returncode == 2  # --mode goes with --python


def test_the_executed_code_holds_no_ruleset_text_but_a_traceback_shows_the_rule():
    game = Game(load_text(DIVIDE, "divide.yaml"))
    for unit in game.rules.units:  # the text executed is the listing without its comments
        assert all("#" not in line for line, _ in unit.lines)
    st = game.new_state(0)
    with pytest.raises(RuleError) as info:
        game.apply(st, 0)
    shown = "".join(traceback.format_exception(info.value))
    assert "divide.yaml:17" in shown and "_divide(" in shown


DIVIDE = """
game: divide
title: Divide
roles: [p]
cards:
  chip: {fields: {value: 1..3}, table: "value\\n1\\n2"}
zones:
  pile: {holds: [chip]}
vars:
  x: {initial: 0}
modes:
  main:
    round:
      - step: Divide
        do: |
          p chooses c in box as pick:
            x = 10 / (c.value - c.value)
          end game
"""


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_built_in_is_generated_checked_and_written_in_english(name):
    builtin = BUILTINS[name]
    assert callable(getattr(Calls, "builtin_" + name, None)), f"no code generator for {name}()"
    assert builtin.phrase.count("{") == len(builtin.params)
    assert builtin.negated is None or builtin.negated.count("{") == len(builtin.params)
    context(load_ruleset("twenty-trials"))  # registers the renderings
    assert ir.BuiltinCall in EXPRESSIONS  # the English reads the table's phrase


def test_a_card_reads_the_same_in_play_and_in_print():
    rs = load_text(FLAGS, "flags.yaml")
    game = Game(rs)
    viewer = Viewer(game)
    from generators.components import card_label as printed
    for card in rs.cards:
        assert viewer.card(card.id) == card_label(rs, card) == printed(rs, card)
    assert [viewer.card(c.id) for c in rs.cards] == ["flag red yes", "flag blue no"]


FLAGS = """
game: flags
title: Flags
roles: [p]
cards:
  flag: {fields: {colour: [red, blue], raised: bool}, table: "colour raised\\nred true\\nblue false"}
modes:
  main:
    round:
      - step: End
        do: end game
"""


def test_one_walker_sees_every_node():
    from rulelang.walk import walk
    rs = load_ruleset("twenty-trials")
    kinds = {type(n) for n in walk(tuple(step.body for step in rs.modes["challenger"].round))}
    assert {ir.While, ir.Choose, ir.Move, ir.Binder, ir.DefineCall} <= kinds
