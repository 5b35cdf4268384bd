"""What games written from the docs alone (tests/printing/: Kalah, Memory, No Thanks!, Go Fish) printed
that a player would trip on, checked on a small sowing game (Kalah cut down) and on their golden files:
pieces that are not cards, a graph's links, predicates that begin like a switch, the opponent at a
table of two, a loop that only tests each thing. Each line asserted was printed otherwise before."""
from pathlib import Path

from generators.markdown import to_markdown
from generators.summary import summary
from rulelang import load_text

HERE = Path(__file__).resolve().parent

SOWING = """
language: 2
game: sowing
title: Sowing
players: {count: 2, names: [south, north]}
types:
  side: [south, north]
cards:
  seed: {component: token, print: false, table: "count\\n12"}
zones:
  in_hand: {holds: [seed], text: the seeds being sown}
  board:
    kind: graph
    holds: [seed]
    text: the board
    marks: {side: side}
    places: {s1: {side: south}, s2: {side: south}, n1: {side: north}, n2: {side: north}}
    links: s1 -> s2 -> n1 -> n2 -> s1
vars:
  mover: {type: role, initial: south, text: the player to move}
define:
  mine(role p, zone s):
    text: "{s} is on {p}'s side"
    value: (s.side == south) == (p == south)
setup: |
  for s in spaces(board):
    repeat 3 times:
      move top(box) to s
modes:
  game:
    round:
      - step: Sow
        do: |
          mover chooses s in spaces(board) where mine(mover, s) and not empty(s) as sow:
            move all x in s to in_hand
            let here = s
            while not empty(in_hand):
              here = first(t in neighbours(here))
              move top(in_hand) to here
            if size(here) == 1 and not mine(mover, here):
              end game as captured
            mover = left_of(mover)
    score: {south: 0, north: 0}
"""


def printed() -> str:
    return to_markdown([summary(load_text(SOWING, "sowing.yaml"))]).replace("\\", "")


def test_a_predicate_that_begins_with_is_on_is_negated_as_not_on_not_as_a_switch_off():
    text = printed()
    assert "*here* is not on the side of the player to move" in text  # was "is off the side of"


def test_a_space_holds_the_pieces_its_board_holds_not_cards():
    assert "*here* holds exactly 1 seed" in printed()  # was "holds exactly 1 card"


def test_a_piece_type_with_nothing_to_say_gets_no_empty_heading():
    text = printed()
    assert "12 seed tokens." in text
    assert "### Seeds" not in text  # was a heading with nothing under it


def test_a_graph_board_prints_its_links_so_players_can_set_it_out():
    text = printed()
    assert "| The board | seeds | 4 places joined as below |" in text  # was "graph" (every zone lies face up: no column for it)
    assert "The board: s1 → s2 → n1 → n2 → s1." in text  # a cycle reads round


def test_links_both_ways_and_one_way_read_as_chains_in_the_order_listed():
    two_way = SOWING.replace("links: s1 -> s2 -> n1 -> n2 -> s1", 'links: "s1 - s2 - n1\\nn2 -> s2\\nn1 -> n2"')
    text = to_markdown([summary(load_text(two_way, "ways.yaml"))]).replace("\\", "")
    assert "The board: s1 — s2 — n1; n1 → n2 → s2." in text


def test_at_a_table_of_two_the_player_to_the_left_is_the_opponent():
    text = printed()
    assert "The opponent of the player to move becomes the player to move." in text  # was "The player to the left of"
    three = SOWING.replace("players: {count: 2, names: [south, north]}", "players: {count: 2..3, names: [south, north, east]}")
    assert "The player to the left of the player to move becomes" in to_markdown([summary(load_text(three, "t.yaml"))])


def test_a_loop_that_only_tests_each_thing_says_the_test_with_the_things():
    filtered = SOWING.replace("  for s in spaces(board):\n    repeat 3 times:\n      move top(box) to s",
                              "  for s in spaces(board):\n    if s.side == south:\n      repeat 3 times:\n"
                              "        move top(box) to s")
    assert filtered != SOWING
    text = to_markdown([summary(load_text(filtered, "f.yaml"))]).replace("\\", "")
    assert "For every space of the board whose side is south:" in text  # was "For every space …: If the side of …"
    changing = filtered.replace("if s.side == south:", "if empty(s):")  # a test the body changes: kept apart
    text = to_markdown([summary(load_text(changing, "c.yaml"))]).replace("\\", "")
    assert "For every space of the board:" in text and "If that space is empty" in text


def test_a_quotation_ending_in_its_own_punctuation_takes_no_full_stop_and_a_participle_no_s():
    text = (HERE / "golden" / "go-fish-game.md").read_text(encoding="utf-8")
    assert "Say aloud: “Go fish!”\n" in text  # was "“Go fish!”."
    assert "If the hand of the player asking is empty:" in text  # was "the player asking's hand"


def test_an_options_range_is_said_as_a_player_says_it():
    text = (HERE / "golden" / "gauntlet-race.md").read_text(encoding="utf-8")
    assert "| *turn limit* | 10 to 100,000 | 1000 |" in text  # was "10..100000", the ruleset's own notation


def test_a_count_that_depends_on_a_condition_and_the_number_of_players_read_plainly():
    text = (HERE / "golden" / "go-fish-game.md").read_text(encoding="utf-8")
    # was "Draw playing cards …, as many as (7 if the number of players is 2; otherwise 5)"
    assert "Draw 7 playing cards from the stock to that player's hand if there are 2 players; otherwise 5" in text
    assert "- **a player is alone at the table**: there is only one player." in \
        (HERE / "golden" / "blackjack.md").read_text(encoding="utf-8")  # was "the number of players is 1"


def test_a_board_of_ten_thousand_places_prints_its_links_in_one_pass():
    from generators.summary import graph_lines
    from rulelang import ir
    n = 10_000  # the most a board may have (rulelang/limits.py); its links were once searched again per link
    z = ir.Zone("board", kind="graph", places=tuple(f"p{i}" for i in range(n)),
                links=tuple((i, (i + 1) % n) for i in range(n)) + ((5, 3),))
    lines = graph_lines(z)
    assert len(lines) == 2 and lines[0].startswith("p0 → p1 → p2") and lines[0].endswith("p9999 → p0")
    assert lines[1] == "p5 → p3"


def test_a_space_that_holds_a_thing_is_said_so_not_there_is_a_thing_in_that_space():
    game = SOWING.replace("mover chooses s in spaces(board) where mine(mover, s) and not empty(s) as sow:",
                          "mover chooses s in spaces(board) where mine(mover, s) and exists x in s as sow:").replace("            mover = left_of(mover)\n",
                                              "            if not exists x in here:\n"
                                              "              mover = left_of(mover)\n")
    text = to_markdown([summary(load_text(game, "sowing.yaml"))]).replace("\\", "")
    # was "a space of the board such that … and there is a seed in that space"
    i = text.index("Step 1")
    assert "a space of the board that is on the side of the player to move and that holds a seed, then" in text, \
        text[i:i + 900]
    assert "If *here* holds no seed:" in text, text[i:i + 900]  # was "does not hold a seed"
