"""Holes in rules the checker points at, and the language's ways to close them.

* `first(B)` that may find nothing (rulelang/first_matches.py), and `first(B else V)`;
* a `for` whose list is fixed when it starts while its body changes what it was
  made from (rulelang/stale_loops.py), and the idiom that tests each binding again;
* a state that ends a player's part at once: a watch (`then:`), as Hand of Fate's
  death (tests/test_hand_of_fate.py plays it).

Each warning is shown on the rulesets that had the hole (the bundled ones as they
were) and not on rulesets that are fine (every bundled one today, test_runaway.py).
"""
import subprocess

import pytest
from helpers import ROOT, position, refusal, rulelang

from interpreter.engine.game import Game
from rulelang import lint, load_text

ROYALS = """
game: royals
title: Royals
roles: [solo]
cards:
  royal: {fields: {rank: [jack, queen, king]}, table: "rank\\njack\\nqueen\\nking"}
zones:
  royals: {holds: [royal]}
  defeated: {holds: [royal]}
vars:
  level: {initial: 1, min: 1, max: 3}
  beaten: {initial: 0}
define:
  level_rank():
    value: |
      case level:
        1: jack
        2: queen
        else: king
  the_royal():
    value: FIRST
procedures:
  beat(): |
    move the_royal() to defeated
    beaten += 1
    if level < 3:
      level += 1
setup: |
  move all r in box where r is royal to royals
modes:
  main:
    round:
      - step: Fight
        do: |
          BODY
          if beaten == 3:
            end game as done
    score:
      solo: beaten
"""


def royals(first: str = "first(r in royals where r.rank == level_rank())", body: str = "beat()") -> str:
    return ROYALS.replace("FIRST", first).replace("BODY", body)


def warnings_of(text: str) -> list:
    return lint.warnings(load_text(text, "r.yaml"))


# ---------------------------------------------------------------- first(... else V)

def test_first_else_gives_the_value_when_nothing_matches():
    text = royals("first(r in royals where r.rank == level_rank() else none)",
                  "if the_royal() != none:\n            beat()\n          else:\n            beaten = 3")
    game = Game(load_text(text, "r.yaml"))
    st = game.new_state(0)
    assert game.outcome(st)["scores"] == {"solo": 3}


def test_last_else_and_an_else_of_another_type_is_a_located_error():
    text = royals("last(r in royals where r.rank == level_rank() ordered by beaten else none)")
    assert load_text(text, "r.yaml")  # `ordered by`, then `else`
    text = royals("first(r in royals where r.rank == level_rank() else 0)")
    d = refusal(text, "r.yaml")[0]
    assert "differ in type" in d.message and "royal" in d.message
    assert (d.span.line, d.span.col) == position(text, "first(r in royals")


def test_count_takes_no_else():
    d = refusal(royals("count(r in royals where r.rank == jack else 0)"), "r.yaml")[0]
    assert "count() always has a value" in d.message and "first(B else V)" in d.hint


# ---------------------------------------------------------------- first() that may find nothing

def test_a_first_over_a_zone_its_matches_leave_is_warned_of():
    """Hand of Fate's hole: "the Royalty of this level" asked for after the King had left the row."""
    text = royals()
    found = warnings_of(text)
    assert len(found) == 1
    d = found[0]
    assert d.severity == "warning" and (d.span.line, d.span.col) == position(text, "first(r in royals")
    moved = position(text, "move the_royal() to defeated")[0]
    assert f"royal cards leave royals (line {moved})" in d.message and "first(... else VALUE)" in d.hint


@pytest.mark.parametrize("first, body", [
    # says what then
    ("first(r in royals where r.rank == level_rank() else none)", "if the_royal() != none:\n            beat()"),
    # a test just before proves a match
    (None, "if exists r in royals where r.rank == level_rank():\n            beat()"),
    (None, "if not empty(royals) and exists q in royals where q.rank == level_rank():\n            beat()"),
    # a `where` of printed fields only: the rules' own bookkeeping, not questioned
    ("first(r in royals where r.rank == king)", "beat()"),
    # no `where`, guarded by the zone's size
    ("first(r in royals)", "if size(royals) > 0:\n            beat()"),
])
def test_a_first_proved_or_closed_is_not_warned_of(first, body):
    assert warnings_of(royals(first or "first(r in royals where r.rank == level_rank())", body)) == []


def with_define(text: str, define: str) -> str:
    return text.replace("define:\n", f"define:\n{define}", 1)


@pytest.mark.parametrize("first", [
    "first(r in royals where r.rank == top(royals).rank)",
    "last(r in royals where bottom(royals).rank == r.rank)",
    "first(r in royals where r.rank == end_rank())",  # Hearts: `c.suit == led()`, the suit of the card led
])
def test_a_where_the_zone_s_own_end_card_passes_is_not_warned_of(first):
    """Such a binder finds that card whenever the zone holds one: as a binder with no `where`."""
    text = with_define(royals(first), "  end_rank():\n    value: bottom(royals).rank\n")
    assert warnings_of(text) == []


def test_a_where_the_end_card_may_fail_is_warned_of():
    text = with_define(royals("first(r in royals where r.rank != end_rank())"),
                       "  end_rank():\n    value: bottom(royals).rank\n")
    assert len(warnings_of(text)) == 1


def test_a_test_ends_with_what_it_read_changing():
    body = "if exists r in royals where r.rank == level_rank():\n            level += 1\n            beat()"
    assert len(warnings_of(royals(body=body))) == 1  # the level changed after the test: it proves nothing


def test_the_hand_of_fate_that_crashed_is_warned_of_and_the_fixed_one_is_not():
    old = subprocess.run(["git", "show", "baba4cf:rulesets/hand-of-fate-ordeals.yaml"], cwd=ROOT,
                         capture_output=True, text=True)
    if old.returncode != 0:
        pytest.skip("the repository's history is not at hand")
    found = [d for d in lint.warnings(load_text(old.stdout, "hof.yaml")) if "may find nothing" in d.message]
    assert len(found) == 1 and "royalty cards leave royals" in found[0].message
    assert old.stdout.splitlines()[found[0].span.line - 1].strip().startswith("value: first(r in royals")


# ---------------------------------------------------------------- loops over a list fixed at their start

BRIDGE = """
game: bridge
title: Bridge
players: 3
cards:
  bridge: {state: {down: true}, count: 1}
zones:
  river: {holds: [bridge]}
vars:
  raised: {initial: 0, owner: each}
  tries: {initial: 0}
define:
  bridge_down():
    value: exists b in river where b.down
setup: |
  move all b in box where b is bridge to river
modes:
  main:
    round:
      - step: Raise
        do: |
          LOOP
          end game as done
    score: raised
"""

RAISE = "for b in river:\n    b.down = false\n  raised of p += 1"


def loop(text: str) -> str:
    return BRIDGE.replace("LOOP", text.replace("\n", "\n          "))


def test_a_where_the_body_changes_for_later_bindings_is_warned_of():
    """16-7's hole: a second player offered to raise the Drawbridge after it was up."""
    found = warnings_of(loop("for p in players where bridge_down():\n  " + RAISE))
    assert len(found) == 1
    d = found[0]
    assert "`bridge_down()` is tested for every binding when the loop starts" in d.message
    assert "*down* (a card's state)" in d.message and "`if C:`" in d.hint
    game = Game(load_text(loop("for p in players where bridge_down():\n  " + RAISE), "b.yaml"))
    assert game.outcome(game.new_state(0))["scores"] == {"player_1": 1, "player_2": 1, "player_3": 1}


@pytest.mark.parametrize("text", [
    # the idiom: each binding tested when its turn comes
    "for p in players:\n  if bridge_down():\n    " + RAISE.replace("\n", "\n  "),
    "for p in players where bridge_down():\n  if bridge_down():\n    " + RAISE.replace("\n", "\n  "),
    # what the body changes is the current player's own
    "for p in players where raised of p == 0:\n  raised of p += 1",
    "for p in players where tries >= 0:\n  raised of p += 1",
])
def test_a_loop_that_tests_again_or_changes_only_its_binding_is_not_warned_of(text):
    assert warnings_of(loop(text)) == []
    game = Game(load_text(loop(text), "b.yaml"))
    if "bridge_down" in text:  # one player raises it
        assert sorted(game.outcome(game.new_state(0))["scores"].values()) == [0, 0, 1]


def test_a_list_made_before_the_loop_from_what_the_body_changes_is_warned_of():
    text = loop("for p in [q for q in players where raised of q == tries]:\n  tries += 1\n  raised of p += 1")
    found = warnings_of(text)
    assert len(found) == 1 and "is made once, when the loop starts" in found[0].message
    assert "*tries*" in found[0].message


def test_the_16_7_that_offered_the_raised_bridge_is_warned_of():
    old = subprocess.run(["git", "show", "baba4cf:rulesets/gauntlet-16-7.yaml"], cwd=ROOT,
                         capture_output=True, text=True)
    if old.returncode != 0:
        pytest.skip("the repository's history is not at hand")
    found = [d for d in lint.warnings(load_text(old.stdout, "16-7.yaml")) if "when the loop starts" in d.message]
    assert [d.message.split("`")[1] for d in found] == ["bridge_down()"]


def test_check_prints_the_new_warnings_and_succeeds(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(royals())
    r = rulelang("check", str(path))
    assert r.returncode == 0 and ": ok — " in r.stdout
    line, col = position(royals(), "first(r in royals")
    assert f"{path}:{line}:{col}: warning: `first(r in royals where r.rank == level_rank())` may find" in r.stderr


def test_the_warning_in_the_language_reference_is_the_one_check_prints(tmp_path):
    path = tmp_path / "royals.yaml"
    path.write_text(royals())
    r = rulelang("check", "royals.yaml", cwd=tmp_path)
    documented = (ROOT / "docs" / "language.md").read_text()
    assert r.stderr.split("royals.yaml: ok")[0].strip() in documented
