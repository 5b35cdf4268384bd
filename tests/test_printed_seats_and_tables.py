"""Printed rules as a player reads them, for what a program computes its own way: a seat counted
clockwise (not a modulo), a value by seat worked out as a table (not its formula), a re-roll (not
the roll and the same roll in a loop), a list that starts empty named by what it is given, and a
player held in a variable that may be no one (not "is none")."""
from functools import cache

from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: seats
title: Seats
players:
  count: 2..4
  default: 3
  names: [red, blue, green, yellow]
types:
  colour: [gold, silver, bronze]
vars:
  start: {type: role, initial: red, text: the starting player}
  partner: {type: role, initial: none, owner: each, text: partner}
  die: {initial: 0, text: the movement die}
  order: {initial: 0, owner: each}
  leader: {type: role, initial: red, text: the player who leads the round}
zones:
  hand: {owner: each, holds: [token]}
  pile: {holds: [token]}
cards:
  token: {component: token, count: 4}
define:
  slot(colour c):
    text: "the place of {c}"
    value: |
      case c:
        gold: 0
        silver: 1
        else: 2
  starting(role p, colour c):
    text: "{p}'s starting {c}"
    value: "(seat(p) + slot(c)) % 3 + 1 if size(players) == 2 else (2 if slot(c) == seat(p) % 3 else 1)"
  after_start(role p):
    text: "how many seats {p} sits clockwise from the starting player"
    value: (seat(p) - seat(start) + size(players)) % size(players)
  waiting(role p):
    text: "{p} is still waiting"
    value: order of p == 0
  aided(role p):
    text: "the help {p} gets"
    value: "1 if partner of p != none else 0"
procedures:
  roll_off(contenders):
    text: "{contenders} roll off"
    do: |
      let left = contenders
      while size(left) > 1:
        left = [q for q in left where waiting(q)]
        for q in left:
          hurry(q)
  hurry(role p):
    text: "{p} hurries"
    do: |
      order of p += 1
setup: |
  for p in players:
    order of p = starting(p, gold) + starting(p, silver) + starting(p, bronze)
modes:
  play:
    round:
      - step: Roll
        do: |
          roll d6 into die
          while die <= 2:
            roll d6 into die
          if die % 2 == 1:
            partner of start = none
          for p in players ordered by order of p descending, after_start(p):
            order of p += aided(p)
          let through = []
          through = [q for q in players where order of q > 5]
          roll_off(through)
          order of leader += 1 + 0
          for p in players where exists q in players where q != p and not empty(hand of q):
            move top(pile) to hand of p
          if all(empty(hand of p) for p in players) or size(through) <= 0:
            end game as done
    score: order
"""


@cache
def text() -> str:
    return to_markdown([summary(load_text(GAME, "seats.yaml"), "play")])


def test_a_value_by_seat_prints_as_the_table_of_its_values():
    said = text()
    assert ("- **a player's starting colour**:\n"
            "    - With 2 players: Red: Gold 2, Silver 3, Bronze 1; Blue: Gold 3, Silver 1, Bronze 2.\n"
            "    - With 3 or 4 players: Red: Gold 1, Silver 2, Bronze 1; Blue: Gold 1, Silver 1, Bronze 2; "
            "Green: Gold 2, Silver 1, Bronze 1; Yellow: Gold 1, Silver 2, Bronze 1.") in said
    assert "the place of" not in said  # a term only the table used: worked out, not printed


def test_a_seat_counted_clockwise_is_an_order_not_a_modulo():
    said = text()
    assert "For every player, by that player's *order*, largest first, then clockwise from the starting " \
           "player: add the help that player gets to their *order*." in said  # was "by how many seats …"
    assert " mod " not in said


def test_a_reroll_is_one_sentence():
    assert "- Roll a die (d6) for *die* until *die* is more than 2.\n" in text()


def test_an_odd_roll_and_a_player_that_may_be_no_one():
    said = text()
    assert "If *die* is odd: clear the starting player's *partner*." in said
    assert "1 if the player has a *partner*; otherwise 0" in said
    assert "*partner*: no one at the start" in said
    assert "none" not in said


def test_a_list_that_starts_empty_is_named_by_what_it_is_given():
    said = text()
    assert "For every player *left*:" in said  # was "For each Q among *left*", then "every player among *left*"
    assert "Repeat until there is at most one player *left*:" in said  # was "the number of items in *left*"


def test_whose_things_and_other_players():
    said = text()
    assert "- Add 1 to the *order* of the player who leads the round.\n" in said  # not "… round's *order*"
    assert "For every player such that there is another player whose hand is not empty:" in said
    assert "If every player's hand is empty or there is no player *through*:" in said



def test_a_term_of_many_long_kinds_is_counted_before_it_is_listed():
    """Seven kinds of ten values are ten million combinations: no table, found at once, without
    listing them (a ruleset is untrusted input); a term of one kind still is one."""
    import time

    from generators.tables import table_item
    kinds = "\n".join(f"  k{i}: [{', '.join(f'v{i}_{j}' for j in range(10))}]" for i in range(7))
    params = ", ".join(f"k{i} a{i}" for i in range(7))
    game = GAME.replace("types:\n", f"types:\n{kinds}\n", 1).replace("define:\n", (
        f"define:\n  wide(role p, {params}):\n    text: \"{{p}}'s wide value\"\n    value: seat(p) + 1\n"), 1)
    rs = load_text(game, "seats.yaml")
    start = time.process_time()
    assert table_item(rs, rs.defines["wide"], "wide") is None
    assert time.process_time() - start < 1
    assert table_item(rs, rs.defines["starting"], "starting") is not None
