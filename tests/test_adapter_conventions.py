"""The adapters' conventions (issue 31): one rule for an illegal action in OpenSpiel,
PettingZoo and Gymnasium (a forfeit), zero-sum declared where the returns are, a
re-roll loop as one chance node, games, states and environments that pickle, a game
registered on import, and what the adapters do not provide, said.

Skipped without the `[rl]` extra (pip install '.[rl]')."""
import warnings

import pytest
from helpers import ROOT

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from test_adapters import RUNAWAY  # noqa: E402

from interpreter.adapters import aec_env, gymnasium_env, load_game, parallel_env  # noqa: E402
from interpreter.runtime import rng  # noqa: E402


@pytest.fixture(autouse=True)
def quiet():
    with warnings.catch_warnings():  # the frameworks' advice (unbounded boxes, agent names) is not a failure
        warnings.simplefilter("ignore", UserWarning)
        yield


def test_an_illegal_action_is_a_forfeit_in_every_adapter():
    """One convention (returns.py): the game ends, the offender -1; in a zero-sum game the other +1."""
    env = gymnasium_env("twenty-trials", role="challenger", mode="versus")
    obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and terminated and not truncated and info["illegal_action"]
    assert info["forfeit"] == "challenger"

    state = load_game("twenty-trials", "versus").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    mover = state.current_player()
    state.apply_action(next(a for a in range(state.num_distinct_actions()) if a not in state.legal_actions()))
    assert state.is_terminal() and state.legal_actions() == []
    assert state.returns()[mover] == -1.0 and sum(state.returns()) == 0.0  # zero-sum: the other gets +1

    aec = aec_env("oh-hell")
    aec.reset(seed=0)
    offender = aec.agent_selection
    mask = aec.observe(offender)["action_mask"]
    aec.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(aec.terminations.values()) and aec.infos[offender]["forfeit"] == offender
    assert aec.rewards == {a: -1.0 if a == offender else 0.0 for a in aec.possible_agents}  # general-sum: 0

    par = parallel_env("kuhn-poker")
    observations, _ = par.reset(seed=0)
    acting = next(a for a in par.agents if observations[a]["action_mask"].any())
    bad = int(np.flatnonzero(observations[acting]["action_mask"] == 0)[0])
    _, rewards, terminations, _, infos = par.step({a: bad for a in par.agents})  # the others' are ignored
    assert all(terminations.values()) and rewards[acting] == -1.0 and sum(rewards.values()) == 0.0
    assert infos[acting]["illegal_action"] and not par.agents


@pytest.mark.parametrize("whole", [False, pytest.param(True, marks=pytest.mark.slow)], ids=["first-roll", "whole"])
def test_a_reroll_loop_is_one_chance_node_and_enumeration_ends(whole):
    """The race's `roll d6 into die` then `while die <= 2: roll d6 into die`: one chance node over
    3..6, so a search that always takes the first outcome no longer rolls a 1 for ever."""
    game = load_game("gauntlet-race")
    state = game.new_initial_state()
    seen, moves = set(), 0
    while not state.is_terminal() and (whole or not seen):
        if state.is_chance_node():
            chance = state.episode.st.chance
            if chance.kind == "roll":
                seen.add((chance.site.die, len(state.chance_outcomes())))
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.pick(7, moves, len(legal))])
            moves += 1
    assert ("d6, kept where not die <= 2", 4) in seen and state.episode.truncated is None
    from interpreter.adapters.rerolls import Kept, draw
    kept = Kept(6, (2, 3, 4, 5))  # drawn as the loop draws: the whole die until a kept face, the same stream
    state_after, outcome = draw(12345, kept)
    stream, index = 12345, 0
    while index < 2:
        stream, index = rng.below(stream, 6)
    assert (state_after, outcome) == (stream, index - 2)


def test_zero_sum_is_declared_where_the_returns_sum_to_zero(tmp_path):
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability
    zero, general = pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.GENERAL_SUM
    kuhn = load_game("kuhn-poker")
    assert kuhn.get_type().utility == zero and kuhn.utility_sum() == 0.0
    assert 0 < exploitability.exploitability(kuhn, policy.UniformRandomPolicy(kuhn)) <= 1  # no longer refused
    assert load_game("twenty-trials", "versus").get_type().utility == zero
    assert load_game("gauntlet-gobbots").get_type().utility == general  # one player: a win is no one's loss
    assert load_game("pig-race", "race", players=3).get_type().utility == general  # one wins, two lose
    assert load_game("hand-of-fate-ordeals", players=2).get_type().utility == zero  # ranked: a win and a loss
    for end in ("eliminate a\n          end game", "win players"):  # one out and one in: -1 and 0; a team of both
        text = RUNAWAY.replace("roles: [solo]", "roles: [a, b]").replace(
            "solo chooses k in [1, 2] as go:\n            while true:\n              total += k", end)
        path = tmp_path / "ends.yaml"
        path.write_text(text)
        assert load_game(str(path)).get_type().utility == general, end


def test_states_games_and_environments_pickle_and_play_on_alike():
    import pickle
    game = load_game("kuhn-poker", seed=4)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    state.apply_action(state.legal_actions()[0])
    for copy in (pickle.loads(pickle.dumps(state)),
                 pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]):
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.information_state_string(1) == state.information_state_string(1)
        copy.apply_action(copy.legal_actions()[-1])
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    env = gymnasium_env("twenty-trials", role="challenger", mode="versus", opponents={"trialmaster": "greedy"})
    obs, info = env.reset(seed=2)
    twin = pickle.loads(pickle.dumps(env))
    for _ in range(4):
        action = int(np.flatnonzero(info["action_mask"])[0])
        a, b = env.step(action), twin.step(action)
        assert (a[0] == b[0]).all() and a[1:4] == b[1:4]
        info = a[4]
    for make in (aec_env, parallel_env):
        made = make("kuhn-poker")
        made.reset(seed=1)
        assert str(pickle.loads(pickle.dumps(made)).unwrapped.ep.st.to_json()) == str(made.unwrapped.ep.st.to_json())


def test_registered_on_import_in_a_fresh_process(tmp_path):
    """A game string, a pickled state and a Gymnasium id load in a process that only imports the adapter."""
    import pickle
    import subprocess
    import sys
    state = load_game("pig-race", players=3, seed=2).new_initial_state()
    state.apply_action(state.sample_chance())
    (tmp_path / "state.pickle").write_bytes(pickle.dumps(state))
    code = f"""
import pickle, pyspiel, gymnasium
import interpreter.adapters.openspiel_game, interpreter.adapters.gymnasium_learner
game = pyspiel.load_game("rulelang(ruleset=kuhn-poker,mode=duel)")
state = pickle.loads(open({str(tmp_path / "state.pickle")!r}, "rb").read())
env = gymnasium.make("rulelang/kuhn-poker-v0", render_mode="ansi")
env.reset(seed=1)
print(game.num_players(), len(state.history()), state.get_game().num_players(), type(env.render()).__name__)
"""
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.stdout.split() == ["2", "1", "3", "str"], r.stderr


def test_what_the_adapters_do_not_provide_is_said():
    state = load_game("kuhn-poker").new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
        state.information_state_tensor(0)
    env = aec_env("kuhn-poker")
    with pytest.raises(AssertionError, match="reset\\(\\) needs to be called before step"):
        env.step(0)  # PettingZoo's own order-enforcing wrapper, not an AttributeError
    with pytest.raises(ValueError, match="render_mode 'human'"):
        gymnasium_env("kuhn-poker", render_mode="human")
