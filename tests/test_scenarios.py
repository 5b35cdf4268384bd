"""Scenarios: a position set up by hand, checked and located like a ruleset,
that run, simulate, saves, logs and tests start from alike."""
import json
from pathlib import Path

import pytest
from helpers import game_for, rulelang

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.engine.logs import GameLog, header, read_log, replay
from interpreter.engine.saves import SaveError, load, restore, save
from interpreter.engine.scenarios import load_scenario, read_scenario
from interpreter.engine.view import Viewer
from rulelang import RulesetError

LAST_TRIAL = Path(__file__).parent / "scenarios" / "twenty-trials-last-trial.yaml"


def problems(text: str, **params) -> list[str]:
    game = game_for(**params)
    with pytest.raises(RulesetError) as caught:
        read_scenario(text, "s.yaml").placed(game)
    return [d.format() for d in caught.value.diagnostics]


def test_a_scenario_places_cards_and_values_and_starts_at_its_step():
    game = game_for()
    st = load_scenario(str(LAST_TRIAL)).start(game, 4)
    obs = Viewer(game).observe(st, "challenger")
    assert obs["round"] == 20 and obs["vars"]["trials_completed"] == 19
    assert [c["card"] for c in obs["zones"]["hand"]][:3] == ["2 dark sun", "1 dark moon", "3 dark sun"]
    assert obs["zones"]["reserve"] == [] and obs["zones"]["trial_deck"] == []  # the trial was revealed
    assert [c["card"] for c in obs["zones"]["chamber"]] == ["strength 13"]
    assert len(obs["zones"]["action_deck"]) + len(obs["zones"]["hand"]) == 8  # five, less what was drawn, and 3
    game.check_state(st)


def test_the_same_scenario_and_seed_give_the_same_game_and_seeds_deal_the_rest():
    game = game_for()
    scenario = load_scenario(str(LAST_TRIAL))
    assert scenario.start(game, 7).to_json() == scenario.start(game, 7).to_json()
    orders = {tuple(scenario.start(game, seed).zones[game.zone_index("action_deck")]) for seed in range(12)}
    assert len(orders) > 3  # `shuffle:` from each game's seed


def test_every_problem_is_located_with_a_hint():
    text = LAST_TRIAL.read_text()
    bad = (text.replace("hand: [2 dark sun", "hnad: [2 dark sun")
           .replace("[1 light sun, 8 dark sun", "[1 light sun, 9 dark sun")
           .replace("trials_completed: 19", "trials_completed: lots")
           .replace("step: Draw cards", "step: Draw card"))
    found = problems(bad)
    assert any("s.yaml:14:3: error: no zone 'hnad'" in p and "did you mean 'hand'?" in p for p in found), found
    assert any("no card '9 dark sun'" in p for p in found), found
    assert any("expected a whole number, not 'lots'" in p for p in found), found
    assert any("no step 'Draw card'" in p and "did you mean 'Draw cards'?" in p for p in found), found


def test_a_scenario_holds_no_more_than_the_rules_could():
    base = "scenario: x\nruleset: twenty-trials\n"
    assert any("a trial card cannot be in hand" in p for p in problems(base + "zones: {hand: [strength 9]}"))
    assert any("more often than there are copies (1)" in p
               for p in problems(base + "zones: {hand: [2 dark sun], chamber: [2 dark sun]}"))
    assert any("is for 'kuhn-poker', not twenty-trials" in p
               for p in problems("scenario: x\nruleset: kuhn-poker\n"))
    assert any("a scenario has no key 'seed'" in p for p in problems(base + "seed: 3\n"))
    assert any("round: is a whole number from 1" in p for p in problems(base + "round: -2\n"))


def test_per_player_zones_and_bounded_variables(tmp_path):
    game = game_for("kuhn-poker")
    text = "scenario: kings\nruleset: kuhn-poker\nzones: {hand: {alice: [king], bob: [jack]}}\nothers: deck\n"
    st = read_scenario(text, "k.yaml").start(game, 0)
    viewer = Viewer(game)
    assert [c["card"] for c in viewer.observe(st, "alice")["zones"]["hand of alice"]] == ["king"]
    assert viewer.observe(st, "alice")["zones"]["hand of bob"] == [None]  # placed, and still hidden from alice
    assert len(st.zones[game.zone_index("deck")]) == 1
    bad = "scenario: x\nruleset: kuhn-poker\nzones: {hand: [king]}\n"
    with pytest.raises(RulesetError, match="give its cards by player"):
        read_scenario(bad, "k.yaml").placed(game)


def test_a_save_carries_its_scenario_and_resumes_from_it_and_refuses_an_edit(tmp_path):
    game = game_for()
    scenario = load_scenario(str(LAST_TRIAL))
    st = scenario.start(game, 5)
    play(game, 5, {"challenger": RandomAgent(5, "challenger")}, state=st, stop_at=1)
    path = tmp_path / "s.json"
    save(str(path), game.ruleset, "twenty-trials", "challenger", 5, {}, st, game, scenario)
    assert restore(game, load(str(path)), str(path)).to_json() == st.to_json()
    data = json.loads(path.read_text())
    data["scenario"]["text"] = data["scenario"]["text"].replace("strength 13", "strength 9")
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError, match="edited"):
        load(str(path))


def test_a_log_replays_from_its_scenario_and_a_players_log_keeps_its_text_out(tmp_path):
    import io
    game = game_for()
    scenario = load_scenario(str(LAST_TRIAL))
    out, mine = io.StringIO(), io.StringIO()
    head = header(game.ruleset, "twenty-trials", "challenger", 3, {"challenger": "random"}, scenario)
    log = GameLog(out, head)
    GameLog(mine, head, "challenger")
    st = play(game, 3, {"challenger": RandomAgent(3, "challenger")}, state=scenario.start(game, 3), log=log)
    path = tmp_path / "g.jsonl"
    path.write_text(out.getvalue())
    assert replay(game, read_log(str(path))).outcome == st.outcome
    player_head = json.loads(mine.getvalue().splitlines()[0])
    assert player_head["scenario"] == {"name": "The last trial", "hash": scenario.hash}


def test_the_command_line_runs_simulates_and_resumes_from_a_scenario(tmp_path):
    r = rulelang("simulate", "twenty-trials", "--scenario", str(LAST_TRIAL), "--games", "40", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["mean_rounds"] == 20
    save_path, log_path = tmp_path / "x.json", tmp_path / "x.jsonl"
    r = rulelang("run", "twenty-trials", "--scenario", str(LAST_TRIAL), "--seed", "2", "--stop-at", "0",
                 "--save", str(save_path))
    assert r.returncode == 0 and "round 20" in r.stdout, r.stderr
    r = rulelang("run", "twenty-trials", "--resume", str(save_path), "--log", str(log_path))
    assert r.returncode == 0, r.stderr
    assert rulelang("replay", str(log_path)).stdout == r.stdout
    r = rulelang("run", "twenty-trials", "--scenario", str(LAST_TRIAL), "--mode", "versus")
    assert r.returncode == 2 and "contradicts: --mode versus (the scenario's: challenger)" in r.stderr
    bad = tmp_path / "bad.yaml"
    bad.write_text(LAST_TRIAL.read_text().replace("hand: [", "hnad: ["))
    r = rulelang("run", "twenty-trials", "--scenario", str(bad))
    assert r.returncode == 2 and f"{bad}:14:3: error: no zone 'hnad'" in r.stderr, r.stderr
