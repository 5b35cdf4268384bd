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
    assert "You play the challenger" in out and "== Round 1" in out
    assert "Hand (challenger)" in out and "Trial Deck" in out and "face down" in out
    assert "a number   choose that option" in out  # the help
    assert out.count("please type a number from 1 to") == 2  # 'seven' and '99' asked again
    assert "You left the game." in out and "Traceback" not in r.stderr


def test_end_of_input_leaves_cleanly():
    r = rulelang("play", "twenty-trials", input="")
    assert r.returncode == 0 and "You left the game." in r.stdout


def test_a_whole_game_through_the_terminal():
    r = rulelang("play", "twenty-trials", "--seed", "2", input="1\n" * 200)
    assert r.returncode == 0, r.stderr
    assert "Game over: challenger " in r.stdout


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
    assert "Since your last choice:" in out and "sergeant  Sergeants → Command board 1,3" in out
    assert "soldier 1        The Gauntlet 1,1 → The Gauntlet 1,2" in out


def test_a_whole_gobbots_game_through_the_terminal():
    r = rulelang("play", "gauntlet-gobbots", "--seed", "4", input="1\n" * 300)
    assert r.returncode == 0, r.stderr
    assert "Game over: commander " in r.stdout


@pytest.mark.parametrize("mode, role, shown", [
    ("trialmaster", "trialmaster", "Trialmaster's hand (trialmaster)"),
    ("moderator", "moderator", "Chamber"),
    ("versus", "challenger", "Hand (challenger)"),
    ("versus", "trialmaster", "Trialmaster's hand (trialmaster)"),
])
def test_every_mode_is_playable_in_the_terminal(mode, role, shown):
    r = rulelang("play", "twenty-trials", "--mode", mode, "--as", role, "--seed", "3", input="1\n" * 3000)
    assert r.returncode == 0, r.stderr
    assert f"You play the {role}" in r.stdout and shown in r.stdout and "Game over: " in r.stdout


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
