"""The constructs added for Twenty Trials' modes: `take`, `watch:`,
mode `visibility:` and `heuristics:` — on small rulesets written for the purpose."""
import pytest
from test_language import TINY, run_once, tiny

from interpreter.engine.game import Game
from interpreter.runtime.errors import RuleError
from rulelang import RulesetError, load_text


@pytest.mark.parametrize("body, total", [
    # pairs are enumerated left to right: first is (1, 2); last is (3, 4)
    ("take first a, b in pile where a.value + b.value > 2:\n  total = a.value * 10 + b.value\nwin solo", 12),
    ("take last a, b in pile where a.value + b.value < 7:\n  total = a.value * 10 + b.value\nwin solo", 24),
    ("take last c in pile:\n  move c to out\ntotal = size(out) * 10 + top(out).value\nwin solo", 14),
    # the body runs once, and may ask a decision
    ("take first c in pile where c.value > 1:\n  solo chooses d in pile where d != c as pick:\n"
     "    total = c.value * 10 + d.value\nwin solo", 21),
])
def test_take_binds_the_first_or_last_binding(body, total):
    for optimize in (True, False):
        st = run_once(tiny(body), optimize=optimize)
        assert st.vars[0] == total, (body, optimize)


def test_take_with_nothing_to_take_is_a_located_rule_error():
    text = tiny("take first c in pile where c.value > 9:\n  pass")
    for optimize in (True, False):
        with pytest.raises(RuleError, match="take first: no binding matches") as info:
            run_once(text, optimize=optimize)
        assert info.value.diagnostic.span.line == text.splitlines().index("          take first c in pile where c.value > 9:") + 1


def test_take_is_not_a_reserved_word():
    st = run_once(tiny("let take = 3\ntotal = take\nwin solo"))
    assert st.vars[0] == 3
    with pytest.raises(RulesetError, match="an automatic choice is written `take first"):
        load_text(tiny("grab first c in pile:\n  pass"), "t.yaml")


WATCHED = """
game: watched
title: Watched
roles: [solo, other]
{chips}zones:
  pile: {facing: down}
  out: {}
  secret: {owner: solo, seen_by: owner}
vars:
  total: 0
  fired: 0
  tallies: 0
setup: |
  move box to pile
modes:
  main:
    round:
      - step: Play
        do: |
          while not empty(pile):
            solo chooses c in pile as play:
              move c to out
              total += 1
      - step: Tally
        do: |
          tallies += 1
          if round == 2:
            end game
    watch:
      - when: sum(c.value for c in out) >= 5
        do: |
          fired += 1
          solo chooses c in out as keep:
            move all d in out where d != c to pile
        then: Tally
    heuristics:
      solo: total * 2 - fired
    visibility: {pile: open}
""".replace("{chips}", TINY[TINY.index("cards:"):TINY.index("zones:")])  # the same four chips


def test_a_watch_fires_as_soon_as_its_condition_holds():
    for optimize in (True, False):
        game = Game(load_text(WATCHED, "w.yaml"), optimize=optimize)
        st = game.new_state(0)
        chosen = []
        while not game.is_terminal(st):
            p = game.decision(st)
            if p.label == "play":
                chosen.append(p.options[-1][0])  # the largest card first
                game.apply(st, len(p.options) - 1)
            else:
                assert p.label == "keep" and game.step_name(st) == "Tally"  # where play goes on
                game.apply(st, 0)
        layout = game.layout
        value = layout.columns["value"]
        # round 1: 4 then 3 make 7 >= 5: the watch fires at once (the second move), keeps 4,
        # and play goes on at Tally; round 2 starts again from the pile
        assert [value[c] for c in chosen[:2]] == [4, 3]
        assert st.vars[layout.var_slot["fired"]] == 2
        assert st.vars[layout.var_slot["tallies"]] == 2
        # `total += 1` after a move that fired never ran: only round 1's first move counted
        # (in round 2, 3 joins the kept 4 and fires at once)
        assert st.vars[layout.var_slot["total"]] == 1


def test_a_watch_is_not_checked_inside_its_own_statements():
    text = WATCHED.replace("fired += 1\n", "fired += 1\n          move all d in pile to out\n")
    game = Game(load_text(text, "w.yaml"))
    st = game.new_state(0)
    game.apply(st, 3)  # 4 to out
    game.apply(st, 2)  # 3 to out: fires; its own moves do not fire it again
    assert game.decision(st).label == "keep" and len(game.decision(st).options) == 4


def test_watch_errors_are_located():
    bad = WATCHED.replace("then: Tally", "then: Talley")
    with pytest.raises(RulesetError, match="no step named 'Talley'") as info:
        load_text(bad, "w.yaml")
    assert "did you mean 'Tally'" in info.value.format()
    with pytest.raises(RulesetError, match="a watch's condition must be"):
        load_text(WATCHED.replace("when: sum(c.value for c in out) >= 5", "when: size(out)"), "w.yaml")


def test_mode_visibility_opens_a_zone_to_every_role():
    from interpreter.engine.view import Viewer
    game = Game(load_text(WATCHED, "w.yaml"))
    st = game.new_state(0)
    obs = Viewer(game).observe(st, "other")
    assert [c["card"] for c in obs["zones"]["pile"]] == ["chip 1", "chip 2", "chip 3", "chip 4"]
    closed = Game(load_text(WATCHED.replace("    visibility: {pile: open}\n", ""), "w.yaml"))
    assert Viewer(closed).observe(closed.new_state(0), "other")["zones"]["pile"] == [None] * 4
    with pytest.raises(RulesetError, match="unknown zone 'piles'"):
        load_text(WATCHED.replace("{pile: open}", "{piles: open}"), "w.yaml")
    with pytest.raises(RulesetError, match="visibility is `open` or a mapping"):
        load_text(WATCHED.replace("{pile: open}", "everything"), "w.yaml")


def test_heuristics_are_numbers_per_role():
    game = Game(load_text(WATCHED, "w.yaml"))
    st = game.new_state(0)
    game.apply(st, 0)
    assert game.heuristic(st, "solo") == 2 and game.heuristic(st, "other") is None
    with pytest.raises(RulesetError, match="a heuristic must be number"):
        load_text(WATCHED.replace("total * 2 - fired", "total > 2"), "w.yaml")


STEPS = """
game: steps
title: Steps
roles: [solo]
{chips}zones:
  pile: {}
  out: {}
vars:
  fired: 0
  tallies: 0
setup: |
  move box to pile
modes:
  main:
    round:
      - step: Deal
        do: |
          move top(pile) to out
      - step: Count
        do: |
          tallies += 1
      - step: Check
        do: |
          if round == 4:
            end game
    watch:
      - when: size(out) >= 2
        do: |
          fired += 1
          move all c in out to pile
""".replace("{chips}", TINY[TINY.index("cards:"):TINY.index("zones:")])


def test_a_watch_fired_in_code_merged_across_steps_goes_on_after_its_own_step():
    # rounds with no decision run as one function, step into step (merge.Merge): the watch fires in
    # Deal (rounds 2 and 4) and play goes on at Count, as if the engine had run each step's block;
    # the naive compile runs each block by itself
    for optimize in (True, False):
        game = Game(load_text(STEPS, "s.yaml"), optimize=optimize)
        assert bool(game.rules.crossing) == optimize, "the round's steps run in one function"
        st = game.new_state(0)
        assert game.is_terminal(st)
        slot = game.layout.var_slot
        assert (st.vars[slot["fired"]], st.vars[slot["tallies"]]) == (2, 4), optimize
