"""Rules a rulebook states in words that the printer said as formulas or bookkeeping (session of 2026-11-28,
night): two conditions that hold together, "there is no … such that there is …", a repeated move of the first
of a pile, a loop over players around a loop over their things. Each is checked on a small game, so that the
kind of rule is fixed, not one game's sentence."""
from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

GAME = """
language: 2
game: pegs
title: Pegs
players: {count: 2, names: [white, black]}
types:
  colour: [white, black]
  shade: [pale, mid, deep]
params:
  flipped: {default: false, text: play with the pegs flipped}
cards:
  peg:
    component: pawn
    fields: {colour: colour, shade: shade, tall: bool}
    label: "{shade} {colour} peg"
    table: |
      colour  shade  tall  count
      white   pale   yes   2
      black   deep   no    2
zones:
  board: {kind: grid, columns: 3, rows: 3, holds: [peg], text: the board}
  supply: {owner: each, holds: [peg], text: pegs to place}
define:
  mine(role p, peg m):
    text: "{m} is {p}'s"
    value: (m.colour == white) == (p == white)
  pale_unless(role p, peg m):
    text: "{m} suits {p}"
    value: (m.shade == pale) != (p == black)
  upright(peg m):
    text: "{m} stands upright"
    value: m.tall == flipped
setup: |
  for p in players:
    move all m in box where mine(p, m) to supply of p
modes:
  game:
    turns: {steps: [Place]}
    round:
      - step: Place
        do: |
          if not empty(supply of current):
            current chooses s in spaces(board) where empty(s) as place:
              move top(supply of current) to s
          if round == 4 or exists m in board where pale_unless(current, m) and upright(m):
            end game as done
    score: {white: 0, black: 0}
"""


def md(text: str = GAME) -> str:
    return to_markdown([summary(load_text(text, "pegs.yaml"))]).replace("\\\\", "")


def test_two_conditions_that_hold_together_are_said_as_one_if_the_other():
    # was "the colour of the peg is white exactly when the player is White": a formula, not a rule
    text = md()
    assert "- **a peg is a player's**: the colour of the peg is white if the player is White, and black " \
           "otherwise.\n" in text  # one of two values: the other one, not "not white"
    assert "- **a peg suits a player**: the shade of the peg is pale if the player is White, and not pale " \
           "otherwise.\n" in text  # one of three: "not pale"; `!=`: the other condition turned round
    assert "- **a peg stands upright**: the peg is tall if the *flipped* option is on, and not tall otherwise.\n" \
           in text
    assert "exactly when" not in text


def test_no_things_of_two_groups_are_one_sentence_with_one_such_that():
    # was "There is no man on the board such that that man is yours and there is a space of the board such that
    # that space is empty and …" (Three Men's Morris): a formula read aloud
    game = GAME.replace("          if round == 4 or", """          if not exists m in board, s in spaces(board) where mine(current, m) and empty(s) and column(s) == column(m):
            end game as stuck
          if round == 4 or""")
    text = md(game)
    assert "If there is no peg on the board that is yours with a space of the board that is empty such that that " \
           "space is in the same column as that peg: the game ends." in text, text
    assert "such that that peg" not in text and "there is a space" not in text


def test_things_among_a_list_named_by_their_noun_are_in_its_place():
    # was "two action cards among the action cards in the Chamber" (Twenty Trials): the noun said twice
    game = GAME.replace("define:\n", 'define:\n  pegs_down(): "[m for m in board]"\n', 1) \
        .replace("          if round == 4 or", """          if exists a, b in pegs_down() where a.shade != b.shade:
            end game as mixed
          if round == 4 or""")
    text = md(game)
    assert "If there are two pegs on the board such that" in text, text
    assert "among the pegs" not in text


def test_the_first_card_of_a_place_without_order_moved_again_and_again_is_so_many_cards_moved():
    # was "Repeat twice: move the first pawn in the box to that player's yard." (Ludo Lite) and "Repeat as many
    # times as …: move the first enemy in the box whose kind is normal to …" (16-7)
    game = GAME.replace("""    move all m in box where mine(p, m) to supply of p
""", """    repeat 2 times:
      move first(m in box) to supply of p
    repeat (1 if flipped else 0) + size(players) times:
      move first(m in box where m.shade == deep) to supply of p
    repeat 2 times:
      move first(m in box where size(supply of p) < 2) to supply of p
""")
    text = md(game)
    assert "- Move two pegs from the box to that player's pegs to place.\n" in text
    assert "- Move pegs whose shade is deep from the box to that player's pegs to place, as many as " in text
    assert "- Repeat twice: move the first peg in the box " in text  # the condition changes as pegs move


def test_a_value_named_by_what_befell_it_is_said_with_its_noun():
    # was "Add 1 to your *won*" for `won: {text: chips won}`, "*drawn*" for "cards drawn this game", "*shards*"
    # for "Token Shards"; a name that is a noun keeps its words ("*bet*", "chips bet on this hand")
    game = GAME.replace("define:\n", """vars:
  won: {initial: 0, owner: each, text: chips won}
  drawn: {initial: 0, owner: each, text: pegs drawn this game}
  shards: {initial: 0, owner: each, text: Token Shards}
  bet: {initial: 0, owner: each, text: chips bet on this hand}
define:
""", 1).replace("          if round == 4 or", """          won of current += 1
          drawn of current += 1
          shards of current += bet of current
          if won of current > drawn of current + shards of current + bet of current:
            end game as ahead
          if round == 4 or""")
    text = md(game)
    assert "- Add 1 to your *chips won*.\n- Add 1 to your *pegs drawn*.\n- Add your *bet* to your *Token Shards*." \
        in text, text
    assert "- Each player's *pegs drawn* this game: 0 at the start.\n" in text
    assert "- Each player's *bet* (chips bet on this hand): 0 at the start.\n" in text


def test_things_named_in_the_plural_and_a_list_noted_under_a_word_are_said_as_there_being_such_things():
    # were "If *through* are not empty", "Repeat until the number of players in *left* is at most 1", "For every
    # player among *left*", "*through* starts empty" (16-7), "If the enemies in combat are not empty" (Hand of Fate)
    game = GAME.replace("  supply: {owner: each, holds: [peg], text: pegs to place}\n",
                        "  supply: {owner: each, holds: [peg], text: pegs to place}\n"
                        "  lost: {holds: [peg], text: the pegs taken}\n") \
        .replace("          if round == 4 or", """          let left = [q for q in players where not empty(supply of q)]
          let through = []
          while size(left) > 1:
            left = [q for q in left where q != current]
            through = [q for q in left]
          if not empty(through) and empty(lost):
            end game as through
          if round == 4 or""")
    text = md(game)
    for said in ("Note the players that have pegs to place as the players *left*.",
                 "There are no players *through* yet.",
                 "Repeat until there is at most one player *left*:",
                 "Set the players *left* to the players *left* that are not you.",
                 "Set the players *through* to the players *left*.",
                 "If there are players *through* and there are no pegs taken: the game ends."):
        assert said in text, said
    assert "among *left*" not in text and "*through* are" not in text


def test_a_count_given_by_cases_says_each_count_with_its_case():
    # was "Roll (3 if there are 2 players; otherwise 2) dice (d6)"; a draw's and a repeat's of two cases were
    # said so already, of three they were not
    game = GAME.replace("  supply: {owner: each, holds: [peg], text: pegs to place}\n",
                        "  supply: {owner: each, holds: [peg], text: pegs to place}\n  spare: {holds: [peg]}\n") \
        .replace("          if round == 4 or", """          roll (3 if flipped else 2) d6 into xs
          roll (3 if round == 1 else 2 if round == 2 else 1) d6 into ys
          draw (2 if round == 1 else 1 if round == 2 else 0) from spare to supply of current
          repeat (3 if round == 1 else 2 if round == 2 else 1) times:
            draw 1 from spare to supply of current
          if sum(xs) + sum(ys) > 12 or""")
    text = md(game)
    for said in ("Roll three dice (d6) if the *flipped* option is on, otherwise two; call the result *xs*.",
                 "Roll three dice (d6) if the round number is 1, two if the round number is 2, otherwise one; call "
                 "the result *ys*.",
                 "Draw 2 pegs from the spare to your pegs to place if the round number is 1; 1 if the round number "
                 "is 2; otherwise 0 (fewer if the spare runs out).",
                 "Repeat 3 times if the round number is 1, twice if the round number is 2, otherwise once: draw a "
                 "peg from the spare to your pegs to place."):
        assert said in text, said


def test_the_first_player_found_is_first_in_seat_order_and_is_not_taken():
    # was "Take the first player that has pegs to place, then move …": first by what order, and a player is no card
    game = GAME.replace("          if round == 4 or", """          take first q in players where not empty(supply of q):
            move top(supply of q) to space(board, 1, 1)
          let w = first(q in players where empty(supply of q))
          move top(supply of w) to space(board, 2, 1)
          if round == 4 or""")
    text = md(game)
    assert "- For the first player in seat order that has pegs to place: move the top peg of that player's pegs to " \
           "place to the bottom space of the board in column 1.\n" in text
    assert "Move the top peg of the pegs to place of the first player in seat order that has no pegs to place to " in text
    assert "Take the first player" not in text
