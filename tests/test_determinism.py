"""Same ruleset, parameters, seed and decisions: the same game, every time."""
import importlib.util

import pytest

from helpers import ROOT, compiled, game_for

from interpreter.agents.match import play
from interpreter.agents.simple import RandomAgent
from interpreter.analysis.simulate import simulate
from interpreter.engine.game import Game
from rulelang import load_ruleset


def _baseline():
    spec = importlib.util.spec_from_file_location("baseline", ROOT / "benchmarks" / "baseline_twenty_trials.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fast_and_plain(name: str, params: dict, mode: str | None = None) -> tuple[Game, Game]:
    """The ruleset's optimised and plain (naive) programs, each compiled once a process."""
    return compiled(name, mode, params), compiled(name, mode, params, optimize=False)


def random_game(game: Game, seed: int) -> dict:
    return play(game, seed, {r: RandomAgent(seed, r) for r in game.roles}).outcome


def test_simulation_repeats_exactly():
    game = game_for()
    assert simulate(game, 300, seed=1).to_json() | {"games_per_second": None} == \
        simulate(game, 300, seed=1).to_json() | {"games_per_second": None}


def test_interpreter_plays_the_hand_written_game_move_for_move():
    baseline, game = _baseline(), game_for()
    for seed in range(300):
        o = random_game(game, seed)
        mine = {"result": o["results"]["challenger"], "reason": o["reason"],
                "score": o["scores"]["challenger"], "rounds": o["rounds"], "decisions": o["decisions"]}
        assert mine == baseline.play(seed), seed


def test_optimised_and_plain_rules_play_the_same_games():
    for params in ({}, {"trial_modifiers": "true", "action_modifiers": "true"}):
        fast, plain = fast_and_plain("twenty-trials", params)
        for seed in range(150):
            assert random_game(fast, seed) == random_game(plain, seed), (params, seed)


def test_variants_play_the_same_optimised_and_plain():
    for name, params in (("twenty-trials-tempered", {"trial_modifiers": "true"}),
                         ("twenty-trials-costly-refresh", {"action_modifiers": "true"}),
                         ("twenty-trials-small-hand", {"hand_size": "2"})):
        fast, plain = fast_and_plain(name, params)
        for seed in range(60):
            assert random_game(fast, seed) == random_game(plain, seed), (name, seed)


def test_the_optimiser_specialises_to_the_parameters():
    # without modifiers, nothing about modifiers is left in the compiled rules
    no_mods = game_for().rules.program
    assert no_mods.possible["reserve"] == frozenset({"refresh"})
    assert "action_modifier" not in repr(no_mods.steps)
    with_mods = game_for(action_modifiers=True).rules.program
    assert "action_modifier" in with_mods.possible["reserve"]


def test_gobbots_optimised_and_plain_rules_play_the_same_games():
    options = ({}, {"command_board_b": "true", "lower_board_b": "true"}, {"upper_board_b": "true", "hard": "true"},
               {"easy": "true"})
    for params in options:
        fast, plain = fast_and_plain("gauntlet-gobbots", params)
        for seed in range(60):
            assert random_game(fast, seed) == random_game(plain, seed), (params, seed)


def test_gobbots_simulation_repeats_exactly():
    game = game_for("gauntlet-gobbots")
    assert simulate(game, 100, seed=3).to_json() | {"games_per_second": None} == \
        simulate(game, 100, seed=3).to_json() | {"games_per_second": None}


def test_every_mode_plays_the_same_optimised_and_plain():
    for mode in ("trialmaster", "moderator", "versus"):
        for params in ({}, {"trial_modifiers": "true", "action_modifiers": "true"}):
            fast, plain = fast_and_plain("twenty-trials", params, mode)
            for seed in range(40):
                assert random_game(fast, seed) == random_game(plain, seed), (mode, params, seed)


@pytest.mark.slow  # whole commands, several times over: the default run stays under 4 minutes
def test_procedures_called_rather_than_inlined_play_the_same_games(monkeypatch):
    # with no inlining budget every procedure called from two places or more is called, not inlined
    # (Hand of Fate's biggest are, at the default budget): the games stay the same
    from interpreter.compiler import tuning
    for name, params in (("gauntlet-gobbots", {"hard": "true"}), ("gauntlet-race", {})):  # calls that ask decisions
        rs = load_ruleset(name, params)
        inlined = Game(rs)
        monkeypatch.setattr(tuning, "INLINE_BUDGET", 0)
        called = Game(rs)
        monkeypatch.setattr(tuning, "INLINE_BUDGET", 2000)
        assert called.rules.program.procedures and not inlined.rules.program.procedures
        assert called.possible == inlined.possible  # the zone analysis still sees through every call
        for seed in range(10 if name != "gauntlet-race" else 2):  # random players wander the race's track long
            assert random_game(called, seed) == random_game(inlined, seed), (name, seed)


def test_a_guard_over_a_decisions_options_lists_them_once():
    # `until can_complete()` tests the bindings the `complete` decision lists: the test lists them
    # itself and asks the decision when there are any (compiler/share.py); with modifiers, a value
    # has a binder counted against the step limit (1..8 twice): listing once would count it once, so no
    for params, shared in (({}, 1), ({"action_modifiers": True, "trial_modifiers": True}, 0),
                           ({"action_modifiers": True}, 0)):
        game = game_for(**params)
        # distinct lines: a block's code may also run inside the block before it (merge.py)
        asks = len({line.split("#")[0].strip() for line in game.rules.units[0].text().splitlines()
                    if "st.pending = _decision((" in line})
        assert asks == len(game.rules.sites) + shared, params
    # the code given up for such a binder leaves nothing behind (its lazy values were once left half-written)
    fast, plain = fast_and_plain("twenty-trials", {"action_modifiers": "true"})
    for seed in range(20):
        assert random_game(fast, seed) == random_game(plain, seed), seed


def test_a_local_used_in_one_block_never_reaches_the_frame():
    # Twenty Trials' `draw` binds the top card and moves it in the same block: a Python local
    # (merge.locals_not_in_env), so a frame at a decision holds only what decisions bound
    game = compiled("twenty-trials")
    answers = {n for site in game.rules.sites for n in site.names}
    for seed in range(5):
        st = game.new_state(seed)
        while st.outcome is None:
            assert set(st.stack[-1].env) <= answers, seed
            game.apply(st, seed % len(game.decision(st).options))
    # the card a draw looks at (`let c = top(action_deck)`) is a Python local, or not kept at all where
    # nothing reads it (compiler/live.py): never `env[k]`
    unit = game.rules.units[0]
    drawn = [f"k{i}" for i, c in enumerate(unit.consts) if isinstance(c, str) and c.startswith("c$")]
    assert drawn and not any(f"env[{k}]" in unit.text() for k in drawn)


def test_a_block_taken_into_the_only_function_that_leads_to_it_has_no_function_of_its_own():
    # merge.Merge: a jump whose follower's code is taken in is no exit; had every jump written
    # counted as one, each taken-in block would keep a function, and locals used across them
    # would go back into the frame (Gobbots 3% slower)
    for name in ("twenty-trials", "gauntlet-gobbots", "gauntlet-race"):
        main = compiled(name).rules.units[0].text()
        assert "_absorbed(" in main, name
