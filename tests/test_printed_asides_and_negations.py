"""Printed rules as a player reads them, for what writing Love Letter from the docs found: a player's
own true/false value said with its verb ("whether each player is out of the round"), an aside
closed before its verb ("the first player …, in turn clockwise from …, becomes …"), two negated
clauses of one subject joined as one negation ("does not hold a King or hold a Prince", not "and not
hold a Prince"), a value by the number of players said by it ("2 players: 7", not "2: 7"), a term's
"another player" not said again ("the other player is not the player"), and a text's article dropped
before a determiner ("holds a {n}" with a card name referred to again: "holds that figure", not
"holds a that figure")."""
from functools import cache

from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: asides
title: Asides
players: {count: 2..3}
types:
  figure: [king, prince, jester]
cards:
  card:
    fields: {figure: figure}
    table: |
      figure
      king
      prince
      jester
zones:
  deck: {}
  hand: {owner: each, seen_by: owner}
vars:
  out: {initial: false, owner: each, text: out of the round}
  ready: {initial: false, owner: each, text: has drawn}
  active: {type: role, initial: none, text: the player whose turn it is}
define:
  holds(role p, figure f):
    text: "{p} holds a {f}"
    value: exists c in hand of p where c.figure == f
  goal():
    text: the last round
    value: |
      case size(players):
        2: 3
        else: 4
  may_pick(role p, role q):
    text: "{p} may pick {q}"
    value: q != p and not out of q
  free(role p):
    text: "{p} is free"
    value: not (holds(p, king) or holds(p, prince))
setup: |
  move all c in box to deck
modes:
  only:
    round:
      - step: Play
        do: |
          active = first(q in clockwise(left_of(active)) where not out of q)
          active chooses f in figure as guess:
            if holds(active, f) and free(active):
              out of active = true
              ready of active = true
          if round == goal() or ready of active or not exists q in players where may_pick(active, q):
            end game as done
"""


@cache
def printed() -> str:
    return to_markdown([summary(load_text(GAME, "asides.yaml"))])


def test_a_players_own_flag_is_said_with_its_verb():
    assert "Whether each player is out of the round: no at the start" in printed()
    assert "Whether each player has drawn: no at the start" in printed()  # a verb of its own: no "is"


def test_an_aside_in_a_players_name_is_closed_before_the_verb():
    assert ("The first player that is not out of the round, in turn clockwise from the player to the left of "
            "the player whose turn it is, becomes the player whose turn it is.") in printed()


def test_two_negated_clauses_of_one_subject_read_as_one_negation():
    text = printed()
    assert "does not hold a king or hold a prince" in text
    assert "and not hold" not in text


def test_an_article_before_a_determiner_is_dropped():
    text = printed()
    assert "holds that figure and is free" in text and "a that" not in text


def test_a_value_by_the_number_of_players_names_them():
    assert "depending on the number of players:\n    - 2 players: 3.\n    - Otherwise: 4." in printed()


def test_what_another_says_is_not_said_again_in_the_terms_meaning():
    assert "- **a player may pick another player**: the other player is not out of the round." in printed()
