"""The adapters (interpreter/adapters): every bundled ruleset and mode as an
OpenSpiel game, PettingZoo environments and a Gymnasium environment — the
frameworks' own conformance tests, no hidden information in anything they
show (the non-interference oracle of test_secrets.py), and OpenSpiel driven
through its chance nodes playing `rulelang run --seed N` move for move.

Skipped without the `[rl]` extra (pip install '.[rl]')."""
import json
import warnings

import pytest
from helpers import ROOT, bundled
from helpers.random_games import CONFIGS, LONG_GAMES, SHORT
from test_secrets import BLIND_CHOICES, Labels, dealt_again, hidden_from

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from cli.main import main
from interpreter.adapters import aec_env, gymnasium_env, load_game, parallel_env
from interpreter.adapters.driver import Driver, Episode
from interpreter.engine.game import Game
from interpreter.runtime import rng
from rulelang import load_ruleset, load_text

# the default run plays each mode of the rulesets that stand alone; the variants (`extends:`), which
# play the same modes with other cards, and longer runs, are under the slow mark, and so are the
# rulesets whose games ask hundreds of decisions
BASES = [pytest.param(n, m, id=f"{n}-{m}", marks=[pytest.mark.slow] if n in LONG_GAMES | {"gauntlet-race",
                                                                                    "gauntlet-16-7"} else [])
         for n, m in CONFIGS if len(bundled(n).files) == 1]


def ids(configs):
    return [f"{n}-{m}" for n, m in configs]


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():  # the frameworks' advice (unbounded boxes, agent names) is not a failure
        warnings.simplefilter("ignore", UserWarning)
        yield


# ------------------------------------------------------------------ the frameworks' own tests


def every_suite(name: str, mode: str, sims: int, cycles: int, **params) -> None:
    """Each library's own conformance tests: OpenSpiel's random_sim_test (states serialised
    and loaded again), PettingZoo's api and seed tests (AEC and parallel; the seed tests play
    actions sampled without the mask: illegal ones are forfeits), Gymnasium's check_env."""
    params = {**SHORT.get(name, {}), **params}
    game = load_game(name, mode, **params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    api_test(aec_env(name, mode, **params), num_cycles=cycles)
    parallel_api_test(parallel_env(name, mode, **params), num_cycles=cycles)
    seed_test(lambda: aec_env(name, mode, **params), num_cycles=cycles)
    parallel_seed_test(lambda: parallel_env(name, mode, **params), num_cycles=cycles)
    check_env(gymnasium_env(name, mode=mode, render_mode="ansi", **params))


@pytest.mark.parametrize("name, mode", BASES)
def test_the_frameworks_own_tests(name, mode, capsys):
    """The default run: each library's api tests on every mode that stands alone; every
    suite (seed tests, serialisation) on a small game. The slow run: every suite everywhere."""
    short = SHORT.get(name, {})
    game = load_game(name, mode, **short)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    assert game.num_players() == len(load_ruleset(name).modes[mode].roles)
    api_test(aec_env(name, mode, **short), num_cycles=20)
    parallel_api_test(parallel_env(name, mode, **short), num_cycles=20)
    check_env(gymnasium_env(name, mode=mode, **short), skip_render_check=True)


def test_every_suite_on_a_small_game(capsys):
    every_suite("kuhn-poker", "duel", sims=2, cycles=50)


def test_abilities_ask_their_decisions_through_the_adapters(tmp_path):
    """A "you may" trigger and a play window are decisions the compiler writes out:
    their menus and bindings have action ids like any other."""
    from test_abilities import DUEL
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL)
    game = load_game(str(path))
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    menu = {a.value for a in game.driver.actions.actions if a.kind == "menu"}
    assert {"use", "pass", "play"} <= menu


def test_a_map_with_gaps_and_a_graph_of_places_is_observed(tmp_path):
    """Every space of a map but its gaps, and every place of a graph, is a place of the tensor."""
    from test_maps import BOARDS
    path = tmp_path / "boards.yaml"
    path.write_text(BOARDS.replace("          end game\n", "          runner chooses n in [1, 2] as look:\n"
                                                          "            end game\n"))
    game = load_game(str(path))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    state = game.new_initial_state()
    rows = game.driver.encoding.sections[0].rows
    assert len(game.driver.encoding.place_names) >= 12 - 2 + 5 and len(rows) == 2
    assert sum(state.observation_tensor(0)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("name, mode", CONFIGS, ids=ids(CONFIGS))
def test_the_frameworks_tests_at_length_with_every_option(name, mode, capsys):
    """Every bundled ruleset and example, every mode, with every option on."""
    flags = {p: True for p, d in load_ruleset(name).params.items() if isinstance(d.default, bool)}
    long = name in LONG_GAMES  # games of hundreds of decisions: fewer of them
    every_suite(name, mode, sims=3 if long else 20, cycles=200 if long else 1000, **flags)


# ------------------------------------------------------------------ no hidden information


def adapter_outputs(driver: Driver, ep: Episode, role: str) -> tuple:
    """Everything an adapter shows a role: observation text and tensor, the
    record its information state gains here, and (its turn) the legal ids."""
    tensor = np.zeros(driver.encoding.size, np.float32)
    driver.tensor(ep, role, tensor)
    fresh = Episode(ep.st, ep.chosen, ep.moves, None, {r: [] for r in driver.roles}, ep.answers)
    driver._arrived(fresh)
    legal = driver.legal(ep) if driver.current(ep) == role else []
    return driver.observation_text(ep, role), tensor.tobytes(), fresh.records[role], legal


def values_changed(st, secret: dict, role: str) -> None:
    """Change in place every variable `role` may not see (`seen_by:`): a number, a truth, a list of numbers."""
    for slot, who in secret.items():
        if who != role:
            v = st.vars[slot]
            st.vars[slot] = not v if isinstance(v, bool) else v + 1 if isinstance(v, int) else \
                type(v)(x + 1 if isinstance(x, int) else x for x in v) if isinstance(v, (list, tuple)) else v


@pytest.mark.parametrize("name, mode", BASES)
def test_no_adapter_output_depends_on_a_card_its_reader_cannot_see(name, mode, games=1):
    """Deal the cards a role cannot see again, change the values it may not see: its observation
    string and tensor, information-state record and legal ids stay the same, id for id."""
    game = load_game(name, mode, **SHORT.get(name, {}))
    driver = game.driver
    labels = Labels(driver.game, driver.viewer)
    checked = 0
    for seed in range(games):
        state = game.new_initial_state()
        streams = {r: rng.derive(seed, "agent:" + r) for r in driver.roles}
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            ep = state.episode
            for role in driver.roles:
                hidden = hidden_from(driver.game, ep.st, role)
                twin_st = dealt_again(ep.st, hidden, seed * 1000 + ep.moves)
                values_changed(twin_st, driver.viewer.secret, role)
                twin = Episode(twin_st, ep.chosen, ep.moves, None, None,
                               driver.actions.answers(driver.game.decision(twin_st), twin_st))
                mine = adapter_outputs(driver, ep, role)
                assert adapter_outputs(driver, twin, role) == mine, \
                    f"{name} {mode} seed {seed} move {ep.moves}: what {role} is shown depends on what it cannot see"
                # what it is shown now (its record holds cards it saw before and cannot see now)
                text = mine[0] + "\n".join(mine[2]) + "".join(state.action_to_string(a) for a in mine[3])
                assert not labels.named(text, ep.st, hidden), f"{name} {mode}: {role} is shown a hidden card"
                checked += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.pick(streams[driver.current(ep)], ep.moves, len(legal))])
    assert checked > 3


def test_choices_of_cards_the_chooser_cannot_see_are_answered_by_rank_not_id(tmp_path):
    """Choices from a face-down bag and from another player's hand (test_secrets'
    BLIND_CHOICES): the legal ids are unseen cards' ranks, the same however the
    hidden cards lie; a card id would tell which card is where."""
    path = tmp_path / "blind-choices.yaml"
    path.write_text(BLIND_CHOICES)
    test_no_adapter_output_depends_on_a_card_its_reader_cannot_see(str(path), "play", games=2)
    driver = load_game(str(path), "play").driver
    assert any(line.endswith("unseen   an unseen card, the 1st offered") for line in driver.actions.describe())


@pytest.mark.slow
@pytest.mark.parametrize("name, mode", CONFIGS, ids=ids(CONFIGS))
def test_no_adapter_output_depends_on_a_hidden_card_in_many_games(name, mode):
    test_no_adapter_output_depends_on_a_card_its_reader_cannot_see(name, mode, games=20)


def test_the_adapter_oracle_catches_a_leak():
    """An observation tensor that shows the top card of the face-down deck fails the check."""
    game = load_game("kuhn-poker")
    driver = game.driver
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    ep = state.episode
    deck = driver.game.zone_index("deck")
    encode = driver.encoding.encode

    def leaky(st, role, chosen, out):
        encode(st, role, chosen, out)
        out[st.zones[deck][-1]] += 7
    driver.encoding.encode = leaky
    try:
        hidden = hidden_from(driver.game, ep.st, "alice")
        twins = [dealt_again(ep.st, hidden, s) for s in range(8)]
        shown = {adapter_outputs(driver, Episode(t, (), 0, None, None, ep.answers), "alice")[1] for t in twins}
        assert len(shown) > 1
    finally:
        driver.encoding.encode = encode


def test_resampled_states_keep_what_the_player_knows():
    game = load_game("twenty-trials", "versus")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(6)]
    for other in samples:
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        assert other.legal_actions() == state.legal_actions()
    assert len({str(s) for s in samples}) > 1  # the cards the Challenger cannot see were dealt again


# ------------------------------------------------------------------ the same games as rulelang run


def run_log(capsys, tmp_path, name, mode, seed) -> list[dict]:
    path = tmp_path / f"{name}-{seed}.jsonl"
    assert main(["run", name, "--mode", mode, "--seed", str(seed), "--log", str(path)]) == 0
    capsys.readouterr()
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize("name, mode, seeds", [("pig-race", "race", [1]), ("twenty-trials", "versus", [2]),
                                               ("kuhn-poker", "duel", [1, 2, 3]),
                                               pytest.param("gauntlet-race", "race", [1], marks=pytest.mark.slow),
                                               pytest.param("gauntlet-gobbots", "solitaire", [1], marks=pytest.mark.slow),
                                               pytest.param("twenty-trials", "challenger", range(5),
                                                            marks=pytest.mark.slow)])
def test_openspiel_through_chance_nodes_plays_rulelang_run(capsys, tmp_path, name, mode, seeds):
    """Chance outcomes from the engine's RNG and each decision answered as the
    random agent answers it: the game `rulelang run --seed N` logs, move for move."""
    for seed in seeds:
        logged = run_log(capsys, tmp_path, name, mode, seed)
        game = load_game(name, mode, seed=seed)
        driver = game.driver
        state = game.new_initial_state()
        streams = {r: rng.derive(seed, "agent:" + r) for r in driver.roles}
        played = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance())
                continue
            st = state.episode.st
            d = driver.game.decision(st)
            index = rng.pick(streams[d.role], st.decisions, len(d.options))
            played.append((d.role, d.label, index, driver.viewer.option(st, index)))
            for action in state.option_actions(index):
                state.apply_action(action)
        decisions = [(r["role"], r["label"], r["choice"], r["option"]) for r in logged if r["type"] == "decision"]
        assert played == decisions, (name, mode, seed)
        outcome = logged[-1]
        assert dict(zip(driver.roles, state.returns())) == \
            {r: {"win": 1.0, "lose": -1.0}.get(outcome["results"][r], 0.0) for r in driver.roles}


def test_environments_replay_a_seed_and_their_actions():
    """Same seed, same actions: the same game, in every environment."""
    def actions_of(env, seed):
        env.reset(seed=seed)
        taken = []
        for agent in env.agent_iter():
            obs, _, done, cut, _ = env.last()
            action = None if done or cut else int(np.flatnonzero(obs["action_mask"])[-1])
            taken.append((agent, action))
            env.step(action)
        return taken
    env = aec_env("twenty-trials", "versus")
    assert actions_of(env, 3) == actions_of(env, 3) != actions_of(env, 4)
    gym = gymnasium_env("twenty-trials", role="trialmaster", mode="versus", opponents={"challenger": "first"})
    runs = []
    for _ in range(2):
        obs, info = gym.reset(seed=5)
        rewards = []
        done = False
        while not done:
            obs, reward, terminated, truncated, info = gym.step(int(np.flatnonzero(info["action_mask"])[0]))
            rewards.append(reward)
            done = terminated or truncated
        runs.append((rewards, info["outcome"]))
    assert runs[0] == runs[1]


# ------------------------------------------------------------------ simultaneous decisions, truncation


SECRET_BIDS = """
game: secret-bids
title: Secret bids
roles: [alice, bob]
cards:
  chip:
    fields: {value: 1..3, owner: role}
    label: "{owner} {value}"
    table: |
      value owner
      1     alice
      2     alice
      3     alice
      1     bob
      2     bob
      3     bob
zones:
  hand: {owner: each, seen_by: owner, kind: hand}
  bid: {owner: each, seen_by: owner, facing: down}
  shown: {kind: row}
vars:
  points: {initial: 0, owner: each}
setup: |
  move all c in box where c.owner == alice to hand of alice
  move all c in box where c.owner == bob to hand of bob
modes:
  bids:
    round:
      - step: Bid
        do: |
          alice chooses c in hand of alice as bid:
            move c to bid of alice
          bob chooses c in hand of bob as bid:
            move c to bid of bob
      - step: Reveal
        do: |
          let a = top(bid of alice)
          let b = top(bid of bob)
          if a.value > b.value:
            points of alice += 1
          elif b.value > a.value:
            points of bob += 1
          move a, b to shown
          if empty(hand of alice):
            if points of alice > points of bob:
              win alice
            elif points of bob > points of alice:
              win bob
            else:
              end game in a draw
"""


def secret_bids(tmp_path) -> str:
    path = tmp_path / "secret-bids.yaml"
    path.write_text(SECRET_BIDS)
    return str(path)


def test_decisions_no_one_can_see_answered_are_one_parallel_step(tmp_path):
    env = parallel_env(secret_bids(tmp_path))
    parallel_api_test(env, num_cycles=30)
    observations, _ = env.reset(seed=0)
    steps = 0
    while env.agents:
        acting = [a for a in env.agents if observations[a]["action_mask"].any()]
        assert acting == ["alice", "bob"]  # both bid at once: neither sees the other's bid before bidding
        actions = {a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in env.agents}
        observations, rewards, terminations, _, _ = env.step(actions)
        steps += 1
    assert steps == 3 and set(rewards.values()) == {0.0} and all(terminations.values())  # 1-1, 2-2, 3-3: a draw
    versus = parallel_env("twenty-trials", "versus")  # every decision there shows the last answer
    observations, _ = versus.reset(seed=1)
    for _ in range(20):
        acting = [a for a in versus.agents if observations[a]["action_mask"].any()]
        assert len(acting) == 1
        observations, *_ = versus.step({acting[0]: int(np.flatnonzero(observations[acting[0]]["action_mask"])[0])})


RUNAWAY = """
game: runaway
title: Runaway
roles: [solo]
vars:
  total: 0
modes:
  loop:
    round:
      - step: Choose, then loop for ever
        do: |
          solo chooses k in [1, 2] as go:
            while true:
              total += k
"""


def test_a_runaway_game_is_truncated_not_an_error(tmp_path):
    path = tmp_path / "runaway.yaml"
    path.write_text(RUNAWAY)
    state = load_game(str(path), step_limit=1000).new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal() and state.episode.truncated == "step limit" and state.returns() == [0.0]
    env = aec_env(str(path), step_limit=1000)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, _, done, cut, info = env.last()
        env.step(None if done or cut else int(np.flatnonzero(obs["action_mask"])[0]))
    assert cut and not done and info["truncated"] == "step limit"
    gym = gymnasium_env("gauntlet-gobbots", max_moves=5)
    obs, info = gym.reset(seed=0)
    for _ in range(5):
        obs, reward, terminated, truncated, info = gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert truncated and not terminated and reward == 0.0 and info["truncated"] == "move limit"


def test_an_environment_copied_is_not_compiled_again_until_its_file_changes(tmp_path):
    """Gymnasium's checker, a vector of environments and OpenSpiel's states copy and unpickle
    environments: each copy shares the compiled game while its ruleset's file is unchanged."""
    import copy
    import pickle
    path = tmp_path / "runaway.yaml"
    path.write_text(RUNAWAY)
    env = aec_env(str(path), step_limit=1000)
    again = pickle.loads(pickle.dumps(env))
    assert again.driver is env.driver and copy.deepcopy(env).driver is env.driver
    gym = gymnasium_env(str(path), step_limit=1000)
    assert pickle.loads(pickle.dumps(gym)).driver is gym.driver
    path.write_text(RUNAWAY + "\n# edited\n")  # another size: read and compiled again
    edited = pickle.loads(pickle.dumps(env))
    assert edited.driver is not env.driver and edited.driver.game.ruleset.files == env.driver.game.ruleset.files


# ------------------------------------------------------------------ the action space


def test_action_ids_mean_the_same_in_every_state():
    driver = Driver(Game(load_ruleset("twenty-trials"), "versus"))
    space = driver.actions
    cards = [a for a in space.actions if a.kind == "card"]
    assert [a.value for a in cards] == list(range(len(driver.game.ruleset.cards)))  # a card's id is its own
    assert {a.text for a in space.actions if a.kind == "menu"} >= {"play card", "pass turn"}
    gobbots = Driver(Game(load_ruleset("gauntlet-gobbots")))
    sidestep = next(s for i, s in gobbots.actions.slots.items() if gobbots.actions.sites[i].label == "sidestep")
    assert (sidestep[0].kind, sidestep[0].low, sidestep[0].high) == ("number", 1, 3)  # read off `where x >= 1 ...`
    for seed in range(3):  # each option's ids name its values
        ep = driver.new(seed)
        d = driver.game.decision(ep.st)
        for option, ids in zip(d.options, ep.answers):
            assert [space.actions[i].value for i in ids] == list(option)


def test_a_number_with_no_bounds_is_answered_by_its_rank():
    """`k in 1..round` has no bounds the rules give: its ids are ranks among the numbers offered."""
    text = SECRET_BIDS.replace("alice chooses c in hand of alice as bid:", "alice chooses k in 1..round + 2:\n"
                               "            pass\n          alice chooses c in hand of alice as bid:")
    driver = Driver(Game(load_text(text, "bids.yaml")))
    ep = driver.new(0)
    assert [[driver.actions.actions[i].text for i in ids] for ids in ep.answers] == \
        [["the 1st smallest number offered"], ["the 2nd smallest number offered"], ["the 3rd smallest number offered"]]
    assert any("k: a number, by its rank among those offered (at most 100)" in line
               for line in driver.actions.describe())
    bounded = text.replace("k in 1..round + 2:", "k in 1..round where k >= 1 and k <= 4:")
    assert Driver(Game(load_text(bounded, "bids.yaml"))).actions.ids[("number", 4)]


def test_registered_games_load_by_name_with_parameters():
    game = load_game("twenty-trials", "challenger", trial_modifiers=True)
    assert str(game) == "rulelang(max_moves=100000,mode=challenger,params=set(trial_modifiers=True)," \
                        "ruleset=twenty-trials,seed=0,step_limit=1000000)"
    again = pyspiel.load_game(str(game))
    assert again.get_parameters()["params"]["trial_modifiers"] is True
    assert again.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert load_game("twenty-trials", "moderator").get_type().information == \
        pyspiel.GameType.Information.PERFECT_INFORMATION  # every card open
    assert "params=set(players=3)" in str(load_game("pig-race", "race", players=3))
    assert load_game("pig-race", "race", players=3).num_players() == 3


def test_show_observation_documents_the_spaces(capsys):
    assert main(["show", "twenty-trials", "--observation", "--mode", "versus"]) == 0
    out = capsys.readouterr().out
    lines = (ROOT / "rulesets" / "twenty-trials.yaml").read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if "as complete:" in text and "action_row()" in text)
    assert "53 action ids:" in out and f"complete (rulesets/twenty-trials.yaml:{line}): a: a card, b: a card" in out
    assert "cards      [0:506]  46 x 11" in out and "  6: hand\n" in out
    assert main(["show", "twenty-trials", "--observation", "--python"]) == 2


def test_a_list_variable_is_in_the_tensor():
    """Yacht's dice (a list variable): their number, then each die, where a learner can read them."""
    game = Game(load_ruleset("yacht"))
    driver = Driver(game)
    ep = driver.new(3)
    dice = driver.viewer.variables(ep.st)["dice"]
    assert len(dice) == 5
    out = np.zeros(driver.encoding.size, np.float32)
    driver.tensor(ep, driver.current(ep), out)
    at = driver.encoding.at["vars"]
    assert list(out[at:at + 9]) == [5, *dice, 0, 0, 0]
