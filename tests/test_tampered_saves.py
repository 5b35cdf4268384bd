"""Tampered saves (issue 20, item 4). A save is a replay: its header and the
answers given, played again from the seed on `--resume`. Each edit below ends
in a clear error (exit code 1, one line, no traceback); an edit of the answers
with the check made again is another game the rules allow, and resumes as one.
"""
import json

import pytest
from helpers import rulelang
from test_chance import cli

from interpreter.engine.game import Game
from interpreter.engine.saves import _check, load, restore, save
from rulelang import load_ruleset


def rechecked(edit):
    """The edit, then the check made again (someone with this code and a text editor)."""
    def both(data):
        edit(data)
        data["check"] = _check(data)
    return both


EDITS = [
    # (what, the edit (or a text to write instead), the error says)
    ("the mode a list", lambda d: d.update(mode=["challenger"]), "its mode must be a name, not [\"challenger\"]"),
    ("the answers null", lambda d: d.update(answers=None), "its answers must be a list"),
    ("an answer as text", lambda d: d["answers"].__setitem__(0, "0"), "its answers must be a list"),
    ("an answer a float", lambda d: d["answers"].__setitem__(0, 1.0), "its answers must be a list"),
    ("an answer true", lambda d: d["answers"].__setitem__(0, True), "its answers must be a list"),
    ("the seed as text", lambda d: d.update(seed="4"), "its seed must be a whole number"),
    ("a negative seed", lambda d: d.update(seed=-4), "its seed must be a whole number"),
    ("a seed of 5,000 digits", "seed", "is damaged: it holds a number of more than 4,300 digits"),
    ("the parameters as text", lambda d: d.update(params="hand_size=3"), "its parameters must be a mapping"),
    ("a parameter a list", lambda d: d["params"].update(hand_size=[3]), "its parameters must be a mapping"),
    ("the agents a list", lambda d: d.update(agents=["random"]), "its agents must be a mapping"),
    ("the game state of an older save", lambda d: d.update(state={"zones": []}), "it holds 'state', which no save"),
    ("a key missing", lambda d: d.pop("at"), "'at' is missing"),
    ("JSON nested 100,000 deep", "deep", "its JSON is nested too deeply"),
    ("a list, not a mapping", "list", "is not a saved rulelang game"),
    ("another format", lambda d: d.update(format="rulelang-save/9"), "is not a saved rulelang game"),
    ("the check changed", lambda d: d.update(check="0" * 32), "its check does not match"),
    ("an answer changed", lambda d: d["answers"].__setitem__(0, d["answers"][0] ^ 1), "its check does not match"),
    ("the hash of another ruleset", rechecked(lambda d: d.update(hash="0" * 16)),
     "played under another version of twenty-trials"),
    ("an answer past the options", rechecked(lambda d: d["answers"].__setitem__(2, 99)),
     "answer 3 is 99, but decision"),
    ("a negative answer", rechecked(lambda d: d["answers"].__setitem__(0, -1)), "answer 1 is -1, but decision"),
    ("one answer more", rechecked(lambda d: d["answers"].append(0)), "but its answers lead to decision 6"),
    ("one answer fewer", rechecked(lambda d: d["answers"].pop()), "but its answers lead to decision 4"),
    ("decisions said to be 19", rechecked(lambda d: d["at"].update(decisions=19)),
     "it says it stopped at decision 19"),
    ("another round", rechecked(lambda d: d["at"].update(round=9)), "(round 9, "),
    ("another step", rechecked(lambda d: d["at"].update(step="Refresh")), ", Refresh), but its answers lead"),
    ("a mode the ruleset has not", rechecked(lambda d: d.update(mode="solo")), "no mode 'solo'"),
    ("the old format, a state with a card twice", "old", "was saved by an older rulelang, as a game state"),
]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("saves") / "game.json"
    r = rulelang("run", "twenty-trials", "--seed", "4", "--stop-at", "5", "--save", str(path))
    assert r.returncode == 0, r.stderr
    return path.read_text()


@pytest.mark.parametrize("what, edit, says", EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_save_is_a_clear_error(tmp_path, capsys, saved, what, edit, says):
    data = json.loads(saved)
    assert len(data["answers"]) == 5 and data["at"]["decisions"] == 5
    path = tmp_path / "edited.json"
    if edit == "seed":
        text = saved.replace('"seed": 4', '"seed": ' + "9" * 5000)
    elif edit == "deep":
        text = "[" * 100_000 + "]" * 100_000
        text = saved.replace('"agents": {', '"deep": ' + text + ', "agents": {')
    elif edit == "list":
        text = json.dumps([data])
    elif edit == "old":
        text = json.dumps({"format": "rulelang-state/1", "ruleset": "twenty-trials", "hash": data["hash"],
                           "mode": "challenger", "params": {}, "seed": 4, "state": {"zones": [[0, 0]]}})
    else:
        edit(data)
        text = json.dumps(data)
    path.write_text(text)
    code, out, err = cli(capsys, "run", "twenty-trials", "--resume", path)
    assert code in (1, 2) and "Traceback" not in err and "internal error" not in err, err
    assert says in err, err
    assert out == ""  # nothing played


def test_answers_edited_with_the_check_made_again_are_another_legal_game(tmp_path, capsys, saved):
    """The only edit a save cannot refuse: other answers the rules allow (as
    playing them would); the game resumed is the one those answers make."""
    data = json.loads(saved)
    game = Game(load_ruleset("twenty-trials"))
    st = game.new_state(4)
    answers = []
    for _ in range(5):  # the last option of each decision, not the random agent's
        answers.append(len(game.decision(st).options) - 1)
        game.apply(st, answers[-1])
    data["answers"], data["at"] = answers, {"decisions": 5, "round": st.round, "step": game.step_name(st)}
    data["check"] = _check(data)
    path = tmp_path / "other.json"
    path.write_text(json.dumps(data))
    resumed = restore(game, load(str(path)), str(path))
    assert resumed.to_json() == st.to_json()
    game.check_state(resumed)  # a state play reaches: every card in one place, as `holds:` allows
    code, out, err = cli(capsys, "run", "twenty-trials", "--resume", path)
    assert code == 0, err


def test_a_save_resumes_to_the_same_game_and_holds_no_state(tmp_path):
    game = Game(load_ruleset("pig-race"), None)
    st = game.new_state(7)
    while st.decisions < 6 and st.outcome is None:
        game.apply(st, 0)
    path = tmp_path / "pig.json"
    save(str(path), game.ruleset, "pig-race", game.mode.name, 7, {}, st, game)
    data = json.loads(path.read_text())
    assert "state" not in data and data["answers"] == [0] * 6  # what was answered, not where cards are
    assert restore(game, load(str(path)), str(path)).to_json() == st.to_json()  # the same rolls, too


LOG_EDITS = [
    # (what, the edit of the records (or of the text), the error says)
    ("a choice as text", lambda r: r[1].update(choice="0"), "record 2 (decision) has 'choice' of the wrong type"),
    ("a choice missing", lambda r: r[1].pop("choice"), "record 2 (decision) has no valid 'choice'"),
    ("a choice true", lambda r: r[1].update(choice=True), "record 2 (decision) has 'choice' of the wrong type"),
    ("the parameters as text", lambda r: r[0].update(params="x"), "record 1 (header) has 'params' of the wrong"),
    ("the seed as text", lambda r: r[0].update(seed="2"), "record 1 (header) has 'seed' of the wrong type"),
    ("the mode a list", lambda r: r[0].update(mode=["x"]), "record 1 (header) has 'mode' of the wrong type"),
    ("a record a list", lambda r: r.insert(1, [1, 2]), "record 2 is not a mapping"),
    ("a record of no kind", lambda r: r.insert(1, {"type": "cheat"}), "record 2 is of no kind a log holds"),
    ("JSON nested 100,000 deep", "deep", "its JSON is nested too deeply"),
    ("a seed of 5,000 digits", "huge", "it holds a number of more than 4,300 digits"),
    ("a choice past the options", lambda r: r[1].update(choice=99), "(option 100 of "),
]


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "full.jsonl"
    r = rulelang("run", "twenty-trials", "--seed", "2", "--log", str(path))
    assert r.returncode == 0, r.stderr
    return path.read_text()


@pytest.mark.parametrize("what, edit, says", LOG_EDITS, ids=[e[0] for e in LOG_EDITS])
def test_an_edited_log_is_a_clear_error(tmp_path, capsys, logged, what, edit, says):
    full = tmp_path / "full.jsonl"
    full.write_text(logged)
    records = [json.loads(line) for line in logged.splitlines()]
    assert records[1]["type"] == "decision"
    if edit == "deep":
        text = json.dumps(records[0]) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n"
    elif edit == "huge":
        text = full.read_text().replace('"seed": 2', '"seed": ' + "9" * 5000)
    else:
        edit(records)
        text = "".join(json.dumps(r) + "\n" for r in records)
    full.write_text(text)
    code, out, err = cli(capsys, "replay", full)
    assert code == 1 and "Traceback" not in err and "internal error" not in err, err
    assert says in err, err


# round three: what a log's records may not say, and what its header claims
LOG_EDITS_3 = [
    ("a second outcome", lambda r: r.append(dict(r[-1])), "comes after the end of the game"),
    ("a decision renumbered", lambda r: _first(r, "decision").update(n=7), "(decision) is numbered 7, but 0"),
    ("the agents changed", lambda r: r[0].update(agents={"challenger": "first"}),
     "its header says challenger was played by 'first', which chooses option"),
    ("an agent for a role the mode lacks", lambda r: r[0].update(agents={"trialmaster": "random"}),
     "its agents name trialmaster, which mode challenger has no role for"),
    ("cut after a decision", lambda r: r.__delitem__(slice(5, None)), "is cut short: it ends without the game's outcome"),
    ("a second header", lambda r: r.insert(2, dict(r[0])), "record 3 is a second header"),
]


def _first(records, kind):
    return next(r for r in records if r.get("type") == kind)


@pytest.mark.parametrize("what, edit, says", LOG_EDITS_3, ids=[e[0] for e in LOG_EDITS_3])
def test_an_edited_log_is_a_clear_error_round_three(tmp_path, capsys, logged, what, edit, says):
    full = tmp_path / "full.jsonl"
    records = [json.loads(line) for line in logged.splitlines()]
    edit(records)
    full.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, err = cli(capsys, "replay", full)
    assert code == 1 and "Traceback" not in err and "internal error" not in err, err
    assert says in err, err


def test_a_log_stopped_on_purpose_replays_and_says_so(tmp_path, capsys):
    path = tmp_path / "stopped.jsonl"
    code, _, err = cli(capsys, "run", "twenty-trials", "--seed", "2", "--stop-at", "3", "--log", path)
    assert code == 0, err
    assert json.loads(path.read_text().splitlines()[-1]) == {"type": "stop", "n": 3}
    code, out, err = cli(capsys, "replay", path)
    assert code == 0 and "play was stopped at decision 3" in out, err
