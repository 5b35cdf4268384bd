"""A hidden card's properties reach no player through a value (rulelang/hidden.py).

Every route by which what a card is can become what a decision offers —
a list of values read off the cards, a define, a `let`, a card variable, a
procedure's argument, `first(...)`, a menu option's guard, a range's bound —
is warned of by `check`; a random pick whose value comes from cards a reader
may not see is shown to that reader as a hidden pick, in the play screen,
observations and `--log-as`, and the non-interference oracle (test_secrets)
finds nothing when those cards are dealt again."""
import resource

import pytest
from test_secrets import Labels, check_everyone

from cli.main import main
from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.game import Game
from interpreter.engine.view import HIDDEN_PICK, Viewer
from rulelang import lint, load_ruleset, load_text

GAME = """
game: secrets
roles: [p, q]
cards:
  coin:
    fields: {worth: 1..5}
    table: |
      worth
      1
      2
      3
      4
      5
zones:
  secret: {owner: each, seen_by: owner}
  vault: {facing: down}
  pile: {}
vars:
  total: {initial: 0}
  kept: {type: coin, initial: none}
define:
  worths(zone z): "[c.worth for c in z]"
  richest(zone z): first(c in z where c.worth == max(d.worth for d in z))
procedures:
  offer(zone z):
    do: |
      p chooses v in [c.worth + 1 for c in z] as from_a_procedure:
        total += v
setup: |
  move box to secret of q
  move top(secret of q) to vault
modes:
  m:
    round:
      - step: Play
        do: |
          RULES
          end game
"""

WARNED = [
    ("a list of values", "p chooses v in [c.worth for c in secret of q] as it:\n  total += v"),
    ("a define", "p chooses v in worths(secret of q) as it:\n  total += v"),
    ("a let", "let t = top(secret of q)\np chooses k in [t.worth, 0] as it:\n  total += k"),
    ("a card variable", "kept = top(secret of q)\np chooses k in [kept.worth, 0] as it:\n  total += k"),
    ("a procedure's argument", "offer(secret of q)"),
    ("first(...) in a define", "p chooses k in [richest(secret of q).worth] as it:\n  total += k"),
    ("a range's bound", "p chooses k in 1..max(c.worth for c in secret of q) as it:\n  total += k"),
    ("a menu option's guard", "p chooses it:\n  rich if sum(worths(secret of q)) > 6:\n    pass\n  poor:\n    pass"),
    ("a face-down zone", "p chooses v in [c.worth for c in vault] as it:\n  total += v"),
    ("cards picked by a hidden value", "p chooses c in pile where c.worth < top(vault).worth as it:\n  pass"),
]


@pytest.mark.parametrize("what, rules", WARNED, ids=[w for w, _ in WARNED])
def test_check_warns_of_every_route_from_a_hidden_card_to_an_option(what, rules):
    text = GAME.replace("RULES", rules.replace("\n", "\n          "))
    warnings = lint.warnings(load_text(text, "secrets.yaml"))
    assert len(warnings) == 1, (what, [w.message for w in warnings])
    assert "depends on cards p may not see" in warnings[0].message


@pytest.mark.parametrize("what, rules", [
    ("the chooser's own cards", "q chooses v in [c.worth for c in secret of q] as it:\n  total += v"),
    ("hidden cards offered as themselves", "p chooses c in secret of q as it:\n  pass"),
    ("how many there are", "p chooses k in 0..size(secret of q) as it:\n  total += k"),
    ("cards turned face up at times", "flip top(vault) face up\n"
                                      "p chooses v in [c.worth for c in vault] as it:\n  total += v"),
])
def test_check_is_quiet_where_nothing_hidden_decides_the_options(what, rules):
    text = GAME.replace("RULES", rules.replace("\n", "\n          "))
    assert lint.warnings(load_text(text, "secrets.yaml")) == [], what


def test_the_bundled_rulesets_check_without_warnings_and_quickly():
    start = resource.getrusage(resource.RUSAGE_SELF).ru_utime
    for name in ("hand-of-fate-ordeals", "gauntlet-16-7", "twenty-trials", "kuhn-poker"):
        assert lint.warnings(load_ruleset(name)) == [], name
    assert resource.getrusage(resource.RUSAGE_SELF).ru_utime - start < 6  # CPU seconds, loading included


PICKED = GAME.replace("RULES", "take random v in [s.worth for s in secret of q]:\n"
                               "            total += v\n"
                               "          p chooses k in [1, 2] as go:\n            total += k")


def test_a_pick_of_values_read_off_hidden_cards_is_hidden_from_who_may_not_see_them(tmp_path, capsys):
    path = tmp_path / "picked.yaml"
    path.write_text(PICKED)
    for role, shown in [("p", HIDDEN_PICK), ("q", None), (None, None)]:
        log = tmp_path / f"{role}.jsonl"
        assert main(["run", str(path), "--seed", "4", "--log", str(log), *(["--log-as", role] if role else [])]) == 0
        picked = [line for line in log.read_text().splitlines() if '"type": "pick"' in line]
        assert len(picked) == 1 and (shown in picked[0] if shown else HIDDEN_PICK not in picked[0]), picked
    game = Game(load_text(PICKED, str(path)), "m")
    viewer = Viewer(game)
    st = game.new_state(4)
    line = PICKED.splitlines().index("          take random v in [s.worth for s in secret of q]:") + 1
    assert viewer.observe(st, "p")["chance"] == [{"type": "pick", "at": f"{path}:{line}", "picked": HIDDEN_PICK}]
    assert viewer.observe(st, "q")["chance"][0]["picked"].isdigit()  # q sees its own coins
    assert viewer.observe(st, None)["chance"][0]["picked"] == HIDDEN_PICK  # and a spectator does not


def test_the_oracle_finds_nothing_of_the_hidden_cards_in_what_p_is_shown():
    game = Game(load_text(PICKED, "picked.yaml"), "m")
    viewer = Viewer(game)
    labels = Labels(game, viewer)
    for seed in range(6):
        st = game.new_state(seed)
        check_everyone(game, viewer, labels, st, seed, f"seed {seed}")
        play(game, seed, {r: RandomAgent(seed, r) for r in game.roles}, state=st)
