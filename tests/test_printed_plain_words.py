"""Printed rules read by a player who has never seen the game (Hearts, session nine): each sentence here was
printed before and read as pseudocode, said the opposite of the rule, or named a thing twice. Each is checked
on a small game, so that the cause is fixed, not the sentence."""
from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
game: tokens
language: 2
players: {count: 2..4}
types:
  colour: [red, blue]
  shade: [light, dark]
cards:
  chip:
    fields: {colour: colour, shade: shade, value: 1..5}
    state: {by: {type: role, initial: none}}
    label: "{shade} {colour}"
    each: [colour]
    table: |
      shade  value
      light  1
      dark   2
zones:
  pool: {}
  hand: {owner: each, seen_by: owner, kind: hand}
  middle: {kind: row, text: the middle}
vars:
  won: {initial: 0, owner: each, text: chips won}
define:
  untouched():
    text: no chip has been played
    value: empty(middle)
  may_play(role p, chip c):
    text: "{p} may play {c}"
    value: not untouched() or c.value == 1
  special(chip c):
    text: "{c} is special"
    value: c.colour == red and c.shade == dark
  odd(chip c):
    text: "{c} is odd"
    value: (c.value == 1 if untouched() else (c.colour == red or c.shade == dark)) and (c.value > 1 or c.colour == blue)
  all_red(role p):
    text: "{p} holds only red"
    value: all(c.colour == red for c in hand of p)
  reds():
    text: the red chips in the middle
    value: count(c in middle where c.colour == red)
  top_chip():
    text: the top chip
    value: first(c in middle ordered by c.value descending)
  lead_colour():
    text: the colour to lead
    value: colour[(round - 1) % 2 + 1]
  favourite(role p):
    text: "{p}'s favourite colour"
    value: colour[(won of p - 1) % 2 + 1]
  best():
    text: the best chip
    value: first(c in middle where c.colour == red ordered by c.value descending)
setup: |
  move box to pool
modes:
  play:
    round:
      - step: Start
        do: |
          take first p in players where exists c in hand of p where c.colour == blue and c.shade == light:
            won of p += 1
          for p in players where lead_colour() == favourite(p) or exists c in middle where special(c) or c.shade == dark:
            won of p += 1
          if top_chip().colour == blue:
            won of current += 1
          if reds() < won of current or size(middle) < 2:
            won of current += 1
          if all_red(current) or any(c.value > 1 for c in middle):
            won of current += 1
          if exists c in middle where odd(c):
            won of current += 1
          won of left_of(left_of(current)) += 1
          won of right_of(right_of(right_of(current))) += 1
          won of left_of(right_of(current)) += 1
      - step: Pick
        do: |
          for p in players:
            p chooses c in hand of p where may_play(p, c) as pick:
              move c to middle
              c.by = p
          if exists c in middle where c.colour == red:
            let w = best().by
            won of w += 1
          move middle to pool
          if round == 2:
            end game as done
    score: won
"""


def md(text: str) -> str:
    return to_markdown([summary(load_text(text, "tokens.yaml"))]).replace("\\\\", "")


def test_a_condition_that_says_no_thing_is_negated_as_some_thing():
    # was: "No chip has not been played or …" (Hearts: "No trick has not been taken this hand")
    text = md(GAME)
    assert "a chip has been played or the value of the chip card is 1" in text and "has not been" not in text


def test_the_first_thing_found_by_its_own_conditions_and_its_order_says_both_as_one():
    # was: "the chip in the middle whose colour is red whose value is the highest"
    assert "the chip card in the middle whose colour is red and whose value is the highest" in md(GAME)


def test_one_card_is_named_by_its_label():
    # was: "the colour of the chip card is red and its shade is dark" (Hearts: "the suit of the playing card is
    # spades and its rank is queen", for "the queen of spades")
    text = md(GAME)
    assert "- **a chip card is special**: the chip card is the dark red.\n" in text
    assert "there is a chip card in the middle whose shade is dark" not in text  # one field: not one card
    # was: "The first player that has a chip card whose colour is blue and whose shade is light …": a card is in one
    # hand, so no player is the first of several
    assert "For the player that has the light blue: add 1" in text and "first player" not in text


def test_a_kinds_values_taken_in_turn_are_said_in_turn():
    # was: "the direction numbered ((the round number − 1) mod 4 + 1) (1 left, 2 right, 3 across, 4 keep)"
    text = md(GAME)
    assert "- **the colour to lead**: the colour of the round (red in round 1 and blue in round 2, then again in " \
           "that order).\n" in text
    assert "the colour for the player's *chips won* (red when it is 1 and blue when it is 2, then again in that order)" in text
    assert "colour numbered" not in text and " mod " not in text


def test_the_player_to_the_left_of_the_player_to_the_left_is_the_second_to_the_left():
    # was: "the player to the left of the player to the left of the player" (Hearts: passing across)
    text = md(GAME)
    assert "Add 1 to the *chips won* of the second player to the left of the current player." in text
    assert "the third player to the right of the current player" in text
    assert "the player to the left of the player to the right of the current player" in text  # not one way round


def test_a_listed_condition_that_lists_in_its_turn_ends_with_a_colon():
    # was: "- At least one of the following holds." over its own bullets (Hearts: "a player may play a playing card")
    text = md(GAME)
    assert "- **a chip card is odd**: all of the following hold:\n    - At least one of the following holds:\n" in text, text
    assert "of the following holds.\n" not in text and "of the following hold.\n" not in text


def test_a_field_of_every_thing_is_said_of_every_thing():
    # was: "for every playing card in the player's hand, the suit of that playing card is hearts"
    text = md(GAME)
    assert "- **a player holds only red**: the colour of every chip card in the player's hand is red.\n" in text
    assert "If the current player holds only red or the value of at least one chip card in the middle is more " \
           "than 1:" in text


def test_things_counted_are_fewer_not_less():
    # was: "If the dice on the table showing *bid face* are less than *bid count*" (Liar's Dice)
    text = md(GAME)
    assert "If the red chips in the middle are fewer than the current player's *chips won* or" in text


def test_no_tie_is_broken_where_no_two_things_can_tie():
    # was: "… whose suit is the suit led and whose value is the highest (the left-most of them, if several)": in one
    # suit no two cards have one value
    text = md(GAME)
    assert "- **the best chip**: the chip card in the middle whose colour is red and whose value is the highest.\n" in text
    # a light red and a light blue have one value: which is taken is said
    assert "- **the top chip**: the chip card in the middle whose value is the highest (the left-most of them, if " \
           "several).\n" in text


def test_a_ranking_by_a_value_of_one_when_a_condition_holds_names_the_players_it_holds_for():
    # was (The Gauntlet): "the player with the highest arrival (1 at the end of the track, 0 short of it) wins"
    game = GAME.replace("define:\n", """define:
  ahead(role p):
    text: "{p}'s lead (1 when holding a red chip, else 0)"
    value: 1 if exists c in hand of p where c.colour == red else 0
  behind(role p):
    text: "{p}'s lag"
    value: 0 if all_red(p) else 1
""").replace("    score: won\n", "    score: won\n    ranking:\n      - highest: ahead\n      - lowest: behind\n"
                                                "      - highest: won\n")
    text = md(game)
    assert "the player who has a chip card whose colour is red wins; ties go to the one who holds only red, " \
           "then the one with the highest *chips won*" in text, text[text.index("When the game ends"):][:300]


def test_of_several_things_chosen_what_is_said_of_one_alone_follows_its_noun():
    # was "chooses a chip card in … and a player such that that player may play that chip card, that player is not
    # … and …" (Three Men's Morris: "a man on the board and a space of the board such that that man is yours, …")
    game = GAME.replace("p chooses c in hand of p where may_play(p, c) as pick:",
                        "p chooses c in hand of p, q in players where may_play(p, c) and q != p and c.value > won of q"
                        " as pick:")
    assert "chooses a chip card in that player's hand that that player may play and a player other than that player " \
           "such that its value is more than the other player's *chips won*, then" in md(game)


def test_a_player_s_zone_named_in_the_plural_is_what_the_player_has():
    # were "if that player's chips taken are not empty", "every player's chips taken are empty"
    game = GAME.replace("  middle: {kind: row, text: the middle}\n",
                        "  middle: {kind: row, text: the middle}\n  taken: {owner: each, text: chips taken}\n") \
        .replace("          move middle to pool\n", "          for p in players where not empty(taken of p):\n"
                                                   "            won of p += 1\n"
                                                   "          if all(empty(taken of q) for q in players):\n"
                                                   "            move middle to pool\n")
    text = md(game)
    assert "For every player that has chips taken: add 1 to that player's *chips won*." in text
    assert "If no player has chips taken: move all cards in the middle to the pool." in text


TURNS = """
game: turns
players: {count: 2..3}
vars:
  score: {initial: 0, owner: each}
procedures:
  turn(role p):
    text: "{p} takes a turn"
    do: |
      roll d6 into x
      score of p += x
modes:
  play:
    round:
      - step: Turns
        do: |
          for p in players:
            turn(p)
      - step: End
        do: |
          if round == 3:
            end game as done
    score: score
"""


def test_a_step_that_is_each_player_s_turn_says_the_turn_under_it():
    # was "For every player: that player takes a turn." and the turn under Terms, away from the round
    text = md(TURNS)
    turns = text[text.index("#### Step 1"):text.index("#### Step 2")]
    assert "For every player, they take a turn:" in turns and "Add X to that player's *score*." in turns
    assert "takes a turn**" not in text  # not under Terms too
    twice = md(TURNS.replace("          if round == 3:\n", "          turn(current)\n          if round == 3:\n"))
    assert "For every player: that player takes a turn." in twice and "**a player takes a turn**" in twice


def test_what_is_done_with_a_choice_is_one_sentence_even_where_its_words_hold_a_colon():
    # was "…, then:" and a list of one item starting in lower case, "- places that chip card: it goes …"
    game = GAME.replace("setup: |\n", """procedures:
  lay_down(role p, chip c):
    text: "{p} places {c}: it goes to the middle"
    do: |
      move c to middle
setup: |
""", 1).replace("""            p chooses c in hand of p where may_play(p, c) as pick:
              move c to middle
              c.by = p""", """            p chooses c in hand of p where may_play(p, c) as pick:
              lay_down(p, c)""")
    assert "that they may play, then places it: it goes to the middle." in md(game)


def test_a_count_compared_with_a_number_is_said_as_there_being_so_many():
    # were "If the number of players whose *won* is more than 0 is 0", "… is less than 2" and so on
    game = GAME.replace("          move middle to pool\n", """          if count(q in players where won of q > 0) == 1:
            won of current += 1
          if count(q in players where won of q > 0) != 1:
            won of current += 2
          if count(q in players where won of q > 0) == 0:
            won of current += 3
          if not (count(q in players where won of q > 2) >= 2):
            won of current += 4
          move middle to pool
""")
    text = md(game)
    for said in ("If there is only one player whose *chips won* are more than 0: add 1",
                 "If there is not exactly one player whose *chips won* are more than 0: add 2",
                 "If there is no player whose *chips won* are more than 0: add 3",
                 "If there are fewer than 2 players whose *chips won* are more than 2: add 4"):
        assert said in text, said


def test_a_repeat_counted_by_cases_says_each_count_with_its_case():
    # was "Repeat as many times as (3 if there are 2 players; otherwise 2)"
    game = GAME.replace("          move middle to pool\n", "          repeat (3 if size(players) == 2 else 2) times:\n"
                                                         "            won of current += 1\n"
                                                         "          move middle to pool\n")
    assert "Repeat 3 times if there are 2 players, otherwise twice: add 1 to the current player's *chips won*." in md(game)


def test_the_largest_of_a_value_over_things_says_the_thing_as_any():
    # was "the largest, for every player, of the number of cards in their hand"
    game = GAME.replace("          move middle to pool\n", """          if max(size(hand of q) for q in players) > 3:
            won of current += 1
          if min(c.value for c in middle) == 1:
            won of current += 2
          if max(count(c in hand of q where c.value > 1) for q in players where won of q > 0) > 1:
            won of current += 3
          move middle to pool
""")
    text = md(game)
    assert "If the largest number of cards in any player's hand is more than 3: add 1" in text
    assert "If the smallest value of the chip cards in the middle is 1: add 2" in text  # (said of the chips themselves)
    assert "any player whose" not in text and "any player that" not in text  # things with conditions are not "any"


def test_things_counted_whose_condition_is_no_relative_clause_follow_such_that():
    # was "the number of players such that the value of the top card of their hand is 2 is 1"
    game = GAME.replace("          move middle to pool\n", """          if count(q in players where top(hand of q).value == 2) == 1:
            won of current += 1
          move middle to pool
""")
    assert "If there is only one player such that the value of the top card of their hand is 2: add 1" in md(game)


def test_a_value_looked_up_by_one_subject_is_said_as_its_cases():
    # were "0 if N is 0; otherwise 1 if N is 1; otherwise 3 if N is 2; …" and "the number of a colour colours …"
    game = GAME.replace("define:\n", """define:
  bonus(number n):
    text: "the bonus for {n} chips"
    value: 0 if n == 0 else (1 if n == 1 else (3 if n == 2 else 6))
  shown(role p, colour k):
    text: "the number of {k} colours in {p}'s hand"
    value: count(c in hand of p where c.colour == k)
""").replace("          move middle to pool\n", """          won of current += bonus(shown(current, red))
          move middle to pool
""")
    text = md(game)
    assert "- **the bonus for N chips**, depending on N:\n    - 0: 0.\n    - 1: 1.\n    - 2: 3.\n    - Otherwise: 6." in text
    assert "**the number of K colours in a player's hand**: " in text and "whose colour is K" in text


def test_a_player_said_as_you_inside_a_text_agrees_with_its_verb():
    # was "Note the number of discs you encloses …": only a text's first slot agreed ("{p} has": "you have")
    from test_language import tiny
    text = tiny("if counted(solo, 2) > 1 and gives(solo):\n  win solo").replace("setup: |", """define:
  counted(role p, number k):
    text: "the number of chips {p} holds above {k}"
    value: count(c in pile where c.value > k)
  gives(role p):
    text: "the pile gives {p} chips"
    value: size(pile) > 2
setup: |""")
    printed = to_markdown([summary(load_text(text, "tiny.yaml"))])
    assert "the number of chips you hold above 2" in printed and "the pile gives you chips" in printed
