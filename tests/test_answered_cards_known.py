"""The cards a quick agent chose, from options listed from one zone (`a, b in pile`: two different
cards of it), are taken off that zone's list where the code that goes on moves them before any
other card moves (peeks.known_zones), not searched for where `where` says; where play resumes
after a decision answered later, they are searched for (the options may be out of date there).
The games are the plain rules'."""
import re

from helpers import assert_plays_as_plain
from test_per_card_code import main_program

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.game import Game
from rulelang import load_text

PAIRS = """
game: pairs
title: Pairs
players:
  count: 2
cards:
  tile:
    fields: {value: 1..6}
    table: |
      value
      1
      2
      3
      4
      5
      6
      1
      2
      3
      4
zones:
  pile: {}
  out: {}
  kept: {}
setup: |
  move all c in box to pile
modes:
  m:
    round:
      - step: Pick
        do: |
          for p in players:
            if size(pile) >= 2:
              p chooses CHOICE as pick:
                MOVES
          if size(pile) < 2:
            end game as done
"""

SAME_GROUP = ("a, b in pile where a.value + b.value > 1", "move a to out\n                move b to kept")
TWO_GROUPS = ("a in pile, b in pile where a.value <= b.value", "move a to out\n                move b to kept")


def games(choice: tuple[str, str]) -> list[Game]:
    text = PAIRS.replace("CHOICE", choice[0]).replace("MOVES", choice[1])
    return [Game(load_text(text, "pairs.yaml"), optimize=o) for o in (True, False)]


def _removes(code: str) -> tuple[int, int]:
    """(cards taken off the pile's list, cards searched for) in the code."""
    return len(re.findall(r"(zones\[1\]|zone1)\.remove\(", code)), len(re.findall(r"zones\[where\[\w+\]\]\.remove\(", code))


def _answered_at_once(code: str) -> list[str]:
    """The code after each quick answer, up to where its block goes on."""
    return [after.split("return")[0].split("continue")[0] for after in code.split("return -1")[1:]]


def _resumed(code: str) -> list[str]:
    """The blocks that read a decision's names back from the frame (where play resumes after it)."""
    return [b for b in re.findall(r"def b\d+\(st, env\):(?:(?!def b).)*", code, re.S)
            if re.search(r"(\w+) = env\[k\d+\][^\n]*\n\s+[^\n]*remove\(\1\)", b)]


def test_the_cards_a_quick_answer_chose_are_taken_off_their_zone():
    fast, plain = games(SAME_GROUP)
    code = main_program(fast)
    assert {_removes(c) for c in _answered_at_once(code)} == {(2, 0)}
    assert {_removes(c) for c in _resumed(code)} == {(0, 2)}
    # (the pile, the out pile and the kept pile lie alike, face up: a card taken off the pile is not turned)
    assert {c.count("face[") for c in _answered_at_once(code)} == {0}
    assert {c.count("face[") for c in _resumed(code)} == {2}
    _plays_as_plain(fast, plain)


def test_a_card_of_another_group_may_be_the_same_card_and_is_searched_for():
    fast, plain = games(TWO_GROUPS)
    code = main_program(fast)
    assert {_removes(c) for c in _answered_at_once(code)} == {(1, 1)}  # (a off the pile, b searched for)
    _plays_as_plain(fast, plain)


def _plays_as_plain(fast: Game, plain: Game) -> None:
    assert_plays_as_plain(fast, plain, seeds=8, step=3)
    for seed in range(8):
        a, b = (play(g, seed, {r: RandomAgent(seed, r) for r in g.roles}) for g in (fast, plain))
        assert a.answers() == b.answers() and fast.outcome(a) == plain.outcome(b), seed
