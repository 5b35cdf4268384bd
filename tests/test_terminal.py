"""Playing in the terminal as a person."""
import pytest
from helpers import game_for, rulelang

from interpreter.agents.base import PlayerView
from interpreter.agents.terminal import HumanAgent, Quit
from interpreter.engine.view import Viewer


def test_help_bad_input_and_quit():
    r = rulelang("play", "twenty-trials", "--seed", "1", input="?\nseven\n99\nb\nq\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "You play the Challenger" in out and "== Round 1" in out
    assert "Hand (the Challenger)" in out and "Trial Deck" in out and "face down" in out
    assert "a number   choose that option" in out  # the help
    assert out.count("please type a number from 1 to") == 2  # 'seven' and '99' asked again
    assert "You left the game." in out and "Traceback" not in r.stderr


def test_end_of_input_leaves_cleanly():
    r = rulelang("play", "twenty-trials", input="")
    assert r.returncode == 0 and "You left the game." in r.stdout


def test_a_whole_game_through_the_terminal():
    r = rulelang("play", "twenty-trials", "--seed", "2", input="1\n" * 200)
    assert r.returncode == 0, r.stderr
    assert "Game over: " in r.stdout and "  you: " in r.stdout


def test_save_from_the_prompt_and_resume(tmp_path):
    path = tmp_path / "saved.json"
    r = rulelang("play", "twenty-trials", "--seed", "5", input=f"1\ns {path}\nq\n")
    assert "saved to" in r.stdout and path.exists()
    again = rulelang("play", "twenty-trials", "--resume", str(path), input="1\n" * 200)
    assert "Game over" in again.stdout


def test_ctrl_c_at_the_prompt_quits():
    game = game_for()
    st = game.new_state(0)

    def ask(prompt):
        raise KeyboardInterrupt

    agent = HumanAgent({}, ask=ask, say=lambda text: None)
    with pytest.raises(Quit):
        agent.choose(PlayerView(game, Viewer(game), st))


def test_gobbots_board_drawn_as_a_grid():
    r = rulelang("play", "gauntlet-gobbots", "--seed", "1", input="1\n1\nq\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "The Gauntlet" in out and "Command board" in out
    assert "+-----" in out and "| soldier 1" in out and "| Thrust 1, Move 1" in out
    assert "  1) Thrust 1, Move 1 at 1,3" in out
    assert "damage 1" in out  # the Thrust's damage token shows on the Gobbot it hit
    # what changed since the last choice, card by card
    assert "Cards since your last choice:" in out and "sergeant  Supply of Sergeants → Command board 1,3" in out
    assert "soldier 1        The Gauntlet 1,1 → The Gauntlet 1,2" in out


def test_a_whole_gobbots_game_through_the_terminal():
    r = rulelang("play", "gauntlet-gobbots", "--seed", "4", input="1\n" * 300)
    assert r.returncode == 0, r.stderr
    assert "Game over: " in r.stdout and "  you: " in r.stdout


@pytest.mark.parametrize("mode, role, shown", [
    ("trialmaster", "trialmaster", "Trialmaster's hand  "),
    ("moderator", "moderator", "Chamber"),
    ("versus", "challenger", "Hand (the Challenger)"),
    ("versus", "trialmaster", "Trialmaster's hand  "),
])
def test_every_mode_is_playable_in_the_terminal(mode, role, shown):
    r = rulelang("play", "twenty-trials", "--mode", mode, "--as", role, "--seed", "3", input="1\n" * 3000)
    assert r.returncode == 0, r.stderr
    assert f"You play the {role.capitalize()}" in r.stdout and shown in r.stdout and "Game over: " in r.stdout


def test_the_race_track_drawn_with_its_cubes_and_each_plan_shown_to_its_owner_only():
    r = rulelang("play", "gauntlet-race", "--set", "players=4", "--as", "red", "--seed", "3",
                 input="1\n" * 6 + "q\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    # the map: arrows, brick and lumber as drawn; four cubes on the start are too many letters for a space
    assert "  6 Srb+ .    B    .    .    L    .    B    .    .    <" in out
    assert "1,6 holds r b y g" in out and "< arrow west" in out and "r red cube" in out
    assert "          life  knocked out" in out and "  you     3     0" in out  # life points, a row per player
    # red's plan by name; the others' only as a count, until revealed
    assert "Plan           you: shield 1 · brick 1 · lumber 2   green: 3 cards, face down" in out
    assert "you: brick 1 · lumber 2   blue: 2 cards, face down   yellow: 2 cards, face down   green: 2 cards" in out


# ---------------------------------------------------------------- what a person is told (issue 33)

DUEL = """
game: duel
title: Duel
players: 3
cards:
  coin:
    fields: {value: 1..5}
    label: "coin {value}"
    table: |
      value
      1
      2
      3
      4
      5
zones:
  pile: {facing: down}
  purse: {owner: each, seen_by: owner, kind: hand}
  table: {kind: row}
vars:
  life: {initial: 2, owner: each, min: 0, max: 2, text: life}
setup: |
  move box to pile
  shuffle pile
modes:
  duel:
    round:
      - step: Draw
        do: |
          for p in players where in_game(p):
            draw 1 from pile to purse of p
          if empty(pile):
            end game as pile_empty
      - step: Bid
        do: |
          for p in players where in_game(p):
            p chooses n in [1, 2, 5] as bid:
              if n == 5:
                life of p -= 1
            p chooses c in purse of p as spend:
              move c to table
            if life of p == 0:
              eliminate p as bankrupt
          if count(p in players where in_game(p)) == 1:
            end game as last_one_standing
          p_only_choice()
    score: life
procedures:
  p_only_choice(): |
    for p in players where in_game(p):
      p chooses go:
        on:
          pass
"""


def test_the_others_choices_forced_draws_knock_outs_and_the_ending_are_shown(tmp_path):
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL)
    # player_1 bids 5 twice: bankrupt, out of the game; the others bid at random and play on
    r = rulelang("play", str(path), "--seed", "3", "--as", "player_2", input="5\ncoin\n" * 10)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "Since your last choice:" in out
    assert "player 1 chose bid: " in out and "player 3 chose spend: coin " in out  # a coin played face up: named
    assert "now in Purse (you)" in out or "now in Purse" in out  # the card you were dealt
    assert "player 2, go: on (the only option)" in out  # a decision of one option is said, not asked
    assert "Game over: " in out and "  you: " in out and "place" in out


def test_a_knock_out_between_two_choices_is_told_with_its_reason():
    from interpreter.agents.telling import render_events
    before = {"out": []}
    after = {"events": [{"type": "decision", "role": "east", "label": "bid", "option": "5"}],
             "out": ["east"], "out_reasons": {"east": "bankrupt"}}
    text = render_events(before, after, "north")
    assert text.splitlines() == ["  Since your last choice:", "    east chose bid: 5",
                                 "    east is out of the game (bankrupt)"]


def test_options_that_are_numbers_are_typed_by_their_value():
    from interpreter.agents.terminal import answer_of
    columns = ["1", "2", "3", "5", "6", "7"]  # column 4 is full
    assert answer_of("5", columns) == 3  # the column, not the fifth option
    assert answer_of("4", columns) is None
    words = ["hit", "stand", "double"]
    assert answer_of("2", words) == 1 and answer_of("Stand", words) == 1 and answer_of("do", words) == 2
    assert answer_of("s", words) is None  # one letter is not enough to begin a word
    assert answer_of("st", ["stand", "stay"]).startswith("which one?")
    assert answer_of("ace_of_spades", ["ace of spades", "two of clubs"]) == 0


def test_a_menu_of_one_option_is_logged_as_a_decision_but_not_asked():
    from interpreter.engine.game import Game
    from interpreter.engine.logs import GameLog, header
    from rulelang import load_text
    import io
    game = Game(load_text(DUEL, "duel.yaml"), history=True)
    st = game.new_state(3)
    asked = []
    agent = HumanAgent({}, ask=lambda prompt: asked.append(prompt) or "1", say=lambda text: None)
    out = io.StringIO()
    log = GameLog(out, header(game.ruleset, None, "duel", 3, {}))
    while st.outcome is None:
        view = PlayerView(game, Viewer(game), st)
        before = len(asked)
        index = agent.choose(view)
        assert (len(asked) == before) == (view.count == 1)
        log.decision(game, view.viewer, st, index)
        game.apply(st, index)
    assert '"label": "go"' in out.getvalue()  # in the log, to be replayed


def test_a_player_is_told_of_zones_by_their_owners_names_not_role_ids():
    r = rulelang("play", "tests/printing/goofspiel.yaml", "--seed", "1", input="1\n" * 3 + "q\n")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "revealed: your bid: " in out and "revealed: player 2's bid: " in out
    assert "(was in Hand (you))" in out and "→ Prizes won (player 2)" in out
    assert "player_" not in out


def test_a_zone_of_one_role_names_its_owner_unless_its_title_does_as_a_word():
    from cli.games import zone_title
    from rulelang import load_text
    rs = load_text("""game: titles
roles: [red, trialmaster]
zones:
  shreds: {owner: red, text: shredder pile}
  mine: {owner: trialmaster, text: Trialmaster's hand}
setup: |
  pass
modes:
  m:
    round:
      - step: S
        do: |
          end game as done
""", "titles.yaml")
    assert zone_title(rs.zones["shreds"], rs) == "Shredder pile (Red)"  # "red" inside "shredder" is no name
    assert zone_title(rs.zones["mine"], rs) == "Trialmaster's hand"
