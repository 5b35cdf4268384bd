"""A game log replays to the same outcome; a saved state resumes to the same game."""
import io
import json

import pytest
from helpers import compiled, game_for, rulelang

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.logs import GameLog, ReplayError, header, read_log, replay
from interpreter.engine.saves import load, restore, save
from rulelang import load_ruleset


def finish(game, st, seed):
    return play(game, seed, {r: RandomAgent(seed, r) for r in game.roles}, state=st).outcome


@pytest.mark.parametrize("params", [{}, {"trial_modifiers": True, "action_modifiers": True}])
def test_state_saved_at_any_decision_resumes_to_the_same_game(tmp_path, params):
    game = game_for(**params)
    for seed in (3, 11):
        whole = finish(game, game.new_state(seed), seed)
        for stop in (0, 1, 5, 12):
            st = game.new_state(seed)
            play(game, seed, {r: RandomAgent(seed, r) for r in game.roles}, state=st, stop_at=stop)
            path = tmp_path / f"s{seed}-{stop}.json"
            save(str(path), game.ruleset, "twenty-trials", game.mode.name, seed, {}, st)
            restored = restore(game, load(str(path)), str(path))
            assert json.loads(json.dumps(restored.to_json())) == json.loads(json.dumps(st.to_json()))
            assert finish(game, restored, seed) == whole


def test_clone_is_independent():
    game = game_for()
    st = game.new_state(5)
    copy = st.clone()
    game.apply(st, 0)
    assert copy.to_json() != st.to_json()
    assert game.state_from_json(json.loads(json.dumps(copy.to_json()))).to_json() == copy.to_json()


def test_a_snapshot_is_not_changed_by_play_after_it():
    game = game_for()
    st = game.new_state(5)
    game.apply(st, 0)
    snapshot = st.to_json()
    frozen = json.dumps(snapshot)
    loaded = game.state_from_json(st.to_json())  # loaded without json.dumps between
    finish(game, st, 5)
    finish(game, loaded, 5)
    assert json.dumps(snapshot) == frozen


def test_log_replays_and_a_changed_ruleset_fails_loudly(tmp_path):
    log = tmp_path / "game.jsonl"
    result = rulelang("run", "twenty-trials", "--seed", "7", "--log", str(log))
    assert result.returncode == 0, result.stderr
    again = rulelang("replay", str(log))
    assert again.returncode == 0 and again.stdout.splitlines()[0] == result.stdout.strip()

    logged = read_log(str(log))
    changed = load_ruleset("twenty-trials", {"action_modifiers": "true"})
    from interpreter.engine.game import Game
    with pytest.raises(ReplayError, match="decision"):
        replay(Game(changed), logged)


def test_tampered_log_is_refused(tmp_path):
    log = tmp_path / "game.jsonl"
    rulelang("run", "twenty-trials", "--seed", "2", "--log", str(log))
    lines = log.read_text().splitlines()
    record = json.loads(lines[3])
    record["choice"] = (record["choice"] + 1) % max(record["options"], 2)
    record["option"] = "something else"
    lines[3] = json.dumps(record)
    log.write_text("\n".join(lines) + "\n")
    result = rulelang("replay", str(log))
    assert result.returncode == 1 and "decision" in result.stderr and "Traceback" not in result.stderr


def test_run_save_and_resume_from_the_command_line(tmp_path):
    state = tmp_path / "state.json"
    whole = rulelang("run", "twenty-trials", "--seed", "4", "--json")
    part = rulelang("run", "twenty-trials", "--seed", "4", "--stop-at", "6", "--save", str(state))
    assert part.returncode == 0 and "stopped at decision 6" in part.stdout
    rest = rulelang("run", "twenty-trials", "--resume", str(state), "--json")
    assert rest.returncode == 0 and json.loads(rest.stdout) == json.loads(whole.stdout)


def test_gobbots_saved_mid_game_resumes_and_its_log_replays():
    # board spaces and per-component state (damage, tokens) are part of the saved state
    game = game_for("gauntlet-gobbots", hard=True)
    for seed in (2, 9):
        whole = finish(game, game.new_state(seed), seed)
        for stop in (3, 8, 20):
            st = game.new_state(seed)
            play(game, seed, {r: RandomAgent(seed, r) for r in game.roles}, state=st, stop_at=stop)
            restored = game.state_from_json(json.loads(json.dumps(st.to_json())))
            assert finish(game, restored, seed) == whole


def test_gobbots_log_replays(tmp_path):
    log = tmp_path / "gobbots.jsonl"
    result = rulelang("run", "gauntlet-gobbots", "--seed", "3", "--set", "upper_board_b=true", "--log", str(log))
    assert result.returncode == 0, result.stderr
    again = rulelang("replay", str(log))
    assert again.returncode == 0 and again.stdout.splitlines()[0] == result.stdout.strip()


@pytest.mark.parametrize("name, params", [("hand-of-fate-ordeals", {"players": "3"}), ("gauntlet-16-7", {})])
def test_a_log_written_in_batches_is_the_log_record_by_record(name, params):
    """A log is written `batch` records at a time, whole lines only, each record as json.dumps
    makes it (the decision records are made from parts worked out once a game)."""
    game = compiled(name, None, params)
    texts = []
    for batch in (1, 7, 256):
        out = io.StringIO()
        log = GameLog(out, header(game.ruleset, None, game.mode.name, 5, {}), batch=batch)
        play(game, 5, {r: RandomAgent(5, r) for r in game.roles}, log=log)
        texts.append(out.getvalue())
        assert out.getvalue().endswith("\n")
    assert texts[0] == texts[1] == texts[2]
    for line in texts[0].splitlines():
        assert json.dumps(json.loads(line)) == line
    assert texts[0].count('"type": "decision"') > 100
