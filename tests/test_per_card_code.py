"""The generated code's per-card shortcuts (issue 36) play exactly as the plain rules do: the
players listed once for a deal that repeats (loops.py), `first`/`last ... ordered by` in one
pass keeping the sort's choice among equal keys (quantifiers.py), a `where` whose first part
no binding changes tested once (`or` too), names of the players never tested for none, bounded
variables kept in bounds without a call, a loop's name read from a Python local, the seats around
the table as constants where no rule puts a player out."""
import json
import re

import pytest
from helpers import assert_plays_as_plain

from interpreter.engine.game import Game
from interpreter.runtime.errors import RuleError
from rulelang import load_text

PICKS = """
game: picks
title: Picks
players:
  count: 2..4
  default: 3
params:
  deals: {default: 2, min: 0, max: 3}
types:
  suit: [red, black]
cards:
  tile:
    fields: {suit: suit, value: 1..5}
    table: |
      suit  value
      red   1
      red   3
      red   3
      red   5
      black 2
      black 3
      black 5
      black 5
      red   2
      black 1
      red   4
      black 4
      red   5
      black 3
zones:
  deck: {}
  hand: {owner: each}
  pile: {kind: row}
  out: {}
vars:
  dealer: {type: role, initial: none}
  wins: {initial: 0, owner: each, min: 0, max: 2}
  marks: {initial: 0, owner: each, min: -1, max: 3}
  taken: {initial: 0, owner: each}
define:
  highest(): first(c in pile ordered by c.value descending)
  lowest_latest(): last(c in pile ordered by c.value descending)
  highest_latest(): last(c in pile ordered by c.value)
  red_high(): first(c in pile ordered by (1 if c.suit == red else 0), c.value descending)
  red_low_latest(): last(c in pile ordered by (1 if c.suit == red else 0) descending, c.value)
  led(): bottom(pile).suit
setup: |
  move all c in box to deck
  take random p in players:
    dealer = p
modes:
  m:
    round:
      - step: Deal
        do: |
          shuffle deck
          repeat deals times:
            for p in clockwise(left_of(dealer)):
              draw 1 from deck to hand of p
          repeat 2 times:
            for p in clockwise(dealer):
              if size(hand of p) > 2 and p != dealer:
                dealer = p
      - step: Play
        do: |
          for p in clockwise(dealer):
            if exists c in hand of p:
              p chooses c in hand of p where empty(pile) or c.suit == led() or not exists d in hand of p where d.suit == led() as play:
                move c to pile
      - step: Score
        do: |
          if not empty(pile):
            wins of dealer += 1
            if round % 5 == 0:
              move highest() to hand of dealer
            if round % 5 == 1:
              move lowest_latest() to hand of dealer
            if round % 5 == 2:
              move highest_latest() to hand of dealer
            if round % 5 == 3:
              move red_high() to hand of dealer
            if round % 5 == 4:
              move red_low_latest() to hand of dealer
          for p in players:
            taken of p += size(hand of p)
            marks of p -= 1
            p chooses n in 0..3 as mark:
              marks of p = n
          if size(deck) < 4:
            end game as done
          move all c in pile to deck
          dealer = left_of(dealer)
    score: taken
"""

NOBODY = """
game: nobody
title: Nobody
players:
  count: 2..3
  default: 2
params:
  deals: {default: 1, min: 0, max: 2}
cards:
  tile:
    fields: {value: 1..3}
    table: |
      value
      1
      2
      3
zones:
  deck: {}
  hand: {owner: each}
vars:
  dealer: {type: role, initial: none}
setup: |
  move all c in box to deck
modes:
  m:
    round:
      - step: Deal
        do: |
          repeat deals times:
            for p in clockwise(dealer):
              draw 1 from deck to hand of p
          end game as done
"""


def games(text: str = PICKS, **params) -> list[Game]:
    """The optimised and the plain program of a ruleset."""
    return [Game(load_text(text, "picks.yaml", {k: str(v) for k, v in params.items()}), optimize=o)
            for o in (True, False)]


def main_program(game: Game) -> str:
    return next(u.text() for u in game.rules.units if "the main program" in u.what)


@pytest.mark.parametrize("players,deals", [(2, 3), (3, 2), (4, 1)])
def test_the_shortcuts_play_as_the_plain_rules(players, deals):
    fast, plain = games(players=players, deals=deals)
    assert_plays_as_plain(fast, plain, seeds=12, step=5)


def test_a_deal_lists_the_players_once_unless_a_pass_changes_who_they_are():
    code = main_program(games()[0])
    # the deal's `for` is listed at its first pass only; the one whose body moves the dealer at every pass
    assert len(set(re.findall(r"^\s+if (rows\d+) is None:", code, re.M))) == 1  # (a block's code may be copied)
    assert ".sort(" not in code  # `first`/`last ... ordered by`: one pass, no list sorted


@pytest.mark.parametrize("optimize", [True, False])
def test_a_deal_listed_once_fails_where_and_only_when_the_rules_do(optimize):
    for deals, fails in ((1, True), (0, False)):
        game = Game(load_text(NOBODY, "nobody.yaml", {"deals": str(deals)}), optimize=optimize)
        if not fails:
            assert game.is_terminal(game.new_state(0))
            continue
        with pytest.raises(RuleError, match="there is no player here") as raised:
            game.new_state(0)
        assert raised.value.diagnostic.span.line == 30  # the `for`'s line, as the rules would stop


def test_the_seats_are_constants_unless_a_rule_puts_a_player_out(players=4, deals=1):
    # no `eliminate`: left_of and clockwise read a constant (no call that skips the players out)
    assert "_turn(" not in main_program(games(players=players)[0])
    out = PICKS.replace("            marks of p -= 1\n",
                        "            marks of p -= 1\n            if taken of p > 2 and p != dealer:\n"
                        "              eliminate p as full\n")
    fast, plain = games(out, players=players, deals=deals)
    assert "_turn(" in main_program(fast)
    assert_plays_as_plain(fast, plain, seeds=8, step=5)
    slots = slice(fast.layout.out_slot, fast.layout.out_slot + players)
    assert any(any(_played(fast, seed).vars[slots]) for seed in range(40)), "someone is out in some game"


def _played(game: Game, seed: int):
    st = game.new_state(seed)
    while not game.is_terminal(st):
        game.apply(st, seed % len(game.decision(st).options))
    return st


def test_the_rows_of_a_constant_list_are_copied_from_rows_made_once():
    fast, plain = games(players=4, deals=2)
    code = main_program(fast)
    # the seats clockwise from a player (a table of the players' orders) and the players picked from: their
    # 1-tuples a constant, copied as a list, not zipped again at every pass
    assert "list(zip(k" not in code
    assert re.search(r"rows\d+ = list\(k\d+\[", code) and re.search(r"rows\d+ = list\(k\d+\)", code)
    unit = next(u for u in fast.rules.units if "the main program" in u.what)
    assert (("player_1",), ("player_2",), ("player_3",), ("player_4",)) in unit.consts
    assert_plays_as_plain(fast, plain, seeds=8, step=3)
    # a loop's rows kept in the frame across a decision are the list of tuples they were, saved and resumed
    st = fast.new_state(3)
    rows = [v for frame in st.stack for k, v in frame.env.items() if k.startswith("$rows")]
    assert rows and all(type(r) is list and all(type(x) is tuple for x in r) for r in rows)
    assert fast.state_from_json(json.loads(json.dumps(st.to_json()))).stack[0].env == st.stack[0].env
    assert st.clone().stack[0].env == st.stack[0].env
