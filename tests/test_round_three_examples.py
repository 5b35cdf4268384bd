"""The three examples of the language's third round (rulesets/examples/): Yacht
(turns, a type's values, lists by place, options in their own words), Crown
and Anchor (a roll no one sees until it is revealed, announcements) and Three
Men's Morris (lines on a grid). Each rule held to positions arranged by hand;
each game played to its end by random and search players; secrets kept from
the search players' samples."""
import pytest
from helpers import Position

from interpreter.agents.base import PlayerView
from interpreter.agents.match import play
from interpreter.agents.registry import make_agent
from interpreter.agents.sampling import Sampler
from interpreter.analysis.simulate import simulate
from interpreter.engine.game import Game
from interpreter.engine.view import Viewer
from rulelang import load_ruleset


def game(name: str, **params) -> Game:
    return Game(load_ruleset(name, {k: str(v) for k, v in params.items()}), check_invariants=True)


# ---------------------------------------------------------------- Yacht

@pytest.mark.parametrize("dice, scores", [
    ([1, 1, 1, 2, 2], {"ones": 3, "twos": 4, "full house": 7, "four of a kind": 0, "choice": 7, "yacht": 0}),
    ([3, 3, 3, 3, 5], {"threes": 12, "fives": 5, "four of a kind": 12, "full house": 0}),
    ([1, 2, 3, 4, 5], {"little straight": 30, "big straight": 0, "choice": 15}),
    ([6, 2, 4, 5, 3], {"big straight": 30, "little straight": 0}),
    ([6, 6, 6, 6, 6], {"yacht": 50, "four of a kind": 24, "full house": 0, "sixes": 30}),
])
def test_yacht_boxes_score_the_dice_as_the_rules_say(dice, scores):
    p = Position(game("yacht", players=1)).set("dice", dice).start("Score")
    offered = dict(o.split(": ") for o in p.options())  # each box in its own words: "full house: 7"
    for box, points in scores.items():
        assert int(offered[box]) == points, (dice, box)


def test_a_yacht_turn_rolls_at_most_three_times_and_scores_one_box_each_turn():
    g = game("yacht", players=2)
    st = g.new_state(5)
    rolls, boxes = [], {r: 0 for r in g.roles}
    while st.outcome is None:
        d = g.decision(st)
        if d.label == "next":  # keep, or roll some again: asked after the first and the second roll
            rolls.append((st.round, d.role))
            g.apply(st, 1)  # roll some again
        elif d.label == "die":
            g.apply(st, 1)  # every die again
        else:
            boxes[d.role] += 1
            g.apply(st, 0)
    assert st.outcome["reason"] == "sheets_full" and st.outcome["rounds"] == 12
    assert boxes == {"player_1": 12, "player_2": 12}
    assert all(rolls.count((r, p)) == 2 for r in range(1, 13) for p in g.roles)


@pytest.mark.slow
def test_yacht_greedy_beats_random():
    g = game("yacht", players=2)
    tally = simulate(g, 20, 0, {"player_1": "greedy:samples=1", "player_2": "random"}).to_json()
    assert tally["win_rate"]["player_1"]["rate"] > 0.7


# ---------------------------------------------------------------- Crown and Anchor

def test_crown_and_anchor_pays_each_die_that_shows_the_symbol():
    p = Position(game("crown-and-anchor", players=2)).start("Shake the cup")
    p.st.vars[p.game.layout.var_slot["cup"]] = [3, 3, 5]  # heart, heart, club (the cup is not lifted yet)
    p.game.start_step(p.st, "Bet")
    assert p.options() == ["bet", "pass turn"]
    p.choose("bet")
    assert "2 on heart" in p.options()
    p.choose("2 on heart").choose("bet").choose("1 on crown")
    assert p.var("chips", "player_1") == 10 + 2 * 2 and p.var("chips", "player_2") == 10 - 1
    assert p.var("wins", "player_1") == 1


def test_no_one_sees_the_cup_until_it_is_lifted_and_search_players_do_not_either():
    g = game("crown-and-anchor", players=2)
    st = g.new_state(3)
    viewer = Viewer(g)
    for role in g.roles:
        obs = viewer.observe(st, role)
        assert "cup" not in obs["vars"]
        assert [e.get("secret") for e in obs["events"] if e["type"] == "roll"] == [True]
    real = st.vars[g.layout.var_slot["cup"]]
    sampler = Sampler(g, viewer)
    cups = [sampler.draw(st, st.pending.role, seed)[0].vars[g.layout.var_slot["cup"]] for seed in range(12)]
    assert len({tuple(c) for c in cups}) > 6 and sum(c == real for c in cups) <= 2  # rolled again: not known
    g.apply(st, 1)  # player 1 passes; player 2 passes: the cup is lifted
    g.apply(st, 1)
    shown = [e for e in viewer.observe(st, "player_1")["events"] if e["type"] == "reveal"]
    assert shown and shown[0]["what"] == "cup" and shown[0]["text"] == ", ".join(map(str, real))


@pytest.mark.slow
def test_a_search_player_that_cannot_see_the_cup_does_not_win_every_bet():
    # a player who saw the dice would bet on a symbol showing every round and end far ahead
    g = game("crown-and-anchor", players=1)
    tally = simulate(g, 16, 0, {"player_1": "greedy:samples=2"}).to_json()
    assert tally["win_rate"]["player_1"]["rate"] < 0.8


# ---------------------------------------------------------------- Three Men's Morris

def test_the_morris_board_has_eight_lines_and_men_move_along_them():
    g = game("three-mens-morris")
    p = Position(g)
    white = g.cards("man", colour="white")
    black = g.cards("man", colour="black")
    p.put("supply", owner="white").put("supply", owner="black")
    for (x, y), man in zip([(1, 1), (1, 2), (3, 3)], white):
        g.arrange(p.st, "board", [man], space=(x, y))
    for (x, y), man in zip([(2, 1), (3, 1), (2, 3)], black):
        g.arrange(p.st, "board", [man], space=(x, y))
    p.start("Move")
    moves = p.options()
    assert "1,1 to 2,2" in moves  # along the diagonal
    assert "1,2 to 2,2" in moves and "1,2 to 1,3" in moves
    assert "3,3 to 3,2" in moves and "3,3 to 2,2" in moves
    assert not any(m.startswith("1,2 to 2,3") or m.startswith("1,1 to 2,1") for m in moves)  # no line, or taken
    p.choose("1,1 to 2,2")  # white: 2,2, 1,2 and 3,3 — not a row yet
    assert p.st.outcome is None


def test_three_in_a_row_wins_and_a_player_who_cannot_move_loses():
    g = game("three-mens-morris")
    p = Position(g)
    white, black = g.cards("man", colour="white"), g.cards("man", colour="black")
    p.put("supply", owner="white").put("supply", owner="black")
    for (x, y), man in zip([(1, 1), (2, 2), (3, 2)], white):
        g.arrange(p.st, "board", [man], space=(x, y))
    for (x, y), man in zip([(1, 3), (2, 3), (3, 1)], black):
        g.arrange(p.st, "board", [man], space=(x, y))
    p.start("Move").choose("3,2 to 3,3")  # 1,1 - 2,2 - 3,3: the diagonal
    assert p.st.outcome["results"] == {"white": "win", "black": "lose"}
    assert p.st.outcome["reason"] == "three_in_a_row"


@pytest.mark.parametrize("name, players", [("yacht", 1), ("yacht", 4), ("crown-and-anchor", 1),
                                           ("crown-and-anchor", 4), ("three-mens-morris", 2)])
def test_random_games_of_each_end_without_error(name, players):
    g = game(name, players=players) if name != "three-mens-morris" else game(name)
    for seed in range(3):
        st = play(g, seed, {r: make_agent("random", seed, r) for r in g.roles})
        assert st.outcome is not None
    view = PlayerView(g, Viewer(g), g.new_state(0))
    assert view.options  # every first decision is offered in words
