"""What a simulation pays a game outside the rules' code: the same games, the same outcomes.

A simulation of agents that never look makes only their quick answers (registry.answers_maker),
and the game plays itself to its end in `new_state`; an ending that reads no ranking key is
placed once and copied after (Game._outcome). Both must give what `match.play` gives."""
import gc

import pytest
from helpers import compiled
from helpers.commands import cli

from interpreter.agents.match import play
from interpreter.agents.registry import AGENTS, answers_maker, make_agent, register
from interpreter.agents.simple import RandomAgent
from interpreter.analysis.work import Player, Setup

GAMES = [("kuhn-poker", None), ("oh-hell", {"players": 3}), ("twenty-trials", None), ("pig-race", None),
         ("crown-and-anchor", None), ("three-mens-morris", None)]


class Copycat(RandomAgent):
    """A random agent from elsewhere: not rulelang's own, so it is made and asked as any other."""


@pytest.fixture(scope="module", autouse=True)
def copycat():
    if "copycat-sim" not in AGENTS:
        register("copycat-sim", Copycat)


@pytest.mark.parametrize("spec", ["random", "first"])
def test_the_answers_made_without_an_agent_are_the_agents_own(spec):
    make = answers_maker(spec)
    for seed in (0, 1, 99, 2 ** 40):
        for role in ("alice", "north"):
            made, agent = make(seed, role), make_agent(spec, seed, role)
            # (k, n) in an order a game might ask them: out of order, repeated, one option among them
            asked = [(k, n) for k in (0, 1, 2, 5, 4, 40, 41, 3, 200) for n in (1, 2, 7, 52)]
            assert [made(k, n, "x") for k, n in asked] == [agent.quick(k, n, "x") for k, n in asked]


@pytest.mark.parametrize("spec", ["random:always=open:bet", "greedy", "mcts:iterations=5", "copycat-sim"])
def test_agents_that_look_or_are_not_rulelangs_own_are_made(spec):
    assert answers_maker(spec) is None


@pytest.mark.parametrize("name, params", GAMES)
def test_a_simulated_game_is_the_game_played(name, params):
    game = compiled(name, params=params)
    seeds = range(40) if name != "oh-hell" else range(10)
    for kinds in ({r: "random" for r in game.roles}, {r: "first" for r in game.roles},
                  {r: "copycat-sim" if i == 0 else "random" for i, r in enumerate(game.roles)}):
        player = Player(Setup.of(game, kinds), game)
        assert (player.answers is not None) == ("copycat-sim" not in kinds.values())
        for seed in seeds:
            agents = {r: make_agent(k, seed, r) for r, k in kinds.items()}
            assert player.play(seed) == play(game, seed, agents, history=False).outcome, (name, kinds, seed)


def test_a_game_that_stops_at_chance_plays_on_as_play_plays_it():
    game = compiled("pig-race", explicit_chance=True)  # every die stops play: the quick answers cannot finish it
    player = Player(Setup.of(game, {r: "random" for r in game.roles}), game)
    plain = compiled("pig-race")
    for seed in range(20):
        agents = {r: make_agent("random", seed, r) for r in game.roles}
        assert player.play(seed) == play(plain, seed, agents, history=False).outcome, seed


@pytest.mark.parametrize("name, params", GAMES)
def test_an_ending_placed_once_is_placed_as_every_time(name, params):
    game = compiled(name, params=params)
    kinds = {r: "random" for r in game.roles}
    player = Player(Setup.of(game, kinds), game)
    seeds = range(30) if name != "oh-hell" else range(8)
    kept = [player.play(seed) for seed in seeds]
    for seed, outcome in zip(seeds, kept):
        game._placed.clear()  # placed from scratch
        assert player.play(seed) == outcome, (name, seed)
    # each outcome its own: changing one changes no other game's
    first = player.play(0)
    first["results"].clear()
    first["places"].clear()
    assert player.play(0) == kept[0]


def test_a_command_called_in_process_leaves_the_collector_as_it_was(capsys):
    """`main` freezes what start-up made (cli.main.settled); a caller that goes on gets it collected again."""
    code, out, _ = cli(capsys, "simulate", "kuhn-poker", "--games", "20", "--jobs", "1")
    assert code == 0 and "20 games of mode duel" in out
    assert gc.isenabled() and gc.get_freeze_count() == 0
