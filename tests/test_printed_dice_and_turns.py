"""Printed rules read by a player who has never seen the game (Yahtzee and Ludo Lite, tests/printing/, written
from the docs alone): each sentence here was printed before and read as pseudocode or bookkeeping. Each is
checked on a small game of dice and turns, so that the cause is fixed, not the sentence."""
from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: dice-and-turns
language: 2
players: {count: 2..3}
cards:
  die: {component: die, count: 3, state: {face: 1}}
  pawn: {component: pawn, count: 6, state: {steps: 0}}
zones:
  tray: {holds: [die], text: the tray}
  yard: {owner: each, holds: [pawn], text: yard}
  track: {owner: each, holds: [pawn], text: track}
vars:
  points: {initial: 0, owner: each}
define:
  faces(): "[d.face for d in tray]"
  showing(n):
    text: "the number of dice showing {n}"
    value: count(f in faces() where f == n)
  can_move(role p, pawn c, n):
    text: "{p} can move {c} by {n}"
    value: c.steps + n <= 10
  total(role p):
    text: "{p}'s score"
    value: points of p + size(track of p)
procedures:
  advance(role p, pawn c, n):
    text: "{p} moves {c} by {n}"
    do: |
      c.steps += n
setup: |
  move all d in box where d is die to tray
  for p in players:
    move first(c in box where c is pawn) to track of p
modes:
  play:
    turns: {steps: [Roll, Move]}
    round:
      - step: Roll
        do: |
          for d in tray:
            roll d6 into d.face
          let rolling = true
          repeat 2 times:
            if rolling:
              current chooses again:
                more:
                  for d in tray where d.face < 3:
                    roll d6 into d.face
                enough:
                  rolling = false
          points of current += sum(faces()) + showing(6)
      - step: Move
        do: |
          let again = true
          while again:
            roll d6 into n
            if exists c in track of current where can_move(current, c, n):
              current chooses c in track of current where can_move(current, c, n) as pawn:
                advance(current, c, n)
            if points of current > 50:
              win current as ahead
            again = n == 6
      - step: Last
        do: |
          for p in players:
            if exists c in track of p where can_move(p, c, 1):
              p chooses c in track of p where can_move(p, c, 1) as nudge:
                advance(p, c, 1)
          if round == 10:
            end game as out_of_time
    score: total
"""


def md(text: str) -> str:
    return to_markdown([summary(load_text(text, "dice.yaml"))])


def test_a_dice_face_is_rolled_by_rolling_the_die():
    text = md(GAME)
    assert "- Roll every die in the tray (d6)." in text  # was "For every die in the tray: roll a die (d6) for the face …"
    assert "*more*: roll every die in the tray whose face is less than 3 (d6)." in text
    one = md(GAME.replace("for d in tray where d.face < 3:", "take first d in tray where d.face < 3:"))
    assert "take the first die in the tray whose face is less than 3, then roll it (d6)." in one


def test_things_counted_through_a_list_of_their_values_are_counted_themselves():
    text = md(GAME)
    # was "the number of numbers F among the list of the face of that die for every die in the tray such that F is N"
    assert "**the number of dice showing N**: the number of dice in the tray whose face is N." in text
    assert "the total face of the dice in the tray" in text  # was "the total of the list of the face of that die …"
    assert "the list of" not in text


def test_a_choice_guarded_by_the_test_that_it_has_an_option_is_said_once():
    text = md(GAME)
    # was "If there is a pawn in your track such that you can move it by N: you choose a pawn in your track such that …"
    assert "If you can, you choose a pawn in your track such that you can move it by N, then you move it by N." in text
    assert "For every player: if possible, that player chooses a pawn in their track such that they can move it by 1" \
        in text
    assert "If there is a pawn" not in text


def test_a_guarded_choice_after_elif_is_said_once_too():
    # as in Three Men's Morris: place a man, otherwise move one if you can, otherwise you are blocked
    text = md(GAME.replace("""            if exists c in track of current where can_move(current, c, n):""",
                           """            if n == 1:
              points of current += 1
            elif exists c in track of current where can_move(current, c, n):""").replace(
        """                advance(current, c, n)
            if points""", """                advance(current, c, n)
            else:
              points of current -= 1
            if points"""))
    # was "Otherwise, if there is a pawn in your track such that …: you choose a pawn in your track such that …"
    assert "Otherwise, if you can, you choose a pawn in your track such that you can move it by N, then you move it " \
        "by N." in text
    assert "there is a pawn" not in text


def test_a_procedure_said_to_you_keeps_the_space_after_its_verb():
    assert "you move it by N" in md(GAME)  # was "you movethat pawn by N"


def test_a_loop_flag_set_to_a_condition_last_is_a_stop_under_that_condition():
    text = md(GAME)
    assert "- Repeat:\n    - Roll a die (d6); call the result N." in text  # was "*again* starts on. Repeat until …"
    assert "- If N is not 6: stop." in text  # was "Set *again* to whether N is 6."
    assert "*again* starts on" not in text and "*again* is on" not in text  # nor in the ending's conditions
    assert "You win in step 2 (Move), when your *points* are more than 50." in text  # a plural name: "are"


def test_a_counted_loop_its_flag_can_end_is_repeated_up_to_so_many_times():
    text = md(GAME)
    assert "- Repeat up to twice:\n    - You choose one of these:" in text  # was "*rolling* starts on. Repeat twice: If …"
    assert "*enough*: stop." in text
    assert "*rolling* starts on" not in text and "If *rolling* is on" not in text


def test_a_score_named_the_score_is_not_said_to_be_itself():
    text = md(GAME)
    assert "Each player's score is their score." not in text
    assert "**a player's score**: the player's *points* + the number of pawns in their track." in text
    named = md(GAME.replace('text: "{p}\'s score"', 'text: "{p}\'s tally"'))
    assert "Each player's score is their tally." in named  # a term by another name still says which


def test_a_bonus_added_to_a_sum_is_said_last_and_once():
    bonus = md(GAME.replace("value: points of p + size(track of p)",
                            "value: points of p + (35 if points of p >= 63 else 0) + size(track of p)"))
    # was "the player's *points* + 35 + the number of pawns in their track if …; otherwise the player's *points* + …"
    assert "**a player's score**: the player's *points* + the number of pawns in their track, plus 35 if their " \
           "*points* are at least 63." in bonus
    cases = md(GAME.replace("value: points of p + size(track of p)",
                            "value: points of p + (40 if size(track of p) > 1 else (20 if size(track of p) > 0 else 0))"))
    assert "the player's *points* + 40 if their track holds more than 1 pawn; otherwise their *points* + 20 if " \
           "their track holds more than 0 pawns; otherwise their *points*." in cases  # (was "more than 1 pawns")


def test_a_choice_between_doing_something_and_nothing_is_what_you_may_do():
    menu = ("                  for d in tray:\n                    current chooses this_die:\n"
            "                      keep:\n                        pass\n"
            "                      reroll:\n                        roll d6 into d.face\n")
    text = md(GAME.replace("                  for d in tray where d.face < 3:\n                    roll d6 into d.face\n",
                           menu))
    # was "For every die in the tray: You choose one of these: *keep*: do nothing. *reroll*: roll that die (d6)."
    assert "- *more*:\n            - For every die in the tray: you may roll that die (d6)." in text
    assert "*keep*" not in text and "- *this die*: Roll." in text  # the decision keeps its name for programs


def test_what_a_die_shows_is_said_as_what_it_shows():
    text = md(GAME)
    assert "Each die shows a number from 1 to 6 (its *face*), 1 at the start." in text  # was "Each die also keeps *face*"
    assert "Each pawn keeps *steps* (starting at 0), changed during play." in text  # no field before it: no "also"
    odd = md(GAME.replace("roll d6 into d.face", "roll d3 into d.face").replace("define:", "dice:\n  d3: [2, 4, 6]\ndefine:"))
    assert "Each die shows one of 2, 4 or 6 (its *face*), 1 at the start." in odd
    # a face also set by the rules is kept like any other value
    set_too = md(GAME.replace("      - step: Move\n", "      - step: Move\n        do: |\n          for d in tray:\n"
                                 "            d.face = 1\n      - step: Move again\n"))
    assert "Each die keeps *face* (starting at 1), changed during play." in set_too
