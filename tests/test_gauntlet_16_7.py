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


def test_the_terminal_shows_the_rooms_as_a_path_with_pawns_health_and_cards_in_play():
    from helpers.gauntlet_16_7 import Gauntlet167

    from interpreter.agents.terminal import board_drawings, render_board
    from interpreter.engine.view import Viewer
    p = Gauntlet167(3)
    a, b, c = p.players
    p.give(b, "Wall").room(a, 9).on(c, "Potion").set("health", c, 13)
    p.game.set_state(p.st, p.bridge(), "needed", 8)
    text = render_board(Viewer(p.game).observe(p.st, a), {}, a, board_drawings(p.game)).splitlines()
    rooms = [line.split() for line in text[text.index("  rooms") + 1:]]
    assert [r[:2] for r in rooms] == [["room", str(n)] for n in range(1, 14)]
    assert " ".join(rooms[5]) == "room 6 [forbidden path] — → room 7, room 9"  # the Forbidden Path
    assert " ".join(rooms[8]) == "room 9 Drawbridge (needed 8) · pawn 1 → room 10"
    assert " ".join(rooms[0]) == "room 1 pawn 2 · pawn 3 → room 2"
    assert "  hand     player 2: 1 card, face down" in text  # another's hand: how many, not which
    assert "  effects  player 3: Potion" in text
    table = [line.split() for line in text if line.split()[:1] in (["health"], ["you"], ["player"])]
    assert table[0][:2] == ["health", "team"] and table[1][:3] == ["you", "10", "none"]
    assert table[3][:3] == ["player", "3", "13"]
    assert not any(w in line for line in text for w in ("teams formed", "joins", "bridge turns"))  # statistics
