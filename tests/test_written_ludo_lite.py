"""Ludo Lite, written from the docs alone (tests/printing/ludo-lite.yaml): its rules' examples played with
dice thrown by hand, and whole games held to a plain model of the race (a 6 to come out, the exact roll
home, a pawn landed on sent back to its yard, a 6 rolls again)."""
import random
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from rulelang import load_ruleset

LUDO = Path(__file__).resolve().parent / "printing" / "ludo-lite.yaml"
HOME = 25  # a pawn's steps: 0 in its yard, 1 (its start) to 24 on the track, 25 home


@pytest.fixture(scope="module")
def game():
    return Game(load_ruleset(str(LUDO)), explicit_chance=True)


def throw(game, st, face):
    assert game.chance(st).count == 6
    game.apply_chance(st, face - 1)


def steps(game, st, pawn) -> int:
    """Where a pawn is, as the model counts it."""
    for zone, at in (("yard", 0), ("home", HOME)):
        if any(st.where[pawn] == game.zone_index(zone, owner=p) for p in game.roles):
            return at
    return game.state_of(st, pawn, "steps")


def owner(game, st, pawn) -> str:
    return next(p for p in game.roles for z in ("yard", "track", "home") if st.where[pawn] == game.zone_index(z, owner=p))


def space(seat: int, at: int) -> int:
    return (seat * 6 + at - 1) % 24 + 1


def test_no_six_and_no_pawn_out_loses_the_roll(game):
    st = game.new_state(0)
    throw(game, st, 4)  # Red: nothing can move, so Blue rolls
    assert game.decision(st) is None and game.chance(st) is not None
    throw(game, st, 6)
    assert game.decision(st).role == "blue"


def test_a_six_brings_a_pawn_out_and_rolls_again_and_a_pawn_landed_on_goes_back(game):
    st = game.new_state(0)
    throw(game, st, 6)
    red = game.decision(st).options[0][0]
    game.apply(st, 0)
    assert steps(game, st, red) == 1
    throw(game, st, 6)  # again: Red moves the pawn out 6 on (space 7, Blue's start)
    game.apply(st, [o[0] for o in game.decision(st).options].index(red))
    throw(game, st, 2)
    game.apply(st, 0)
    assert steps(game, st, red) == 9  # space 9
    throw(game, st, 6)  # Blue comes out on space 7, rolls again, and lands on space 9
    game.apply(st, 0)
    throw(game, st, 2)
    blue = game.decision(st).options[0][0]
    game.apply(st, 0)
    assert steps(game, st, blue) == 3 and steps(game, st, red) == 0 and owner(game, st, red) == "red"


def test_only_the_exact_roll_brings_a_pawn_home(game):
    st = game.new_state(0)
    throw(game, st, 6)
    red = game.decision(st).options[0][0]
    game.apply(st, 0)
    for face in (6, 6, 6, 5):  # 1 + 23 = 24: the space before Red's start
        throw(game, st, face)
        game.apply(st, [o[0] for o in game.decision(st).options].index(red))
    assert steps(game, st, red) == 24
    throw(game, st, 3)  # Blue
    throw(game, st, 2)  # Red: 26 is past home, and no other pawn is out
    assert game.decision(st) is None
    throw(game, st, 3)  # Blue
    throw(game, st, 1)
    game.apply(st, 0)
    assert steps(game, st, red) == HOME


@pytest.mark.parametrize("seed, players", [(s, 2 + s % 3) for s in range(24)])
def test_whole_games_race_as_the_rules_say(seed, players):
    game = Game(load_ruleset(str(LUDO), params={"players": players}), explicit_chance=True)
    rng = random.Random(seed)
    st = game.new_state(seed)
    seat = {p: i for i, p in enumerate(game.roles)}
    at = {c: 0 for c in game.cards("pawn") if st.where[c] != game.zone_index("box")}  # two pawns a player
    assert len(at) == 2 * players
    mine = {c: owner(game, st, c) for c in at}
    n = 0
    while not game.is_terminal(st):
        chance = game.chance(st)
        if chance is not None:
            outcome = game.sample_chance(st)
            n = outcome + 1
            game.apply_chance(st, outcome)
            continue
        d = game.decision(st)
        movable = {c for c in at if mine[c] == d.role and (at[c] == 0 and n == 6 or 0 < at[c] and at[c] + n <= HOME)}
        assert {o[0] for o in d.options} == movable
        pawn = d.options[rng.randrange(len(d.options))][0]
        at[pawn] = 1 if at[pawn] == 0 else at[pawn] + n
        if at[pawn] < HOME:
            for c in at:
                if mine[c] != d.role and 0 < at[c] < HOME and space(seat[mine[c]], at[c]) == space(seat[d.role], at[pawn]):
                    at[c] = 0
        game.apply(st, d.options.index((pawn,)))
        assert {c: steps(game, st, c) for c in at} == at
    winner = next(p for p, r in game.outcome(st)["results"].items() if r == "win")
    assert all(at[c] == HOME for c in at if mine[c] == winner)
