"""Language constructs on small rulesets written for the purpose."""
import pytest

from interpreter.agents.match import play
from interpreter.agents.simple import FirstAgent
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from interpreter.runtime.errors import RuleError, Runaway
from rulelang import RulesetError, load_text

DUEL = """
game: duel
title: Duel
roles: [alice, bob]
params:
  rounds: {default: 3, min: 1, max: 10}
cards:
  number:
    fields: {rank: 1..9}
    label: "{rank}"
    table: |
      rank count
      1    2
      2    2
      3    2
      4    2
      5    2
      9    2
zones:
  deck: {facing: down}
  hand: {owner: each, seen_by: owner, kind: hand}
  table: {kind: row}
  won: {owner: each}
vars:
  passes: 0
setup: |
  move box to deck
  shuffle deck
  for p in [alice, bob]:
    draw 3 from deck to hand of p
modes:
  duel:
    round:
      - step: Play
        do: |
          for p in [alice, bob]:
            p chooses c in hand of p as play:
              move c to table
      - step: Settle
        do: |
          let best = max(x.rank for x in table)
          bob chooses action:
            take if exists x in table where x.rank == best:
              move table to won of bob
            pass_turn:
              passes += 1
              move table to deck at bottom
          if round == rounds:
            end game as last_round
    score:
      alice: sum(c.rank for c in won of alice)
      bob: sum(c.rank for c in won of bob) + passes
"""


def test_per_role_zones_menus_and_score_ending():
    rs = load_text(DUEL, "duel.yaml")
    game = Game(rs)
    st = game.new_state(0)
    viewer = Viewer(game)
    labels = []
    while not game.is_terminal(st):
        labels.append((game.decision(st).role, game.decision(st).label))
        if game.decision(st).label == "play":
            # a player only ever chooses among the cards in their own hand
            hand = st.zones[game.zone_index("hand", game.decision(st).role)]
            assert sorted(o[0] for o in game.decision(st).options) == sorted(hand)
            # and sees only their own hand
            obs = viewer.observe(st, "alice")
            assert all(c is None for c in obs["zones"]["hand of bob"])
            assert all(c is not None for c in obs["zones"]["hand of alice"])
        game.apply(st, 0)
    assert labels[:3] == [("alice", "play"), ("bob", "play"), ("bob", "action")]
    assert st.outcome["ended_by"] == "end" and st.outcome["reason"] == "last_round"
    scores = st.outcome["scores"]
    assert st.outcome["results"]["bob"] == ("win" if scores["bob"] > scores["alice"] else
                                            "draw" if scores["bob"] == scores["alice"] else "lose")
    assert st.round == 3


def test_parameters_change_the_game():
    game = Game(load_text(DUEL, "duel.yaml", {"rounds": "1"}))
    st = play(game, 0, {r: FirstAgent(0, r) for r in game.roles})
    assert st.round == 1
    with pytest.raises(RulesetError, match="outside 1..10"):
        load_text(DUEL, "duel.yaml", {"rounds": "11"})


def run_once(text: str, **kw):
    game = Game(load_text(text, "t.yaml"), **kw)
    return play(game, 0, {r: FirstAgent(0, r) for r in game.roles})


TINY = """
game: tiny
title: Tiny
roles: [solo]
cards:
  chip:
    fields: {value: number}
    table: |
      value
      1
      2
      3
      4
zones:
  pile: {}
  out: {}
vars:
  total: 0
setup: |
  move box to pile
modes:
  main:
    round:
      - step: Only
        do: |
          {body}
"""


def tiny(body: str) -> str:
    return TINY.replace("{body}", body.replace("\n", "\n          "))


@pytest.mark.parametrize("body, total", [
    ("total = count(c in pile where c.value > 1)\nwin solo", 3),
    ("total = sum(c.value for c in pile)\nwin solo", 10),
    ("total = min(c.value for c in pile) * 10 + max(c.value for c in pile)\nwin solo", 14),
    ("total = first(c in pile where c.value > 2).value + last(c in pile).value\nwin solo", 7),
    ("total = size([c for c in pile where c.value % 2 == 0])\nwin solo", 2),
    ("total = count(a, b in pile where a.value + b.value == 5)\nwin solo", 2),
    ("repeat 3 times:\n  solo chooses c in pile as drop:\n    move c to out\n    total += c.value\nwin solo", 6),
    ("for c in pile where c.value < 3:\n  solo chooses d in [1, 2] as pick:\n    total += d * c.value\nwin solo", 3),
    ("draw 10 from pile to out\ntotal = size(out)\nwin solo", 4),
    ("move bottom(pile) to out at bottom\nmove top(pile) to out at bottom\ntotal = bottom(out).value\nwin solo", 4),
    ("let c = top(pile)\nflip c\ntotal = 1 if face_down(c) else 0\nwin solo", 1),
])
def test_constructs(body, total):
    for optimize in (True, False):
        st = run_once(tiny(body), optimize=optimize)
        assert st.vars[0] == total, (body, optimize)


def test_case_on_numbers_with_else_through_a_define():
    text = TINY.replace("setup: |", "define:\n  bonus(number n): |\n    case n:\n      1, 2: 10\n"
                        "      4: 40\n      else: 0\nsetup: |")
    st = run_once(text.replace("{body}", "total = bonus(size(pile)) + bonus(1)\n          win solo"))
    assert st.vars[0] == 50


def test_runaway_loop_is_stopped_with_its_location():
    text = tiny("while true:\n  total += 1")
    with pytest.raises(Runaway) as info:
        run_once(text, step_limit=1000)
    d = info.value.diagnostic
    assert d.span.line == text.splitlines().index("          while true:") + 1
    assert "1,000 steps" in d.message and "--step-limit" in d.hint
    assert "`while true` never ends (in step '" in d.message  # names the loop and the step


def test_a_runtime_rule_error_is_located():
    text = tiny("move all c in pile to out\nmove top(pile) to out")
    with pytest.raises(RuleError) as info:
        run_once(text)
    assert "no card to move" in info.value.diagnostic.message
    assert info.value.diagnostic.span.line == text.splitlines().index("          move top(pile) to out") + 1


INLINED = TINY.replace("setup: |", """define:
  share(number n): |
    10 / (n - size(pile))
  third(): |
    [1, 2][size(pile)]
  outer(number n): |
    share(n) + 1
procedures:
  spin(): |
    while total < 5:
      pass
setup: |""")


@pytest.mark.parametrize("call, name, failing", [
    ("total = share(4)", "share", "    10 / (n - size(pile))"),
    ("total = third()", "third", "    [1, 2][size(pile)]"),
    ("spin()", "spin", "    while total < 5:"),
    ("total = outer(4)", "share, called at t.yaml:{outer}; in outer", "    10 / (n - size(pile))"),
])
def test_an_error_in_code_written_in_place_names_the_call_and_the_line_in_the_define(call, name, failing):
    """Optimised, a define or procedure is written where it is called; naive, it is a function of
    its own. Either way its error is at its own line, and says the calls it was reached through."""
    text = INLINED.replace("{body}", call + "\n          win solo")
    lines = text.splitlines()
    name = name.format(outer=lines.index("    share(n) + 1") + 1)  # (outer's line, which calls share)
    errors = {}
    for optimize in (True, False):
        with pytest.raises(RuleError) as info:
            run_once(text, optimize=optimize, step_limit=1000)
        errors[optimize] = info.value
    d = errors[True].diagnostic
    assert d.span.line == lines.index(failing) + 1
    assert d.message.endswith(f"in {name}, called at t.yaml:{lines.index('          ' + call) + 1})"), d.message
    naive = errors[False].diagnostic
    assert (naive.span.line, naive.message) == (d.span.line, d.message)


def test_a_decision_with_no_option_is_a_rule_error():
    with pytest.raises(RuleError, match="no legal option"):
        run_once(tiny("solo chooses c in pile where c.value > 9 as nothing:\n  pass"))


def test_procedures_with_decisions():
    text = TINY.replace("setup: |", "procedures:\n  take_two(): |\n    repeat 2 times:\n"
                        "      solo chooses c in pile as take:\n        move c to out\nsetup: |")
    st = run_once(text.replace("{body}", "take_two()\n          total = size(out)\n          win solo"))
    assert st.vars[0] == 2


@pytest.mark.parametrize("body, message", [
    ("move 3 to out", "can only move cards"),
    ("total = pile", "must be number"),
    ("solo chooses c in 5 as x:\n  pass", "can only go through a zone or a list"),
    ("win nobody", "unknown name 'nobody'"),
    ("total = first(a, b in pile)", "binds one name"),
    ("let total = 1", "already the name of a variable"),
    ("for c in pile:\n  for c in pile:\n    pass", "already a variable here"),
    ("undefined_proc()", "unknown procedure"),
    ("total = c.value", "unknown name 'c'"),
    ("if top(pile) is chipp:\n  pass", "unknown card type 'chipp'"),
])
def test_checker_errors(body, message):
    with pytest.raises(RulesetError, match=message):
        load_text(tiny(body), "t.yaml")
