"""Variants: rulesets that `extends:` another and change only what differs."""
from pathlib import Path

import pytest
from helpers import ROOT, Position, rulelang

from interpreter.engine.game import Game
from rulelang import RulesetError, load_ruleset
from rulelang.loader import load_text

BASE = load_ruleset("twenty-trials")
SHIPPED = ["twenty-trials-tempered", "twenty-trials-costly-refresh", "twenty-trials-small-hand"]


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def errors(path: Path) -> list:
    with pytest.raises(RulesetError) as info:
        load_ruleset(str(path))
    return info.value.diagnostics


def at(d) -> tuple:
    return (Path(d.span.file).name, d.span.line, d.span.col)


def trial_values(rs) -> list:
    return sorted((c.values["kind"], c.values["value"]) for c in rs.cards if c.kind == "trial")


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_variants_load_and_keep_what_they_do_not_change(name):
    rs = load_ruleset(name)
    assert rs.name == name and {r.id for r in BASE.rulings} <= {r.id for r in rs.rulings}
    assert rs.defines == BASE.defines and list(rs.modes) == list(BASE.modes)
    assert rs.source_hash != BASE.source_hash


def test_tempered_trials_remove_and_add_cards():
    rs = load_ruleset("twenty-trials-tempered")
    base = trial_values(BASE)
    for card in [("strength", 13), ("stealth", 5), ("balance", 0), ("versatility", 6)]:
        base.remove(card)
    assert trial_values(rs) == sorted(base + [("strength", 8), ("stealth", 10), ("balance", 3), ("versatility", 3)])
    # an added card's errors point at its own line in the variant
    text = (ROOT / "rulesets" / "twenty-trials-tempered.yaml").read_text().replace("strength     8", "strength     80")
    with pytest.raises(RulesetError) as info:
        load_text(text, str(ROOT / "rulesets" / "v.yaml"))
    (d,) = info.value.diagnostics
    assert d.span.file.endswith("v.yaml") and "80 in column 'value' is outside 0..13" in d.message
    assert d.span.source.line(d.span.line).strip() == "strength     80"


def test_small_hand_replaces_the_draw_step_and_keeps_its_place():
    rs = load_ruleset("twenty-trials-small-hand")
    steps = rs.modes["challenger"].round
    assert [s.name for s in steps] == [s.name for s in BASE.modes["challenger"].round]
    assert steps[0].span.file.endswith("twenty-trials-small-hand.yaml")
    assert steps[1].span.file.endswith("twenty-trials.yaml")
    p = Position(Game(rs))
    assert len(p.zone("hand")) == 3
    p = Position(Game(load_ruleset("twenty-trials-small-hand", {"hand_size": "5"})))
    assert len(p.zone("hand")) == 5


def test_costly_refresh_removes_cards_after_the_shuffle():
    game = Game(load_ruleset("twenty-trials-costly-refresh", {"refresh_cost": "2"}))
    p = Position(game)
    deck = game.zone_index("action_deck")
    p.put("action_deck")  # empty: the next check needs a refresh
    p.put("hand", p.card("action", value=1, icon="light_sun"), p.card("action", value=2, icon="dark_sun"))
    p.put("chamber", p.card("trial", kind="strength", value=13))
    p.put("action_discard", *game.cards("action", value=8), *game.cards("action", value=7))
    p.start("Engage the trial")  # a refresh: 4 cards back, 2 removed, the other 2 drawn
    assert p.st.zones[deck] == [] and len(p.zone("hand")) == 4
    assert sorted(p.zone("removed") + p.zone("hand")[2:]) == sorted(["7 light sun", "7 dark moon", "8 dark sun",
                                                                        "8 light moon"])


def test_several_levels_of_extension(tmp_path):
    write(tmp_path, "mid.yaml", """
extends: twenty-trials
game: mid
params:
  trial_modifiers: {default: true}
modes:
  challenger:
    round:
      - insert: Count the deck
        after: Draw cards
        do: |
          pass
""")
    top = write(tmp_path, "top.yaml", """
extends: mid.yaml
game: top
title: Top
modes:
  challenger:
    round:
      - remove: Count the deck
      - insert: Warm up
        before: Draw cards
        do: |
          pass
      - insert: Cool down
        do: |
          pass
""")
    rs = load_ruleset(str(top))
    assert rs.title == "Top" and rs.param_values["trial_modifiers"] is True
    assert rs.params["trial_modifiers"].text == BASE.params["trial_modifiers"].text  # merged, not replaced
    assert [s.name for s in rs.modes["challenger"].round] == [
        "Warm up", "Draw cards", "Reveal the trial", "Engage the trial", "Reset the chamber", "Cool down"]
    mid = load_ruleset(str(tmp_path / "mid.yaml"))
    assert rs.source_hash != mid.source_hash
    (tmp_path / "mid.yaml").write_text((tmp_path / "mid.yaml").read_text() + "\n# changed\n")
    assert load_ruleset(str(top)).source_hash != rs.source_hash  # the hash covers every file of the chain


def test_a_mode_may_extend_another_mode(tmp_path):
    path = write(tmp_path, "modes.yaml", """
extends: twenty-trials
game: modes
modes:
  short:
    extends: challenger
    title: Short game
    round:
      - replace: Reset the chamber
        do: |
          move all c in chamber where c is not action to trial_discard
          trials_completed += 1
          if trials_completed == 5:
            win challenger as finished
""")
    rs = load_ruleset(str(path))
    assert list(rs.modes) == [*load_ruleset("twenty-trials").modes, "short"]  # added after the inherited ones
    short = rs.modes["short"]
    assert short.title == "Short game" and short.score == rs.modes["challenger"].score
    assert short.round[:3] == rs.modes["challenger"].round[:3] and short.round[3] != rs.modes["challenger"].round[3]
    outcome = Game(rs, "short").new_state(0)
    assert outcome is not None


def test_rulings_merge_by_id(tmp_path):
    path = write(tmp_path, "r.yaml", """
extends: twenty-trials
game: r
rulings:
  - remove: example-icons
  - id: rating
    text: No rating in this variant.
  - id: new-one
    text: Something new.
""")
    rs = load_ruleset(str(path))
    ids = [r.id for r in rs.rulings]
    assert "example-icons" not in ids and ids[-1] == "new-one"
    assert next(r for r in rs.rulings if r.id == "rating").text == "No rating in this variant."


# ------------------------------------------------------------------ broken variants


def test_unknown_step_to_replace_is_located_in_the_variant(tmp_path):
    path = write(tmp_path, "v.yaml", """extends: twenty-trials
game: v
modes:
  challenger:
    round:
      - replace: Engage the trail
        do: |
          pass
      - insert: Peek
        after: Reval the trial
        do: |
          pass
      - remove: Nothing
""")
    found = errors(path)
    assert [at(d) for d in found] == [("v.yaml", 6, 18), ("v.yaml", 10, 16), ("v.yaml", 13, 17)]
    assert found[0].message == "mode 'challenger' has no step 'Engage the trail' to replace"
    assert found[0].hint == "did you mean 'Engage the trial'?"
    assert found[1].message == "mode 'challenger' has no step 'Reval the trial' to insert after"
    assert found[2].message == "mode 'challenger' has no step 'Nothing' to remove"


def test_removing_a_card_that_does_not_exist(tmp_path):
    path = write(tmp_path, "v.yaml", """extends: twenty-trials
game: v
cards:
  trial:
    remove: |
      kind     value
      balance  7
      strength 9   2
  action:
    remove: |
      value colour
      1     red
  refresh:
    remove: |
      count
      1
""")
    found = errors(path)
    messages = [(at(d), d.message) for d in found]
    assert messages == [
        (("v.yaml", 7, 7), "there is no trial card with kind balance, value 7 to remove"),
        (("v.yaml", 8, 7), "this row has 3 values but the header names 2 columns"),
        (("v.yaml", 11, 7), "unknown column 'colour' in the table of 'action'"),
        (("v.yaml", 14, 5), "card type 'refresh' has no table of cards to change"),
    ]
    assert found[0].hint == "did you mean 'balance 2'?"


def test_removing_more_copies_than_exist(tmp_path):
    path = write(tmp_path, "v.yaml", """extends: twenty-trials
game: v
cards:
  trial:
    remove: |
      kind     value  count
      strength 9      2
""")
    (d,) = errors(path)
    assert at(d) == ("v.yaml", 7, 7) and d.message == "only 1 trial card(s) with kind strength, value 9 to remove, not 2"


def test_a_cycle_of_extends(tmp_path):
    write(tmp_path, "a.yaml", "extends: b.yaml\ngame: a\n")
    write(tmp_path, "b.yaml", "game: b\nextends: a.yaml\n")
    (d,) = errors(tmp_path / "a.yaml")
    assert at(d) == ("b.yaml", 2, 10)
    assert d.message == "a cycle of `extends`: a.yaml -> b.yaml -> a.yaml"
    write(tmp_path, "self.yaml", "extends: self.yaml\ngame: s\n")
    (d,) = errors(tmp_path / "self.yaml")
    assert d.message == "a cycle of `extends`: self.yaml -> self.yaml"


def test_a_cycle_of_mode_extends_and_an_unknown_mode(tmp_path):
    path = write(tmp_path, "v.yaml", """extends: twenty-trials
game: v
modes:
  one: {extends: two}
  two: {extends: one}
  three: {extends: challenjer}
""")
    found = errors(path)
    assert [d.message for d in found[:2]] == ["a cycle of mode `extends`: one -> two -> one",
                                              "there is no mode 'challenjer' to extend"]
    assert found[1].hint == "did you mean 'challenger'?"


@pytest.mark.parametrize("text, message, hint", [
    ("extends: twenty-trails\ngame: v\n", "no ruleset file or bundled ruleset named 'twenty-trails'",
     "did you mean 'twenty-trials'?"),
    ("extends: twenty-trials\ntitle: v\n", "a variant needs its own `game:` name", None),
    ("extends: twenty-trials\ngame: twenty-trials\n", "'twenty-trials' is the name of the ruleset this one extends",
     None),
    ("extends: twenty-trials\ngame: v\nmodes:\n  challenger:\n    round:\n      - replace: Draw cards\n"
     "        dont: pass\n", "unknown key 'dont' in a `replace:` change", "did you mean 'do'?"),
    ("extends: twenty-trials\ngame: v\nmodes:\n  challenger:\n    round:\n      - step: New\n        do: pass\n"
     "      - remove: Draw cards\n", "a change to a round is one of", None),
    ("extends: twenty-trials\ngame: v\ncards:\n  joker:\n    fields: {x: number}\n    add: |\n      x\n      1\n",
     "card type 'joker' is new here: it has no cards to add", None),
    ("extends: twenty-trials\ngame: v\ncards:\n  trial:\n    add: |\n      kind\n      strength\n",
     "added trial cards need a value for every field: the table has no column for value", None),
    ("extends: twenty-trials\ngame: v\nmodes:\n  challenger:\n    extends: challenger\n",
     "mode 'challenger' is inherited: `extends:` only starts a new mode", None),
])
def test_broken_variants_get_located_errors(tmp_path, text, message, hint):
    found = errors(write(tmp_path, "v.yaml", text))
    assert found[0].message.startswith(message) and found[0].span.file.endswith("v.yaml")
    if hint:
        assert found[0].hint == hint


def test_inherited_text_is_located_in_the_base_file(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: twenty-trials\ngame: v\nzones:\n  hand: {holds: [action, trial]}\n")
    found = errors(path)
    assert found and all(d.span.file.endswith("twenty-trials.yaml") for d in found)
    assert "argument 'c' of 'uses_for' must be card (action), but this is card (action or trial)" in found[0].message
    path = write(tmp_path, "w.yaml", "extends: twenty-trials\ngame: w\nvars:\n  trial_deck: 0\n")
    (clash,) = errors(path)
    assert at(clash) == ("w.yaml", 4, 3)
    assert f"'trial_deck' is already the name of a zone ({ROOT / 'rulesets' / 'twenty-trials.yaml'}:" in clash.message


@pytest.mark.slow  # whole commands, several times over: the default run stays under 4 minutes
def test_cli_sets_a_variant_parameter_and_rejects_unknown_ones():
    r = rulelang("run", "twenty-trials-small-hand", "--set", "hand_size=4", "--seed", "5", "--json")
    assert r.returncode == 0, r.stderr
    r = rulelang("run", "twenty-trials-small-hand", "--set", "hand_size=1")
    assert r.returncode == 2 and "parameter 'hand_size': 1 is outside 2..8" in r.stderr
    r = rulelang("run", "twenty-trials-small-hand", "--set", "hand_sise=4")
    assert r.returncode == 2 and "did you mean 'hand_size'?" in r.stderr


def test_small_hand_the_challenger_still_wins_on_the_twentieth_trial():
    """The end the variant keeps from Twenty Trials (random play with its smaller hand never gets there)."""
    p = Position(Game(load_ruleset("twenty-trials-small-hand")))
    p.set("trials_completed", 19)
    seven, three = p.game.cards("action", value=7)[0], p.game.cards("action", value=3)[0]
    p.put("chamber", p.card("trial", kind="strength", value=9))
    p.put("hand", seven, three)
    p.start("Engage the trial")
    assert p.decision.label == "complete"
    p.game.apply(p.st, 0)
    out = p.game.outcome(p.st)
    assert out["results"] == {"challenger": "win"} and out["reason"] == "finished"
