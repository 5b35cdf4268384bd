"""What the generated code pays at every card and decision, round five (issue 36): a local of
the rules written to the frame only where something may read it there (compiler/live.py), a
card moved between zones that lie alike not turned again, and a decision's quick answer and
record asked with one lookup and one test. Each plays exactly as the plain rules do."""
import re
from functools import lru_cache

import pytest
from test_per_card_code import PICKS, games, main_program

from interpreter.engine.game import Game
from interpreter.runtime import rng
from interpreter.runtime.state import NO_QUICK, State
from rulelang import load_text


@lru_cache(maxsize=None)
def compiled(players: int = 3, deals: int = 2) -> list[Game]:
    return games(PICKS, players=players, deals=deals)


def _key(game: Game, name: str) -> str:
    """The constant that names a local of the rules in the main program."""
    unit = next(u for u in game.rules.units if "the main program" in u.what)
    return f"k{unit.consts.index(name)}"


def test_an_answer_the_engine_binds_is_not_written_to_the_frame_by_the_quick_path():
    fast = compiled()[0]
    code = main_program(fast)
    for name in ("c", "n"):  # the cards played and the marks chosen: read only where the engine resumes
        key = _key(fast, name)
        assert re.search(rf"= env\[{key}\]", code) and not re.search(rf"env\[{key}\] = ", code), name
    # the player: read by the options' query, which is given it, not the frame
    assert not re.search(rf"env\[{_key(fast, 'p')}\] = v\d+ = ", code) and re.search(r"q\d+\(st, v\d+\)", code)


@pytest.mark.parametrize("players,deals", [(2, 3), (3, 2), (4, 1)])
def test_stops_between_quick_answers_find_the_frame_as_the_plain_rules_leave_it(players, deals):
    _assert_stops_as_plain(*compiled(players, deals))


# the card played is marked with its player where the engine resumes after an answer: the player is
# read from the frame there
MARKED = PICKS.replace("                move c to pile\n", "                move c to pile\n                taken of p += 1\n")


def test_a_local_read_where_play_resumes_is_written_to_the_frame_only_where_play_stops():
    assert MARKED != PICKS
    fast, plain = games(MARKED, players=3, deals=2)
    code = main_program(fast)
    key = _key(fast, "p")
    lines = code.splitlines()
    stores = [i for i, line in enumerate(lines) if re.search(rf"env\[{key}\] = ", line)]
    # not at every pass of the players' loop (`env[k] = v = row[0]`): once, on the way out where play
    # stops for a decision; the options' query is given the player
    assert stores and all(re.fullmatch(rf"\s*env\[{key}\] = v\d+", lines[i]) and _then(lines, i) == "return -1"
                          for i in stores), stores
    assert re.search(rf"env\[{key}\](?! = )", code) and re.search(r"q\d+\(st, v\d+\)", code)  # (read where it resumes)
    for players in (2, 3, 4):
        _assert_stops_as_plain(*games(MARKED, players=players, deals=2))


def _then(lines: list[str], i: int) -> str:
    """The first line after line i that is not a local put in the frame from a Python local."""
    return next(line.strip() for line in lines[i + 1:] if not re.fullmatch(r"\s*env\[k\d+\] = \w+", line))


def _assert_stops_as_plain(fast: Game, plain: Game) -> None:
    # one player answers at once, in the generated code; the others stop play: every stop offers the
    # same options, with the same values of what their words read (a view, a log), as the plain rules
    for seed in range(10):
        states = []
        for game in (fast, plain):
            quick = {game.roles[0]: rng.picker(rng.derive(seed, "agent"))}
            st, seen = game.new_state(seed, quick), []
            while not game.is_terminal(st):
                d, env = game.decision(st), st.stack[-1].env
                seen.append((d.role, d.label, d.options, [env[n] for n in d.site.reads]))
                game.apply(st, (seed + st.decisions) % len(d.options), quick)
            states.append((st, seen))
        (a, seen_a), (b, seen_b) = states
        assert seen_a == seen_b and a.answers() == b.answers() and fast.outcome(a) == plain.outcome(b), seed


TURNS = """
game: turns
title: Turns
players:
  count: 2
cards:
  tile:
    fields: {value: 1..4}
    table: |
      value
      1
      2
      3
      4
  token: {count: 2}
zones:
  deck: {facing: down, holds: [tile]}
  pile: {holds: [tile]}
  shown: {holds: [tile]}
  gone: {facing: down, holds: [tile]}
  tokens: {holds: [token]}
vars:
  n: {initial: 0}
setup: |
  move all c in box where c is tile to deck
  move all c in box where c is token to tokens
modes:
  m:
    round:
      - step: Turn
        do: |
          draw 1 from deck to pile
          FLIP
          move pile to shown
          move all c in shown where c.value > 2 to gone
          n += 1
          if n == 3:
            end game as done
"""


# (a token turned over is never in the pile nor shown: their cards lie as they do all the same)
@pytest.mark.parametrize("flip,moved_turned", [("", False), ("flip top(pile) face down", True), ("flip top(tokens)", False)])
def test_a_card_moved_between_zones_that_lie_alike_is_not_turned_unless_a_rule_turns_cards(flip, moved_turned):
    text = TURNS.replace("FLIP", flip or "n += 0")
    fast, plain = (Game(load_text(text, "turns.yaml"), optimize=o) for o in (True, False))
    lines = main_program(fast).splitlines()
    zone = {name: fast.zone_index(name) for name in ("pile", "shown", "gone")}
    turned = {int(m[1]): "face[" in after for line, after in zip(lines, lines[1:])
              if (m := re.search(r"where\[\w+\] = (\d+)$", line))}
    # the draw turns a card up, the move to `gone` turns cards down; from pile to shown, both face up,
    # none is turned, unless a card may lie otherwise than its zone (a flip)
    assert turned == {zone["pile"]: True, zone["shown"]: moved_turned, zone["gone"]: True}
    for seed in range(4):
        a, b = fast.new_state(seed), plain.new_state(seed)
        assert (a.zones, a.face_up, a.outcome) == (b.zones, b.face_up, b.outcome), seed


def test_a_decision_asks_the_quick_answers_with_one_lookup_and_records_with_one_test():
    code = main_program(compiled()[0])
    assert "st.quick) is not None" not in code and re.search(r"\(answer\d+ := st\.quick\[", code)
    assert "st.events is not None and st.watched" not in code and "if st.watched:" in code
    # no one answers quickly: every role's answer is None; a game that keeps no events is never watched
    assert NO_QUICK["player_1"] is None and NO_QUICK[0] is None and NO_QUICK[None] is None and not NO_QUICK
    assert State([], [], [], [], 0).watched is False and State([], [], [], [], 0, events=[]).watched is True
    fast = compiled()[0]
    assert fast.new_state(0, watched=True).watched is fast.history


def test_a_game_whose_outcome_alone_is_read_keeps_no_answers_and_plays_the_same():
    code = main_program(compiled()[0])
    # the record is kept only inside the test of whether answers are kept at all
    assert re.search(r"if st\.kept:\n\s+st\.moves = \(st\.moves, i\d+\)\n\s+if st\.watched:", code)
    assert State([], [], [], [], 0).kept is True
    fast = compiled()[0]
    for seed in range(4):
        quick = {r: rng.picker(rng.derive(seed, r)) for r in fast.roles}
        kept = fast.new_state(seed, dict(quick), watched=True)
        quick = {r: rng.picker(rng.derive(seed, r)) for r in fast.roles}
        alone = fast.new_state(seed, quick, watched=False)
        assert kept.kept and not alone.kept and not alone.clone().kept and alone.answers() == []
        assert kept.outcome is not None and kept.outcome == alone.outcome and kept.zones == alone.zones and len(kept.answers()) == kept.decisions
