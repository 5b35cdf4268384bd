"""16-7: The Gauntlet as a whole: checked for every count of players, played
to the end by random, greedy and MCTS players, for three, four and five."""
import pytest
from helpers.gauntlet_16_7 import game_167

from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.analysis.simulate import simulate
from interpreter.engine.game import Game


def game(players: int) -> Game:
    return game_167(players, explicit_chance=False)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_count_checks_with_its_own_seats(players):
    g = game(players)
    assert g.roles == tuple(f"player_{n}" for n in range(1, players + 1))
    assert len(g.ruleset.rulings) >= 18


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_end_with_one_player_through_room_13(players):
    g = game(players)
    tally = simulate(g, 6, seed=players * 100)
    data = tally.to_json()
    assert data["errors"]["games"] == 0
    assert sum(data["outcomes"].values()) == 6 and all(o.endswith("wins (through_room_13)") for o in data["outcomes"])
    assert sum(round(w["rate"] * 6) for w in data["win_rate"].values()) == 6  # one winner a game
    assert {"teams_formed", "bridge_turns", "path_taken", "bridge_lowered_at"} <= set(data["measures"])

@pytest.mark.parametrize("players, kind", [(5, "greedy"), (3, "mcts:iterations=2")])
def test_search_players_play_a_whole_game(players, kind):
    g = game(players)
    seat = g.roles[-1]
    agents = {r: make_agent("random", 7, r) for r in g.roles}
    agents[seat] = make_agent(kind, 7, seat)
    st = play(g, 7, agents)
    results = g.outcome(st)["results"]
    assert sorted(results) == sorted(g.roles) and list(results.values()).count("win") == 1
